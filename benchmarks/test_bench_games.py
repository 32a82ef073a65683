"""Whole games and restarts: every installed ruleset, measured against targets, not against itself.

Run: ``uv run pytest benchmarks/test_bench_games.py -p no:cacheprovider --benchmark-enable``

* ``test_random_games`` — whole seeded games between random bots, in games per second, each
  round (the warm-up too) on five seeds the process has not played (``FRESH_SEEDS``): a user's
  games meet positions no process memo holds, and replaying the same seeds finds every memo
  keyed by a position warm (aig's random game counted about half the instructions replayed,
  session 31). ``extra_info`` has ``games_per_s``, ``decisions_per_s``,
  ``games_per_s_over_target`` (target: 100 games/s per core; above 1 = target met), the same in
  CPU time (``games_per_cpu_s``: what one core gives when the machine is shared; the median
  round, through ``play_random_game`` and its checks' callbacks); then, on the basis of the
  figures before session 31 (seeds 0-4 played again and again: comparable with them, and
  flattering), ``replayed_games_per_cpu_s``, the median of three rounds, the fastest of five
  rounds of plain ``Game.play`` with snapshots (``best_games_per_cpu_s``) and interleaved with
  them, started with ``Game.new(..., snapshots=False)`` as a balance study (``wargamekit
  simulate``) plays them (``best_games_per_cpu_s_without_snapshots``), and
  ``snapshot_overhead``, what the snapshots add to a game (the ratio of those two, less 1).
  Each ruleset plays its default scenario (``scenario``: aig's is
  the smaller training battle; lnl's, "The village", is its smaller one).
* ``test_heavy_bot_games`` — whole games with the tank game's heuristic ``bot`` and its
  ``cautious`` bot on both sides (targets 30 and 20 games/s).
* ``test_view_share`` — the share of :meth:`Ruleset.view` and :meth:`Ruleset.shared_view`
  (what a bot's ``view.state`` costs; the shared view for a bot that promised only to read it)
  in whole games between each ruleset's ``bot`` (target: 5% or less), measured two ways:
  ``view_share_timed``, the views' own CPU time (a clock read around each call, what the reads
  themselves cost taken off) over the games' CPU time, the median of three passes; and ``view_share``, their share of a cProfile of the same
  games. The profile charges its own cost per call (a few hundred nanoseconds, C calls such as
  ``object.__new__`` included) to whatever makes the call, so it weighs code of many small calls
  (a view copies a record per call of ``__new__``) above its time and code of few larger calls
  below it; the timed share is the fair one, the profile's is kept for comparison with older figures.
* ``test_cold_first_game`` — a **fresh Python process** that imports wargamekit, finds the
  ruleset and plays one random-bot game: ``extra_info`` has the first game's seconds (timed in
  the child, imports excluded), the imports' seconds, and the first game over a warm one.
* ``test_restart`` — ``undo`` (one answer), ``fork`` and ``load`` (of the game's save, read
  from its JSON text) at decisions 50, 100 and 200 of a random-bot game, for every ruleset.
  ``extra_info`` has the cost in *ordinary answers*: the game's own answers given one by one
  on a fresh game (its start, ``Game.new``, not counted), the average of the first ``at`` of
  them. Both are CPU times (the machine is shared), measured in the same passes, interleaved
  (a pass times the answers once, then the restart several times; the medians of all passes
  are compared), so load that comes and goes weighs on both alike. Also the target (20
  answers) and, measured in the same run, a full replay from the start (what every restart
  cost before checkpoints). ``load`` is a load in the process where the game was played (it
  starts from that game's snapshots); ``load_cold`` is a load with no game of those inputs in
  the process (as in a fresh process): it replays from the start, checkpoints or not;
  ``save`` is the save that ``load`` loads, made on a copy of the game that was never saved
  (a save replays the answers since the ladder's last snapshot once, so the ladder reaches the
  latest checkpoint a load will restart at: that replay is in this figure, not in ``load``'s;
  undo and fork are timed on a game that was never saved, so it is in neither of theirs);
  ``load_cached`` is the same load given a new :class:`~wargamekit.snapshot_cache.SnapshotCache`
  on the directory the game's save wrote its latest snapshots to, each time (as a fresh process
  does: nothing of the entry unpickled before; ``extra_info``: the answers restored,
  the entry's bytes, and what a fresh process pays once to fingerprint the code). A
  ruleset whose random games all end before decision 200 is played on a longer scenario
  (``LONGER`` in ``conftest.py``), said in ``extra_info["scenario"]``.

Nothing here asserts on timings; the figures go to ``extra_info``.
"""

