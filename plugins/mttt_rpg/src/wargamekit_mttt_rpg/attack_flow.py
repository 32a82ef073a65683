"""The attack procedure (攻击): declaration, charging (充能), the interrupt window, clash (交锋),
guard (护卫), defense (防御) and damage (伤害) — the application side of :mod:`.attack`."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from attrs import evolve

from wargamekit import Choose, ChooseNumber
from wargamekit.dice import Die

from . import kinds
from .attack import (
    DECISIVE,
    WITHERING,
    AttackProfile,
    DefenseProfile,
    clash_outcome,
    decisive_damage,
    decisive_pool,
    raw_from_faces,
    withering_damage,
)
from .damage import apply_decisive, apply_decisive_miss, apply_withering
from .defense import attack_profile, charge_limit, defense_modes, defense_profile
from .interrupt_phase import open_window
from .sheets import Weapon
from .soul import offer_boost, offer_dice_boost
from .state import ROUTED, Combatant, Context, Scene

__all__ = ["attack", "clash", "strike"]

RULE_CHARGE = "攻击 / 充能"
RULE_DEFENSE = "防御 / 一般防御"
RULE_CLASH = "战斗行动 / 交锋"
RULE_GUARD = "防御 / 护卫（标准动作）"


# -- the attack ---------------------------------------------------------------------------------
def _charge(unit: Combatant, prompt: str, rule: str, into: str) -> Generator[Any, Any, int]:
    """Ask how much order MP ``unit`` charges ``into`` the attack, the clash or the defense."""
    if unit.kind != "character" or unit.order_mp <= 0:
        return 0
    x = yield ChooseNumber(
        side=unit.side,
        prompt=prompt,
        rule=rule,
        low=0,
        high=min(unit.order_mp, charge_limit(unit)),
        kind=kinds.CHARGE,
        context={"unit": unit.id, "into": into, "order_mp": unit.order_mp},
    )
    unit.order_mp -= x
    return x


def _can_clash(scene: Scene, target: Combatant, attacker: Combatant, same_tick: list[str]) -> bool:
    weapon = target.ready_weapon
    return (
        target.id in same_tick
        and target.kind == "character"
        and target.fighting
        and weapon is not None
        and scene.distance(target.id, attacker.id) <= weapon.max_range
        and not (weapon.ranged and attacker.cover == "full")
    )


def attack(
    ctx: Context, attacker: Combatant, target: Combatant | None, kind: str, same_tick: list[str]
) -> Generator[Any, Any, None]:
    """An attack (攻击): declaration, charges, the interrupt window, defense, the hit check,
    damage. ``target`` ``None``: a battle group's area attack on every enemy within reach."""
    scene: Scene = ctx.state
    weapon = attacker.ready_weapon
    assert weapon is not None
    # 区域攻击: a group's ranged attack on an individual affects every individual character
    # within close range of that main target, allies included; the group's reach is checked
    # for the main target only.
    area = target is not None and attacker.is_group and weapon.ranged and not target.is_group
    if target is None:
        reach = 1 if attacker.dispersed else 0
        targets = [e for e in scene.enemies(attacker) if scene.distance(attacker.id, e.id) <= reach]
    elif area:
        targets = [target] + _around(scene, attacker, target)
    else:
        targets = [target]
    main = targets[0] if targets else None
    ctx.event(
        "attack",
        f"{attacker.name} declares a {kind} attack on " + ", ".join(t.name for t in targets),
        unit=attacker.id,
        targets=[t.id for t in targets],
        attack=kind,
    )
    if main is None:
        return
    # a clash: the target acts at this same tick and strikes back at once
    if target is not None and _can_clash(scene, target, attacker, same_tick):
        strikes = [WITHERING] + ([DECISIVE] if not target.crashed else [])
        answer = yield Choose.of(
            target.side,
            f"{attacker.name} attacks {target.name} at the tick {target.name} acts too: clash (交锋)?",
            [None, *strikes],
            rule=RULE_CLASH,
            label=lambda k: "no: defend normally" if k is None else f"clash with a {k} attack",
            kind=kinds.CLASH,
            context={"unit": target.id, "attacker": attacker.id, "attack": kind},
            data=lambda k: {"clash": k},
        )
        if answer is not None:
            same_tick.remove(target.id)
            yield from clash(ctx, attacker, kind, target, answer)
            return
    scene.attack_target = main.id
    x = yield from _charge(
        attacker,
        f"{attacker.name}: charge how much order MP into the attack (+X hit, +X/2 damage)?",
        RULE_CHARGE,
        "attack",
    )
    yield from open_window(
        ctx, "attack declared", active=attacker.id, trigger="attacked", subject=main.id, source=attacker.id
    )
    if not attacker.fighting or scene.over:
        return
    reach = max(weapon.max_range, 1 if attacker.dispersed else 0)
    legal = []
    main_in_reach = scene.distance(attacker.id, main.id) <= reach
    for t in targets:
        if not (t.fighting or t.status == ROUTED):
            why = "no longer a legal target"
        elif area and t is not main:
            # the area lies around the main target: it needs the target in reach, and her
            # within close range of it (the interrupt window may have moved either)
            why = (
                f"{main.name} is out of reach"
                if not main_in_reach
                else ("no longer within close range of " + main.name if scene.distance(main.id, t.id) > 1 else "")
            )
        else:
            why = "" if scene.distance(attacker.id, t.id) <= reach else "no longer a legal target"
        if why:
            ctx.event("attack-lost", f"the attack on {t.name} is lost: {why}", unit=t.id)
            continue
        legal.append(t)
    # 防御 / 充能: each defender declares her defense and its charge right after the attack is
    # declared — before the hit check is rolled.
    declared = {}
    for t in legal:
        declared[t.id] = yield from _declare_defense(ctx, t, attacker, weapon.ranged)
    natural = ctx.dice.d20(f"hit check (命中检定): {attacker.name}")
    natural += yield from offer_boost(ctx, attacker, face=natural, sides=20, what="hit check")
    for t in legal:
        atk = attack_profile(scene, attacker, t, charge=x, hooks=ctx.hooks)
        total = natural + atk.accuracy
        yield from strike(ctx, attacker, t, kind, atk, total, weapon, declared[t.id])
        t.onslaught += 1  # 猛攻减值


