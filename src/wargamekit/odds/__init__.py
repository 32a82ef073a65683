"""Exact odds of any resolution procedure.

Because resolution procedures draw all chance from a :class:`~wargamekit.dice.Dice`,
:func:`distribution` can run one under an :class:`EnumeratingDice` and return the exact
probability of each outcome as a :class:`~fractions.Fraction`:

>>> def attack_beats_defence(dice):
...     return sum(dice.nd6(2, "attack")) + 1 > dice.d6("defence") + 2
>>> distribution(attack_beats_defence)[True]
Fraction(20, 27)

How it works
------------
Under enumeration a die does not come up as a number but as a :class:`RandomValue`: the whole
distribution of the die, standing in for its face. Arithmetic and comparisons on it build
another ``RandomValue`` and enumerate nothing; dice that are added combine by convolution when
the result is needed. So ``attack_beats_defence`` runs **once**: the ``>`` yields a random
``True``/``False`` whose odds are worked out when the procedure returns it.

Only where Python needs the concrete value — an ``if`` or ``while`` on it, ``and``/``or``/``not``,
``int()``, indexing a list or a table with it, hashing it, formatting it into a string, calling
an ``int`` method — is it *forced*. The engine works out the distribution of that value, the
run goes on with the first one, and the procedure is run again (depth-first) for each other
value. Every die still referenced is kept consistent with the value taken: a die kept after
``if a > 4:`` is 5 or 6 on that branch, not re-drawn. A run is split by the distinct values of
what is forced, not by the faces behind it, so a test of a 2d6 total is 2 branches, not 36:

>>> def reroll_doubles(dice):
...     total = 0
...     for _ in range(3):           # 2d6; on doubles roll again and add, at most twice
...         a, b = dice.nd6(2, "2d6")
...         total += a + b
...         if a != b:               # forced: doubles or not (2 branches, not 36)
...             break
...     return total
>>> dist = distribution(reroll_doubles)  # 4 runs for 1,506 combinations of faces
>>> dist[3], sum(dist.values())
(Fraction(1, 18), Fraction(1, 1))

A success-counting pool is one draw over the multiset of its dice's face classes (66 rows for
ten dice) from which its ``successes``, ``tens`` and ``faces`` are computed. The outcome may be
a plain value, a ``RandomValue``, a tuple of them (its joint distribution is computed directly),
or any hashable object holding die values (hashing it forces them).

What makes a procedure fast or slow
-----------------------------------
* Fast: adding, subtracting, multiplying, comparing and returning die values, however many dice
  (a total of ten d6 rolled one by one is one run, well under a millisecond); reading faces only
  through arithmetic; returning a tuple of die values.
* Each forced value is a branch point, and each branch is a whole run of the procedure.
  Branching on every die one by one (``if dice.d6(...) >= 4`` in a loop) therefore costs one
  run per combination of the forced values. A re-run replays its prefix cheaply: a die that was
  forced alone there (nothing else alive read it, as in ``if dice.d6(...) >= 4``) comes back as
  a plain ``int`` face of the class its branch takes, with no lazy value and no forcing; and a
  die new to the run, drawn where the run before forced one alone by the same comparison with
  a constant, is guessed to be forced the same way (checked: a die used otherwise has its run
  redone lazily). A run costs a few microseconds beyond the procedure itself (over 200,000
  runs a CPU second for six or ten dice each branched on). Still, compute a total and test the total once, rather than testing each die.
* Forcing a value that other live die values depend on lays out the combinations of their dice;
  keep such sets small (a handful of dice), or drop the values you no longer need.
* A die value is not an ``int`` subclass: ``isinstance(value, int)`` is ``False`` (though on a
  re-run a die replayed as above is a plain ``int``, and a guessed one is neither: never steer a
  procedure by the type of a die value). Code that needs real ints can use ``operator.index(value)`` (a forced value), or run with
  ``distribution(..., lazy=False)``, which hands out plain faces and runs the procedure once per
  combination of faces (the way every procedure was enumerated before).

The procedure must be a pure function of its arguments and the dice: that is exactly what the
resolution half of a rule is (see "Resolution is separate from application" in the design). A
procedure that takes another course when re-run is refused with :class:`ImpureProcedureError`.

The branch limit
----------------
``branch_limit`` (a million by default) bounds the work: a branch is one outcome of one run
(a run returning a 2d6 total is 11 branches), and no table the engine builds may exceed it
either. Tables are refused *before* they are built, and a procedure still running after a second
whose total is projected (from the share of branch points explored so far) to exceed the limit
is refused then — never after minutes; so is a run that keeps branching without end (``while
dice.d6(...) != 6``):

>>> distribution(lambda dice: tuple(dice.nd6(10, "faces")))
Traceback (most recent call last):
...
wargamekit.errors.BranchLimitError: '<lambda>' has more than 1000000 dice branches (a joint table of 60466176 rows); raise branch_limit or simplify the procedure

For plain sums of identical dice there is also :func:`sum_distribution` (numpy convolution),
and :func:`compare` for ``P(a > b)`` of two such sums.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from math import comb, lcm, prod
from time import perf_counter
from typing import Any, TypeVar

import numpy as np
from attrs import define, field, frozen

from ..dice import D6, D10_ZERO, D20, Dice, Die, PoolRoll, _pool_classes, _pool_face_classes
from ..errors import BranchLimitError as BranchLimitError  # re-exported: the odds' own errors
from ..errors import ImpureProcedureError as ImpureProcedureError
from ._engine import (
    _END,
    _FRESH,
    _MISSING,
    _NONE_YET,
    PROJECTION_AFTER_S,
    RandomValue,
    World,
    _apply,
    _Guess,
    _LeafTable,
    _Missed,
    _Node,
    _tuple_of,
)

__all__ = [
    "DiceSum",
    "compare",
    "EnumeratingDice",
    "RandomValue",
    "SumDistribution",
    "distribution",
    "expectation",
    "probability",
    "sum_distribution",
]

T = TypeVar("T", bound=Hashable)

DEFAULT_BRANCH_LIMIT = 1_000_000

_DIE_TABLES: dict[int, tuple[Die, _LeafTable]] = {}  # by id(die), the die kept for the check
_FACE_TABLES: dict[tuple[int, int], _LeafTable] = {}
_POOL_TABLES: dict[tuple[int, int, int | None], _LeafTable] = {}


def _die_table(die: Die) -> _LeafTable:
    # By identity: hashing a frozen Die costs more than the rest of a draw.
    known = _DIE_TABLES.get(id(die))
    if known is not None and known[0] is die:
        return known[1]
    key = (die.low, die.high)
    table = _FACE_TABLES.get(key)
    if table is None:
        faces = die.faces
        table = _FACE_TABLES[key] = _LeafTable(faces, [1] * len(faces))
    if len(_DIE_TABLES) < 256:  # module-level dice (D6 …); a die made per call is not kept
        _DIE_TABLES[id(die)] = (die, table)
    return table


_D6_TABLE = _die_table(D6)
_D10_TABLE = _die_table(D10_ZERO)
_D20_TABLE = _die_table(D20)


def _pool_table(n: int, target: int, double_at: int | None) -> _LeafTable:
    """The faces of an ``n``-die pool as a multiset of face classes (sorted representative
    faces), weighted by the number of ways of rolling each: 66 rows for 10 dice."""
    key = (n, target, double_at)
    table = _POOL_TABLES.get(key)
    if table is None:
        faces = _pool_face_classes(target, double_at)
        values, weights = [], []
        for counts in _compositions(n, len(faces)):
            weight, left = 1, n
            for (_face, ways), k in zip(faces, counts, strict=True):
                weight *= comb(left, k) * ways**k
                left -= k
            values.append(sum(((face,) * k for (face, _ways), k in zip(faces, counts, strict=True)), ()))
            weights.append(weight)
        table = _POOL_TABLES[key] = _LeafTable(values, weights)
    return table


def _die_method(table: _LeafTable, plain: Callable[[Dice, str], int], doc: str) -> Callable[..., Any]:
    """``EnumeratingDice.d6`` and the like: one die of ``table``, drawn where the world says.

    Hot: a re-run of a procedure draws every die again, and most of them are faces on the
    world's tape (see "Re-runs replay their prefix" in ``_engine``), handed out here without a
    call into the world, and so is the usual fresh die past the tape, a guess (about one a run
    when every die is branched on); anything else goes to :meth:`World.leaf`."""

    def die(self: EnumeratingDice, purpose: str) -> Any:
        world = self.world
        entry = next(world.feed, _END)
        if entry[1] is table:  # (a fresh draw's entry has no table)
            return entry[0]
        if entry is _END and world.guessing and self.lazy:
            tape = world.tape
            draw = len(tape)
            spec = world.specs.get(draw)
            if spec is not None and spec[0] is table:
                # World.leaf_from's guess, inline (keep them in step).
                tape.append(_FRESH)
                world.denominator *= total
                world.scale *= total  # until forced: the die's faces all count
                guess = new_guess(_Guess)
                guess._state = [world, world.run, draw, spec, _MISSING]
                return guess
        return world.leaf_from(entry, table, purpose) if self.lazy else plain(self, purpose)

    total = table.total
    new_guess = _Guess.__new__

    die.__doc__ = doc
    return die


@define
class EnumeratingDice(Dice):
    """The dice service :func:`distribution` runs a procedure with; a user rarely builds one.

    In lazy mode (the default) every face is a :class:`RandomValue`; with ``lazy=False`` every
    face is a plain ``int`` and each die drawn is a branch (the procedure is re-run for every
    combination of faces). Either way ``path`` forces the alternative taken at each branch point
    (depth-first order) and :attr:`trail` records ``(index taken, alternatives)`` for each. Draws
    are not recorded as :class:`~wargamekit.dice.Roll` objects (``rolls`` stays empty).
    """

    path: list[int] = field(factory=list)
    lazy: bool = field(default=True, kw_only=True)
    branch_limit: int = field(default=DEFAULT_BRANCH_LIMIT, kw_only=True)
    name: str = field(default="procedure", kw_only=True)
    #: the run before and the depth this one's path bumps (its prefix is replayed from it)
    prior: tuple[World, int] | None = field(default=None, kw_only=True, repr=False)
    world: World = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self.world = World(self.path, branch_limit=self.branch_limit, name=self.name, prior=self.prior)

    @property
    def trail(self) -> list[tuple[int, int]]:
        """``(index taken, number of alternatives)`` at each branch point of this run."""
        return self.world.trail

    def _pick(self, weights: Sequence[int], purpose: str, forced_kind: str) -> int:
        return self.world.draw(weights, purpose)

    # The common dice straight to the world (hot: see _die_method).
    d6 = _die_method(_D6_TABLE, Dice.d6, "One six-sided die (lazy).")
    d10 = _die_method(_D10_TABLE, Dice.d10, "One ten-sided die read 0–9 (lazy).")
    d20 = _die_method(_D20_TABLE, Dice.d20, "One twenty-sided die (lazy).")

    def roll(self, die: Die, purpose: str, n: int = 1) -> tuple[Any, ...]:
        """Roll ``n`` of ``die``: lazy values (or, with ``lazy=False``, one branch per face)."""
        if n < 0:
            raise ValueError(f"{purpose}: cannot roll a negative number of dice ({n})")
        world = self.world
        if self.lazy:
            table = _die_table(die)
            if n == 1:
                return (world.leaf(table, purpose),)
            return tuple([world.leaf(table, purpose) for _ in range(n)])
        sides = die.high - die.low + 1
        return tuple(die.low + world.draw_uniform(sides, purpose) for _ in range(n))

    def pool(
        self, n: int, purpose: str, *, target: int = 7, double_at: int | None = 10
    ) -> PoolRoll:
        """A success-counting pool: one lazy draw over the multiset of face classes."""
        if not self.lazy:
            return super().pool(n, purpose, target=target, double_at=double_at)
        if n < 0:
            raise ValueError(f"{purpose}: cannot roll a pool of {n} dice")
        _pool_classes(target, double_at)  # validates
        faces = self.world.leaf(_pool_table(n, target, double_at), purpose)

        def successes(values: tuple[int, ...]) -> int:
            return sum(2 if double_at is not None and f >= double_at else 1 if f >= target else 0
                       for f in values)

        return PoolRoll(
            successes=_apply(successes, (faces,)),
            faces=tuple(_apply(operator.itemgetter(i), (faces,)) for i in range(n)),
            tens=_apply(_count_tens, (faces,)),
        )

    def _pool_faces(
        self,
        n: int,
        purpose: str,
        target: int,
        double_at: int | None,
        classes: tuple[int, int, int],
    ) -> tuple[int, ...]:
        table = _pool_table(n, target, double_at)
        row: tuple[int, ...] = table.rows[self.world.draw(table.weights, purpose)][0]  # type: ignore[assignment]
        return row


def _count_tens(faces: tuple[int, ...]) -> int:
    return faces.count(10)


def _compositions(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to split ``n`` dice among ``parts`` classes, in lexicographic order."""
    if parts == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, parts - 1):
            yield (first, *rest)


