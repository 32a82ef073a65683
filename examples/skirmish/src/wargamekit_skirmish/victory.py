"""8. Victory."""

from __future__ import annotations

from wargamekit import Outcome
from wargamekit_skirmish.state import SkirmishState


def sudden_death(state: SkirmishState) -> Outcome | None:
    """8.1 A side with no units left loses at once."""
    for side, other in (("blue", "red"), ("red", "blue")):
        if not state.alive(side):
            return Outcome(other, f"8.1 elimination: {side} has no units left", dict(state.destroyed))
    return None


def at_turn_limit(state: SkirmishState) -> Outcome:
    """8.2 After the last turn the side that destroyed more enemy steps wins; equal is a draw."""
    blue, red = state.destroyed["blue"], state.destroyed["red"]
    winner = "blue" if blue > red else "red" if red > blue else None
    return Outcome(winner, f"8.2 turn limit: steps destroyed blue {blue}, red {red}", dict(state.destroyed))
