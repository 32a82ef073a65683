"""The APCR round (armour-piercing composite rigid, 硬芯穿甲弹) as tank_solo data and rules.

The round is this add-on's own rule, not the rulebook's: a light tungsten core fired at high
velocity. It flies flat (+1 to hit, a fixed modifier, so data of the round) and pierces well
close in but sheds its velocity with range (a damage modifier that depends on the range, so a
``tank_solo_kill_modifier`` hook): +3 at range 1-3, +1 at range 4-6, -1 beyond. At most one per
team, like the fin-stabilised round it competes with (特殊规则 4-2).
"""

from __future__ import annotations

from wargamekit_tank_solo.special_rounds import SpecialRound

__all__ = ["APCR", "apcr_damage_modifier"]

#: The round, as tank_solo data (offered when loading, counted in the loadout rules).
APCR = SpecialRound("apcr", "APCR round (硬芯穿甲弹)", per_team=1, hit_modifier=1)


def apcr_damage_modifier(range_: int) -> int:
    """The APCR's damage modifier at ``range_`` hexes: +3 at 1-3, +1 at 4-6, -1 beyond."""
    if range_ <= 3:
        return 3
    if range_ <= 6:
        return 1
    return -1
