"""§9 Missile fire: who may fire at whom, and the pure resolution of one volley.

The missile table itself is lost ("如图所示", D3): hit numbers by weapon and range and the volley
counts are provisional scenario data (:class:`~wargamekit_aig.scenario.Tables`). What the text
does give is kept exactly: a hit iff the modified d10 ≤ the number (§9.1.1), a hit is exactly one
cohesion hit, cavalry that is not disordered takes a morale check when fired upon and becomes
disordered on failure (§7.3), disordered cavalry is one column easier to hit (§7.3.1).

:func:`resolve_missile` is a pure function of the dice and a :class:`Shot`, so
``wargamekit.odds.distribution(resolve_missile, shot)`` is its exact odds.
"""

from __future__ import annotations

from functools import cache

from attrs import frozen

from wargamekit import Dice
from wargamekit.geometry import Arc, Hex, VertexFacing, arc_of
from wargamekit_aig.facing import arc
from wargamekit_aig.state import WOODS, GameState, PerMap, Unit

#: D25 (provisional): a volley into the target's flank or rear is one column easier.
ARC_SHIFT = {Arc.FRONT: 0, Arc.FLANK: 1, Arc.REAR: 1}
#: D3 (provisional): armoured targets (HI, CT) are one column harder to hit.
ARMOURED = frozenset({"HI", "CT"})


@frozen
class Shot:
    """Everything one volley's result depends on.

    Attributes:
        base: the table's hit number for the weapon at this range (D3).
        trained: the firer's "specially trained" shape (D22: +1, provisional).
        arc: where the firer stands relative to the target (D25).
        armoured: the target is HI or CT (D3, −1).
        cover: the target is in woods (D2, −1).
        disordered_cavalry: §7.3.1, one column adverse for the target (+1).
        morale_check: the target is cavalry not yet disordered: it takes a morale check (§7.3).
        cohesion: the target's cohesion before the volley (for that morale check, Q29).
        extra: add-ons' modifiers (the ``aig_missile_modifier`` hook).
    """

    base: int
    trained: bool = False
    arc: Arc = Arc.FRONT
    armoured: bool = False
    cover: bool = False
    disordered_cavalry: bool = False
    morale_check: bool = False
    cohesion: int = 9
    extra: int = 0

    @property
    def number(self) -> int:
        """The modified number needed: hit iff d10 ≤ it."""
        return (self.base + self.trained + ARC_SHIFT[self.arc] - self.armoured - self.cover
                + self.disordered_cavalry + self.extra)


@frozen
class Volley:
    """What a volley did: hit (one cohesion hit, §9.1.1) and whether cavalry became disordered (§7.3)."""

    hit: bool
    disordered: bool = False


def resolve_missile(dice: Dice, shot: Shot) -> Volley:
    """§9.1.1 roll d10: a hit iff the roll ≤ the modified number; then §7.3 the cavalry morale
    check (d10 ≤ cohesion after the hit, Q29/Q33 readings) — failure disorders it.

    >>> from wargamekit import ScriptedDice
    >>> resolve_missile(ScriptedDice([4]), Shot(base=4))
    Volley(hit=True, disordered=False)
    >>> resolve_missile(ScriptedDice([5, 6]), Shot(base=4, morale_check=True, cohesion=5))
    Volley(hit=False, disordered=True)
    """
    hit = dice.d10("§9.1.1 missile fire") <= shot.number
    disordered = False
    if shot.morale_check:
        left = shot.cohesion - hit
        disordered = dice.d10("§7.3 morale check of cavalry fired upon") > left
    return Volley(hit, disordered)


def weapon_range(state: GameState, unit: Unit) -> int:
    """The longest range of the unit's weapon (D3)."""
    return len(state.tables.weapons[unit.missile].hit) if unit.missile else 0


def can_fire(unit: Unit) -> str | None:
    """None if ``unit`` may fire now, else why not (§9.1, §7.3.1, D5)."""
    if not unit.missile:
        return "it has no missile weapon (§9.1)"
    if unit.routed:
        return "it is routed (§8)"
    if unit.disordered and unit.cavalry:  # (the plain field first: every step menu asks)
        return "disordered cavalry may not fire (§7.3.1)"
    if unit.ammo <= 0:
        return "it is out of missiles (§9.4, D5)"
    return None


def shot_at(state: GameState, firer: Unit, target: Unit, *, check_arc: bool = True) -> Shot | None:
    """The :class:`Shot` if ``firer`` may fire at ``target`` now, else ``None``.

    D3 (provisional): in range; in the firer's front (its two front wedges, §7.1); the line not
    blocked by a hill or by another combat unit between.
    """
    if can_fire(firer) is not None or not target.alive or target.side == firer.side:
        return None
    distance = firer.hex.distance(target.hex)
    table = state.tables.weapons[firer.missile].hit
    if not 1 <= distance <= len(table):
        return None
    if check_arc and arc_of(firer.hex, firer.vertex, target.hex, firer="unit") != Arc.FRONT:
        return None
    if not _clear(state, firer.hex, target.hex):
        return None
    return _shot(state, firer, target, table[distance - 1])


