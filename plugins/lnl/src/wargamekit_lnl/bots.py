"""Bots: the heuristic :class:`OddsBot` weighs options by exact odds."""

from __future__ import annotations

from wargamekit import Decision, PlayerView, RandomBot
from wargamekit.decisions import Answer


class OddsBot:
    """Placeholder until the heuristic is written: plays at random."""

    def __init__(self, seed: int = 0) -> None:
        self.fallback = RandomBot(seed)

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        return self.fallback.choose(decision, view)
