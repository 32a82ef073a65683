"""Special rounds (特殊规则 4. 特种弹药).

Each side may load up to three hidden special rounds on its tanks before play (开场阶段 3),
at least two kinds among them and at most one fin-stabilised round per team. A round is chosen
after a shot is declared and is used up whether or not it hits. Kills made with a special round
do not count for the veteran gunner rule (特殊规则 8).

>>> overloaded_damage_dice(7, "light"), overloaded_damage_dice(7, "medium"), overloaded_damage_dice(7, "heavy")
(14, 10, 8)
>>> hesh_effect(2), hesh_effect(4), hesh_effect(6)
('immobilised', 'weapon destroyed', 'killed')
>>> loadout_problem(["fin", "fin"])
'at most one fin-stabilised round per team (特殊规则 4-2)'
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "KINDS",
    "KIND_NAMES",
    "hesh_effect",
    "loadout_problem",
    "overloaded_damage_dice",
]

#: Special round kinds, by the key used in scenarios and option labels.
KINDS: tuple[str, ...] = ("overloaded", "fin", "hesh")

#: Readable names, with the source's term.
KIND_NAMES: dict[str, str] = {
    "overloaded": "overloaded charge (超量装药炮弹)",
    "fin": "fin-stabilised round (尾翼脱壳稳定弹)",
    "hesh": "HESH (碎甲弹)",
}

#: Damage dice multiplier of the overloaded charge by firer class (4-1), as (numerator, denominator).
OVERLOAD_FACTOR = {"light": (2, 1), "medium": (3, 2), "heavy": (6, 5)}


def overloaded_damage_dice(dice_sum: int, firer_class: str) -> int:
    """The damage dice after an overloaded charge (4-1): x2 light, x1.5 medium, x1.2 heavy,
    fractions dropped; other modifiers are added afterwards."""
    numerator, denominator = OVERLOAD_FACTOR[firer_class]
    # Integer arithmetic, not int(x * Fraction): the dice sum is never negative, so floor
    # division drops the fraction exactly as int() does, and under exact odds (wargamekit.odds)
    # it stays a lazy die value where int() would split the run at every total.
    return dice_sum * numerator // denominator


def hesh_effect(face: int) -> str:
    """The HESH table (4-3) for one d6: 1-2 immobilised, 3-4 weapon destroyed, 5-6 killed."""
    if face <= 2:
        return "immobilised"
    if face <= 4:
        return "weapon destroyed"
    return "killed"


def loadout_problem(kinds: Sequence[str], allowed: int = 3) -> str | None:
    """Why a side's special-round loadout is illegal, or ``None`` (开场阶段 3; 4-2).

    Up to ``allowed`` rounds; with two or more, at least two different kinds; at most one
    fin-stabilised round.
    """
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        return f"unknown special round {unknown[0]!r}; kinds are {list(KINDS)}"
    if len(kinds) > allowed:
        return f"at most {allowed} special rounds per side (开场阶段 3)"
    if list(kinds).count("fin") > 1:
        return "at most one fin-stabilised round per team (特殊规则 4-2)"
    if len(kinds) >= 2 and len(set(kinds)) < 2:
        return "the special rounds must include at least two different kinds (开场阶段 3)"
    return None
