"""Every hook of the ``wargamekit`` plugin host, in one place (like pytest's ``hookspec.py``).

A plugin module (the object an entry point in the group ``wargamekit`` names) implements any of
these with the :data:`wargamekit.hookimpl` marker::

    from wargamekit import hookimpl

    @hookimpl
    def wargamekit_rulesets():
        return [MyRuleset()]

The core names no plugin: bundled rulesets register exactly as third-party ones do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from .events import Event
    from .game import Game
    from .ruleset import Ruleset

hookspec = pluggy.HookspecMarker("wargamekit")

# -------------------------------------------------------------------------------------------
# Registration
# -------------------------------------------------------------------------------------------


@hookspec
def wargamekit_rulesets() -> list[Ruleset]:
    """Return the rulesets this plugin provides.

    Called whenever the host collects rulesets (:func:`~wargamekit.plugins.rulesets_of`;
    :func:`~wargamekit.plugins.installed_rulesets` does it once and caches the result). Every
    implementation's list is collected; two rulesets with the same name are an error.

    :returns: a list of :class:`~wargamekit.ruleset.Ruleset` instances (may be empty).
    """
    raise NotImplementedError


@hookspec(historic=True)
def wargamekit_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    """Register a ruleset's own hookspecs, so add-on plugins can extend that ruleset.

    Called (historically, so late registrations still see it) with the plugin manager.
    Implement it as ``pluginmanager.add_hookspecs(my_hookspecs_module)``; the ruleset then calls
    ``game.hooks.my_hook(...)`` during play.

    :param pluginmanager: the wargamekit plugin manager.
    """


# -------------------------------------------------------------------------------------------
# Observation
# -------------------------------------------------------------------------------------------


@hookspec
def wargamekit_event(game: Game, event: Event) -> None:
    """Observe every event appended to a game's log, once.

    Called for games created with a ``plugin_manager``. The events an answer causes are told
    only once the answer stands (after the ruleset accepted it), so an observer never sees the
    events of a rejected choice; replays (load, undo, fork, the rebuild after a rejected choice)
    are silent, so each event of the game is seen exactly once. Observers must not change the
    game: the log is the truth and a replay must not depend on who watched.

    :param game: the game.
    :param event: the new event.
    """


def _all() -> list[Any]:  # pragma: no cover - helper for docs
    return [wargamekit_rulesets, wargamekit_add_hookspecs, wargamekit_event]
