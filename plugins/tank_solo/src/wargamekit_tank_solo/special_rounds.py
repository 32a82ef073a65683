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

from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from wargamekit.errors import WargamekitError

__all__ = [
    "BUILTIN_ROUNDS",
    "KINDS",
    "KIND_NAMES",
    "SpecialRound",
    "SpecialRoundError",
    "hesh_effect",
    "loadout_problem",
    "overloaded_damage_dice",
    "round_kinds",
]

#: Special round kinds, by the key used in scenarios and option labels.
KINDS: tuple[str, ...] = ("overloaded", "fin", "hesh")

#: Readable names, with the source's term.
KIND_NAMES: dict[str, str] = {
    "overloaded": "overloaded charge (超量装药炮弹)",
    "fin": "fin-stabilised round (尾翼脱壳稳定弹)",
    "hesh": "HESH (碎甲弹)",
}



class SpecialRoundError(WargamekitError, ValueError):
    """An add-on's special round is malformed or clashes with another (特殊规则 4)."""


@frozen
class SpecialRound:
    """One kind of special round, as data (特殊规则 4 特种弹药).

    The rulebook's three rounds carry their own resolution (the fin round's die, the HESH
    table, the overloaded charge's multiplier, in :func:`~wargamekit_tank_solo.fire.resolve_shot`);
    a round an add-on adds (:func:`~wargamekit_tank_solo.hookspecs.tank_solo_special_rounds`)
    resolves as a standard round with the fixed modifiers below, plus whatever the add-on's
    modifier hooks add for ``shot.special == key``.

    Attributes:
        key: the round's key in scenarios, option data and events (``"apcr"``).
        name: what the player reads, with the source's term where there is one.
        per_team: at most this many per side's loadout (``None``: no limit of its own).
        hit_modifier: added to the hit roll when it is fired.
        damage_modifier: added to the damage check when it is fired.
    """

    key: str
    name: str
    per_team: int | None = None
    hit_modifier: int = 0
    damage_modifier: int = 0


#: The rulebook's three rounds (4-1, 4-2, 4-3).
BUILTIN_ROUNDS: tuple[SpecialRound, ...] = tuple(
    SpecialRound(key, KIND_NAMES[key], per_team=1 if key == "fin" else None) for key in KINDS
)


def round_kinds(hooks: Any = None) -> dict[str, SpecialRound]:
    """Every special round in play, by key: the rulebook's three, then the add-ons' (through
    :func:`~wargamekit_tank_solo.hookspecs.tank_solo_special_rounds`; ``hooks`` is
    ``ctx.hooks``/``view.hooks``, ``None`` without plugins).

    >>> list(round_kinds())
    ['overloaded', 'fin', 'hesh']

    Raises:
        SpecialRoundError: an add-on's round is not a :class:`SpecialRound` or reuses a key.
    """
    rounds = {r.key: r for r in BUILTIN_ROUNDS}
    if hooks is None:
        return rounds
    for added in hooks.tank_solo_special_rounds():
        for r in added or ():
            if not isinstance(r, SpecialRound):
                raise SpecialRoundError(f"tank_solo_special_rounds returned {r!r}, not a SpecialRound (特殊规则 4)")
            if r.key in rounds:
                raise SpecialRoundError(f"special round {r.key!r} is defined twice (特殊规则 4): keys must be unique")
            rounds[r.key] = r
    return rounds


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


def loadout_problem(kinds: Sequence[str], allowed: int = 3,
                    rounds: Mapping[str, SpecialRound] | None = None) -> str | None:
    """Why a side's special-round loadout is illegal, or ``None`` (开场阶段 3; 4-2).

    Up to ``allowed`` rounds; with two or more, at least two different kinds; at most one
    fin-stabilised round (and no more of an add-on's round than its ``per_team``). ``rounds``
    is :func:`round_kinds` (default: the rulebook's three).
    """
    known = round_kinds() if rounds is None else rounds
    unknown = [k for k in kinds if k not in known]
    if unknown:
        return f"unknown special round {unknown[0]!r}; kinds are {list(known)}"
    if len(kinds) > allowed:
        return f"at most {allowed} special rounds per side (开场阶段 3)"
    if list(kinds).count("fin") > 1:
        return "at most one fin-stabilised round per team (特殊规则 4-2)"
    for r in known.values():
        if r.key != "fin" and r.per_team is not None and list(kinds).count(r.key) > r.per_team:
            return f"at most {r.per_team} {r.name} per team"
    if len(kinds) >= 2 and len(set(kinds)) < 2:
        return "the special rounds must include at least two different kinds (开场阶段 3)"
    return None
