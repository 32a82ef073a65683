"""§8 Rout and elimination: rout on hits ≥ TQ, the rout moves, banner rallies, elimination.

Scoring for the army-withdrawal check (D17, provisional): an eliminated unit costs its side its
TQ in rout points, a killed leader 5.
"""

from __future__ import annotations

import math

from wargamekit import Choose
from wargamekit.geometry import Hex
from wargamekit_aig import kinds
from wargamekit_aig.command import in_range
from wargamekit_aig.facing import enemy_zoi
from wargamekit_aig.kinds import Context, Procedure
from wargamekit_aig.scenario import hex_label
from wargamekit_aig.state import IMPASSABLE, RIVER, GameState, Leader, Unit

#: D17 (provisional): rout points of a killed leader.
LEADER_POINTS = 5
#: §8.3 a routed unit this close to its banner makes a banner rally.
BANNER_REACH = 3


def eliminate(ctx: Context, unit: Unit, why: str) -> None:
    """§8: remove the unit; its side loses its TQ in rout points (D17)."""
    if unit.eliminated:
        return
    unit.eliminated = True
    ctx.state.rout_points[unit.side] += unit.tq
    ctx.event("eliminated", f"{unit.name} is eliminated: {why}", unit=unit.name, side=unit.side, reason=why)
    banner_lost(ctx, unit)


def kill_leader(ctx: Context, leader: Leader, why: str, *, by: Unit | None = None) -> None:
    """§4.4: a leader is killed or captured; an OC is never replaced (§4.4.3).

    D12 (provisional): if he carried his side's banner and was lost to an enemy combat unit
    (``by``: it overran him, caught him evading, or fought him in a melee), that unit captures
    the banner (§8.3.1 "敌方成功夺取了军旗"); otherwise the surviving leader of the highest rank
    takes it up, and with no leader left it is gone.
    """
    state = ctx.state
    if not leader.alive:
        return
    leader.alive = False
    state.rout_points[leader.side] += LEADER_POINTS
    ctx.event("leader-killed", f"{leader.name} is lost: {why}", leader=leader.name, side=leader.side, reason=why)
    banner = state.banners.get(leader.side)
    if banner is None or banner.captured or banner.carrier != leader.name:
        return
    if by is not None and by.alive and by.side != leader.side:
        banner.captured = True
        banner.carrier = by.name
        ctx.event("banner-captured", f"{by.name} captures the {leader.side} banner (§8.3.1, D12)",
                  side=leader.side, carrier=by.name)
        return
    heirs = sorted((ld for ld in state.live_leaders(leader.side)), key=lambda ld: (-ld.rank_value, ld.name))
    if heirs:
        banner.carrier = heirs[0].name
        ctx.event("banner", f"{heirs[0].name} takes up the {leader.side} banner", side=leader.side,
                  carrier=heirs[0].name)
    else:
        state.banners.pop(leader.side)


def banner_lost(ctx: Context, unit: Unit) -> None:
    """D12 (provisional): a captured banner whose captor leaves the map is gone for good."""
    for side, banner in list(ctx.state.banners.items()):
        if banner.captured and banner.carrier == unit.name:
            ctx.state.banners.pop(side)
            ctx.event("banner", f"the captured {side} banner is lost with {unit.name}", side=side)


def apply_hits(ctx: Context, unit: Unit, hits: int, why: str, *, rout_now: bool = True) -> Procedure:
    """Cohesion hits (§2.4); §8.1: hits ≥ TQ → the unit routs at once (with its rout move), unless
    ``rout_now`` is off (the melee segment routs in its own step e, §3.2.2)."""
    if hits <= 0 or unit.eliminated:
        return
    unit.hits += hits
    ctx.event("hits", f"{unit.name} takes {hits} cohesion hit{'s' * (hits > 1)} ({why}); cohesion {unit.cohesion}",
              hits=hits, reason=why, total=unit.hits, unit=unit.name)  # (sorted keys: see orders.turn)
    if rout_now and unit.hits >= unit.tq and not unit.routed:
        yield from rout(ctx, unit, "its hits reach its TQ (§8.1)")


def rout(ctx: Context, unit: Unit, why: str) -> Procedure:
    """§8.1: the unit routs: Rout marker, then the immediate rout move (§8.1.1)."""
    if unit.eliminated or unit.routed:
        return
    mark_routed(ctx, unit, why)
    yield from rout_move(ctx, unit)


