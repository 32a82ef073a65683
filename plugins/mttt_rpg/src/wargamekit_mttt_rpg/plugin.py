"""Entry-point module: registers the ruleset and the hooks it publishes with the wargamekit plugin host."""

import pluggy

from wargamekit import hookimpl

from .ruleset import MtttRpg


@hookimpl
def wargamekit_rulesets():
    """The MTTT RPG combat scene."""
    return [MtttRpg()]


@hookimpl
def wargamekit_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    """Publish mttt_rpg's hooks (:mod:`wargamekit_mttt_rpg.hookspecs`) for add-ons."""
    from . import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


from .rl import wargamekit_observation_encoder  # noqa: E402, F401 - the RL encoder hook