def _around(scene: Scene, attacker: Combatant, target: Combatant) -> list[Combatant]:
    """The individual characters (单独角色) within close range of ``target``, friend or foe of
    either side; battle groups, non-combatants and the helpless are not in the area."""
    return [
        u
        for u in scene
        if u.id not in (target.id, attacker.id)
        and u.fighting
        and u.kind == "character"
        and scene.distance(u.id, target.id) <= 1
    ]


def _declare_defense(
    ctx: Context, defender: Combatant, attacker: Combatant, ranged: bool
) -> Generator[Any, Any, tuple[str, int]]:
    """The defender's declaration: passive or active (parry/dodge), and the order MP charged."""
    scene: Scene = ctx.state
    scene.attacker, scene.defender = attacker.id, defender.id
    modes = defense_modes(defender)
    mode = "passive"
    if len(modes) > 1:
        mode = yield Choose.of(
            defender.side,
            f"{defender.name} is attacked by {attacker.name}: how does she defend?",
            modes,
            rule=RULE_DEFENSE,
            kind=kinds.DEFENSE,
            context={"unit": defender.id, "attacker": attacker.id, "ranged": ranged},
            data=lambda m: {"mode": m},
            label=lambda m: {
                "passive": f"passive defense ({defense_profile(scene, defender, attacker, 'passive', ranged=ranged, hooks=ctx.hooks).value}, static)",
                "parry": f"active parry (d20+{defense_profile(scene, defender, attacker, 'parry', ranged=ranged, hooks=ctx.hooks).value})",
                "dodge": f"active dodge (d20+{defense_profile(scene, defender, attacker, 'dodge', ranged=ranged, hooks=ctx.hooks).value})",
            }[m],
        )
    y = yield from _charge(
        defender, f"{defender.name}: charge how much order MP into the defense (+X)?", RULE_CHARGE, "defense"
    )
    return mode, y


def _defend(
    ctx: Context, defender: Combatant, attacker: Combatant, ranged: bool, mode: str, charge: int
) -> Generator[Any, Any, tuple[int, DefenseProfile]]:
    """The defense total for a declared defense: the static value, or the active d20 roll."""
    scene: Scene = ctx.state
    profile = defense_profile(scene, defender, attacker, mode, ranged=ranged, charge=charge, hooks=ctx.hooks)
    if mode == "passive":
        return profile.value, profile
    natural = ctx.dice.d20(f"active defense (主动防御): {defender.name}")
    natural += yield from offer_boost(ctx, defender, face=natural, sides=20, what="defense")
    return natural + profile.value, profile


