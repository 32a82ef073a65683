"""The rule procedures that change the state: applying fire and damage checks (FPR 4–7), hero
creation (FPR 6), melee (MEL), rally (RAL), smoke (SMK), spotting (SPT 7) and the
administration phase (ADM). The ruleset's ``play`` (``ruleset.py``) strings them together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import cache

from wargamekit import Dice, InvalidChoiceError, odds
from wargamekit_lnl import fire, melee
from wargamekit_lnl.data import COUNTERS, effects
from wargamekit_lnl.los import exposed, open_ground, place_exposed, spot_threshold, visible
from wargamekit_lnl.scenario import SIDES, hex_label
from wargamekit_lnl.state import Context, GameState, Place, Unit, Weapon, single_men

__all__ = [
    "apply_damage",
    "create_hero",
    "fight_melee",
    "fire_at",
    "rally_odds",
    "rally_roll",
    "where",
]


def other(side: str) -> str:
    """The opponent."""
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def where(place: Place) -> str:
    """A place as people read it: ``0304`` or ``0304/1`` for an upper level."""
    h, level = place
    return hex_label(h) + (f"/{level}" if level else "")


def place_data(place: Place) -> dict[str, object]:
    """A place as option data."""
    return {"hex": hex_label(place[0]), "level": place[1]}


def _hook_sum(results: Sequence[int | None]) -> int:
    return sum(r for r in results if r)


# -- FPR 4–6: damage ------------------------------------------------------------------------------
def drop_weapons(state: GameState, unit: Unit, keep: int = 0) -> None:
    """SWs beyond ``keep`` stay loose in the unit's hex (MEL 8.2)."""
    extra = unit.weapons[keep:]
    unit.weapons = unit.weapons[:keep]
    if extra:
        state.loose.setdefault(unit.place, []).extend(extra)


def apply_damage(ctx: Context, unit: Unit, result: str) -> Unit | None:
    """FPR 5: shaken → flip; casualty → a squad becomes a shaken half-squad, others are
    eliminated; wounded → flip and a wounded marker. Returns the unit that now stands there."""
    state = ctx.state
    if result == fire.NO_EFFECT:
        return unit
    if result == fire.SHAKEN:
        unit.shaken = True
        ctx.event("shaken", f"{unit.id} is shaken", unit=unit.id)
        return unit
    if result == fire.WOUNDED:
        unit.shaken = unit.wounded = True
        ctx.event("wounded", f"{unit.id} is wounded", unit=unit.id)
        return unit
    if result == fire.REDUCED:
        half = Unit(f"{unit.id}/half", unit.side, unit.spec.half, unit.hex, unit.level, [], shaken=True,
                    markers=set(unit.markers))
        half.weapons = unit.weapons[:1]  # SW 1.2: a half-squad carries one SW
        unit.weapons = unit.weapons[1:]
        drop_weapons(state, unit)
        unit.alive = False
        state.units[half.id] = half
        ctx.event("reduced", f"{unit.id} becomes the shaken half-squad {half.id}", unit=unit.id, half=half.id)
        return half
    drop_weapons(state, unit)
    unit.alive = False
    ctx.event("eliminated", f"{unit.id} is eliminated", unit=unit.id)
    return None


def create_hero(ctx: Context, side: str, place: Place) -> Unit | None:
    """FPR 6.3–6.4, HER 1, HER 3: a hero with a random skill enters in Good Order in the hex, or in
    an adjacent hex without enemies if the hex is full (the first such hex clockwise from
    hexside 0 — the source does not say which, A33); at most two heroes per side."""
    state = ctx.state
    if sum(1 for u in state.alive(side) if u.kind == "hero") >= 2:
        return None
    spots = [place] + [(h, 0) for h in state.map.neighbours(place[0])]
    for spot in spots:
        if spot != place and state.in_hex(spot[0], other(side)):
            continue
        if single_men(state.at(spot, side)) < 2:
            skill = ctx.dice.pick(sorted(COUNTERS.skills), "hero skill card")
            hero = Unit(state.new_id(f"{side}-hero"), side, "hero", spot[0], spot[1], [], skill)
            state.units[hero.id] = hero
            state.heroes_created[side] += 1
            ctx.event("hero", f"A hero ({skill}) appears at {where(spot)} for {side}", unit=hero.id,
                      side=side, skill=skill, hex=hex_label(spot[0]))
            return hero
    return None


