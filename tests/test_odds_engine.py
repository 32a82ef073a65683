"""The lazy exact-odds engine against a plain depth-first enumeration (`odds_brute.brute`).

``brute`` runs a procedure once per combination of faces with plain ints (the old engine, in a
dozen lines): whatever the engine does to avoid branching, its result must be the same.
"""

from __future__ import annotations

import operator
import time
from fractions import Fraction
from typing import Any
from unittest.mock import patch

import pytest
from attrs import frozen
from hypothesis import given, settings
from hypothesis import strategies as st
from odds_brute import brute, run_steps

from wargamekit import odds
from wargamekit.dice import Die
from wargamekit.errors import WargamekitError
from wargamekit.odds import _engine


def same(a: dict, b: dict) -> bool:
    return dict(a) == dict(b) and sum(a.values()) == 1


# -- random small procedures -----------------------------------------------------------------------
OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "max": max, "//": operator.floordiv,
       "%": operator.mod, "<": operator.lt, "==": operator.eq, "&": operator.and_}

steps = st.deferred(
    lambda: st.lists(
        st.one_of(
            st.tuples(st.just("roll"), st.integers(2, 4), st.integers(1, 2)),
            st.tuples(st.just("op"), st.sampled_from(sorted(OPS)), st.integers(0, 9), st.integers(0, 9)),
            st.tuples(st.just("const"), st.sampled_from(["+", "*", "<", "=="]), st.integers(0, 9),
                      st.integers(-2, 3)),
            st.tuples(st.just("if"), st.integers(0, 9), st.integers(1, 4), steps, steps),
            # a fresh die branched on at once and dropped: what re-runs replay as a plain face
            st.tuples(st.just("fresh_if"), st.integers(2, 4), st.integers(0, 9), steps, steps),
            st.tuples(st.just("drop"), st.integers(0, 9)),
            st.tuples(st.just("index"), st.integers(0, 9)),
            st.tuples(st.just("pick"), st.integers(2, 3)),
            st.tuples(st.just("coin")),
            st.tuples(st.just("pool"), st.integers(1, 2), st.sampled_from([(7, 10), (6, None), (5, 8)])),
        ),
        max_size=5,
    )
)
returns = st.one_of(
    st.tuples(st.just("last")),
    st.tuples(st.just("sum")),
    st.tuples(st.just("tuple"), st.lists(st.integers(0, 9), max_size=3)),
    st.tuples(st.just("frozen"), st.integers(0, 9)),
)


@frozen
class Boxed:
    """An outcome object holding a die value (resolved by hashing)."""

    value: Any


def run_program(dice, program, ret):
    values: list[Any] = []
    labels: list[str] = []
    budget = [0]

    def execute(body):
        for step in body:
            kind = step[0]
            if kind == "roll":
                budget[0] += step[2]
                if budget[0] > 4:  # keeps brute force small
                    continue
                values.extend(dice.roll(Die(1, step[1]), "roll", step[2]))
            elif not values and kind in ("op", "const", "if", "drop", "index"):
                continue
            elif kind == "op":
                a, b = values[step[2] % len(values)], values[step[3] % len(values)]
                if step[1] in ("//", "%"):
                    b = b * b + 1  # never 0
                if step[1] == "&":
                    a, b = a > 1, b < 3
                values.append(OPS[step[1]](a, b))
            elif kind == "const":
                values.append(OPS[step[1]](values[step[2] % len(values)], step[3]))
            elif kind == "if":
                if values[step[1] % len(values)] >= step[2]:
                    execute(step[3])
                else:
                    execute(step[4])
            elif kind == "fresh_if":
                budget[0] += 1
                if budget[0] > 4:
                    continue
                if (dice.roll(Die(1, step[1]), "fresh")[0] * 3 + step[2]) % 5 >= 2:
                    execute(step[3])
                else:
                    execute(step[4])
            elif kind == "drop":
                del values[step[1] % len(values)]
            elif kind == "index":
                labels.append("abcdefghij"[int(values[step[1] % len(values)]) % 10])
            elif kind == "pick":
                budget[0] += 1
                if budget[0] <= 4:
                    values.append(dice.pick(list(range(10, 10 + step[1])), "pick"))
            elif kind == "coin":
                budget[0] += 1
                if budget[0] <= 4:
                    values.append(dice.coin("coin"))
            elif kind == "pool":
                budget[0] += 2 * step[1]  # ten faces per die in brute force
                if budget[0] <= 4:
                    target, double_at = step[2]
                    roll = dice.pool(step[1], "pool", target=target, double_at=double_at)
                    # faces are class representatives under enumeration (documented): not compared
                    values.extend([roll.successes, roll.tens])

    execute(program)
    if not values:
        return tuple(labels)
    if ret[0] == "last":
        return values[-1], *labels
    if ret[0] == "sum":
        return sum(values)
    if ret[0] == "tuple":
        return tuple(values[i % len(values)] for i in ret[1])
    return Boxed(values[ret[1] % len(values)])


