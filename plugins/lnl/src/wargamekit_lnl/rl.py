"""LnL's observation encoder for :mod:`wargamekit.rl` (registered in ``plugin.py``).

LnL is open information (the source has no hidden units); the encoder still reads only the
side's view.

View block (all in ``[0, 1]``): 8 planes over the map (channel-major, see
:class:`~wargamekit.rl.HexPlanes`): 0 own units in the hex / 4, 1 enemy units / 4, 2 own
shaken units / 4, 3 enemy shaken units / 4, 4 an objective, 5 controlled by this side,
6 controlled by the enemy, 7 smoke; then 3 numbers: turn / turns, this side has the
initiative, 1.

Option row (width 3): as :class:`~wargamekit.rl.GenericOptionRows` (a real option, a pass, a
"none"/"hold" option).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargamekit import PlayerView, Ruleset, hookimpl
from wargamekit.rl import GenericOptionRows, HexPlanes, ObservationEncoder, clip01, kinds_of, unit_bounds

CHANNELS = 8


class LnlEncoder(GenericOptionRows):
    """See the module's docstring for the layout."""

    max_actions = 64

    def __init__(self) -> None:
        from wargamekit_lnl import kinds

        self.kinds = kinds_of(kinds, "lnl.")

    def view_bounds(self, view: PlayerView) -> Any:
        return unit_bounds(HexPlanes.of(view.state.map, CHANNELS).size + 3)

    def encode(self, view: PlayerView) -> np.ndarray:
        state = view.state
        planes = HexPlanes.of(state.map, CHANNELS)
        grid = planes.zeros()
        counts: dict[tuple[int, Any], int] = {}
        for unit in state.alive():
            own = unit.side == view.side
            for channel in ((0 if own else 1), *((2 if own else 3,) if unit.shaken else ())):
                counts[channel, unit.hex] = counts.get((channel, unit.hex), 0) + 1
        for (channel, where), n in counts.items():
            planes.put(grid, channel, where, clip01(n / 4))
        for where in state.objectives:
            planes.put(grid, 4, where, 1.0)
        for where, holder in state.control.items():
            if holder:
                planes.put(grid, 5 if holder == view.side else 6, where, 1.0)
        for where in state.smoke:
            planes.put(grid, 7, where, 1.0)
        tail = [clip01(state.turn / max(state.turns, 1)), float(state.initiative == view.side), 1.0]
        return np.concatenate([planes.flat(grid), np.asarray(tail, np.float32)])



@hookimpl
def wargamekit_observation_encoder(ruleset: Ruleset) -> ObservationEncoder | None:
    """LnL's encoder (``None`` for other rulesets)."""
    return LnlEncoder() if ruleset.name == "lnl" else None
