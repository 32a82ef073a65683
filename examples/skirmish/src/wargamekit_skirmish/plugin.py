"""Entry-point module: registers the ruleset (and its hookspecs) with the wargamekit plugin host."""

from __future__ import annotations

import pluggy

from wargamekit import Ruleset, hookimpl


@hookimpl
def wargamekit_rulesets() -> list[Ruleset]:
    from wargamekit_skirmish.ruleset import Skirmish

    return [Skirmish()]


@hookimpl
def wargamekit_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    from wargamekit_skirmish import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


from wargamekit_skirmish.rl import wargamekit_observation_encoder  # noqa: E402, F401 - the RL encoder hook
