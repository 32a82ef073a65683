"""Axial hex coordinates: distance, neighbours, rings, disks, lines, rotation, offset labels.

Coordinates are axial ``(q, r)`` with the implied cube coordinate ``s = -q - r``. The six
directions are numbered 0..5 in a fixed order (see :data:`DIRECTIONS`): direction 0 is
``(+1, 0)``, and the numbers go counterclockwise on screen. On a flat-top map direction 0 is
south-east (1 north-east, 2 north, 3 north-west, 4 south-west, 5 south); on a pointy-top map
it is east (1 north-east, 2 north-west, 3 west, 4 south-west, 5 south-east).

Corner (vertex) ``v`` is the corner shared by hexsides ``v`` and ``v + 1`` (mod 6).

Speed: a :class:`Hex` is immutable, so the operations that return many hexes (``disk``,
``ring``, ``neighbours``, :func:`hex_line`) hand out shared instances from a bounded intern
table instead of building new objects: a disk is a few list slices of interned columns, and
building a hex costs about what building a ``(q, r)`` tuple costs. ``copy`` and ``deepcopy``
return the hex itself.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterator

from attrs import field, frozen

from ..errors import HexLabelError
from ..memo import remember

__all__ = [
    "HexLabels",
    "DIRECTIONS",
    "Hex",
    "OffsetLayout",
    "hex_line",
    "hex_line_pair",
    "LINE_EPSILON",
]

#: Axial ``(dq, dr)`` of the six directions, index = direction number.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: Cube nudge ``(eq, er, es)`` added to every interpolated point of a line. The three parts are
#: different and sum to zero, so a point exactly on a hex edge or corner always rounds the same
#: way. :func:`hex_line` with ``nudge=-1`` subtracts it instead (the "other side" of the edge).
LINE_EPSILON: tuple[float, float, float] = (1e-6, 2e-6, -3e-6)



class OffsetLayout(enum.Enum):
    """How a rectangular printed map shoves alternate columns or rows.

    ``ODD_Q`` and ``EVEN_Q`` are flat-top maps whose odd (even) columns sit half a hex lower;
    ``ODD_R`` and ``EVEN_R`` are pointy-top maps whose odd (even) rows sit half a hex to the
    right.
    """

    ODD_Q = "odd-q"
    EVEN_Q = "even-q"
    ODD_R = "odd-r"
    EVEN_R = "even-r"

    @property
    def flat_top(self) -> bool:
        """True for the flat-top (column-shoved) layouts."""
        return self in (OffsetLayout.ODD_Q, OffsetLayout.EVEN_Q)

    def __repr__(self) -> str:
        return f"OffsetLayout.{self.name}"


def _axial_to_offset(q: int, r: int, layout: OffsetLayout) -> tuple[int, int]:
    if layout is OffsetLayout.ODD_Q:
        return q, r + (q - (q & 1)) // 2
    if layout is OffsetLayout.EVEN_Q:
        return q, r + (q + (q & 1)) // 2
    if layout is OffsetLayout.ODD_R:
        return q + (r - (r & 1)) // 2, r
    return q + (r + (r & 1)) // 2, r


def _offset_to_axial(col: int, row: int, layout: OffsetLayout) -> tuple[int, int]:
    if layout is OffsetLayout.ODD_Q:
        return col, row - (col - (col & 1)) // 2
    if layout is OffsetLayout.EVEN_Q:
        return col, row - (col + (col & 1)) // 2
    if layout is OffsetLayout.ODD_R:
        return col - (row - (row & 1)) // 2, row
    return col - (row + (row & 1)) // 2, row


@frozen(repr=False, order=True, init=False, hash=False)
class Hex:
    """One hex in axial coordinates.

    Args:
        q: The axial column.
        r: The axial row.

    >>> Hex(2, -1)
    Hex(2, -1)
    >>> Hex(2, -1).s
    -1
    >>> Hex(0, 0).distance(Hex(3, -1))
    3
    """

    q: int
    r: int
    _hash: int = field(init=False, eq=False, order=False, repr=False)

    def __init__(self, q: int, r: int) -> None:
        # The slots' own setters: a third cheaper than attrs' frozen __init__.
        _set_q(self, q)
        _set_r(self, r)
        # Hashed once: hexes are dict and set keys everywhere (attrs' generated hash builds a
        # tuple per call). The value depends on (q, r) only, so set order is the same in every run.
        _set_hash(self, hash((q, r)))

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"

    def __copy__(self) -> Hex:
        return self

    def __deepcopy__(self, memo: dict) -> Hex:
        return self

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    # -- offset coordinates and printed labels ------------------------------------------------

    @classmethod
    def from_offset(cls, col: int, row: int, layout: OffsetLayout = OffsetLayout.ODD_Q) -> Hex:
        """Build a hex from printed-map offset coordinates.

        Args:
            col: The map column.
            row: The map row.
            layout: Which columns or rows are shoved.

        >>> Hex.from_offset(3, 4)
        Hex(3, 3)
        """
        return cls(*_offset_to_axial(col, row, layout))

    def to_offset(self, layout: OffsetLayout = OffsetLayout.ODD_Q) -> tuple[int, int]:
        """Return ``(col, row)`` in the given offset layout.

        >>> Hex(3, 3).to_offset()
        (3, 4)
        """
        return _axial_to_offset(self.q, self.r, layout)

    @classmethod
    def from_label(cls, label: str, layout: OffsetLayout = OffsetLayout.ODD_Q, *, base: int = 0) -> Hex:
        """Parse a printed label such as ``"0304"`` (column 03, row 04).

        The label is an even number (4 or more) of digits: the first half is the column and
        the second half the row. ``base`` is the number printed on the first column and row
        (0 keeps labels equal to the offset coordinates; many printed maps use 1).

        Raises:
            HexLabelError: If the label is not an even number of at least four digits.

        >>> Hex.from_label("0304")
        Hex(3, 3)
        >>> Hex.from_label("0304").to_label()
        '0304'
        """
        if not (isinstance(label, str) and label.isdigit() and len(label) >= 4 and len(label) % 2 == 0):
            raise HexLabelError(f"hex label {label!r} is not an even number (>= 4) of digits, like '0304'")
        half = len(label) // 2
        return cls.from_offset(int(label[:half]) - base, int(label[half:]) - base, layout)

    def to_label(self, layout: OffsetLayout = OffsetLayout.ODD_Q, *, base: int = 0, digits: int = 2) -> str:
        """Format the printed label, ``digits`` digits for the column and for the row.

        Raises:
            HexLabelError: If the column or row is negative or too wide for ``digits``.
        """
        col, row = self.to_offset(layout)
        col, row = col + base, row + base
        if col < 0 or row < 0 or col >= 10**digits or row >= 10**digits:
            raise HexLabelError(f"{self!r} has offset ({col}, {row}), which has no {digits}-digit label")
        return f"{col:0{digits}d}{row:0{digits}d}"

    # -- neighbours and distance -------------------------------------------------------------

    def __add__(self, other: Hex) -> Hex:
        return _hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return _hex(self.q - other.q, self.r - other.r)

    def neighbour(self, direction: int) -> Hex:
        """Return the adjacent hex across hexside ``direction`` (taken mod 6).

        >>> Hex(0, 0).neighbour(0)
        Hex(1, 0)
        """
        dq, dr = DIRECTIONS[direction % 6]
        return _hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes in direction order 0..5."""
        q, r = self.q, self.r
        return tuple([_hex(q + dq, r + dr) for dq, dr in DIRECTIONS])

    def direction_to(self, other: Hex) -> int:
        """Return the direction number of an adjacent hex.

        Raises:
            ValueError: If ``other`` is not adjacent.

        >>> Hex(0, 0).direction_to(Hex(0, -1))
        2
        """
        delta = (other.q - self.q, other.r - self.r)
        try:
            return DIRECTIONS.index(delta)
        except ValueError:
            raise ValueError(f"{other!r} is not adjacent to {self!r}") from None

    def distance(self, other: Hex) -> int:
        """The number of hex steps to ``other``."""
        dq = self.q - other.q
        dr = self.r - other.r
        # Half the sum of the three cube deltas: no call to max().
        return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1

    def length(self) -> int:
        """Distance from the origin ``Hex(0, 0)``."""
        q, r = self.q, self.r
        return (abs(q) + abs(r) + abs(q + r)) >> 1

    # -- rings, disks, rotation -----------------------------------------------------------------

    def ring(self, radius: int) -> list[Hex]:
        """The hexes exactly ``radius`` steps away, in a fixed order.

        The walk starts at ``self + radius * direction 4`` and goes round counterclockwise.
        Radius 0 is ``[self]``.

        Raises:
            ValueError: If ``radius`` is negative.

        >>> len(Hex(0, 0).ring(2))
        12
        """
        if radius < 0:
            raise ValueError(f"ring radius must be >= 0, got {radius}")
        if radius == 0:
            return [self]
        q, r = self.q - radius, self.r + radius  # radius steps in direction 4
        out = []
        for dq, dr in DIRECTIONS:
            for _ in range(radius):
                out.append(_hex(q, r))
                q += dq
                r += dr
        return out

    def disk(self, radius: int) -> list[Hex]:
        """All hexes within ``radius`` steps (inclusive), sorted by ``(q, r)``.

        Raises:
            ValueError: If ``radius`` is negative.

        >>> len(Hex(0, 0).disk(2))
        19
        """
        if radius < 0:
            raise ValueError(f"disk radius must be >= 0, got {radius}")
        q, r = self.q, self.r
        out: list[Hex] = []
        for dq in range(-radius, radius + 1):
            # Column q + dq of the disk is one run of r: a slice of the interned grid.
            out += _run(q + dq, r + max(-radius, -dq - radius), r + min(radius, -dq + radius) + 1)
        return out

    def spiral(self, radius: int) -> Iterator[Hex]:
        """Yield ``self`` and then each ring out to ``radius``."""
        for k in range(radius + 1):
            yield from self.ring(k)

    def rotate(self, center: Hex, steps: int) -> Hex:
        """Rotate about ``center`` by ``steps`` x 60 degrees in direction order.

        One step takes a hex in direction ``d`` from the centre to direction ``d + 1``
        (counterclockwise on screen); negative steps go the other way.

        >>> Hex(1, 0).rotate(Hex(0, 0), 1)
        Hex(1, -1)
        """
        q, r = self.q - center.q, self.r - center.r
        s = -q - r
        for _ in range(steps % 6):
            q, r, s = -s, -q, -r
        return _hex(center.q + q, center.r + r)

    def line_to(self, other: Hex, *, nudge: int = 1) -> list[Hex]:
        """The hexes on the straight line to ``other``; see :func:`hex_line`."""
        return hex_line(self, other, nudge=nudge)