def fire_at(ctx: Context, firers: Sequence[Unit], place: Place, *, opportunity: bool = False,
            targets: Sequence[Unit] | None = None) -> list[Unit]:
    """FPR 1–7 (and OPF 3): fire ``firers`` at ``place`` (or only at ``targets``, the movers
    under opportunity fire, A41). Returns the targets that were hit by a result (they stop if
    moving, MOV 2.3)."""
    state = ctx.state
    extra = 0
    if ctx.hooks is not None:
        extra = _hook_sum(ctx.hooks.lnl_fire_modifier(state=state, firers=list(firers), place=place))
    attack = fire.plan_fire(state, firers, place, opportunity=opportunity, moving=opportunity, extra=extra)
    assert attack is not None, "fire planned against an impossible target"
    used = {u.id: fire.captured(u) for u in firers}  # SW 3.3
    defenders = list(targets) if targets is not None else state.at(place, other(firers[0].side))
    vehicles_hit = [u for u in defenders if u.vehicle]
    defenders = [u for u in defenders if not u.vehicle]
    checked = False
    for v in vehicles_hit:  # SAV: every vehicle its own comparison
        checked = small_arms_on_vehicle(ctx, firers, v, attack.fp, attack.drm) or checked
    if not defenders:
        for u in firers:
            u.markers.add("fire")
        if not checked:
            discard_captured(ctx, used)
        return []
    checks = []
    for u in defenders:
        bonus = 0
        if ctx.hooks is not None:
            bonus = _hook_sum(ctx.hooks.lnl_damage_check_modifier(state=state, unit=u))
        checks.append(fire.Target.of(state, u, bonus))
    result = fire.resolve_fire(ctx.dice, attack, checks)
    for u in firers:
        u.markers.add("fire")  # FPR 7, OPF 2b
    names = ", ".join(u.id for u in firers)
    ctx.event("fire", f"{names} fire at {where(place)}: {result.attack} against {result.defence}"
              f" ({'hit' if result.hit else 'no effect'})", firers=[u.id for u in firers], hex=hex_label(place[0]),
              level=place[1], attack=result.attack, defence=result.defence, opportunity=opportunity)
    if result.jammed:  # SW 3.4
        for u in firers:
            for w in u.weapons:
                if w.spec.jam and w.usable:
                    w.jammed = True
                    ctx.event("jam", f"{u.id}'s {w.spec.name} jams", unit=u.id, weapon=w.id)
    affected: list[Unit] = []
    if not result.hit:
        if not checked:
            discard_captured(ctx, used)
        return affected
    for u, (res, hero) in zip(defenders, result.checks, strict=True):
        if res != fire.NO_EFFECT:
            affected.append(u)
        else:
            ctx.event("no-effect", f"{u.id} passes its damage check", unit=u.id)
        apply_damage(ctx, u, res)
        if hero:
            create_hero(ctx, u.side, place)
    return affected


def discard_captured(ctx: Context, used: dict[str, list[Weapon]]) -> None:
    """SW 3.3 (A9 reading): a captured (enemy) SW fired without putting any enemy into a damage
    check is discarded — removed from play, not dropped. ``used``: each firer's captured SWs
    fired (taken before the shot, so one that jammed in it counts)."""
    for uid, weapons in used.items():
        u = ctx.state.units[uid]
        for w in weapons:
            u.weapons.remove(w)
            ctx.event("discard", f"{u.id} discards the captured {w.spec.name} (SW 3.3)", unit=u.id, weapon=w.id)


def drop_weapon(ctx: Context, unit: Unit, weapon_id: str) -> None:
    """SW 3.1–3.2, RAL 4: the unit puts the SW down loose in its hex."""
    weapon = _carried(unit, weapon_id)
    unit.weapons.remove(weapon)
    ctx.state.loose.setdefault(unit.place, []).append(weapon)
    ctx.event("drop", f"{unit.id} drops its {weapon.spec.name}", unit=unit.id, weapon=weapon.id)


def destroy_weapon(ctx: Context, unit: Unit, weapon_id: str) -> None:
    """SW 3.1, RAL 4: the unit destroys the SW (removed from play)."""
    weapon = _carried(unit, weapon_id)
    unit.weapons.remove(weapon)
    ctx.event("destroy", f"{unit.id} destroys its {weapon.spec.name}", unit=unit.id, weapon=weapon.id)