from __future__ import annotations

import cProfile
import itertools
import json
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable

import pytest

from wargamekit import Game, Ruleset, SaveFile, snapshot_cache
from wargamekit import game as game_module
from wargamekit.players import RandomBot, bot_seed
from wargamekit.plugins import installed_rulesets
from wargamekit.snapshot_cache import SnapshotCache
from wargamekit.testing import play_random_game

RULESETS = sorted(installed_rulesets())
TARGET_GAMES_PER_S = 100
TARGET_HEAVY = {"bot": 30, "cautious": 20}
TARGET_ANSWERS = 20
TARGET_VIEW_SHARE = 0.05
POSITIONS = (50, 100, 200)
SEEDS = range(5)
#: the seeds ``test_random_games`` draws five a round from: none is played elsewhere in a run
FRESH_SEEDS = itertools.count(1000)

#: ruleset -> the bundled scenario its "default" is, where it names another (the smaller one)
SCENARIO_NAMES = {"aig": "training"}


def _median(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _ours_median(benchmark, fn, rounds: int) -> float:
    stats = getattr(benchmark, "stats", None)
    return stats.stats.median if stats is not None else _median(fn, rounds)


def _play(ruleset, factories, seed: int, scenario=None) -> Game:
    game = Game.new(ruleset, scenario, seed=seed)
    game.play({side: factories(side)(bot_seed(seed, i)) for i, side in enumerate(ruleset.sides)})
    return game


def _with_and_without_snapshots(ruleset: Ruleset, rounds: int = 5) -> tuple[float, float]:
    """The seeded random-bot games with snapshots and with ``snapshots=False``, interleaved
    round by round in CPU time, the fastest round of each (the least disturbed by other load):
    games per CPU second with and without snapshots."""

    def games(snapshots: bool) -> float:
        t0 = time.process_time()
        for seed in SEEDS:
            game = Game.new(ruleset, seed=seed, snapshots=snapshots)
            game.play({side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(ruleset.sides)})
        return time.process_time() - t0

    with_ladder, without = [], []
    for _ in range(rounds):
        with_ladder.append(games(True))
        without.append(games(False))
    return len(SEEDS) / min(with_ladder), len(SEEDS) / min(without)


@pytest.mark.parametrize("name", RULESETS)
def test_random_games(benchmark, name):
    ruleset = installed_rulesets()[name]

    cpu: list[float] = []  # CPU seconds of each round: what "per core" means on a loaded machine

    def games(seeds: Iterable[int] = ()) -> int:
        seeds = seeds or list(itertools.islice(FRESH_SEEDS, len(SEEDS)))
        t0 = time.process_time()
        played = sum(len(play_random_game(ruleset, seed=s, check_invariants=False).choices) for s in seeds)
        cpu.append(time.process_time() - t0)
        return played

    decisions = benchmark.pedantic(games, rounds=3, warmup_rounds=1)
    per_round = _ours_median(benchmark, games, 3)
    games_per_s = len(SEEDS) / per_round
    games_per_cpu_s = len(SEEDS) / statistics.median(cpu[-3:])
    for _ in range(4):  # the old basis: seeds 0-4 once to warm up, then three rounds of them again
        games(SEEDS)
    replayed_games_per_cpu_s = len(SEEDS) / statistics.median(cpu[-3:])
    with_snapshots, without_snapshots = _with_and_without_snapshots(ruleset)
    benchmark.extra_info.update(
        scenario="default" if name not in SCENARIO_NAMES else f"default ({SCENARIO_NAMES[name]})",
        snapshot_overhead=without_snapshots / with_snapshots - 1,
        best_games_per_cpu_s=with_snapshots,
        best_games_per_cpu_s_without_snapshots=without_snapshots,
        games_per_s=games_per_s,
        games_per_cpu_s=games_per_cpu_s,
        games_per_cpu_s_over_target=games_per_cpu_s / TARGET_GAMES_PER_S,
        replayed_games_per_cpu_s=replayed_games_per_cpu_s,
        decisions_per_s=decisions / per_round,
        decisions_per_game=decisions / len(SEEDS),
        target_games_per_s=TARGET_GAMES_PER_S,
        games_per_s_over_target=games_per_s / TARGET_GAMES_PER_S,
    )


@pytest.mark.parametrize("bot", sorted(TARGET_HEAVY))
def test_heavy_bot_games(benchmark, bot):
    """tank_solo with its heuristic ``bot`` / its ``cautious`` bot on both sides (warm caches)."""
    rulesets = installed_rulesets()
    if "tank_solo" not in rulesets:
        pytest.skip("tank_solo is not installed")
    ruleset = rulesets["tank_solo"]
    factory = ruleset.bots()[bot]

    def games() -> int:
        return sum(len(_play(ruleset, lambda side: factory, s).choices) for s in SEEDS)

    decisions = benchmark.pedantic(games, rounds=3, warmup_rounds=1)
    games_per_s = len(SEEDS) / _ours_median(benchmark, games, 3)
    benchmark.extra_info.update(
        games_per_s=games_per_s,
        decisions_per_game=decisions / len(SEEDS),
        target_games_per_s=TARGET_HEAVY[bot],
        games_per_s_over_target=games_per_s / TARGET_HEAVY[bot],
    )


BOT_RULESETS = [name for name in RULESETS if "bot" in installed_rulesets()[name].bots()]


@pytest.mark.parametrize("name", BOT_RULESETS)
def test_view_share(benchmark, name):
    """Whole games between the ruleset's ``bot`` on every side, timed and profiled: how much is views."""
    ruleset = installed_rulesets()[name]
    factory = ruleset.bots()["bot"]

    def games() -> None:
        for s in range(3):
            _play(ruleset, lambda side: factory, s)

    benchmark.pedantic(games, rounds=1, warmup_rounds=1)
    # timed: the views' own CPU time over the games' (the machine is shared). A read of the CPU
    # clock is a system call (about a microsecond, a tenth of a view): what an empty pair of reads
    # measures is taken off each view, and what the pairs cost off the games.
    clock = time.process_time
    empty = statistics.median(-clock() + clock() for _ in range(2001))
    pair = _median(lambda: [clock() for _ in range(200)], 9) / 100
    cls = type(ruleset)
    # What a bot's view.state costs: Ruleset.view, or Ruleset.shared_view for a bot that
    # promised only to read it (reads_view_only); each is timed alone (the default shared
    # view calls view, which its own timer leaves out).
    spent_in_views = [0.0, 0]
    originals = {name: getattr(cls, name) for name in ("view", "shared_view")}

    def timed(method):
        def timed_view(self, state, side):
            t0 = clock()
            seen = method(self, state, side)
            spent_in_views[0] += clock() - t0
            spent_in_views[1] += 1
            return seen

        return timed_view

    timers = {}
    if originals["shared_view"] is not Ruleset.shared_view:
        timers["shared_view"] = timed(originals["shared_view"])
    timers["view"] = timed(originals["view"])
    shares = []
    for name, timer in timers.items():
        setattr(cls, name, timer)
    try:
        for _ in range(3):
            spent_in_views[:] = [0.0, 0]
            t0 = clock()
            games()
            total = clock() - t0 - spent_in_views[1] * pair
            shares.append((spent_in_views[0] - spent_in_views[1] * empty) / total)
    finally:
        for name, timer in timers.items():
            if name in vars(cls) and vars(cls)[name] is timer:
                delattr(cls, name)  # its own method, or the inherited one, is back
            if getattr(cls, name) is not originals[name]:
                setattr(cls, name, originals[name])
    timed_share = statistics.median(shares)
    profile = cProfile.Profile()
    profile.runcall(games)
    stats = pstats.Stats(profile)
    codes = {(c.co_filename, c.co_firstlineno, c.co_name) for c in (originals[name].__code__ for name in timers)}
    spent = sum(
        cumulative
        for key, (_, _, _, cumulative, _) in stats.stats.items()  # type: ignore[attr-defined]
        if key in codes
    )
    share = spent / stats.total_tt  # type: ignore[attr-defined]
    benchmark.extra_info.update(
        view_share_timed=timed_share,
        view_share_timed_over_target=timed_share / TARGET_VIEW_SHARE,
        view_share=share,
        target_view_share=TARGET_VIEW_SHARE,
        view_share_over_target=share / TARGET_VIEW_SHARE,
    )


_COLD = """
import json, sys, time
t0 = time.perf_counter()
from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game
ruleset = installed_rulesets()[sys.argv[1]]
t1 = time.perf_counter()
play_random_game(ruleset, seed=1, check_invariants=False)
t2 = time.perf_counter()
play_random_game(ruleset, seed=1, check_invariants=False)
t3 = time.perf_counter()
print(json.dumps({"imports_s": t1 - t0, "first_game_s": t2 - t1, "warm_game_s": t3 - t2}))
"""


@pytest.mark.parametrize("name", RULESETS)
def test_cold_first_game(benchmark, name):
    """A fresh process per round: imports, then the first game (every cache cold), then a warm one."""
    reports = []

    def fresh_process() -> None:
        out = subprocess.run([sys.executable, "-c", _COLD, name], check=True, capture_output=True, text=True)
        reports.append(json.loads(out.stdout.strip().splitlines()[-1]))

    benchmark.pedantic(fresh_process, rounds=3, warmup_rounds=0)
    first = statistics.median(r["first_game_s"] for r in reports)
    warm = statistics.median(r["warm_game_s"] for r in reports)
    benchmark.extra_info.update(
        cache="fresh process",
        first_game_s=first,
        imports_s=statistics.median(r["imports_s"] for r in reports),
        warm_game_s=warm,
        first_over_warm=first / warm,
    )


@pytest.mark.parametrize("at", POSITIONS)
@pytest.mark.parametrize("op", ["undo", "fork", "save", "load", "load_cold", "load_cached"])
@pytest.mark.parametrize("name", RULESETS)
def test_restart(benchmark, name, op, at, tmp_path, long_games):
    played, scenario = long_games.game(name, max(POSITIONS))
    ruleset = played.ruleset
    choices = played.choices[:at]

    def answers_cpu_s() -> float:
        return long_games.answers_cpu_s(played, scenario, at)

    game = Game.new(ruleset, scenario, seed=played.seed)
    for choice in choices:
        game.answer(choice)
    # A save first makes the game's snapshot ladder reach its latest checkpoint (Game.save): undo,
    # fork and a save of its own are timed on a game that was never saved, so no earlier save's
    # replay is behind their figures; a load is timed after the save it loads, as a user's is.
    saved = game if op in ("load", "load_cold", "load_cached") else game.fork()
    text = saved.save().to_json()
    rulesets = {ruleset.name: ruleset}

    def load() -> Game:  # what loading the save file costs once its bytes are read
        return Game.load(SaveFile.from_json(text), rulesets=rulesets)

    def full_replay() -> Game:  # what every restart cost before checkpoints
        game_module._LADDERS.clear()
        return load()

    directory = tmp_path / "snapshots"
    cache = SnapshotCache(directory)
    if op == "load_cached":
        game.save(snapshots=cache)  # what the CLI's --save does: the latest snapshots to the cache

    def cached_load() -> Game:
        """A load as a fresh process makes it: no game of those inputs in the process, and a new
        cache object, so the entry's scenario part is unpickled again (one cache object keeps
        it for its later loads: ``benchmarks/test_bench_cache.py`` measures both)."""
        nonlocal cache
        game_module._LADDERS.clear()
        cache = SnapshotCache(directory)
        loaded = Game.load(SaveFile.from_json(text), rulesets=rulesets, snapshots=cache)
        assert cache.stats.last_position is not None, "the load missed the cache"
        return loaded

    def undo_cpu_s() -> float:
        other = game.fork()  # setup: the undo is timed on a copy, the game stays at ``at``
        return long_games.cpu_once(lambda: other.undo(1))

    def save_cpu_s() -> float:
        other = game.fork()  # setup: a copy never saved, whose save replays to its latest checkpoint
        return long_games.cpu_once(lambda: other.save().to_json())

    timed: Callable[[], float] = {
        "undo": undo_cpu_s,
        "save": save_cpu_s,
        "fork": lambda: long_games.cpu_once(game.fork),
        "load": lambda: long_games.cpu_once(load),
        "load_cold": lambda: long_games.cpu_once(full_replay),
        "load_cached": lambda: long_games.cpu_once(cached_load),
    }[op]
    if op == "undo":
        result = benchmark.pedantic(lambda g: g.undo(1), setup=lambda: ((game.fork(),), {}), rounds=20)
    elif op == "save":
        result = benchmark.pedantic(lambda g: g.save().to_json(), setup=lambda: ((game.fork(),), {}), rounds=20)
    else:
        result = benchmark.pedantic(
            {"fork": game.fork, "load": load, "load_cold": full_replay, "load_cached": cached_load}[op],
            rounds=20 if op != "load_cold" else 10, warmup_rounds=1,
        )
    if op in ("fork", "load", "load_cold", "load_cached"):
        assert result.log_text() == game.log_text()
    # The unit and the cost in the same passes, interleaved; CPU time, medians of all passes.
    per_answer, costs = [], []
    for _ in range(5):
        per_answer.append(answers_cpu_s() / at)
        costs.extend(timed() for _ in range(4 if op != "load_cold" else 2))
    replay_s = statistics.median(long_games.cpu_once(full_replay) for _ in range(3))  # last: it drops the ladders
    game_module._LADDERS.clear()
    answer_s, cost_s = statistics.median(per_answer), statistics.median(costs)
    if op == "load_cached":
        # what a fresh process pays once more: fingerprinting the installed code (then cached)
        snapshot_cache._FINGERPRINTS.clear()
        snapshot_cache._ENVIRONMENT.clear()
        benchmark.extra_info.update(
            restored_at=cache.stats.last_position,
            entry_bytes=sum(path.stat().st_size for path in cache.entries()),
            first_fingerprint_cpu_s=long_games.cpu_once(lambda: snapshot_cache.code_fingerprint(ruleset, None)),
        )
    benchmark.extra_info.update(
        scenario="default" if scenario is None else f"default with {long_games.longer[name]}",
        seed=played.seed,
        checkpoints=len(game.checkpoints),
        ordinary_answer_cpu_s=answer_s,
        cost_cpu_s=cost_s,
        cost_in_answers=cost_s / answer_s,
        target_answers=TARGET_ANSWERS,
        cost_in_answers_over_target=cost_s / answer_s / TARGET_ANSWERS,
        full_replay_cpu_s=replay_s,
        full_replay_over_ours=replay_s / cost_s,
    )
