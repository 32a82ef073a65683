"""Hex maps: terrain and elevation layers, hexside features, movement costs, paths and line of sight.

A :class:`HexMap` is a rectangular printed map of ``width x height`` hexes in an
:class:`~wargamekit.geometry.hex.OffsetLayout`. Layers are numpy arrays indexed by
``(col, row)``. What terrain *means* (movement cost per unit type, line-of-sight class) comes
from a ruleset-supplied :class:`TerrainTable`.

Movement costs and paths run scipy's Dijkstra on a CSR graph built with numpy: an edge
``g -> h`` for every pair of adjacent map hexes, weighted by the cost of entering ``h`` from
``g`` (terrain of ``h`` plus the hexside crossed). Each unit type's whole-map graph is cached,
and so are the line-of-sight class tables; call :meth:`HexMap.invalidate` after writing to the
layer arrays directly (the setter methods, and assigning a new layer or table, do it for you).
:meth:`HexMap.reachable_many` searches many units in one Dijkstra call per group of far-apart
units; small reaches (a few movement points, a small map) are searched in pure Python over the
same cached graph instead, as scipy's call has a fixed cost of about 100 µs.
"""

from __future__ import annotations

import copy
import functools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from heapq import heappop, heappush
from typing import Any, Literal

import numpy as np
from attrs import Factory, define, field, frozen
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from wargamekit.geometry.hex import DIRECTIONS, Hex, HexLabels, OffsetLayout, _axial_to_offset, _hex, hex_line
from wargamekit.geometry.hexbatch import (
    _PAD,
    BatchElevationHook,
    _axial_grid,
    _side_tables,
    axial_to_offset,
    line_of_sight_batch,
    offset_to_axial,
)

from .._convert import as_tuple
from ..errors import OffMapError
from ..memo import remember
from ..view import CACHE

__all__ = [
    "CLEAR",
    "HINDERING",
    "BLOCKING",
    "TerrainType",
    "HexsideFeature",
    "TerrainTable",
    "LineOfSight",
    "Path",
    "HexMap",
    "ElevationHook",
    "HexSelection",
]

#: Line-of-sight classes.
CLEAR, HINDERING, BLOCKING = 0, 1, 2

INF = math.inf

#: ``hook(hex, hex_elevation, origin_elevation, target_elevation) -> True`` if the hex is seen
#: over (it then neither blocks nor hinders).
ElevationHook = Callable[[Hex, int, int, int], bool]

#: Hexes to block or stop in: a ``(width, height)`` bool mask, an iterable of hexes, or a
#: predicate on a hex.
HexSelection = np.ndarray | Iterable[Hex] | Callable[[Hex], bool] | None



def _check_cost(value: float) -> float:
    value = float(value)
    if not value > 0:
        raise ValueError(f"movement costs must be > 0 (use math.inf for impassable), got {value}")
    return value


@frozen
class TerrainType:
    """What one terrain code means.

    Args:
        code: The int stored in the terrain layer.
        name: A readable name (``"woods"``).
        cost: Cost to enter for unit types not listed in ``cost_by_unit``; ``math.inf`` = impassable.
        cost_by_unit: Per unit type cost to enter (e.g. ``{"vehicle": 3}``).
        los: Line-of-sight class: 0 clear, 1 hindering, 2 blocking.
    """

    code: int
    name: str
    cost: float = field(default=1.0, converter=_check_cost)
    cost_by_unit: Mapping[str, float] = field(factory=dict)
    los: int = CLEAR

    def cost_for(self, unit_type: str) -> float:
        """The cost for ``unit_type`` to enter a hex of this terrain."""
        return _check_cost(self.cost_by_unit.get(unit_type, self.cost))


@frozen
class HexsideFeature:
    """What one hexside feature code (river, stream, wall, hedge...) means.

    Args:
        code: The int stored on the edge (0 is reserved for "no feature").
        name: A readable name.
        extra_cost: Extra cost to cross, for unit types not in ``extra_cost_by_unit``.
        extra_cost_by_unit: Per unit type extra cost; ``math.inf`` = impassable.
        los: Line-of-sight class of the hexside, counted each time a line crosses it:
            0 clear (the default: no LOS effect), 1 hindering (LnL hedges and walls in some
            scenarios), 2 blocking. See :meth:`HexMap.line_of_sight`.
    """

    code: int
    name: str
    extra_cost: float = 0.0
    extra_cost_by_unit: Mapping[str, float] = field(factory=dict)
    los: int = CLEAR

    def extra_cost_for(self, unit_type: str) -> float:
        """The extra cost for ``unit_type`` to cross this hexside."""
        return float(self.extra_cost_by_unit.get(unit_type, self.extra_cost))


@frozen
class TerrainTable:
    """A ruleset's terrain chart: terrain types and hexside features by code.

    >>> table = TerrainTable([TerrainType(0, "clear"), TerrainType(1, "woods", 2, {"vehicle": 4}, los=1)])
    >>> table.enter_costs("vehicle").tolist(), table.los_classes().tolist()
    ([1.0, 4.0], [0, 1])
    """

    terrain: tuple[TerrainType, ...] = field(converter=as_tuple)
    hexsides: tuple[HexsideFeature, ...] = field(default=(), converter=as_tuple)

    def _lookup(self, items: tuple, what: str) -> dict[int, object]:
        out = {}
        for item in items:
            if item.code < 0 or item.code in out:
                raise ValueError(f"{what} code {item.code} is negative or defined twice")
            out[item.code] = item
        return out

    def enter_costs(self, unit_type: str) -> np.ndarray:
        """Cost to enter each terrain code (index = code; undefined codes are impassable)."""
        by_code = self._lookup(self.terrain, "terrain")
        out = np.full(max(by_code, default=-1) + 1, INF)
        for code, t in by_code.items():
            out[code] = t.cost_for(unit_type)  # type: ignore[attr-defined]
        return out

    def hexside_costs(self, unit_type: str) -> np.ndarray:
        """Extra cost to cross each hexside code (index = code; code 0 is free)."""
        by_code = self._lookup(self.hexsides, "hexside feature")
        out = np.zeros(max(max(by_code, default=0) + 1, 1))
        for code, f in by_code.items():
            out[code] = f.extra_cost_for(unit_type)  # type: ignore[attr-defined]
        return out

    def los_classes(self) -> np.ndarray:
        """LOS class of each terrain code (undefined codes are clear)."""
        by_code = self._lookup(self.terrain, "terrain")
        out = np.zeros(max(by_code, default=-1) + 1, dtype=np.int8)
        for code, t in by_code.items():
            out[code] = t.los  # type: ignore[attr-defined]
        return out

    def hexside_los_classes(self) -> np.ndarray:
        """LOS class of each hexside code (index = code; code 0 and undefined codes are clear)."""
        by_code = self._lookup(self.hexsides, "hexside feature")
        out = np.zeros(max(max(by_code, default=0) + 1, 1), dtype=np.int8)
        for code, f in by_code.items():
            out[code] = f.los  # type: ignore[attr-defined]
        return out


@frozen
class LineOfSight:
    """The result of a line-of-sight check.

    :meth:`HexMap.line_of_sight` fills ``clear`` by walking the line only up to its first
    blocking hex; ``blocking``, ``hindering`` and ``between`` of a blocked line (and
    ``between`` of any line) are worked out the first time they are read, from a snapshot of
    the inputs taken at the call, so they are always exactly the full counts.

    Attributes:
        clear: True if no hex between blocks.
        blocking: How many hexes between block.
        hindering: How many hexes between hinder.
        between: The hexes between origin and target (both excluded), in order.
    """

    clear: bool
    blocking: int
    hindering: int
    between: tuple[Hex, ...]
    # The snapshot the unset fields are worked out from (see _los_fill); None once all are set.
    _rest: tuple | None = field(default=None, init=False, eq=False, repr=False)

    def __getattr__(self, name: str):
        # Python calls this only for a slot not filled yet: the lazily completed fields.
        rest = object.__getattribute__(self, "_rest")
        if rest is None or name not in ("blocking", "hindering", "between"):
            raise AttributeError(name)
        _los_fill(self, rest, name == "between")
        return object.__getattribute__(self, name)


_set_clear, _set_blocking, _set_hindering, _set_between, _set_rest = (
    LineOfSight.__dict__[x].__set__ for x in ("clear", "blocking", "hindering", "between", "_rest"))
_object_new = object.__new__


def _los_fill(los: LineOfSight, rest: tuple, between: bool) -> None:
    """Fill a lazily built :class:`LineOfSight`'s counts (and ``between`` if asked) from its snapshot.

    ``rest`` is ``(blocking, hindering, nudge, a, b, walk)``: the counts and the chosen line's
    nudge when the query already knows them, else ``None`` and ``walk`` (the arguments of
    :func:`_walk` up to ``sec``, then ``ends`` and ``edge``) to work them out.
    """
    nb, nh, nudge, a, b, walk = rest
    if nb is None:
        *args, ends, edge = walk
        walk_fn: Any = _walk  # ``args`` stops before ``ends``, which mypy cannot see through ``*``
        walker: Any = functools.partial(walk_fn, *args, ends=ends)
        nb, nh, nudge = _los_exact(walker, args[5], args[8], edge)
        rest = (nb, nh, nudge, a, b, None)
    _set_blocking(los, nb)
    _set_hindering(los, nh)
    if between:
        _set_between(los, tuple(hex_line(a, b, nudge=nudge)[1:-1]))
        _set_rest(los, None)
    else:
        _set_rest(los, rest)


def _new_los(clear: bool, rest: tuple) -> LineOfSight:
    """A :class:`LineOfSight` with ``clear`` set and the other fields left to :func:`_los_fill`."""
    los = _object_new(LineOfSight)
    _set_clear(los, clear)
    _set_rest(los, rest)
    return los


@frozen
class Path:
    """A cheapest path: the hexes from start to goal (both included) and its total cost."""

    hexes: tuple[Hex, ...]
    cost: float


