"""maneuver_locale's observation encoder for :mod:`wargamekit.rl` (registered in ``plugin.py``).

It reads only the side's view, where an enemy piece that is face down shows its handle and
place but not its arm or strength; pieces are placed by handle (public, assigned by a secret
shuffle), never by their order of battle.

View block (all in ``[0, 1]``): one row of 13 per handle present at the start, handles sorted:
0 on the map, 1 own, 2–5 arm one-hot (infantry, cavalry, artillery, unknown to this side),
6 steps / 4, 7 locale index / (locales - 1) (locales sorted by id), 8 in reserve (not on an
approach), 9 face up, 10 moved this player turn, 11 a gun that declared bombardment,
12 eliminated; then 6 numbers: turn / turn limit, commands left / commands per turn, locales
this side controls / locales, locales the enemy controls / locales, this side is active, 1.

Option row (width 3): as :class:`~wargamekit.rl.GenericOptionRows` (a real option, a pass, a
"none"/"hold" option).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargamekit import PlayerView, Ruleset, hookimpl
from wargamekit.rl import GenericOptionRows, ObservationEncoder, clip01, kinds_of, unit_bounds

PIECE = 13
ARMS = ("infantry", "cavalry", "artillery")


class ManeuverLocaleEncoder(GenericOptionRows):
    """See the module's docstring for the layout."""

    max_actions = 64

    def __init__(self) -> None:
        from wargamekit_maneuver_locale import kinds

        self.kinds = kinds_of(kinds, "maneuver_locale.")
        self.handles: tuple[str, ...] = ()
        self.locales: tuple[str, ...] = ()

    def view_bounds(self, view: PlayerView) -> Any:
        state = view.state
        self.handles = tuple(sorted(state.pieces))
        self.locales = tuple(sorted(state.board.names))
        return unit_bounds(len(self.handles) * PIECE + 6)

    def encode(self, view: PlayerView) -> np.ndarray:
        state = view.state
        rows = np.zeros((len(self.handles), PIECE), np.float32)
        gone = {piece for piece, _side in state.eliminated}
        span = max(len(self.locales) - 1, 1)
        for i, handle in enumerate(self.handles):
            row = rows[i]
            piece = state.pieces.get(handle)
            if piece is None:
                row[12] = float(handle in gone)
                continue
            row[0] = 1.0
            row[1] = float(piece.side == view.side)
            arm = None if piece.arm is None else piece.arm.value
            row[2 + (ARMS.index(arm) if arm in ARMS else 3)] = 1.0
            row[6] = clip01((piece.steps or 0) / 4)
            row[7] = self.locales.index(piece.locale) / span if piece.locale in self.locales else 0.0
            row[8], row[9] = float(piece.in_reserve), float(piece.face_up)
            row[10], row[11] = float(piece.moved), float(piece.declared)
        places = max(len(self.locales), 1)
        per_turn = max(state.commands_per_turn.get(view.side, 1), 1)
        active = state.active == view.side
        tail = [clip01(state.turn / max(state.turn_limit, 1)), clip01(state.commands / per_turn) if active else 0.0,
                sum(v == view.side for v in state.control.values()) / places,
                sum(v not in ("", view.side) for v in state.control.values()) / places, float(active), 1.0]
        return np.concatenate([rows.reshape(-1), np.asarray(tail, np.float32)])



@hookimpl
def wargamekit_observation_encoder(ruleset: Ruleset) -> ObservationEncoder | None:
    """maneuver_locale's encoder (``None`` for other rulesets)."""
    return ManeuverLocaleEncoder() if ruleset.name == "maneuver_locale" else None
