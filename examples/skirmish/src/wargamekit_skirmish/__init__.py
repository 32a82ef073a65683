"""wargamekit-skirmish: a one-page hex skirmish, the example ruleset of the plugin tutorial.

The rules are in ``examples/skirmish/README.md``; each module is one section of them.
"""

from wargamekit_skirmish.ruleset import Skirmish

__all__ = ["Skirmish"]