def _parity_steps(layout: OffsetLayout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per parity class ``2 * (col % 2) + (row % 2)``: the six neighbour steps sorted by flat index.

    Returns ``(direction, dcol, drow)``, each ``(4, 6)``: slot ``k`` of a hex of class ``p`` is
    its neighbour in direction ``direction[p, k]``, at offset ``(col + dcol, row + drow)``. A
    hex's neighbours' offsets depend on its parities only, and sorting by ``(dcol, drow)`` sorts
    by the flat index ``col * height + row``.
    """
    dirs, dcols, drows = [], [], []
    for pc in (0, 1):
        for pr in (0, 1):
            col, row = 10 + pc, 10 + pr
            q, r = offset_to_axial(np.array([[col, row]]), layout)[0].tolist()
            steps = []
            for d, (dq, dr) in enumerate(DIRECTIONS):
                nc, nr = axial_to_offset(np.array([[q + dq, r + dr]]), layout)[0].tolist()
                steps.append((nc - col, nr - row, d))
            steps.sort()
            dcols.append([x[0] for x in steps])
            drows.append([x[1] for x in steps])
            dirs.append([x[2] for x in steps])
    return np.array(dirs, dtype=np.int64), np.array(dcols, dtype=np.int32), np.array(drows, dtype=np.int32)


_PARITY_STEPS = {layout: _parity_steps(layout) for layout in OffsetLayout}
#: The default layout, named once for HexMap.offset's identity test.
_ODD_Q = OffsetLayout.ODD_Q


def _block_neighbours(layout: OffsetLayout, col0: int, row0: int, cols: int, rows: int
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Neighbours of each hex of a block of the map, in CSR order (sorted by index).

    Returns ``(nbr, direction)``, both ``(cols * rows, 6)``: the neighbour's index local to the
    block (-1 outside it) and the direction it lies in.
    """
    c = np.arange(col0, col0 + cols, dtype=np.int32)
    r = np.arange(row0, row0 + rows, dtype=np.int32)
    pclass = (2 * (c[:, None] & 1) + (r[None, :] & 1)).ravel()
    dirs, dcol, drow = _PARITY_STEPS[layout]
    nc = dcol[pclass]
    nc += np.repeat(c - col0, rows)[:, None]
    nr = drow[pclass]
    nr += np.tile(r - row0, cols)[:, None]
    nbr = nc * rows
    nbr += nr
    nbr[(nc < 0) | (nc >= cols) | (nr < 0) | (nr >= rows)] = -1
    return nbr, dirs[pclass]


# -- scalar line of sight ---------------------------------------------------------------------
#
# One query walks the exact integer line (see hexbatch) in the axial-indexed, padded grid of the
# map: hex ``i`` of the line is the flat index ``ia + alpha * i + beta * v_i`` with
# ``v_i = (d2 * i + k) // n2``, and its class is one item of an immutable table (a tuple of
# ints: indexing a tuple is specialised by the interpreter, indexing bytes is not). No
# Hex object is built unless ``between`` is read.


@frozen
class _LosGrid:
    """The map's axial padded grid: flat index of a hex, on-map flags, hexside step table."""

    qmin: int
    rmin: int
    stride: int
    ncell: int
    cell: np.ndarray  # map cell (col * height + row) -> flat index
    onmap: bytes
    side_step: dict[int, int]  # flat step of each direction -> direction * ncell

    @classmethod
    def of(cls, width: int, height: int, layout: OffsetLayout) -> _LosGrid:
        qmin, rmin, q_span, stride, cell, onmap = _axial_grid(width, height, layout)
        ncell = q_span * stride
        steps = {dq * stride + dr: d * ncell for d, (dq, dr) in enumerate(DIRECTIONS)}
        return cls(qmin - _PAD, rmin - _PAD, stride, ncell, cell, onmap.tobytes(), steps)

    def code_of(self, classes: np.ndarray) -> tuple[int, ...]:
        """The ``(width, height)`` classes as a flat table (1 hindering, 2 blocking, else 0)."""
        flat = np.asarray(classes).ravel()
        code = np.zeros(self.ncell, dtype=np.int8)
        code[self.cell] = np.where(flat == BLOCKING, BLOCKING, flat == HINDERING)
        return tuple(code.tolist())


def _line_steps(dq: int, dr: int, stride: int) -> tuple[int, int, int, int]:
    """``(n, alpha, beta, sec)`` of the line with axial delta ``(dq, dr)`` (see :func:`hex_line`)."""
    adq, adr = abs(dq), abs(dr)
    n = (adq + adr + abs(dq + dr)) >> 1
    if adq == n:
        return n, (stride if dq > 0 else -stride), 1, dr
    if adr == n:
        return n, (1 if dr > 0 else -1), stride, dq
    return n, (-stride if dq + dr < 0 else stride), 1 - stride, dr


def _has_tie(n: int, sec: int) -> bool:
    """Whether the two nudges give different lines (see :func:`hexbatch._has_tie`)."""
    return n >= 2 and (n // math.gcd(sec, n)) % 2 == 0


def _walk(code: tuple[int, ...], sides: tuple[int, ...] | None, side_step: dict[int, int], extra: frozenset[int],
          ia: int, n: int, alpha: int, beta: int, sec: int, nudge: int, stop: int, ends: bool = False,
          hook: Callable[[int], bool] | None = None) -> tuple[int, int]:
    """``(blocking, hindering)`` between the ends of one line; the walk ends once ``stop`` (> 0) hexes block."""
    nb = nh = 0
    num = n if nudge == 1 else n - 1
    d2, n2 = 2 * sec, 2 * n
    if sides is None and not extra and hook is None:
        for i in range(1, n):  # the common case, kept tight
            num += d2
            c = code[ia + alpha * i + beta * (num // n2)]
            if c == 2:
                nb += 1
                if nb == stop:
                    break
            elif c == 1:
                nh += 1
        return nb, nh
    prev = ia
    for i in range(1, n + 1):
        num += d2
        idx = ia + alpha * i + beta * (num // n2)
        if sides is not None and (ends or 1 < i < n):
            c = sides[side_step[idx - prev] + prev]
            nb += c == 2
            nh += c == 1
        prev = idx
        if i < n:
            c = 2 if idx in extra else code[idx]
            if c and hook is not None and hook(idx):
                c = 0
            nb += c == 2
            nh += c == 1
        if nb >= stop > 0:
            break
    return nb, nh


def _los_exact(walk: Callable[..., tuple[int, int]], n: int, sec: int, edge: str) -> tuple[int, int, int]:
    """``(blocking, hindering, nudge)`` of the line ``edge`` asks for, full counts."""
    first = walk(1, 0)
    if edge == "primary" or not _has_tie(n, sec):
        return (*first, 1)
    second = walk(-1, 0)
    if first == second:
        return (*first, 1)
    worse, nudge = (first, 1) if first > second else (second, -1)  # by blocking, then hindering
    if edge == "worse":
        return (*worse, nudge)
    return (*(second if nudge == 1 else first), -nudge)


def _read_only(arr: np.ndarray) -> bool:
    """True if nothing can write to ``arr``'s memory through numpy (it and every base are read-only)."""
    base: Any = arr
    while isinstance(base, np.ndarray):
        if base.flags.writeable:
            return False
        base = base.base
    return base is None or isinstance(base, bytes)


_EDGES = ("primary", "worse", "better")

#: The line caches, one per grid stride (the flat offsets depend on nothing else): for lines
#: up to _LOS_CACHE_RANGE long, key ``dq * _LINE_KEY + dr`` -> the flat offsets from the origin
#: of the hexes strictly between the ends of that line (primary nudge). Each is emptied past
#: _LOS_CACHE_MAX lines. They are the process's, never a map's: which lines were traced can
#: depend on a hidden unit (its facing decides which lines a rule traces), and a map reaches
#: players' views (as a deep copy, or pickled), so it must not carry that history.
_LINE_CACHES: defaultdict[int, dict[int, tuple[int, ...]]] = defaultdict(dict)
_LOS_CACHE_RANGE = 40
_LOS_CACHE_MAX = 1 << 14
_LINE_KEY = 1 << 12


def _cache_line(lines: dict[int, tuple[int, ...]], dq: int, dr: int, n: int, alpha: int, beta: int,
                sec: int) -> tuple[int, ...]:
    """The offsets line_of_sight's loop steps through for this line, kept for the next time."""
    d2, n2 = 2 * sec, 2 * n
    offsets = tuple(alpha * i + beta * ((d2 * i + n) // n2) for i in range(1, n))
    return remember(lines, dq * _LINE_KEY + dr, offsets, _LOS_CACHE_MAX)
_NO_EXTRA: frozenset[int] = frozenset()

#: :meth:`HexMap.reachable_many` searches in pure Python while the units can reach at most this
#: many hexes in all (a disk per unit, see :meth:`HexMap._reach_small`), 4/3 of it with
#: whole-number costs (the bucket form); beyond it, one scipy call is faster. Measured: see
#: docs/geometry.md.
_SMALL_SEARCH = 300
#: :meth:`HexMap.reachable_many` searches far-apart groups of units together (min_only) for
#: this many units: from _GROUPED_MIN (measured: with fewer, grouping costs more than the one
#: row per unit it saves) up to _GROUPED_MAX (the grouping compares every pair).
_GROUPED_MIN = 48
_GROUPED_MAX = 1024
#: The bucket form of the pure-Python search keeps one list per whole cost up to the allowance.
_BUCKETS_MAX = 100
#: From this many cheapest steps of allowance (a disk of 91 hexes and more) the bucket form keeps
#: its costs in a borrowed list by map index, not a dict: a fifth cheaper on aig's command and
#: leader searches (6-12 steps); below, the list's fixed cost (marking the blocked hexes,
#: setting back what it touched) outweighs it. Measured: see docs/geometry.md.
_BUCKETS_LISTED = 5


def _zeros(shape_attr: str, dtype: type):
    def make(self: HexMap) -> np.ndarray:
        extra = (6,) if shape_attr == "hexsides" else ()
        return np.zeros((self.width, self.height, *extra), dtype=dtype)

    return Factory(make, takes_self=True)


@define
class _Graph:
    """One unit type's whole-map movement graph, kept until :meth:`HexMap.invalidate`.

    ``csr`` has only the finite edges, each hex's edges sorted by neighbour index (scipy's own
    COO -> CSR order). ``out_pos[i, j]`` is the position in ``csr.data`` of the edge from hex
    ``i`` to its ``j``-th neighbour and ``in_pos[i, j]`` that of the edge from that neighbour
    into ``i`` (-1: no edge), so masking a few hexes touches only their edges; they are worked
    out the first time a search has ``blocked`` or ``stop`` hexes.
    """

    csr: csr_matrix
    nbr: np.ndarray  # (n, 6) neighbour index, -1 off the map
    weight: np.ndarray  # (n, 6) cost of entering that neighbour, inf: no edge
    step: float  # the cheapest step: nothing beyond budget / step hexes is reachable
    integral: bool = False  # every finite weight a whole number (the pure-Python search's bucket form)
    out_pos: np.ndarray | None = None
    in_pos: np.ndarray | None = None
    # For the pure-Python search (_search_small): each hex's ((cost, (neighbour, ...)), ...) out
    # of the CSR arrays (_edges_at), filled in hex by hex as searches first expand them (None:
    # not yet).
    adj: list[tuple[tuple[float, tuple[int, ...]], ...] | None] | None = None
    csr_lists: tuple[list[int], list[int], list[float]] | None = None
    # The bucket form's cost lists, one entry per map index, all inf between searches: each
    # search takes one (or makes one) and puts it back reset, so no search builds an array the
    # size of the map and two at once (threads) never share one.
    scratch: list[list[float]] = Factory(list)

    def __reduce__(self) -> tuple[Any, ...]:
        # A pickle (the snapshot cache's entries, written for another process) leaves out the
        # pure-Python search's tables (adj, csr_lists, scratch): thousands of small tuples, the
        # dearer part of unpickling a map, which the first searches there fill in again.
        return (_Graph, (self.csr, self.nbr, self.weight, self.step, self.integral, self.out_pos, self.in_pos))

    def positions(self) -> tuple[np.ndarray, np.ndarray]:
        """``(out_pos, in_pos)``, computed once."""
        if self.out_pos is None or self.in_pos is None:
            nbr = self.nbr
            n = nbr.shape[0]
            keep = np.isfinite(self.weight)
            out_pos = np.full(nbr.shape, -1, dtype=np.int64)
            out_pos[keep] = np.arange(int(keep.sum()))  # the CSR order is row by row, slot by slot
            # The slot of i in each neighbour's row: the edge back from that neighbour into i.
            safe = np.maximum(nbr, 0)
            back = nbr[safe] == np.arange(n)[:, None, None]
            slot = back.argmax(axis=2)
            in_pos = np.where((nbr >= 0) & back.any(axis=2), out_pos[safe, slot], -1)
            out_pos.flags.writeable = False
            in_pos.flags.writeable = False
            self.out_pos, self.in_pos = out_pos, in_pos
        return self.out_pos, self.in_pos


def _edges_at(g: _Graph, u: int) -> tuple[tuple[float, tuple[int, ...]], ...]:
    """Hex ``u``'s edges for the pure-Python search (:func:`_search_small`), read from the CSR
    arrays the first time a search expands it and kept in ``g.adj``: ``((cost, (neighbour,
    ...)), ...)``, one entry per cost, cheapest first, each cost's neighbours by map index."""
    adj = g.adj
    if adj is None:
        adj = g.adj = [None] * g.csr.shape[0]
    lists = g.csr_lists
    if lists is None:
        lists = g.csr_lists = (g.csr.indptr.tolist(), g.csr.indices.tolist(), g.csr.data.tolist())
    ptr, ind, wt = lists
    lo, hi = ptr[u], ptr[u + 1]
    by_cost: dict[float, list[int]] = {}
    for v, w in zip(ind[lo:hi], wt[lo:hi], strict=True):
        by_cost.setdefault(w, []).append(v)
    edges = adj[u] = tuple((w, tuple(by_cost[w])) for w in sorted(by_cost))
    return edges


def _search_small(g: _Graph, hexes: list[Hex], start: int, budget: float, blocked: set[int] | frozenset[int],
                  stop: set[int] | frozenset[int]) -> dict[Hex, float]:
    """Hot (``reachable`` on small maps and budgets): Dijkstra from one map index in pure Python.

    Returns ``{hex: cost}`` for every hex within ``budget``, in map index order (``hexes``: the
    hex of each index): the costs scipy's search on the same graph gives (each is the least of
    ``cost(u) + weight`` over the neighbours ``u`` settled before it, the same float sums
    whatever the order, as every weight is > 0). ``blocked`` indices are never entered;
    ``stop`` indices are entered but not left, except the start. No per-search array the size
    of the map: the cost grows with the hexes reached. Whole-number weights (most terrain
    charts) take a bucket queue, one list per cost, which costs about a fifth less than the
    binary heap (``heapq``) other weights take. From :data:`_BUCKETS_LISTED` cheapest steps on,
    the bucket form keeps the costs in a list by map index borrowed from the graph
    (:func:`_search_buckets`) rather than a dict.

    Each hex's edges come grouped by cost (:func:`_edges_at`): one sum and one budget test per
    cost, not per neighbour (aig's maps: one cost for all six neighbours of most hexes), and
    none past the first cost over the budget. A hex from which even the cheapest step
    (``g.step``, no edge costs less) overruns the budget is not expanded at all.
    """
    adj = g.adj
    if adj is None:
        adj = g.adj = [None] * g.csr.shape[0]
    dist = {start: 0.0}
    get = dist.get
    step = g.step
    if g.integral and budget <= _BUCKETS_MAX:
        if budget >= _BUCKETS_LISTED * step:
            return _search_buckets(g, adj, hexes, start, budget, blocked, stop)
        buckets: list[list[int]] = [[] for _ in range(int(budget) + 1)]  # buckets[c]: reached at cost c
        buckets[0].append(start)
        for c, bucket in enumerate(buckets):
            d = float(c)  # the costs stay floats, as scipy's (whole numbers: the sums are exact)
            if d + step > budget:
                break  # nothing further can be entered (every later bucket costs more)
            for u in bucket:
                if dist[u] != d or (u in stop and u != start):
                    continue  # reached more cheaply since, or a stop hex
                for w, vs in adj[u] or _edges_at(g, u):
                    nd = d + w
                    if nd > budget:
                        break  # this cost and the dearer ones after it
                    into = buckets[int(nd)]
                    for v in vs:
                        if nd < get(v, INF) and v not in blocked:
                            dist[v] = nd
                            into.append(v)
        return {hexes[j]: dist[j] for j in sorted(dist)}
    heap = [(0.0, start)]
    while heap:
        d, u = heappop(heap)
        if d > dist[u] or (u in stop and u != start):
            continue  # a stale entry (u was reached more cheaply since), or a stop hex
        for w, vs in adj[u] or _edges_at(g, u):
            nd = d + w
            if nd > budget:
                break  # this cost and the dearer ones after it
            for v in vs:
                if nd < get(v, INF) and v not in blocked:
                    dist[v] = nd
                    heappush(heap, (nd, v))
    return {hexes[j]: dist[j] for j in sorted(dist)}


def _search_buckets(g: _Graph, adj: list[tuple[tuple[float, tuple[int, ...]], ...] | None], hexes: list[Hex],
                    start: int, budget: float, blocked: set[int] | frozenset[int],
                    stop: set[int] | frozenset[int]) -> dict[Hex, float]:
    """:func:`_search_small`'s bucket form (whole-number weights, ``budget`` at most
    :data:`_BUCKETS_MAX`) for the larger searches: one list per whole cost up to the budget, the
    costs in a list by map index borrowed from the graph (``_Graph.scratch``, all inf between
    searches: the blocked indices are marked in it, and only the entries touched are set back)."""
    # hot: the costs by map index in a borrowed list (an index, no dict.get or set test per
    # edge); a blocked index holds -1, below every cost, so it is never entered
    best = g.scratch.pop() if g.scratch else [INF] * g.csr.shape[0]
    buckets: list[list[int]] = [[] for _ in range(int(budget) + 1)]  # buckets[c]: reached at cost c
    step = g.step
    try:
        for b in blocked:
            best[b] = -1.0
        best[start] = 0.0
        buckets[0].append(start)
        for c, bucket in enumerate(buckets):
            d = float(c)  # the costs stay floats, as scipy's (whole numbers: the sums are exact)
            if d + step > budget:
                break  # nothing further can be entered (every later bucket costs more)
            for u in bucket:
                if best[u] != d or (stop and u in stop and u != start):
                    continue  # reached more cheaply since, or a stop hex
                for w, vs in adj[u] or _edges_at(g, u):
                    nd = d + w
                    if nd > budget:
                        break  # this cost and the dearer ones after it
                    into = buckets[int(nd)]
                    for v in vs:
                        if nd < best[v]:
                            best[v] = nd
                            into.append(v)
        # a hex improved after it was first reached is in two buckets: once in the result
        return {hexes[v]: best[v] for v in sorted(set().union(*buckets))}
    finally:
        for bucket in buckets:
            for v in bucket:
                best[v] = INF
        for b in blocked:
            best[b] = INF
        g.scratch.append(best)


def _forget(m: HexMap, _attribute: object, value: object) -> object:
    """on_setattr of the layer and shape fields: a new layer or table makes every cache stale."""
    m.invalidate(geometry=True)
    return value


@define(eq=False)
class HexMap:
    """A rectangular hex map with terrain, elevation and hexside layers.

    Args:
        width: Number of columns.
        height: Number of rows.
        table: The ruleset's terrain chart.
        layout: The printed map's offset layout.
        terrain: int16 ``(width, height)`` terrain codes (default all 0).
        elevation: int16 ``(width, height)`` elevations (default all 0).
        hexsides: int8 ``(width, height, 6)`` hexside feature code per hex and direction; use
            :meth:`set_hexside` so both sides of an edge agree.
        label_base: the number printed on the first column and row of the printed map (many
            maps print ``0101`` for the first hex); :meth:`label` and :meth:`parse` use it.

    >>> table = TerrainTable([TerrainType(0, "clear"), TerrainType(1, "woods", 2, los=2)])
    >>> m = HexMap(5, 5, table)
    >>> m.set_terrain(Hex.from_offset(2, 2), 1)
    >>> m.line_of_sight(Hex.from_offset(0, 2), Hex.from_offset(4, 2)).clear
    False
    >>> m.shortest_path(Hex.from_offset(0, 2), Hex.from_offset(4, 2), "infantry").cost
    4.0
    """

    width: int = field(on_setattr=_forget)
    height: int = field(on_setattr=_forget)
    table: TerrainTable = field(on_setattr=_forget)
    layout: OffsetLayout = field(default=OffsetLayout.ODD_Q, on_setattr=_forget)
    terrain: np.ndarray = field(default=_zeros("terrain", np.int16), on_setattr=_forget)
    elevation: np.ndarray = field(default=_zeros("elevation", np.int16), on_setattr=_forget)
    hexsides: np.ndarray = field(default=_zeros("hexsides", np.int8), on_setattr=_forget)
    label_base: int = field(default=0, kw_only=True)
    # Derived caches (metadata CACHE: left out of the views the non-interference check
    # compares). They hold only values that are never written in place (read-only arrays,
    # bytes; a graph's edge positions are filled in once, the same whoever asks), so a deep
    # copy of the map may share them; invalidate() replaces them. The lines traced, which
    # follow whatever the rules looked at, are cached outside every map (_LINE_CACHES).
    _graphs: dict[str, tuple[np.ndarray, np.ndarray]] = field(factory=dict, init=False, repr=False, metadata=CACHE)
    # unit type -> its enter and hexside costs by code, as lists (movement_cost, one step)
    _step_cost_lists: dict[str, tuple[list[float], list[float]]] = field(
        factory=dict, init=False, repr=False, metadata=CACHE)
    _csr: dict[str, _Graph] = field(factory=dict, init=False, repr=False, metadata=CACHE)
    _nbr: tuple[np.ndarray, np.ndarray] | None = field(default=None, init=False, repr=False, metadata=CACHE)
    _grid: _LosGrid | None = field(default=None, init=False, repr=False, metadata=CACHE)
    _hexlist: np.ndarray | None = field(default=None, init=False, repr=False, metadata=CACHE)
    _axial: np.ndarray | None = field(default=None, init=False, repr=False, metadata=CACHE)
    _disks: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(factory=dict, init=False, repr=False, metadata=CACHE)
    _los: tuple | None = field(default=None, init=False, repr=False, metadata=CACHE)
    _user_codes: dict[int, tuple[np.ndarray, tuple[int, ...]]] = field(factory=dict, init=False, repr=False, metadata=CACHE)
    _hexes_py: list[Hex] | None = field(default=None, init=False, repr=False, metadata=CACHE)
    _index_of: dict[Hex, int] | None = field(default=None, init=False, repr=False, metadata=CACHE)

    def __attrs_post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"map size must be positive, got {self.width} x {self.height}")
        for name, extra in (("terrain", ()), ("elevation", ()), ("hexsides", (6,))):
            arr = getattr(self, name)
            if arr.shape != (self.width, self.height, *extra):
                raise ValueError(f"{name} has shape {arr.shape}, expected {(self.width, self.height, *extra)}")

    # -- coordinates --------------------------------------------------------------------------

    def _neighbour_table(self) -> tuple[np.ndarray, np.ndarray]:
        """``(nbr, direction)`` of each hex's neighbours in index order, -1 if off the map (computed once)."""
        if self._nbr is None:
            self._nbr = _block_neighbours(self.layout, 0, 0, self.width, self.height)
        return self._nbr

    def hexes(self) -> list[Hex]:
        """Every map hex, column by column."""
        return [Hex.from_offset(c, r, self.layout) for c in range(self.width) for r in range(self.height)]

    def __contains__(self, h: object) -> bool:
        if not isinstance(h, Hex):
            return False
        c, r = h.to_offset(self.layout)
        return 0 <= c < self.width and 0 <= r < self.height

    def offset(self, h: Hex) -> tuple[int, int]:
        """``(col, row)`` of a map hex.

        Raises:
            OffMapError: If ``h`` is not on the map.
        """
        # The rules' terrain and elevation reads all come here (hundreds a game): the commonest
        # layout is worked out inline, not through Hex.to_offset and _axial_to_offset (two calls).
        q, r = h.q, h.r
        if self.layout is _ODD_Q:
            c, r = q, r + (q - (q & 1)) // 2
        else:
            c, r = _axial_to_offset(q, r, self.layout)
        if not (0 <= c < self.width and 0 <= r < self.height):
            raise OffMapError(f"{h!r} (offset {c}, {r}) is outside the {self.width} x {self.height} map")
        return c, r

    def hex_at(self, col: int, row: int) -> Hex:
        """The hex at ``(col, row)``.

        Raises:
            OffMapError: If the offset is outside the map.
        """
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise OffMapError(f"offset ({col}, {row}) is outside the {self.width} x {self.height} map")
        return Hex.from_offset(col, row, self.layout)

    @property
    def labels(self) -> HexLabels:
        """How this map's hexes are printed (its layout and :attr:`label_base`)."""
        return HexLabels(self.layout, base=self.label_base)

    def label(self, h: Hex) -> str:
        """The printed label of ``h`` in this map's own numbering.

        >>> m = HexMap(10, 8, TerrainTable([TerrainType(0, "clear")]), label_base=1)
        >>> m.label(m.hex_at(0, 0)), m.parse("1008") == m.hex_at(9, 7)
        ('0101', True)
        >>> m.parse("1109")
        Traceback (most recent call last):
        ...
        wargamekit.errors.OffMapError: hex 1109 is outside the 10 x 8 map

        Raises:
            OffMapError: ``h`` is not on the map.
        """
        self.offset(h)
        return self.labels.label(h)

    def parse(self, label: str) -> Hex:
        """The map hex printed as ``label`` in this map's own numbering.

        Raises:
            HexLabelError: the label cannot be read.
            OffMapError: the label names a hex off the map.
        """
        h = self.labels.parse(label)
        if h not in self:
            raise OffMapError(f"hex {label} is outside the {self.width} x {self.height} map")
        return h

    def enterable(self, unit_type: str) -> np.ndarray:
        """A boolean ``(width, height)`` mask: which hexes a unit of ``unit_type`` may stand in
        (their terrain's entry cost for it is finite). Hexside features do not matter here.

        >>> table = TerrainTable([TerrainType(0, "clear"), TerrainType(1, "lake", math.inf, {"boat": 1})])
        >>> m = HexMap(3, 1, table)
        >>> m.set_terrain(m.hex_at(1, 0), 1)
        >>> m.enterable("foot").ravel().tolist(), m.can_enter(m.hex_at(1, 0), "boat")
        ([True, False, True], True)
        """
        costs = self.table.enter_costs(unit_type)
        codes = np.clip(self.terrain, 0, len(costs) - 1)
        known = (self.terrain >= 0) & (self.terrain < len(costs))
        return known & np.isfinite(costs[codes])

    def can_enter(self, h: Hex, unit_type: str) -> bool:
        """Whether a unit of ``unit_type`` may stand in map hex ``h`` (see :meth:`enterable`).

        Raises:
            OffMapError: ``h`` is not on the map.
        """
        c, r = self.offset(h)
        costs = self.table.enter_costs(unit_type)
        code = int(self.terrain[c, r])
        return 0 <= code < len(costs) and bool(np.isfinite(costs[code]))

    def _index(self, h: Hex) -> int:
        c, r = self.offset(h)
        return c * self.height + r

    def _hex_of_index(self, i: int) -> Hex:
        return Hex.from_offset(int(i) // self.height, int(i) % self.height, self.layout)

    def neighbours(self, h: Hex) -> list[Hex]:
        """The adjacent hexes that are on the map, in direction order."""
        self.offset(h)
        return [n for n in h.neighbours() if n in self]

    # -- layers ---------------------------------------------------------------------------------

    def invalidate(self, *, geometry: bool = False) -> None:
        """Forget the cached movement graphs and line-of-sight tables.

        Call it after writing to the layer arrays directly (``m.terrain[c, r] = ...``); the
        setter methods and assigning a new layer, table or size (``m.terrain = ...``) do it for
        you. Elevation is read when a query runs and needs no call.

        Args:
            geometry: Also forget what depends on the size and layout only (done when those
                are assigned).
        """
        self._graphs = {}
        self._step_cost_lists = {}
        self._csr = {}
        self._los = None
        if geometry:
            self._nbr = None
            self._grid = None
            self._hexlist = None
            self._axial = None
            self._disks = {}
            self._user_codes = {}
            self._hexes_py = None
            self._index_of = None

    def __deepcopy__(self, memo: dict) -> HexMap:
        # Copy the layers; share the derived caches (never written in place, see the fields).
        out = HexMap(self.width, self.height, copy.deepcopy(self.table, memo), self.layout,
                     terrain=self.terrain.copy(), elevation=self.elevation.copy(), hexsides=self.hexsides.copy())
        memo[id(self)] = out
        out._graphs, out._csr, out._user_codes = dict(self._graphs), dict(self._csr), dict(self._user_codes)
        out._step_cost_lists = dict(self._step_cost_lists)
        out._disks = dict(self._disks)
        out._nbr, out._grid, out._los, out._hexlist = self._nbr, self._grid, self._los, self._hexlist
        out._axial, out._hexes_py, out._index_of = self._axial, self._hexes_py, self._index_of
        return out

    def set_terrain(self, h: Hex, code: int) -> None:
        """Set the terrain code of one hex."""
        self.terrain[self.offset(h)] = code
        self.invalidate()

    def set_hexside(self, h: Hex, direction: int, code: int) -> None:
        """Put hexside feature ``code`` on the edge of ``h`` in ``direction``, seen from both sides."""
        direction %= 6
        self.hexsides[(*self.offset(h), direction)] = code
        other = h.neighbour(direction)
        if other in self:
            self.hexsides[(*self.offset(other), (direction + 3) % 6)] = code
        self.invalidate()

    def hexside(self, h: Hex, direction: int) -> int:
        """The hexside feature code on the edge of ``h`` in ``direction``."""
        return self.hexsides.item(*self.offset(h), direction % 6)  # (item: a Python int, no numpy scalar)

    def los_class(self) -> np.ndarray:
        """The ``(width, height)`` LOS class layer derived from terrain via the table."""
        table = self.table.los_classes()
        if self.terrain.size and self.terrain.max() >= len(table):
            table = np.concatenate([table, np.zeros(int(self.terrain.max()) + 1 - len(table), dtype=np.int8)])
        return table[self.terrain]

    def hexside_los_class(self) -> np.ndarray | None:
        """The ``(width, height, 6)`` LOS class of each hexside, or ``None`` if no hexside feature has an LOS effect."""
        table = self.table.hexside_los_classes()
        if not table.any():
            return None
        codes = self.hexsides.astype(np.int64)
        if codes.size and codes.max() >= len(table):
            table = np.concatenate([table, np.zeros(int(codes.max()) + 1 - len(table), dtype=np.int8)])
        return table[np.maximum(codes, 0)]

    # -- movement -------------------------------------------------------------------------------

    def movement_cost(self, from_hex: Hex, to_hex: Hex, unit_type: str) -> float:
        """Cost for ``unit_type`` to move from ``from_hex`` into the adjacent ``to_hex`` (``inf`` if impassable).

        Raises:
            ValueError: If the hexes are not adjacent or off the map.
        """
        d = from_hex.direction_to(to_hex)
        # The table's costs as lists, kept per unit type until the map is invalidated (the
        # table is frozen): made anew, the two arrays were ~85 % of a step's ~84,000
        # instructions (aig asks ~70 steps a game of new positions, each a miss of its memo).
        costs = self._step_cost_lists.get(unit_type)
        if costs is None:
            costs = self._step_cost_lists[unit_type] = (
                self.table.enter_costs(unit_type).tolist(), self.table.hexside_costs(unit_type).tolist())
        enter, sides = costs
        code = self.terrain.item(*self.offset(to_hex))
        cost = enter[code] if code < len(enter) else INF
        side = self.hexside(from_hex, d)
        return float(cost + (sides[side] if side < len(sides) else 0.0))

    def _step_costs(self, unit_type: str) -> tuple[np.ndarray, np.ndarray]:
        """Per unit type: the cost to enter each terrain code and to cross each hexside code."""
        enter = self.table.enter_costs(unit_type)
        sides = self.table.hexside_costs(unit_type)
        t_max = int(self.terrain.max(initial=0))
        if t_max >= len(enter):
            enter = np.concatenate([enter, np.full(t_max + 1 - len(enter), INF)])
        s_max = int(self.hexsides.max(initial=0))
        if s_max >= len(sides):
            sides = np.concatenate([sides, np.zeros(s_max + 1 - len(sides))])
        return enter, sides

    def _edges(self, unit_type: str, window: tuple[int, int, int, int] | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """``(nbr, weight)``: ``(n, 6)`` neighbour index and entering cost (``inf``: no edge).

        Each hex's edges are sorted by neighbour index: the CSR form scipy's own COO -> CSR
        conversion gives, so Dijkstra breaks ties between equal paths exactly as before.

        ``window`` = ``(col0, row0, cols, rows)`` restricts the graph to that block of the map
        (indices local to it); the whole map's graph is cached per unit type.
        """
        if window is None:
            cached = self._graphs.get(unit_type)
            if cached is not None:
                return cached
            nbr, dirs = self._neighbour_table()
            terr, hs = self.terrain, self.hexsides
        else:
            c0, r0, ww, hh = window
            nbr, dirs = _block_neighbours(self.layout, c0, r0, ww, hh)
            terr, hs = self.terrain[c0:c0 + ww, r0:r0 + hh], self.hexsides[c0:c0 + ww, r0:r0 + hh]
        enter, sides = self._step_costs(unit_type)
        hex_cost = enter[terr.ravel()]
        w = hex_cost[nbr]  # -1 (no neighbour) wraps around; fixed just below
        if sides.any() and hs.any():
            w += sides[np.take_along_axis(hs.reshape(-1, 6), dirs, axis=1)]
        w[nbr < 0] = INF
        if window is None:
            self._graphs[unit_type] = (nbr, w)
        return nbr, w

    def _given_mask(self, selection: HexSelection, window: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """:meth:`_mask` of a selection that is not ``None``."""
        mask = self._mask(selection, window)
        assert mask is not None, "a selection was given"
        return mask

    def _mask(self, selection: HexSelection, window: tuple[int, int, int, int] | None = None) -> np.ndarray | None:
        if selection is None:
            return None
        c0, r0, ww, hh = window if window is not None else (0, 0, self.width, self.height)
        if isinstance(selection, np.ndarray):
            if selection.shape != (self.width, self.height):
                raise ValueError(f"mask shape {selection.shape} differs from the map's {(self.width, self.height)}")
            return selection[c0:c0 + ww, r0:r0 + hh].astype(bool).ravel()
        mask = np.zeros(ww * hh, dtype=bool)
        if callable(selection):
            for i, (c, r) in enumerate((c, r) for c in range(c0, c0 + ww) for r in range(r0, r0 + hh)):
                mask[i] = bool(selection(Hex.from_offset(c, r, self.layout)))
        else:
            for h in selection:
                if h in self:
                    c, r = h.to_offset(self.layout)
                    if c0 <= c < c0 + ww and r0 <= r < r0 + hh:
                        mask[(c - c0) * hh + (r - r0)] = True
        return mask

    def _graph(self, unit_type: str, sources: np.ndarray, blocked: HexSelection, stop: HexSelection,
               window: tuple[int, int, int, int] | None = None) -> csr_matrix:
        if window is None and blocked is None and stop is None:
            return self._movement_graph(unit_type).csr
        nbr, w = self._edges(unit_type, window)
        keep = np.isfinite(w)
        bmask = self._mask(blocked, window)
        if bmask is not None:
            keep &= ~bmask[nbr]
        smask = self._mask(stop, window)
        if smask is not None:
            # Stop-on-entering (ZOC): the hex can be entered but not left, except by a unit
            # that starts there.
            smask[sources] = False
            keep &= ~smask[:, None]
        n = nbr.shape[0]
        indptr = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(keep.sum(axis=1, dtype=np.int32), out=indptr[1:])
        return csr_matrix((w[keep], nbr[keep].astype(np.int32), indptr), shape=(n, n))

    def _window(self, idx: np.ndarray, unit_type: str, limit: float) -> tuple[int, int, int, int] | None:
        """The block of the map a search with cost ``limit`` can reach, or ``None`` for (most of) the map.

        Every step costs at least the cheapest terrain plus the cheapest hexside, so nothing
        beyond ``limit / that`` hexes of a start is reached.
        """
        if not math.isfinite(limit):
            return None
        enter, sides = self._step_costs(unit_type)
        step = float(enter.min()) + min(0.0, float(sides.min()))
        if not step > 0:
            return None
        reach = int(math.floor(limit / step + 1e-9)) + 1  # + 1: offset rows drift by one
        cols, rows = idx // self.height, idx % self.height
        c0, c1 = max(int(cols.min()) - reach, 0), min(int(cols.max()) + reach + 1, self.width)
        r0, r1 = max(int(rows.min()) - reach, 0), min(int(rows.max()) + reach + 1, self.height)
        if 2 * (c1 - c0) * (r1 - r0) > self.width * self.height:
            return None
        return c0, r0, c1 - c0, r1 - r0

    def _dijkstra(self, starts: Iterable[Hex], unit_type: str, blocked: HexSelection, stop: HexSelection,
                  limit: float = INF, predecessors: bool = False):
        """Dijkstra from ``starts``; returns ``(window, result)`` with indices local to the window."""
        idx = np.array([self._index(h) for h in starts], dtype=np.int64)
        if idx.size == 0:
            raise ValueError("at least one start hex is needed")
        window = None if predecessors else self._window(idx, unit_type, limit)
        if window is not None:
            c0, r0, _ww, hh = window
            idx = (idx // self.height - c0) * hh + (idx % self.height - r0)
        graph = self._graph(unit_type, idx, blocked, stop, window)
        return window, dijkstra(graph, directed=True, indices=idx, min_only=True, limit=limit,
                                return_predecessors=predecessors)

    def cost_field(self, starts: Hex | Iterable[Hex], unit_type: str, *, blocked: HexSelection = None,
                   stop: HexSelection = None, limit: float = INF) -> np.ndarray:
        """Cheapest movement cost from the nearest start to every hex.

        With a finite ``limit`` only the block of the map within reach is built and searched.

        Args:
            starts: One hex or several (multi-source field).
            unit_type: Which costs to use.
            blocked: Hexes that may not be entered (enemy units, impassable extras).
            stop: Hexes where movement must stop on entering (zones of control); a start hex
                in ``stop`` may still be left.
            limit: Costs above this are not explored (reported as ``inf``).

        Returns:
            float64 ``(width, height)`` costs, ``inf`` where unreachable.
        """
        starts = [starts] if isinstance(starts, Hex) else list(starts)
        window, dist = self._dijkstra(starts, unit_type, blocked, stop, limit)
        if window is None:
            return np.asarray(dist).reshape(self.width, self.height)
        c0, r0, ww, hh = window
        out = np.full((self.width, self.height), INF)
        out[c0:c0 + ww, r0:r0 + hh] = np.asarray(dist).reshape(ww, hh)
        return out

    def reachable(self, start: Hex, allowance: float, unit_type: str, *, blocked: HexSelection = None,
                  stop: HexSelection = None) -> dict[Hex, float]:
        """Every hex reachable from ``start`` within ``allowance`` movement points, with its cost.

        The start hex is included at cost 0. The search runs on the unit type's cached
        whole-map graph (see :meth:`reachable_many`). See :meth:`cost_field` for ``blocked``
        and ``stop``.

        Raises:
            OffMapError: If ``start`` is off the map.
        """
        small = self._reach_small([start], allowance, unit_type, blocked, stop)
        if small is not None:
            return small[0]
        return self.reachable_many([start], allowance, unit_type, blocked=blocked, stop=stop)[0]

    def reachable_many(self, starts: Iterable[Hex], allowances: float | Iterable[float], unit_type: str, *,
                       blocked: HexSelection = None, stop: HexSelection = None) -> list[dict[Hex, float]]:
        """:meth:`reachable` for many units at once: scipy's Dijkstra with the units as sources.

        Each unit is searched on its own (the units do not block each other unless ``blocked``
        says so) with the same ``blocked`` and ``stop`` hexes; a unit that starts in a ``stop``
        hex may still leave it (the others may not), exactly as in :meth:`reachable`. The
        unit type's whole-map graph is built once and kept until :meth:`invalidate`; ``blocked``
        and ``stop`` are applied to a copy of its weights, touching only the edges of those hexes.
        Units too far apart to reach the same hex share one search (one row of costs per group);
        small reaches are searched in pure Python over the same graph, with the same results
        (see docs/geometry.md, "Small reaches").

        Args:
            starts: Each unit's hex.
            allowances: One movement allowance for all, or one per unit.
            unit_type: Which costs to use.
            blocked: Hexes that may not be entered (see :meth:`cost_field`).
            stop: Hexes where movement must stop on entering (zones of control).

        Returns:
            One ``{hex: cost}`` per unit, in the order of ``starts``, each with its start hex at
            cost 0 and the hexes in map index order.

        Raises:
            OffMapError: If a start hex is off the map.
            ValueError: If the number of allowances differs from the number of starts.

        >>> m = HexMap(4, 1, TerrainTable([TerrainType(0, "clear")]))
        >>> [sorted(h.to_label() for h in r) for r in m.reachable_many([m.hex_at(0, 0), m.hex_at(3, 0)], [1, 2], "foot")]
        [['0000', '0100'], ['0100', '0200', '0300']]
        """
        starts = list(starts)
        if not isinstance(allowances, int | float):
            allowances = [float(x) for x in allowances]
        small = self._reach_small(starts, allowances, unit_type, blocked, stop)
        if small is not None:
            return small
        ends, hits, costs = self._reach_search(starts, allowances, unit_type, blocked, stop)
        hexes = self._hexlist if self._hexlist is not None else self._hex_list()
        keys = hexes[hits].tolist()
        values = costs.tolist()
        out, lo = [], 0
        for hi in ends.tolist():
            out.append(dict(zip(keys[lo:hi], values[lo:hi], strict=True)))
            lo = hi
        return out

    def reachable_batch(self, starts: Iterable[Hex] | np.ndarray, allowances: float | Iterable[float], unit_type: str,
                        *, blocked: HexSelection = None, stop: HexSelection = None
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`reachable_many` as arrays, for bots that score moves with numpy: no Python object per hex.

        Args:
            starts: Each unit's hex, as hexes or an ``(N, 2)`` axial array.
            allowances: One movement allowance for all, or one per unit.
            unit_type: Which costs to use.
            blocked: Hexes that may not be entered (see :meth:`cost_field`).
            stop: Hexes where movement must stop on entering (zones of control).

        Returns:
            ``(offsets, hexes, costs)``: unit ``i`` reaches ``hexes[offsets[i]:offsets[i + 1]]``
            (int32 axial ``(q, r)`` rows, in map index order, its start included) at
            ``costs[offsets[i]:offsets[i + 1]]`` (float64): exactly :meth:`reachable_many`'s sets.

        Raises:
            OffMapError: If a start hex is off the map.
            ValueError: If the number of allowances differs from the number of starts.

        >>> m = HexMap(4, 1, TerrainTable([TerrainType(0, "clear")]))
        >>> offsets, hexes, costs = m.reachable_batch([m.hex_at(0, 0), m.hex_at(3, 0)], [1, 2], "foot")
        >>> offsets.tolist(), hexes[offsets[1]:].tolist(), costs[offsets[1]:].tolist()
        ([0, 2, 5], [[1, 0], [2, -1], [3, -1]], [2.0, 1.0, 0.0])
        """
        if isinstance(starts, np.ndarray):
            starts = [_hex(q, r) for q, r in np.asarray(starts).reshape(-1, 2).tolist()]
        ends, hits, costs = self._reach_search(starts, allowances, unit_type, blocked, stop)
        offsets = np.zeros(len(ends) + 1, dtype=np.int64)
        offsets[1:] = ends
        return offsets, self._axial_cells()[hits], costs

    def _axial_cells(self) -> np.ndarray:
        """The int32 axial ``(q, r)`` of each map index (computed once)."""
        if self._axial is None:
            cols, rows = np.divmod(np.arange(self.width * self.height), self.height)
            self._axial = offset_to_axial(np.column_stack((cols, rows)), self.layout)
            self._axial.flags.writeable = False
        return self._axial

    def _reach_search(self, starts: Iterable[Hex], allowances: float | Iterable[float], unit_type: str,
                      blocked: HexSelection, stop: HexSelection) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One Dijkstra call for all units: ``(ends, hits, costs)``, unit ``u``'s map indices being ``hits[ends[u-1]:ends[u]]``."""
        starts = list(starts)
        idx = np.array([self._index(h) for h in starts], dtype=np.int64)
        k = len(idx)
        if isinstance(allowances, int | float):
            budget = np.full(k, float(allowances))
        else:
            budget = np.array([float(x) for x in allowances], dtype=np.float64)
            if budget.shape != (k,):
                raise ValueError(f"reachable_many: {budget.size} allowances for {k} starts")
        if k == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
        g = self._movement_graph(unit_type)
        n = self.width * self.height
        reach = self._reach(g, float(budget.max()))
        window = None if reach is None else self._block(idx, reach)
        graph, sources = self._masked_graph(g, idx, self._selection(blocked, window), self._selection(stop, window))
        limit = float(budget.max())
        h = self.height
        if reach is not None and 3 * reach * reach * 2 < n and _GROUPED_MIN <= k <= _GROUPED_MAX:
            # Units far enough apart never reach the same hex: one min_only search of each such
            # group gives each unit's own costs in its disk (see _far_apart_groups), with one
            # row per group instead of one per unit.
            groups, row_of = self._far_apart_groups(idx, reach - 1)
            dist_rows = [dijkstra(graph, directed=True, indices=sources[grp], limit=limit, min_only=True)
                         for grp in groups]
        else:
            groups = None
            dist = dijkstra(graph, directed=True, indices=sources, limit=limit)
            row_of = np.arange(k)
            dist_rows = list(dist)
        for v in np.flatnonzero(sources != idx).tolist():
            dist_rows[row_of[v]][idx[v]] = 0.0  # a start left through a virtual copy (stop hexes)
        if reach is not None and 3 * reach * reach * 2 < n:
            # Read each unit's disk of cells within reach only (all in one gather), not its row.
            cols, rows = idx // h, idx % h
            dc, dr, flat_off = self._disk_cells(reach - 1)  # reach - 1: the hex radius (see _reach)
            parity = 2 * (cols & 1) + (rows & 1)
            cells = flat_off[parity]
            cells += idx[:, None]
            r = reach - 1
            edge = (cols < r) | (cols >= self.width - r) | (rows < r) | (rows >= h - r)
            off = None
            if edge.any():
                # Near the map's edge part of the disk is off the map: read the start (cost 0)
                # there and drop it below.
                e = np.flatnonzero(edge)
                c, rr = cols[e, None] + dc[parity[e]], rows[e, None] + dr[parity[e]]
                off = (c < 0) | (c >= self.width) | (rr < 0) | (rr >= h)
                ce = cells[e]
                np.copyto(ce, idx[e, None], where=off)
                cells[e] = ce
            if groups is None:
                vals = dist.ravel()[cells + (np.arange(k) * dist.shape[1])[:, None]]
            else:
                vals = np.empty(cells.shape)
                for grp, row in zip(groups, dist_rows, strict=True):
                    vals[grp] = row[cells[grp]]
            keep = vals <= budget[:, None]
            if off is not None:
                keep[e] &= ~off
            m_cells = cells.shape[1]
            found = np.flatnonzero(keep)
            hits, costs = cells.ravel()[found], vals.ravel()[found]
            ends = np.searchsorted(found, np.arange(1, k + 1) * m_cells)
        else:
            ok = (dist[:, :n] <= budget[:, None]) & (dist[:, :n] < INF)
            unit, hits = np.nonzero(ok)
            costs = dist[unit, hits]
            ends = np.searchsorted(unit, np.arange(1, k + 1))
        return np.asarray(ends, dtype=np.int64), hits, costs

    def _far_apart_groups(self, idx: np.ndarray, radius: int) -> tuple[list[np.ndarray], np.ndarray]:
        """Split the units at map indices ``idx`` into groups whose hexes are at least
        ``2 * radius + 1`` apart (greedily, in the order given): ``(groups, group of each unit)``.

        No path within the allowance leaves a unit's disk of ``radius`` hexes (each step costs at
        least the cheapest step, see :meth:`_reach`), and the disks of a group's units do not
        meet, so in a search from all of a group's units at once each hex within reach of one
        unit gets that unit's own cost (any path from another costs more than the allowance),
        the same float sums as a search from that unit alone.
        """
        ax = self._axial_cells()[idx].astype(np.int64)
        dq, dr = ax[:, 0, None] - ax[None, :, 0], ax[:, 1, None] - ax[None, :, 1]
        near = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) >> 1 < 2 * radius + 1
        earlier, later = np.nonzero(np.triu(near, 1))
        clashes: list[list[int]] = [[] for _ in range(len(idx))]
        for i, j in zip(earlier.tolist(), later.tolist(), strict=True):
            clashes[j].append(i)
        group_of: list[int] = []
        for mine in clashes:
            taken = {group_of[i] for i in mine}
            g = 0
            while g in taken:
                g += 1
            group_of.append(g)
        row_of = np.array(group_of, dtype=np.int64)
        order = np.argsort(row_of, kind="stable")
        counts = np.bincount(row_of)
        return np.split(order, np.cumsum(counts)[:-1]), row_of

    def _reach_small(self, starts: list[Hex], allowances: float | list[float], unit_type: str,
                     blocked: HexSelection, stop: HexSelection) -> list[dict[Hex, float]] | None:
        """:meth:`reachable_many` by the pure-Python search (:func:`_search_small`), or ``None``
        where scipy's one call is faster: when the hexes the units can reach at most (a disk of
        ``allowance / cheapest step`` hexes each, or the map) are more than :data:`_SMALL_SEARCH`.

        Small searches are what rule code asks (one unit, a few movement points, often a small
        map), and scipy's call costs a fixed 100 µs or so whatever the size; the two give the
        same hexes and costs, and the dicts are in map index order either way.
        """
        k = len(starts)
        budgets = [float(allowances)] * k if isinstance(allowances, int | float) else allowances
        if k == 0 or len(budgets) != k or not max(budgets) >= 0:
            return None  # nothing to search, or what _reach_search reports (a mismatch, scipy's negative limit)
        g = self._movement_graph(unit_type)
        reach = self._reach(g, max(budgets))
        if reach is None:
            return None
        radius = reach - 1  # the hex radius (see _reach)
        # the bucket form (whole-number costs) is cheaper per hex: its crossover is further out
        limit = _SMALL_SEARCH * 4 // 3 if g.integral and max(budgets) <= _BUCKETS_MAX else _SMALL_SEARCH
        if k * min(3 * radius * (radius + 1) + 1, self.width * self.height) > limit:
            return None
        idx = [self._index(h) for h in starts]
        window = self._block(np.array(idx, dtype=np.int64), reach) if callable(blocked) or callable(stop) else None
        no_entry, no_exit = self._index_set(blocked, window), self._index_set(stop, window)
        hexes = self._hexes_py if self._hexes_py is not None else self._hex_list_py()
        out: list[dict[Hex, float]] = []
        for i, budget in zip(idx, budgets, strict=True):
            if not budget >= 0:
                out.append({})  # as scipy's search: not even the start is within a negative allowance
                continue
            out.append(_search_small(g, hexes, i, budget, no_entry, no_exit))
        return out

    def _index_set(self, selection: HexSelection, window: tuple[int, int, int, int] | None
                   ) -> set[int] | frozenset[int]:
        """The map indices of a selection, as a set (see :meth:`_selection`)."""
        if selection is None:
            return _NO_EXTRA
        if isinstance(selection, np.ndarray) or callable(selection):
            return set(self._given_selection(selection, window).tolist())
        return set(self._hex_indices(selection))

    def _given_selection(self, selection: HexSelection, window: tuple[int, int, int, int] | None) -> np.ndarray:
        """:meth:`_selection` of a selection that is not ``None``."""
        out = self._selection(selection, window)
        assert out is not None, "a selection was given"
        return out

    def _hex_list_py(self) -> list[Hex]:
        """:meth:`_hex_list` as a Python list (indexing it is cheaper than an object array's)."""
        hexes = self._hexlist if self._hexlist is not None else self._hex_list()
        self._hexes_py = hexes.tolist()
        return self._hexes_py

    def _index_dict(self) -> dict[Hex, int]:
        """Each map hex's index ``col * height + row`` (computed once)."""
        hexes = self._hexes_py if self._hexes_py is not None else self._hex_list_py()
        self._index_of = {h: i for i, h in enumerate(hexes)}
        return self._index_of

    def _hex_list(self) -> np.ndarray:
        """The (interned) hex of each map index ``col * height + row``, as an object array."""
        cols, rows = np.divmod(np.arange(self.width * self.height), self.height)
        axial = offset_to_axial(np.column_stack((cols, rows)), self.layout).tolist()
        out = np.empty(len(axial), dtype=object)
        out[:] = [_hex(q, r) for q, r in axial]
        out.flags.writeable = False
        self._hexlist = out
        return out

    def _movement_graph(self, unit_type: str) -> _Graph:
        """The unit type's whole-map graph (cached until :meth:`invalidate`)."""
        g = self._csr.get(unit_type)
        if g is not None:
            return g
        nbr, w = self._edges(unit_type)
        keep = np.isfinite(w)
        n = nbr.shape[0]
        indptr = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(keep.sum(axis=1, dtype=np.int32), out=indptr[1:])
        csr = csr_matrix((w[keep], nbr[keep].astype(np.int32), indptr), shape=(n, n))
        enter, sides = self._step_costs(unit_type)
        step = float(enter.min(initial=INF)) + min(0.0, float(sides.min(initial=0.0)))
        for arr in (csr.data, csr.indices, csr.indptr):
            arr.flags.writeable = False
        integral = bool(np.array_equal(csr.data, np.floor(csr.data)))
        g = self._csr[unit_type] = _Graph(csr, nbr, w, step, integral)
        return g

    def _reach(self, g: _Graph, limit: float) -> int | None:
        """How many hexes (in offset rows and columns) a search with cost ``limit`` can get from its start, or ``None``."""
        if not (math.isfinite(limit) and g.step > 0 and math.isfinite(g.step)):
            return None
        return max(int(math.floor(limit / g.step + 1e-9)), 0) + 1  # + 1: offset rows drift by one

    def _block(self, idx: np.ndarray, reach: int) -> tuple[int, int, int, int]:
        """The block ``(col0, row0, cols, rows)`` within ``reach`` of every start."""
        cols, rows = idx // self.height, idx % self.height
        c0, c1 = max(int(cols.min()) - reach, 0), min(int(cols.max()) + reach + 1, self.width)
        r0, r1 = max(int(rows.min()) - reach, 0), min(int(rows.max()) + reach + 1, self.height)
        return c0, r0, c1 - c0, r1 - r0

    def _disk_cells(self, radius: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(dcol, drow, flat)``, each ``(4, M)``: the offsets of the hexes within ``radius`` of a
        hex of parity class ``2 * (col % 2) + (row % 2)``, in map index order, and the same as
        map index offsets ``dcol * height + drow`` (cached per radius)."""
        cached = self._disks.get(radius)
        if cached is not None:
            return cached
        dcs, drs = [], []
        for pc in range(4):
            c0, r0 = 2 * radius + 2 + (pc >> 1), 2 * radius + 2 + (pc & 1)
            center = Hex.from_offset(c0, r0, self.layout)
            cells = sorted(h.to_offset(self.layout) for h in center.disk(radius))
            dcs.append([c - c0 for c, _ in cells])
            drs.append([r - r0 for _, r in cells])
        dc, dr = np.array(dcs, dtype=np.int64), np.array(drs, dtype=np.int64)
        out = (dc, dr, dc * self.height + dr)
        for arr in out:
            arr.flags.writeable = False
        self._disks[radius] = out
        return out

    def _selection(self, selection: HexSelection, window: tuple[int, int, int, int] | None) -> np.ndarray | None:
        """The map indices of a selection; a predicate is asked only inside ``window`` (nothing outside is reached)."""
        if selection is None:
            return None
        if isinstance(selection, np.ndarray):
            return np.flatnonzero(self._given_mask(selection))
        if callable(selection):
            c0, r0, ww, hh = window if window is not None else (0, 0, self.width, self.height)
            local = np.flatnonzero(self._given_mask(selection, (c0, r0, ww, hh)))
            return (local // hh + c0) * self.height + local % hh + r0
        return np.array(self._hex_indices(selection), dtype=np.int64)

    def _hex_indices(self, hexes: Iterable[Hex]) -> list[int]:
        """The map index of each hex of ``hexes`` on the map (others are left out), through the
        hex -> index table: a look-up each, not an offset conversion each (ZOC sets are hundreds)."""
        items = hexes if isinstance(hexes, (set, frozenset, list, tuple)) else list(hexes)  # noqa: UP038 (faster)
        get = (self._index_of if self._index_of is not None else self._index_dict()).get
        try:
            return [i for h in items if (i := get(h)) is not None]
        except TypeError:  # an unhashable item: not a hex, so not on the map
            out = []
            for h in items:
                if h in self:
                    c, r = h.to_offset(self.layout)
                    out.append(c * self.height + r)
            return out

    def _masked_graph(self, g: _Graph, idx: np.ndarray, blocked: np.ndarray | None, stop: np.ndarray | None
                      ) -> tuple[csr_matrix, np.ndarray]:
        """The graph with ``blocked`` hexes not enterable and ``stop`` hexes not leavable, and each start's source node.

        A start in a stop hex gets a virtual copy of its node with its own edges out, so that
        unit may leave while the others may not.
        """
        if (blocked is None or not blocked.size) and (stop is None or not stop.size):
            return g.csr, idx
        n = g.csr.shape[0]
        out_pos, in_pos = g.positions()
        data = g.csr.data.copy()
        if blocked is not None and blocked.size:
            p = in_pos[blocked].ravel()
            data[p[p >= 0]] = INF  # an infinite weight never relaxes: the edge is as good as gone
        if stop is None or not stop.size:
            return csr_matrix((data, g.csr.indices, g.csr.indptr), shape=(n, n)), idx
        in_stop = np.zeros(n, dtype=bool)
        in_stop[stop] = True
        leave = np.unique(idx[in_stop[idx]])
        vpos = out_pos[leave]
        vpos = [row[row >= 0] for row in vpos]
        p = out_pos[stop].ravel()
        v_data = [data[x] for x in vpos]  # before the stop hexes lose their edges
        data[p[p >= 0]] = INF
        if not leave.size:
            return csr_matrix((data, g.csr.indices, g.csr.indptr), shape=(n, n)), idx
        counts = np.array([len(x) for x in vpos], dtype=np.int32)
        indptr = np.concatenate((g.csr.indptr, g.csr.indptr[-1] + np.cumsum(counts, dtype=np.int32)))
        indices = np.concatenate([g.csr.indices, *(g.csr.indices[x] for x in vpos)])
        data = np.concatenate([data, *v_data])
        m = n + len(leave)
        graph = csr_matrix((data, indices, indptr), shape=(m, m))
        sources = idx.copy()
        hit = in_stop[idx]
        sources[hit] = n + np.searchsorted(leave, idx[hit])
        return graph, sources

    def shortest_path(self, start: Hex, goal: Hex, unit_type: str, *, blocked: HexSelection = None,
                      stop: HexSelection = None) -> Path | None:
        """The cheapest path from ``start`` to ``goal``, or ``None`` if there is none.

        Ties between equally cheap paths are broken by scipy's Dijkstra, deterministically.
        See :meth:`cost_field` for ``blocked`` and ``stop``.

        Raises:
            OffMapError: If either hex is off the map.
        """
        gi = self._index(goal)
        _window, (dist, pred, _sources) = self._dijkstra([start], unit_type, blocked, stop, predecessors=True)
        if not np.isfinite(dist[gi]):
            return None
        path = [gi]
        while pred[path[-1]] >= 0:
            path.append(int(pred[path[-1]]))
        return Path(tuple(self._hex_of_index(i) for i in reversed(path)), float(dist[gi]))

    # -- line of sight --------------------------------------------------------------------------

    def line_of_sight(
        self,
        a: Hex,
        b: Hex,
        *,
        los_class: np.ndarray | None = None,
        blocking: HexSelection = None,
        elevation_hook: ElevationHook | None = None,
        edge: Literal["primary", "worse", "better"] = "primary",
        hexside_at_ends: bool = False,
    ) -> LineOfSight:
        """Check line of sight from ``a`` to ``b``, counting the hexes between (both ends excluded).

        Hexside features with an LOS class (:attr:`HexsideFeature.los`: walls, hedges) count
        once for each hexside the line crosses, as one more hindering or blocking "hex"; the
        hexsides of ``a`` and ``b`` themselves count only with ``hexside_at_ends=True``.

        The walk stops at the first blocking hex; the full counts of a blocked line are worked
        out only if read (see :class:`LineOfSight`). The map's class tables are cached until
        :meth:`invalidate`; a read-only ``los_class`` array is converted once and cached too
        (a writable one is converted on every call), then walked the same way. With an ``elevation_hook`` the whole line
        is walked at once (the hook and the elevation layer are read during the call).

        Args:
            a: The origin hex.
            b: The target hex.
            los_class: ``(width, height)`` classes (0 clear, 1 hindering, 2 blocking); default
                from the terrain via the table.
            blocking: Extra blocking hexes (wrecks, smoke), as a mask, hexes or predicate.
            elevation_hook: ``hook(hex, hex_elevation, a_elevation, b_elevation)`` returning
                True if that hex is seen over (it then neither blocks nor hinders). Hexsides
                are not passed to it.
            edge: Which line to use where it runs along hexsides: ``"primary"`` (the ``+1``
                nudge of :func:`~wargamekit.geometry.hex.hex_line`), ``"worse"`` (whichever of
                the two nudges sees worse: more blocking, then more hindering; "hindered if
                either side is") or ``"better"``.
            hexside_at_ends: Whether the origin's and target's own hexsides count (default:
                no, like the terrain of the two hexes).

        Raises:
            OffMapError: If ``a`` or ``b`` is off the map.
            ValueError: If ``edge`` is unknown or ``los_class`` has the wrong shape.
        """
        stride, qmin, rmin, _ncell, onmap, code, sides = self._los or self._los_tables()
        ar, br = a.r - rmin, b.r - rmin
        ia = (a.q - qmin) * stride + ar
        ib = (b.q - qmin) * stride + br
        try:
            # (ia | ib | ar | br) < 0: any of them negative; an index past the end raises.
            on = (ia | ib | ar | br) >= 0 and ar < stride and br < stride and onmap[ia] and onmap[ib]
        except IndexError:
            on = False
        if not on:
            self.offset(a)  # raise the usual error for whichever is off the map
            self.offset(b)
        if edge != "primary" and edge not in _EDGES:
            raise ValueError(f"edge must be 'primary', 'worse' or 'better', got {edge!r}")
        # _line_steps, inlined: this method is called in rule code's inner loops.
        dq, dr = b.q - a.q, br - ar
        adq, adr = abs(dq), abs(dr)
        n = (adq + adr + abs(dq + dr)) >> 1
        if adq == n:
            alpha, beta, sec = (stride if dq > 0 else -stride), 1, dr
        elif adr == n:
            alpha, beta, sec = (1 if dr > 0 else -1), stride, dq
        else:
            alpha, beta, sec = (-stride if dq + dr < 0 else stride), 1 - stride, dr
        if los_class is not None:
            # (converted before the fast path's test: a caller's read-only classes, kept
            # converted, take the inline walk below as the map's own do)
            code = self._user_code(self._grid or self._los_grid(), los_class)
        if (sides is None and blocking is None and elevation_hook is None
                and (edge == "primary" or not _has_tie(n, sec))):
            # The common query: _walk's tight loop, inlined, stopping at the first block. A short
            # line seen before steps through its cached offsets from ``ia`` (no arithmetic).
            nb = nh = 0
            if n <= _LOS_CACHE_RANGE:
                lines = _LINE_CACHES[stride]
                offsets = lines.get(dq * _LINE_KEY + dr)
                if offsets is None:
                    offsets = _cache_line(lines, dq, dr, n, alpha, beta, sec)
                for o in offsets:
                    if c := code[ia + o]:  # most hexes are clear: one test
                        if c == 2:
                            nb = 1
                            break
                        if c == 1:
                            nh += 1
            else:  # long lines mostly stop early at a block: a table would cost more than steps
                num, d2, n2 = n, 2 * sec, 2 * n
                for i in range(1, n):
                    num += d2
                    if c := code[ia + alpha * i + beta * (num // n2)]:
                        if c == 2:
                            nb = 1
                            break
                        if c == 1:
                            nh += 1
            los = _object_new(LineOfSight)
            if nb:
                _set_clear(los, False)
                _set_rest(los, (None, None, None, a, b, (code, None, None, _NO_EXTRA, ia, n, alpha, beta,
                                                         sec, False, "primary")))
            else:
                _set_clear(los, True)
                _set_rest(los, (0, nh, 1, a, b, None))
            return los
        grid = self._grid or self._los_grid()
        extra = _NO_EXTRA if blocking is None else self._extra_blocking(grid, blocking)
        step = grid.side_step
        if elevation_hook is not None:
            hook = self._hook(grid, elevation_hook, a, b)
            walk = functools.partial(_walk, code, sides, step, extra, ia, n, alpha, beta, sec,
                                     ends=hexside_at_ends, hook=hook)
            nb, nh, nudge = _los_exact(walk, n, sec, edge)
            return _new_los(not nb, (nb, nh, nudge, a, b, None))
        # Every input below is an immutable snapshot (tuples, frozenset, ints), so the full
        # counts can be left to the first read.
        lazy = (None, None, None, a, b, (code, sides, step, extra, ia, n, alpha, beta, sec, hexside_at_ends, edge))
        nb, nh = _walk(code, sides, step, extra, ia, n, alpha, beta, sec, 1, 1, hexside_at_ends)
        if edge == "primary" or not _has_tie(n, sec):
            return _new_los(not nb, lazy if nb else (0, nh, 1, a, b, None))
        if nb and edge == "worse":
            return _new_los(False, lazy)
        nb2, nh2 = _walk(code, sides, step, extra, ia, n, alpha, beta, sec, -1, 1, hexside_at_ends)
        if edge == "worse":
            # Both clear: the worse line hinders more (the primary one on a tie).
            return _new_los(not nb2, lazy if nb2 else (0, max(nh, nh2), 1 if nh >= nh2 else -1, a, b, None))
        if nb and nb2:
            return _new_los(False, lazy)
        if nb or nb2:
            return _new_los(True, (0, nh2, -1, a, b, None) if nb else (0, nh, 1, a, b, None))
        return _new_los(True, (0, min(nh, nh2), 1 if nh <= nh2 else -1, a, b, None))

    def _los_grid(self) -> _LosGrid:
        self._grid = _LosGrid.of(self.width, self.height, self.layout)
        return self._grid

    def _flat(self, grid: _LosGrid, h: Hex) -> int:
        """The flat grid index of a map hex.

        Raises:
            OffMapError: If ``h`` is not on the map.
        """
        q, r = h.q - grid.qmin, h.r - grid.rmin
        i = q * grid.stride + r
        if not (0 <= r < grid.stride and 0 <= i < grid.ncell and grid.onmap[i]):
            self.offset(h)  # raises the usual error
        return i

    def _los_tables(self) -> tuple:
        """``(stride, qmin, rmin, ncell, onmap, code, sides)``: the grid and the class tables,
        kept until :meth:`invalidate` (short lines' offsets are cached apart: _LINE_CACHES)."""
        grid = self._grid or self._los_grid()
        code = grid.code_of(self.los_class())
        sides = None
        hs = self.hexside_los_class()
        if hs is not None and hs.any():
            table, _lut = _side_tables(hs, self.width, self.height, _axial_grid(self.width, self.height, self.layout), 2)
            sides = tuple(table.tolist())
        self._los = (grid.stride, grid.qmin, grid.rmin, grid.ncell, grid.onmap, code, sides)
        return self._los

    def _user_code(self, grid: _LosGrid, los_class: np.ndarray) -> tuple[int, ...]:
        """The class table of a caller's ``los_class`` (cached for read-only arrays, by identity).

        A read-only array is taken to keep its contents (numpy only lets its owner make it
        writable again; one that has become writable is converted afresh). A writable array (or
        any other sequence) is converted in full at every call — a whole-map pass per line of
        sight — as its contents may have changed since: a caller that asks many lines with the
        same classes should pass them read-only (``arr.flags.writeable = False``).
        """
        cached = self._user_codes.get(id(los_class))
        if cached is not None and cached[0] is los_class:
            if not los_class.flags.writeable:
                return cached[1]
            del self._user_codes[id(los_class)]  # made writable again: its contents may change
        arr = np.asarray(los_class)
        if arr.shape != (self.width, self.height):
            raise ValueError(f"los_class shape {arr.shape} differs from the map's {(self.width, self.height)}")
        code = grid.code_of(arr)
        if isinstance(los_class, np.ndarray) and _read_only(los_class):
            if len(self._user_codes) >= 8:
                self._user_codes.pop(next(iter(self._user_codes)))
            self._user_codes[id(los_class)] = (los_class, code)
        return code

    def _extra_blocking(self, grid: _LosGrid, blocking: HexSelection) -> frozenset[int]:
        """The flat grid indices of the on-map hexes of a ``blocking=`` selection."""
        if isinstance(blocking, np.ndarray) or callable(blocking):
            mask = self._given_mask(blocking)
            return frozenset(grid.cell[np.flatnonzero(mask)].tolist())
        out = set()
        for h in blocking:  # type: ignore[union-attr]
            i = (h.q - grid.qmin) * grid.stride + (h.r - grid.rmin)
            if 0 <= h.r - grid.rmin < grid.stride and 0 <= i < grid.ncell and grid.onmap[i]:
                out.add(i)
        return frozenset(out)

    def _hook(self, grid: _LosGrid, hook: ElevationHook, a: Hex, b: Hex) -> Callable[[int], bool]:
        """The elevation hook as a predicate on flat grid indices."""
        elevation, layout, stride = self.elevation, self.layout, grid.stride
        ea, eb = int(elevation[self.offset(a)]), int(elevation[self.offset(b)])

        def seen_over(i: int) -> bool:
            h = _hex(i // stride + grid.qmin, i % stride + grid.rmin)
            return bool(hook(h, int(elevation[h.to_offset(layout)]), ea, eb))

        return seen_over

    def line_of_sight_batch(
        self,
        pairs_a: np.ndarray,
        pairs_b: np.ndarray,
        *,
        los_class: np.ndarray | None = None,
        blocking_mask: np.ndarray | None = None,
        stop_after_blocking: int | None = None,
        edge: Literal["primary", "worse", "better"] = "primary",
        nudge: int = 1,
        hexside_at_ends: bool = False,
        elevation_hook: BatchElevationHook | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:func:`~wargamekit.geometry.hexbatch.line_of_sight_batch` on this map's layers.

        The terrain LOS classes, the hexside LOS classes (if any feature has one) and the
        elevation layer come from the map. ``elevation_hook`` is the array form
        (:data:`~wargamekit.geometry.hexbatch.BatchElevationHook`) of the scalar hook.
        """
        cls = self.los_class() if los_class is None else los_class
        return line_of_sight_batch(pairs_a, pairs_b, cls, self.layout, blocking_mask=blocking_mask,
                                   stop_after_blocking=stop_after_blocking, edge=edge, nudge=nudge,
                                   hexside_los=self.hexside_los_class(), hexside_at_ends=hexside_at_ends,
                                   elevation=self.elevation, elevation_hook=elevation_hook)
