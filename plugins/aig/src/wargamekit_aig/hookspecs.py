"""Hooks the AIG ruleset publishes for add-on plugins (registered via ``wargamekit_add_hookspecs``).

Both are called for every volley or shock in games created with a plugin manager
(``ctx.hooks`` is ``None`` otherwise); all results are added up. They must be pure functions of
their arguments: replays call them again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from wargamekit_aig.melee import Shock
    from wargamekit_aig.missile import Shot
    from wargamekit_aig.state import GameState, Unit

hookspec = pluggy.HookspecMarker("wargamekit")


@hookspec
def aig_missile_modifier(state: GameState, firer: Unit, target: Unit, shot: Shot) -> int | None:
    """Return a change to the number a volley needs (§9.1.1; + is easier), or ``None``."""


@hookspec
def aig_shock_modifier(state: GameState, attacker: Unit, defender: Unit, shock: Shock) -> int | None:
    """Return a column shift for a shock (provisional §10; + favours the attacker), or ``None``."""