@settings(max_examples=200, deadline=None)
@given(program=steps, ret=returns)
def test_random_procedures_match_brute_force(program, ret):
    """Random small procedures (dice, arithmetic, branches on die values, dropped values,
    indexing, picks, coins, pools, tuple and object outcomes) give exactly the brute-force odds."""
    expected = brute(run_program, program, ret)
    assert same(odds.distribution(run_program, program, ret), expected)
    assert same(odds.distribution(run_program, program, ret, lazy=False), expected)


@settings(max_examples=100, deadline=None)
@given(program=steps, ret=returns)
def test_random_procedures_match_brute_force_by_variable_elimination(program, ret):
    """The same with the flat layout of small forced values turned off, so that every forced
    value goes through the joint-table path used for large ones."""
    with patch.object(_engine, "_SMALL", 0):
        assert same(odds.distribution(run_program, program, ret), brute(run_program, program, ret))


# -- the procedures of the benchmarks and their shapes ----------------------------------------------
def reroll_doubles(dice):
    """2d6; on doubles roll again and add, at most twice."""
    total = 0
    for _ in range(3):
        a, b = dice.nd6(2, "2d6")
        total += a + b
        if a != b:
            break
    return total


def one_by_one(n):
    def procedure(dice):
        total = 0
        for _ in range(n):
            total += dice.d6("one die")
        return total

    return procedure


def test_reroll_doubles_matches_brute_force():
    """The re-roll procedure (1,506 combinations of faces) is exact."""
    assert same(odds.distribution(reroll_doubles), brute(reroll_doubles))


def test_dice_rolled_one_by_one_sum_like_a_convolution():
    """Six and ten d6 added one at a time give the convolution's distribution, exactly."""
    for n in (6, 10):
        assert odds.distribution(one_by_one(n)) == dict(odds.sum_distribution(n))


def test_a_value_kept_alive_stays_consistent_with_the_branch_taken():
    """A die kept after a branch on it is conditioned on that branch (not re-drawn)."""

    def keep(dice):
        a, b = dice.nd6(2, "x")
        total = a + b
        if a > 4:
            return "high", total, a
        return "low", total - b

    assert same(odds.distribution(keep), brute(keep))


def test_a_forced_comparison_returned_is_its_forced_value():
    """A comparison used in an ``if`` and then returned keeps the value the branch took."""

    def proc(dice):
        hit = dice.d6("x") > 3
        if hit:
            return hit, "yes"
        return hit, "no"

    assert odds.distribution(proc) == {(False, "no"): Fraction(1, 2), (True, "yes"): Fraction(1, 2)}


