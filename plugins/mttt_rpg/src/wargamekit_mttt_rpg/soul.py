"""Soul disability (灵魂残疾) and burning soul jade (燃玉).

>>> disability_tier(3), disability_tier(6), disability_tier(9), disability_tier(20)
(1, 2, 3, 4)
>>> jade_cost(3)      # 1 + 2 + 3 points raise a die by 3
6
>>> max_die_boost(face=17, sides=20, points=100), max_die_boost(face=5, sides=20, points=10)
(3, 4)
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargamekit import Choose, ChooseNumber, YesNo
from wargamekit.dice import PoolRoll

from . import kinds
from .sheets import MENTAL, PHYSICAL
from .state import Combatant, Context, Scene

__all__ = [
    "DISABILITY_DAMAGE",
    "disability_tier",
    "ignite",
    "jade_cost",
    "max_boost",
    "max_die_boost",
    "offer_boost",
    "offer_dice_boost",
    "offer_disability",
    "pool_successes",
]

RULE_DISABILITY = "灵魂残疾"
RULE_JADE = "燃玉"
DISABILITY_DAMAGE = 2
DISABILITY_PENALTY = 5


def disability_tier(negated: int) -> int:
    """The tier of a soul disability by HP negated: 1 (1–4), 2 (5–8), 3 (9–13), 4 (14+)."""
    if negated >= 14:
        return 4
    if negated >= 9:
        return 3
    if negated >= 5:
        return 2
    return 1


def jade_cost(boost: int) -> int:
    """Burn points to raise a die by ``boost``: the arithmetic series 1 + 2 + … + boost."""
    return boost * (boost + 1) // 2


def max_boost(points: int) -> int:
    """The largest boost ``points`` can pay for."""
    boost = 0
    while jade_cost(boost + 1) <= points:
        boost += 1
    return boost


def max_die_boost(*, face: int, sides: int, points: int) -> int:
    """The largest boost to a natural die: no further than its maximum face (满骰)."""
    return min(sides - face, max_boost(points))


def offer_disability(ctx: Context, unit: Combatant, damage: int) -> Generator[Any, Any, bool]:
    """Once per story a player's character about to take lethal damage may take a soul
    disability instead (an instant that cannot be interrupted: no window opens). Returns
    whether the damage was replaced."""
    scene: Scene = ctx.state
    if unit.side != "heroes" or unit.disability_used or unit.kind != "character" or damage <= 0:
        return False
    take = yield YesNo(
        side=unit.side,
        prompt=f"{unit.name} is about to lose {damage} HP (at {unit.hp}). Take a soul disability instead "
        "(once per story; you still lose 2 HP, never below 1)?",
        rule=RULE_DISABILITY,
        kind=kinds.DISABILITY,
        context={"unit": unit.id, "damage": damage, "hp": unit.hp},
    )
    if not take:
        return False
    unit.disability_used = True
    unit.disability_negated += damage
    tier = disability_tier(damage)
    ctx.event(
        "disability",
        f"{unit.name} takes a soul disability negating {damage} HP (tier {tier})",
        unit=unit.id,
        negated=damage,
        tier=tier,
    )
    if tier >= 1:
        attr = yield Choose.of(
            "foes",
            f"GM: which physical attribute of {unit.name} takes −5?",
            PHYSICAL,
            rule=RULE_DISABILITY,
            kind=kinds.DISABILITY_ATTRIBUTE,
            context={"unit": unit.id, "tier": tier, "attributes": "physical"},
            data=lambda a: {"attribute": a},
        )
        unit.attribute_penalties[attr] = unit.attribute_penalties.get(attr, 0) + DISABILITY_PENALTY
    if tier >= 2:
        attr = yield Choose.of(
            "foes",
            f"GM: which mental attribute of {unit.name} takes −5?",
            MENTAL,
            rule=RULE_DISABILITY,
            kind=kinds.DISABILITY_ATTRIBUTE,
            context={"unit": unit.id, "tier": tier, "attributes": "mental"},
            data=lambda a: {"attribute": a},
        )
        unit.attribute_penalties[attr] = unit.attribute_penalties.get(attr, 0) + DISABILITY_PENALTY
    if unit.disability_negated >= 9:
        ctx.event(
            "disability", f"{unit.name}'s wound penalties are doubled for the rest of the scene", unit=unit.id
        )
    before = unit.hp
    unit.hp = max(1, unit.hp - DISABILITY_DAMAGE)
    unit.distortion_points += before - unit.hp
    ctx.event(
        "hp",
        f"{unit.name} loses {before - unit.hp} HP to the disabling wound ({unit.hp}/{unit.hp_max})",
        unit=unit.id,
    )
    del scene
    return True


def ignite(ctx: Context, unit: Combatant) -> None:
    """First stage: convert all remaining soul jade into burn points at once."""
    unit.ignited = True
    unit.burn_points += unit.soul_jade
    ctx.event(
        "jade",
        f"{unit.name} ignites her soul jade: {unit.soul_jade} burn points (燃玉, first stage)",
        unit=unit.id,
    )
    unit.soul_jade = 0


def convert(ctx: Context, unit: Combatant, name: str, jade: int) -> None:
    """Second stage: convert invested soul jade into burn points; the loss settles after the fight."""
    unit.converted.append(name)
    unit.burn_points += jade
    ctx.event(
        "jade",
        f"{unit.name} burns {name} for {jade} burn points (loss settles after the fight)",
        unit=unit.id,
    )


def can_burn(scene: Scene, unit: Combatant) -> bool:
    """Burning soul jade is open only in boss fights, to characters with points or jade."""
    return scene.boss_fight and unit.kind == "character" and (unit.burn_points > 0 or unit.soul_jade > 0)


def _available(unit: Combatant) -> int:
    return unit.burn_points + (0 if unit.ignited else unit.soul_jade)


def _burn(ctx: Context, unit: Combatant, boost: int, text: str) -> None:
    if not unit.ignited:
        ignite(ctx, unit)
    unit.burn_points -= jade_cost(boost)
    ctx.event("jade", f"{unit.name} burns {jade_cost(boost)} points: {text}", unit=unit.id)


def _ask_boost(
    ctx: Context, unit: Combatant, top: int, question: str, text: Any, *, what: str, into: str, face: int | None = None
) -> Generator[Any, Any, int]:
    """Ask for a boost of 0..``top`` and burn its arithmetic-series cost; ``into``: ``"die"``
    (the natural die showing ``face``) or ``"bonus"`` (the +x of a dX+x roll)."""
    if top <= 0:
        return 0
    boost = yield ChooseNumber(
        side=unit.side,
        prompt=f"{unit.name}: burn soul jade to {question} "
        f"(boost k costs 1+2+…+k points; {_available(unit)} available)",
        rule=RULE_JADE,
        low=0,
        high=top,
        kind=kinds.JADE_BOOST,
        context={"unit": unit.id, "what": what, "into": into, "face": face, "points": _available(unit)},
    )
    if boost:
        _burn(ctx, unit, boost, text(boost))
    return boost


def offer_boost(
    ctx: Context, unit: Combatant, *, face: int, sides: int, what: str, bonus: bool = True
) -> Generator[Any, Any, int]:
    """Offer to raise a just-rolled roll with burn points; returns the total boost (0: none).

    燃玉点数的使用: the natural die (dX) rises at most to its maximum face (满骰); on a roll with
    a bonus (dX+x, ``bonus``: a d20 check such as the hit check, a defense, join battle) the +x
    part may be raised too, with its own arithmetic series and no cap but the points. Choosing
    a boost ignites the jade first if it is not yet burning.
    """
    die, extra = yield from _boost_one(ctx, unit, face=face, sides=sides, what=what, bonus=bonus)
    return die + extra


def _boost_one(
    ctx: Context, unit: Combatant, *, face: int, sides: int, what: str, bonus: bool
) -> Generator[Any, Any, tuple[int, int]]:
    """One die's boost and the +x's boost (see :func:`offer_boost`)."""
    scene: Scene = ctx.state
    if not can_burn(scene, unit):
        return 0, 0
    top = max_die_boost(face=face, sides=sides, points=_available(unit))
    die = yield from _ask_boost(
        ctx,
        unit,
        top,
        f"raise the {what} die from {face}?",
        lambda k: f"{what} die {face} -> {face + k}",
        what=what,
        into="die",
        face=face,
    )
    extra = (yield from _ask_bonus(ctx, unit, what)) if bonus else 0
    return die, extra


def _ask_bonus(ctx: Context, unit: Combatant, what: str) -> Generator[Any, Any, int]:
    """Burn points into the +x of a dX+x roll: no cap but the points left (燃玉点数的使用)."""
    return (yield from _ask_boost(
        ctx,
        unit,
        max_boost(_available(unit)),
        f"put points into the +x of the {what} (dX+x: no cap but your points)?",
        lambda k: f"{what} bonus +{k}",
        what=what,
        into="bonus",
    ))


def offer_dice_boost(
    ctx: Context, unit: Combatant, faces: list[int] | tuple[int, ...], *, sides: int, what: str, bonus: bool
) -> Generator[Any, Any, tuple[list[int], int]]:
    """Offer to raise a just-rolled roll of several dice (damage dice, a d10 pool) with burn
    points; returns the faces after the boosts and the boost to the +x part.

    燃玉点数的使用: "用点数增幅投掷骰子的结果" — any rolled die: each die rises at most to its maximum
    face (a die pushed to its maximum face counts as one, 满骰效果: a 10 doubles); a roll with a
    bonus (dX+x, ``bonus``: damage) also takes points into the +x, uncapped; a pool (dX only)
    does not. One question first (burn at all?), so a player who keeps her points answers once.
    """
    faces = list(faces)
    scene: Scene = ctx.state
    if not can_burn(scene, unit) or not (bonus or any(f < sides for f in faces)):
        return faces, 0
    if len(faces) == 1:
        die, extra = yield from _boost_one(ctx, unit, face=faces[0], sides=sides, what=what, bonus=bonus)
        return [faces[0] + die], extra
    shown = " ".join(map(str, faces))
    burn = yield YesNo(
        side=unit.side,
        prompt=f"{unit.name}: burn soul jade on the {what} (d{sides} [{shown}])? "
        f"({_available(unit)} points available)",
        rule=RULE_JADE,
        kind=kinds.BURN_JADE,
        context={"unit": unit.id, "what": what, "sides": sides, "faces": faces, "points": _available(unit)},
    )
    if not burn:
        return faces, 0
    for i, face in enumerate(faces):
        top = max_die_boost(face=face, sides=sides, points=_available(unit))
        faces[i] += yield from _ask_boost(
            ctx,
            unit,
            top,
            f"raise {what} die {i + 1} of {len(faces)} from {face}?",
            lambda k, i=i, face=face: f"{what} die {i + 1} {face} -> {face + k}",
            what=what,
            into="die",
            face=face,
        )
    extra = (yield from _ask_bonus(ctx, unit, what)) if bonus else 0
    return faces, extra


def pool_successes(faces: list[int] | tuple[int, ...], *, target: int = 7, double_at: int | None = 10) -> int:
    """Successes of d10 pool faces (target number, tens double), e.g. after burnt points.

    >>> pool_successes([7, 2, 10]), pool_successes([6, 9], double_at=None)
    (3, 1)
    """
    return sum(0 if f < target else (2 if double_at is not None and f >= double_at else 1) for f in faces)


def offer_pool_boost(ctx: Context, unit: Combatant, roll: PoolRoll, *, what: str) -> Generator[Any, Any, int]:
    """The successes of ``unit``'s d10 pool, after any burnt points (a dX pool: no +x)."""
    faces, _ = yield from offer_dice_boost(ctx, unit, roll.faces, sides=10, what=what, bonus=False)
    return pool_successes(faces) if faces != list(roll.faces) else roll.successes
