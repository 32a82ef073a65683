"""AIG兵棋 for wargamekit: ancient battles of the Great Battles of History family."""

from wargamekit_aig.ruleset import Aig

__all__ = ["Aig"]
