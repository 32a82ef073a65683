"""Balance studies (wargamekit.simulate, `wargamekit simulate`): seeds, workers, backends,
Parquet results, resuming, saves, the statistics hook and the report."""

from __future__ import annotations

import gc
import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from wargamekit import Game, hookimpl
from wargamekit.cli import cli
from wargamekit.players import bot_seed
from wargamekit.plugins import find_ruleset, installed_rulesets, plugin_manager
from wargamekit.simulate import (
    Study,
    StudyError,
    compare,
    game_seed,
    html_report,
    play_game,
    run_study,
    summarize,
    wilson,
)

# tank_solo's duel with random players is the quickest game of the bundled rulesets.
STUDY = Study("tank_solo", players=("random", "random"), games=10, scenario="duel", seed=11)


@pytest.fixture(scope="module")
def reference():
    """The study played in this process (one worker): what every other way must reproduce."""
    return run_study(STUDY, workers=1)


def test_game_seed_is_the_documented_seed_sequence_child():
    children = np.random.SeedSequence(11).spawn(5)
    for index, child in enumerate(children):
        assert game_seed(11, index) == int(child.generate_state(1, np.uint64)[0]) >> 1
    assert len({game_seed(11, i) for i in range(1000)}) == 1000


def test_rows_are_the_games_played_alone(reference):
    """Row i is exactly the game Game.new + Game.play give with game i's seed and bot seeds."""
    ruleset = find_ruleset("tank_solo", installed_rulesets())
    assert reference.column("game").to_pylist() == list(range(10))
    for row in reference.to_pylist()[:3]:
        seed = game_seed(11, row["game"])
        from wargamekit import RandomBot

        game = Game.new(ruleset, "duel", seed=seed)
        outcome = game.play({side: RandomBot(bot_seed(seed, k)) for k, side in enumerate(ruleset.sides)})
        assert row["seed"] == seed
        assert row["winner"] == outcome.winner
        assert row["reason"] == outcome.reason
        assert row["decisions"] == len(game.choices)
        assert row["turns"] == game.state.turn
        assert (row["score_A"], row["score_B"]) == (outcome.scores.get("A", 0), outcome.scores.get("B", 0))
        assert row["ruleset"] == "tank_solo" and row["version"] == ruleset.version
        assert json.loads(row["options"]) == game.options


def test_two_workers_give_the_same_rows(reference):
    assert run_study(STUDY, workers=2).equals(reference)


def _gc_settings():
    return gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()


def test_worker_processes_freeze_what_is_loaded_and_the_callers_collector_is_left_alone(reference):
    """docs/balance.md "On a cluster": the local workers (the runner's own processes) freeze
    what is loaded and collect less often; the caller's process keeps its settings."""
    from concurrent.futures import ProcessPoolExecutor

    from wargamekit.simulate import runner

    before = _gc_settings()
    run_study(STUDY, workers=1)
    run_study(STUDY, workers=2)
    assert _gc_settings() == before
    with ProcessPoolExecutor(1, initializer=runner._prepare_worker, initargs=("tank_solo",)) as pool:
        threshold, enabled, frozen = pool.submit(_gc_settings).result()
    assert threshold == runner.WORKER_GC_THRESHOLD == (10_000, 10, 10)
    assert enabled and frozen > before[2]


def test_alternate_rotates_the_seats():
    study = Study("tank_solo", players=("heuristic", "random"), games=3, alternate=True)
    assert [study.seats(i, ["A", "B"]) for i in range(3)] == [
        {"A": "heuristic", "B": "random"},
        {"A": "random", "B": "heuristic"},
        {"A": "heuristic", "B": "random"},
    ]
    fixed = Study("tank_solo", players=("heuristic", "random"), games=3)
    assert fixed.seats(1, ["A", "B"]) == {"A": "heuristic", "B": "random"}


def test_parquet_file_and_kept_saves_replay(tmp_path, reference):
    out = tmp_path / "results.parquet"
    saves = tmp_path / "saves"
    table = run_study(STUDY, out=out, workers=2, keep_saves=saves)
    assert table.equals(reference)
    assert pq.read_table(out).equals(reference)
    assert not (tmp_path / "results.parquet.parts").exists()
    # A surprising game can be replayed from its save.
    row = reference.to_pylist()[7]
    game = Game.load(saves / "game-000007.json")
    assert game.outcome is not None and game.outcome.winner == row["winner"]
    assert len(game.choices) == row["decisions"]
    assert len(list(saves.glob("game-*.json"))) == 10