def test_values_work_as_ints_wherever_python_needs_one():
    """Indexing, ``range``, formatting, ``int`` and int methods read the concrete value."""

    def proc(dice):
        n = dice.d6("count")
        word = f"{n}:{'abcdef'[n - 1]}:{len(range(n))}:{int(n) * 2}:{n.bit_length()}"
        return word

    assert same(odds.distribution(proc), brute(proc))


def test_tank_solo_and_skirmish_shots_match_brute_force():
    """The rulesets' own resolution procedures give the same odds lazily as by brute force."""
    from wargamekit_skirmish.fire import Shot as SkirmishShot
    from wargamekit_skirmish.fire import resolve_fire
    from wargamekit_tank_solo.fire import Shot, _summary

    for shot in (Shot(range=7, hit_modifier=0, attack=6, armour=13, special="fin", ammo_rule=True),
                 Shot(range=5, hit_modifier=1, attack=4, armour=12, special="hesh"),
                 Shot(range=9, hit_modifier=-1, attack=5, armour=14, special="overloaded", firer_class="light")):
        assert same(odds.distribution(_summary, shot), brute(_summary, shot))
    for shot in (SkirmishShot(firepower=2, range=3), SkirmishShot(firepower=5, range=1, cover=1)):
        assert same(odds.distribution(resolve_fire, shot), brute(resolve_fire, shot))


def test_mttt_attacks_match_brute_force():
    """MTTT's attack resolution (d20 checks, damage dice with doubled tens) is exact lazily."""
    from wargamekit_mttt_rpg.attack import AttackProfile, DefenseProfile, resolve_attack

    atk = AttackProfile(accuracy=3, dice=2, sides=10, damage_bonus=1, initiative=9, double_ten=True)
    dfn = DefenseProfile(mode="parry", value=2, toughness=3)

    def summary(dice):
        out = resolve_attack(dice, atk, dfn, "withering")
        return out.hit, out.damage

    assert same(odds.distribution(summary), brute(summary))


# -- limits and errors ----------------------------------------------------------------------------
def test_branch_limit_error_is_a_wargamekit_error():
    """Callers can catch every deliberate wargamekit error at once."""
    assert issubclass(odds.BranchLimitError, WargamekitError)
    assert issubclass(odds.BranchLimitError, RuntimeError)


def test_a_huge_joint_table_is_refused_before_it_is_built():
    """Ten faces returned together (60 million outcomes) are refused at once."""
    start = time.perf_counter()
    with pytest.raises(odds.BranchLimitError, match="more than 1000000 dice branches"):
        odds.distribution(lambda dice: tuple(dice.d6("x") for _ in range(10)))
    assert time.perf_counter() - start < 1


def test_a_procedure_that_branches_too_much_is_refused_within_seconds():
    """Thirty coins each steering the code (a billion runs) are refused by projection."""

    def coins(dice):
        heads = 0
        for _ in range(30):
            if dice.coin("toss"):
                heads += 1
        return heads

    start = time.perf_counter()
    with pytest.raises(odds.BranchLimitError, match="projected"):
        odds.distribution(coins)
    assert time.perf_counter() - start < 5


def test_a_die_value_used_after_the_procedure_returned_is_an_error():
    """An unresolved value that escaped its run cannot be read later."""
    escaped = []

    def leak(dice):
        escaped.append(dice.d6("x"))
        return 1

    odds.distribution(leak)
    with pytest.raises(ValueError, match="after its procedure returned"):
        bool(escaped[0] > 3)


def test_outcome_objects_holding_die_values_are_resolved():
    """A frozen outcome holding a die value is split by that value, and reads back plainly."""
    dist = odds.distribution(lambda dice: Boxed(dice.d6("x") + 1))
    assert dist == {Boxed(v): Fraction(1, 6) for v in range(2, 8)}
    assert [int(box.value) for box in dist] == list(range(2, 8))


