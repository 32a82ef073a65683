"""Hooks the mttt_rpg ruleset publishes for add-on plugins.

Registered through :func:`~wargamekit.hookspecs.wargamekit_add_hookspecs` by the ruleset's
plugin module. The rules call them through the rules context (``ctx.hooks``, ``None`` in a game
without plugins) whenever they build an attack or a defense profile
(:func:`~wargamekit_mttt_rpg.defense.attack_profile`,
:func:`~wargamekit_mttt_rpg.defense.defense_profile`); the odds in the action menus,
:func:`~wargamekit_mttt_rpg.odds.preview_attack` and the bot (``view.hooks``) build them the
same way, so play, odds and the bot see an add-on alike. Hooks must be pure functions of their
arguments: replays, forks and odds call them again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from .added_actions import CombatAction
    from .state import Combatant, Scene

__all__ = ["mttt_rpg_attack_modifier", "mttt_rpg_combat_actions", "mttt_rpg_defense_modifier"]

hookspec = pluggy.HookspecMarker("wargamekit")


@hookspec
def mttt_rpg_attack_modifier(scene: Scene, attacker: Combatant, target: Combatant) -> int | None:
    """An extra modifier to the attacker's accuracy (命中检定: d20 + accuracy) against ``target``.

    Called whenever an attack profile is built (the attack itself, a clash, the menus' odds, the
    bot's and ``preview_attack``'s odds); not firstresult: all results are added up.

    Args:
        scene: the scene (a side's view of it, for the bot).
        attacker: the attacking combatant (its ready weapon is the one used).
        target: the combatant attacked.

    Returns:
        The modifier to add, or ``None`` for none.
    """


@hookspec
def mttt_rpg_defense_modifier(
    scene: Scene, target: Combatant, attacker: Combatant, mode: str, ranged: bool
) -> int | None:
    """An extra modifier to ``target``'s defense value against ``attacker`` (防御).

    Called whenever a defense profile is built; not firstresult: all results are added to the
    value (the passive defense itself, or the bonus added to an active defense's d20), before
    an ambush's override (伏击: the value becomes 0 or -20 whatever was added).

    Args:
        scene: the scene.
        target: the defending combatant.
        attacker: the attacking combatant.
        mode: ``"passive"``, ``"parry"`` or ``"dodge"``.
        ranged: whether the attack is a ranged one.

    Returns:
        The modifier to add, or ``None`` for none.
    """


@hookspec
def mttt_rpg_combat_actions() -> list[CombatAction] | None:
    """New combat actions (战斗行动), as data.

    Called whenever the active step's menu is built (in play, and so in every bot's menu) and
    when a chosen action is carried out; not firstresult: every add-on's actions are offered,
    after the spells, one option per legal target, with the option data ``{"action":
    "addon", "name": key, "target": unit id}``. What an action does is data of the
    :class:`~wargamekit_mttt_rpg.added_actions.CombatAction`: its initiative cost, its mana
    (pool and cost), who may take it and its effect — one of the effect primitives spells are
    made of (:class:`~wargamekit_mttt_rpg.sheets.Effect`), applied through the interrupt stack
    as a standard spell is. A key must not repeat another add-on's.

    Returns:
        The add-on's combat actions, or ``None`` for none.
    """
