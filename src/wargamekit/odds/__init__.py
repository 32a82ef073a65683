"""Exact odds of any resolution procedure.

Because resolution procedures draw all chance from a :class:`~wargamekit.dice.Dice`,
:func:`distribution` can run one under an :class:`EnumeratingDice` that walks every branch of
every draw, and return the exact probability of each outcome as a :class:`~fractions.Fraction`.

>>> def two_d6_plus_one_beats_d6_plus_two(dice):
...     return sum(dice.nd6(2, "attack")) + 1 > dice.d6("defence") + 2
>>> distribution(two_d6_plus_one_beats_d6_plus_two)[True]
Fraction(20, 27)

The procedure is re-run once per branch (depth-first, the last draw varied first), so it must
be a pure function of its arguments and the dice: that is exactly what the resolution half of a
rule is (see "Resolution is separate from application" in the design). A procedure that
branches too much is refused with :class:`BranchLimitError` instead of running forever.

For plain sums of dice there is a much faster path, :func:`sum_distribution`, which uses numpy
convolution.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from math import comb
from typing import Any, TypeVar

import numpy as np
from attrs import define, field, frozen

from .dice import D6, Dice, Die, _pool_face_classes

__all__ = [
    "BranchLimitError",
    "DiceSum",
    "compare",
    "EnumeratingDice",
    "SumDistribution",
    "distribution",
    "expectation",
    "probability",
    "sum_distribution",
]

T = TypeVar("T", bound=Hashable)

DEFAULT_BRANCH_LIMIT = 1_000_000


class BranchLimitError(RuntimeError):
    """Enumeration was stopped because the procedure has more branches than allowed."""


@define
class EnumeratingDice(Dice):
    """A dice service that follows a forced path of draw indices, recording the alternatives.

    Used by :func:`distribution`; a user rarely builds one directly.
    """

    path: list[int] = field(factory=list)
    #: for each draw on the current run: (chosen index, weights)
    trail: list[tuple[int, Sequence[int]]] = field(factory=list, init=False)

    def _pick(self, weights: Sequence[int], purpose: str, forced_kind: str) -> int:
        depth = len(self.trail)
        if depth < len(self.path):
            index = self.path[depth]
            if index >= len(weights) or weights[index] <= 0:
                raise ValueError(
                    f"{purpose}: the procedure drew other dice when run again; it must be a "
                    "pure function of its arguments and the dice"
                )
        else:
            first = _next_branch(-1, weights)
            if first is None:
                raise ValueError(f"{purpose}: every outcome of this draw has weight 0")
            index = first
        self.trail.append((index, weights))
        return index

    def _pool_faces(
        self,
        n: int,
        purpose: str,
        target: int,
        double_at: int | None,
        classes: tuple[int, int, int],
    ) -> tuple[int, ...]:
        faces = _pool_face_classes(target, double_at)
        options = list(_compositions(n, len(faces)))
        weights = []
        for counts in options:
            weight, left = 1, n
            for (_face, ways), k in zip(faces, counts, strict=True):
                weight *= comb(left, k) * ways**k
                left -= k
            weights.append(weight)
        counts = options[self._pick(weights, purpose, f"pool({n})")]
        return sum(((face,) * k for (face, _ways), k in zip(faces, counts, strict=True)), ())


def _next_branch(index: int, weights: Sequence[int]) -> int | None:
    """The first alternative after ``index`` that can happen (zero weights are no branch)."""
    return next((i for i in range(index + 1, len(weights)) if weights[i] > 0), None)


def _compositions(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to split ``n`` dice among ``parts`` classes, in lexicographic order."""
    if parts == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, parts - 1):
            yield (first, *rest)


def distribution(
    procedure: Callable[..., T],
    /,
    *args: Any,
    branch_limit: int = DEFAULT_BRANCH_LIMIT,
    **kwargs: Any,
) -> dict[T, Fraction]:
    """Exact probability of every outcome of ``procedure(dice, *args, **kwargs)``.

    Args:
        procedure: a callable whose first argument is the dice service; it must draw all chance
            from it and return a hashable outcome.
        branch_limit: refuse (with :class:`BranchLimitError`) a procedure with more branches
            than this; a branch is one run of the procedure, and an alternative of weight 0 is
            not a branch.

    Returns:
        Outcomes mapped to exact probabilities, which sum to 1; sorted by outcome where the
        outcomes can be ordered.
    """
    totals: dict[T, Fraction] = {}
    path: list[int] = []
    branches = 0
    while True:
        dice = EnumeratingDice(path=list(path))
        outcome = procedure(dice, *args, **kwargs)
        branches += 1
        if branches > branch_limit:
            raise BranchLimitError(
                f"{getattr(procedure, '__name__', procedure)!r} has more than {branch_limit} "
                "dice branches; raise branch_limit or simplify the procedure"
            )
        probability = Fraction(1)
        for index, weights in dice.trail:
            probability *= Fraction(weights[index], sum(weights))
        try:
            totals[outcome] = totals.get(outcome, Fraction(0)) + probability
        except TypeError:
            raise TypeError(
                f"{getattr(procedure, '__name__', procedure)!r} returned {outcome!r}, which is "
                "not hashable; return a tuple or a frozen value"
            ) from None
        # Advance to the next path: bump the deepest draw that still has alternatives.
        trail = dice.trail
        depth = len(trail) - 1
        while depth >= 0 and _next_branch(*trail[depth]) is None:
            depth -= 1
        if depth < 0:
            break
        path = [index for index, _ in trail[:depth]] + [_next_branch(*trail[depth])]  # type: ignore[list-item]
    try:
        return dict(sorted(totals.items()))  # type: ignore[type-var]
    except TypeError:
        return totals


