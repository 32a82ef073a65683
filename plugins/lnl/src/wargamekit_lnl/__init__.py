"""Lock 'n Load tactical (v4.1 core rules summary) for wargamekit."""

from wargamekit_lnl.ruleset import LnL

__all__ = ["LnL"]
