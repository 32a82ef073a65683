"""The conformance check itself: it passes a good ruleset and catches broken ones."""

from __future__ import annotations

import pytest
from rulesets import DiceRace

from wargamekit import Choose, Outcome
from wargamekit.testing import check_ruleset


def test_conformance_passes_on_a_good_ruleset():
    """DiceRace passes and the report counts the games played."""
    report = check_ruleset(DiceRace(), games=8)
    assert report.games == 8
    assert sum(report.winners.values()) == 8
    assert report.decisions > 8


class Nondeterministic(DiceRace):
    """Breaks the log-is-truth rule: it reads a counter that survives between games."""

    name = "nondeterministic"
    calls = 0

    def play(self, game):
        Nondeterministic.calls += 1
        game.event("note", f"game number {Nondeterministic.calls}")
        return (yield from super().play(game))


class BrokenInvariant(DiceRace):
    name = "broken"

    def check_invariants(self, state):
        assert state.round < 2, "round limit exceeded"


class NeverEnds(DiceRace):
    name = "never_ends"

    def play(self, game):
        while True:
            yield Choose.of("red", "again?", ["yes"], kind="never_ends.again", data=lambda v: {"again": v})
        return Outcome(None, "")  # pragma: no cover


def test_conformance_catches_nondeterministic_replay():
    """A ruleset whose replay differs fails the check, naming the seed."""
    with pytest.raises(AssertionError, match=r"replay differs \(seed 0\)"):
        check_ruleset(Nondeterministic(), games=1)


def test_conformance_catches_broken_invariants():
    """An invariant failure surfaces from the check."""
    with pytest.raises(AssertionError, match="round limit exceeded"):
        check_ruleset(BrokenInvariant(), games=5)


def test_conformance_catches_endless_games():
    """A game that never ends is reported after the decision cap."""
    with pytest.raises(AssertionError, match="no end after 50 decisions"):
        check_ruleset(NeverEnds(), games=1, max_decisions=50)