def pick_up(ctx: Context, unit: Unit, weapon_id: str) -> None:
    """RAL 4, SW 3.2: the unit takes a loose SW lying at its place (friend's or foe's)."""
    pile = ctx.state.loose.get(unit.place, [])
    weapon = next((w for w in pile if w.id == weapon_id), None)
    if weapon is None:
        raise InvalidChoiceError(f"SW 3.2: no loose SW {weapon_id!r} at {where(unit.place)}")
    if len(unit.weapons) >= carry_limit(unit):
        raise InvalidChoiceError(f"SW 1: {unit.id} cannot carry another SW")
    pile.remove(weapon)
    if not pile:
        del ctx.state.loose[unit.place]
    unit.weapons.append(weapon)
    ctx.event("pickup", f"{unit.id} picks up {weapon.spec.name}", unit=unit.id, weapon=weapon.id)


def exchange_weapons(ctx: Context, unit: Unit, weapon_id: str, to: Unit, back_id: str | None) -> None:
    """RAL 4: two units at one place swap SWs (``back_id``), or ``unit`` hands one to ``to``."""
    weapon = _carried(unit, weapon_id)
    back = _carried(to, back_id) if back_id is not None else None
    if unit.place != to.place or unit.side != to.side:
        raise InvalidChoiceError(f"RAL 4: {unit.id} and {to.id} are not friends at one place")
    if back is None and len(to.weapons) >= carry_limit(to):
        raise InvalidChoiceError(f"SW 1: {to.id} cannot carry another SW")
    unit.weapons.remove(weapon)
    to.weapons.append(weapon)
    if back is not None:
        to.weapons.remove(back)
        unit.weapons.append(back)
    ctx.event("exchange", f"{unit.id} hands its {weapon.spec.name} to {to.id}", unit=unit.id, weapon=weapon.id,
              to=to.id, back=back_id)


def change_state(ctx: Context, unit: Unit, weapon_id: str, *, stowed: bool) -> None:
    """RAL 5 (U7): a Good Order squad or half-squad with no enemy in its hex stows or sets up a
    tripod MG (MOV 1.3)."""
    weapon = _carried(unit, weapon_id)
    if not weapon.spec.tripod:
        raise InvalidChoiceError(f"RAL 5: {weapon.spec.name} has no state to change (only tripod MGs, U7)")
    if unit.kind not in ("squad", "half") or unit.shaken or ctx.state.in_hex(unit.hex, other(unit.side)):
        raise InvalidChoiceError(f"RAL 5: {unit.id} must be a Good Order squad or half-squad with no enemy in its hex")
    weapon.stowed = stowed
    ctx.event("sw-state", f"{unit.id} {'stows' if stowed else 'sets up'} its {weapon.spec.name}", unit=unit.id,
              weapon=weapon.id, stowed=stowed)


def _carried(unit: Unit, weapon_id: str) -> Weapon:
    for w in unit.weapons:
        if w.id == weapon_id:
            return w
    raise InvalidChoiceError(f"SW: {unit.id} carries no SW {weapon_id!r}")


def fire_odds(state: GameState, firers: Sequence[Unit], place: Place, **kw: bool) -> list[tuple[str, dict[str, Fraction]]]:
    """Exact odds of every damage-check result for each unit at ``place`` (FPR 1–6)."""
    return planned_odds(state, firers, place, **kw)()


def planned_odds(state: GameState, firers: Sequence[Unit], place: Place,
                 **kw: bool) -> Callable[[], list[tuple[str, dict[str, Fraction]]]]:
    """:func:`fire_odds` in two steps: the attack and its targets are read from the state now,
    their exact odds worked out when the returned function is called — for a lazy option label,
    which may be made after the state has changed."""
    attack = fire.plan_fire(state, firers, place, **kw)
    if attack is None:
        return list
    targets = [(u.id, fire.Target.of(state, u)) for u in state.at(place, other(firers[0].side))]
    return lambda: [(uid, fire.outcome_odds(attack, target)) for uid, target in targets]


def attack_odds(state: GameState, attack: fire.Attack, place: Place, side: str) -> list[tuple[str, dict[str, Fraction]]]:
    """:func:`fire_odds` of an attack already planned, for ``side``'s units at ``place``."""
    return [(u.id, fire.outcome_odds(attack, fire.Target.of(state, u))) for u in state.at(place, side)]


