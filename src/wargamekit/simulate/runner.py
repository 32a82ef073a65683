"""Running a study: games in chunks, on local processes or a Dask or Ray cluster, with results
written chunk by chunk so an interrupted study resumes where it stopped."""

from __future__ import annotations

import gc
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .. import plugins as _plugins
from .study import Study, StudyError, check_study, play_game, scenario_source

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["BACKENDS", "chunk_size", "play_chunk", "run_study"]

Backend = Literal["local", "dask", "ray"]
#: The backends :func:`run_study` knows.
BACKENDS: tuple[str, ...] = ("local", "dask", "ray")

#: The file in a results directory naming its study.
STUDY_FILE = "study.json"


def chunk_size(games: int, workers: int) -> int:
    """Games per task: enough that sending a task costs little next to playing it, few enough
    that every worker gets several tasks (load balance) and an interruption loses little."""
    return max(1, min(100, games // (workers * 8) or 1))


def play_chunk(study: Study, indices: list[int], keep_saves: str | None = None) -> list[dict[str, Any]]:
    """Play games ``indices`` of ``study`` (in a worker) and return their rows."""
    ruleset = _plugins.find_ruleset(study.ruleset, _plugins.installed_rulesets())
    scenario = scenario_source(study, ruleset)
    hook = _plugins.installed_plugin_manager().hook
    saves = Path(keep_saves) if keep_saves is not None else None
    return [play_game(study, i, ruleset, scenario, hook, saves) for i in indices]


#: The collector's thresholds in a local worker process (the default is ``(700, 10, 10)``).
WORKER_GC_THRESHOLD = (10_000, 10, 10)


def _prepare_worker(ruleset: str) -> None:
    """Set up a local worker process (the runner owns it): load the plugins, then freeze what
    is loaded and collect less often.

    Why: a game allocates many short-lived objects, so the collector runs often, and each
    full collection walks everything loaded (modules, rulesets, maps). ``gc.freeze()`` takes
    what is loaded now out of every collection; the higher first threshold makes young
    collections rarer. Games are unchanged (the collector frees only cycles nothing reaches).
    Never done in the caller's process (one worker, or a Dask or Ray worker): a library does
    not change a user's collector settings.
    """
    _plugins.find_ruleset(ruleset, _plugins.installed_rulesets())
    _plugins.installed_plugin_manager()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*WORKER_GC_THRESHOLD)


def _chunks(indices: list[int], size: int) -> list[list[int]]:
    return [indices[i : i + size] for i in range(0, len(indices), size)]


# -- results on disk ---------------------------------------------------------------------------


def _parts_dir(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def _open_parts(study: Study, parts: Path, resume: bool) -> set[int]:
    """Prepare the chunk directory; the game indices already played there."""
    import pyarrow.parquet as pq

    marker = parts / STUDY_FILE
    if parts.exists() and resume and marker.is_file():
        if marker.read_text(encoding="utf-8") != study.to_json():
            raise StudyError(
                f"{parts} holds the chunks of another study; remove it or choose another --out "
                f"(its study: {marker.read_text(encoding='utf-8')})"
            )
        done: set[int] = set()
        for part in sorted(parts.glob("chunk-*.parquet")):
            done.update(pq.read_table(part, columns=["game"]).column("game").to_pylist())
        return done
    if parts.exists():
        shutil.rmtree(parts)
    parts.mkdir(parents=True)
    marker.write_text(study.to_json(), encoding="utf-8")
    return set()


def _write_part(parts: Path, rows: list[dict[str, Any]]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = f"chunk-{min(r['game'] for r in rows):08d}.parquet"
    # Written under a temporary name then renamed: a kill mid-write leaves no half chunk.
    tmp = parts / (name + ".tmp")
    pq.write_table(pa.Table.from_pylist(rows), tmp)
    os.replace(tmp, parts / name)


def _gather(parts: Path) -> pa.Table:
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = [pq.read_table(p) for p in sorted(parts.glob("chunk-*.parquet"))]
    if not tables:
        return pa.table({"game": pa.array([], pa.int64())})
    table = pa.concat_tables(tables, promote_options="permissive")
    return table.sort_by("game")


# -- backends ----------------------------------------------------------------------------------


def _local(study: Study, chunks: list[list[int]], workers: int, saves: str | None) -> Iterator[list[dict[str, Any]]]:
    if workers <= 1:
        # One worker plays in this process: no pool to start, nothing to pickle.
        for chunk in chunks:
            yield play_chunk(study, chunk, saves)
        return
    with ProcessPoolExecutor(max_workers=workers, initializer=_prepare_worker, initargs=(study.ruleset,)) as pool:
        futures = [pool.submit(play_chunk, study, chunk, saves) for chunk in chunks]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def _dask(study: Study, chunks: list[list[int]], address: str | None, saves: str | None) -> Iterator[list[dict[str, Any]]]:
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:  # pragma: no cover - depends on the install
        raise StudyError("backend dask: install the extra: pip install 'wargamekit[dask]'") from None
    if address is None:
        raise StudyError("backend dask: give the scheduler's address (--address tcp://host:8786)")
    with Client(address) as client:
        futures = client.map(play_chunk, [study] * len(chunks), chunks, [saves] * len(chunks), pure=False)
        try:
            for future in dask_completed(futures):
                yield future.result()
        finally:
            client.cancel(futures)


def _ray(study: Study, chunks: list[list[int]], address: str | None, saves: str | None) -> Iterator[list[dict[str, Any]]]:
    try:
        import ray
    except ImportError:  # pragma: no cover - depends on the install
        raise StudyError("backend ray: install the extra: pip install 'wargamekit[ray]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(play_chunk)
        pending = [remote.remote(study, chunk, saves) for chunk in chunks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            yield ray.get(ready[0])
    finally:
        if started:
            ray.shutdown()


# -- the study ---------------------------------------------------------------------------------


def run_study(
    study: Study,
    *,
    out: str | Path | None = None,
    workers: int | None = None,
    backend: Backend = "local",
    address: str | None = None,
    resume: bool = True,
    keep_saves: str | Path | None = None,
    on_chunk: Callable[[int, int], None] | None = None,
) -> pa.Table:
    """Play every game of ``study`` and return the results, one row per game, sorted by game.

    Args:
        study: what to play.
        out: the Parquet file to write. Chunks go to ``<out>.parts/`` as they finish, and a
            later call with the same study and ``out`` plays only the games missing there
            (``resume``); the directory is removed once ``out`` is written. ``None``: a
            temporary directory, no resuming.
        workers: local processes (default: every core); ignored by the cluster backends.
        backend: ``"local"``, ``"dask"`` or ``"ray"``.
        address: the cluster's address (Dask scheduler ``tcp://host:8786``; Ray ``host:6379``
            or ``auto``; ``None`` starts a local Ray).
        resume: carry on from the chunks in ``<out>.parts/`` (the default); ``False`` starts over.
        keep_saves: a directory to write every game's save to (``game-000042.json``).
        on_chunk: told ``(games done, games in the study)`` after each chunk (progress bars).

    Returns:
        A ``pyarrow.Table``: see :doc:`/balance` for the columns.

    Raises:
        StudyError: the study cannot run (players, options, scenario, another study's chunks).
    """
    import tempfile

    if backend not in BACKENDS:
        raise StudyError(f"backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    ruleset = _plugins.find_ruleset(study.ruleset, _plugins.installed_rulesets())
    check_study(study, ruleset)
    workers = workers or os.cpu_count() or 1
    saves = None
    if keep_saves is not None:
        Path(keep_saves).mkdir(parents=True, exist_ok=True)
        saves = str(Path(keep_saves).resolve())
    with tempfile.TemporaryDirectory(prefix="wargamekit-study-") as scratch:
        target = Path(out) if out is not None else Path(scratch) / "results.parquet"
        parts = _parts_dir(target)
        done = _open_parts(study, parts, resume and out is not None)
        todo = [i for i in range(study.games) if i not in done]
        chunks = _chunks(todo, chunk_size(study.games, workers))
        finished = len(done)
        if on_chunk is not None:
            on_chunk(finished, study.games)
        for rows in _results(backend, study, chunks, workers, address, saves):
            if rows:
                _write_part(parts, rows)
            finished += len(rows)
            if on_chunk is not None:
                on_chunk(finished, study.games)
        table = _gather(parts)
        if out is not None:
            import pyarrow.parquet as pq

            target.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(table, target)
            shutil.rmtree(parts)
    return table


def _results(
    backend: str, study: Study, chunks: list[list[int]], workers: int, address: str | None, saves: str | None
) -> Iterable[list[dict[str, Any]]]:
    if not chunks:
        return []
    if backend == "dask":
        return _dask(study, chunks, address, saves)
    if backend == "ray":
        return _ray(study, chunks, address, saves)
    return _local(study, chunks, min(workers, len(chunks)), saves)
