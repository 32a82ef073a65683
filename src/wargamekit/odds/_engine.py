"""The engine behind :func:`wargamekit.odds.distribution`: lazy die values over a factored world.

A run of the procedure happens in a :class:`World`. Each die drawn is a *leaf*: a random variable
with integer weights, stored as a *group* (a table of rows and integer weights; a fresh die is a
group of one column). What the procedure computes from die values is a :class:`RandomValue`
wrapping an expression *node* over leaves; nothing is enumerated when it is built.

Only a question whose answer steers Python (``bool``, ``int``, indexing, hashing, formatting …)
*forces* a value. Forcing evaluates the node's distribution given the world (variable elimination
over the groups it touches: independent parts combine by convolution, shared groups are joined),
picks one value per run — the run is a branch, and the other values are run later, depth-first —
pins the node to it and conditions the world:

* when no other live value depends on the node's dice (tracked with weak references to every
  :class:`RandomValue` handed out), the groups are folded into the run's weight and dropped;
* otherwise the groups that live values still depend on are merged into one group holding only
  the rows consistent with the forced value (columns nothing alive depends on are summed out).

At the end the outcome (a value, a tuple of values, or any hashable object) is evaluated the
same way, so one run can stand for thousands of dice combinations. Weights stay integers; a run
carries one integer denominator (the product of the totals of the dice it drew).

Re-runs replay their prefix cheaply. The next run repeats the last one up to the deepest branch
point it bumps (depth ``d``), so the last run's record says how that prefix went: which draws
were dice forced on the common path (one die nothing else read: ``if dice.d6(...) >= 4``), at
which depth, and which face stands for each of their forced values (its *fates*, in the order
of their depths). A re-run hands such a draw out as a plain face of the class its path takes at
that depth (the die is dead once forced, so no other face could ever be told apart): the faces
wait on a *tape* indexed by draw number, and the weights of the whole replayed prefix are two
products carried in the fates, so a replayed draw costs one list lookup. The other branch
points up to ``d`` are forced again as usual, at the depths they had. The next run takes over
the last one's trail, fates and tape, cut after ``d`` (the last run is over).

Past the prefix, a re-run of a procedure that branches on every die meets one fresh die per
branch, which the lazy path (a value, its node and group, a comparison node, the liveness check)
would cost several times the rest of the run. So each die forced alone by ``die OP constant``
leaves a *spec* under its draw number; a later run that draws a fresh die of the same kind there
hands out a :class:`_Guess` instead: it settles when the same operation comes, at that moment,
with the same values in the same order as forcing would (the runs and the result are the same),
and anything else done with it raises :class:`_Missed`, upon which
:func:`~wargamekit.odds.distribution` redoes the run without guessing (and stops guessing where
guesses keep missing).
"""

from __future__ import annotations

import itertools
import operator
import weakref
from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import product
from math import prod
from operator import length_hint
from time import perf_counter
from types import MappingProxyType
from typing import Any

from ..errors import BranchLimitError, ImpureProcedureError
from ..memo import remember

__all__ = ["RandomValue", "World"]


class _Node:
    """An expression over leaves. A leaf has ``fn is None`` and ``args`` its leaf id."""

    __slots__ = ("nid", "fn", "args", "leaves")

    def __init__(self, nid: int, fn: Callable[..., Any] | None, args: Any, leaves: frozenset[int]) -> None:
        self.nid = nid
        self.fn = fn
        self.args = args
        self.leaves = leaves


class _Group:
    """A joint table over some leaves: ``rows[i]`` (a value per column) has weight ``weights[i]``.

    Never mutated once built (fresh dice share their rows); conditioning builds a new group.
    """

    __slots__ = ("gid", "cols", "rows", "weights", "total", "_first", "_margs")

    def __init__(self, gid: int, cols: tuple[int, ...], rows: Sequence[tuple[Any, ...]],
                 weights: Sequence[int], total: int, first: dict[Any, int] | None = None) -> None:
        self.gid = gid
        self.cols = cols
        self.rows = rows
        self.weights = weights
        self.total = total
        self._first = first  # the marginal of column 0, when known (a fresh die's)
        self._margs: dict[int, dict[Any, int]] | None = None

    def marginal(self, col: int) -> dict[Any, int]:
        """Value → summed weight of one column."""
        if col == 0 and self._first is not None:
            return self._first
        if self._margs is None:
            self._margs = {}
        marg = self._margs.get(col)
        if marg is None:
            marg = {}
            for row, weight in zip(self.rows, self.weights, strict=True):
                value = row[col]
                marg[value] = marg.get(value, 0) + weight
            self._margs[col] = marg
        return marg


_EMPTY: frozenset[Any] = frozenset()
_ONE_DIE: dict[tuple[Any, ...], tuple[dict[Any, int], _OneDie]] = {}
_ONE_DIE_KEPT = 4096
_MISSING = object()
#: A tape entry for a draw handed out fresh (its table ``None``: no die's, so the dice service
#: tells a taped face by one identity check)
_FRESH: tuple[Any, None] = (_MISSING, None)
#: What the feed of a tape gives past its end (a fresh draw with a new draw number)
_END: tuple[Any, None] = (_MISSING, None)
#: The empty, read-only stand-in for a world's lazy bookkeeping before its first lazy value (a
#: write to it fails loudly rather than leak into another world).
_NONE_YET: Any = MappingProxyType({})
_NO_AGAIN: Any = ()  # no branch point forced as a lazy value (read-only: replaced to add one)

# A table is (groups, data): with no groups, data maps value -> weight; otherwise it maps
# (row index per group, value) -> weight, and the weights exclude those groups' own row weights.
_Table = tuple[tuple[_Group, ...], dict[Any, int]]


def _gid(group: _Group) -> int:
    return group.gid


def _tuple_of(*values: Any) -> tuple[Any, ...]:
    return values