def _outcome_node(world: World, outcome: Any, name: str) -> Any:
    """The outcome as a node over the run's lazy values, or as a plain hashable value."""
    kind = type(outcome)
    if kind is RandomValue:
        resolved = _apply(_identity, (outcome,))  # a pinned value comes back plain
        return resolved._node if type(resolved) is RandomValue else resolved
    if kind is tuple:
        if _NESTED.isdisjoint(map(type, outcome)):  # one pass in C: hot, once per run
            return _hashed(outcome, name)  # no lazy value: hashed whole (parts in order)
        parts = [_outcome_node(world, part, name) for part in outcome]
        nodes = [p for p in parts if type(p) is _Node]
        if not nodes:
            return tuple(parts)
        return _Node(world._id(), _tuple_of, tuple(parts), frozenset().union(*(p.leaves for p in nodes)))
    return _hashed(outcome, name)


_NESTED = frozenset((RandomValue, tuple))  # parts of a tuple outcome that are laid out one by one


def _hashed(outcome: Any, name: str) -> Any:
    """``outcome`` once hashed: an object holding die values resolves them here, as branch points."""
    try:
        hash(outcome)
    except TypeError:
        raise TypeError(
            f"{name!r} returned {outcome!r}, which is not hashable; return a tuple or a frozen value"
        ) from None
    return outcome


