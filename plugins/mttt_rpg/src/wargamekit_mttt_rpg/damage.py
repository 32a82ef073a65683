"""Applying damage (伤害) to the scene: withering to initiative, decisive to HP, both to
magnitude for battle groups; helplessness (无助), distortion points and chaos phases (歪曲阶段).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from .battle_groups import damage_magnitude, decisive_magnitude_bonus
from .initiative import (
    BASE_INITIATIVE,
    award_break,
    boost_join,
    change_initiative,
    reversal,
    set_initiative,
    spend_initiative,
)
from .soul import offer_disability
from .state import HELPLESS, Combatant, Context, Scene

__all__ = ["apply_decisive", "apply_decisive_miss", "apply_withering", "lose_hp"]

RULE_WITHERING = "伤害 / 处理制敌攻击"
RULE_DECISIVE = "伤害 / 处理关键攻击"


def lose_hp(ctx: Context, unit: Combatant, amount: int, *, lethal: bool, why: str) -> None:
    """Lose HP (never below 0). Lethal HP loss raises distortion points by the same amount
    (temporarily). At 0 HP the unit is helpless — or, with a chaos phase left, enters the next
    phase at full HP (provisional reading of 阶段式, not from the source)."""
    scene: Scene = ctx.state
    lost = min(amount, unit.hp)
    if lost <= 0:
        return
    unit.hp -= lost
    if lethal:
        unit.distortion_points += lost
    ctx.event(
        "hp",
        f"{unit.name} loses {lost} HP ({why}): {unit.hp}/{unit.hp_max}"
        + (f", distortion points +{lost}" if lethal else ""),
        unit=unit.id,
        lost=lost,
        lethal=lethal,
    )
    if unit.hp > 0:
        return
    if unit.chaos_phase > 1:
        unit.chaos_phase -= 1
        unit.hp = unit.hp_max
        ctx.event(
            "chaos-phase",
            f"{unit.name} enters a new chaos phase ({unit.chaos_phase} left) at full HP",
            unit=unit.id,
        )
        return
    unit.chaos_phase = 0
    unit.status = HELPLESS
    scene.track.remove(unit.id)
    ctx.event("helpless", f"{unit.name} is helpless (无助)", unit=unit.id)


def apply_withering(
    ctx: Context,
    attacker: Combatant,
    target: Combatant,
    damage: int,
    *,
    spell: bool = False,
    supernatural: bool = False,
) -> Generator[Any, Any, None]:
    """Apply a successful withering hit of ``damage``.

    * the attacker gains 1 for the successful attack (not for a spell, not a battle group);
    * a unit with a chaos phase is immune to withering damage;
    * a battle group loses magnitude; a non-combatant or trivial opponent loses health and
      gives no initiative;
    * a crashed target loses HP instead (no distortion; 0 HP only makes it helpless);
    * otherwise the target loses initiative (floor 0) and the attacker gains what the target
      actually lost (a battle group gains nothing); crashing the target gives the break bonus,
      and crashing the one who crashed you is a reversal.
    """
    # Whether this attack can be a reversal is decided by the attacker's state before it: the
    # +1 for the hit already lifts her out of crash.
    can_reverse = attacker.crashed and attacker.crashed_by == target.id and not attacker.crash_self
    if not spell and not attacker.inert and target.kind != "noncombatant" and not target.trivial:
        change_initiative(ctx, attacker, 1, why="successful withering attack")
    if target.sheet.chaos_phases > 0 and target.kind == "character":
        ctx.event(
            "immune",
            f"{target.name} has a chaos phase (歪曲阶段): immune to withering damage",
            unit=target.id,
        )
        return
    if target.is_group:
        yield from damage_magnitude(ctx, target, damage, attacker=attacker, supernatural=supernatural)
        return
    if target.kind == "noncombatant" or target.trivial:
        lose_hp(ctx, target, damage, lethal=False, why="withering damage to a non-combatant")
        return
    if target.crashed:
        lethal = attacker.is_group and attacker.ready_weapon is not None and attacker.ready_weapon.lethal
        # 灵魂残疾 is offered whenever a character takes lethal damage (a group's lethal weapon).
        if lethal and (yield from offer_disability(ctx, target, damage)):
            return
        lose_hp(ctx, target, damage, lethal=lethal, why="withering damage while crashed")
        return
    before = target.initiative
    set_initiative(ctx, target, max(0, before - damage), why=f"withering damage from {attacker.name}")
    gained = before - target.initiative
    if not attacker.inert and gained > 0:
        change_initiative(ctx, attacker, gained, why=f"initiative taken from {target.name}")
    if target.crashed:
        target.crashed_by = attacker.id
        target.crash_self = False
        award_break(ctx, attacker, target)
        if can_reverse and attacker.fighting:
            natural = reversal(ctx, attacker, target)
            yield from boost_join(ctx, attacker, natural, what="reversal's join battle")


def apply_decisive(
    ctx: Context, attacker: Combatant, target: Combatant, damage: int, pool: int, *, supernatural: bool = False
) -> Generator[Any, Any, None]:
    """Apply a successful decisive hit: HP damage (lethal) or magnitude damage for a group
    (+1 level per 4 dice of the pool, rounded up); then the attacker resets to base initiative."""
    if target.is_group:
        bonus = decisive_magnitude_bonus(pool)
        yield from damage_magnitude(
            ctx, target, damage + bonus, attacker=attacker, supernatural=supernatural
        )
    elif damage > 0:
        replaced = yield from offer_disability(ctx, target, damage)
        if not replaced:
            lose_hp(
                ctx,
                target,
                damage,
                lethal=target.kind == "character",
                why=f"decisive damage from {attacker.name}",
            )
    else:
        ctx.event(
            "no-damage",
            f"{target.name}'s protection stops the decisive damage; the attack still succeeds",
            unit=target.id,
        )
    set_initiative(ctx, attacker, BASE_INITIATIVE, why="successful decisive attack: reset to base")


def apply_decisive_miss(ctx: Context, attacker: Combatant) -> Generator[Any, Any, None]:
    """A failed decisive attack costs 5 initiative (this may crash the attacker; the crash is
    her own action's)."""
    yield from spend_initiative(ctx, attacker, 5, why="failed decisive attack")
