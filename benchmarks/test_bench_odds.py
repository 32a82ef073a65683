"""Exact-odds benchmarks: ours and a baseline measured in the same run.

Run: ``uv run pytest benchmarks/test_bench_odds.py -p no:cacheprovider --benchmark-enable``
Ratios (``<baseline>_over_ours``) are in each benchmark's extra_info; nothing asserts on time.
"""

from fractions import Fraction

import numpy as np

from wargamekit import odds
from wargamekit.dice import Die


def _raw_numpy_greater() -> float:
    # The baseline: the same sum comparison by numpy convolution, as integers, no Fractions.
    d6 = np.ones(6, dtype=np.int64)
    a = np.convolve(d6, d6)  # 2d6: totals 2..12, +1 -> 3..13
    b = d6  # 1d6: totals 1..6, +2 -> 3..8
    cum_b = np.concatenate(([0], np.cumsum(b)))
    idx = np.clip(np.arange(3, 14) - 3, 0, 6)
    return float(np.dot(a, cum_b[idx])) / (36 * 6)


def test_compare_2d6_plus_1_vs_d6_plus_2(compare):
    """P(2d6+1 > 1d6+2): odds.compare (exact Fraction) vs raw numpy convolution (float)."""
    result = compare(
        lambda: odds.compare(odds.DiceSum(2, modifier=1), odds.DiceSum(1, modifier=2)),
        {"numpy_convolution": _raw_numpy_greater},
        rounds=200,
        ours_rounds=200,
    )
    assert result == Fraction(20, 27)
    assert abs(_raw_numpy_greater() - 20 / 27) < 1e-12


def test_sum_distribution_3d6(compare):
    """The full distribution of 3d6 as Fractions vs the raw convolution counts."""
    d6 = np.ones(6, dtype=np.int64)
    compare(
        lambda: odds.sum_distribution(3, Die(1, 6)),
        {"numpy_convolution": lambda: np.convolve(np.convolve(d6, d6), d6)},
        rounds=200,
        ours_rounds=200,
    )


def test_enumerate_10000_branches(compare):
    """An imperative procedure with 10,000 dice branches, enumerated exactly (target: < 1 s)."""

    def procedure(dice):
        first = dice.d10("a") + dice.d10("b")
        if first > 9:
            return first + dice.d10("c") // 3 + dice.d10("d") // 5
        return first + dice.d10("c") + dice.d10("d")

    def brute():
        # The same outcome distribution by explicit nested loops (no dice service).
        out: dict[int, int] = {}
        for a in range(10):
            for b in range(10):
                for c in range(10):
                    for d in range(10):
                        v = a + b + (c // 3 + d // 5 if a + b > 9 else c + d)
                        out[v] = out.get(v, 0) + 1
        return out

    dist = compare(lambda: odds.distribution(procedure), {"brute_force_loops": brute}, rounds=3, ours_rounds=3)
    assert sum(dist.values()) == 1
    assert {k: v * 10_000 for k, v in dist.items()} == brute()
