"""Facing: hexside facing (tank hull, turret) and vertex facing (AIG counters), with arcs.

Everything here is exact integer arithmetic on cube coordinates. Around a hex, the six lines
from its centre through its six corners cut the plane into six 60-degree *wedges*; wedge ``d``
is the one through hexside ``d``. In cube coordinates wedge 0 is exactly ``q >= r >= s`` (the
other five are the other orderings), so a hex lies in one wedge, or on the boundary line between
two adjacent wedges, with no rounding anywhere.

Arcs are unions of wedges:

* **Hexside facing** ``d`` (the unit faces hexside ``d``): FRONT is wedge ``d`` (60 degrees),
  REAR is wedge ``d + 3`` (60 degrees), FLANK is the remaining four wedges (two 120-degree
  sides). Adjacent hexes: the faced one is FRONT, the opposite one REAR, the other four FLANK.
* **Vertex facing** ``v`` (the counter points at corner ``v``, between hexsides ``v`` and
  ``v + 1``): FRONT is wedges ``v`` and ``v + 1``, REAR is wedges ``v + 3`` and ``v + 4``,
  FLANK is wedges ``v + 2`` and ``v + 5``.

**Boundary rule.** A hex exactly on a boundary line belongs to both wedges; the tie goes to the
arc more favourable to the firer. :func:`arc_of` assumes by default that the *other* hex is
shooting at the unit (``firer="other"``), so ties go to the weaker side (REAR over FLANK over
FRONT); with ``firer="unit"`` ties go to FRONT over FLANK over REAR. :func:`in_fire_arc`
(the unit firing) counts boundary hexes as inside.
"""

from __future__ import annotations

import enum
from typing import Literal

from attrs import field, frozen

from wargamekit.geometry.hex import Hex

__all__ = [
    "Arc",
    "HexsideFacing",
    "VertexFacing",
    "Facing",
    "wedges_of",
    "arc_of",
    "in_fire_arc",
    "fire_arc_wedges",
]


class Arc(enum.IntEnum):
    """Where a hex lies relative to a facing unit (ordered FRONT < FLANK < REAR)."""

    FRONT = 0
    FLANK = 1
    REAR = 2

    def __repr__(self) -> str:
        return f"Arc.{self.name}"


def _mod6(value: int) -> int:
    return int(value) % 6


@frozen(repr=False)
class HexsideFacing:
    """A unit facing hexside ``direction`` (0..5, stored mod 6).

    >>> HexsideFacing(1).turned(-2)
    HexsideFacing(5)
    """

    direction: int = field(converter=_mod6)

    def __repr__(self) -> str:
        return f"HexsideFacing({self.direction})"

    def turned(self, steps: int) -> HexsideFacing:
        """Turn by ``steps`` hexsides (positive = counterclockwise, in direction order)."""
        return HexsideFacing(self.direction + steps)


@frozen(repr=False)
class VertexFacing:
    """A counter pointing at corner ``vertex`` (0..5, the corner between hexsides ``vertex`` and ``vertex + 1``).

    >>> VertexFacing(5).turned(1)
    VertexFacing(0)
    """

    vertex: int = field(converter=_mod6)

    def __repr__(self) -> str:
        return f"VertexFacing({self.vertex})"

    def turned(self, steps: int) -> VertexFacing:
        """Turn by ``steps`` corners (positive = counterclockwise, in direction order)."""
        return VertexFacing(self.vertex + steps)

    @property
    def front_hexsides(self) -> tuple[int, int]:
        """The two hexsides beside the faced corner."""
        return self.vertex, (self.vertex + 1) % 6


Facing = HexsideFacing | VertexFacing


def wedges_of(center: Hex, target: Hex) -> tuple[int, ...]:
    """The wedge numbers (see the module doc) containing ``target`` as seen from ``center``.

    One number for a hex inside a wedge, two (ascending) for a hex on a boundary line.

    Raises:
        ValueError: If ``target == center`` (it has no direction).

    >>> wedges_of(Hex(0, 0), Hex(3, -1))
    (0,)
    >>> wedges_of(Hex(0, 0), Hex(2, -1))
    (0, 1)
    """
    q, r = target.q - center.q, target.r - center.r
    if q == 0 and r == 0:
        raise ValueError(f"{target!r} is the centre hex itself; it lies in no wedge")
    s = -q - r
    # Wedge d is the cube ordering listed at index d; equality = on the boundary.
    out = []
    if q >= r >= s:
        out.append(0)
    if q >= s >= r:
        out.append(1)
    if s >= q >= r:
        out.append(2)
    if s >= r >= q:
        out.append(3)
    if r >= s >= q:
        out.append(4)
    if r >= q >= s:
        out.append(5)
    return tuple(out)


