"""Combat resources and combat values (战斗资源与战斗数值).

Pure tables of the source plus the provisional conversions the source leaves to the character
sheet (attribute modifiers, dice-pool ratings, wound penalties: NOT from the source).

>>> hp_from_constitution(10), hp_from_constitution(13), hp_from_constitution(20), hp_from_constitution(30)
(5, 6, 10, 15)
>>> [activation_speed(n) for n in range(1, 11)]
[1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
"""

from __future__ import annotations

__all__ = [
    "activation_speed",
    "attribute_modifier",
    "hp_from_constitution",
    "pool_rating",
    "unfold_pool",
    "wound_penalty",
]


def hp_from_constitution(constitution: int) -> int:
    """Total HP for a constitution score (生命点数HP table).

    The table gives 5 HP at 10–11 and +1 HP at every even score (12→6, 14→7 … 20→10, 30→15).
    Below 10 the table is silent; we extend the same line down, never below 1 HP (provisional,
    not from the source).
    """
    return max(1, 5 + (constitution - 10) // 2)


def activation_speed(long_river_units: int) -> int:
    """Activation speed from the number of "long river" units (长河单位) on the field.

    The table: 1→+1, 2→+1, 3→+2, 4→+2 … 9 or more→+5 (magical resonance, 魔力共鸣).
    With no long-river unit there is no resonance: 0.
    """
    if long_river_units <= 0:
        return 0
    return min(5, (long_river_units + 1) // 2)


def unfold_pool(current_cap: int, capacity: int, speed: int) -> int:
    """The pool cap (MPM) after one round of unfolding (展开法术力池): +speed, up to capacity.

    >>> unfold_pool(0, 5, 2), unfold_pool(4, 5, 2), unfold_pool(5, 5, 2)
    (2, 5, 5)
    """
    return min(capacity, current_cap + speed)


def attribute_modifier(score: int) -> int:
    """The modifier (调整值) of an attribute score.

    The source uses modifiers everywhere but never defines them; we use the d20 convention
    ``(score - 10) // 2`` (provisional, not from the source).

    >>> attribute_modifier(10), attribute_modifier(15), attribute_modifier(8)
    (0, 2, -1)
    """
    return (score - 10) // 2


def pool_rating(score: int) -> int:
    """Dice-pool dots for an attribute in Exalted-style pool rolls (rout, command, withdraw,
    strategic warfare): ``max(1, modifier)`` (provisional, not from the source)."""
    return max(1, attribute_modifier(score))


def wound_penalty(hp: int, hp_max: int, *, doubled: bool = False) -> int:
    """The wound penalty (伤势减值) on attack and defense rolls (a positive number to subtract).

    The source names wound penalties (and doubles them after a soul disability of 9+ HP) but
    gives no table; provisional, not from the source: −1 at half HP or less, −2 at 2 HP or
    less, 0 when helpless (nothing left to roll).

    >>> wound_penalty(10, 10), wound_penalty(5, 10), wound_penalty(2, 10), wound_penalty(2, 10, doubled=True)
    (0, 1, 2, 4)
    """
    if hp <= 0:
        return 0
    penalty = 2 if hp <= 2 else 1 if hp * 2 <= hp_max else 0
    return penalty * (2 if doubled else 1)
