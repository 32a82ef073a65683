"""Attack, defense and damage resolution (攻击, 防御, 伤害, 交锋) as PURE functions.

Every function here takes the dice and frozen profiles and returns a frozen outcome; applying the
outcome to the scene is :mod:`.damage`'s job. That is what gives exact odds for free
(:func:`attack_odds`) and lets the bot weigh withering against decisive.

Rolls: the hit check and the active defense are d20 checks (命中检定 ``D20 + bonuses``;
主动防御 ``D20 + bonuses``); the hit succeeds when the attack total meets or beats the defense
(ties to the attacker: provisional, not from the source). Withering raw damage rolls the
weapon's ADB (A dice of B sides); under the double-10 rule a damage die showing 10 counts twice
(so only dice of ten or more sides can double), except for battle groups, which never get it.

>>> from wargamekit import ScriptedDice
>>> atk = AttackProfile(accuracy=8, dice=2, sides=6, damage_bonus=4, penetration=1, initiative=12)
>>> dfn = DefenseProfile(mode="passive", value=18, toughness=3, protection=1)
>>> out = resolve_attack(ScriptedDice([11, 3, 5]), atk, dfn, "withering")
>>> out.hit, out.attack_total, out.raw_damage, out.damage
(True, 19, 12, 9)
>>> resolve_attack(ScriptedDice([11]), atk, dfn, "decisive").damage   # ceil((2+12)/2) - 1
6
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction

from attrs import frozen

from wargamekit.dice import Dice, Die
from wargamekit.odds import distribution

__all__ = [
    "AttackOdds",
    "AttackOutcome",
    "AttackProfile",
    "ClashOutcome",
    "DefenseProfile",
    "attack_odds",
    "clash_outcome",
    "decisive_damage",
    "hit_chance",
    "resolve_attack",
    "raw_from_faces",
    "resolve_clash",
    "roll_attack",
    "roll_defense",
    "roll_raw_damage",
    "withering_damage",
]

WITHERING = "withering"  # 制敌攻击
DECISIVE = "decisive"  # 致命攻击 / 关键攻击


@frozen
class AttackProfile:
    """Everything about the attacker an attack resolution needs.

    Attributes:
        accuracy: every bonus to the d20 hit check (weapon accuracy + skill + attribute
            modifier + charge X + aim + battle-group size and might + orders − wounds …).
        dice, sides: the weapon's ADB.
        damage_bonus: every bonus to raw damage (weapon damage bonus + attribute modifier
            + X/2 charge + battle-group size and might …).
        penetration: withering damage's floor (穿透).
        initiative: the attacker's initiative (先导度), for decisive damage.
        double_ten: whether a damage die showing 10 counts twice (not for battle groups).
        decisive_bonus: flat bonus to decisive damage (X/2 charge).
        initiative_malus: initiative removed from the decisive formula (guard: 1 per 2 of the
            protector's defense).
    """

    accuracy: int
    dice: int
    sides: int
    damage_bonus: int = 0
    penetration: int = 0
    initiative: int = 0
    double_ten: bool = True
    decisive_bonus: int = 0
    initiative_malus: int = 0


@frozen
class DefenseProfile:
    """Everything about the defender.

    Attributes:
        mode: ``passive`` (a static value) or ``parry``/``dodge`` (active: d20 + value).
        value: the passive defense, or the active defense's bonus, with all modifiers applied.
        toughness: subtracted from withering raw damage (韧性).
        protection: subtracted from decisive damage (防护).
        blocked: the attack cannot be made at all (full cover against a ranged attack).
    """

    mode: str
    value: int
    toughness: int = 0
    protection: int = 0
    blocked: bool = False


@frozen
class AttackOutcome:
    """The result of one attack. ``damage`` is initiative damage (withering) or HP damage
    (decisive), before the target's special cases (crash, chaos phase, groups)."""

    kind: str
    hit: bool
    attack_total: int
    defense_total: int
    raw_damage: int = 0
    damage: int = 0


@frozen
class ClashOutcome:
    """A clash (交锋): ``winner`` is ``"a"``, ``"b"`` or ``None`` (a tie: both attacks are
    thwarted, provisional); ``damage`` is the winner's damage including the clash bonus."""

    winner: str | None
    a_total: int
    b_total: int
    kind: str | None = None
    raw_damage: int = 0
    damage: int = 0


def roll_attack(dice: Dice, attack: AttackProfile, purpose: str = "hit check (命中检定)") -> int:
    """The d20 hit check total."""
    return dice.d20(purpose) + attack.accuracy


def roll_defense(dice: Dice, defense: DefenseProfile, purpose: str = "active defense (主动防御)") -> int:
    """The defense total: the static passive value, or d20 + the active bonus."""
    if defense.mode == "passive":
        return defense.value
    return dice.d20(purpose) + defense.value


def roll_raw_damage(
    dice: Dice, attack: AttackProfile, extra: int = 0, purpose: str = "raw damage (原始伤害)"
) -> int:
    """Raw damage: ADB + damage bonuses (+ ``extra``, e.g. a clash margin)."""
    faces = dice.roll(Die(1, attack.sides), purpose, attack.dice)
    return raw_from_faces(faces, attack, extra)


def raw_from_faces(faces: list[int] | tuple[int, ...], attack: AttackProfile, extra: int = 0) -> int:
    """Raw damage from the damage dice's faces: a 10 counts twice (double-10 rule, never for
    battle groups), plus the damage bonuses (and ``extra``).

    >>> from wargamekit_mttt_rpg.attack import AttackProfile
    >>> raw_from_faces([10, 3], AttackProfile(accuracy=0, dice=2, sides=10, damage_bonus=2))
    25
    """
    total = sum(f * 2 if attack.double_ten and f == 10 else f for f in faces)
    return total + attack.damage_bonus + extra


def withering_damage(raw: int, toughness: int, penetration: int) -> int:
    """Withering damage: raw − toughness, never below the weapon's penetration (nor 0).

    >>> withering_damage(10, 4, 1), withering_damage(3, 9, 2)
    (6, 2)
    """
    return max(raw - toughness, penetration, 0)


def decisive_damage(attack: AttackProfile, protection: int) -> int:
    """Decisive damage: ``ceil((A + Pr) / 2)`` (+ charge bonus) − protection, never below 0.

    >>> decisive_damage(AttackProfile(accuracy=0, dice=2, sides=6, initiative=11), 2)
    5
    """
    pool = decisive_pool(attack)
    return max(0, pool + attack.decisive_bonus - protection)


def decisive_pool(attack: AttackProfile) -> int:
    """The decisive damage pool before protection, ``ceil((A + Pr) / 2)``."""
    total = attack.dice + max(0, attack.initiative - attack.initiative_malus)
    return -(-total // 2)


def resolve_attack(dice: Dice, attack: AttackProfile, defense: DefenseProfile, kind: str) -> AttackOutcome:
    """Resolve one attack from the hit check to the damage (pure)."""
    if defense.blocked:
        return AttackOutcome(kind, False, 0, 0)
    total = roll_attack(dice, attack)
    against = roll_defense(dice, defense)
    if total < against:
        return AttackOutcome(kind, False, total, against)
    if kind == WITHERING:
        raw = roll_raw_damage(dice, attack)
        return AttackOutcome(
            kind, True, total, against, raw, withering_damage(raw, defense.toughness, attack.penetration)
        )
    return AttackOutcome(kind, True, total, against, 0, decisive_damage(attack, defense.protection))


def resolve_clash(
    dice: Dice,
    a: AttackProfile,
    a_kind: str,
    b: AttackProfile,
    b_kind: str,
    a_defense: DefenseProfile,
    b_defense: DefenseProfile,
) -> ClashOutcome:
    """A clash (交锋): opposed hit checks, defenses ignored. The winner strikes: a withering
    winner adds the margin to raw damage and +3 initiative damage; a decisive winner deals +1
    HP. Ties: both attacks are thwarted (provisional, not from the source)."""
    a_total = roll_attack(dice, a, "clash: hit check of the first attacker")
    b_total = roll_attack(dice, b, "clash: hit check of the second attacker")
    return clash_outcome(
        a_total,
        a,
        a_kind,
        b_total,
        b,
        b_kind,
        a_defense,
        b_defense,
        lambda attack, margin: roll_raw_damage(dice, attack, extra=margin),
    )


def clash_outcome(
    a_total: int,
    a: AttackProfile,
    a_kind: str,
    b_total: int,
    b: AttackProfile,
    b_kind: str,
    a_defense: DefenseProfile,
    b_defense: DefenseProfile,
    raw: Callable[[AttackProfile, int], int],
) -> ClashOutcome:
    """A clash's outcome from its two totals; ``raw(attack, margin)`` gives a withering
    winner's raw damage (rolled only if there is one)."""
    if a_total == b_total:
        return ClashOutcome(None, a_total, b_total)
    if a_total > b_total:
        winner, attack, kind, target, margin = "a", a, a_kind, b_defense, a_total - b_total
    else:
        winner, attack, kind, target, margin = "b", b, b_kind, a_defense, b_total - a_total
    if kind == WITHERING:
        rolled = raw(attack, margin)
        damage = withering_damage(rolled, target.toughness, attack.penetration) + 3
        return ClashOutcome(winner, a_total, b_total, kind, rolled, damage)
    return ClashOutcome(winner, a_total, b_total, kind, 0, decisive_damage(attack, target.protection) + 1)


# -- exact odds --------------------------------------------------------------------------------
@frozen
class AttackOdds:
    """Exact odds of an attack: the hit chance and the damage distribution (0 includes misses)."""

    kind: str
    hit_chance: Fraction
    damage: dict[int, Fraction]

    @property
    def expected_damage(self) -> Fraction:
        return sum((Fraction(d) * p for d, p in self.damage.items()), Fraction(0))

    def describe(self) -> str:
        """A short text: hit chance, expected damage and the damage distribution."""
        dist = ", ".join(f"{d}: {float(p):.1%}" for d, p in self.damage.items())
        unit = "initiative" if self.kind == WITHERING else "HP"
        return (
            f"{self.kind} attack: hit {float(self.hit_chance):.1%}, expected {float(self.expected_damage):.2f} "
            f"{unit} damage\n  damage distribution: {dist}"
        )


def _hit(dice: Dice, attack: AttackProfile, defense: DefenseProfile) -> bool:
    if defense.blocked:
        return False
    return roll_attack(dice, attack) >= roll_defense(dice, defense)


def hit_chance(attack: AttackProfile, defense: DefenseProfile) -> Fraction:
    """Exact chance that the hit check meets or beats the defense."""
    # The hit check (_hit) reads the attack's accuracy and the defense's mode, value and block
    # alone, and compares d20 + accuracy with the value (or d20 + value): the chance is that of
    # the margin, value - accuracy. Kept by those (a few dozen keys), not by the whole profiles,
    # whose damage and initiative make nearly every attack of a fresh game a new key.
    return _hit_chance(defense.blocked, defense.mode, defense.value - attack.accuracy)


@functools.lru_cache(maxsize=1024)
def _hit_chance(blocked: bool, mode: str, margin: int) -> Fraction:
    """:func:`hit_chance` of an attack with accuracy 0 against a defense of value ``margin``."""
    attack = AttackProfile(accuracy=0, dice=0, sides=1)
    return distribution(_hit, attack, DefenseProfile(mode, margin, blocked=blocked)).get(True, Fraction(0))


def _raw(dice: Dice, attack: AttackProfile) -> int:
    return roll_raw_damage(dice, attack)


@functools.lru_cache(maxsize=1024)
def _raw_distribution(attack: AttackProfile) -> dict[int, Fraction]:
    return distribution(_raw, attack)


def attack_odds(attack: AttackProfile, defense: DefenseProfile, kind: str) -> AttackOdds:
    """Exact odds of :func:`resolve_attack` (the hit and the damage are independent draws, so
    their distributions are computed apart and combined — the same numbers as enumerating
    :func:`resolve_attack` itself, much faster).

    >>> atk = AttackProfile(accuracy=8, dice=1, sides=6, damage_bonus=2, initiative=9)
    >>> odds = attack_odds(atk, DefenseProfile(mode="passive", value=18, toughness=1), "withering")
    >>> odds.hit_chance
    Fraction(11, 20)
    >>> odds.damage[0]
    Fraction(9, 20)
    """
    p_hit = hit_chance(attack, defense)
    damage: dict[int, Fraction] = {0: 1 - p_hit} if p_hit < 1 else {}
    if p_hit > 0:
        if kind == WITHERING:
            for raw, p in _raw_distribution(attack).items():
                d = withering_damage(raw, defense.toughness, attack.penetration)
                damage[d] = damage.get(d, Fraction(0)) + p_hit * p
        else:
            d = decisive_damage(attack, defense.protection)
            damage[d] = damage.get(d, Fraction(0)) + p_hit
    return AttackOdds(kind, p_hit, dict(sorted(damage.items())))