def _wedge_arc(facing: Facing, wedge: int) -> Arc:
    if isinstance(facing, HexsideFacing):
        rel = (wedge - facing.direction) % 6
        return Arc.FRONT if rel == 0 else Arc.REAR if rel == 3 else Arc.FLANK
    rel = (wedge - facing.vertex) % 6
    return Arc.FRONT if rel in (0, 1) else Arc.REAR if rel in (3, 4) else Arc.FLANK


def arc_of(
    unit_hex: Hex, facing: Facing, target_hex: Hex, *, firer: Literal["other", "unit"] = "other"
) -> Arc:
    """Classify ``target_hex`` as in the FRONT, FLANK or REAR of a unit.

    Args:
        unit_hex: Where the facing unit is.
        facing: A :class:`HexsideFacing` or :class:`VertexFacing`.
        target_hex: The other hex (adjacent or distant).
        firer: Who is shooting, for the boundary rule: ``"other"`` (the default; a hex on a
            boundary counts as the weaker arc of the unit) or ``"unit"`` (the stronger arc).

    Raises:
        ValueError: If ``target_hex == unit_hex`` or ``firer`` is unknown.

    >>> [arc_of(Hex(0, 0), VertexFacing(0), n).name for n in Hex(0, 0).neighbours()]
    ['FRONT', 'FRONT', 'FLANK', 'REAR', 'REAR', 'FLANK']
    >>> arc_of(Hex(0, 0), HexsideFacing(0), Hex(2, -1)), arc_of(Hex(0, 0), HexsideFacing(0), Hex(2, -1), firer="unit")
    (Arc.FLANK, Arc.FRONT)
    """
    arcs = [_wedge_arc(facing, w) for w in wedges_of(unit_hex, target_hex)]
    if firer == "other":
        return max(arcs)
    if firer == "unit":
        return min(arcs)
    raise ValueError(f"firer must be 'other' or 'unit', got {firer!r}")


def fire_arc_wedges(facing: HexsideFacing, width: int = 1) -> frozenset[int]:
    """The wedges covered by a fire arc ``width`` hexsides wide centred on the faced hexside.

    Width 1 is the 60-degree wedge through the faced hexside, 3 the 180-degree front half,
    5 everything except the rear wedge, 6 all round.

    Raises:
        ValueError: If ``width`` is not 1, 3, 5 or 6.
    """
    if width not in (1, 3, 5, 6):
        raise ValueError(f"fire arc width must be 1, 3, 5 or 6 hexsides, got {width}")
    if width == 6:
        return frozenset(range(6))
    half = width // 2
    return frozenset((facing.direction + k) % 6 for k in range(-half, half + 1))


def in_fire_arc(unit_hex: Hex, facing: HexsideFacing, target_hex: Hex, width: int = 1) -> bool:
    """True if ``target_hex`` is inside the fire arc (boundary lines count as inside).

    Args:
        unit_hex: Where the firing unit is.
        facing: The hexside the hull or turret faces.
        target_hex: The target's hex.
        width: Arc width in hexsides (see :func:`fire_arc_wedges`).

    Raises:
        ValueError: If ``target_hex == unit_hex`` or the width is unsupported.

    >>> in_fire_arc(Hex(0, 0), HexsideFacing(0), Hex(2, -1))
    True
    >>> in_fire_arc(Hex(0, 0), HexsideFacing(0), Hex(1, -1))
    False
    >>> in_fire_arc(Hex(0, 0), HexsideFacing(0), Hex(1, -1), width=3)
    True
    """
    allowed = fire_arc_wedges(facing, width)
    return any(w in allowed for w in wedges_of(unit_hex, target_hex))
