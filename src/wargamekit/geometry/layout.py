"""Pixel layout: hex centres and corner polygons for SVG rendering.

Screen coordinates have ``y`` growing downwards (as in SVG). ``size`` is the distance from a
hex's centre to its corners, per axis (pass one number for regular hexes).
"""

from __future__ import annotations

import enum
import math

import numpy as np
from attrs import field, frozen

from wargamekit.geometry.hex import Hex, OffsetLayout

__all__ = ["Orientation", "PixelLayout"]

_SQRT3 = math.sqrt(3.0)


class Orientation(enum.Enum):
    """Flat-top hexes (columns of hexes, flat edge up) or pointy-top hexes (rows, corner up)."""

    FLAT = "flat"
    POINTY = "pointy"

    def __repr__(self) -> str:
        return f"Orientation.{self.name}"


def _pair(value: float | tuple[float, float]) -> tuple[float, float]:
    if isinstance(value, int | float):
        return (float(value), float(value))
    x, y = value
    return (float(x), float(y))


@frozen
class PixelLayout:
    """Maps hexes to pixels.

    Args:
        orientation: FLAT or POINTY.
        size: Centre-to-corner distance, one number or ``(sx, sy)``.
        origin: Pixel position of ``Hex(0, 0)``'s centre.

    >>> lay = PixelLayout(Orientation.FLAT, size=10)
    >>> lay.to_pixel(Hex(1, 0))
    (15.0, 8.660254037844386)
    >>> lay.from_pixel(15.0, 8.7)
    Hex(1, 0)
    """

    orientation: Orientation
    size: tuple[float, float] = field(default=(1.0, 1.0), converter=_pair)
    origin: tuple[float, float] = field(default=(0.0, 0.0), converter=_pair)

    @classmethod
    def for_offset(cls, layout: OffsetLayout, size: float | tuple[float, float] = 1.0,
                   origin: float | tuple[float, float] = (0.0, 0.0)) -> PixelLayout:
        """The pixel layout whose orientation matches a printed map's offset layout."""
        return cls(Orientation.FLAT if layout.flat_top else Orientation.POINTY, size, origin)

    def to_pixel(self, h: Hex) -> tuple[float, float]:
        """The pixel centre of ``h``."""
        sx, sy = self.size
        ox, oy = self.origin
        if self.orientation is Orientation.FLAT:
            return (ox + sx * 1.5 * h.q, oy + sy * _SQRT3 * (h.r + h.q / 2))
        return (ox + sx * _SQRT3 * (h.q + h.r / 2), oy + sy * 1.5 * h.r)

    def to_pixel_batch(self, hexes: np.ndarray) -> np.ndarray:
        """Pixel centres of an ``(N, 2)`` array of ``(q, r)``, as an ``(N, 2)`` float64 array."""
        a = np.asarray(hexes, dtype=np.float64).reshape(-1, 2)
        q, r = a[:, 0], a[:, 1]
        sx, sy = self.size
        ox, oy = self.origin
        if self.orientation is Orientation.FLAT:
            return np.column_stack((ox + sx * 1.5 * q, oy + sy * _SQRT3 * (r + q / 2)))
        return np.column_stack((ox + sx * _SQRT3 * (q + r / 2), oy + sy * 1.5 * r))

    def corner_offset(self, corner: int) -> tuple[float, float]:
        """Pixel offset from a centre to corner ``corner`` (the corner between hexsides ``corner`` and ``corner + 1``)."""
        # Corner v sits at screen angle 60*v (flat) or 60*v + 30 (pointy), measured
        # counterclockwise on screen, i.e. with y flipped since screen y grows downwards.
        angle = math.radians(60 * (corner % 6) + (0 if self.orientation is Orientation.FLAT else 30))
        return (self.size[0] * math.cos(angle), -self.size[1] * math.sin(angle))

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corner pixels of ``h``, corner 0 first, for an SVG polygon."""
        cx, cy = self.to_pixel(h)
        return [(cx + dx, cy + dy) for dx, dy in (self.corner_offset(c) for c in range(6))]

    def svg_points(self, h: Hex, precision: int = 2) -> str:
        """The ``points`` attribute of an SVG ``<polygon>`` for ``h``."""
        return " ".join(f"{x:.{precision}f},{y:.{precision}f}" for x, y in self.corners(h))

    def from_pixel(self, x: float, y: float) -> Hex:
        """The hex containing pixel ``(x, y)``."""
        from wargamekit.geometry.hex import _cube_round

        sx, sy = self.size
        px, py = (x - self.origin[0]) / sx, (y - self.origin[1]) / sy
        if self.orientation is Orientation.FLAT:
            q = 2.0 / 3.0 * px
            r = -1.0 / 3.0 * px + _SQRT3 / 3.0 * py
        else:
            q = _SQRT3 / 3.0 * px - 1.0 / 3.0 * py
            r = 2.0 / 3.0 * py
        rq, rr = _cube_round(q, r, -q - r)
        return Hex(rq, rr)
