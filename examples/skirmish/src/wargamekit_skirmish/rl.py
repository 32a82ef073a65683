"""The skirmish's observation encoder for :mod:`wargamekit.rl` (registered in ``plugin.py``).

It reads only the side's view (7. Concealment: enemy units hidden in woods are not in it).

View block (all in ``[0, 1]``): 6 planes over the map (channel-major, see
:class:`~wargamekit.rl.HexPlanes`) — 0 woods, 1 hill, 2 own unit's steps / 2, 3 visible enemy
unit's steps / 2, 4 own unit spent, 5 the unit acting now — then 4 numbers: turn / turns,
enemy steps this side destroyed / 16, own steps lost / 16, and a constant 1.

Option row (width 6, in ``[0, 1]``): 0 a real option; 1 hold fire or pass; 2 the best
expected steps a shot removes (activate: from where the unit stands; face: in the new arc;
fire and snap fire: that shot) / 2, from the exact odds; for a move (kept cheap: a move menu
lists dozens of hexes): 2 visible enemies within the unit's range of the destination / 4,
3 visible enemies that have it within their range / 4, 4 the destination is woods,
5 distance from the destination to the nearest visible enemy / 12.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargamekit import PlayerView, Ruleset, hookimpl
from wargamekit.decisions import Choose, ChooseSubset
from wargamekit.geometry import Hex
from wargamekit.rl import HexPlanes, ObservationEncoder, clip01, kinds_of, unit_bounds

ROW = 6


class SkirmishEncoder(ObservationEncoder):
    """See the module's docstring for the layout."""

    def __init__(self) -> None:
        from wargamekit_skirmish import ruleset

        self.kinds = kinds_of(ruleset, "skirmish.")

    def action_count(self, view: PlayerView) -> int:
        # A move may offer every hex of the map (at most); every other menu is shorter: the
        # units, or the visible enemies and "hold fire", all fewer than the hexes.
        m = view.state.map
        return int(m.width * m.height)

    def _planes(self, view: PlayerView) -> HexPlanes:
        return HexPlanes.of(view.state.map, 6)

    def view_bounds(self, view: PlayerView) -> Any:
        return unit_bounds(self._planes(view).size + 4)

    def encode(self, view: PlayerView) -> np.ndarray:
        from wargamekit_skirmish.state import HILL, WOODS

        state = view.state
        planes = self._planes(view)
        grid = planes.zeros()
        grid[0] = state.map.terrain == WOODS
        grid[1] = state.map.terrain == HILL
        for unit in state.alive():
            own = unit.side == view.side
            planes.put(grid, 2 if own else 3, unit.hex, unit.steps / 2)
            if own and unit.spent:
                planes.put(grid, 4, unit.hex, 1.0)
        if state.active is not None and state.active in state.units:
            planes.put(grid, 5, state.units[state.active].hex, 1.0)
        other = next(s for s in state.destroyed if s != view.side)
        tail = [state.turn / max(state.turns, 1), clip01(state.destroyed.get(view.side, 0) / 16),
                clip01(state.destroyed.get(other, 0) / 16), 1.0]
        return np.concatenate([planes.flat(grid), np.asarray(tail, np.float32)])

    def option_bounds(self, view: PlayerView) -> Any:
        return unit_bounds(ROW)

    def encode_option(self, view: PlayerView, decision: Choose | ChooseSubset, index: int) -> np.ndarray:
        from wargamekit_skirmish import fire
        from wargamekit_skirmish.bots import _facing, _reaction_value, best_shot, expected_steps

        state = view.state
        data = decision.options[index].data
        row = np.zeros(ROW, np.float32)
        row[0] = 1.0
        unit = state.units.get(decision.context.get("unit", ""))
        enemies = [e.hex for e in state.alive() if e.side != decision.side]
        if data.get("hold") or data.get("pass"):
            row[1] = 1.0
        elif "unit" in data and data["unit"] in state.units:  # activate
            u = state.units[data["unit"]]
            row[2] = clip01(best_shot(state, u, u.hex) / 2)
        elif "hex" in data and unit is not None:  # move
            from wargamekit_skirmish.state import WOODS

            at = Hex(*data["hex"])
            foes = [e for e in state.alive() if e.side != decision.side]
            row[2] = clip01(sum(at.distance(e.hex) <= unit.max_range for e in foes) / 4)
            row[3] = clip01(sum(at.distance(e.hex) <= e.max_range for e in foes) / 4)
            row[4] = float(state.map.terrain[state.map.offset(at)] == WOODS)
            row[5] = clip01(min((at.distance(e) for e in enemies), default=12) / 12)
        elif "facing" in data and unit is not None:
            turned = _facing(unit, data["facing"])
            row[2] = clip01(max((expected_steps(s) for s in fire.targets(state, turned).values()), default=0.0) / 2)
        elif "target" in data and unit is not None:
            shot = fire.targets(state, unit).get(data["target"])
            row[2] = clip01(expected_steps(shot) / 2) if shot is not None else 0.0
        elif "respond" in data:
            row[2] = clip01(_reaction_value(state, data["respond"]) / 2)
        return row


@hookimpl
def wargamekit_observation_encoder(ruleset: Ruleset) -> ObservationEncoder | None:
    """The skirmish's encoder (``None`` for other rulesets)."""
    return SkirmishEncoder() if ruleset.name == "skirmish" else None