def strike(
    ctx: Context,
    attacker: Combatant,
    target: Combatant,
    kind: str,
    atk: AttackProfile,
    total: int,
    weapon: Weapon,
    declared: tuple[str, int] = ("passive", 0),
) -> Generator[Any, Any, None]:
    """Resolve one attack total against one target (whose defense was ``declared`` before the
    roll): guard, defense, damage."""
    scene: Scene = ctx.state
    guard = (
        next(
            (
                g
                for g in scene.allies(target)
                if g.id != target.id and g.guarding and scene.distance(g.id, target.id) <= 1
            ),
            None,
        )
        if target.fighting
        else None
    )
    victim = target
    malus = 0
    if guard is not None:
        gprofile = defense_profile(scene, guard, attacker, "parry", ranged=weapon.ranged, hooks=ctx.hooks)
        gnatural = ctx.dice.d20(f"guard (护卫): {guard.name}'s active defense")
        gnatural += yield from offer_boost(ctx, guard, face=gnatural, sides=20, what="guard defense")
        gtotal = gnatural + gprofile.value
        if total < gtotal:
            ctx.event("guarded", f"{guard.name} turns the attack aside ({total} vs {gtotal})", unit=guard.id)
            if kind == DECISIVE:
                yield from apply_decisive_miss(ctx, attacker)
            return
        # Options hold unit ids, never the live combatants.
        struck = yield Choose.of(
            attacker.side,
            f"the attack beats {guard.name}'s guard ({total} vs {gtotal}): strike whom?",
            [guard.id, target.id],
            rule=RULE_GUARD,
            label=lambda uid: f"strike the protector {guard.name}" if uid == guard.id else f"carry on against {target.name}",
            kind=kinds.GUARD_STRIKE,
            context={"unit": attacker.id, "protector": guard.id, "target": target.id, "total": total, "guard": gtotal},
            data=lambda uid: {"unit": uid, "protector": uid == guard.id},
        )
        victim = guard if struck == guard.id else target
        if victim is target and kind == DECISIVE:
            malus = gtotal // 2  # 1 initiative of damage lost per 2 of the guard's defense
    if victim is guard:
        # 护卫: the attack already broke through the protector's parry: it hits her.
        against, profile = gtotal, gprofile
    else:
        against, profile = yield from _defend(ctx, victim, attacker, weapon.ranged, *declared)
    if profile.blocked:
        ctx.event("blocked", f"{victim.name} is in full cover: no ranged attack", unit=victim.id)
        return
    hit = total >= against
    ctx.event(
        "hit-check",
        f"{attacker.name} {total} vs {victim.name}'s defense {against}: " + ("hit" if hit else "miss"),
        unit=attacker.id,
        target=victim.id,
        total=total,
        defense=against,
        hit=hit,
    )
    if not hit:
        if kind == DECISIVE:
            yield from apply_decisive_miss(ctx, attacker)
        yield from open_window(ctx, "attack resolved", active=attacker.id)
        return
    was_crashed = victim.crashed
    if kind == WITHERING:
        raw = yield from _raw_damage(ctx, attacker, atk, f"raw damage (原始伤害): {attacker.name}")
        damage = withering_damage(raw, profile.toughness, atk.penetration)
        ctx.event(
            "damage",
            f"raw {raw} − toughness {profile.toughness} (penetration {atk.penetration}): {damage} withering damage",
            unit=victim.id,
            raw=raw,
            damage=damage,
        )
        yield from apply_withering(ctx, attacker, victim, damage, supernatural=weapon.supernatural_area)
    else:
        atk = evolve(atk, initiative_malus=malus)
        damage = decisive_damage(atk, profile.protection)
        ctx.event(
            "damage",
            f"decisive: ceil(({atk.dice} + {atk.initiative - malus}) / 2) − protection {profile.protection}"
            + (f" + charge {atk.decisive_bonus}" if atk.decisive_bonus else "")
            + f" = {damage} HP",
            unit=victim.id,
            damage=damage,
        )
        yield from apply_decisive(
            ctx, attacker, victim, damage, decisive_pool(atk), supernatural=weapon.supernatural_area
        )
        if weapon.smashing and victim.kind == "character" and victim.fighting:
            victim.prone = True
            ctx.event("prone", f"{victim.name} is knocked prone (强击)", unit=victim.id)
    yield from open_window(
        ctx,
        "attack resolved",
        active=attacker.id,
        trigger=_hit_triggers(victim, damage, was_crashed),
        subject=victim.id,
        source=attacker.id,
    )


