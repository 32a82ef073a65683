"""Entry-point module: registers the ruleset with the wargamekit plugin host."""

from wargamekit import hookimpl


@hookimpl
def wargamekit_rulesets():
    return []