def _cube_round(x: float, y: float, z: float) -> tuple[int, int]:
    """Round a fractional cube point to the nearest hex's ``(q, r)`` (used by pixel layouts)."""
    rx = math.floor(x + 0.5)
    ry = math.floor(y + 0.5)
    rz = math.floor(z + 0.5)
    dx = abs(rx - x)
    dy = abs(ry - y)
    dz = abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return rx, ry


_set_q = Hex.__dict__["q"].__set__
_set_r = Hex.__dict__["r"].__set__
_set_hash = Hex.__dict__["_hash"].__set__

#: The intern table. Hexes with ``|q|, |r| <= _BOX`` live in one flat list, ``_GRID[(q + _BOX) *
#: _SPAN + r + _BOX]`` (filled on first use; about 2 MB of references), so a run of a column is a
#: list slice and a line step is one list index. Other hexes go in a dict, which is a cache with
#: a bound: past :data:`_INTERN_MAX` hexes it is emptied and refilled as needed (hexes already
#: handed out stay valid; they are values).
_BOX = 256
_SPAN = 2 * _BOX + 1
_GRID: list[Hex | None] = [None] * (_SPAN * _SPAN)
_INTERNED: dict[tuple[int, int], Hex] = {}
_INTERN_MAX = 1 << 17


