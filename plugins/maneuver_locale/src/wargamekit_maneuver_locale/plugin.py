"""Entry-point module: registers the ruleset and the hooks it publishes with the wargamekit plugin host."""

import pluggy

from wargamekit import hookimpl

from .ruleset import ManeuverLocale


@hookimpl
def wargamekit_rulesets():
    """The locale/approach ruleset."""
    return [ManeuverLocale()]


@hookimpl
def wargamekit_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    """Publish maneuver_locale's hooks (:mod:`wargamekit_maneuver_locale.hookspecs`) for add-ons."""
    from . import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


from .rl import wargamekit_observation_encoder  # noqa: E402, F401 - the RL encoder hook
