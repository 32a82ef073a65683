"""tank_solo's observation encoder for :mod:`wargamekit.rl` (registered in ``plugin.py``).

It reads only the side's view (the opponent's special rounds are face down there, 开场阶段 3).

View block (all in ``[0, 1]``): one row of 11 per tank of the scenario, in the view's order
(the tanks a scenario deploys, both sides; a row of zeros for a tank not in play): 0 in play,
1 own, 2 alive, 3 column / map width, 4 row / map height, 5 hull facing / 5, 6 turret
facing / 5, 7 immobilised, 8 weapon destroyed, 9 fired this turn, 10 moved this turn; then
4 numbers: turn / 20, own score / 20, opponent's score / 20, a constant 1.

Option row (width 3): a real option; the option is a pass, "none" or "hold"; its data names a
target tank (``"target"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargamekit import PlayerView, Ruleset, hookimpl
from wargamekit.decisions import Choose, ChooseSubset
from wargamekit.rl import GenericOptionRows, ObservationEncoder, clip01, kinds_of, unit_bounds

TANK = 11
#: the most options one decision offers (a move lists the reachable hexes of the map)
ACTIONS = 128


class TankSoloEncoder(GenericOptionRows):
    """See the module's docstring for the layout."""

    max_actions = ACTIONS

    def __init__(self) -> None:
        from wargamekit_tank_solo import kinds

        self.kinds = kinds_of(kinds, "tank_solo.")

    def _tanks(self, view: PlayerView) -> int:
        return max(len(view.state.tanks), 1)

    def view_bounds(self, view: PlayerView) -> Any:
        # Tanks in play are fixed by the scenario (both sides' forces), so the start shows them all.
        self.capacity = self._tanks(view)
        return unit_bounds(self.capacity * TANK + 4)

    def encode(self, view: PlayerView) -> np.ndarray:
        state = view.state
        hexmap = state.map.hexmap
        rows = np.zeros((self.capacity, TANK), np.float32)
        for i, tank in enumerate(state.tanks[: self.capacity]):
            row = rows[i]
            row[0] = 1.0
            row[1] = float(tank.side == view.side)
            row[2] = float(tank.alive)
            if tank.hex is not None:
                c, r = tank.hex.to_offset(hexmap.layout)
                row[3], row[4] = clip01(c / hexmap.width), clip01(r / hexmap.height)
            row[5], row[6] = tank.hull / 5, tank.turret / 5
            row[7], row[8] = float(tank.immobilised), float(tank.weapon_destroyed)
            row[9], row[10] = float(tank.fired), float(tank.moved)
        other = next((s for s in state.score if s != view.side), view.side)
        tail = [clip01(state.turn / 20), clip01(state.score.get(view.side, 0) / 20),
                clip01(state.score.get(other, 0) / 20), 1.0]
        return np.concatenate([rows.reshape(-1), np.asarray(tail, np.float32)])

    def encode_option(self, view: PlayerView, decision: Choose | ChooseSubset, index: int) -> np.ndarray:
        row = super().encode_option(view, decision, index)
        row[2] = max(row[2], float("target" in decision.options[index].data))
        return row


@hookimpl
def wargamekit_observation_encoder(ruleset: Ruleset) -> ObservationEncoder | None:
    """tank_solo's encoder (``None`` for other rulesets)."""
    return TankSoloEncoder() if ruleset.name == "tank_solo" else None
