"""Hooks the LnL ruleset publishes for add-on plugins (registered via ``wargamekit_add_hookspecs``).

Each is called for every attack in games created with a plugin manager; all non-``None``
results are added up. They must be pure functions of their arguments: replays call them again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from wargamekit_lnl.state import GameState, Place, Unit

hookspec = pluggy.HookspecMarker("wargamekit")


@hookspec
def lnl_fire_modifier(state: GameState, firers: list[Unit], place: Place) -> int | None:
    """An extra DRM added to the attacker's total of a small-arms attack (FPR 1)."""


@hookspec
def lnl_melee_modifier(state: GameState, attackers: list[Unit], defenders: list[Unit]) -> int | None:
    """An extra DRM added to a melee attack's 2D6 (MEL 7)."""


@hookspec
def lnl_damage_check_modifier(state: GameState, unit: Unit) -> int | None:
    """An extra amount added to ``unit``'s damage-check value (FPR 4; positive is worse for it)."""