def _raw_damage(
    ctx: Context, attacker: Combatant, atk: AttackProfile, purpose: str, *, extra: int = 0
) -> Generator[Any, Any, int]:
    """Roll the ADB damage dice; the attacker may burn soul jade into each die and the +x
    (燃玉: "用点数增幅投掷骰子的结果"); then raw damage with the double-10 rule."""
    rolled = ctx.dice.roll(Die(1, atk.sides), purpose, atk.dice)
    faces, plus = yield from offer_dice_boost(ctx, attacker, rolled, sides=atk.sides, what="damage", bonus=True)
    return raw_from_faces(faces, atk, extra + plus)


def _hit_triggers(victim: Combatant, damage: int, was_crashed: bool) -> tuple[str, ...]:
    """The trigger conditions a hit meets: "damaged" and, if it crashed her, "crashed" too."""
    return (("damaged",) if damage > 0 else ()) + (("crashed",) if victim.crashed and not was_crashed else ())


def clash(ctx: Context, a: Combatant, a_kind: str, b: Combatant, b_kind: str) -> Generator[Any, Any, None]:
    """A clash (交锋) at the same tick: opposed hit checks, defenses ignored."""
    scene: Scene = ctx.state
    xa = yield from _charge(
        a, f"{a.name}: charge how much order MP into the clash (+X hit, +X/2 damage)?", RULE_CHARGE, "clash"
    )
    xb = yield from _charge(
        b, f"{b.name}: charge how much order MP into the clash (+X hit, +X/2 damage)?", RULE_CHARGE, "clash"
    )
    pa = attack_profile(scene, a, b, charge=xa, hooks=ctx.hooks)
    pb = attack_profile(scene, b, a, charge=xb, hooks=ctx.hooks)
    wa, wb = a.ready_weapon, b.ready_weapon
    assert wa is not None and wb is not None
    da = defense_profile(scene, a, b, "passive", ranged=wb.ranged, hooks=ctx.hooks)
    db = defense_profile(scene, b, a, "passive", ranged=wa.ranged, hooks=ctx.hooks)
    # the opposed hit checks (d20 + accuracy each), then a withering winner's raw damage (with
    # the margin): every die may take burnt soul jade (燃玉) as it is rolled
    totals = []
    for unit, profile, which in ((a, pa, "first"), (b, pb, "second")):
        natural = ctx.dice.d20(f"clash: hit check of the {which} attacker")
        natural += yield from offer_boost(ctx, unit, face=natural, sides=20, what="clash hit check")
        totals.append(natural + profile.accuracy)
    raw = 0
    if totals[0] != totals[1]:
        first_wins = totals[0] > totals[1]
        unit, profile, kind = (a, pa, a_kind) if first_wins else (b, pb, b_kind)
        if kind == WITHERING:
            margin = abs(totals[0] - totals[1])
            raw = yield from _raw_damage(ctx, unit, profile, "raw damage (原始伤害)", extra=margin)
    out = clash_outcome(totals[0], pa, a_kind, totals[1], pb, b_kind, da, db, lambda _attack, _margin: raw)
    ctx.event(
        "clash",
        f"clash (交锋): {a.name} {out.a_total} vs {b.name} {out.b_total}",
        unit=a.id,
        other=b.id,
        a_total=out.a_total,
        b_total=out.b_total,
    )
    a.onslaught += 1
    b.onslaught += 1
    if out.winner is None:
        ctx.event("clash", "the clash is even: both attacks are thwarted", unit=a.id)
        for unit, k in ((a, a_kind), (b, b_kind)):
            if k == DECISIVE:
                yield from apply_decisive_miss(ctx, unit)
        return
    winner, loser, wkind, lkind, wprofile = (
        (a, b, a_kind, b_kind, pa) if out.winner == "a" else (b, a, b_kind, a_kind, pb)
    )
    loser.clash_penalty = 2
    ctx.event(
        "clash",
        f"{winner.name} wins the clash; {loser.name} has −2 defense until her next turn",
        unit=winner.id,
    )
    was_crashed = loser.crashed
    if lkind == DECISIVE:
        yield from apply_decisive_miss(ctx, loser)
    if wkind == WITHERING:
        yield from apply_withering(ctx, winner, loser, out.damage)
    else:
        yield from apply_decisive(ctx, winner, loser, out.damage, decisive_pool(wprofile))
    yield from open_window(
        ctx,
        "attack resolved",
        active=a.id,
        trigger=_hit_triggers(loser, out.damage, was_crashed),
        subject=loser.id,
        source=winner.id,
    )
