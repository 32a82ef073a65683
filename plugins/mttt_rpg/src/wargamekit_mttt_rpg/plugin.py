"""Entry-point module: registers the ruleset with the wargamekit plugin host."""

from wargamekit import hookimpl

from .ruleset import MtttRpg


@hookimpl
def wargamekit_rulesets():
    """The MTTT RPG combat scene."""
    return [MtttRpg()]