def test_a_value_reused_many_times_is_not_evaluated_exponentially():
    """``x = x + x - x`` fifty times shares each step twice; the engine evaluates each once."""

    def reuse(dice, force):
        x = dice.d6("a") + dice.d6("b")
        for _ in range(50):
            x = x + x - x
        return ("big" if x > 9 else "small") if force else x

    start = time.perf_counter()
    assert odds.distribution(reuse, False) == dict(odds.sum_distribution(2))
    assert odds.distribution(reuse, True) == {"big": Fraction(1, 6), "small": Fraction(5, 6)}
    assert time.perf_counter() - start < 2


def test_a_run_that_never_ends_is_refused_within_seconds():
    """``while dice.d6(...) != 6`` has no last branch: refused, not looped on forever."""

    def until_six(dice):
        rolls = 0
        while dice.d6("until a six") != 6:
            rolls += 1
        return rolls

    start = time.perf_counter()
    with pytest.raises(odds.BranchLimitError, match="projected"):
        odds.distribution(until_six)
    assert time.perf_counter() - start < 5


def test_odds_computed_inside_a_procedure_use_its_die_values_as_constants():
    """A procedure may call distribution itself (a bot weighing a shot after a die roll): the
    outer die value is a constant to the inner enumeration, as with plain ints."""

    def inner(dice, bonus):
        return dice.d6("inner") + bonus >= 6

    def outer(dice):
        bonus = dice.d6("outer")
        return odds.distribution(inner, bonus).get(True, Fraction(0))

    def by_hand(dice):
        bonus = dice.d6("outer")
        return Fraction(sum(1 for face in range(1, 7) if face + bonus >= 6), 6)

    assert odds.distribution(outer) == brute(by_hand)


def test_code_that_needs_real_ints_is_told_about_lazy_false():
    """A TypeError from code that needs an ``int`` says what to do; ``lazy=False`` then works."""
    import json

    def serialises(dice):
        return json.dumps({"face": dice.d6("x")})

    with pytest.raises(TypeError) as caught:
        odds.distribution(serialises)
    assert "pass lazy=False" in "".join(caught.value.__notes__)
    assert odds.distribution(serialises, lazy=False) == {f'{{"face": {v}}}': Fraction(1, 6) for v in range(1, 7)}


# -- re-runs replay their prefix (dice forced alone come back as plain faces) ------------------------
def test_dice_forced_alone_in_another_order_than_drawn_replay_exactly():
    """Two dice drawn, the second branched on first, and a third only on some branches: the
    replayed prefix takes each die's class at the depth it was forced, in order."""

    def proc(dice):
        a = dice.d6("a") * 2
        b = dice.d10("b")
        first = b >= 7  # forced first, with a still alive (a is no reader of b)
        if first:
            del b
            if a + 1 > 7:  # a alone now: a derived value of one die
                return "b high", "a high", dice.d6("c") >= 5
            return "b high", "a low"
        if a >= 6:
            return "b low", "a high" if dice.d20("d") > 10 else "a mid"
        return "b low", "a low", int(b)

    assert same(odds.distribution(proc), brute(proc))


def test_a_procedure_drawing_other_dice_on_a_re_run_is_refused():
    calls = [0]

    def proc(dice):
        calls[0] += 1
        return "hit" if (dice.d6("x") if calls[0] == 1 else dice.d10("x")) >= 4 else "miss"

    with pytest.raises(odds.ImpureProcedureError, match="drew other dice"):
        odds.distribution(proc)


def test_every_branch_re_runs_the_procedure_once():
    """Six dice each branched on: 64 runs, one per branch, each with the exact probability."""
    runs = [0]

    def six_hits(dice):
        runs[0] += 1
        return tuple("hit" if dice.d6("to hit") >= 4 else "miss" for _ in range(6))

    dist = odds.distribution(six_hits)
    assert runs[0] == 64 and len(dist) == 64 and set(dist.values()) == {Fraction(1, 64)}
    assert dist == brute(six_hits)


