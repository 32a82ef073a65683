"""FIR — fire (射击) and FPR — the fire procedure (射击的流程), with opportunity fire's
modifiers (OPF 1d, 4, 5), damage checks and the DFT (D4), and hero creation (FPR 6).

Resolution (:func:`resolve_fire`, :func:`damage_check`) is a pure function of the dice and a
frozen description of the attack, so :func:`wargamekit.odds.distribution` gives its exact odds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from attrs import evolve, frozen

from wargamekit import Dice, odds
from wargamekit.geometry import Hex, HexsideFacing, LineOfSight, hex_line, in_fire_arc
from wargamekit_lnl.data import (
    COUNTERS,
    DFT_CASUALTY_MARGIN,
    DRM_CAP,
    FRONT_ARC,
    HINDRANCE_DRM,
    SMOKE_DRM,
    WALL_DRM,
    effects,
)
from wargamekit_lnl.los import visible
from wargamekit_lnl.state import GameState, Place, Unit, Weapon

__all__ = [
    "Attack",
    "FireResult",
    "Target",
    "damage_check",
    "dft",
    "firepower",
    "in_reach",
    "plan_fire",
    "resolve_fire",
    "terrain_drm",
]

#: Damage-check results (FPR 5).
NO_EFFECT, SHAKEN, WOUNDED, REDUCED, ELIMINATED = "no effect", "shaken", "wounded", "reduced", "eliminated"


@frozen
class Target:
    """One defending unit as a damage check needs it.

    Attributes:
        kind: its counter kind (squad, half, team, or a single-man kind).
        morale: its morale.
        shaken: already shaken.
        wounded: a single-man counter already wounded.
        hero_possible: an infantry squad or half-squad whose side may still get a hero (FPR 6, HER 3).
        extra: damage-check modifiers from add-on hooks.
    """

    kind: str
    morale: int
    shaken: bool = False
    wounded: bool = False
    hero_possible: bool = False
    extra: int = 0

    @classmethod
    def of(cls, state: GameState, unit: Unit, extra: int = 0) -> Target:
        """The damage-check view of ``unit``."""
        kind = unit.kind
        # The side's heroes are counted only for a squad or half-squad (HER 3), in one pass with
        # no list: every target of every fire menu and opportunity-fire offer is asked this.
        possible = kind in ("squad", "half") and heroes(state, unit.side) < 2
        return cls(kind, unit.morale, unit.shaken, unit.wounded, possible, extra)


def heroes(state: GameState, side: str) -> int:
    """How many heroes ``side`` has on the map (HER 3: at most two)."""
    # A loop reading the kind inline (Target.of asks for every target of every fire menu and
    # opportunity-fire offer: a generator and a property call per unit were most of it).
    count = 0
    for u in state.units.values():
        if u.alive and u.side == side and COUNTERS.units[u.type].kind == "hero":
            count += 1
    return count


@frozen
class Attack:
    """A small-arms attack, everything but the dice.

    Attributes:
        fp: total firepower (FPR 2, rounded up, penalties applied).
        drm: the attacker's DRMs (FPR 1.1–1.3, OPF 5, SMK 2, hooks).
        defence: the defender's terrain DRM (FPR 3, capped at 4).
        leadership: the defending hex's leadership DRM for the damage checks (FPR 4, A31).
        jam: a J-marked support weapon takes part (SW 3.4).
    """

    fp: int
    drm: int
    defence: int
    leadership: int = 0
    jam: bool = False


@frozen
class FireResult:
    """What a fire attack did: the totals, the jam, and each target's damage check."""

    attack: int
    defence: int
    jammed: bool
    checks: tuple[tuple[str, bool], ...]  # (DFT result, hero created) per target, in order

    @property
    def hit(self) -> bool:
        """FPR 4: attacker final strictly greater than defender final."""
        return self.attack > self.defence


def dft(value: int, target: Target) -> str:
    """FPR 5 with the provisional DFT (D4): value ≤ morale → no effect; up to morale + 2 →
    shaken; beyond → casualty. A casualty reduces a squad to a shaken half-squad and eliminates a
    half-squad or weapon team; single-man counters are wounded instead (a wounded one
    eliminated). A second shaken result on a shaken unit counts as a casualty (D4).

    >>> t = Target("squad", 5)
    >>> [dft(v, t) for v in (5, 6, 7, 8)]
    ['no effect', 'shaken', 'shaken', 'reduced']
    >>> dft(6, Target("squad", 5, shaken=True)), dft(8, Target("leader", 6)), dft(9, Target("leader", 6, wounded=True))
    ('reduced', 'shaken', 'eliminated')
    """
    if value <= target.morale:
        return NO_EFFECT
    casualty = value >= target.morale + DFT_CASUALTY_MARGIN or target.shaken
    if target.kind in ("squad", "half", "team", "crew"):
        if not casualty:
            return SHAKEN
        return REDUCED if target.kind == "squad" else ELIMINATED
    # Single-man counters (FPR 5 "受伤", A32).
    if not casualty:
        return SHAKEN
    return ELIMINATED if target.wounded else WOUNDED