def odds_text(rows: list[tuple[str, dict[str, Fraction]]]) -> str:
    """``sq1: shaken 20% reduced 8%`` for an option label."""
    parts = []
    for uid, dist in rows:
        bad = ", ".join(f"{res} {float(p):.0%}" for res, p in dist.items() if res != fire.NO_EFFECT and p)
        parts.append(f"{uid}: {bad or 'no effect'}")
    return "; ".join(parts)


# -- MEL: melee -----------------------------------------------------------------------------------
def _melee_drm(ctx: Context, attackers: Sequence[Unit], defenders: Sequence[Unit], present: Sequence[Unit]) -> int:
    lead = fire.leadership_at(present)
    extra = 0
    if ctx.hooks is not None:
        extra = _hook_sum(ctx.hooks.lnl_melee_modifier(state=ctx.state, attackers=list(attackers),
                                                       defenders=list(defenders)))
    return lead + extra


def fight_melee(ctx: Context, side: str, place: Place, movers: Sequence[Unit] | None = None) -> None:
    """MEL 1–9: the attacker (``side``; ``movers``: the units that just entered) against every
    enemy at ``place``. Non-melee units of a side that loses all its melee units go with them
    (MEL 1.3, A23); SWs stay in the hex (MEL 8.2); if both sides keep melee units the roles swap
    at once (MEL 9, A25), and if both still stand the hex is locked by a melee marker."""
    state = ctx.state
    state.melee_fought.add(place)
    enemy = other(side)
    present = [u for u in (list(movers) if movers is not None else state.at(place, side)) if not u.vehicle]
    attackers = [u for u in present if melee.can_melee(u, attacking=True)]
    defenders = [u for u in state.at(place, enemy) if melee.can_melee(u, attacking=False)]
    ctx.event("melee", f"Melee at {where(place)}: {side} attacks", hex=hex_label(place[0]), level=place[1], side=side)
    if not defenders:  # MEL 1.3
        for u in state.at(place, enemy):
            if not u.vehicle:
                apply_damage(ctx, u, fire.ELIMINATED)
        return
    order = [(side, attackers, defenders), (enemy, defenders, attackers)]
    for attacker_side, atk, dfn in order:
        atk = [u for u in atk if u.alive]
        dfn = [u for u in dfn if u.alive]
        if not atk or not dfn:
            break
        helpers = present if attacker_side == side else state.at(place, attacker_side)
        round_ = melee.plan_round(atk, dfn, 0, _melee_drm(ctx, atk, dfn, helpers))
        killed = melee.resolve_round(ctx.dice, round_)
        ctx.event("melee-round", f"{attacker_side} attacks at {round_.attack}:{round_.defence}, needs {round_.kill}:"
                  f" {'the defenders are eliminated' if killed else 'no effect'}",
                  side=attacker_side, attack=round_.attack, defence=round_.defence, kill=round_.kill, killed=killed)
        if killed:
            for u in state.at(place, other(attacker_side)):
                if not u.vehicle:
                    apply_damage(ctx, u, fire.ELIMINATED)
            state.melee.discard(place)
            return
    if infantry(state.at(place, side)) and infantry(state.at(place, enemy)):
        state.melee.add(place)  # MEL 9
        ctx.event("melee-locked", f"The melee at {where(place)} goes on", hex=hex_label(place[0]), level=place[1])


def reinforce_melee(ctx: Context, side: str, place: Place, movers: Sequence[Unit]) -> None:
    """MEL 1.5 (U11 reading): units entering a hex under a melee marker join that melee. If no
    melee has been fought there this turn, it is fought at once with the entering side attacking
    with all its units in the hex (MEL 5, A26); if one has (MEL 4), they join the locked units
    and fight in a later turn."""
    state = ctx.state
    ctx.event("reinforce", f"{', '.join(u.id for u in movers)} reinforce the melee at {where(place)}",
              hex=hex_label(place[0]), level=place[1], units=[u.id for u in movers])
    if place not in state.melee_fought:
        fight_melee(ctx, side, place)


def melee_odds(state: GameState, attackers: Sequence[Unit], place: Place) -> Fraction | None:
    """Exact chance that the attackers' round eliminates the defenders (MEL 7–8)."""
    atk = [u for u in attackers if melee.can_melee(u, attacking=True)]
    dfn = [u for u in state.at(place, other(attackers[0].side)) if melee.can_melee(u, attacking=False)]
    if not dfn:
        return Fraction(1)
    if not atk:
        return None
    round_ = melee.plan_round(atk, dfn, fire.leadership_at(attackers))
    return odds.probability(melee.resolve_round, round_)