def _append(values: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
    return (*values, value)


_SERIALS = itertools.count()


#: What a run learned about one die forced alone (see "Re-runs replay their prefix" above):
#: (its depth, its draw number, the tape entry ``(face, table)`` standing for each forced
#: value (made once per force, not per re-run), each value's weight, the draw's table, and the
#: product of the weights and of the totals of the fates before it in the run).
_Fate = tuple[int, int, list[tuple[Any, "_LeafTable"]], list[int], "_LeafTable", int, int]


class World:
    """The state of one run of a procedure under enumeration (see the module docstring).

    ``prior`` is the run before and the depth this run's path bumps (its last index): the
    prefix up to there is replayed from that run's record. With a prior, ``path`` may be
    ``None``: the run then takes the next alternative at that depth (what
    :func:`~wargamekit.odds.distribution` does, without building a path per run).
    """

    # Slots: a world's attributes are read on every draw and force.
    __slots__ = (
        "run",
        "path", "trail", "feed", "draw_of", "fates", "tape", "fscale", "fden", "monotone",
        "specs", "guessing",
        "explicit", "again", "branch_limit", "name", "active", "groups", "where", "purposes",
        "pins", "refs", "scale", "denominator", "_next", "start", "serial", "branches_before",
        "depth",
    )

    def __init__(self, path: Sequence[int] | None, *, branch_limit: int, name: str,
                 prior: tuple[World, int] | None = None, guessing: bool = True) -> None:
        self.guessing = guessing  # hand out a _Guess for a fresh die with a spec
        #: depths of the branch points forced as lazy values (a list from the first one)
        self.explicit: list[int] = _NO_AGAIN
        self.branch_limit = branch_limit
        self.name = name
        self.active = True
        #: which run of this world is under way (a world whose run made no lazy value is
        #: reused for the next run: see :meth:`next_run`; a guess checks it was made in this one)
        self.run = 0
        # The lazy values' bookkeeping starts empty and read-only, shared by every world: most
        # re-runs of a branching procedure make no lazy value (see _begin_lazy).
        self.draw_of: dict[int, tuple[int, _LeafTable]] = _NONE_YET  # leaf id -> (draw, table)
        self.groups: dict[_Group, None] = _NONE_YET  # live groups, in creation order
        self.where: dict[int, _Group] = _NONE_YET  # leaf id -> its group
        self.purposes: dict[int, str] = _NONE_YET  # leaf id -> purpose of the draw
        self.pins: dict[int, Any] = _NONE_YET  # node id -> forced value
        self.refs: list[weakref.ref[RandomValue]] = _NONE_YET  # every lazy value handed out
        self._next = 0
        # A nested enumeration's worlds are newer. (A module-level counter: writing a class
        # attribute would invalidate the interpreter's attribute caches for World every run.)
        self.serial = next(_SERIALS)
        self.branches_before = 0  # branches of the runs before this one
        self.depth = -1
        if prior is None:
            self.path: Sequence[int] = path or ()
            self.start = perf_counter()  # of the whole enumeration
            self.trail: list[tuple[int, int]] = []
            #: depths (reversed) of the prior's other branch points (popped only while any)
            self.again: list[int] = _NO_AGAIN
            #: the dice forced alone, in the order of their depths (the record a re-run replays)
            self.fates: list[_Fate] = []
            #: per draw number, ``(face, table)`` to hand out as a plain face, or :data:`_FRESH`
            #: for a fresh lazy die; extended as the run draws, and kept as the next run's tape
            self.tape: list[tuple[Any, _LeafTable | None]] = []
            #: the run's draws, in order, take their entries from this iterator over the tape
            #: (a draw's number is its place in the run's sequence of draws)
            self.feed: Iterator[tuple[Any, _LeafTable | None]] = iter(self.tape)
            self.fscale = self.fden = self.scale = self.denominator = 1
            self.monotone = True  # the fates' draw numbers rise with their depths
            #: per draw number, how the last run that drew a fresh die there forced it alone
            #: (``die OP constant``): shared by the runs of one enumeration
            self.specs: dict[int, _Spec] = {}
        else:
            before, depth = prior
            self.start = before.start
            taken, count = before.trail[depth]
            self.trail = trail = before.trail[:depth]
            trail.append((taken + 1 if path is None else path[depth], count))
            # Past ``depth`` the trail is new: the path has nothing more to say.
            self.path = ()
            explicit = before.explicit
            self.again = [d for d in reversed(explicit) if d <= depth] if explicit else _NO_AGAIN
            self.specs = before.specs
            self._replay(before, depth)

    def _blank(self, guessing: bool) -> World:
        """A world for another run of this enumeration, with nothing drawn yet."""
        world = World.__new__(World)
        world.guessing = guessing
        world.explicit = _NO_AGAIN
        world.branch_limit = self.branch_limit
        world.name = self.name
        world.active = True
        world.run = 0
        world.draw_of = world.groups = world.where = world.purposes = world.pins = _NONE_YET
        world.refs = _NONE_YET
        world._next = 0
        world.serial = next(_SERIALS)
        world.branches_before = 0
        world.depth = -1
        world.start = self.start
        world.path = ()
        world.specs = self.specs
        return world

    def next_run(self, bumped: int, guessing: bool) -> World:
        """The world of the next run, taking the next alternative at depth ``bumped``.

        This run must be over: the next one takes over its trail, fates and tape, cut after
        ``bumped`` (``World(None, prior=(self, bumped), ...)`` copies them). A run that made no
        lazy value (the usual re-run of a branching procedure) leaves nothing that reads its
        world but its guesses, which check :attr:`run`: the next run is then this same world,
        reset (this is called once per run). After a :class:`_Missed`, :meth:`redo` starts that
        run again."""
        trail = self.trail
        taken, count = trail[bumped]
        taken += 1
        del trail[bumped + 1:]
        trail[bumped] = (taken, count)
        explicit = self.explicit
        again = [d for d in reversed(explicit) if d <= bumped] if explicit else _NO_AGAIN
        if self.refs is _NONE_YET and self.monotone:
            # This world again: its trail, fates and tape are already the next run's.
            world = self
            world.run += 1
            world.guessing = guessing
            world.active = True
            world.depth = -1
            if world.path:
                world.path = ()
            world.again = again
            world.explicit = _NO_AGAIN
        else:
            world = self._blank(guessing)
            world.trail = trail
            world.again = again
            if not self.monotone:
                world._replay(self, bumped)
                return world
            world.fates = self.fates
            world.tape = self.tape
            world.monotone = True
        # _replay's usual case, in place (the last run is over): the fates deeper than
        # ``bumped`` are dropped, the tape is cut after the last kept one, and if that one is
        # the bumped die it takes its next class.
        fates = world.fates
        if bumped < len(fates) and fates[bumped][0] == bumped:
            # Every branch point up to ``bumped`` is a die forced alone (depths rise by one).
            j = bumped + 1
        else:
            j = len(fates)
            while j and fates[j - 1][0] > bumped:
                j -= 1
        if j < len(fates):
            fscale, fden = fates[j][5], fates[j][6]  # the products before the first one dropped
            del fates[j:]
        else:
            fscale, fden = self.fscale, self.fden
        if j:
            depth, draw, entries, weights, table, before_scale, before_den = fates[-1]
            tape = world.tape
            if depth == bumped:
                fscale = before_scale * weights[taken]
                fden = before_den * table.total
                tape[draw] = entries[taken]
            del tape[draw + 1:]
        else:
            world.tape.clear()
        world.fscale = world.scale = fscale
        world.fden = world.denominator = fden
        world.feed = iter(world.tape)
        return world

    def redo(self, explicit: list[int], bumped: int) -> World:
        """This run (the next after a run whose explicit branch points were ``explicit``,
        bumping depth ``bumped``) from its start again, with no guess. Its trail up to
        ``bumped`` and its fates up to there are as they began (a run only adds after them)."""
        world = self._blank(False)
        world.trail = self.trail[:bumped + 1]
        world.again = [d for d in reversed(explicit) if d <= bumped] if explicit else _NO_AGAIN
        world._replay(self, bumped)
        return world

    def _replay(self, before: World, bumped: int) -> None:
        """Take over ``before``'s fates up to depth ``bumped`` as this run's tape and weights."""
        fates = before.fates
        j = len(fates)
        while j and fates[j - 1][0] > bumped:
            j -= 1
        kept = fates[:j]  # the records are the same; only the bumped one's class changes
        if j and kept[-1][0] == bumped:
            _, draw, entries, weights, table, fscale, fden = kept[-1]
            index = self.trail[bumped][0]
            scale, den = fscale * weights[index], fden * table.total
            bumped_entry: tuple[Any, _LeafTable] | None = entries[index]
        else:
            scale, den = (fates[j][5], fates[j][6]) if j < len(fates) else (before.fscale, before.fden)
            bumped_entry = None
        self.fates = kept
        self.fscale = self.scale = scale
        self.fden = self.denominator = den
        if before.monotone:
            # The kept fates are the first draws that were forced alone: the tape before, cut
            # after the last of them, already holds their faces (all but the bumped one's).
            self.monotone = True
            tape = before.tape[:kept[-1][1] + 1] if kept else []
            if bumped_entry is not None:
                tape[kept[-1][1]] = bumped_entry
        else:
            self.monotone = all(a[1] < b[1] for a, b in itertools.pairwise(kept))
            tape = [_FRESH] * (max(f[1] for f in kept) + 1) if kept else []
            trail = self.trail
            for depth, draw, entries, _, _, _, _ in kept:
                tape[draw] = entries[trail[depth][0]]
        self.tape = tape
        self.feed = iter(tape)

    # -- building ----------------------------------------------------------------------------
    def _id(self) -> int:
        self._next += 1
        return self._next

    def wrap(self, node: _Node) -> RandomValue:
        value = RandomValue.__new__(RandomValue)
        value._node = node
        value._world = self
        self.refs.append(weakref.ref(value))
        return value

    def _begin_lazy(self) -> None:
        """The bookkeeping of lazy values, for the run's first one (every lazy value comes from
        a leaf, so nothing writes to it before)."""
        self.draw_of = {}
        self.groups = {}
        self.where = {}
        self.purposes = {}
        self.pins = {}
        self.refs = []

    def leaf(self, table: _LeafTable, purpose: str) -> Any:
        """A fresh die (or any weighted draw) as a lazy value — or, replaying the prefix, the
        plain face standing for the value it is forced to there (see the module docstring).

        The dice service hands out a taped face itself (the hot path of a re-run); this is the
        general form."""
        return self.leaf_from(next(self.feed, _END), table, purpose)

    def leaf_from(self, entry: tuple[Any, _LeafTable | None], table: _LeafTable, purpose: str) -> Any:
        """:meth:`leaf`, the draw's tape entry already taken from :attr:`feed` (``_END`` past
        the tape's end)."""
        tape = self.tape
        if entry is not _END:
            if entry is not _FRESH:
                if entry[1] is not table:
                    raise ImpureProcedureError(
                        f"{purpose}: the procedure drew other dice when run again; it must be a "
                        "pure function of its arguments and the dice"
                    )
                return entry[0]
            # Within the tape, which grows only past its end: its length less what is left.
            draw = len(tape) - length_hint(self.feed) - 1
        else:
            draw = len(tape)  # past the end (the feed is spent): the tape grows by one a draw
            tape.append(_FRESH)
            if self.guessing:
                spec = self.specs.get(draw)
                if spec is not None and spec[0] is table:
                    # Guess the die is forced alone as in the run before (checked as it goes).
                    self.denominator *= table.total
                    self.scale *= table.total  # until forced: the die's faces all count
                    guess = _Guess.__new__(_Guess)
                    guess._state = [self, self.run, draw, spec, _MISSING]
                    return guess
        if self.groups is _NONE_YET:
            self._begin_lazy()
        self._next += 3
        lid = self._next - 2  # the leaf, its group and its node take three fresh ids
        group = _Group(lid + 1, (lid,), table.rows, table.weights, table.total, table.marginal)
        self.groups[group] = None
        self.where[lid] = group
        self.purposes[lid] = purpose
        self.draw_of[lid] = (draw, table)
        self.denominator *= table.total
        return self.wrap(_Node(lid + 2, None, lid, frozenset((lid,))))

    def draw(self, weights: Sequence[int], purpose: str) -> int:
        """A concrete index into ``weights`` (each alternative of positive weight is a branch)."""
        alternatives = [i for i, w in enumerate(weights) if w > 0]
        if not alternatives:
            raise ValueError(f"{purpose}: every outcome of this draw has weight 0")
        index = alternatives[self._choose(len(alternatives), purpose)]
        self.scale *= weights[index]
        self.denominator *= sum(weights)
        return index

    def draw_uniform(self, count: int, purpose: str) -> int:
        """A concrete index in ``range(count)``, all equally likely (one branch each)."""
        self.denominator *= count
        return self._choose(count, purpose)

    def _choose(self, count: int, purpose: str, *, alone: bool = False) -> int:
        """The alternative this run takes at its next branch point (``alone``: a die forced
        alone, whose depth goes in its fate rather than in :attr:`explicit`)."""
        if self.again:
            # A branch point of the replayed prefix, at the depth it had in the run before.
            depth = self.again.pop()
            index, known = self.trail[depth]
            if count != known:
                raise ImpureProcedureError(
                    f"{purpose}: the procedure drew other dice when run again; it must be a "
                    "pure function of its arguments and the dice"
                )
            self.depth = depth
            if self.explicit is _NO_AGAIN:
                self.explicit = []
            self.explicit.append(depth)
            return index
        depth = len(self.trail)
        if depth < len(self.path):
            index = self.path[depth]
            if index >= count:
                raise ImpureProcedureError(
                    f"{purpose}: the procedure drew other dice when run again; it must be a "
                    "pure function of its arguments and the dice"
                )
        else:
            index = 0
            if depth & 1023 == 1023 and perf_counter() - self.start > PROJECTION_AFTER_S:
                # A run this deep and this slow (``while dice.d6(...) != 6``) may never end.
                self.project(self.branches_before)
        self.trail.append((index, count))
        self.depth = depth
        if not alone:
            if self.explicit is _NO_AGAIN:
                self.explicit = []
            self.explicit.append(depth)
        return index

    def project(self, branches: int) -> None:
        """Refuse now if the branches so far, over the share of the tree explored along the
        current trail (siblings assumed alike), project past the limit."""
        explored, share = 0.0, 1.0
        for index, count in self.trail:
            explored += share * index / count
            share /= count
        explored += share
        # ``share`` underflows to 0 on a trail thousands deep: that projects past any limit.
        projected = max(branches, 1) / explored if explored > 0 else float("inf")
        if projected > self.branch_limit:
            elapsed = perf_counter() - self.start
            raise self.refuse(f" (about {projected:.2g} projected after {elapsed:.1f} s)")

    def refuse(self, detail: str = "") -> BranchLimitError:
        return BranchLimitError(
            f"{self.name!r} has more than {self.branch_limit} dice branches{detail}; raise "
            "branch_limit or simplify the procedure"
        )

    # -- forcing -----------------------------------------------------------------------------
    def force(self, handle: RandomValue) -> Any:
        """Pick the value ``handle`` has on this branch and condition the world on it."""
        node = handle._node
        if not self.active:
            raise ValueError(
                "a die value was used after its procedure returned (or in another run); "
                "resolve it inside the procedure"
            )
        pins = self.pins
        alive = []
        readers = []  # the nodes of the other live, unforced values
        for ref in self.refs:
            other = ref()
            if other is None:
                continue
            alive.append(ref)
            if other is not handle and other._node.nid not in pins:
                readers.append(other._node.leaves)
        self.refs = alive
        if len(node.leaves) == 1:
            # The common case, ``if dice.d6(...) >= 4``: one die that nothing else alive reads.
            (lid,) = node.leaves
            group = self.where[lid]
            if len(group.cols) == 1 and group in self.groups:
                for leaves in readers:
                    if lid in leaves:
                        break
                else:
                    return self._force_alone(node, lid, group)
        return self._force_joint(node, handle, readers)

    def _force_alone(self, node: _Node, lid: int, group: _Group) -> Any:
        """Force ``node``, a function of the one die ``lid`` that nothing else alive reads."""
        values, faces, weights, how = self._one_die(node, lid, group.marginal(0))
        # A fresh die's group (not one conditioned by an earlier force) can be replayed.
        draw = self.draw_of.get(lid) if group._first is not None else None
        index = self._choose(len(faces), self.purposes[lid], alone=draw is not None)
        value = values[index]
        self.scale *= weights[index]
        del self.groups[group]
        self.pins[node.nid] = value
        if draw is not None:
            # Nothing can read this die again: a re-run may hand out a face instead.
            number, table = draw
            entries = [(face, table) for face in faces]
            fates = self.fates
            if fates and fates[-1][1] >= number:
                self.monotone = False
            fates.append((self.depth, number, entries, weights, table, self.fscale, self.fden))
            self.fscale *= weights[index]
            self.fden *= table.total
            self.tape[number] = entries[index]
            if how is not None:
                # ``die OP constant``: the next run drawing this die may guess the same.
                op, side, kind, constant = how
                self.specs[number] = (table, _GUESSED.get((op, side)), side, kind, constant, values,
                                      entries, weights, (0, len(faces)), entries[0], weights[0],
                                      values[0], table.total)
        return value

    def _force_joint(self, node: _Node, handle: RandomValue, readers: list[frozenset[int]]) -> Any:
        """Force ``node`` in general: lay out (or join) the groups it touches."""
        pins = self.pins
        others: set[int] = set().union(*readers)
        gmemo: dict[int, frozenset[_Group]] = {}
        touched = self._groups_of(node, gmemo)
        keep = frozenset(g for g in touched if not others.isdisjoint(g.cols))
        purpose = self.purposes[min(node.leaves)] if node.leaves else "a forced value"
        if keep and prod(len(g.rows) for g in touched) <= _SMALL:
            # Small enough to lay out every combination: one pass over the rows, no joins.
            group = _product(sorted(touched, key=_gid), self)
            at = {lid: i for i, lid in enumerate(group.cols)}
            row_values = list(map(self._compile(node, at), group.rows))
            values = list(dict.fromkeys(row_values))
            value = values[self._choose(len(values), purpose)]
            cols = [i for i, lid in enumerate(group.cols) if lid in others]
            merged: dict[tuple[Any, ...], int] = {}
            for row, weight, v in zip(group.rows, group.weights, row_values, strict=True):
                if v is value or v == value:  # ``is`` first: a NaN is its own value
                    row = tuple(row[i] for i in cols)
                    merged[row] = merged.get(row, 0) + weight
            self._add(tuple(group.cols[i] for i in cols), merged)
            for g in touched:
                self.groups.pop(g, None)
            pins[node.nid] = value
            return value
        groups, data = self.joint(node, keep, gmemo)
        if not groups:
            values = list(data)
            value = values[self._choose(len(values), purpose)]
            self.scale *= data[value]
        else:
            values = list(dict.fromkeys(v for _, v in data))
            value = values[self._choose(len(values), purpose)]
            self._merge(groups, data, value, others)
        for group in touched:
            self.groups.pop(group, None)
        pins[node.nid] = value
        return value

    def _one_die(self, node: _Node, lid: int, marginal: dict[Any, int]) -> _OneDie:
        """The distribution of ``node``, a function of the one die ``lid`` (its marginal given):
        its values, a face of the die giving each and each value's weight, in the same order,
        and for ``die OP constant`` (a :class:`_Guess` can check) ``(OP, side, type, constant)``.

        ``die OP constant`` is memoised by die table (it recurs in every run): ``if
        dice.d6(...) >= 4`` costs a dict lookup after the first time.
        """
        args = node.args
        key = None
        if node.fn is not None and len(args) == 2:
            a, b = args
            if type(a) is _Node and a.fn is None and a.nid not in self.pins and type(b) is not _Node:
                key = (node.fn, 0, type(b), b, id(marginal))
            elif type(b) is _Node and b.fn is None and b.nid not in self.pins and type(a) is not _Node:
                key = (node.fn, 1, type(a), a, id(marginal))
        if key is not None:
            try:
                known = _ONE_DIE.get(key)
            except TypeError:  # an unhashable constant
                key = known = None
            if known is not None and known[0] is marginal:
                return known[1]
        fn = self._compile(node, {lid: 0})
        dist: dict[Any, int] = {}
        face_of: dict[Any, Any] = {}
        for face, w in marginal.items():
            v = fn((face,))
            if v in dist:
                dist[v] += w
            else:
                dist[v] = w
                face_of[v] = face
        found = list(dist), list(face_of.values()), list(dist.values()), key[:4] if key else None
        if key is not None:
            # the marginal kept alive: its id stays its own
            remember(_ONE_DIE, key, (marginal, found), _ONE_DIE_KEPT)
        return found

    def _merge(self, groups: tuple[_Group, ...], data: dict[Any, int], value: Any, others: set[int]) -> None:
        """Replace ``groups`` by one group of the rows consistent with ``value``, keeping only the
        columns a live value still depends on."""
        cols = [(gi, ci, lid) for gi, g in enumerate(groups) for ci, lid in enumerate(g.cols) if lid in others]
        merged: dict[tuple[Any, ...], int] = {}
        for (rows, v), weight in data.items():
            if not (v is value or v == value):
                continue
            for g, r in zip(groups, rows, strict=True):
                weight *= g.weights[r]
            row = tuple(groups[gi].rows[rows[gi]][ci] for gi, ci, _ in cols)
            merged[row] = merged.get(row, 0) + weight
        self._add(tuple(lid for _, _, lid in cols), merged)

    def _add(self, cols: tuple[int, ...], rows: dict[tuple[Any, ...], int]) -> None:
        group = _Group(self._id(), cols, list(rows), list(rows.values()), sum(rows.values()))
        self.groups[group] = None
        for lid in cols:
            self.where[lid] = group

    def _compile(self, node: Any, at: dict[int, int]) -> Callable[[tuple[Any, ...]], Any]:
        """A function giving the value of ``node`` for a row whose columns are the leaves at ``at``."""
        order = self._shared_order(node)
        if order is not None:
            return self._compile_dag(order, at)
        return self._compile_tree(node, at)

    def _shared_order(self, node: Any) -> list[_Node] | None:
        """The op nodes below ``node`` children first, if one of them is reached twice (a
        value used twice, e.g. ``x + x``: nested closures would evaluate it exponentially
        often); ``None`` for a plain tree."""
        seen: set[int] = set()
        order: list[_Node] = []
        shared = False
        stack: list[tuple[_Node, bool]] = [(node, False)]
        while stack:
            current, done = stack.pop()
            if done:
                order.append(current)
                continue
            if current.nid in seen:
                shared = True
                continue
            seen.add(current.nid)
            stack.append((current, True))
            if current.fn is not None and current.nid not in self.pins:
                stack.extend((a, False) for a in current.args if type(a) is _Node)
        return order if shared else None

    def _compile_dag(self, order: list[_Node], at: dict[int, int]) -> Callable[[tuple[Any, ...]], Any]:
        slot = {n.nid: i for i, n in enumerate(order)}
        steps: list[tuple[Any, ...]] = []
        for n in order:
            if n.nid in self.pins:
                steps.append((0, self.pins[n.nid]))
            elif n.fn is None:
                steps.append((1, at[n.args]))
            else:
                steps.append((2, n.fn, [(True, slot[a.nid]) if type(a) is _Node else (False, a) for a in n.args]))

        def run(row: tuple[Any, ...]) -> Any:
            values: list[Any] = []
            for step in steps:
                if step[0] == 0:
                    values.append(step[1])
                elif step[0] == 1:
                    values.append(row[step[1]])
                else:
                    values.append(step[1](*[values[x] if is_slot else x for is_slot, x in step[2]]))
            return values[-1]

        return run

    def _compile_tree(self, node: Any, at: dict[int, int]) -> Callable[[tuple[Any, ...]], Any]:
        if type(node) is not _Node:
            return lambda row: node
        if node.nid in self.pins:
            pinned = self.pins[node.nid]
            return lambda row: pinned
        if node.fn is None:
            return operator.itemgetter(at[node.args])
        fn = node.fn
        args = node.args
        if len(args) == 2:
            a, b = args
            a_leaf = type(a) is _Node and a.fn is None and a.nid not in self.pins
            b_leaf = type(b) is _Node and b.fn is None and b.nid not in self.pins
            if a_leaf and b_leaf:
                i, j = at[a.args], at[b.args]
                return lambda row: fn(row[i], row[j])
            if a_leaf and type(b) is not _Node:
                i = at[a.args]
                return lambda row: fn(row[i], b)
            if b_leaf and type(a) is not _Node:
                j = at[b.args]
                return lambda row: fn(a, row[j])
            fa, fb = self._compile_tree(a, at), self._compile_tree(b, at)
            return lambda row: fn(fa(row), fb(row))
        if len(args) == 1:
            f1 = self._compile_tree(args[0], at)
            return lambda row: fn(f1(row))
        parts = [self._compile_tree(a, at) for a in args]
        return lambda row: fn(*[f(row) for f in parts])

    # -- evaluation --------------------------------------------------------------------------
    def _groups_of(self, node: _Node, memo: dict[int, frozenset[_Group]]) -> frozenset[_Group]:
        found = memo.get(node.nid)
        if found is None:
            if node.nid in self.pins:
                found = _EMPTY
            elif node.fn is None:
                found = frozenset((self.where[node.args],))
            else:
                found = _EMPTY.union(*(self._groups_of(a, memo) for a in node.args if type(a) is _Node))
            memo[node.nid] = found
        return found

    def outcome(self, node: _Node) -> tuple[dict[Any, int], int]:
        """The outcome's weights (scaled by everything else of the run), in a dict of the
        caller's own (``node`` is an op node, whose table is always built afresh), and the
        run's denominator."""
        gmemo: dict[int, frozenset[_Group]] = {}
        touched = self._groups_of(node, gmemo)
        _, data = self.joint(node, _EMPTY, gmemo)
        factor = self.scale * prod(g.total for g in self.groups if g not in touched)
        if factor != 1:
            data = {v: w * factor for v, w in data.items()}
        return data, self.denominator

    def joint(self, node: Any, keep: frozenset[_Group], gmemo: dict[int, frozenset[_Group]],
              jmemo: dict[tuple[int, frozenset[_Group]], _Table] | None = None) -> _Table:
        """The distribution of ``node``, keyed also by the rows of the groups in ``keep``.

        Tables returned may be shared (memoised per call for a node reached twice, or a
        group's marginal): callers build new ones rather than change them.
        """
        if type(node) is not _Node:
            return (), {node: 1}
        nid = node.nid
        if nid in self.pins:
            return (), {self.pins[nid]: 1}
        gs = self._groups_of(node, gmemo)
        here = keep & gs
        if node.fn is None:
            group = self.where[node.args]
            col = group.cols.index(node.args)
            if group in here:
                return (group,), {((r,), row[col]): 1 for r, row in enumerate(group.rows)}
            return (), group.marginal(col)
        if len(gs) == 1:
            # Within one group: evaluate row by row (no joins).
            (group,) = gs
            at = {lid: i for i, lid in enumerate(group.cols)}
            values = map(self._compile(node, at), group.rows)
            out: dict[Any, int] = {}
            if group in here:
                for r, v in enumerate(values):
                    out[((r,), v)] = 1
                return (group,), out
            for v, weight in zip(values, group.weights, strict=True):
                out[v] = out.get(v, 0) + weight
            return (), out
        if jmemo is None:
            jmemo = {}
        memo_key = (nid, here)
        known = jmemo.get(memo_key)
        if known is not None:  # a value used twice in one expression (x + x)
            return known
        args = node.args
        child_gs = [self._groups_of(a, gmemo) if type(a) is _Node else _EMPTY for a in args]
        if len(args) == 2:
            shared = child_gs[0] & child_gs[1]
        elif len(args) == 1:
            shared = _EMPTY
        else:
            seen: set[_Group] = set()
            common: set[_Group] = set()
            for cg in child_gs:
                common |= seen & cg
                seen |= cg
            shared = frozenset(common)
        inner = here | shared
        tables = [self.joint(a, inner & cg, gmemo, jmemo) for a, cg in zip(args, child_gs, strict=True)]
        fn = node.fn
        if len(args) == 1:
            table = _map(tables[0], fn)
        elif len(args) == 2:
            table = _join(tables[0], tables[1], fn, self)
        elif not any(groups for groups, _ in tables):
            # Independent parts (e.g. the faces of a tuple outcome): a flat product.
            size = prod(len(data) for _, data in tables)
            if size > self.branch_limit:
                raise self.refuse(f" (a joint table of {size} rows)")
            datas = [data for _, data in tables]
            keys = product(*datas)  # distinct parts: every combination is its own key
            weight_sets = [set(data.values()) for data in datas]
            if all(len(ws) == 1 for ws in weight_sets):  # e.g. fair dice: one weight for all
                acc = dict.fromkeys(keys, prod(ws.pop() for ws in weight_sets))
            else:
                acc = dict(zip(keys, map(prod, product(*[data.values() for data in datas])), strict=True))
            table = ((), acc) if fn is _tuple_of else _map(((), acc), lambda values: fn(*values))
        else:
            table = _map(tables[0], _tuple_of)
            for other in tables[1:]:
                table = _join(table, other, _append, self)
            table = _map(table, lambda values: fn(*values))
        table = _eliminate(table, here)
        jmemo[memo_key] = table
        return table


#: after this many seconds, a procedure projected to exceed its branch limit is refused
PROJECTION_AFTER_S = 1.0
_SMALL = 4096  # a forced value over at most this many combinations is laid out flat


def _product(groups: Sequence[_Group], world: World) -> _Group:
    """One group holding every combination of the rows of ``groups``."""
    if len(groups) == 1:
        return groups[0]
    rows: list[tuple[Any, ...]] = [()]
    weights = [1]
    for group in groups:
        rows = [row + extra for row in rows for extra in group.rows]
        weights = [w * x for w in weights for x in group.weights]
    cols = tuple(lid for g in groups for lid in g.cols)
    return _Group(world._id(), cols, rows, weights, prod(g.total for g in groups))


def _map(table: _Table, fn: Callable[[Any], Any]) -> _Table:
    groups, data = table
    out: dict[Any, int] = {}
    if not groups:
        for v, w in data.items():
            v = fn(v)
            out[v] = out.get(v, 0) + w
    else:
        for (k, v), w in data.items():
            key = (k, fn(v))
            out[key] = out.get(key, 0) + w
    return groups, out


def _join(a: _Table, b: _Table, fn: Callable[[Any, Any], Any], world: World) -> _Table:
    ga, ta = a
    gb, tb = b
    if len(ta) * len(tb) > world.branch_limit:
        raise world.refuse(f" (a joint table of {len(ta) * len(tb)} rows)")
    out: dict[Any, int] = {}
    if not ga and not gb:
        if fn is operator.add:
            for va, wa in ta.items():
                for vb, wb in tb.items():
                    v = va + vb
                    out[v] = out.get(v, 0) + wa * wb
        else:
            for va, wa in ta.items():
                for vb, wb in tb.items():
                    v = fn(va, vb)
                    out[v] = out.get(v, 0) + wa * wb
        return (), out
    items_a = ta.items() if ga else [(((), v), w) for v, w in ta.items()]
    items_b = tb.items() if gb else [(((), v), w) for v, w in tb.items()]
    groups = tuple(sorted(set(ga) | set(gb), key=_gid))
    pos_a = {g: i for i, g in enumerate(ga)}
    pos_b = {g: i for i, g in enumerate(gb)}
    common = [g for g in ga if g in pos_b]
    ca = [pos_a[g] for g in common]
    cb = [pos_b[g] for g in common]
    source = [(0, pos_a[g]) if g in pos_a else (1, pos_b[g]) for g in groups]
    buckets: dict[tuple[int, ...], list[tuple[tuple[int, ...], Any, int]]] = {}
    for (kb, vb), wb in items_b:
        buckets.setdefault(tuple(kb[i] for i in cb), []).append((kb, vb, wb))
    for (ka, va), wa in items_a:
        for kb, vb, wb in buckets.get(tuple(ka[i] for i in ca), ()):
            pair = (ka, kb)
            key = (tuple(pair[s][i] for s, i in source), fn(va, vb))
            out[key] = out.get(key, 0) + wa * wb
    return groups, out


def _eliminate(table: _Table, keep: frozenset[_Group]) -> _Table:
    """Sum out the groups of ``table`` not in ``keep`` (their row weights enter the weights)."""
    groups, data = table
    if all(g in keep for g in groups):
        return table
    kept = [i for i, g in enumerate(groups) if g in keep]
    dropped = [(i, g.weights) for i, g in enumerate(groups) if g not in keep]
    out: dict[Any, int] = {}
    for (k, v), w in data.items():
        for i, weights in dropped:
            w *= weights[k[i]]
        key = (tuple(k[i] for i in kept), v) if kept else v
        out[key] = out.get(key, 0) + w
    return tuple(groups[i] for i in kept), out


class _LeafTable:
    """The rows of a fresh draw, shared by every leaf of the same kind."""

    __slots__ = ("rows", "weights", "total", "marginal")

    def __init__(self, values: Sequence[Hashable], weights: Sequence[int]) -> None:
        pairs = [(v, w) for v, w in zip(values, weights, strict=True) if w > 0]
        self.rows = [(v,) for v, _ in pairs]
        self.weights = [w for _, w in pairs]
        self.total = sum(weights)
        marginal: dict[Any, int] = {}
        for v, w in pairs:
            marginal[v] = marginal.get(v, 0) + w
        self.marginal = marginal


# -- guesses -------------------------------------------------------------------------------------
#: A die forced alone by ``die OP constant``: (its table, the guess's method for OP with the die
#: on that side (``None`` if it has none: a guess never settles then), the side of the die (0: left), the
#: constant's type, the constant, and the values, tape entries and weights of the force (as in
#: its :data:`_Fate`); then, for
#: the guess's usual first alternative, its trail entry, tape entry, weight and value, and the
#: table's total).
_Spec = tuple[_LeafTable, Callable[[Any, Any], Any] | None, int, type, Any, list[Any],
              list[tuple[Any, _LeafTable]], list[int],
              tuple[int, int], tuple[Any, _LeafTable], int, Any, int]
_OneDie = tuple[list[Any], list[Any], list[int], tuple[Callable[[Any, Any], Any], int, type, Any] | None]


class _Missed(BaseException):
    """A :class:`_Guess` was used otherwise than guessed: the run is redone without guessing.

    A ``BaseException``, so that a procedure's ``except Exception`` does not swallow it."""

    def __init__(self, world: World, draw: int) -> None:
        super().__init__("a guessed die was used otherwise than guessed")
        self.world = world
        self.draw = draw


class _Guess:
    """A fresh die handed out on the guess that the run forces it alone by the same
    ``die OP constant`` as the run before that drew a die there (the :class:`_Spec`).

    Re-runs of a procedure that branches on every die (``if dice.d6(...) >= 4``) meet a fresh
    die once per branch; forcing it through a :class:`RandomValue` and its expression node,
    group and liveness check costs several times a whole replayed run. The guess settles it
    at once when the guessed operation comes, as :meth:`World._force_alone` would (the same
    branch point at the same moment, the same values in the same order, so the runs and the
    result are the same), and anything else done with it — another operation, hashing, ``int``,
    ``bool`` — raises :class:`_Missed`: :func:`~wargamekit.odds.distribution` then redoes the run
    without guessing. The same comparison again gives the same value; a die never used is
    summed out, as a lazy one would be.
    """

    # One slot: ``__getattr__`` (below) keeps the interpreter from specialising reads of this
    # class's attributes, each of which then costs several times a plain slot's.
    __slots__ = ("_state",)
    #: ``[world, run, draw, spec, value]``: the world and its run the guess was made in (a
    #: world may be reused by the next run), its draw number, its :data:`_Spec`, and the value
    #: it settled on (``_MISSING`` until then)
    _state: list[Any]

    def _settle(self) -> Any:
        state = self._state
        world, run, number, spec, _ = state
        if not world.active or world.run != run:
            raise ValueError(
                "a die value was used after its procedure returned (or in another run); "
                "resolve it inside the procedure"
            )
        if world.again:
            # A branch point of the replayed prefix comes first: its depth is not ours to take.
            raise _Missed(world, number)
        table, _, _, _, _, values, entries, weights = spec[:8]
        trail = world.trail
        depth = len(trail)
        if depth < len(world.path) or depth & 1023 == 1023:
            index = world._choose(len(entries), "a guessed die", alone=True)
        else:  # _choose's usual case, inline: a new branch point, its first alternative
            index = 0
            trail.append((0, len(entries)))
            world.depth = depth
        total = table.total
        world.scale = world.scale // total * weights[index]
        fates = world.fates
        if fates and fates[-1][1] >= number:
            world.monotone = False
        fates.append((world.depth, number, entries, weights, table, world.fscale, world.fden))
        world.fscale *= weights[index]
        world.fden *= total
        world.tape[number] = entries[index]
        state[4] = value = values[index]
        return value

    def _miss(self) -> BaseException:
        world, run, number = self._state[:3]
        if not world.active or world.run != run:
            return ValueError(
                "a die value was used after its procedure returned (or in another run); "
                "resolve it inside the procedure"
            )
        return _Missed(world, number)

    def __bool__(self) -> bool:
        raise self._miss()

    def __index__(self) -> int:
        raise self._miss()

    def __int__(self) -> int:
        raise self._miss()

    def __float__(self) -> float:
        raise self._miss()

    def __complex__(self) -> complex:
        raise self._miss()

    def __hash__(self) -> int:
        raise self._miss()

    def __format__(self, spec: str) -> str:
        raise self._miss()

    def __str__(self) -> str:
        raise self._miss()

    def __repr__(self) -> str:
        value = self._state[4]
        if value is not _MISSING:
            return f"<a die guessed {value!r}>"
        return "<a die under a guess>"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise self._miss()

    def __round__(self, ndigits: int | None = None) -> Any:
        raise self._miss()

    def __neg__(self) -> Any:
        raise self._miss()

    def __pos__(self) -> Any:
        raise self._miss()

    def __abs__(self) -> Any:
        raise self._miss()

    def __invert__(self) -> Any:
        raise self._miss()

    def __trunc__(self) -> Any:
        raise self._miss()

    def __floor__(self) -> Any:
        raise self._miss()

    def __ceil__(self) -> Any:
        raise self._miss()


def _guessed() -> Callable[[_Guess, Any], Any]:
    """A method of :class:`_Guess` for one operation and side of the die (its spec names the
    one it guesses: see :data:`_GUESSED`)."""

    def operation(self: _Guess, other: Any) -> Any:
        state = self._state
        world, run, number, spec, value = state
        # (``spec[1] is operation``: this is the guessed operation, with the die on its side)
        if spec[1] is operation and type(other) is spec[3] and (other is spec[4] or other == spec[4]):
            if value is not _MISSING:
                return value
            trail = world.trail
            depth = len(trail)
            if (not world.active or world.run != run or world.again or world.path
                    or depth & 1023 == 1023):
                return self._settle()
            # _settle's usual case, inline (the hot path of a branching procedure): a new
            # branch point at its first alternative, with the figures the spec has ready.
            trail.append(spec[8])
            world.depth = depth
            world.scale = world.scale // spec[12] * spec[10]
            fates = world.fates
            if fates and fates[-1][1] >= number:
                world.monotone = False
            fates.append((depth, number, spec[6], spec[7], spec[0], world.fscale, world.fden))
            world.fscale *= spec[10]
            world.fden *= spec[12]
            world.tape[number] = spec[9]
            state[4] = value = spec[11]
            return value
        raise self._miss()

    return operation


# -- lazy values ---------------------------------------------------------------------------------
def _apply(fn: Callable[..., Any], args: Sequence[Any]) -> Any:
    """``fn(*args)`` where some args may be lazy: a lazy value, or the plain result if none is."""
    world: World | None = None
    resolved = []
    leaves: frozenset[int] = _EMPTY
    for arg in args:
        if type(arg) is RandomValue:
            node = arg._node
            owner = arg._world
            if node.nid in owner.pins:
                arg = owner.pins[node.nid]
            elif world is None or owner is world:
                world = owner
                arg = node
                leaves = leaves | node.leaves
            else:
                # Values of two enumerations (distribution called inside a procedure): the
                # outer one's value is a constant to the inner one, so it is forced.
                return _apply(fn, [a._value() if type(a) is RandomValue and a._world.serial < max(
                    owner.serial, world.serial) else a for a in args])
        resolved.append(arg)
    if world is None:
        return fn(*resolved)
    if not world.active:
        raise ValueError(
            "a die value was used after its procedure returned (or in another run); resolve it "
            "inside the procedure"
        )
    return world.wrap(_Node(world._id(), fn, tuple(resolved), leaves))


class RandomValue:
    """A die value (or a value computed from die values) under exact enumeration.

    It behaves like the value it stands for: arithmetic and comparisons give another
    :class:`RandomValue` without enumerating anything, and anything that needs the concrete
    value (``if``, ``bool``, ``int``, indexing, hashing, formatting, attribute access) gets it —
    that is where :func:`~wargamekit.odds.distribution` splits the run into branches. It is not
    an ``int`` subclass: use ``operator.index(value)`` rather than ``isinstance(value, int)``.
    """

    __slots__ = ("_node", "_world", "__weakref__")
    _node: _Node
    _world: World

    def _value(self) -> Any:
        pins = self._world.pins
        nid = self._node.nid
        if nid in pins:
            return pins[nid]
        return self._world.force(self)

    def __bool__(self) -> bool:
        return bool(self._value())

    def __index__(self) -> int:
        return operator.index(self._value())

    def __int__(self) -> int:
        return int(self._value())

    def __float__(self) -> float:
        return float(self._value())

    def __complex__(self) -> complex:
        return complex(self._value())

    def __hash__(self) -> int:
        return hash(self._value())

    def __format__(self, spec: str) -> str:
        return format(self._value(), spec)

    def __str__(self) -> str:
        return str(self._value())

    def __repr__(self) -> str:
        pins = self._world.pins
        if self._node.nid in pins:
            return repr(pins[self._node.nid])
        if not self._world.active:
            return "<RandomValue, unresolved>"
        return repr(self._value())

    def __getattr__(self, name: str) -> Any:
        # int methods and attributes (bit_length, real …) read the concrete value; dunder
        # probes (copy, pickle) are not a reason to split the run.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._value(), name)

    def __round__(self, ndigits: int | None = None) -> Any:
        return _apply(round, (self,) if ndigits is None else (self, ndigits))

    def __neg__(self) -> Any:
        return _apply(operator.neg, (self,))

    def __pos__(self) -> Any:
        return _apply(operator.pos, (self,))

    def __abs__(self) -> Any:
        return _apply(abs, (self,))

    def __invert__(self) -> Any:
        return _apply(operator.invert, (self,))








def _binary(fn: Callable[[Any, Any], Any]) -> tuple[Callable[..., Any], Callable[..., Any]]:
    # The usual case, a lazy value and a plain one, skips the general _apply.
    def forward(self: RandomValue, other: Any) -> Any:
        world = self._world
        node = self._node
        if type(other) is RandomValue or node.nid in world.pins or not world.active:
            return _apply(fn, (self, other))
        world._next += 1
        return world.wrap(_Node(world._next, fn, (node, other), node.leaves))

    def reflected(self: RandomValue, other: Any) -> Any:
        world = self._world
        node = self._node
        if type(other) is RandomValue or node.nid in world.pins or not world.active:
            return _apply(fn, (other, self))
        world._next += 1
        return world.wrap(_Node(world._next, fn, (other, node), node.leaves))

    return forward, reflected


_OPERATORS: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
    ("truediv", operator.truediv), ("floordiv", operator.floordiv), ("mod", operator.mod),
    ("pow", pow), ("divmod", divmod), ("lshift", operator.lshift), ("rshift", operator.rshift),
    ("and", operator.and_), ("or", operator.or_), ("xor", operator.xor),
]
for _name, _fn in _OPERATORS:
    _forward, _reflected = _binary(_fn)
    setattr(RandomValue, f"__{_name}__", _forward)
    setattr(RandomValue, f"__r{_name}__", _reflected)