def test_an_interrupted_study_resumes_where_it_stopped(tmp_path, reference):
    out = tmp_path / "r.parquet"

    def stop_after_first_chunk(done, total):
        if done > 0:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(STUDY, out=out, workers=1, on_chunk=stop_after_first_chunk)
    assert not out.exists()
    parts = list((tmp_path / "r.parquet.parts").glob("chunk-*.parquet"))
    assert len(parts) == 1
    kept = pq.read_table(parts[0]).num_rows
    assert 0 < kept < 10
    progress = []
    table = run_study(STUDY, out=out, workers=2, on_chunk=lambda done, total: progress.append(done))
    assert progress[0] == kept  # only the missing games were played
    assert table.equals(reference)
    assert pq.read_table(out).equals(reference)


def test_another_studys_chunks_are_refused(tmp_path):
    out = tmp_path / "r.parquet"

    def stop(done, total):
        if done > 0:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(STUDY, out=out, workers=1, on_chunk=stop)
    other = Study("tank_solo", players=("random", "random"), games=10, scenario="duel", seed=12)
    with pytest.raises(StudyError, match="another study"):
        run_study(other, out=out, workers=1)
    # resume=False starts over
    assert run_study(other, out=out, workers=1, resume=False).num_rows == 10


@pytest.mark.parametrize(
    ("study", "message"),
    [
        (Study("tank_solo", players=("random",), games=1), "one player per side"),
        (Study("tank_solo", players=("random", "wizard"), games=1), "no player kind 'wizard'"),
        (Study("tank_solo", players=("random", "random"), games=1, options={"no_such": True}), "options"),
        (Study("tank_solo", players=("random", "random"), games=1, scenario="nowhere"), "bundles no such scenario"),
    ],
)
def test_bad_studies_are_refused_before_playing(study, message):
    with pytest.raises(StudyError, match=message):
        run_study(study, workers=1)


def test_bad_counts_and_backend():
    with pytest.raises(StudyError, match="games"):
        Study("tank_solo", players=("random", "random"), games=-1)
    with pytest.raises(StudyError, match="backend 'spark'"):
        run_study(STUDY, backend="spark")  # type: ignore[arg-type]
    with pytest.raises(StudyError, match="address"):
        run_study(STUDY, backend="dask")


class LossCounter:
    """A statistics plugin: tanks each side lost."""

    @hookimpl
    def wargamekit_game_statistics(self, ruleset, state, outcome):
        if ruleset.name != "tank_solo":
            return None
        return {f"lost_{side}": sum(1 for t in state.tanks if t.side == side and not t.alive) for side in ruleset.sides}


class Other:
    @hookimpl
    def wargamekit_game_statistics(self, ruleset, state, outcome):
        return {"winner_known": outcome.winner is not None}


def test_statistics_hook_adds_columns():
    pm = plugin_manager(plugins=[LossCounter(), Other()])
    ruleset = find_ruleset("tank_solo", installed_rulesets())
    row = play_game(STUDY, 0, ruleset, "duel", pm.hook)
    assert row["stat_winner_known"] is (row["winner"] is not None)
    replayed = Game.new(ruleset, "duel", seed=row["seed"])
    from wargamekit import RandomBot

    replayed.play({s: RandomBot(bot_seed(row["seed"], k)) for k, s in enumerate(ruleset.sides)})
    for side in ruleset.sides:
        lost = sum(1 for t in replayed.state.tanks if t.side == side and not t.alive)
        assert row[f"stat_lost_{side}"] == lost
    # Without the plugins: no stat columns.
    assert not any(k.startswith("stat_") for k in play_game(STUDY, 0, ruleset, "duel", None))


def test_wilson_interval_and_two_proportion_test():
    rate = wilson("A wins", 60, 100)
    assert (round(rate.low, 4), round(rate.high, 4)) == (0.5020, 0.6906)
    assert wilson("draw", 0, 10).low == 0.0
    first = summarize_counts(60, 100)
    second = summarize_counts(40, 100)
    (a_wins, *_rest) = compare(first, second)
    # pooled z = 0.2 / sqrt(0.5 * 0.5 * (2/100)) = 2.828..., two-sided p = 0.00468
    assert a_wins.p_value == pytest.approx(0.004678, abs=1e-5)
    assert a_wins.difference == pytest.approx(-0.2)