# -- RAL: rally -----------------------------------------------------------------------------------
def rally_roll(dice: Dice, morale: int, drm: int) -> bool:
    """RAL 2.1: 2D6 − DRM ≤ morale."""
    return sum(dice.nd6(2, "rally")) - drm <= morale


def rally_drm(state: GameState, unit: Unit) -> int:
    """RAL 2.1a–b: a Good Order leader's leadership in the hex (not the unit's own), −2 more in
    favourable terrain (a building's upper level too). A vehicle: −2 (VEH 3) and the leadership
    of the tank commander riding in it, who rallies only his own tank (RAL 2.4, U16)."""
    if unit.vehicle:
        spec = unit.spec.vehicle
        assert spec is not None
        return 2 + spec.commander  # VEH 3: DR −2; RAL 2.4: its own commander's leadership
    helpers = [u for u in state.at(unit.place, unit.side) if u is not unit]
    return fire.leadership_at(helpers) + (2 if effects(state.terrain(unit.hex)).favourable else 0)


def rally_odds(state: GameState, unit: Unit) -> Fraction:
    """The exact chance of the rally roll."""
    return _rally_chance(unit.morale, rally_drm(state, unit))


@cache
def _rally_chance(morale: int, drm: int) -> Fraction:
    # Memoized (a handful of morale and DRM values): every rally menu shows each shaken unit's
    # chance, and each was an enumeration of its own.
    return odds.probability(rally_roll, morale, drm)


def may_rally(state: GameState, unit: Unit, medic_used: set[str],
              by_place: Mapping[Place, list[Unit]] | None = None) -> str | None:
    """RAL 2.2–2.5 (A4): a shaken unit may try with a Good Order leader or a hero in the hex
    (HER 2.5: a hero helps only where no leader is), a Good Order medic (RAL 2.5: one more try
    beyond the limit), or a self-rally ability (RAL 2.3; a sniper, whose one permitted action when
    shaken is to rally, RAL 2.7); one try per rally phase (D15). ``by_place``: the unit's side's
    units by place (as :meth:`GameState.at` lists them), if the caller has read them.
    Returns the helper that allows the try, or ``None``."""
    if not unit.shaken:
        return None
    here = state.at(unit.place, unit.side) if by_place is None else by_place[unit.place]
    mates = [u for u in here if u is not unit and u.good_order]
    medics = [u for u in mates if u.kind == "medic" and u.id not in medic_used]
    if unit.rally_tries == 0:
        if any(u.kind == "leader" for u in mates):
            return "leader"
        if any(u.kind == "hero" for u in mates):
            return "hero"
        if unit.spec.self_rally or unit.vehicle or unit.kind == "sniper":  # RAL 2.3, VEH 3; RAL 2.7
            return "self"
    if medics and unit.rally_tries <= 1:
        return medics[0].id
    return None


def try_rally(ctx: Context, unit: Unit, helper: str, medic_used: set[str]) -> None:
    """RAL 2.1: roll; success returns the unit to Good Order."""
    state = ctx.state
    if helper not in ("leader", "hero", "self"):
        medic_used.add(helper)
    unit.rally_tries += 1
    ok = rally_roll(ctx.dice, unit.morale, rally_drm(state, unit))
    if ok:
        unit.shaken = False
    ctx.event("rally", f"{unit.id} {'rallies' if ok else 'fails to rally'}", unit=unit.id, rallied=ok)


def merge_halves(ctx: Context, a: Unit, b: Unit) -> Unit:
    """RAL 3: two Good Order half-squads of the same kind with a Good Order leader become a squad
    (A64: the squad type whose half-squad they are)."""
    state = ctx.state
    squad_type = next(t for t, spec in COUNTERS.units.items() if spec.half == a.type)
    squad = Unit(state.new_id(f"{a.side}-squad"), a.side, squad_type, a.hex, a.level, a.weapons + b.weapons,
                 markers=a.markers | b.markers)
    a.alive = b.alive = False
    a.weapons, b.weapons = [], []
    state.units[squad.id] = squad
    ctx.event("merge", f"{a.id} and {b.id} combine into {squad.id}", units=[a.id, b.id], squad=squad.id)
    return squad