def damage_check(dice: Dice, difference: int, leadership: int, target: Target) -> tuple[str, bool]:
    """FPR 4–6: 1D6 + difference − leadership (+ hooks) read on the DFT; a die of 1 on an infantry
    unit's check gives a hero on an odd 1D6 (FPR 6.1–6.2)."""
    die = dice.d6("damage check")
    result = dft(die + difference - leadership + target.extra, target)
    hero = False
    if die == 1 and target.hero_possible:
        hero = dice.d6("hero appears on odd") % 2 == 1
    return result, hero


def resolve_fire(dice: Dice, attack: Attack, targets: Sequence[Target]) -> FireResult:
    """FPR 1–6: 1D6 + FP + DRM against 1D6 + terrain; if greater, every target checks."""
    a = dice.d6("fire: attacker")
    d = dice.d6("fire: defender")
    total_a, total_d = a + attack.fp + attack.drm, d + attack.defence
    jammed = attack.jam and a == d  # SW 3.4 (A10: the natural dice)
    checks: tuple[tuple[str, bool], ...] = ()
    if total_a > total_d:
        checks = tuple(damage_check(dice, total_a - total_d, attack.leadership, t) for t in targets)
    return FireResult(total_a, total_d, jammed, checks)


def one_target(dice: Dice, attack: Attack, target: Target) -> tuple[str, bool]:
    """The whole outcome for one target unit (for exact odds beside an option)."""
    result = resolve_fire(dice, attack, [target])
    return result.checks[0] if result.checks else (NO_EFFECT, False)


def fire_difference(dice: Dice, attack: Attack) -> int:
    """FPR 1–4: attacker final − defender final (a hit when > 0), the first two dice of a fire."""
    a = dice.d6("fire: attacker")
    d = dice.d6("fire: defender")
    return (a + attack.fp + attack.drm) - (d + attack.defence)


def _check_odds_of(results: tuple[str, ...], offset: int, target: Target) -> dict[tuple[str, bool], Fraction]:
    """:func:`damage_check`'s exact odds for ``target`` (no hooks) at ``offset``, whose DFT
    results for the die's faces 1–6 are ``results``."""
    # The check reads its die, and the target, only as those six results and whether a hero
    # may appear on a 1: checks alike in both share one enumeration, whatever their offset,
    # morale or kind (a squad and a half-squad shaken alike, any single man unwounded, ...).
    # Keyed by the offset and the target, a fresh game met ~9 new ones (each ~0.32 M
    # instructions); keyed so, ~1. Plain faces: the check branches on its die and on the
    # hero's, where the lazy enumeration only adds bookkeeping (1.51 M instructions a check
    # against 0.44 M).
    key = (results, target.hero_possible)
    found = _CHECK_ODDS.get(key)
    if found is None:
        found = _CHECK_ODDS[key] = odds.distribution(damage_check, offset, 0, target, lazy=False)
    return found


#: :func:`_check_odds_of` by the DFT's results for the die's faces and whether a hero may appear.
#: Bounded by the table itself, like the ``@cache`` memos beside it: six results that never
#: improve as the value rises, drawn from the DFT's few results, make a few dozen keys at most.
_CHECK_ODDS: dict[tuple[tuple[str, ...], bool], dict[tuple[str, bool], Fraction]] = {}


def full_odds(attack: Attack, target: Target) -> dict[tuple[str, bool], Fraction]:
    """Exact probability of each (DFT result, hero created) for one target of ``attack`` — the
    distribution of :func:`one_target`, composed from the fire's difference and the damage
    check's distribution given it (the same dice in the same order, far fewer branches).

    Memoized by what the outcome depends on: the attack's net modifier (FP + DRM − terrain:
    the difference is the two dice plus it), the leadership and the target. Attacks that
    differ only in how they reach the same net share one answer (a fresh random game met a few
    hundred new attacks, each ~1.5 ms of exact odds)."""
    return _full_odds(attack.fp + attack.drm - attack.defence, attack.leadership, target)


