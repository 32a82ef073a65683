"""Small SVG building blocks shared by the hex and locale renderers (private).

drawsvg writes ``<path>`` for every line and polygon; we emit real ``<polygon>`` and ``<line>``
elements instead, so that a reader (or a test with :mod:`xml.etree`) finds a hex as one
``<polygon class="hex">`` and a facing arrow as one ``<line>`` with its end points.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Sequence

import drawsvg as dw
from drawsvg.types import DrawingBasicElement

__all__ = ["FONT", "Polygon", "SvgLine", "badge", "counter", "fmt", "points", "text"]

#: One font stack for every label (sans-serif reads best at small sizes); the CJK fonts serve
#: rulesets whose unit names are Chinese or Japanese.
FONT = ("DejaVu Sans, Verdana, Arial, 'Noto Sans CJK SC', 'Noto Sans CJK JP', 'PingFang SC', "
        "'Hiragino Sans', 'Microsoft YaHei', sans-serif")

Point = tuple[float, float]


def fmt(value: float) -> float:
    """Round a coordinate to 2 decimals: compact SVG, and -0.0 printed as 0."""
    return round(value, 2) + 0.0


def points(pts: Iterable[Point]) -> str:
    """The ``points`` attribute of a ``<polygon>``."""
    return " ".join(f"{fmt(x):g},{fmt(y):g}" for x, y in pts)


class Polygon(DrawingBasicElement):
    """An SVG ``<polygon>``."""

    TAG_NAME = "polygon"

    def __init__(self, pts: Iterable[Point] | str, **kwargs: object) -> None:
        super().__init__(points=pts if isinstance(pts, str) else points(pts), **kwargs)


class SvgLine(DrawingBasicElement):
    """An SVG ``<line>`` from ``(x1, y1)`` to ``(x2, y2)``."""

    TAG_NAME = "line"

    def __init__(self, x1: float, y1: float, x2: float, y2: float, **kwargs: object) -> None:
        super().__init__(x1=fmt(x1), y1=fmt(y1), x2=fmt(x2), y2=fmt(y2), **kwargs)


def text(content: str, x: float, y: float, size: float, **kwargs: object) -> dw.Text:
    """Centred text (horizontally and vertically) at ``(x, y)``."""
    kwargs.setdefault("text_anchor", "middle")
    kwargs.setdefault("dominant_baseline", "central")
    kwargs.setdefault("font_family", FONT)
    return dw.Text(content, fmt(size), fmt(x), fmt(y), **kwargs)


def text_ems(content: str) -> float:
    """The width of ``content`` in ems, roughly: a CJK (wide) character is 1 em, any other about
    0.7 (bold DejaVu Sans)."""
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.7 for c in content)


def fit_font(content: str, size: float, width: float) -> float:
    """``size``, shrunk so that ``content`` fits in ``width``."""
    if not content:
        return size
    return min(size, width / text_ems(content))


def counter(
    cx: float,
    cy: float,
    side: float,
    fill: str,
    lines: Sequence[str] = (),
    *,
    text_color: str = "white",
    stroke: str = "#1a1a1a",
    **kwargs: object,
) -> dw.Group:
    """A square counter centred at ``(cx, cy)`` with up to a few lines of centred text."""
    group = dw.Group(**kwargs)
    half = side / 2
    group.append(
        dw.Rectangle(fmt(cx - half), fmt(cy - half), fmt(side), fmt(side), rx=fmt(side * 0.12),
                     fill=fill, stroke=stroke, stroke_width=fmt(max(side * 0.04, 0.8)))
    )
    lines = _wrap([line for line in lines if line], side)
    if lines:
        # As large as fits: every line within the counter's width, all lines within its height.
        size = min(min(fit_font(line, side * 0.34, side * 0.86) for line in lines),
                   side * 0.86 / (1.15 * len(lines)))
        step = size * 1.15
        top = cy - step * (len(lines) - 1) / 2
        for i, line in enumerate(lines):
            group.append(text(line, cx, top + i * step, size, fill=text_color, font_weight="bold"))
    return group


def _wrap(lines: Sequence[str], side: float) -> list[str]:
    """Split a line on spaces when it would otherwise shrink below a readable size."""
    out: list[str] = []
    for line in lines:
        if " " in line and fit_font(line, side * 0.34, side * 0.9) < side * 0.24:
            out.extend(line.split())
        else:
            out.append(line)
    return out


def badge(cx: float, cy: float, content: str, size: float, *, fill: str, text_color: str,
          **kwargs: object) -> tuple[dw.Group, float]:
    """A small rounded label centred at ``(cx, cy)``; returns it and its width."""
    width = badge_width(content, size)
    group = dw.Group(**kwargs)
    group.append(
        dw.Rectangle(fmt(cx - width / 2), fmt(cy - size * 0.75), fmt(width), fmt(size * 1.5),
                     rx=fmt(size * 0.5), fill=fill, stroke="#1a1a1a", stroke_width=fmt(size * 0.08))
    )
    # Nudged down a little: badge texts are mostly lower case, whose visual centre sits below
    # the em box's centre.
    group.append(text(content, cx, cy + size * 0.08, size, fill=text_color, font_weight="bold"))
    return group, width


def badge_width(content: str, size: float) -> float:
    """The width of a :func:`badge` with this text."""
    return max(size * text_ems(content) + size * 0.8, size * 1.4)


def unit_vector(dx: float, dy: float) -> Point:
    """``(dx, dy)`` scaled to length 1."""
    length = math.hypot(dx, dy)
    return (dx / length, dy / length)
