"""Entry-point module: registers the ruleset with the wargamekit plugin host."""

from wargamekit import hookimpl

from .ruleset import ManeuverLocale


@hookimpl
def wargamekit_rulesets():
    """The locale/approach ruleset."""
    return [ManeuverLocale()]
