"""Balance studies: throughput by workers, and the runner's overhead over plain ``Game.play``.

Run: ``uv run pytest benchmarks/test_bench_simulate.py -p no:cacheprovider --benchmark-enable``

* ``test_study_scaling`` — a tank_solo study with the heuristic bots (``bot`` against
  ``cautious``, seats alternating; ``GAMES`` games) on 2 local worker processes, against the
  same study on 1 worker measured in the same run. ``extra_info``: ``games_per_s`` (2 workers),
  ``one_worker_over_ours`` (the speed-up; target 1.8 on 2 cores) and ``speedup_over_target``.
* ``test_runner_overhead`` — the same games with one worker (in this process) against the
  strongest baseline: a plain loop of ``Game.new`` + ``Game.play`` with the same seeds and
  bots, no rows, no Parquet. ``extra_info``: ``overhead`` (ours / plain - 1; target 0.05 or less),
  ``cpu_overhead``: the same in this process's CPU time (fastest of 3 rounds each: the time
  other processes take on a loaded machine does not count), and ``profiled_overhead``: in a
  cProfile of the study, the share of the time spent outside ``Game.new`` and ``Game.play``
  (what the runner adds, independent of the machine's load).

The machine may be shared: the two sides of each ratio are timed in the same run, alternately.
Nothing here asserts on timings; the figures go to ``extra_info``.
"""

from __future__ import annotations

import cProfile
import pstats
import statistics
import time

from wargamekit import Game
from wargamekit.players import bot_seed
from wargamekit.plugins import installed_rulesets
from wargamekit.simulate import Study, game_seed, make_player, run_study

GAMES = 40
STUDY = Study("tank_solo", players=("bot", "cautious"), games=GAMES, scenario="default", seed=1, alternate=True)
TARGET_SPEEDUP = 1.8
TARGET_OVERHEAD = 0.05


def _alternating(a, b, rounds: int, clock=time.perf_counter, best=statistics.median) -> tuple[float, float]:
    """Median (or ``best``) seconds of ``a`` and of ``b`` by ``clock``, run alternately (a shared
    machine's load hits both)."""
    ta, tb = [], []
    for _ in range(rounds):
        for fn, times in ((a, ta), (b, tb)):
            t0 = clock()
            fn()
            times.append(clock() - t0)
    return best(ta), best(tb)


def test_study_scaling(benchmark):
    run_study(STUDY, workers=1)  # warm up: imports, caches
    two, one = _alternating(lambda: run_study(STUDY, workers=2), lambda: run_study(STUDY, workers=1), rounds=3)
    benchmark.pedantic(lambda: None, rounds=1)
    benchmark.extra_info.update(
        games=GAMES,
        players="bot,cautious (alternating)",
        two_workers_s=two,
        one_worker_s=one,
        games_per_s=GAMES / two,
        one_worker_games_per_s=GAMES / one,
        one_worker_over_ours=one / two,
        speedup_over_target=(one / two) / TARGET_SPEEDUP,
    )


def _plain() -> None:
    ruleset = installed_rulesets()["tank_solo"]
    for i in range(GAMES):
        seed = game_seed(STUDY.seed, i)
        seats = STUDY.seats(i, ruleset.sides)
        players = {s: make_player(ruleset, seats[s], bot_seed(seed, k)) for k, s in enumerate(ruleset.sides)}
        Game.new(ruleset, STUDY.scenario, seed=seed, options=STUDY.options_dict).play(players)


def test_runner_overhead(benchmark):
    _plain()
    ours, plain = _alternating(lambda: run_study(STUDY, workers=1), _plain, rounds=3)
    # The same in this process's CPU time, fastest round of each: what a loaded machine's other
    # processes take from a round does not count (both sides play in this process).
    ours_cpu, plain_cpu = _alternating(lambda: run_study(STUDY, workers=1), _plain, rounds=3,
                                       clock=time.process_time, best=min)
    benchmark.pedantic(lambda: None, rounds=1)
    profile = cProfile.Profile()
    profile.runcall(run_study, STUDY, workers=1)
    stats = pstats.Stats(profile)
    total = stats.total_tt  # type: ignore[attr-defined]
    games = sum(
        cumulative
        for (path, _line, name), (_cc, _nc, _tt, cumulative, _callers) in stats.stats.items()  # type: ignore[attr-defined]
        if path.endswith("wargamekit/game.py") and name in ("new", "play")
    )
    benchmark.extra_info.update(
        games=GAMES,
        profiled_overhead=1 - games / total,
        ours_s=ours,
        plain_game_play_s=plain,
        overhead=ours / plain - 1,
        overhead_over_target=(ours / plain - 1) / TARGET_OVERHEAD,
        ours_cpu_s=ours_cpu,
        plain_game_play_cpu_s=plain_cpu,
        cpu_overhead=ours_cpu / plain_cpu - 1,
    )
