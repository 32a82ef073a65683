"""Shared helpers for the benchmark suites."""

import functools
import statistics
import time
from collections.abc import Callable

import pytest

from wargamekit import Game
from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game

#: ruleset -> scenario data change, for rulesets whose default games are shorter than 200 answers
LONGER = {"skirmish": {"turns": 14}}


def _median_seconds(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


@pytest.fixture
def compare(benchmark):
    """Benchmark ``ours`` with pytest-benchmark and time named baselines in the same run.

    Records each baseline's median and the ratio ``baseline / ours`` (above 1 = ours is
    faster) in ``benchmark.extra_info``. Nothing here asserts on timings.
    """

    def run(ours, baselines: dict, rounds: int = 5, ours_rounds: int = 10):
        result = benchmark.pedantic(ours, rounds=ours_rounds, warmup_rounds=1)
        stats = getattr(benchmark, "stats", None)
        ours_median = stats.stats.median if stats is not None else _median_seconds(ours, rounds)
        benchmark.extra_info["ours_median_s"] = ours_median
        for name, fn in baselines.items():
            fn()  # warm up
            med = _median_seconds(fn, rounds)
            benchmark.extra_info[f"{name}_median_s"] = med
            benchmark.extra_info[f"{name}_over_ours"] = med / ours_median
        return result

    return run


class LongGames:
    """Random-bot games long enough to restart or load deep into (``long_games`` fixture)."""

    longer = LONGER

    @staticmethod
    @functools.cache
    def game(name: str, past: int) -> tuple[Game, dict | None]:
        """A random-bot game of ruleset ``name`` with more than ``past`` answers (the first of
        40 seeds that has), and the scenario data it was played on (``None``: the default;
        a ruleset in :data:`LONGER` plays its default with that change)."""
        ruleset = installed_rulesets()[name]
        scenario = {**ruleset.scenario_data("default"), **LONGER[name]} if name in LONGER else None
        for seed in range(40):
            game = play_random_game(ruleset, scenario, seed=seed, check_invariants=False)
            if len(game.choices) > past:
                return game, scenario
        pytest.skip(f"{name}: no random game of 40 seeds reaches decision {past}")

    @staticmethod
    def answers_cpu_s(played: Game, scenario: dict | None, count: int) -> float:
        """CPU seconds of ``played``'s first ``count`` answers on a fresh game (its start,
        ``Game.new``, is no answer): the unit restarts and loads are counted in."""
        game = Game.new(played.ruleset, scenario, seed=played.seed)
        choices = played.choices[:count]
        t0 = time.process_time()
        for choice in choices:
            game.answer(choice)
        return time.process_time() - t0

    @staticmethod
    def cpu_once(fn: Callable[[], object]) -> float:
        """CPU seconds of one call of ``fn``."""
        t0 = time.process_time()
        fn()
        return time.process_time() - t0


@pytest.fixture(scope="session")
def long_games() -> type[LongGames]:
    """The long random-bot games the restart and cached-load benchmarks share."""
    return LongGames