# Comparisons have no reflected form of their own: Python swaps ``3 < x`` to ``x > 3``.
for _name, _fn in [("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt),
                   ("le", operator.le), ("gt", operator.gt), ("ge", operator.ge)]:
    setattr(RandomValue, f"__{_name}__", _binary(_fn)[0])
for _name, _rounding in [("trunc", operator.methodcaller("__trunc__")),
                         ("floor", operator.methodcaller("__floor__")),
                         ("ceil", operator.methodcaller("__ceil__"))]:
    setattr(RandomValue, f"__{_name}__", lambda self, _fn=_rounding: _apply(_fn, (self,)))
# A guess takes the same operations, and settles only on the one it guesses (see _Guess).
#: (OP, side of the die) -> the guess's method for it (a spec holds the one it guesses)
_GUESSED: dict[tuple[Callable[[Any, Any], Any], int], Callable[[_Guess, Any], Any]] = {}
for _name, _fn in _OPERATORS:
    setattr(_Guess, f"__{_name}__", _GUESSED.setdefault((_fn, 0), _guessed()))
    setattr(_Guess, f"__r{_name}__", _GUESSED.setdefault((_fn, 1), _guessed()))
for _name, _fn in [("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt),
                   ("le", operator.le), ("gt", operator.gt), ("ge", operator.ge)]:
    setattr(_Guess, f"__{_name}__", _GUESSED.setdefault((_fn, 0), _guessed()))
