"""A plain depth-first enumeration of a dice procedure, for the odds engine's tests.

``brute`` runs a procedure once per combination of faces with plain ints (the old engine, in a
dozen lines): whatever the engine does to avoid branching, its result must be the same.
"""

from __future__ import annotations

import operator
from fractions import Fraction
from typing import Any

from attrs import define, field

from wargamekit.dice import Dice, Die


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


#: the comparisons a random program's ``cmp`` step may make
STEP_OPS = {"<": operator.lt, ">=": operator.ge, "==": operator.eq}


def run_steps(dice, program) -> tuple[str, Any]:
    """Run a random program of dice steps (what the odds tests' hypothesis strategies make), at
    most five steps deep: ``("cmp", sides, op, k, then, else)`` branches on a fresh die against
    ``k``; ``("int", sides)`` forces a die to its face; ``("pair", sides)`` forces two dice
    together; ``("keep", sides)`` adds a die to the total; ``("other", sides, k)`` compares a
    die with ``k`` (a constant of any value or type); ``("drop", sides)`` draws a die and uses
    nothing of it. Returns the labels the steps wrote and the total."""
    labels: list[str] = []
    total: Any = 0
    budget = [0]

    def execute(body):
        nonlocal total
        for step in body:
            budget[0] += 1
            if budget[0] > 5:
                return
            kind, die = step[0], Die(1, step[1])
            if kind == "cmp":
                if STEP_OPS[step[2]](dice.roll(die, "cmp")[0], step[3]):
                    labels.append("y")
                    execute(step[4])
                else:
                    labels.append("n")
                    execute(step[5])
            elif kind == "int":
                labels.append(str(int(dice.roll(die, "int")[0])))
            elif kind == "pair":
                a, b = dice.roll(die, "pair", 2)
                labels.append("s" if a + b > step[1] else "t")
            elif kind == "keep":
                total = total + dice.roll(die, "keep")[0]
            elif kind == "other":
                labels.append("o" if dice.roll(die, "other")[0] >= step[2] else "x")
            elif kind == "drop":
                dice.roll(die, "drop")
            else:
                raise ValueError(f"no step {kind!r}")

    execute(program)
    return "".join(labels), total