def carry_limit(unit: Unit) -> int:
    """SW 1: a squad carries 2, a half-squad, team or SMC 1; medics and snipers none (SMC 1.1)."""
    return {"squad": 2, "medic": 0, "sniper": 0, "vehicle": 0}.get(unit.kind, 1)


# -- SPT 7 and SMK --------------------------------------------------------------------------------
def spot_roll(dice: Dice, drm: int, threshold: int) -> bool:
    """SPT 7.3–7.5: 1D6 + DRM ≤ the terrain's threshold."""
    return dice.d6("spotting") + drm <= threshold


def spot_drm(state: GameState, spotters: Sequence[Unit], place: Place) -> int | None:
    """SPT 7.3 (A39: leadership subtracts; a scout among the spotters −2, SMC 3.2): +1 per
    hindering hex between; ``None`` without LOS."""
    line = visible(state, spotters[0].hex, place[0])
    if line is None:
        return None
    return line.hindering - fire.leadership_at(spotters) - (2 if any(u.kind == "scout" for u in spotters) else 0)


def spot(ctx: Context, spotters: Sequence[Unit], place: Place) -> bool:
    """SPT 7: a spotting check against ``place``; success places a spotted marker there."""
    state = ctx.state
    drm = spot_drm(state, spotters, place)
    assert drm is not None
    ok = spot_roll(ctx.dice, drm, spot_threshold(state, place[0]))
    if ok:
        state.spotted.add(place)
    for u in spotters:
        u.markers.add("ops")  # SPT 8
    ctx.event("spot", f"{', '.join(u.id for u in spotters)} {'spot' if ok else 'fail to spot'} {where(place)}",
              hex=hex_label(place[0]), level=place[1], spotted=ok)
    return ok


def smoke_roll(dice: Dice, capability: int) -> bool:
    """SMK 1.1–1.2: 1D6 ≤ smoke capability."""
    return dice.d6("smoke") <= capability


def place_smoke(ctx: Context, placers: Sequence[Unit], h: object) -> bool:
    """SMK 1: one roll with the best capability among the placers (D13); success places Smoke 1."""
    from wargamekit.geometry import Hex

    assert isinstance(h, Hex)
    capability = max(u.spec.smoke for u in placers)
    ok = smoke_roll(ctx.dice, capability)
    if ok:
        ctx.state.smoke[h] = 1
    for u in placers:
        u.markers.add("ops")  # SMK 3
    ctx.event("smoke", f"Smoke {'placed' if ok else 'fails'} at {hex_label(h)}", hex=hex_label(h), placed=ok)
    return ok


# -- ADM ------------------------------------------------------------------------------------------
def administration(ctx: Context) -> None:
    """ADM 1–3: remove action and spotted markers, the melee markers of decided melees, and age
    smoke (A14: Smoke 2 removed first, then Smoke 1 flipped to Smoke 2)."""
    state = ctx.state
    for u in state.alive():
        u.markers.clear()
        u.rally_tries = 0
    state.spotted.clear()
    state.melee = {p for p in state.melee if infantry(state.at(p, SIDES[0])) and infantry(state.at(p, SIDES[1]))}
    state.melee_fought.clear()
    state.smoke = {h: 2 for h, stage in state.smoke.items() if stage == 1}
    update_control(state)
    ctx.event("administration", f"End of turn {state.turn}", turn=state.turn)


def update_control(state: GameState) -> None:
    """Objective control (provisional victory rule): a side with a Good Order unit alone in an
    objective hex controls it until the enemy does the same."""
    # Asked after every impulse (~120 a random game). One pass over the units keeps those
    # standing in an objective's column (an int: most units stand in none), then each
    # objective scans those few by coordinates: no key or dict made per unit, and a place's
    # hash (a Python call) only where control is written.
    objectives = state.objectives
    columns = {h.q for h in objectives}
    inside = [u for u in state.units.values() if u.hex.q in columns and u.alive]
    if not inside:
        return
    for h in objectives:
        q, r = h.q, h.r
        side = ""  # (no unit seen there yet)
        steady = False
        for u in inside:
            at = u.hex
            if at.r == r and at.q == q:
                if not side:
                    side = u.side
                elif u.side != side:
                    break  # both sides there: control stays as it was
                steady = steady or not u.shaken
        else:
            if steady:
                state.control[h] = side


