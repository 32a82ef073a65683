"""§7 Formations, facing and zones of influence; §2.4 ZOI (extent provisional, D7).

§7.1: the counter points at a hex corner; the two hexsides beside it are the front, the two
beside the opposite corner the rear, the other two the flanks — :class:`VertexFacing` and
:func:`arc_of` from the core. §7.3.1: disordered cavalry counts every hexside as front.
"""

from __future__ import annotations

from wargamekit.geometry import Arc, Hex, arc_of
from wargamekit_aig.state import RIVER, GameState, PerMap, Unit

#: Per map: the front hexes and the ZOI hexes of a counter by (hex's q, r, corner, all sides
#: front). A cache: rules query them constantly. (Coordinates, not the Hex: a Hex hashes and
#: compares by Python calls.)
_SIDES: PerMap[tuple[int, int, int, bool], tuple[tuple[Hex, ...], tuple[Hex, ...]]] = PerMap()
#: Per map: the hexes in the ZOI of a set of counters, by their (hex's q, r, corner, all sides
#: front). A cache: command ranges, leader moves and withdrawals ask a side's enemy ZOI again
#: and again while no enemy has moved.
_ZONES: PerMap[tuple[tuple[int, int, int, bool], ...], frozenset[Hex]] = PerMap(kept=4096)


def _sides(state: GameState, unit: Unit) -> tuple[tuple[Hex, ...], tuple[Hex, ...]]:
    all_front = unit.disordered and unit.cavalry
    key = (unit.hex.q, unit.hex.r, unit.facing, all_front)
    table = _SIDES.table(state.map)
    got = table.get(key)
    if got is None:
        sides = range(6) if all_front else unit.vertex.front_hexsides
        front = tuple(unit.hex.neighbour(d) for d in sides if unit.hex.neighbour(d) in state.map)
        reach = tuple(h for h in front if state.map.hexside(unit.hex, unit.hex.direction_to(h)) != RIVER)
        got = table[key] = (front, reach)
    return got


def front_hexes(state: GameState, unit: Unit) -> list[Hex]:
    """§6.3/§7.1: the hexes across the unit's front hexsides (all six for disordered cavalry,
    §7.3.1), on the map."""
    return list(_sides(state, unit)[0])


def arc(target: Unit, from_hex: Hex) -> Arc:
    """§7.1: where ``from_hex`` lies relative to ``target`` (FRONT for disordered cavalry, §7.3.1)."""
    if target.disordered and target.cavalry:
        return Arc.FRONT
    return arc_of(target.hex, target.vertex, from_hex)


def zoi(state: GameState, unit: Unit) -> list[Hex]:
    """§2.4 / D7 (provisional): a non-routed unit's ZOI is its front hexes, not across a river."""
    if not unit.alive or unit.routed:
        return []
    return list(_sides(state, unit)[1])


def enemy_zoi(state: GameState, side: str) -> frozenset[Hex]:
    """Every hex in the ZOI of a unit of the side opposing ``side`` (see :func:`zoi`)."""
    # zoi(u) is a function of the map and u's hex, corner and all-front status, or empty
    # (eliminated, routed): the ZOI of all of them is remembered by those.
    counters = tuple((u.hex.q, u.hex.r, u.facing, u.disordered and u.cavalry) for u in state.units.values()
                     if u.side != side and not u.eliminated and not u.routed)
    table = _ZONES.table(state.map)
    got = table.get(counters)
    if got is None:
        out: set[Hex] = set()
        for u in state.live_units():
            if u.side != side:
                out.update(zoi(state, u))
        got = table[counters] = frozenset(out)
    return got


def engaged_with(state: GameState, unit: Unit, around: list[tuple[int, Unit]] | None = None) -> list[Unit]:
    """Enemy units in contact (短兵相接, §3.2.2.a): adjacent, non-routed, and one of the two has
    the other in its front (provisional reading of "engaged", D8). ``around``:
    ``state.units_around(unit.hex)``, when the caller has it."""
    if unit.routed:
        return []
    out = []
    for _, other in state.units_around(unit.hex) if around is None else around:
        if other.side == unit.side or other.routed:
            continue
        if other.hex in _sides(state, unit)[0] or unit.hex in _sides(state, other)[0]:
            out.append(other)
    return out
