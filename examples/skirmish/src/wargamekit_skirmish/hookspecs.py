"""Hooks the skirmish ruleset publishes for add-on plugins (registered via ``wargamekit_add_hookspecs``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from wargamekit_skirmish.fire import Shot
    from wargamekit_skirmish.state import SkirmishState, Unit

hookspec = pluggy.HookspecMarker("wargamekit")


@hookspec
def skirmish_fire_modifier(state: SkirmishState, firer: Unit, target: Unit, shot: Shot) -> int | None:
    """Return an extra modifier for a shot about to be resolved (5.2), or ``None`` for none.

    Called for every shot in games created with a plugin manager; all results are added up.
    Must be a pure function of its arguments: replays call it again.
    """
