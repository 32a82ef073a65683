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
from attrs import frozen

from .events import Event

if TYPE_CHECKING:
    from .ruleset import Ruleset

__all__ = [
    "ObservedGame",
    "hookspec",
    "wargamekit_add_hookspecs",
    "wargamekit_event",
    "wargamekit_game_statistics",
    "wargamekit_observation_encoder",
    "wargamekit_rulesets",
]

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


@frozen
class ObservedGame:
    """What an observer is told about a game: a read-only record with no path to the live
    :class:`~wargamekit.game.Game` (an observer cannot change the game it watches, so a save
    replays the same whoever watched).

    Attributes:
        ruleset: the ruleset's name.
        ruleset_version: its version.
        scenario_name: the bundled scenario's name, or ``None``.
        seed: the dice seed.
        log: every event so far, the new one last, as copies (changing one changes nothing).
    """

    ruleset: str
    ruleset_version: str
    scenario_name: str | None
    seed: int
    log: tuple[Event, ...]

    def visible_log(self, side: str | None) -> tuple[Event, ...]:
        """The events ``side`` may see (``None``: all of them)."""
        return tuple(e for e in self.log if e.visible_to(side))


@hookspec
def wargamekit_event(game: ObservedGame, event: Event) -> None:
    """Observe every event appended to a game's log, once.

    Called for games whose plugin manager holds the observer (observers are add-ons: ask for
    them like any other, see :doc:`/hooks`). The events an answer causes are told only once
    the answer stands (after the ruleset accepted it), so an observer never sees the events of a
    rejected choice; replays (load, undo, fork, the rebuild after a rejected choice, the save
    viewer stepping through a game inside :meth:`Game.silently <wargamekit.game.Game.silently>`)
    are silent, so each event of the game is seen exactly once, when it is played.

    An observer is told everything (secret events included: it is the host's plugin, like a
    log writer), but only as values: it never receives the live game, so it cannot change it.
    An observer implements no other hook and is not recorded in saves.

    :param game: a read-only record of the game so far (:class:`ObservedGame`).
    :param event: the new event (a copy; it is also ``game.log[-1]``).
    """


# -------------------------------------------------------------------------------------------
# Statistics
# -------------------------------------------------------------------------------------------


@hookspec
def wargamekit_game_statistics(ruleset: Ruleset, state: Any, outcome: Any) -> dict[str, Any] | None:
    """Report a finished game's own statistics, for balance studies (:mod:`wargamekit.simulate`).

    Called once per finished game of a study, with the final (all-seeing) state. A ruleset's
    plugin module implements it next to ``wargamekit_rulesets``; it answers ``None`` for
    games of rulesets it does not know (check ``ruleset.name``). Every implementation's mapping
    is merged (a later plugin's key wins) and each key becomes a column ``stat_<key>`` of the
    study's results, so keep the keys stable and the values plain scalars (``int``, ``float``,
    ``bool``, ``str``): tanks lost per side, turns in which a rule fired, and so on.

    Implementing it is optional: a ruleset without it still gets every other column.

    :param ruleset: the ruleset the game was played with.
    :param state: the final game state.
    :param outcome: the game's :class:`~wargamekit.events.Outcome`.
    :returns: a mapping of statistic name to scalar, or ``None``.
    """


# -------------------------------------------------------------------------------------------
# Reinforcement learning
# -------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def wargamekit_observation_encoder(ruleset: Ruleset) -> Any:
    """Provide the encoder of ``ruleset``'s player views into numpy arrays, for
    :mod:`wargamekit.rl` (every ruleset's PettingZoo environment).

    A ruleset's plugin module implements it (conventionally in a small module ``rl.py`` of the
    plugin, imported into the plugin module) and answers ``None`` for rulesets it does not
    know (check ``ruleset.name``); the first answer that is not ``None`` is used. A ruleset
    without one gets :class:`wargamekit.rl.GenericEncoder`.

    The encoder only ever receives the side's :class:`~wargamekit.view.PlayerView` (the
    ruleset's redacted :meth:`~wargamekit.ruleset.Ruleset.view` of the state, the side's log,
    its pending decision), never the state, so an observation cannot hold what the side may
    not see. Its contract and the observation layout are in :mod:`wargamekit.rl` and
    :doc:`/rl`.

    Implementing it is optional, and it cannot change a game: an add-on implementing only this
    hook is not recorded in saves.

    :param ruleset: the ruleset an environment is being built for.
    :returns: a :class:`wargamekit.rl.ObservationEncoder`, or ``None``.
    """


def _all() -> list[Any]:  # pragma: no cover - helper for docs
    return [wargamekit_rulesets, wargamekit_add_hookspecs, wargamekit_event, wargamekit_game_statistics,
            wargamekit_observation_encoder]
