"""Building attack and defense profiles from the scene (防御, 掩蔽, 猛攻减值, 充能).

Passive defense (被动防御, the d20 scale "Defense_H"):
``15 + armour parry + the lower of the agility/constitution modifiers + other bonuses``.
Active defense (主动防御): ``D20 + physiology (parry, 生理学识) or athletics (dodge, 运动)
+ weapon parry or armour dodge + half the attribute modifier + other bonuses``; parry uses the
ready weapon's attribute, dodge uses agility.

Other bonuses: full defense +5 (全力防御), cover +1/+2 (掩蔽; shared by close attackers), spells; penalties: onslaught −1
per attack since the defender's last turn (猛攻减值), the loser of a clash −2, wounds, prone
(−2, provisional), slaughter −3 (屠杀), ambush (defense 0) and surprise (−2) from strategic
warfare (provisional). In initiative crash (先导崩溃) "所有防护都被视为0": protection (防护, what
decisive damage subtracts) counts 0, the armour's and spells' alike; parry, dodge, toughness and
defense bonuses are not protection and stay (the ``crash_strips_gear`` scenario option restores
the broader reading that strips them too).
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from .attack import AttackProfile, DefenseProfile
from .state import ROUTED, Combatant, Scene

__all__ = ["DEFENSE_MODES", "attack_profile", "charge_limit", "cover_bonus", "defense_modes", "defense_profile", "passive_defense"]

DEFENSE_MODES = ("passive", "parry", "dodge")
COVER_BONUS = {"none": 0, "light": 1, "heavy": 2, "full": 2}
PRONE_PENALTY = 2  # provisional
SLAUGHTER_PENALTY = 3  # 屠杀: −3 defense
SURPRISE_PENALTY = 2  # provisional
DRILL_DEFENSE = {"poor": 0, "average": 1, "elite": 2}
MIGHT_ACCURACY = (0, 1, 2, 3)
MIGHT_DEFENSE = (0, 1, 1, 2)


@frozen
class Charge:
    """Mana charged (充能) into an attack (X: +X to hit, +X/2 damage) or a defense (+X)."""

    attack: int = 0
    defense: int = 0


def charge_limit(unit: Combatant) -> int:
    """The most order MP ``unit`` can ever charge (充能) into one attack or defense: what its
    order pool holds (characters only; groups and noncombatants charge nothing). The game asks
    for at most the MP it has now, which never exceeds this."""
    return unit.sheet.order_pool if unit.kind == "character" else 0


def passive_defense(unit: Combatant, *, strip_gear: bool = False) -> int:
    """The static passive defense before situational modifiers (``strip_gear``: the broader
    reading of crash, armour parry counts 0 while crashed)."""
    armour = 0 if strip_gear and unit.crashed else unit.armour.parry
    return 15 + armour + min(unit.mod("agility"), unit.mod("constitution"))


def active_bonus(unit: Combatant, mode: str, *, strip_gear: bool = False) -> int:
    """The bonus an active parry or dodge adds to its d20, before situational modifiers
    (``strip_gear``: the broader reading of crash, weapon parry and armour dodge count 0)."""
    stripped = strip_gear and unit.crashed
    if mode == "parry":
        weapon = unit.ready_weapon
        if weapon is None:
            return unit.sheet.skill("physiology") + unit.mod("strength") // 2
        gear = 0 if stripped else weapon.parry
        return unit.sheet.skill("physiology") + gear + unit.mod(weapon.attribute) // 2
    gear = 0 if stripped else unit.armour.dodge
    return unit.sheet.skill("athletics") + gear + unit.mod("agility") // 2


def defense_modes(unit: Combatant) -> tuple[str, ...]:
    """The defenses a unit may choose: battle groups and non-combatants defend passively."""
    if unit.kind != "character" or unit.trivial:
        return ("passive",)
    return DEFENSE_MODES


def situational_defense(scene: Scene, target: Combatant, attacker: Combatant, ranged: bool) -> int:
    """Every defense modifier that does not depend on the mode."""
    value = -target.onslaught - target.clash_penalty - target.wound - scene.defense_penalty_pincer(target)
    if target.full_defense:
        value += 5
    if not (scene.crash_strips_gear and target.crashed):
        value += target.defense_bonus
    value += cover_bonus(scene, target, attacker)
    if target.prone:
        value -= PRONE_PENALTY
    if target.status == ROUTED:
        value -= SLAUGHTER_PENALTY + (
            2 if scene.tactic == "back_to_the_sea" and target.side != scene.tactic_winner else 0
        )
    if target.is_group:
        group = target.group_sheet
        assert group is not None
        value += DRILL_DEFENSE[group.drill] + MIGHT_DEFENSE[group.might]
    return value


def cover_bonus(scene: Scene, target: Combatant, attacker: Combatant) -> int:
    """寻求掩蔽: light cover +1, heavy +2 to the target's defense. "处于近距离的攻击者会和角色享受
    同样的掩蔽加值": an attacker within close range (0–1) of a character in cover enjoys that
    same bonus, so when the covered character strikes back across the fence, the attacker's
    defense gains it too — the fence hampers both sides' attacks."""
    own = COVER_BONUS[target.cover]
    shared = COVER_BONUS[attacker.cover] if scene.distance(target.id, attacker.id) <= 1 else 0
    return max(own, shared)


