"""Shared helpers for the benchmark suites."""

import statistics
import time

import pytest


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