def _identity(value: Any) -> Any:
    return value


def distribution(
    procedure: Callable[..., T],
    /,
    *args: Any,
    branch_limit: int = DEFAULT_BRANCH_LIMIT,
    lazy: bool = True,
    **kwargs: Any,
) -> dict[T, Fraction]:
    """Exact probability of every outcome of ``procedure(dice, *args, **kwargs)``.

    Args:
        procedure: a callable whose first argument is the dice service; it must draw all chance
            from it and return a hashable outcome.
        branch_limit: refuse (with :class:`BranchLimitError`) a procedure with more branches
            than this. A branch is one outcome of one run of the procedure (a run returning a
            die total of 2..12 is 11 branches); an alternative of weight 0 is not a branch. A
            table built while evaluating may not exceed it either (refused before it is built),
            and a procedure still running after a second whose projected total exceeds it is
            refused then.
        lazy: ``False`` hands the procedure plain ``int`` faces and re-runs it for every
            combination of faces (for code that needs real ints, e.g. ``isinstance`` checks).

    Returns:
        Outcomes mapped to exact probabilities, which sum to 1; sorted by outcome where the
        outcomes can be ordered.
    """
    name = getattr(procedure, "__name__", repr(procedure))
    per_denominator: dict[int, dict[Any, int]] = {}
    path: list[int] = []
    branches = 0
    start = perf_counter()
    dice = EnumeratingDice(path, lazy=lazy, branch_limit=branch_limit, name=name)
    dice.world.start = start
    # The explicit branch points of the run before this one, and the depth this one bumps
    # (what a redo needs: the world of the run before may be this run's, reused).
    explicit_before: list[int] | None = None
    bumped = -1
    runs = missed = 0
    guessing = True
    arguments = bool(args or kwargs)
    while True:
        world = dice.world
        world.branches_before = branches  # (its start is the first world's)
        runs += 1
        try:
            try:
                # (A call with no arguments to unpack: it is made once per run.)
                returned: Any = procedure(dice, *args, **kwargs) if arguments else procedure(dice)
            except TypeError as exc:
                if lazy:
                    exc.add_note(
                        f"(under exact enumeration die values are RandomValues, not ints; if "
                        f"{name!r} needs real ints, pass lazy=False to distribution)"
                    )
                raise
            if type(returned) is tuple and world.refs is _NONE_YET:
                # The common case of a branching procedure, inline: a tuple outcome from a run
                # that made no lazy value (so no group either: its weight is the run's scale),
                # hashed whole.
                outcome: Any = returned
                try:
                    hash(outcome)
                except TypeError:
                    _hashed(outcome, name)  # raises the clear error
                weights = None
                weight = world.scale
                denominator = world.denominator
            else:
                if type(returned) is tuple and _NESTED.isdisjoint(map(type, returned)):
                    # _outcome_node's common case, inline: a tuple with no lazy value in it.
                    outcome = returned
                    try:
                        hash(outcome)
                    except TypeError:
                        _hashed(outcome, name)  # raises the clear error
                else:
                    outcome = _outcome_node(world, returned, name)
                if type(outcome) is _Node:
                    weights, denominator = world.outcome(outcome)
                else:
                    weights = None
                    weight = world.scale
                    if world.groups:
                        weight *= prod(g.total for g in world.groups)
                    denominator = world.denominator
        except _Missed as miss:
            if miss.world is not world:
                raise  # an outer enumeration's guess: that enumeration redoes its run
            # A guessed die was used otherwise: redo this run with lazy dice only, and stop
            # guessing where guesses keep missing (they cost a run each time).
            world.specs.pop(miss.draw, None)
            missed += 1
            if missed > 16 and missed * 8 > runs:
                guessing = False
            assert explicit_before is not None  # (never the first run: it has no guess)
            dice.world = world.redo(explicit_before, bumped)
            continue
        finally:
            world.active = False
        acc = per_denominator.get(denominator)
        if weights is None:  # one plain outcome (the common case of a branching procedure)
            if acc is None:
                per_denominator[denominator] = {outcome: weight}
            else:
                acc[outcome] = acc.get(outcome, 0) + weight
            branches += 1
        else:
            if acc is None:
                per_denominator[denominator] = weights  # a fresh dict: World.outcome builds it
            else:
                for value, weight in weights.items():
                    acc[value] = acc.get(value, 0) + weight
            branches += len(weights)
        if branches > branch_limit:
            raise world.refuse()
        # Advance to the next path: bump the deepest branch point that still has alternatives.
        trail = world.trail
        depth = len(trail) - 1
        while depth >= 0 and trail[depth][0] + 1 >= trail[depth][1]:
            depth -= 1
        if depth < 0:
            break
        if not runs & 63 and perf_counter() - start > PROJECTION_AFTER_S:  # (the clock: now and then)
            world.project(branches)
        # The same dice service for the next run, on a new world that replays this one's prefix
        # and takes the next alternative at ``depth`` (its trail is the path taken).
        explicit_before, bumped = world.explicit, depth
        dice.world = world.next_run(depth, guessing)
    common = lcm(*per_denominator)
    if len(per_denominator) == 1:
        (totals,) = per_denominator.values()
    else:
        totals = {}
        for denominator, acc in per_denominator.items():
            factor = common // denominator
            for value, weight in acc.items():
                totals[value] = totals.get(value, 0) + weight * factor
    # Outcomes often share a weight (every face of a die): one Fraction per distinct weight.
    fractions = {weight: Fraction(weight, common) for weight in set(totals.values())}
    if len(fractions) == 1:
        result = dict.fromkeys(totals, fractions.popitem()[1])
    else:
        result = {value: fractions[weight] for value, weight in totals.items()}
    try:
        return dict(sorted(result.items()))
    except TypeError:
        return result


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


# The public classes live in the engine module; they are documented (and named in tracebacks)
# here, where users import them from.
for _cls in (RandomValue,):
    _cls.__module__ = __name__
