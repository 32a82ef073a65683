"""Entry-point module: registers the ruleset and the hooks it publishes with the wargamekit plugin host."""

import pluggy

from wargamekit import hookimpl

from .ruleset import TankSolo


@hookimpl
def wargamekit_rulesets():
    """The tank_solo ruleset."""
    return [TankSolo()]


@hookimpl
def wargamekit_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    """Publish tank_solo's hooks (:mod:`wargamekit_tank_solo.hookspecs`) for add-ons."""
    from . import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


from .rl import wargamekit_observation_encoder  # noqa: E402, F401 - the RL encoder hook
