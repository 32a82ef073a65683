"""Hooks the maneuver_locale ruleset publishes for add-on plugins.

Registered through :func:`~wargamekit.hookspecs.wargamekit_add_hookspecs` by the ruleset's
plugin module. The rules call them through the rules context (``ctx.hooks``, ``None`` in a game
without plugins); the assault preview (:func:`~wargamekit_maneuver_locale.preview_assault`,
``assault_preview``) takes the same hooks (``view.hooks`` in the bot), so play, previews and
the bot see an add-on alike. Hooks must be pure functions of their arguments: replays, forks
and previews call them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from .arms import ArmType
    from .resolution import Combatant

__all__ = ["maneuver_locale_arms", "maneuver_locale_assault_modifier"]

hookspec = pluggy.HookspecMarker("wargamekit")


@hookspec
def maneuver_locale_assault_modifier(
    attacker_leading: Sequence[Combatant], defender_leading: Sequence[Combatant], terrain: int
) -> int | None:
    """An extra modifier to an assault's result (Assaults — 判定), for the attacker.

    Called once per assault when the result is computed (after defensive fire, with the
    leading pieces still standing) and once per defender response in an assault preview; not
    firstresult: all results are added to the result (attack steps - terrain - defence
    steps), so a positive modifier favours the attacker. A preview counts the attacker's
    leading pieces as one combatant with their steps added up, and face-down defenders as the
    preview's guess.

    Args:
        attacker_leading: the attacker's leading pieces (id, arm, steps).
        defender_leading: the defender's leading pieces (may be empty).
        terrain: the defender's terrain effect on the assaulted approach.

    Returns:
        The modifier to add, or ``None`` for none.
    """


@hookspec
def maneuver_locale_arms() -> list[ArmType] | None:
    """New piece types (arms), as data, beside the source's infantry, cavalry and artillery.

    Called when a game starts (before the set-up's handles are dealt), to give each piece of
    the scenario its arm; not firstresult: every add-on's arms join the source's three. A
    scenario names an arm by its key (``pieces[].arm``); a game without the add-on refuses
    such a scenario (``$.pieces[i].arm``). What the arm may do is data of the
    :class:`~wargamekit_maneuver_locale.arms.ArmType` — whether it leads in assaults, fires
    as a gun, pursues, moves onto an approach after entering, retreats from the reserve
    without loss, and its ``assault_bonus`` — which the rules, the assault preview and the bot
    read. A key must not repeat one of the source's arms or another add-on's.

    Returns:
        The add-on's arms, or ``None`` for none.
    """