def mark_routed(ctx: Context, unit: Unit, why: str) -> None:
    """§8.1.1: the Rout marker (the move is :func:`rout_move`)."""
    unit.routed = True
    unit.disordered = False
    ctx.event("rout", f"{unit.name} routs: {why}", unit=unit.name, reason=why)


def _nearest_enemies(state: GameState, unit: Unit) -> list[Unit]:
    enemies = [e for e in state.live_units() if e.side != unit.side and not e.routed]
    if not enemies:
        return []
    best = min(unit.hex.distance(e.hex) for e in enemies)
    return [e for e in enemies if unit.hex.distance(e.hex) == best]


def _away(nearest: list[Unit], h: Hex) -> int:
    return min(h.distance(e.hex) for e in nearest)


def rout_move(ctx: Context, unit: Unit) -> Procedure:
    """§8.1.1: two hexes in a straight line directly away from the nearest enemy, then on as far
    as its MA allows (the first two hexes' MP count). §8.1.2: entering enemy ZOI eliminates it;
    a river or impassable terrain in the way (during the first two hexes) eliminates it.

    D26/Q37 readings: "away" = every step raises the hex distance to the nearest enemies (the
    first two keep one direction); hexes holding units or enemy leaders are not entered (D16); after the first two
    hexes the unit stops where no hex is farther away or the MA is spent.
    """
    state = ctx.state
    nearest = _nearest_enemies(state, unit)
    if not nearest:
        return
    spent = 0.0
    direction: int | None = None
    for step in range(unit.ma):
        if unit.eliminated:
            return
        here = _away(nearest, unit.hex)
        options: list[int] = []
        blocked_by_terrain = False
        for d in range(6) if direction is None or step >= 2 else (direction,):
            h = unit.hex.neighbour(d)
            if h not in state.map or _away(nearest, h) <= here:
                continue
            if state.map.hexside(unit.hex, d) == RIVER or state.is_terrain(h, IMPASSABLE):
                blocked_by_terrain = True
                continue
            if state.unit_at(h) is not None or state.enemy_leader_in(h, unit.side):
                continue
            cost = state.step_cost(unit.hex, h, unit.type)
            if step >= 2 and spent + cost > unit.ma:
                continue
            options.append(d)
        if not options:
            if step < 2 and (blocked_by_terrain or direction is None and step == 0 and _surrounded(state, unit)):
                eliminate(ctx, unit, "its rout is barred by a river, impassable terrain or the enemy (§8.1.2)")
            return
        best = max(_away(nearest, unit.hex.neighbour(d)) for d in options)
        options = [d for d in options if _away(nearest, unit.hex.neighbour(d)) == best]
        d = yield from ctx.ask(Choose.of(
            unit.side, f"{unit.name} routs: which way?", options, rule="8.1.1 rout move",
            label=lambda d: hex_label(unit.hex.neighbour(d)), kind=kinds.ROUT_STEP,
            context={"unit": unit.name, "move": "rout"},
            data=lambda d: {"hex": hex_label(unit.hex.neighbour(d)), "direction": d}))
        direction = d if direction is None else direction
        to = unit.hex.neighbour(d)
        spent += min(state.step_cost(unit.hex, to, unit.type), float(unit.ma))
        unit.hex = to
        ctx.event("rout-move", f"{unit.name} routs into {hex_label(to)}", unit=unit.name, to=hex_label(to))
        if to in enemy_zoi(state, unit.side):
            eliminate(ctx, unit, "a routed unit entered enemy ZOI (§8.1.2)")
            return
        if step >= 1 and spent >= unit.ma:
            break
    yield from banner_check(ctx, unit)


def _surrounded(state: GameState, unit: Unit) -> bool:
    """§8.1.2 figure cases 4–5: every neighbour is an enemy unit, enemy ZOI or impassable."""
    zoi = enemy_zoi(state, unit.side)
    for d in range(6):
        h = unit.hex.neighbour(d)
        if h not in state.map or state.is_terrain(h, IMPASSABLE) or state.map.hexside(unit.hex, d) == RIVER:
            continue
        other = state.unit_at(h)
        if (other is None or other.side == unit.side) and h not in zoi:
            return False
    return True


