"""Victory conditions (胜利条件).

* Surrender is allowed.
* 1 / 2 / 4 points for each light / medium / heavy tank destroyed.
* Within the turn limit (10 turns), a side with no tanks left loses.
* After the turn limit, the higher score wins; then fewer points spent; then fewer starting
  tanks; otherwise a draw.
"""

from __future__ import annotations

from wargamekit import Outcome

from .scenario import SIDES
from .state import GameState, other_side

__all__ = ["elimination", "final_outcome", "surrender"]


def _scores(state: GameState) -> dict[str, float]:
    return {s: float(state.score[s]) for s in SIDES}


def elimination(state: GameState) -> Outcome | None:
    """The outcome if a side has no tanks left, else ``None``."""
    empty = [s for s in SIDES if not state.living(s)]
    if not empty:
        return None
    if len(empty) == 2:
        return Outcome(None, "Victory conditions (胜利条件): both sides were eliminated", _scores(state))
    loser = empty[0]
    return Outcome(other_side(loser), f"Victory conditions (胜利条件): side {loser} has no tanks left", _scores(state))


def final_outcome(state: GameState) -> Outcome:
    """The outcome after the last turn: points, then fewer points spent, then fewer starting
    tanks, else a draw."""
    a, b = SIDES
    scores = _scores(state)
    limit = state.scenario.turn_limit
    for what, key, lower in (
        ("more victory points", state.score, False),
        ("equal points; fewer force points spent", state.points_spent, True),
        ("equal points and cost; fewer starting tanks", state.starting_tanks, True),
    ):
        if key[a] != key[b]:
            better = (key[a] < key[b]) if lower else (key[a] > key[b])
            winner = a if better else b
            return Outcome(winner, f"Victory conditions (胜利条件): after {limit} turns, {what} ({key[a]} to {key[b]})", scores)
    return Outcome(None, f"Victory conditions (胜利条件): after {limit} turns, equal on points, cost and starting tanks: a draw", scores)


def surrender(state: GameState, side: str) -> Outcome:
    """``side`` concedes (允许投降认输)."""
    state.surrendered = side
    return Outcome(other_side(side), f"Victory conditions (胜利条件): side {side} surrendered", _scores(state))
