"""Hooks the tank_solo ruleset publishes for add-on plugins.

Registered through :func:`~wargamekit.hookspecs.wargamekit_add_hookspecs` by the ruleset's
plugin module. The rules call them through the rules context (``ctx.hooks``, ``None`` in a game
without plugins); the exact odds the fire menus, the bots (``view.hooks``) and ``wargamekit odds
tank_solo --addon NAME`` show are computed through the same hooks, so an add-on changes play
and odds alike. Every hook must be a pure function of its arguments: replays, forks and odds
calculations call it again and again.

A hook implementation may take any subset of a hook's arguments (pluggy passes those it names).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from .fire import Shot
    from .special_rounds import SpecialRound
    from .state import GameState, Tank
    from .vehicles import VehicleModel

__all__ = ["tank_solo_hit_modifier", "tank_solo_kill_modifier", "tank_solo_special_rounds", "tank_solo_vehicles"]

hookspec = pluggy.HookspecMarker("wargamekit")


@hookspec
def tank_solo_hit_modifier(
    shot: Shot, fire: str, state: GameState | None, firer: Tank | None, target: Tank | None
) -> int | None:
    """An extra modifier to the hit roll of a shot (作战阶段; 被命中点修正).

    Called for every shot the rules resolve or price (the fire menus' odds, the bots' exact
    odds, ``wargamekit odds tank_solo``), not firstresult: all results are added to
    ``shot.hit_modifier``.

    Args:
        shot: the shot as the rules built it (range, the rules' own hit modifier, attack,
            armour, firer class, ``special`` round key), before any add-on modifier.
        fire: ``"aimed"``, ``"leap"``, ``"defensive"`` or ``"advance"``.
        state: the game state (a player's view of it, for a bot), or ``None`` in an odds
            preview that has no game.
        firer: the firing tank, or ``None`` in an odds preview.
        target: the target tank, or ``None`` in an odds preview.

    Returns:
        The modifier to add, or ``None`` for none.
    """


@hookspec
def tank_solo_kill_modifier(
    shot: Shot, fire: str, state: GameState | None, firer: Tank | None, target: Tank | None
) -> int | None:
    """An extra modifier to the damage check of a shot (the 2d6 + attack compared with armour).

    Called like :func:`tank_solo_hit_modifier`, not firstresult: all results are added to
    ``shot.damage_modifier``. It does nothing to a HESH round, whose d6 table replaces the
    damage check (特殊规则 4-3).

    Returns:
        The modifier to add, or ``None`` for none.
    """


@hookspec
def tank_solo_special_rounds() -> list[SpecialRound] | None:
    """New kinds of special round (特殊规则 4 特种弹药), as data.

    Called when a side loads its rounds (开场阶段 3), when a loaded round is named or priced,
    and by ``wargamekit odds tank_solo --special``; not firstresult: the rounds of every
    add-on are offered after the three of the rulebook. A round's fixed hit and damage
    modifiers and its per-team limit are data of the
    :class:`~wargamekit_tank_solo.special_rounds.SpecialRound`; anything that depends on the
    shot (range, target) belongs in :func:`tank_solo_kill_modifier` or
    :func:`tank_solo_hit_modifier`, keyed on ``shot.special``. A key must not repeat a
    rulebook round's or another add-on's.

    Returns:
        The add-on's rounds, or ``None`` for none.
    """


@hookspec
def tank_solo_vehicles() -> list[VehicleModel] | None:
    """New vehicle models (标准规则修改部分 1 战车重新分类), as data.

    Called when the sides select their forces (开场阶段 1) and by the bots pricing the picks;
    not firstresult: every add-on's models are offered after the shipped table's, under the
    same budget and class limits. A tank of an add-on's model carries its
    :class:`~wargamekit_tank_solo.vehicles.VehicleModel` (``Tank.custom``), so every rule and
    odds function uses its figures. A key must not repeat a shipped model's or another
    add-on's; scenario files may preset only shipped models.

    Returns:
        The add-on's models, or ``None`` for none.
    """
