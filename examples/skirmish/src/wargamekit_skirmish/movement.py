"""4. Movement: where a unit may go, and the facing it may take."""

from __future__ import annotations

from wargamekit.geometry import Hex
from wargamekit_skirmish.state import SkirmishState, Unit

#: 4.2 Facing: hexside numbers on this flat-top map, as a player reads them.
HEXSIDE_NAMES = ("south-east", "north-east", "north", "north-west", "south-west", "south")
#: The facings in the order a menu offers them: clockwise from north.
CLOCKWISE = (2, 1, 0, 5, 4, 3)


def destinations(state: SkirmishState, unit: Unit) -> list[Hex]:
    """4.1 Hexes the unit can reach with its movement points (clear 1, woods 2, hill 2), not
    entering or ending in another unit's hex; staying put is allowed. Sorted by cost, then hex.

    The core's ``HexMap.reachable`` (on a map this small, its pure-Python search over the map's
    cached graph).
    """
    others = [u.hex for u in state.alive() if u is not unit]
    reach = state.map.reachable(unit.hex, unit.move, "infantry", blocked=others)
    # By cost, then by hex. Hot (every activation): reachable lists the hexes in map index order
    # (column by column, each column's rows in order), which on this map's columns of hexes is
    # (q, r) order, so a stable sort by cost alone keeps equal costs in hex order.
    return sorted(reach, key=reach.__getitem__)
