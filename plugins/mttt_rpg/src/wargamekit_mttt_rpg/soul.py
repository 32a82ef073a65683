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

from .sheets import MENTAL, PHYSICAL
from .state import Combatant, Scene

__all__ = [
    "DISABILITY_DAMAGE",
    "disability_tier",
    "ignite",
    "jade_cost",
    "max_boost",
    "max_die_boost",
    "offer_boost",
    "offer_disability",
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


def offer_disability(game: Any, unit: Combatant, damage: int) -> Generator[Any, Any, bool]:
    """Once per story a player's character about to take lethal damage may take a soul
    disability instead (an instant that cannot be interrupted: no window opens). Returns
    whether the damage was replaced."""
    scene: Scene = game.state
    if unit.side != "heroes" or unit.disability_used or unit.kind != "character" or damage <= 0:
        return False
    take = yield YesNo(
        side=unit.side,
        prompt=f"{unit.name} is about to lose {damage} HP (at {unit.hp}). Take a soul disability instead "
        "(once per story; you still lose 2 HP, never below 1)?",
        rule=RULE_DISABILITY,
    )
    if not take:
        return False
    unit.disability_used = True
    unit.disability_negated += damage
    tier = disability_tier(damage)
    game.event(
        "disability",
        f"{unit.name} takes a soul disability negating {damage} HP (tier {tier})",
        unit=unit.id,
        negated=damage,
        tier=tier,
    )
    if tier >= 1:
        attr = yield Choose.of(
            "foes", f"GM: which physical attribute of {unit.name} takes −5?", PHYSICAL, rule=RULE_DISABILITY
        )
        unit.attribute_penalties[attr] = unit.attribute_penalties.get(attr, 0) + DISABILITY_PENALTY
    if tier >= 2:
        attr = yield Choose.of(
            "foes", f"GM: which mental attribute of {unit.name} takes −5?", MENTAL, rule=RULE_DISABILITY
        )
        unit.attribute_penalties[attr] = unit.attribute_penalties.get(attr, 0) + DISABILITY_PENALTY
    if unit.disability_negated >= 9:
        game.event(
            "disability", f"{unit.name}'s wound penalties are doubled for the rest of the scene", unit=unit.id
        )
    before = unit.hp
    unit.hp = max(1, unit.hp - DISABILITY_DAMAGE)
    unit.distortion_points += before - unit.hp
    game.event(
        "hp",
        f"{unit.name} loses {before - unit.hp} HP to the disabling wound ({unit.hp}/{unit.hp_max})",
        unit=unit.id,
    )
    del scene
    return True


def ignite(game: Any, unit: Combatant) -> None:
    """First stage: convert all remaining soul jade into burn points at once."""
    unit.ignited = True
    unit.burn_points += unit.soul_jade
    game.event(
        "jade",
        f"{unit.name} ignites her soul jade: {unit.soul_jade} burn points (燃玉, first stage)",
        unit=unit.id,
    )
    unit.soul_jade = 0


def convert(game: Any, unit: Combatant, name: str, jade: int) -> None:
    """Second stage: convert invested soul jade into burn points; the loss settles after the fight."""
    unit.converted.append(name)
    unit.burn_points += jade
    game.event(
        "jade",
        f"{unit.name} burns {name} for {jade} burn points (loss settles after the fight)",
        unit=unit.id,
    )


def can_burn(scene: Scene, unit: Combatant) -> bool:
    """Burning soul jade is open only in boss fights, to characters with points or jade."""
    return scene.boss_fight and unit.kind == "character" and (unit.burn_points > 0 or unit.soul_jade > 0)


def _available(unit: Combatant) -> int:
    return unit.burn_points + (0 if unit.ignited else unit.soul_jade)


def _burn(game: Any, unit: Combatant, boost: int, text: str) -> None:
    if not unit.ignited:
        ignite(game, unit)
    unit.burn_points -= jade_cost(boost)
    game.event("jade", f"{unit.name} burns {jade_cost(boost)} points: {text}", unit=unit.id)


def _ask_boost(
    game: Any, unit: Combatant, top: int, question: str, text: Any
) -> Generator[Any, Any, int]:
    """Ask for a boost of 0..``top`` and burn its arithmetic-series cost."""
    if top <= 0:
        return 0
    boost = yield ChooseNumber(
        side=unit.side,
        prompt=f"{unit.name}: burn soul jade to {question} "
        f"(boost k costs 1+2+…+k points; {_available(unit)} available)",
        rule=RULE_JADE,
        low=0,
        high=top,
    )
    if boost:
        _burn(game, unit, boost, text(boost))
    return boost


def offer_boost(
    game: Any, unit: Combatant, *, face: int, sides: int, what: str, bonus: bool = True
) -> Generator[Any, Any, int]:
    """Offer to raise a just-rolled roll with burn points; returns the total boost (0: none).

    燃玉点数的使用: the natural die (dX) rises at most to its maximum face (满骰); on a roll with
    a bonus (dX+x, ``bonus``: the d20 hit check and active defense) the +x part may be raised
    too, with its own arithmetic series and no cap but the points. Choosing a boost ignites the
    jade first if it is not yet burning.
    """
    scene: Scene = game.state
    if not can_burn(scene, unit):
        return 0
    die = max_die_boost(face=face, sides=sides, points=_available(unit))
    total = yield from _ask_boost(
        game, unit, die, f"raise the {what} die from {face}?", lambda k: f"{what} die {face} -> {face + k}"
    )
    if bonus:
        total += yield from _ask_boost(
            game,
            unit,
            max_boost(_available(unit)),
            f"put points into the +x of the {what} (dX+x: no cap but your points)?",
            lambda k: f"{what} bonus +{k}",
        )
    return total