def targets_for(state: GameState, firers: Sequence[Unit], groups: Sequence[Sequence[Unit]]) -> list[Place]:
    """FIR 1: places with exposed enemy units that every firing group can reach (range, LOS),
    never a hex locked in melee (FIR 1.3)."""
    return list(_targets(state, firers, groups))


def has_target(state: GameState, firers: Sequence[Unit], groups: Sequence[Sequence[Unit]],
               enemies: list[tuple[Place, list[Unit]]] | None = None,
               exposure: dict[str, bool] | None = None) -> bool:
    """Whether :func:`targets_for` is not empty (it stops at the first target: the action menu
    asks this of every activation). ``enemies``: :func:`enemies_by_place` of the firers' enemy,
    and ``exposure``: a memo of :func:`~wargamekit_lnl.los.exposed` by unit id, if the caller
    keeps them for other menus of the same moment."""
    return next(_targets(state, firers, groups, enemies, exposure), None) is not None


def _targets(state: GameState, firers: Sequence[Unit], groups: Sequence[Sequence[Unit]],
             enemies: list[tuple[Place, list[Unit]]] | None = None,
             exposure: dict[str, bool] | None = None) -> Iterator[Place]:
    if enemies is None:
        enemies = enemies_by_place(state, other(firers[0].side))
    melee = state.melee
    for p, there in enemies:
        # Reach (memoized LOS, range) before exposure, which scans every unit per enemy there:
        # the same answer, ~a third cheaper over the action menus of random games. Loops, not
        # all()/any() of generators: the action menu asks this of every activation.
        if melee and p in melee:  # (an empty set first: the test hashes the place, a Python call)
            continue
        for g in groups:
            if fire.in_reach(state, g, p) is None:
                break
        else:
            for u in there:
                if exposed_memo(state, u, exposure):
                    yield p
                    break


def fire_and_spot(state: GameState, units: Sequence[Unit], enemies: list[tuple[Place, list[Unit]]],
                  exposure: dict[str, bool], fire_asked: bool, spot_asked: bool) -> tuple[bool, bool]:
    """Whether one group ``units`` has a fire target (:func:`has_target`, asked if
    ``fire_asked``) and a spot target (SPT 7.1–7.2: a place out of open ground, spotted and
    melee markers, in LOS, with an enemy unit there not exposed; asked if ``spot_asked``, the
    caller having tested the units' markers), in one pass over ``enemies``
    (:func:`enemies_by_place`): the two tests read the same places, line and exposures."""
    # The action menu asked the two tests one after the other (~100,000 instructions a menu):
    # each place's exposure by terrain and markers and its line are read once here, and a place
    # exposed that way needs no unit's exposure for fire (every unit there is exposed).
    fire_found = spot_found = False
    melee = state.melee
    origin = units[0].hex
    open_hexes = open_ground(state)  # (read once: the caller holds the map steady)
    for p, there in enemies:
        if fire_found == fire_asked and spot_found == spot_asked:
            break  # (at once when neither is asked)
        open_here = place_exposed(state, p, open_hexes)  # SPT 1–3 but the markers (a melee place is exposed)
        want_fire = fire_asked and not fire_found and not (open_here and melee and p in melee)  # FIR 1.3
        want_spot = spot_asked and not spot_found and not open_here
        if not want_fire and not want_spot:
            continue
        line: object = _UNASKED
        if want_fire:
            line = fire.in_reach(state, units, p)  # its last test is the line from units[0]
            if line is not None:
                if open_here:
                    fire_found = True
                else:
                    for u in there:
                        if exposed_memo(state, u, exposure):
                            fire_found = True
                            break
        if want_spot:
            if line is _UNASKED or line is None:
                line = visible(state, origin, p[0])
            if line is not None:
                for u in there:
                    if not exposed_memo(state, u, exposure):
                        spot_found = True
                        break
    return fire_found, spot_found


#: :func:`fire_and_spot`: no line read yet for the place.
_UNASKED = object()


def exposed_memo(state: GameState, unit: Unit, memo: dict[str, bool] | None) -> bool:
    """:func:`~wargamekit_lnl.los.exposed`, kept in ``memo`` (by unit id) when one is given."""
    if memo is None:
        return exposed(state, unit)
    found = memo.get(unit.id)
    if found is None:
        found = memo[unit.id] = exposed(state, unit)
    return found