def probability(
    procedure: Callable[..., Any], /, *args: Any, where: Callable[[Any], bool] = bool, **kwargs: Any
) -> Fraction:
    """Exact probability that ``where(outcome)`` holds (by default: the outcome is truthy)."""
    return sum(
        (p for outcome, p in distribution(procedure, *args, **kwargs).items() if where(outcome)),
        Fraction(0),
    )


def expectation(dist: Mapping[Any, Fraction], value: Callable[[Any], Any] = lambda x: x) -> Fraction:
    """Exact expected ``value(outcome)`` over a distribution."""
    return sum((Fraction(value(o)) * p for o, p in dist.items()), Fraction(0))


class SumDistribution(Mapping[int, Fraction]):
    """An exact distribution of totals, kept as integer counts (probabilities are made on access).

    A read-only mapping total → :class:`~fractions.Fraction`; building it costs one convolution,
    not one ``Fraction`` per total.
    """

    __slots__ = ("low", "counts", "_total")

    def __init__(self, low: int, counts: np.ndarray) -> None:
        self.low = low
        self.counts = counts
        self._total: int | None = None

    @property
    def total(self) -> int:
        """The number of equally likely dice results (the common denominator)."""
        if self._total is None:
            self._total = int(self.counts.sum())
        return self._total

    def __getitem__(self, value: int) -> Fraction:
        # Like a dict keyed by int: 7.0 finds 7; 7.5 or "7" is simply absent (``in`` and
        # ``get`` rely on KeyError, not numpy's IndexError for a fractional index).
        try:
            whole = int(value)
        except (TypeError, ValueError, OverflowError):
            raise KeyError(value) from None
        index = whole - self.low
        if whole != value or not 0 <= index < len(self.counts) or not self.counts[index]:
            raise KeyError(value)
        return Fraction(int(self.counts[index]), self.total)

    def __iter__(self) -> Iterator[int]:
        return (self.low + i for i, c in enumerate(self.counts) if c)

    def __len__(self) -> int:
        return int(np.count_nonzero(self.counts))

    def __repr__(self) -> str:
        return f"SumDistribution({dict(self.items())!r})"


def sum_distribution(n: int, die: Die = D6, *, modifier: int = 0) -> SumDistribution:
    """Exact distribution of the sum of ``n`` identical dice plus ``modifier``, by convolution.

    >>> sum_distribution(2)[7]
    Fraction(1, 6)
    >>> sum(sum_distribution(3).values())
    Fraction(1, 1)
    """
    low, counts = DiceSum(n, die, modifier).counts()
    return SumDistribution(low, counts)


@frozen
class DiceSum:
    """A plain dice expression: ``n`` identical dice plus a modifier (``2d6+1``).

    >>> DiceSum(2, Die(1, 6), 1)
    DiceSum(n=2, die=Die(low=1, high=6), modifier=1)
    """

    n: int
    die: Die = Die(1, 6)
    modifier: int = 0

    def counts(self) -> tuple[int, np.ndarray]:
        """``(lowest total, integer ways of each total from there up)``, by convolution."""
        if self.n < 0:
            raise ValueError(f"cannot sum a negative number of dice ({self.n})")
        sides = self.die.high - self.die.low + 1
        # int64 is exact while sides**n fits; past that fall back to Python integers.
        dtype: Any = np.int64 if sides**self.n < 2**62 else object
        counts = face = np.ones(sides, dtype=dtype)
        if self.n == 0:
            counts = np.ones(1, dtype=dtype)
        for _ in range(self.n - 1):
            counts = np.convolve(counts, face)
        return self.n * self.die.low + self.modifier, counts


def compare(a: DiceSum, b: DiceSum) -> Fraction:
    """Exact ``P(a > b)`` for two independent dice sums, by convolution.

    >>> compare(DiceSum(2, modifier=1), DiceSum(1, modifier=2))
    Fraction(20, 27)
    """
    low_a, ways_a = a.counts()
    low_b, ways_b = b.counts()
    # below[k] = ways for b to total strictly less than low_a + k
    cumulative = np.concatenate(([0], np.cumsum(ways_b)))
    targets = np.arange(low_a, low_a + len(ways_a)) - low_b
    below = cumulative[np.clip(targets, 0, len(ways_b))]
    favourable = int(np.dot(ways_a.astype(object), below.astype(object)))
    return Fraction(favourable, int(ways_a.sum()) * int(ways_b.sum()))