#: Per map: the hexes between two hexes (by their coordinates) on the line a volley is traced
#: along (D3: the better of the two lines along hexsides), or ``None`` where the terrain blocks
#: it. A cache: the map never changes in play, and every step menu of a missile unit that has
#: moved traces the line to each enemy within range (the map's answer builds the line's hexes
#: at every call).
_LINES: PerMap[tuple[int, int, int, int], tuple[Hex, ...] | None] = PerMap()


def _clear(state: GameState, at: Hex, to: Hex) -> bool:
    """D3: the line from ``at`` to ``to`` is not blocked by a hill or by a combat unit between."""
    table = _LINES.table(state.map)
    key = (at.q, at.r, to.q, to.r)
    if key in table:
        between = table[key]
    else:
        los = state.map.line_of_sight(at, to, edge="better")
        between = table[key] = los.between if los.clear else None
    return between is not None and not any(state.unit_at(h) is not None for h in between)


def _shot(state: GameState, firer: Unit, target: Unit, base: int) -> Shot:
    """The :class:`Shot` of ``firer`` at ``target`` (both as they are now) at the table's ``base``."""
    check = target.cavalry and not target.disordered and not target.routed
    return Shot(base, firer.trained, arc(target, firer.hex), target.type in ARMOURED,
                state.is_terrain(target.hex, WOODS), target.cavalry and target.disordered, check, target.cohesion)


def _in_range(state: GameState, firer: Unit) -> list[tuple[Unit, int]]:
    """The enemy units within ``firer``'s weapon range (D3), each with its table's hit number,
    in scenario order."""
    found: list[tuple[Unit, int]] = []
    if not firer.missile:
        return found
    table = state.tables.weapons[firer.missile].hit
    # at.distance(enemy.hex) <= reach, inline (every step of a missile unit tries every enemy;
    # the battle has 47 units): the distance is half the sum of the three cube deltas, asked
    # only of a unit within the box that bound implies (both deltas at most the reach; most
    # units stand farther, and are passed by two comparisons instead of three abs calls)
    side, q, r, reach = firer.side, firer.hex.q, firer.hex.r, len(table)
    for enemy in state.units.values():
        if enemy.side == side or enemy.eliminated:
            continue
        h = enemy.hex
        dq = h.q - q
        if -reach <= dq <= reach:
            dr = h.r - r
            if -reach <= dr <= reach:
                double = abs(dq) + abs(dr) + abs(dq + dr)
                if 0 < double <= 2 * reach:
                    found.append((enemy, table[double // 2 - 1]))
    return found


def in_reach(state: GameState, firer: Unit) -> list[tuple[Unit, int]]:
    """The enemy units ``firer`` could fire at from its hex if they were in its front, each with
    its table's hit number (D3: in range, the line clear), in scenario order: :func:`shot_at`'s
    tests but the unit's own (:func:`can_fire`) and the front. A turn changes only the front:
    :func:`targets` takes this list again while the unit only turns."""
    here = firer.hex
    return [(enemy, base) for enemy, base in _in_range(state, firer) if _clear(state, here, enemy.hex)]


def targets(state: GameState, firer: Unit, reach: list[tuple[Unit, int]] | None = None) -> dict[str, Shot]:
    """§9.1 every enemy unit ``firer`` may fire at now, with its shot. ``reach``:
    ``in_reach(state, firer)``, when the caller has it from where the unit stands now."""
    found: dict[str, Shot] = {}
    if can_fire(firer) is not None:  # what shot_at would find for every target
        return found
    here, corner = firer.hex, firer.facing
    q, r = here.q, here.r
    if reach is None:  # one question: the front first, the line (the dearer test) only then
        for enemy, base in _in_range(state, firer):
            there = enemy.hex
            if _in_front(there.q - q, there.r - r, corner) and _clear(state, here, there):
                found[enemy.name] = _shot(state, firer, enemy, base)
        return found
    for enemy, base in reach:
        there = enemy.hex
        if _in_front(there.q - q, there.r - r, corner):
            found[enemy.name] = _shot(state, firer, enemy, base)
    return found


@cache
def _in_front(dq: int, dr: int, corner: int) -> bool:
    """Whether a hex ``(dq, dr)`` away from a unit pointing at ``corner`` lies in its front (§7.1;
    D3: a hex on the boundary of two arcs counts as in the firer's front, ``arc_of``'s
    ``firer="unit"``). The arc depends on the offset alone (and only offsets within a weapon's
    range are asked): remembered, as every step menu of a missile unit tests each enemy in reach."""
    return arc_of(Hex(0, 0), VertexFacing(corner), Hex(dq, dr), firer="unit") == Arc.FRONT
