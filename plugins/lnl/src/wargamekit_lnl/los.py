"""LOS — line of sight (视线) and SPT — spotting and exposure (索敌与暴露状态), with smoke (SMK)."""

from __future__ import annotations

import numpy as np

from wargamekit.geometry import BLOCKING, HINDERING, Hex, LineOfSight
from wargamekit.geometry.hexmap import ElevationHook
from wargamekit_lnl.data import BRUSH, effects
from wargamekit_lnl.state import GameState, Place, Unit

__all__ = ["exposed", "hex_exposed", "sight", "spot_threshold", "visible"]

#: LOS 3.1: this many hindering terrains along the line block it.
HINDRANCES_THAT_BLOCK = 3


def sight(state: GameState, a: Hex, b: Hex) -> LineOfSight:
    """LOS 1–4: a line from centre to centre (SET 2), the hexes between counted, the origin's and
    the target's own terrain excluded (LOS 2), units never blocking (LOS 4); smoke hindering
    (D13); along a hexside the worse of the two lines counts (A34). LOS 3.3: elevation — a hex
    between higher than both ends blocks (a crest), and lower ground is seen over from above
    (:func:`_seen_over`); a building's upper level sees as its ground floor (U9)."""
    cls = state.map.los_class()
    if state.smoke:
        cls = np.array(cls, copy=True)
        for h in state.smoke:
            c, r = state.map.offset(h)
            cls[c, r] = max(int(cls[c, r]), HINDERING)
    elevation = state.map.elevation
    if elevation.any():  # LOS 3.3 (only maps with hills pay for it)
        ea, eb = int(elevation[state.map.offset(a)]), int(elevation[state.map.offset(b)])
        crest = elevation > max(ea, eb)
        return state.map.line_of_sight(a, b, los_class=cls, edge="worse", elevation_hook=_seen_over(a, b),
                                       blocking=crest if crest.any() else None)
    return state.map.line_of_sight(a, b, los_class=cls, edge="worse")


def _seen_over(a: Hex, b: Hex) -> ElevationHook:
    """LOS 3.3 (U9 reading): a hex between lower than the higher end is seen over — its terrain
    neither blocks nor hinders — unless it is next to the lower end (whose own surroundings still
    screen it); with both ends level, a hex lower than both is seen over."""

    def seen_over(h: Hex, e: int, ea: int, eb: int) -> bool:
        if e >= max(ea, eb):
            return False
        if ea == eb:
            return True
        low = a if ea < eb else b
        return h.distance(low) > 1

    return seen_over


def visible(state: GameState, a: Hex, b: Hex) -> LineOfSight | None:
    """The LOS from ``a`` to ``b`` if it is not blocked (LOS 1, LOS 3.1), else ``None``."""
    if a == b:
        return LineOfSight(True, 0, 0, ())
    line = sight(state, a, b)
    if not line.clear or line.hindering >= HINDRANCES_THAT_BLOCK:
        return None
    return line


def hex_exposed(state: GameState, place: Place, side: str) -> bool:
    """Whether ``side``'s units at ``place`` are exposed (SPT 1–6), ignoring adjacency (SPT 4)."""
    h, level = place
    terrain = state.terrain(h)
    if effects(terrain).open and level == 0:  # SPT 1
        return True
    if place in state.spotted:  # SPT 2, SPT 6
        return True
    if place in state.melee:  # SPT 3 (melee marker)
        return True
    # SPT 3: a move, assault or fire marker in the hex exposes every unit there.
    return any(u.markers & {"move", "assault", "fire"} for u in state.at(place))


def exposed(state: GameState, unit: Unit) -> bool:
    """SPT 1–5: the unit can be fired at (FIR 1.1). SPT 4 (A35): adjacent to a Good Order enemy
    unit (or on another level of the same hex). SPT 5 (A36) is read as adjacency to the enemy mover, which SPT 4 already covers."""
    if unit.vehicle or hex_exposed(state, unit.place, unit.side):
        return True  # vehicles are always exposed (a reading: the source is silent)
    return any(e.good_order and e.hex.distance(unit.hex) <= 1 for e in state.alive() if e.side != unit.side)


def spot_threshold(state: GameState, h: Hex) -> int:
    """SPT 7.4–7.5: the highest final result that spots a unit in this hex's terrain (hindering
    terrain 3, blocking terrain 2)."""
    return 3 if state.terrain(h) == BRUSH else 2


def blocking_terrain(state: GameState, h: Hex) -> bool:
    """Whether the hex's own terrain blocks LOS (woods, buildings)."""
    return int(state.map.los_class()[state.map.offset(h)]) == BLOCKING
