"""Entry-point module (``tank_apcr`` in the ``wargamekit`` group): tank_solo hook implementations.

Nothing here touches tank_solo's code: the round is returned as data from
``tank_solo_special_rounds`` and its range-dependent damage from ``tank_solo_kill_modifier``.
Both are pure functions of their arguments, so replays, forks and odds see the same.
"""

from __future__ import annotations

from wargamekit import hookimpl
from wargamekit_tank_solo.fire import Shot
from wargamekit_tank_solo.special_rounds import SpecialRound

from .rounds import APCR, apcr_damage_modifier


@hookimpl
def tank_solo_special_rounds() -> list[SpecialRound]:
    """The APCR round joins the rulebook's three."""
    return [APCR]


@hookimpl
def tank_solo_kill_modifier(shot: Shot) -> int | None:
    """An APCR shot's damage modifier by range; nothing for any other round."""
    if shot.special != APCR.key:
        return None
    return apcr_damage_modifier(shot.range)
