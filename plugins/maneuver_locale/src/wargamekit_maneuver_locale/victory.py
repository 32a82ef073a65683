"""Victory (provisional: the source has no victory rules, so this is scenario data).

Each objective locale is worth the points the scenario gives; a locale is controlled by the
last side to hold it alone. The game ends at once when a side has no pieces left (the other
wins) or controls every objective; otherwise at the turn limit the side with more points wins,
and equal points are a draw.
"""

from __future__ import annotations

from wargamekit import Outcome

from . import rules
from .state import GameState, Occupancy

__all__ = ["final_outcome", "sudden_outcome"]


def _scores(state: GameState) -> dict[str, float]:
    return {side: float(state.points(side)) for side in state.sides}


def sudden_outcome(state: GameState) -> Outcome | None:
    """An immediate end: a side without pieces, or a side holding every objective."""
    # hot (before every action of the command phase): the sides with pieces, from the live index
    present = Occupancy.of(state).sides
    for side in state.sides:
        if side not in present:
            return Outcome(state.enemy(side), f"{rules.VICTORY}: {side} has no pieces left", _scores(state))
    objectives = state.board.objectives
    if objectives:
        # the controller of every objective, if they have one: the pass stops at the first
        # objective controlled otherwise than the first (most actions)
        control = state.control
        keys = iter(objectives)
        holder = control.get(next(keys))
        for k in keys:
            if control.get(k) != holder:
                return None
        if holder is not None and holder in state.sides:
            return Outcome(holder, f"{rules.VICTORY}: {holder} controls every objective", _scores(state))
    return None


def final_outcome(state: GameState) -> Outcome:
    """The end at the turn limit: more objective points wins, equal is a draw."""
    scores = _scores(state)
    a, b = state.sides
    if scores[a] == scores[b]:
        return Outcome(None, f"{rules.VICTORY}: turn limit, equal objective points", scores)
    winner = a if scores[a] > scores[b] else b
    return Outcome(winner, f"{rules.VICTORY}: turn limit, more objective points", scores)
