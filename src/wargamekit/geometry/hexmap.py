"""Hex maps: terrain and elevation layers, hexside features, movement costs, paths and line of sight.

A :class:`HexMap` is a rectangular printed map of ``width x height`` hexes in an
:class:`~wargamekit.geometry.hex.OffsetLayout`. Layers are numpy arrays indexed by
``(col, row)``. What terrain *means* (movement cost per unit type, line-of-sight class) comes
from a ruleset-supplied :class:`TerrainTable`.

Movement costs and paths run scipy's Dijkstra on a CSR graph built with numpy: an edge
``g -> h`` for every pair of adjacent map hexes, weighted by the cost of entering ``h`` from
``g`` (terrain of ``h`` plus the hexside crossed). The edge arrays are cached per unit type;
call :meth:`HexMap.invalidate` after writing to the layer arrays directly (the setter methods
do it for you).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Literal

import numpy as np
from attrs import Factory, define, field, frozen
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from wargamekit.geometry.hex import DIRECTIONS, Hex, OffsetLayout, hex_line
from wargamekit.geometry.hexbatch import BatchElevationHook, axial_to_offset, line_of_sight_batch, offset_to_axial

from .._convert import as_tuple
from ..errors import OffMapError

__all__ = [
    "CLEAR",
    "HINDERING",
    "BLOCKING",
    "OffMapError",
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


def _zeros(shape_attr: str, dtype: type):
    def make(self: HexMap) -> np.ndarray:
        extra = (6,) if shape_attr == "hexsides" else ()
        return np.zeros((self.width, self.height, *extra), dtype=dtype)

    return Factory(make, takes_self=True)


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

    >>> table = TerrainTable([TerrainType(0, "clear"), TerrainType(1, "woods", 2, los=2)])
    >>> m = HexMap(5, 5, table)
    >>> m.set_terrain(Hex.from_offset(2, 2), 1)
    >>> m.line_of_sight(Hex.from_offset(0, 2), Hex.from_offset(4, 2)).clear
    False
    >>> m.shortest_path(Hex.from_offset(0, 2), Hex.from_offset(4, 2), "infantry").cost
    4.0
    """

    width: int
    height: int
    table: TerrainTable
    layout: OffsetLayout = OffsetLayout.ODD_Q
    terrain: np.ndarray = _zeros("terrain", np.int16)
    elevation: np.ndarray = _zeros("elevation", np.int16)
    hexsides: np.ndarray = _zeros("hexsides", np.int8)
    _graphs: dict[str, tuple[np.ndarray, np.ndarray]] = field(factory=dict, init=False, repr=False)
    _nbr: tuple[np.ndarray, np.ndarray] | None = field(default=None, init=False, repr=False)

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
        c, r = h.to_offset(self.layout)
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

    def invalidate(self) -> None:
        """Forget cached movement graphs (call after writing to the layer arrays directly)."""
        self._graphs.clear()

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
        return int(self.hexsides[(*self.offset(h), direction % 6)])

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
        enter = self.table.enter_costs(unit_type)
        code = int(self.terrain[self.offset(to_hex)])
        cost = enter[code] if code < len(enter) else INF
        sides = self.table.hexside_costs(unit_type)
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

        The start hex is included at cost 0. Only the block of the map within reach is built
        and searched. See :meth:`cost_field` for ``blocked`` and ``stop``.
        """
        window, dist = self._dijkstra([start], unit_type, blocked, stop, allowance)
        c0, r0, _ww, hh = window if window is not None else (0, 0, self.width, self.height)
        dist = np.asarray(dist)
        hits = np.flatnonzero(dist <= allowance)
        axial = offset_to_axial(np.column_stack((hits // hh + c0, hits % hh + r0)), self.layout)
        return {Hex(q, r): c for (q, r), c in zip(axial.tolist(), dist[hits].tolist(), strict=True)}

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
            ValueError: If ``edge`` is unknown.
        """
        self.offset(a)
        self.offset(b)
        if edge not in ("primary", "worse", "better"):
            raise ValueError(f"edge must be 'primary', 'worse' or 'better', got {edge!r}")
        cls = self.los_class() if los_class is None else np.asarray(los_class)
        extra = self._mask(blocking)
        sides = self.hexside_los_class()
        ea, eb = int(self.elevation[self.offset(a)]), int(self.elevation[self.offset(b)])

        def check(nudge: int) -> LineOfSight:
            line = hex_line(a, b, nudge=nudge)
            last = len(line) - 1
            nb = nh = 0
            for i in range(1, last + 1):
                h = line[i]
                if sides is not None and (hexside_at_ends or 1 < i < last):
                    k = self._crossed_side(sides, line[i - 1], h)
                    nb += k == BLOCKING
                    nh += k == HINDERING
                if i == last or h not in self:
                    continue  # a line may graze off a map's zigzag edge: off-map is clear
                c, r = h.to_offset(self.layout)
                k = 2 if extra is not None and extra[c * self.height + r] else int(cls[c, r])
                if k and elevation_hook is not None and elevation_hook(h, int(self.elevation[c, r]), ea, eb):
                    k = 0
                nb += k == BLOCKING
                nh += k == HINDERING
            return LineOfSight(nb == 0, nb, nh, tuple(line[1:-1]))

        if edge == "primary":
            return check(1)
        first, second = check(1), check(-1)
        if (first.blocking, first.hindering) == (second.blocking, second.hindering):
            return first
        worse = max(first, second, key=lambda s: (s.blocking, s.hindering))
        better = second if worse is first else first
        return worse if edge == "worse" else better

    def _crossed_side(self, sides: np.ndarray, frm: Hex, to: Hex) -> int:
        """LOS class of the hexside between adjacent ``frm`` and ``to`` (seen from whichever is on the map)."""
        d = frm.direction_to(to)
        if frm in self:
            return int(sides[(*frm.to_offset(self.layout), d)])
        if to in self:
            return int(sides[(*to.to_offset(self.layout), (d + 3) % 6)])
        return CLEAR

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
