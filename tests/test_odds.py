"""Exact odds: enumeration of resolution procedures, checked by brute force and sampling."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargamekit import odds
from wargamekit.dice import Die, SeededDice, pool_distribution


def attack_beats_defence(dice):
    """P(2d6+1 > 1d6+2)."""
    return sum(dice.nd6(2, "attack")) + 1 > dice.d6("defence") + 2


def test_reference_comparison_is_twenty_over_twenty_seven():
    """P(2d6+1 > 1d6+2) is exactly 20/27 (the figure icepool gives)."""
    assert odds.probability(attack_beats_defence) == Fraction(20, 27)


def test_distribution_matches_brute_force_of_an_imperative_procedure():
    """A procedure with branching (a re-roll on a miss) matches an explicit enumeration."""

    def shot(dice, target):
        first = sum(dice.nd6(2, "to hit"))
        if first >= target:
            return "hit"
        return "hit" if dice.d6("re-roll") == 6 else "miss"

    brute = Fraction(0)
    for a, b in itertools.product(range(1, 7), repeat=2):
        if a + b >= 9:
            brute += Fraction(1, 36)
        else:
            brute += Fraction(1, 36) * Fraction(1, 6)
    dist = odds.distribution(shot, 9)
    assert dist["hit"] == brute
    assert sum(dist.values()) == 1


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 4), sides=st.integers(2, 8), modifier=st.integers(-3, 3))
def test_sum_distribution_matches_enumeration(n, sides, modifier):
    """Convolution sums equal enumerating the same dice through the dice service."""
    die = Die(1, sides)
    fast = odds.sum_distribution(n, die, modifier=modifier)
    slow = odds.distribution(lambda dice: sum(dice.roll(die, "x", n)) + modifier)
    assert fast == slow


def test_pools_enumerate_by_class_and_match_exact_distribution():
    """Pools enumerate as fail/single/double classes and agree with pool_distribution."""
    dist = odds.distribution(lambda dice: dice.pool(6, "attack").successes)
    assert dist == pool_distribution(6)
    # Lazily the pool is one draw over its 28 class combinations: one run of the procedure.
    calls = []
    odds.distribution(lambda dice: calls.append(1) or dice.pool(6, "x").successes)
    assert len(calls) == 1
    # With plain ints each of the 28 class combinations (not a million faces) is a run.
    calls.clear()
    eager = odds.distribution(lambda dice: calls.append(1) or dice.pool(6, "x").successes, lazy=False)
    assert eager == dist
    assert len(calls) == 28


def test_distribution_agrees_with_sampling():
    """Exact odds agree with a large seeded sample within sampling error."""
    exact = float(odds.probability(attack_beats_defence))
    dice = SeededDice(5)
    trials = 20000
    hits = sum(attack_beats_defence(dice) for _ in range(trials))
    assert abs(hits / trials - exact) < 4 * (exact * (1 - exact) / trials) ** 0.5


def test_branch_limit_refuses_instead_of_running_forever():
    """Past the branch limit enumeration stops with a clear error."""
    with pytest.raises(odds.BranchLimitError, match="more than 100 dice branches"):
        odds.distribution(lambda dice: dice.nd6(4, "x"), branch_limit=100)


def test_ten_thousand_branches_enumerate():
    """An imperative procedure with 10,000 branches enumerates completely."""
    dist = odds.distribution(lambda dice: sum(dice.roll(Die(0, 9), "x", 4)) % 7, branch_limit=10_000)
    assert sum(dist.values()) == 1
    assert len(dist) == 7


def test_expectation_of_two_d6():
    """The expected sum of 2d6 is 7."""
    assert odds.expectation(odds.sum_distribution(2)) == 7


def test_weighted_draws_use_integer_weights():
    """Uniform integer and coin draws give exact uniform probabilities."""
    dist = odds.distribution(lambda dice: dice.integer(3, 7, "free points"))
    assert dist == {v: Fraction(1, 5) for v in range(3, 8)}
    assert odds.distribution(lambda dice: dice.coin("toss")) == {False: Fraction(1, 2), True: Fraction(1, 2)}


@settings(max_examples=30, deadline=None)
@given(
    a=st.tuples(st.integers(0, 2), st.integers(2, 8), st.integers(-4, 4)),
    b=st.tuples(st.integers(0, 2), st.integers(2, 8), st.integers(-4, 4)),
)
def test_compare_matches_enumeration(a, b):
    """The convolution comparison equals enumerating both sums through the dice service."""
    x, y = odds.DiceSum(a[0], Die(1, a[1]), a[2]), odds.DiceSum(b[0], Die(1, b[1]), b[2])

    def contest(dice):
        return sum(dice.roll(x.die, "a", x.n)) + x.modifier > sum(dice.roll(y.die, "b", y.n)) + y.modifier

    assert odds.compare(x, y) == odds.probability(contest)


def test_large_sums_stay_exact():
    """Sums too large for int64 fall back to exact Python integers."""
    dist = odds.sum_distribution(30, Die(1, 10))
    assert sum(dist.values()) == 1
    assert dist[30] == Fraction(1, 10**30)


@pytest.mark.parametrize(("target", "double_at"), [(7, 10), (7, None), (10, None), (10, 10), (6, 8), (1, 1)])
def test_enumerated_pool_successes_and_tens_match_every_face(target, double_at):
    """Under enumeration both a pool's successes and its tens are exact, for every target and
    doubling rule (brute force over all faces of three dice)."""

    def pool(dice):
        roll = dice.pool(3, "x", target=target, double_at=double_at)
        return roll.successes, roll.tens

    brute: dict[tuple[int, int], Fraction] = {}
    for faces in itertools.product(range(1, 11), repeat=3):
        successes = sum(2 if double_at is not None and f >= double_at else f >= target for f in faces)
        key = (successes, sum(f == 10 for f in faces))
        brute[key] = brute.get(key, Fraction(0)) + Fraction(1, 1000)
    assert odds.distribution(pool) == dict(sorted(brute.items()))


def test_zero_weight_alternatives_are_no_branch():
    """An alternative that cannot happen is neither an outcome nor a branch counted."""
    runs = []

    def draw(dice):
        runs.append(1)
        return dice._pick([0, 1, 0, 2, 0], "weighted", "w")

    assert odds.distribution(draw) == {1: Fraction(1, 3), 3: Fraction(2, 3)}
    assert len(runs) == 2


def test_unhashable_outcome_is_a_clear_error():
    """A procedure returning a list is told to return something hashable."""
    with pytest.raises(TypeError, match="returned \\[.*not hashable; return a tuple"):
        odds.distribution(lambda dice: list(dice.nd6(2, "x")))


def test_unorderable_outcomes_keep_a_deterministic_order():
    """Outcomes that cannot be sorted come back in enumeration order (not hash order)."""
    dist = odds.distribution(lambda dice: None if dice.d6("x") < 3 else "hit")
    assert list(dist.items()) == [(None, Fraction(1, 3)), ("hit", Fraction(2, 3))]


def test_impure_procedure_is_a_clear_error():
    """A procedure that draws other dice when re-run is refused, not an IndexError."""
    sizes = iter([6, 1, 1])

    def impure(dice):
        # The first run branches on the d6 (face 1 or not); the second finds a d1 instead.
        return "high" if dice.roll(Die(1, next(sizes)), "shifting die")[0] > 1 else "low"

    with pytest.raises(ValueError, match="shifting die: the procedure drew other dice"):
        odds.distribution(impure)


def test_branch_limit_counts_branches_exactly():
    """A procedure with exactly branch_limit branches enumerates; one more is refused."""
    assert len(odds.distribution(lambda dice: dice.d6("x"), branch_limit=6)) == 6
    with pytest.raises(odds.BranchLimitError):
        odds.distribution(lambda dice: dice.d6("x"), branch_limit=5)


def test_sum_distribution_looks_up_like_a_dict_of_ints():
    """7.0 finds 7; 7.5 and "7" are absent (not an IndexError from numpy)."""
    dist = odds.sum_distribution(2)
    assert dist[7.0] == Fraction(1, 6)
    assert 7.5 not in dist and "7" not in dist and None not in dist
    assert dist.get(7.5) is None
