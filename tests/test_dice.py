"""The dice service: seeded, scripted and recorded draws of every die the rulesets use."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from wargamekit.dice import DiceScriptError, Die, ScriptedDice, SeededDice, pool_distribution


def test_seeded_dice_repeat_for_same_seed():
    """The same seed gives the same sequence of every kind of draw."""

    def draws(dice):
        return (
            dice.nd6(3, "a"),
            dice.d10("b"),
            dice.d20("c"),
            dice.integer(3, 17, "d"),
            dice.coin("e"),
            dice.pool(6, "f"),
        )

    assert draws(SeededDice(11)) == draws(SeededDice(11))
    assert draws(SeededDice(11)) != draws(SeededDice(12))


def test_d10_reads_zero_to_nine():
    """AIG 2.3: a d10 reads 0-9 ("0 is 0, not 10")."""
    dice = SeededDice(1)
    faces = Counter(dice.d10("x") for _ in range(3000))
    assert set(faces) == set(range(10))


def test_integer_covers_inclusive_range():
    """The tank game's random-number generator: a uniform integer in [lo, hi], both ends included."""
    dice = SeededDice(2)
    seen = {dice.integer(3, 9, "free action points") for _ in range(2000)}
    assert seen == set(range(3, 10))


def test_every_roll_is_recorded_with_its_purpose():
    """Every draw is recorded once, with its purpose, kind, faces and value."""
    seen = []
    dice = ScriptedDice([2, 5, 6, 0], on_roll=seen.append)
    assert dice.nd6(2, "to hit") == (2, 5)
    assert dice.d6("damage") == 6
    assert dice.d10("seize") == 0
    assert [(r.purpose, r.kind, r.faces, r.value) for r in dice.rolls] == [
        ("to hit", "2d6", (2, 5), 7),
        ("damage", "d6", (6,), 6),
        ("seize", "d10(0-9)", (0,), 0),
    ]
    assert seen == dice.rolls


def test_script_running_out_is_a_clear_error():
    """A scripted service that runs out names the draw that needed a face."""
    dice = ScriptedDice([4])
    dice.d6("first")
    with pytest.raises(DiceScriptError, match="second: the dice script ran out after 1 faces"):
        dice.d6("second")


def test_impossible_forced_face_is_a_clear_error():
    """A scripted face the die cannot show is refused, naming the die."""
    with pytest.raises(DiceScriptError, match="impossible on a d20"):
        ScriptedDice([21]).d20("join battle")
    with pytest.raises(DiceScriptError, match=r"impossible on a d10\(0-9\)"):
        ScriptedDice([10]).d10("activation")


def test_pool_counts_sevens_and_doubles_tens():
    """MTTT pools: 7+ is a success and a 10 counts twice."""
    roll = ScriptedDice([1, 6, 7, 9, 10]).pool(5, "attack")
    assert roll.successes == 1 + 1 + 2
    assert roll.faces == (1, 6, 7, 9, 10)
    assert roll.tens == 1


def test_pool_without_double_tens():
    """Battle groups' damage: tens do not count twice when a rule says so."""
    roll = ScriptedDice([10, 10, 3]).pool(3, "battle group damage", double_at=None)
    assert roll.successes == 2


def test_pool_with_other_target_number():
    """A pool's target number can change (a difficulty of the rule)."""
    assert ScriptedDice([5, 6, 4]).pool(3, "x", target=5).successes == 2


def test_pool_distribution_sums_to_one_and_matches_brute_force():
    """The exact pool distribution equals enumerating every face of three dice."""
    exact = pool_distribution(3)
    assert sum(exact.values()) == 1
    brute: Counter[int] = Counter()
    for a in range(1, 11):
        for b in range(1, 11):
            for c in range(1, 11):
                brute[sum(2 if f == 10 else 1 if f >= 7 else 0 for f in (a, b, c))] += 1
    assert exact == {k: Fraction(v, 1000) for k, v in sorted(brute.items())}


def test_secret_rolls_carry_their_audience():
    """Rolls made inside dice.secret() are visible only to the audience."""
    dice = ScriptedDice([3, 4])
    with dice.secret(["allies"]):
        dice.d6("hidden special round")
    dice.d6("open roll")
    assert [r.audience for r in dice.rolls] == [("allies",), None]


def test_bad_dice_requests_are_refused():
    """Negative counts and inverted dice are refused."""
    with pytest.raises(ValueError):
        Die(6, 1)
    with pytest.raises(ValueError):
        SeededDice(0).nd6(-1, "x")
    with pytest.raises(ValueError):
        SeededDice(0).pool(3, "x", target=11)
    with pytest.raises(ValueError):
        SeededDice(0).pick([], "nothing")


def test_pick_and_coin_are_recorded_draws():
    """pick() and coin() go through the same recorded primitive."""
    dice = ScriptedDice([2, 1, 0])
    assert dice.pick(["a", "b", "c"], "target") == "c"
    assert dice.coin("who goes first") is True
    assert dice.coin("again") is False
    assert [r.kind for r in dice.rolls] == ["d3(0-2)", "d2(0-1)", "d2(0-1)"]


def test_integer_with_one_value_and_inverted_range():
    """integer(lo, lo) is that value; integer(hi, lo) names the purpose in its error."""
    assert SeededDice(0).integer(4, 4, "fixed") == 4
    assert ScriptedDice([4]).integer(4, 4, "fixed") == 4
    with pytest.raises(ValueError, match="free points: no integer between 5 and 3"):
        SeededDice(0).integer(5, 3, "free points")


def test_pool_with_target_ten_and_no_doubling():
    """target 10 and double_at=None: only tens succeed, once each."""
    roll = ScriptedDice([10, 9, 10, 1]).pool(4, "x", target=10, double_at=None)
    assert (roll.successes, roll.tens) == (2, 2)
    assert pool_distribution(2, target=10, double_at=None) == {
        0: Fraction(81, 100), 1: Fraction(18, 100), 2: Fraction(1, 100)}
