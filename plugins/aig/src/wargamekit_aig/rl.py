"""AIG's observation encoder for :mod:`wargamekit.rl` (registered in ``plugin.py``).

Everything is on the table in AIG; the encoder still reads only the side's view.

View block (all in ``[0, 1]``): 10 planes over the map (channel-major, see
:class:`~wargamekit.rl.HexPlanes`): 0 own unit's strength left, (TQ - hits) / TQ, 1 enemy
unit's, 2 own unit routed, 3 enemy unit routed, 4 own unit disordered, 5 enemy unit
disordered, 6 own leader, 7 enemy leader, 8 own unit's facing / 5, 9 enemy unit's facing / 5;
then 3 numbers: turn / last turn, this side is active, 1.

Option row (width 3): as :class:`~wargamekit.rl.GenericOptionRows` (a real option, a pass, a
"none"/"hold" option).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargamekit import PlayerView, Ruleset, hookimpl
from wargamekit.rl import GenericOptionRows, HexPlanes, ObservationEncoder, clip01, kinds_of, unit_bounds

CHANNELS = 10


class AigEncoder(GenericOptionRows):
    """See the module's docstring for the layout."""

    def __init__(self) -> None:
        from wargamekit_aig import kinds

        self.kinds = kinds_of(kinds, "aig.")

    def action_count(self, view: PlayerView) -> int:
        # A leader's or unit's move may list hexes anywhere on the map; nothing else is longer.
        return int(view.state.map.width * view.state.map.height)

    def view_bounds(self, view: PlayerView) -> Any:
        return unit_bounds(HexPlanes.of(view.state.map, CHANNELS).size + 3)

    def encode(self, view: PlayerView) -> np.ndarray:
        state = view.state
        planes = HexPlanes.of(state.map, CHANNELS)
        grid = planes.zeros()
        for unit in state.units.values():
            if unit.eliminated:
                continue
            enemy = int(unit.side != view.side)
            planes.put(grid, 0 + enemy, unit.hex, clip01((unit.tq - unit.hits) / max(unit.tq, 1)))
            planes.put(grid, 2 + enemy, unit.hex, float(unit.routed))
            planes.put(grid, 4 + enemy, unit.hex, float(unit.disordered))
            planes.put(grid, 8 + enemy, unit.hex, unit.facing / 5)
        for leader in state.leaders.values():
            if leader.alive:
                planes.put(grid, 6 + int(leader.side != view.side), leader.hex, 1.0)
        tail = [clip01(state.turn / max(state.last_turn, 1)), float(state.active == view.side), 1.0]
        return np.concatenate([planes.flat(grid), np.asarray(tail, np.float32)])



@hookimpl
def wargamekit_observation_encoder(ruleset: Ruleset) -> ObservationEncoder | None:
    """AIG's encoder (``None`` for other rulesets)."""
    return AigEncoder() if ruleset.name == "aig" else None