def enemies_by_place(state: GameState, side: str) -> list[tuple[Place, list[Unit]]]:
    """``side``'s units on the map by place, places in map order (q, r, level), units in set-up
    order — read once for the target menus (testing each place against every unit was most of
    an action menu's cost)."""
    # Keyed by coordinates, which sort in map order as they are (a hex key hashed, and a sort
    # key made, by a Python call per unit and place: every action menu asks).
    by_key: dict[tuple[int, int, int], tuple[Place, list[Unit]]] = {}
    for u in state.units.values():
        if u.alive and u.side == side:
            h, level = u.hex, u.level
            found = by_key.get((h.q, h.r, level))
            if found is None:
                by_key[h.q, h.r, level] = ((h, level), [u])
            else:
                found[1].append(u)
    return [by_key[key] for key in sorted(by_key)]


def loose_weapon(state: GameState, place: Place) -> list[Weapon]:
    """SWs lying at a place."""
    return state.loose.get(place, [])


def infantry(units: Sequence[Unit]) -> list[Unit]:
    """The units that are not vehicles."""
    return [u for u in units if not u.vehicle]


# -- vehicles: HWV 2–4, VMV 4, IVV 5, SAV ---------------------------------------------------------
def vehicle_lost(ctx: Context, vehicle: Unit, result: str, *, melee_kill: bool = False) -> None:
    """Apply a vehicle result: shaken flips it (VEH 3); abandoned (HWV 3.2) and destroyed leave a
    wreck (HWV 2). A destroyed vehicle's crew escapes on a 1D6 of 1 (VMV 4), shaken on an odd
    1D6 (HWV 2; A45: the escape check decides whether there is a crew, HWV 2 in what state);
    destroyed in melee, its crew dies (IVV 5); an abandoning crew bails out shaken."""
    from wargamekit_lnl.vehicles import ABANDONED, DESTROYED, SHAKEN

    state = ctx.state
    if result == SHAKEN:
        vehicle.shaken = True
        ctx.event("shaken", f"{vehicle.id} is shaken", unit=vehicle.id)
        return
    if result not in (ABANDONED, DESTROYED):
        ctx.event("no-effect", f"{vehicle.id}: no effect ({result})", unit=vehicle.id, result=result)
        return
    vehicle.alive = False
    state.wrecks[vehicle.hex] = state.wrecks.get(vehicle.hex, 0) + 1
    ctx.event("wreck", f"{vehicle.id} is {result}: a wreck", unit=vehicle.id, result=result)
    crew_shaken = True
    if result == DESTROYED:
        if melee_kill or ctx.dice.d6("escape check") != 1:
            ctx.event("crew-lost", f"{vehicle.id}'s crew is lost", unit=vehicle.id)
            return
        crew_shaken = ctx.dice.d6("crew state: odd shaken") % 2 == 1
    crew = Unit(f"{vehicle.id}/crew", vehicle.side, "crew", vehicle.hex, 0, [], shaken=crew_shaken)
    if stacking_ok_for(state, crew):
        state.units[crew.id] = crew
        ctx.event("crew", f"{crew.id} bails out{' shaken' if crew_shaken else ''}", unit=crew.id)


def stacking_ok_for(state: GameState, unit: Unit) -> bool:
    from wargamekit_lnl.state import stacking_ok

    return stacking_ok([*state.at(unit.place, unit.side), unit], state.wrecks.get(unit.hex, 0))


def small_arms_on_vehicle(ctx: Context, firers: Sequence[Unit], vehicle: Unit, fp: int, drm: int) -> bool:
    """SAV 2–3: armoured vehicles (always buttoned here, VEH 1) have only their external crew
    at risk (SAV 2.4; none are modelled): only unarmoured vehicles are attacked. Returns whether
    the vehicle took a damage check (SW 3.3)."""
    from wargamekit_lnl import vehicles

    if not vehicles.unarmoured(vehicle):
        ctx.event("no-effect", f"{vehicle.id}: small arms cannot hurt a buttoned armoured vehicle (SAV 2.4)",
                  unit=vehicle.id)
        return False
    defence = vehicles.defence_vs_small_arms(ctx.state, vehicle, firers[0].hex)
    result, checked = vehicles.small_arms_hit_vehicle(ctx.dice, fp, drm, defence, vehicle.morale)
    vehicle_lost(ctx, vehicle, result)
    return checked
