"""Heavy weapons and vehicles: HWF (重武器射击), HWI (重武器攻击非车辆单位), HWV (重武器攻击车辆单位),
VEH (车辆作战), VMV (车辆移动), IVV (步兵VS车辆), SAV (轻武器VS车辆).

The resolution procedures are pure functions of the dice and frozen values, so
:func:`wargamekit.odds.distribution` gives their exact odds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from attrs import frozen

from wargamekit import Dice, odds
from wargamekit.geometry import Arc, Hex, HexsideFacing, arc_of, in_fire_arc
from wargamekit_lnl import data, fire
from wargamekit_lnl.data import COUNTERS, VEHICLE_COST, VEHICLE_WALL, effects
from wargamekit_lnl.los import exposed, visible
from wargamekit_lnl.melee import can_melee
from wargamekit_lnl.state import GameState, Place, Unit

__all__ = [
    "ABANDONED",
    "DESTROYED",
    "GunShot",
    "Penetration",
    "at_melee",
    "gun_vs_infantry",
    "gun_vs_vehicle",
    "penetrate",
    "small_arms_vs_vehicle",
    "to_hit",
    "vehicle_step_cost",
]

MISS, NO_EFFECT, SHAKEN, ABANDONED, DESTROYED, FAILED = "miss", "no effect", "shaken", "abandoned", "destroyed", "failed"

#: Width of the hull MG's front arc in hexsides (VEH 4: an MG without * fires only forward; D12).
FRONT_ARC = data.FRONT_ARC


# -- HWF 3: to hit --------------------------------------------------------------------------------
@frozen
class GunShot:
    """A heavy-weapon shot's to-hit roll: the number from the table and the DRMs (+1 per
    hindering hex, HWF 3.1; +2 after an assault move, VMV 2.2)."""

    number: int
    drm: int = 0


def to_hit(dice: Dice, shot: GunShot) -> bool:
    """HWF 3.3: 2D6 + DRM ≤ the to-hit number; a 2 always hits, a 12 always misses."""
    roll = sum(dice.nd6(2, "to hit"))
    if roll == 2:
        return True
    if roll == 12:
        return False
    return roll + shot.drm <= shot.number


def gun_vs_infantry(dice: Dice, shot: GunShot, attack: fire.Attack, target: fire.Target) -> tuple[str, bool]:
    """HWF 3 then HWI 1–3 for one target unit: a hit, then 1D6 + HE FP against 1D6 + terrain,
    then the damage check (A48: as FPR 4)."""
    if not to_hit(dice, shot):
        return (MISS, False)
    return fire.one_target(dice, attack, target)


# -- HWV: penetration -----------------------------------------------------------------------------
@frozen
class Penetration:
    """A hit on a vehicle, everything but the dice (HWV 1).

    Attributes:
        pen: the weapon's penetration (D6). hull, turret: the armour of the hull and turret on
        the side hit (−1: unarmoured). red: red-H weapon against red armour (−4, HWV 1.2).
        morale: the vehicle's morale (HWV 3–4).
    """

    pen: int
    hull: int
    turret: int
    red: bool = False
    morale: int = 6


def penetrate(dice: Dice, hit: Penetration) -> str:
    """HWV 1–4: attacker 1D6 + penetration against defender 1D6 + armour of the location hit
    (turret when the attacker's die is odd and above 2, A44). 1 against 6 fails outright
    (HWV 1.3c, read before the unarmoured-location rule, A47); an unarmoured location, 6 against
    1, or a greater total destroys; equal: a morale check, pass shaken, fail abandoned; lower:
    a morale check less the difference, fail shaken, a 12 shaken (A46)."""
    a = dice.d6("penetration: attacker")
    d = dice.d6("penetration: defender")
    armour = hit.turret if a > 2 and a % 2 == 1 else hit.hull
    if a == 1 and d == 6:
        return FAILED
    if armour < 0 or (a == 6 and d == 1):
        return DESTROYED
    total_a = a + hit.pen - (4 if hit.red else 0)
    total_d = d + armour
    if total_a > total_d:
        return DESTROYED
    roll = sum(dice.nd6(2, "vehicle morale"))
    if total_a == total_d:
        return SHAKEN if roll <= hit.morale else ABANDONED
    if roll == 12 or roll - (total_d - total_a) > hit.morale:
        return SHAKEN
    return NO_EFFECT


def gun_vs_vehicle(dice: Dice, shot: GunShot, hit: Penetration) -> str:
    """HWF 3 then HWV: the whole heavy-weapon shot at a vehicle."""
    if not to_hit(dice, shot):
        return MISS
    return penetrate(dice, hit)


@cache
def gun_vs_vehicle_odds(shot: GunShot, hit: Penetration) -> dict[str, Fraction]:
    """Exact odds of every result of a shot at a vehicle."""
    return odds.distribution(gun_vs_vehicle, shot, hit)


@cache
def gun_vs_infantry_odds(shot: GunShot, attack: fire.Attack, target: fire.Target) -> dict[str, Fraction]:
    """Exact odds of every damage-check result of an HE shot on one unit (HWF 3 + HWI)."""
    p_hit = odds.probability(to_hit, shot)
    out: dict[str, Fraction] = {MISS: 1 - p_hit}
    for res, p in fire.outcome_odds(attack, target).items():
        out[res] = out.get(res, Fraction(0)) + p_hit * p
    return out


# -- SAV / IVV / VMV 3 ----------------------------------------------------------------------------
def small_arms_vs_vehicle(dice: Dice, fp: int, drm: int, defence: int, morale: int) -> str:
    """SAV 2–3: 1D6 + total FP against 1D6 + terrain + lowest armour; greater → the vehicle's
    damage check (A56: 1D6 + difference; above morale shaken, morale + 3 or more abandoned)."""
    return small_arms_hit_vehicle(dice, fp, drm, defence, morale)[0]


def small_arms_hit_vehicle(dice: Dice, fp: int, drm: int, defence: int, morale: int) -> tuple[str, bool]:
    """:func:`small_arms_vs_vehicle` and whether the vehicle took a damage check (SW 3.3)."""
    a = dice.d6("small arms: attacker") + fp + drm
    d = dice.d6("small arms: vehicle") + defence
    if a <= d:
        return NO_EFFECT, False
    value = dice.d6("vehicle damage check") + (a - d)
    if value >= morale + 3:
        return ABANDONED, True
    return (SHAKEN if value > morale else NO_EFFECT), True


def at_melee(dice: Dice, value: int, armour: int) -> bool:
    """IVV 4: 1D6 + FP + leadership + AT weapon FP > 1D6 + lowest armour → destroyed."""
    return dice.d6("anti-tank: infantry") + value > dice.d6("anti-tank: vehicle") + armour


def overrun(dice: Dice, value: int) -> int:
    """VMV 3.3–3.4: 1D6 + gun FP + MG FP + 2 + commander's leadership against 1D6: the difference
    (> 0: the defenders take damage checks with it)."""
    return dice.d6("overrun: vehicle") + value - dice.d6("overrun: defender")


# -- geometry and data ----------------------------------------------------------------------------
def vehicle_step_cost(state: GameState, frm: Hex, to: Hex, unit: Unit) -> float:
    """VEH 2 / D2: terrain cost by movement type, a wall +2; buildings prohibited."""
    spec = unit.spec.vehicle
    assert spec is not None
    cost = VEHICLE_COST[spec.move_type][state.terrain(to)]
    if state.wall(frm, frm.direction_to(to)):
        cost += VEHICLE_WALL
    return cost


def mp_of(unit: Unit) -> int:
    """VEH 3: a shaken vehicle has half its MP (rounded up)."""
    return math.ceil(unit.spec.mp / 2) if unit.shaken else unit.spec.mp


def armour_facing(target: Unit, firer_hex: Hex) -> tuple[int, int]:
    """HWV 1.3a (D12): the hull and turret armour on the side the shot comes from; a shot along a
    boundary takes the weaker side (the attacker's favour)."""
    spec = target.spec.vehicle
    assert spec is not None
    names = {Arc.FRONT: "front", Arc.FLANK: "side", Arc.REAR: "rear"}
    hull = arc_of(target.hex, HexsideFacing(target.facing), firer_hex, firer="other")
    turret = arc_of(target.hex, HexsideFacing(target.turret), firer_hex, firer="other")
    return spec.armour[f"hull_{names[hull]}"], spec.armour[f"turret_{names[turret]}"]


def unarmoured(unit: Unit) -> bool:
    """SAV 1: an unarmoured vehicle (every location "*")."""
    spec = unit.spec.vehicle
    return spec is not None and all(v < 0 for v in spec.armour.values())


def mg_fp(unit: Unit, target: Hex) -> int:
    """VEH 4: the MGs that reach ``target`` — the "*" MG all round, the others in the hull's front
    arc. VEH 1: armoured vehicles are always buttoned here (U12: no rule to open the hatches), so
    their "*" top MG (A63) is silent; an unarmoured (open) vehicle uses it."""
    spec = unit.spec.vehicle
    assert spec is not None
    d = unit.hex.distance(target)
    if d == 0:
        return 0  # no fire into its own hex (after an overrun the vehicle shares it with the enemy)
    total = 0
    buttoned = not unarmoured(unit)
    for mg in spec.mgs:
        if mg.all_round and buttoned:
            continue
        if d <= mg.range and (mg.all_round or in_fire_arc(unit.hex, HexsideFacing(unit.facing), target, FRONT_ARC)):
            total += mg.fp
    return total


def gun_shot(state: GameState, unit: Unit, target: Hex, *, assault: bool = False) -> GunShot | None:
    """HWF 3: the to-hit number at the range, +1 per hindering hex, +2 after assault (VMV 2.2);
    ``None`` out of range or LOS. The turret turns to the target as it fires (provisional, U10)."""
    spec = unit.spec.vehicle
    assert spec is not None
    if target == unit.hex:
        return None
    line = visible(state, unit.hex, target)
    number = spec.to_hit_number(unit.hex.distance(target))
    if line is None or number is None or spec.he + spec.pen == 0:
        return None
    return GunShot(number, line.hindering + (2 if assault else 0))


def he_attack(state: GameState, unit: Unit, place: Place, *, moving: bool = False) -> fire.Attack:
    """HWI 1–2: 1D6 + HE FP (+1 against a moving target or one with a move/assault marker, −1
    for a red H; no leadership) against 1D6 + terrain; A48: the damage checks take the hex's
    leadership as in FPR 4."""
    spec = unit.spec.vehicle
    assert spec is not None
    defenders = [u for u in state.at(place) if u.side != unit.side and not u.vehicle]
    marked = any(u.markers & {"move", "assault"} for u in defenders)
    fp = spec.he + (1 if moving or marked else 0) - (1 if spec.red_h else 0)
    sniper = any(u.kind == "sniper" for u in defenders)  # SMC 2.4: doubled against heavy weapons too
    return fire.Attack(fp, 0, fire.terrain_drm(state, unit.hex, place, sniper=sniper), fire.leadership_at(defenders))


def penetration_for(unit: Unit, target: Unit) -> Penetration:
    """HWV 1: the hit on ``target`` from ``unit``'s gun."""
    spec, tspec = unit.spec.vehicle, target.spec.vehicle
    assert spec is not None and tspec is not None
    hull, turret = armour_facing(target, unit.hex)
    return Penetration(spec.pen, hull, turret, spec.red_h and tspec.red_armour, target.morale)


def vehicle_targets(state: GameState, unit: Unit) -> tuple[list[Place], list[Unit]]:
    """VEH 4–5, FIR 1: places with exposed enemy infantry the gun or an MG reaches, and enemy
    vehicles the gun reaches (vehicles are always exposed: a reading, not in the source)."""
    from wargamekit_lnl.los import exposed

    places = sorted({u.place for u in state.alive() if u.side != unit.side and not u.vehicle
                     and u.place not in state.melee and exposed(state, u)}, key=lambda p: (p[0].q, p[0].r, p[1]))
    reach = [p for p in places if p[0] != unit.hex and visible(state, unit.hex, p[0]) is not None
             and (gun_shot(state, unit, p[0]) is not None or mg_fp(unit, p[0]) > 0)]
    tanks = [v for v in state.alive() if v.side != unit.side and v.vehicle and gun_shot(state, unit, v.hex) is not None]
    return reach, tanks


def has_vehicle_target(state: GameState, unit: Unit) -> bool:
    """Whether :func:`vehicle_targets` finds anything (the action menu asks this of every
    vehicle activation): the same tests, the cheap ones first, stopping at the first target —
    rather than every exposed place sorted and every target's shot."""
    enemies = [u for u in state.alive() if u.side != unit.side]
    if any(v.vehicle and gun_shot(state, unit, v.hex) is not None for v in enemies):
        return True
    reaches: dict[Place, bool] = {}
    for u in enemies:
        if u.vehicle:
            continue
        p = u.place
        ok = reaches.get(p)
        if ok is None:
            ok = reaches[p] = p not in state.melee and p[0] != unit.hex and visible(state, unit.hex, p[0]) is not None \
                and (gun_shot(state, unit, p[0]) is not None or mg_fp(unit, p[0]) > 0)
        if ok and exposed(state, u):
            return True
    return False


def defence_vs_small_arms(state: GameState, vehicle: Unit, origin: Hex) -> int:
    """SAV 2.2: terrain modifier + lowest armour."""
    spec = vehicle.spec.vehicle
    assert spec is not None
    return fire.terrain_drm(state, origin, vehicle.place) + spec.lowest_armour()


def terrain_favourable(state: GameState, unit: Unit) -> bool:
    """RAL 2.1b / IVV 2: favourable terrain."""
    return effects(state.terrain(unit.hex)).favourable


def at_value(unit: Unit, leadership: int) -> int:
    """IVV 4: the unit's FP + leadership + its anti-tank weapon's FP (satchel charges, U24)."""
    return unit.spec.fp + leadership + sum(w.spec.fp for w in unit.weapons if w.type == "satchel")


def can_at_melee(unit: Unit) -> bool:
    """IVV 1, HER 2.2: Good Order infantry that can melee (MEL 1.1) may attack a vehicle."""
    # (can_melee imported once, at the top: an import in here ran at every action menu.)
    return not unit.vehicle and can_melee(unit, attacking=True)


def adjacent_vehicles(state: GameState, units: Sequence[Unit]) -> list[Unit]:
    """IVV 1: enemy vehicles in or next to the units' hex."""
    side, h = units[0].side, units[0].hex
    # The side first, the counter's vehicle data last (every infantry action menu asks), read
    # inline: Unit.vehicle is a property read per enemy unit.
    counters = COUNTERS.units
    return [v for v in state.units.values()
            if v.alive and v.side != side and counters[v.type].vehicle is not None and v.hex.distance(h) <= 1]
