"""The odds engine's fast paths for procedures that branch on every die (issue 9, ``odds5``).

A run that makes no lazy value hands its world on to the next run (``World.next_run`` resets
it instead of building another), the next run takes over the last one's fates and tape in
place, and the dice service hands out the usual guess itself. Each must give the same odds as
the slow path — here an independent brute force (one run per combination of faces, plain
ints) — keep refusing what the engine refuses, and keep a die value from outliving its run.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from odds_brute import brute, run_steps

from wargamekit import odds
from wargamekit.errors import BranchLimitError, ImpureProcedureError
from wargamekit.odds import _engine


def hits_in_order(n: int, target: int = 4):
    def procedure(dice):
        return tuple("hit" if dice.d6("to hit") >= target else "miss" for _ in range(n))

    return procedure


# -- the same odds as the slow path ----------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 3, 6])
def test_branching_on_every_die_gives_the_brute_force_odds(n):
    """``if dice.d6(...) >= 4`` on every die: every run after the first reuses the world and
    guesses its fresh dice; each sequence of hits has probability 1 / 2**n."""
    dist = odds.distribution(hits_in_order(n))
    assert dist == brute(hits_in_order(n))
    assert len(dist) == 2**n and set(dist.values()) == {Fraction(1, 2**n)}


def test_dice_forced_out_of_draw_order_give_the_brute_force_odds():
    """The second die drawn is branched on before the first (the fates' draw numbers do not
    rise with their depths): such runs take the copying replay, not the in-place one."""

    def backwards(dice):
        a, b = dice.d6("a"), dice.d6("b")
        first = "b high" if b >= 5 else "b low"
        second = "a high" if a >= 3 else "a low"
        return first, second, "c hit" if dice.d6("c") >= 4 else "c miss"

    assert odds.distribution(backwards) == brute(backwards)


def test_runs_with_lazy_values_between_reused_worlds_give_the_brute_force_odds():
    """A run that forces two dice together (lazy values: its world is not reused) between runs
    that branch on single dice (reused): the odds are exact throughout."""

    def mixed(dice):
        if dice.d6("first") >= 4:
            a, b = dice.d6("a"), dice.d6("b")
            return "pair", bool(a + b >= 7), "hit" if dice.d6("c") >= 5 else "miss"
        return "single", "hit" if dice.d6("c") >= 5 else "miss", int(dice.d6("d")) % 3

    assert odds.distribution(mixed) == brute(mixed)


steps = st.deferred(
    lambda: st.lists(
        st.one_of(
            # a fresh die branched on alone (guessed by later runs), then either branch
            st.tuples(st.just("cmp"), st.integers(2, 4), st.sampled_from(["<", ">=", "=="]),
                      st.integers(1, 4), steps, steps),
            # a die forced to its face (a fate of several classes)
            st.tuples(st.just("int"), st.integers(2, 3)),
            # two dice forced together (explicit branch points, lazy values)
            st.tuples(st.just("pair"), st.integers(2, 3)),
            # a die kept in the total (a guess there misses)
            st.tuples(st.just("keep"), st.integers(2, 4)),
        ),
        max_size=3,
    )
)

@settings(max_examples=150, deadline=None)
@given(program=steps)
def test_random_branching_procedures_match_brute_force(program):
    """Random procedures mixing dice branched on alone, forced to a face, forced in pairs and
    kept: reused worlds, in-place replays, guesses that hold and guesses that miss give the
    brute-force odds."""
    assert odds.distribution(run_steps, program) == brute(run_steps, program)


# -- refusals ------------------------------------------------------------------------------------
def test_a_branching_procedure_past_the_branch_limit_is_refused_after_the_limit():
    """Twelve dice each branched on (4,096 branches) under a limit of 1,000: refused once the
    1,001st branch is counted, with the procedure's name and the limit in the message."""
    runs = [0]

    def twelve_hits(dice):
        runs[0] += 1
        return hits_in_order(12)(dice)

    with pytest.raises(BranchLimitError, match="'twelve_hits' has more than 1000 dice branches"):
        odds.distribution(twelve_hits, branch_limit=1000)
    assert runs[0] == 1001
    assert len(odds.distribution(twelve_hits, branch_limit=4096)) == 4096


def test_a_procedure_drawing_other_dice_on_a_reused_world_is_refused():
    """A re-run that draws a d10 where its replayed prefix has a d6 is impure: refused, naming
    the draw's purpose (the taped face is not handed out for another kind of die)."""
    calls = [0]

    def impure(dice):
        calls[0] += 1
        die = dice.d6 if calls[0] == 1 else dice.d10
        first = "hit" if die("first") >= 4 else "miss"  # forced alone: taped for the re-run
        return first, "hit" if dice.d6("second") >= 4 else "miss"

    with pytest.raises(ImpureProcedureError, match="first: the procedure drew other dice"):
        odds.distribution(impure)


# -- a die value does not outlive its run --------------------------------------------------------
def test_a_guess_kept_into_a_later_run_of_the_same_world_is_an_error():
    """A guess handed out in one run (and never used there) and read in a later run — on the
    same world, reused — is refused like a die value used after its procedure returned."""
    kept: list[Any] = []

    def leak(dice):
        a = int(dice.d6("a"))
        if a == 1:
            return "b high" if dice.d6("b") >= 3 else "b low"  # forced alone: later runs guess b
        b = dice.d6("b")
        if a == 2:
            assert type(b) is _engine._Guess
            kept.append(b)  # dropped here, unsettled
            return "kept"
        if a == 3:
            assert kept[0]._state[0] is dice.world  # the same world, a later run
            return bool(kept[0] >= 3)
        return a

    with pytest.raises(ValueError, match="after its procedure returned"):
        odds.distribution(leak)


def test_a_lazy_value_kept_into_a_later_run_is_an_error():
    """A run that made lazy values hands the next run a new world, so a value it leaked is
    refused in the later run."""
    kept: list[Any] = []

    def leak(dice):
        a = int(dice.d6("a"))
        b = dice.d6("b")  # lazy in the first run (nothing to guess yet)
        if a == 1:
            kept.append(b)
            return "kept"
        return bool(kept[0] + 1 > 3)

    with pytest.raises(ValueError, match="after its procedure returned"):
        odds.distribution(leak)