def rally_phase_move(ctx: Context, unit: Unit) -> Procedure:
    """§8.2 / §8.2.1: three hexes toward the banner, terrain costs ignored, around impassable
    hexes only; running into a river, an enemy unit or enemy ZOI eliminates it. Q38 reading:
    streams are crossed; a hex where an enemy leader stands alone is not entered; without a
    banner on the map the unit disperses (D12)."""
    state = ctx.state
    goal = state.banner_hex(unit.side)
    banner = state.banners.get(unit.side)
    if goal is None or banner is None:
        eliminate(ctx, unit, "its side has no banner to rout toward (§8.2, D12)")
        return
    if banner.captured:
        eliminate(ctx, unit, "its banner is in enemy hands (§8.3.1)")
        return
    for _ in range(3):
        if unit.hex.distance(goal) <= 1:
            break
        options = []
        for d in range(6):
            h = unit.hex.neighbour(d)
            if h in state.map and not state.is_terrain(h, IMPASSABLE):
                friend = state.unit_at(h)
                if (friend is None or friend.side != unit.side) and not (
                        friend is None and state.enemy_leader_in(h, unit.side)):
                    options.append(d)
        if not options:
            break
        best = min(unit.hex.neighbour(d).distance(goal) for d in options)
        if best >= unit.hex.distance(goal):
            break
        options = [d for d in options if unit.hex.neighbour(d).distance(goal) == best]
        d = yield from ctx.ask(Choose.of(
            unit.side, f"{unit.name} routs toward its banner: which way?", options, rule="8.2.1 rout move",
            label=lambda d: hex_label(unit.hex.neighbour(d)), kind=kinds.ROUT_STEP,
            context={"unit": unit.name, "move": "banner"},
            data=lambda d: {"hex": hex_label(unit.hex.neighbour(d)), "direction": d}))
        to = unit.hex.neighbour(d)
        other = state.unit_at(to)
        if state.map.hexside(unit.hex, d) == RIVER or (other is not None and other.side != unit.side):
            eliminate(ctx, unit, "it ran into a river or an enemy unit (§8.2.1)")
            return
        unit.hex = to
        ctx.event("rout-move", f"{unit.name} routs into {hex_label(to)}", unit=unit.name, to=hex_label(to))
        if to in enemy_zoi(state, unit.side):
            eliminate(ctx, unit, "it ran into enemy ZOI (§8.2.1)")
            return
    yield from banner_check(ctx, unit)


def banner_rally_number(unit: Unit) -> int:
    """§8.3: a banner rally succeeds on d10 ≤ ⌈TQ/2⌉."""
    return math.ceil(unit.tq / 2)


def banner_check(ctx: Context, unit: Unit) -> Procedure:
    """§8.3: a routed unit within 3 hexes of its banner rallies automatically: d10 (−1 within a
    commander's command range, §8.3.2) ≤ ⌈TQ/2⌉ rallies it, else it disperses (eliminated).
    §8.3.1: if the banner is in enemy hands the unit is eliminated. D12 (provisional): a rallied
    unit loses its Rout marker and keeps ⌈TQ/2⌉ cohesion."""
    state = ctx.state
    goal = state.banner_hex(unit.side)
    if unit.eliminated or not unit.routed or goal is None or unit.hex.distance(goal) > BANNER_REACH:
        return
    if state.banners[unit.side].captured:
        eliminate(ctx, unit, "it came within 3 hexes of its captured banner (§8.3.1)")
        return
    covered = any(in_range(state, ld, unit) for ld in state.live_leaders(unit.side) if not ld.junior)
    roll = ctx.dice.d10(f"§8.3 banner rally of {unit.name}")
    if roll - covered <= banner_rally_number(unit):
        unit.routed = False
        unit.hits = unit.tq - banner_rally_number(unit)
        ctx.event("rally", f"{unit.name} rallies at the banner (rolled {roll}{' -1' if covered else ''}, "
                  f"needed {banner_rally_number(unit)})", unit=unit.name, roll=roll)
    else:
        eliminate(ctx, unit, f"its banner rally failed (rolled {roll}, needed {banner_rally_number(unit)}) (§8.3)")
    yield from ()


def banner_moved(ctx: Context, side: str) -> Procedure:
    """§8.3: the banner carrier's move can bring routed units within reach."""
    for unit in ctx.state.live_units(side):
        if unit.routed:
            yield from banner_check(ctx, unit)