def ambush_state(scene: Scene, attacker: Combatant) -> str | None:
    """Strategic warfare's ambush (伏击): round 1 attacks are ambushes, rounds 2–4 surprise."""
    if scene.tactic != "ambush" or attacker.side != scene.tactic_winner:
        return None
    if scene.round == 1:
        return "ambush"
    if scene.round <= 4:
        return "surprise"
    return None


def defense_profile(
    scene: Scene, target: Combatant, attacker: Combatant, mode: str, *, ranged: bool, charge: int = 0,
    hooks: Any = None,
) -> DefenseProfile:
    """The target's defense against ``attacker`` in ``mode`` with ``charge`` mana (and what the
    add-ons in ``hooks``, ``ctx.hooks``/``view.hooks``, add: ``mttt_rpg_defense_modifier``)."""
    crashed = target.crashed
    strip = scene.crash_strips_gear
    # 先导崩溃: "所有防护都被视为0，无论其是由什么法术或装备所提供" — protection only
    toughness = target.mod("constitution") + (0 if strip and crashed else target.armour.toughness)
    protection = 0 if crashed else target.armour.protection + target.protection_bonus
    if target.is_group:
        toughness += target.size  # 抵御 + size
    if mode == "passive":
        base = passive_defense(target, strip_gear=strip)
    else:
        base = active_bonus(target, mode, strip_gear=strip)
    value = base + situational_defense(scene, target, attacker, ranged) + charge
    if hooks is not None:
        extra = hooks.mttt_rpg_defense_modifier(scene=scene, target=target, attacker=attacker, mode=mode, ranged=ranged)
        value += sum(m for m in extra if m is not None)
    ambush = ambush_state(scene, attacker)
    if ambush == "ambush":
        value = 0 if mode == "passive" else -20
    elif ambush == "surprise":
        value -= SURPRISE_PENALTY
    blocked = ranged and target.cover == "full"
    return DefenseProfile(
        mode=mode, value=value, toughness=max(0, toughness), protection=max(0, protection), blocked=blocked
    )


def attack_profile(
    scene: Scene, attacker: Combatant, target: Combatant, *, charge: int = 0, initiative_malus: int = 0,
    hooks: Any = None,
) -> AttackProfile:
    """The attacker's profile with its ready weapon against ``target`` (with what the add-ons in
    ``hooks``, ``ctx.hooks``/``view.hooks``, add to its accuracy: ``mttt_rpg_attack_modifier``)."""
    weapon = attacker.ready_weapon
    assert weapon is not None, f"{attacker.name} has no ready weapon"
    accuracy = weapon.accuracy + attacker.sheet.skill(weapon.skill) + attacker.mod(weapon.attribute)
    accuracy += charge + attacker.aim_bonus - attacker.wound
    if hooks is not None:
        extra = hooks.mttt_rpg_attack_modifier(scene=scene, attacker=attacker, target=target)
        accuracy += sum(m for m in extra if m is not None)
    damage = weapon.damage_bonus + attacker.mod(weapon.attribute) + charge // 2
    if attacker.is_group:
        group = attacker.group_sheet
        assert group is not None
        accuracy += attacker.effective_size + MIGHT_ACCURACY[group.might] + attacker.order_bonus
        damage += attacker.effective_size + MIGHT_ACCURACY[group.might]
    return AttackProfile(
        accuracy=accuracy,
        dice=weapon.dice,
        sides=weapon.sides,
        damage_bonus=damage,
        penetration=weapon.penetration,
        initiative=max(0, attacker.initiative),
        double_ten=not attacker.is_group,
        decisive_bonus=charge // 2,
        initiative_malus=initiative_malus,
    )
