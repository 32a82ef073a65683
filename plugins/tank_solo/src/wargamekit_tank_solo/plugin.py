"""Entry-point module: registers the ruleset with the wargamekit plugin host."""

from wargamekit import hookimpl

from .ruleset import TankSolo


@hookimpl
def wargamekit_rulesets():
    """The tank_solo ruleset."""
    return [TankSolo()]