@cache
def _full_odds(net: int, leadership: int, target: Target) -> dict[tuple[str, bool], Fraction]:
    # The checks read leadership, hooks and morale only as one offset (_check_odds_of).
    return _full_odds_of(net, leadership - target.extra + target.morale, evolve(target, morale=0, extra=0))


@cache
def _full_odds_of(net: int, shift: int, target: Target) -> dict[tuple[str, bool], Fraction]:
    # Summed as integer weights over one common denominator, one Fraction made per outcome at
    # the end: each Fraction product and sum reduces by a gcd (~60 of each, 0.79 M of a new
    # attack's 0.80 M instructions; a fresh game meets ~6 new ones).
    differences = _difference_odds(net)
    hits = [diff for diff in differences if diff > 0]
    checks = {}
    if hits:
        # The DFT's result for every value a check reads (die + difference − shift), each
        # worked out once: neighbouring differences' checks share five of their six.
        low = hits[0] + 1 - shift
        results = tuple(dft(value, target) for value in range(low, hits[-1] + 7 - shift))
        for diff in hits:
            first = diff + 1 - shift - low
            checks[diff] = _check_odds_of(results[first:first + 6], diff - shift, target)
    over_diff = math.lcm(*(p.denominator for p in differences.values()))
    over_check = math.lcm(1, *(q.denominator for check in checks.values() for q in check.values()))
    weights: dict[tuple[str, bool], int] = {}
    for diff, p in differences.items():
        weight = p.numerator * (over_diff // p.denominator)
        check = checks.get(diff)
        if check is None:  # no hit
            weights[(NO_EFFECT, False)] = weights.get((NO_EFFECT, False), 0) + weight * over_check
            continue
        for key, q in check.items():
            weights[key] = weights.get(key, 0) + weight * q.numerator * (over_check // q.denominator)
    return {key: Fraction(weight, over_diff * over_check) for key, weight in weights.items()}


@cache
def _difference_odds(net: int) -> dict[int, Fraction]:
    """:func:`fire_difference`'s exact odds for an attack of net modifier ``net``."""
    return odds.distribution(fire_difference, Attack(net, 0, 0))


def outcome_odds(attack: Attack, target: Target) -> dict[str, Fraction]:
    """Exact probability of each damage-check result for one target (FPR 1–5).

    Memoized, as :func:`full_odds` (option labels of every fire menu and opportunity-fire
    offer show it): the dict returned is shared, to read only."""
    return _outcome_odds(attack.fp + attack.drm - attack.defence, attack.leadership, target)


@cache
def _outcome_odds(net: int, leadership: int, target: Target) -> dict[str, Fraction]:
    merged: dict[str, Fraction] = {}
    for (res, _hero), p in _full_odds(net, leadership, target).items():
        merged[res] = merged.get(res, Fraction(0)) + p
    return merged


# -- building an attack from the units -----------------------------------------------------------
def unit_fp(unit: Unit, *, hero_or_lead: bool) -> tuple[Fraction, Fraction, bool]:
    """SW 2 and FPR 2: a unit's (inherent part, support-weapon part, J weapon used).

    Inherent FP counts in full for the lead firer and heroes, half for the others (FPR 2.1–2.3);
    SWs count in full (FPR 2.4), an SMC's SW at half rounded up (SW 2.3, A7)."""
    inherent, sw, jam = _fp_halves(unit, hero_or_lead)
    return Fraction(inherent, 2), Fraction(sw, 2), jam


def _fp_halves(unit: Unit, hero_or_lead: bool) -> tuple[int, int, bool]:
    """:func:`unit_fp` in half points (integers: exact, and no Fraction built per firer of
    every fire plan — each opportunity-fire poll plans one per waiting hex)."""
    own = unit.spec.fp + (COUNTERS.skills[unit.skill].fire if unit.skill else 0)
    inherent = 2 * own if hero_or_lead else own
    if not unit.weapons:
        return inherent, 0, False
    sws = sorted((w for w in unit.weapons if w.usable), key=lambda w: -w.spec.fp)
    if not sws:
        return inherent, 0, False
    kind = unit.kind
    if kind == "squad":
        one = inherent + 2 * sws[0].spec.fp
        two = 2 * sum(w.spec.fp for w in sws[:2])
        if len(sws) > 1 and two > one:  # SW 2.1: two SWs, its own FP ignored
            return 0, two, any(w.spec.jam for w in sws[:2])
        return inherent, 2 * sws[0].spec.fp, sws[0].spec.jam
    if kind in ("half", "hero", "team", "crew"):  # SW 2.2, SW 2.4 (A8: the SW replaces its own FP)
        return 0, 2 * sws[0].spec.fp, sws[0].spec.jam
    return 0, 2 * math.ceil(sws[0].spec.fp / 2), sws[0].spec.jam  # SW 2.3


def used_weapons(unit: Unit) -> list[Weapon]:
    """The SWs whose FP :func:`unit_fp` counts: a squad's best SW, or its two best when they beat
    its own FP plus one (SW 2.1); anyone else's best SW (SW 2.2–2.4)."""
    own = unit.spec.fp + (COUNTERS.skills[unit.skill].fire if unit.skill else 0)
    sws = sorted((w for w in unit.weapons if w.usable), key=lambda w: -w.spec.fp)
    if unit.kind == "squad" and len(sws) > 1 and sum(w.spec.fp for w in sws[:2]) > Fraction(own) + sws[0].spec.fp:
        return sws[:2]
    return sws[:1]


def captured(unit: Unit) -> list[Weapon]:
    """SW 3.3: the enemy SWs among those the unit fires."""
    return [w for w in used_weapons(unit) if w.spec.nation and w.spec.nation != unit.side]


def reach(unit: Unit, distance: int) -> int | None:
    """1 in normal range, 2 at long range (FIR 1.2: boxed range doubled, FP halved), else None."""
    # (The counters read inline, not through Unit.spec, Weapon.usable and Weapon.spec: every
    # fire plan and target menu asks per firer, ~600 a random game.)
    spec = COUNTERS.units[unit.type]
    rng = spec.range
    for w in unit.weapons:  # (a loop, no list)
        if not w.jammed and not w.stowed:
            wrange = COUNTERS.weapons[w.type].range
            if wrange > rng:
                rng = wrange
    if distance <= rng:
        return 1
    if spec.boxed and distance <= 2 * rng:
        return 2
    return None


#: The counter kinds that never fire small arms: a medic (SMC 1.1), a sniper (its own
#: procedure) and a vehicle (FIR 2: its own fire). (:func:`can_fire`'s, and the OPF poll's pass.)
NO_SMALL_ARMS = ("medic", "sniper", "vehicle")


def can_fire(unit: Unit) -> bool:
    """Who may fire small arms at all: Good Order (A13), not a medic (SMC 1.1), a sniper (its own
    procedure) or a vehicle (FIR 2: its own fire)."""
    # (Unit.good_order and Unit.kind inlined: the OPF poll asks it of every unit of its side.)
    return not unit.shaken and COUNTERS.units[unit.type].kind not in NO_SMALL_ARMS


def firepower(firers: Sequence[Unit], target: Hex, *, opportunity: bool = False) -> tuple[int, bool] | None:
    """FPR 2 group fire total (rounded up after summing, FPR 2.5) and whether a J weapon fires;
    ``None`` if a firer is out of range. OPF 1d: ops-complete units −1 inherent FP; OPF 4: a
    0-FP unit counts −1; STL 5 / AST 2.2: −2 after stealth or assault movement (scouts exempt)."""
    if not firers:
        return None
    parts = []
    for unit in firers:
        band = reach(unit, unit.hex.distance(target))
        if band is None:
            return None
        parts.append(band)
    # In quarter points (halves, halved again at long range): integers, exact.
    full = [_fp_halves(u, True) for u in firers]  # each firer's FP as the lead firer, once
    lead = max(range(len(firers)), key=lambda i: full[i][0] + full[i][1])
    total = 0
    jam = False
    for i, unit in enumerate(firers):
        inherent, sw, j = full[i] if i == lead or unit.kind == "hero" else _fp_halves(unit, False)
        if opportunity:
            if unit.spec.fp == 0 and not unit.weapons:
                inherent = -2  # OPF 4
            if "ops" in unit.markers:
                inherent -= 2  # OPF 1d
        value = 2 * (inherent + sw)
        if parts[i] == 2:
            value //= 2  # FIR 1.2 (A27: each unit's share halved before the sum; exact in quarters)
        total += value
        jam = jam or j
    fp = -(-total // 4)  # FPR 2.5: rounded up
    if any("assault" in u.markers for u in firers):
        fp -= 2  # AST 2.2
    if any("stealth" in u.markers and u.kind != "scout" for u in firers):
        fp -= 2  # STL 5, SMC 3.3
    return fp, jam


def terrain_drm(state: GameState, origin: Hex, place: Place, *, sniper: bool = False) -> int:
    """FPR 3: the target hex's terrain DRM, a wall crossed into it (D2), doubled for a sniper
    (SMC 2.4), at most 4 (A30: the cap applies last)."""
    h, _level = place
    drm = effects(state.terrain(h)).drm
    # (Coordinates compared: a Hex's != is attrs' __ne__ calling its __eq__.)
    if (origin.q != h.q or origin.r != h.r) and state.wall(h, _entry_side(h.q - origin.q, h.r - origin.r)):
        drm += WALL_DRM
    if sniper:
        drm *= 2
    return min(drm, DRM_CAP)


@cache
def _entry_side(dq: int, dr: int) -> int:
    """The hexside of a hex that a line from the hex ``(dq, dr)`` behind it (the target's
    coordinates less the origin's) enters it by (D2).

    Pure geometry, memoized by that difference alone: a line's hexes are its start plus offsets
    that depend only on the ends' difference (:func:`hex_line` rounds in integers from the
    start), so every pair of hexes the same way apart enters by the same side. (Keyed by both
    ends' coordinates, a fresh game met ~18 new pairs, a line traced for each.)"""
    h = Hex(dq, dr)
    return h.direction_to(hex_line(Hex(0, 0), h)[-2])


def in_arc(unit: Unit, target: Hex) -> bool:
    """HWF 2 (D12): ``target`` lies in the front arc of a team's facing arrow (its own hex never)."""
    h = unit.hex
    return _in_front_arc(h.q, h.r, unit.facing, target.q, target.r)


@cache
def _in_front_arc(q: int, r: int, facing: int, tq: int, tr: int) -> bool:
    """:func:`in_arc` by coordinates and facing, memoized (pure geometry: every fire plan, poll
    and target menu asks it of each weapon team, and the arc's wedges took four calls)."""
    return (q, r) != (tq, tr) and in_fire_arc(Hex(q, r), HexsideFacing(facing), Hex(tq, tr), FRONT_ARC)


def leadership_at(units: Sequence[Unit]) -> int:
    """The best leadership of a Good Order leader among ``units`` (LDR 2.3–2.4, A3: own hex)."""
    # Only leaders asked (Unit.leadership is 0 for anyone else): twice per fire plan, for the
    # firers and the defenders, where a generator read every unit's property.
    best = 0
    for u in units:
        if COUNTERS.units[u.type].kind == "leader":
            best = max(best, u.leadership)
    return best


def in_reach(state: GameState, firers: Sequence[Unit], place: Place) -> LineOfSight | None:
    """Whether the ``firers`` may fire at ``place`` at all — every weapon team's front arc holds
    it (HWF 2), the LOS is not blocked (FIR 1.1) and every firer is in range (FIR 1.2) — as the
    LOS they would fire along, else ``None``. :func:`plan_fire` is ``None`` exactly when this
    is; menus that only ask whether a target exists need no firepower."""
    target = place[0]
    tq, tr = target.q, target.r
    # One loop, no generator: asked per group and enemy place of every action menu. Each
    # firer's arc and range, then the LOS (every test must hold: the same answer in any
    # order): in random games a group is out of range about as often as out of LOS, and the
    # range test is the cheaper one. (in_arc's memo and Hex.distance written out: two Python
    # calls per firer.)
    units = COUNTERS.units  # (read inline, not through Unit.spec)
    for u in firers:
        h = u.hex
        q, r = h.q, h.r
        if units[u.type].arrow and not _in_front_arc(q, r, u.facing, tq, tr):
            return None
        dq, dr = q - tq, r - tr
        if reach(u, (abs(dq) + abs(dr) + abs(dq + dr)) >> 1) is None:
            return None
    return visible(state, firers[0].hex, target)


def plan_fire(state: GameState, firers: Sequence[Unit], place: Place, *, opportunity: bool = False,
              moving: bool = False, extra: int = 0) -> Attack | None:
    """FPR 1–3: the attack the ``firers`` would make at the units at ``place``, or ``None`` if
    they may not (:func:`in_reach`)."""
    line = in_reach(state, firers, place)
    if line is None:
        return None
    origin = firers[0].hex
    fp = firepower(firers, place[0], opportunity=opportunity)
    assert fp is not None  # every firer is in range (in_reach)
    drm = leadership_at(firers) - HINDRANCE_DRM * line.hindering  # FPR 1.1, 1.2 (D3)
    if moving:
        drm += 1  # OPF 5 (A43)
    smoke = state.smoke  # (tested for emptiness first: a hex's hash is a Python call)
    if smoke and (origin in smoke or place[0] in smoke):
        drm -= SMOKE_DRM  # SMK 2 (A15)
    defenders = state.at(place)  # read once: the sniper test and the leadership (every opportunity-fire poll)
    sniper = any(u.kind == "sniper" for u in defenders)
    return Attack(fp[0], drm + extra, terrain_drm(state, origin, place, sniper=sniper),
                  leadership_at(defenders), fp[1])