def _intern(key: tuple[int, int]) -> Hex:
    return remember(_INTERNED, key, Hex(*key), _INTERN_MAX)


def _fill(i: int) -> Hex:
    """Build the hex of grid cell ``i`` (the first time it is asked for)."""
    h = _GRID[i] = Hex(i // _SPAN - _BOX, i % _SPAN - _BOX)
    return h


def _hex(q: int, r: int) -> Hex:
    """The interned ``Hex(q, r)``."""
    if -_BOX <= q <= _BOX and -_BOX <= r <= _BOX:
        i = (q + _BOX) * _SPAN + r + _BOX
        return _GRID[i] or _fill(i)
    return _INTERNED.get((q, r)) or _intern((q, r))


def _run(q: int, r0: int, r1: int) -> list[Hex]:
    """``[Hex(q, r) for r in range(r0, r1)]``, interned: a slice of the grid when inside it."""
    if -_BOX <= q <= _BOX and -_BOX <= r0 and r1 <= _BOX + 1:
        i = (q + _BOX) * _SPAN + _BOX
        run = _GRID[i + r0:i + r1]
        if None in run:
            run = [_GRID[i + r] or _fill(i + r) for r in range(r0, r1)]
        return run  # type: ignore[return-value]
    return [_hex(q, r) for r in range(r0, r1)]


#: (dq, dr, nudge) -> the flat grid offsets of that line's hexes from its start, for lines up to
#: _LINE_CACHE_RANGE long (a cache: emptied past _LINE_CACHE_MAX lines, refilled as needed)
_LINE_OFFSETS: dict[tuple[int, int, int], tuple[int, ...]] = {}
_LINE_CACHE_RANGE = 40
_LINE_CACHE_MAX = 1 << 14


def hex_line(a: Hex, b: Hex, *, nudge: int = 1) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b``, both included.

    Point ``i`` of ``n = a.distance(b)`` is the cube point ``(a * n + (b - a) * i) / n`` plus
    ``nudge`` times :data:`LINE_EPSILON`, rounded to the nearest hex. The fixed nudge is the
    tie-breaking rule: where the exact line runs along a hexside, the same pair always gives the
    same hexes. ``nudge=-1`` gives the line on the other side of such hexsides, so a ruleset can
    treat an edge-running line as hindered if either side is (see :func:`hex_line_pair`).

    The rounding is done exactly in integers (see :mod:`~wargamekit.geometry.hexbatch`): the
    cube coordinate with the largest delta (the dominant one) moves one hex per step and one
    other coordinate is ``floor((2 * delta * i + n - t) / (2 * n))``, ``t = 0`` for
    ``nudge=+1`` and 1 for ``nudge=-1``. The tests check it against the floating-point
    definition above.

    Args:
        a: The first hex.
        b: The last hex.
        nudge: ``+1`` (the default side) or ``-1`` (the alternate side).

    Raises:
        ValueError: If ``nudge`` is not ``+1`` or ``-1``.

    >>> hex_line(Hex(0, 0), Hex(3, -1))
    [Hex(0, 0), Hex(1, 0), Hex(2, -1), Hex(3, -1)]
    >>> hex_line(Hex(0, 0), Hex(2, -1), nudge=1), hex_line(Hex(0, 0), Hex(2, -1), nudge=-1)
    ([Hex(0, 0), Hex(1, 0), Hex(2, -1)], [Hex(0, 0), Hex(1, -1), Hex(2, -1)])
    """
    if nudge != 1 and nudge != -1:
        raise ValueError(f"nudge must be +1 or -1, got {nudge}")
    aq, ar = a.q, a.r
    dq, dr = b.q - aq, b.r - ar
    offsets = _LINE_OFFSETS.get((dq, dr, nudge))
    if offsets is not None and -_BOX <= aq <= _BOX and -_BOX <= ar <= _BOX and -_BOX <= aq + dq <= _BOX \
            and -_BOX <= ar + dr <= _BOX:
        # Hot (rule code draws short lines again and again): a line seen before is its cached
        # offsets in the interned grid from the start's index (no arithmetic per hex).
        base = (aq + _BOX) * _SPAN + ar + _BOX
        grid = _GRID
        line = [grid[base + o] for o in offsets]
        if None in line:
            line = [grid[base + o] or _fill(base + o) for o in offsets]
        return line  # type: ignore[return-value]
    adq, adr, ads = abs(dq), abs(dr), abs(dq + dr)
    n = (adq + adr + ads) >> 1
    if n == 0:
        return [a]
    n2 = 2 * n
    k = n if nudge == 1 else n - 1
    # Hex i of the line is base + alpha * i + beta * v_i in the interned grid's flat index, with
    # v_i = (d2 * i + k) // n2 the secondary coordinate's change (see the docstring).
    if adq == n:
        st, d2 = (1 if dq > 0 else -1), 2 * dr
        alpha, beta = st * _SPAN, 1
    elif adr == n:
        st, d2 = (1 if dr > 0 else -1), 2 * dq
        alpha, beta = st, _SPAN
    else:  # s dominant: r is the secondary coordinate and q = -s - r
        st, d2 = (1 if dq + dr < 0 else -1), 2 * dr
        alpha, beta = -st * _SPAN, 1 - _SPAN
    bq, br = aq + dq, ar + dr
    if -_BOX <= aq <= _BOX and -_BOX <= ar <= _BOX and -_BOX <= bq <= _BOX and -_BOX <= br <= _BOX:
        # Both ends in the grid: so is the whole line (its q and r stay between the ends').
        grid = _GRID
        base = (aq + _BOX) * _SPAN + ar + _BOX
        if beta == 1:  # q dominant: one multiplication fewer per step
            line = [grid[base + alpha * i + (d2 * i + k) // n2] for i in range(n + 1)]
        else:
            line = [grid[base + alpha * i + beta * ((d2 * i + k) // n2)] for i in range(n + 1)]
        if None in line:
            line = [grid[j] or _fill(j) for j in (base + alpha * i + beta * ((d2 * i + k) // n2) for i in range(n + 1))]
        if n <= _LINE_CACHE_RANGE:
            offsets = tuple(alpha * i + beta * ((d2 * i + k) // n2) for i in range(n + 1))
            remember(_LINE_OFFSETS, (dq, dr, nudge), offsets, _LINE_CACHE_MAX)
        return line  # type: ignore[return-value]
    if adq == n:
        return [_hex(aq + st * i, ar + (d2 * i + k) // n2) for i in range(n + 1)]
    if adr == n:
        return [_hex(aq + (d2 * i + k) // n2, ar + st * i) for i in range(n + 1)]
    return [_hex(aq - st * i - v, ar + v) for i in range(n + 1) if (v := (d2 * i + k) // n2) is not None]


def hex_line_pair(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """Both tie-breaking versions of the line, ``(nudge=+1, nudge=-1)``; equal unless the line runs along hexsides."""
    return hex_line(a, b, nudge=1), hex_line(a, b, nudge=-1)


@frozen
class HexLabels:
    """How a printed map labels its hexes: the offset layout, the number printed on the first
    column and row, and the digits of each half (``"0304"``: column 03, row 04).

    A ruleset keeps one as a constant (or reads it from its :class:`~wargamekit.geometry.HexMap`,
    which has one) instead of passing ``layout`` and ``base`` at every call.

    >>> printed = HexLabels(OffsetLayout.ODD_Q, base=1)
    >>> printed.parse("0101"), printed.label(Hex(0, 0))
    (Hex(0, 0), '0101')
    >>> printed.parse("34")
    Traceback (most recent call last):
    ...
    wargamekit.errors.HexLabelError: hex label '34' is not an even number (>= 4) of digits, like '0304'
    """

    layout: OffsetLayout = OffsetLayout.ODD_Q
    base: int = 0
    digits: int = 2

    def label(self, h: Hex) -> str:
        """The printed label of ``h``.

        Raises:
            HexLabelError: the hex has no label of :attr:`digits` digits.
        """
        return h.to_label(self.layout, base=self.base, digits=self.digits)

    def parse(self, label: str) -> Hex:
        """The hex printed as ``label``.

        Raises:
            HexLabelError: the label cannot be read.
        """
        return Hex.from_label(label, self.layout, base=self.base)
