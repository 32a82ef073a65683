"""Fire: the hit check and the damage check as a pure resolution (标准规则修改部分 4; 特殊规则
3 近距射击, 4 特种弹药, 12 弹药不足).

:func:`resolve_shot` is a pure function of the dice and a :class:`Shot`; the game applies its
:class:`ShotResult` separately, and :func:`shot_odds` gives exact odds of the same function.

Hit: roll 2d6, add the modifiers; a total of at least the range hits. The range counts the
target's hex but not the firer's (that is the hex distance). Damage: roll 2d6, modify, add the
gun's attack; a total of at least the armour destroys the target. Modifiers may take a roll
below zero (作战阶段 注).

>>> from wargamekit import ScriptedDice
>>> shot = Shot(range=5, hit_modifier=1, attack=8, armour=12)
>>> resolve_shot(ScriptedDice([2, 2, 1, 3]), shot).effect   # 4+1 = 5 >= 5 hits; 4+8 = 12 >= 12
'killed'
>>> shot_odds(shot).hit
Fraction(11, 12)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

import attrs
from attrs import frozen

from wargamekit.dice import Dice
from wargamekit.odds import distribution

from .special_rounds import hesh_effect, overloaded_damage_dice, round_kinds

if TYPE_CHECKING:
    from .state import GameState, Tank

__all__ = [
    "FIRE_TYPES",
    "FIRE_NAMES",
    "Shot",
    "ShotOdds",
    "ShotResult",
    "close_range_bonus",
    "fire_type_modifier",
    "resolve_shot",
    "shot_odds",
    "with_addons",
]

#: The four forms of fire, in the order of the combat phase.
FIRE_TYPES: tuple[str, ...] = ("aimed", "leap", "defensive", "advance")

FIRE_NAMES = {
    "aimed": "aimed fire (精准射击)",
    "leap": "leap fire (跃进射击)",
    "defensive": "defensive fire (防御射击)",
    "advance": "advance fire (前进射击)",
}

#: Hit modifier of each fire form (作战阶段 1-1, 1-2, 2-2, 3).
_BASE = {"aimed": 0, "leap": -3, "defensive": -2, "advance": -1}
#: The nations' own value for one form (the notes of 1-1, 1-2, 2-2, 3).
_NATIONAL = {("aimed", "germany"): 1, ("leap", "usa"): -2, ("defensive", "uk"): -1, ("advance", "ussr"): 0}


def fire_type_modifier(fire: str, nation: str) -> int:
    """The hit modifier of a fire form for a nation's tank.

    >>> [fire_type_modifier(f, "germany") for f in FIRE_TYPES]
    [1, -3, -2, -1]
    >>> fire_type_modifier("leap", "usa"), fire_type_modifier("defensive", "uk"), fire_type_modifier("advance", "ussr")
    (-2, -1, 0)
    """
    if fire not in _BASE:
        raise ValueError(f"unknown fire type {fire!r}; fire types are {list(FIRE_TYPES)}")
    return _NATIONAL.get((fire, nation), _BASE[fire])


def close_range_bonus(rng: int) -> int:
    """Damage dice bonus at close range (特殊规则 3): +3 at range 1, +1 at range 2.

    >>> [close_range_bonus(r) for r in (1, 2, 3)]
    [3, 1, 0]
    """
    return 3 if rng == 1 else 1 if rng == 2 else 0


@frozen
class Shot:
    """Everything the dice are compared with in one shot.

    Attributes:
        range: hex distance firer -> target (the target's hex counted, the firer's not).
        hit_modifier: every modifier to the hit roll added up (fire form, nation, veteran
            gunner, the target's forced-spotting marker); unbounded either way.
        attack: the firing gun's attack.
        armour: the target's armour.
        firer_class: the firer's class (the overloaded charge multiplier depends on it).
        special: ``None``, ``"overloaded"``, ``"fin"``, ``"hesh"`` or an add-on round's key
            (resolved as a standard round: its effect is in the modifiers).
        ammo_rule: the ammunition shortage optional rule is on (a natural 12 to hit triggers it).
        damage_modifier: what add-ons add to the damage check (their rounds' and their
            :func:`~wargamekit_tank_solo.hookspecs.tank_solo_kill_modifier`; 0 by the rulebook).
    """

    range: int
    hit_modifier: int
    attack: int
    armour: int
    firer_class: str = "medium"
    special: str | None = None
    ammo_rule: bool = False
    damage_modifier: int = 0


def with_addons(shot: Shot, fire: str, hooks: Any, *, state: GameState | None = None,
                firer: Tank | None = None, target: Tank | None = None) -> Shot:
    """``shot`` with what the add-ons add: the fixed modifiers of an add-on's special round
    and the results of the ``tank_solo_hit_modifier``/``tank_solo_kill_modifier`` hooks.
    ``hooks`` is ``ctx.hooks`` (``view.hooks`` for a bot); ``None`` returns ``shot`` as it is."""
    if hooks is None:
        return shot
    hit = shot.hit_modifier
    damage = shot.damage_modifier
    if shot.special is not None:
        loaded = round_kinds(hooks).get(shot.special)
        if loaded is not None:
            hit += loaded.hit_modifier
            damage += loaded.damage_modifier
    args = {"shot": shot, "fire": fire, "state": state, "firer": firer, "target": target}
    hit += sum(m for m in hooks.tank_solo_hit_modifier(**args) if m is not None)
    damage += sum(m for m in hooks.tank_solo_kill_modifier(**args) if m is not None)
    if (hit, damage) == (shot.hit_modifier, shot.damage_modifier):
        return shot
    return attrs.evolve(shot, hit_modifier=hit, damage_modifier=damage)


@frozen
class ShotResult:
    """What one shot did.

    Attributes:
        hit: the hit check succeeded.
        effect: ``"miss"``, ``"no effect"``, ``"killed"``, ``"immobilised"`` or
            ``"weapon destroyed"`` (the last two only from HESH).
        hit_dice: the two hit dice as rolled.
        hit_total: the modified hit total.
        damage_total: the damage total (``None`` without a damage roll).
        ammo_shortage: a natural 12 to hit with the ammunition shortage rule on.
    """

    hit: bool
    effect: str
    hit_dice: tuple[int, ...]
    hit_total: int
    damage_total: int | None
    ammo_shortage: bool

    @property
    def killed(self) -> bool:
        """The target is destroyed."""
        return self.effect == "killed"


def resolve_shot(dice: Dice, shot: Shot) -> ShotResult:
    """Resolve one shot (pure: all chance from ``dice``).

    A fin-stabilised round counts one die as a 6 (4-2); the die replaced is always the lower one,
    the only choice that matters since just the total is compared. The ammunition shortage looks
    at the dice before any change (特殊规则 12, and 4-2 注). HESH replaces the damage check by
    a d6 on its table (4-3); the overloaded charge multiplies the damage dice before other
    modifiers (4-1). Any other ``special`` (an add-on's round) resolves as a standard round:
    its effect is in ``hit_modifier`` and ``damage_modifier`` (:func:`with_addons`).
    """
    faces = dice.nd6(2, f"hit check (range {shot.range}, modifier {shot.hit_modifier:+d})")
    ammo = shot.ammo_rule and faces == (6, 6)
    counted = (max(faces), 6) if shot.special == "fin" else faces
    hit_total = sum(counted) + shot.hit_modifier
    if hit_total < shot.range:
        return ShotResult(False, "miss", faces, hit_total, None, ammo)
    if shot.special == "hesh":
        effect = hesh_effect(dice.d6("HESH effect (碎甲弹)"))
        return ShotResult(True, effect, faces, hit_total, None, ammo)
    damage_dice = sum(dice.nd6(2, f"damage check (attack {shot.attack} vs armour {shot.armour})"))
    if shot.special == "overloaded":
        damage_dice = overloaded_damage_dice(damage_dice, shot.firer_class)
    total = damage_dice + close_range_bonus(shot.range) + shot.attack + shot.damage_modifier
    effect = "killed" if total >= shot.armour else "no effect"
    return ShotResult(True, effect, faces, hit_total, total, ammo)


@frozen
class ShotOdds:
    """Exact probabilities of one shot's results."""

    hit: Fraction
    kill: Fraction
    immobilise: Fraction
    disarm: Fraction
    ammo_shortage: Fraction


def _summary(dice: Dice, shot: Shot) -> tuple[str, bool]:
    result = resolve_shot(dice, shot)
    return result.effect, result.ammo_shortage


@cache
def shot_odds(shot: Shot) -> ShotOdds:
    """Exact odds of :func:`resolve_shot` for ``shot`` (cached; bots call it a lot).

    >>> odds = shot_odds(Shot(range=7, hit_modifier=0, attack=6, armour=13))
    >>> odds.hit, odds.kill
    (Fraction(7, 12), Fraction(49, 144))
    """
    dist = distribution(_summary, shot)
    hit = sum((p for (e, _), p in dist.items() if e != "miss"), Fraction(0))

    def of(effect: str) -> Fraction:
        return sum((p for (e, _), p in dist.items() if e == effect), Fraction(0))

    ammo = sum((p for (_, a), p in dist.items() if a), Fraction(0))
    return ShotOdds(hit, of("killed"), of("immobilised"), of("weapon destroyed"), ammo)
