"""A plain depth-first enumeration of a dice procedure, for the odds engine's tests.

``brute`` runs a procedure once per combination of faces with plain ints (the old engine, in a
dozen lines): whatever the engine does to avoid branching, its result must be the same.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from attrs import define, field

from wargamekit.dice import Dice


@define
class PathDice(Dice):
    """Plain dice that take the alternatives named by ``path`` and record every draw."""

    path: list[int] = field(factory=list)
    trail: list[tuple[int, list[int]]] = field(factory=list)

    def _pick(self, weights, purpose, forced_kind):
        depth = len(self.trail)
        index = self.path[depth] if depth < len(self.path) else 0
        self.trail.append((index, list(weights)))
        return index


def brute(procedure, *args) -> dict[Any, Fraction]:
    """Every combination of faces, one run each, depth-first (no lazy values, no guesses)."""
    totals: dict[Any, Fraction] = {}
    path: list[int] = []
    while True:
        dice = PathDice(path=list(path))
        outcome = procedure(dice, *args)
        p = Fraction(1)
        for index, weights in dice.trail:
            p *= Fraction(weights[index], sum(weights))
        if p:
            totals[outcome] = totals.get(outcome, Fraction(0)) + p
        depth = len(dice.trail) - 1
        while depth >= 0 and dice.trail[depth][0] + 1 >= len(dice.trail[depth][1]):
            depth -= 1
        if depth < 0:
            return totals
        path = [index for index, _ in dice.trail[:depth]] + [dice.trail[depth][0] + 1]