def summarize_counts(a_wins, n):
    import pyarrow as pa

    winners = ["A"] * a_wins + ["B"] * (n - a_wins)
    table = pa.table(
        {
            "game": list(range(n)), "ruleset": ["x"] * n, "version": ["1"] * n, "scenario": ["s"] * n,
            "options": ["{}"] * n, "player_A": ["bot"] * n, "player_B": ["bot"] * n, "winner": winners,
            "winner_player": ["bot"] * n, "reason": ["r"] * n, "score_A": [0.0] * n, "score_B": [0.0] * n,
            "decisions": [1] * n, "turns": [1] * n,
        }
    )
    return summarize(table)


def test_summary_counts_sides_players_and_draws(reference):
    summary = summarize(reference)
    winners = reference.column("winner").to_pylist()
    assert [r.label for r in summary.sides] == ["A wins", "B wins", "draw"]
    assert [r.count for r in summary.sides] == [winners.count("A"), winners.count("B"), winners.count(None)]
    assert summary.games == 10


def test_html_report_is_self_contained(reference):
    other = run_study(STUDY.with_options(veteran_gunner=True), workers=1)
    page = html_report([reference, other], ["off", "veteran_gunner=true"])
    assert page.count("<svg") >= 3
    assert "p-value" in page and "veteran_gunner=true" in page
    # Nothing fetched: no scripts, no linked images or stylesheets.
    assert "<script" not in page and 'src="' not in page and "<link" not in page
    assert 'href="http' not in page
    assert html_report([reference, other], ["off", "veteran_gunner=true"]) == page  # deterministic


def test_cli_simulate_writes_results_and_report(tmp_path):
    out = tmp_path / "r.parquet"
    report = tmp_path / "r.html"
    result = CliRunner().invoke(
        cli,
        ["simulate", "tank_solo", "--scenario", "duel", "--players", "random,random", "--games", "6", "--seed", "11",
         "--workers", "1", "--out", str(out), "--report", str(report), "--against", "veteran_gunner=true", "-q"],
    )
    assert result.exit_code == 0, result.output
    assert "A wins" in result.output and "comparison" in result.output
    table = pq.read_table(out)
    assert table.column("seed").to_pylist() == [game_seed(11, i) for i in range(6)]
    against = pq.read_table(tmp_path / "r-against.parquet")
    assert all(json.loads(o)["veteran_gunner"] is True for o in against.column("options").to_pylist())
    assert "<svg" in report.read_text()


def test_cli_simulate_bad_player_is_one_error_line():
    result = CliRunner().invoke(cli, ["simulate", "tank_solo", "--players", "random,wizard", "--games", "1"])
    assert result.exit_code == 2
    assert "no player kind 'wizard'" in result.output


def test_dask_backend_on_a_local_cluster(reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
        table = run_study(STUDY, backend="dask", address=cluster.scheduler_address)
    assert table.equals(reference)


def test_ray_backend_on_a_local_cluster(reference, monkeypatch):
    ray = pytest.importorskip("ray")
    # Under `uv run`, Ray would start every worker through `uv run` with this repository as its
    # working directory (slow); the workers share this environment anyway.
    monkeypatch.setenv("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as exc:  # noqa: BLE001 - Ray's start-up errors have no common base
        # On an overloaded machine Ray's own services can miss their start-up deadlines; that
        # is Ray's start, not the backend under test (which the Dask test covers too).
        ray.shutdown()
        pytest.skip(f"Ray could not start a local cluster here: {type(exc).__name__}: {exc}")
    try:
        table = run_study(STUDY, backend="ray")
    finally:
        ray.shutdown()
    assert table.equals(reference)


def test_study_dataclass_is_frozen_and_round_trips():
    study = Study("tank_solo", players=["random", "random"], games=2, options={"b": 1, "a": 2})
    assert study.options == (("a", 2), ("b", 1))
    with pytest.raises(AttributeError):
        study.games = 3  # type: ignore[misc]
    assert json.loads(study.to_json())["options"] == {"a": 2, "b": 1}