# -- guesses: a fresh die forced alone as the run before forced the die drawn there -----------------
def test_a_guess_used_otherwise_is_redone_with_lazy_dice():
    """The second die is branched on (``>= 3``) while the first is low, then added to while it
    is high: the run that meets it there guesses, misses, and is redone — exactly once."""
    calls = [0]

    def proc(dice):
        calls[0] += 1
        if dice.d6("a") >= 4:
            return "high", dice.d6("b") + 1
        return "low", "b high" if dice.d6("b") >= 3 else "b low"

    dist = odds.distribution(proc)
    assert calls[0] == 4
    assert dist == brute(proc)
    # runs: low/b<3, low/b>=3, high (guessed, missed) and high again: four calls for three runs


def test_a_guess_that_holds_settles_like_the_lazy_die():
    """Ten dice each branched on by the same comparison: every run after the first guesses its
    fresh dice; the odds and the number of runs are those of the lazy engine."""
    runs = [0]

    def hits(dice):
        runs[0] += 1
        return tuple("hit" if dice.d6("to hit") >= 5 else "miss" for _ in range(10))

    dist = odds.distribution(hits)
    assert runs[0] == 1024 and len(dist) == 1024
    assert dist[("hit",) * 10] == Fraction(1, 3**10)
    assert dist[("miss",) * 10] == Fraction(2**10, 3**10)
    assert sum(dist.values()) == 1


def test_a_guessed_die_used_after_the_procedure_returned_is_an_error():
    """A guess kept past its run (never used in it) cannot be read later, like a lazy die."""
    escaped = []

    def leak(dice):
        if dice.d6("a") >= 4:
            escaped.append(dice.d6("b"))  # a guess: the low branch compared this die
            return "high"
        return "low", "b high" if dice.d6("b") >= 3 else "b low"

    dist = odds.distribution(leak)
    guess = escaped[-1]
    assert isinstance(guess, _engine._Guess)
    with pytest.raises(ValueError, match="after its procedure returned"):
        bool(guess >= 3)
    with pytest.raises(ValueError, match="after its procedure returned"):
        int(guess)
    assert dist == brute(leak)


def test_an_outer_guess_used_by_an_inner_enumeration_redoes_the_outer_run():
    """An inner ``distribution`` adding the outer die to its own meets the outer guess: the
    outer run is redone with lazy dice, and the odds are exact."""

    def inner(dice, bonus):
        return dice.d6("inner") + bonus >= 6

    def outer(dice):
        if dice.d6("a") >= 4:
            return odds.distribution(inner, dice.d6("b")).get(True, Fraction(0))
        return "b high" if dice.d6("b") >= 3 else "b low"

    assert odds.distribution(outer) == brute(outer)


guessing_steps = st.deferred(
    lambda: st.lists(
        st.one_of(
            # a fresh die branched on by ``die OP constant``: what later runs guess
            st.tuples(st.just("cmp"), st.integers(2, 4), st.sampled_from(["<", ">=", "=="]),
                      st.integers(1, 4), guessing_steps, guessing_steps),
            # a fresh die kept (added to the total): a guess at that draw misses
            st.tuples(st.just("keep"), st.integers(2, 4)),
            # a fresh die compared with a constant of another value or type: misses too
            st.tuples(st.just("other"), st.integers(2, 4), st.sampled_from([2, 2.0, 3])),
            # a fresh die drawn and dropped: a guess never used is summed out
            st.tuples(st.just("drop"), st.integers(2, 4)),
        ),
        max_size=3,
    )
)


@settings(max_examples=200, deadline=None)
@given(program=guessing_steps)
def test_random_procedures_with_guesses_match_brute_force(program):
    """Random procedures whose branches draw dice at the same places and use them alike or
    otherwise (compared, added, compared with another constant, dropped) give the brute-force
    odds: guesses that hold settle as lazy dice, guesses that miss are redone."""
    assert same(odds.distribution(run_steps, program), brute(run_steps, program))
