"""SVG of a hex map: terrain, hexside features, hex labels, unit counters with facing, markers.

>>> from wargamekit.geometry import Hex, HexMap, TerrainTable, TerrainType
>>> m = HexMap(3, 2, TerrainTable([TerrainType(0, "clear"), TerrainType(1, "woods", 2)]))
>>> m.set_terrain(Hex(1, 0), 1)
>>> svg = render_hex_map(m, terrain_colors={0: "#e8e2c8", 1: "#6b9e5a"})
>>> svg.count('class="hex"')
6
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import drawsvg as dw
import numpy as np

from wargamekit.geometry.facing import HexsideFacing, VertexFacing
from wargamekit.geometry.hex import Hex, OffsetLayout
from wargamekit.geometry.hexmap import HexMap
from wargamekit.geometry.layout import Orientation, PixelLayout
from wargamekit.render import _svg
from wargamekit.render.glyphs import HexsideStyle, Marker, UnitGlyph

__all__ = ["DEFAULT_HEXSIDE_STYLES", "DEFAULT_SIZE", "render_hex_map"]

#: Centre-to-corner distance of a hex, in pixels, when no layout is given.
DEFAULT_SIZE = 40.0

#: Styles of common hexside features, by feature name (rulesets may override or add codes).
DEFAULT_HEXSIDE_STYLES: dict[str, HexsideStyle] = {
    "river": HexsideStyle("#2b6cb0", 0.16),
    "stream": HexsideStyle("#4299e1", 0.09),
    "wall": HexsideStyle("#4a4a4a", 0.1),
    "hedge": HexsideStyle("#276749", 0.1, (0.12, 0.08)),
}

_UNKNOWN_TERRAIN = "#d0d0d0"
_UNKNOWN_HEXSIDE = HexsideStyle("#b83280", 0.1)
_HULL = "#1a1a1a"
_TURRET = "#1a1a1a"


def _inradius(layout: PixelLayout) -> float:
    """Centre-to-edge distance (the smaller axis, so arrows stay inside the hex)."""
    return min(layout.size) * math.sqrt(3) / 2


def _label_drop(lay: PixelLayout) -> float:
    """How far above the centre the hex label sits (and below it, the markers): near a flat
    top edge, or lower under a pointy top corner, where the hex is still wide enough."""
    return min(lay.size) * (0.66 if lay.orientation is Orientation.FLAT else 0.5)


def _toward(layout: PixelLayout, h: Hex, facing: HexsideFacing | VertexFacing) -> tuple[float, float]:
    """Unit vector from ``h``'s centre toward the faced hexside's neighbour or the faced corner."""
    cx, cy = layout.to_pixel(h)
    if isinstance(facing, HexsideFacing):
        nx_, ny_ = layout.to_pixel(h.neighbour(facing.direction))
        return _svg.unit_vector(nx_ - cx, ny_ - cy)
    return _svg.unit_vector(*layout.corner_offset(facing.vertex))


def _arrow_head(tip: tuple[float, float], direction: tuple[float, float], length: float) -> list[tuple[float, float]]:
    ux, uy = direction
    bx, by = tip[0] - ux * length, tip[1] - uy * length
    px, py = -uy * length * 0.55, ux * length * 0.55
    return [tip, (bx + px, by + py), (bx - px, by - py)]


def _hexside_style(code: int, names: Mapping[int, str], styles: Mapping[int | str, HexsideStyle]) -> HexsideStyle:
    if code in styles:
        return styles[code]
    name = names.get(code)
    if name is not None and name in styles:
        return styles[name]
    if name is not None and name in DEFAULT_HEXSIDE_STYLES:
        return DEFAULT_HEXSIDE_STYLES[name]
    return _UNKNOWN_HEXSIDE


def render_hex_map(
    hexmap_or_shape: HexMap | tuple[int, int],
    *,
    terrain_colors: Mapping[int, str],
    units: Iterable[UnitGlyph] = (),
    markers: Iterable[Marker] = (),
    labels: bool = True,
    layout: PixelLayout | None = None,
    terrain: np.ndarray | None = None,
    hexsides: np.ndarray | None = None,
    offset_layout: OffsetLayout = OffsetLayout.ODD_Q,
    hexside_styles: Mapping[int | str, HexsideStyle] | None = None,
    label_base: int = 0,
    legend: bool = False,
    title: str = "",
) -> str:
    """Draw a hex map as SVG text.

    Args:
        hexmap_or_shape: A :class:`~wargamekit.geometry.HexMap` (its terrain, hexside features,
            offset layout and terrain names are used), or a ``(width, height)`` shape with the
            layers passed as ``terrain`` and ``hexsides``.
        terrain_colors: Fill colour per terrain code (unknown codes are light grey).
        units: Unit counters, drawn in order (later ones on top; several in a hex are
            shifted so each stays visible).
        markers: Badges (wrecks, smoke), in a row near the bottom of their hex.
        labels: Print each hex's printed-map label (``"0304"``) at its top.
        layout: Where hexes go in pixels; default: flat or pointy to match the map, size
            :data:`DEFAULT_SIZE`. The picture is cropped to the map whatever the origin.
        terrain: ``(width, height)`` terrain codes, for a shape (default all 0).
        hexsides: ``(width, height, 6)`` hexside feature codes, for a shape (default none).
        offset_layout: The printed map's offset layout, for a shape.
        hexside_styles: Styles by feature code or feature name, over
            :data:`DEFAULT_HEXSIDE_STYLES` (river, stream, wall, hedge).
        label_base: The number printed on the first column and row (see
            :meth:`~wargamekit.geometry.Hex.to_label`).
        legend: Add a key of terrain colours (and hexside features present) below the map.
        title: A heading above the map.

    Returns:
        The SVG document as text. Each hex is a ``<polygon class="hex">`` with ``data-hex``
        (its label) and ``data-terrain``; each unit a ``<g class="unit">`` holding a
        ``<line class="hull">`` (or ``"vertex"``) from the hex centre toward what it faces and
        a ``<line class="turret">``; each marker a ``<g class="marker">``.

    Raises:
        ValueError: If a layer's shape does not match the map, or a unit or marker is off the map.
    """
    if isinstance(hexmap_or_shape, HexMap):
        m = hexmap_or_shape
        width, height, offset = m.width, m.height, m.layout
        terrain_layer, hexside_layer = m.terrain, m.hexsides
        terrain_names = {t.code: t.name for t in m.table.terrain}
        feature_names = {f.code: f.name for f in m.table.hexsides}
    else:
        width, height = hexmap_or_shape
        offset = offset_layout
        terrain_layer = np.zeros((width, height), np.int16) if terrain is None else np.asarray(terrain)
        hexside_layer = np.zeros((width, height, 6), np.int8) if hexsides is None else np.asarray(hexsides)
        terrain_names, feature_names = {}, {}
    if terrain_layer.shape != (width, height):
        raise ValueError(f"terrain has shape {terrain_layer.shape}, expected {(width, height)}")
    if hexside_layer.shape != (width, height, 6):
        raise ValueError(f"hexsides have shape {hexside_layer.shape}, expected {(width, height, 6)}")
    lay = layout or PixelLayout.for_offset(offset, DEFAULT_SIZE)
    size = min(lay.size)
    styles: Mapping[int | str, HexsideStyle] = hexside_styles or {}

    hexes = [Hex.from_offset(c, r, offset) for c in range(width) for r in range(height)]
    on_map = set(hexes)

    def label_of(h: Hex) -> str:
        return h.to_label(offset, base=label_base)

    # Crop to the map: the bounding box of every corner, plus a margin.
    corners = np.array([pt for h in hexes for pt in lay.corners(h)])
    margin = size * 0.3
    x0, y0 = corners.min(axis=0) - margin
    x1, y1 = corners.max(axis=0) + margin
    top = size * 0.9 if title else 0.0
    used_features = sorted(int(c) for c in np.unique(hexside_layer) if c)
    key_items = _legend_items(terrain_colors, terrain_names,
                          [(feature_names.get(c, f"hexside {c}"), _hexside_style(c, feature_names, styles))
                           for c in used_features]) if legend else []
    rows = _legend_rows(key_items, size, x1 - x0 - 2 * margin) if key_items else []
    bottom = len(rows) * size * 0.5 + size * 0.2 if rows else 0.0
    drawing = dw.Drawing(_svg.fmt(x1 - x0), _svg.fmt(y1 - y0 + top + bottom),
                         origin=(_svg.fmt(x0), _svg.fmt(y0 - top)))
    drawing.append(dw.Rectangle(_svg.fmt(x0), _svg.fmt(y0 - top), _svg.fmt(x1 - x0),
                                _svg.fmt(y1 - y0 + top + bottom), fill="white"))
    if title:
        drawing.append(_svg.text(title, (x0 + x1) / 2, y0 - top / 2, size * 0.4, fill="#1a1a1a",
                                 font_weight="bold", class_="title"))

    # Terrain.
    terrain_group = dw.Group(class_="terrain")
    for h in hexes:
        c, r = h.to_offset(offset)
        code = int(terrain_layer[c, r])
        terrain_group.append(
            _svg.Polygon(lay.corners(h), fill=terrain_colors.get(code, _UNKNOWN_TERRAIN), stroke="#6b6b6b",
                         stroke_width=_svg.fmt(size * 0.025), class_="hex", data_hex=label_of(h),
                         data_terrain=code)
        )
    drawing.append(terrain_group)

    # Hexside features: each edge once, from the side whose direction is 0..2 (or from the
    # only map hex, on the map's edge).
    side_group = dw.Group(class_="hexsides", stroke_linecap="round")
    for h in hexes:
        c, r = h.to_offset(offset)
        for d in range(6):
            code = int(hexside_layer[c, r, d])
            if not code or (d >= 3 and h.neighbour(d) in on_map):
                continue
            style = _hexside_style(code, feature_names, styles)
            (ax, ay), (bx, by) = lay.corners(h)[(d - 1) % 6], lay.corners(h)[d]
            extra = {"stroke_dasharray": " ".join(f"{_svg.fmt(x * size):g}" for x in style.dash)} if style.dash else {}
            side_group.append(
                _svg.SvgLine(ax, ay, bx, by, stroke=style.color, stroke_width=_svg.fmt(style.width * size),
                             class_="hexside", data_hex=label_of(h), data_direction=d,
                             data_feature=feature_names.get(code, str(code)), **extra)
            )
    drawing.append(side_group)

    if labels:
        label_group = dw.Group(class_="labels", fill="#3a3a3a", fill_opacity=0.8)
        for h in hexes:
            cx, cy = lay.to_pixel(h)
            label_group.append(_svg.text(label_of(h), cx, cy - _label_drop(lay), size * 0.22))
        drawing.append(label_group)

    # Markers sit low in the hex, units above them.
    by_hex: dict[Hex, list[Marker]] = {}
    for marker in markers:
        if marker.hex not in on_map:
            raise ValueError(f"marker {marker.text!r} is off the map at {marker.hex!r}")
        by_hex.setdefault(marker.hex, []).append(marker)
    marker_group = dw.Group(class_="markers")
    for h, items in by_hex.items():
        cx, cy = lay.to_pixel(h)
        font = size * 0.2
        widths = [_svg.badge_width(m.text, font) for m in items]
        gap = font * 0.3
        x = cx - (sum(widths) + gap * (len(items) - 1)) / 2
        for marker, w in zip(items, widths, strict=True):
            group, _ = _svg.badge(x + w / 2, cy + _label_drop(lay) * 0.98, marker.text, font, fill=marker.color,
                                  text_color=marker.text_color, class_="marker", data_hex=label_of(h))
            marker_group.append(group)
            x += w + gap
    drawing.append(marker_group)

    unit_group = dw.Group(class_="units")
    stacked: dict[Hex, int] = {}
    for unit in units:
        if unit.hex not in on_map:
            raise ValueError(f"unit {unit.label!r} is off the map at {unit.hex!r}")
        # A counter in a hex with markers moves up a little, so the badges stay readable.
        lift = size * 0.1 if unit.hex in by_hex else 0.0
        unit_group.append(_unit(lay, unit, stacked.get(unit.hex, 0), label_of(unit.hex), lift))
        stacked[unit.hex] = stacked.get(unit.hex, 0) + 1
    drawing.append(unit_group)

    if rows:
        drawing.append(_legend(x0 + margin, y1, size, key_items, rows))
    return drawing.as_svg()


def _unit(lay: PixelLayout, unit: UnitGlyph, depth: int, label: str, lift: float) -> dw.Group:
    """One counter: the facing arrow and the gun barrel stick out of it toward what they face."""
    size = min(lay.size)
    inner = _inradius(lay)
    cx, cy = lay.to_pixel(unit.hex)
    shift = depth * size * 0.14  # a stack fans up and to the right
    cx, cy = cx + shift, cy - shift - lift
    side = size * 0.74
    group = dw.Group(class_="unit", data_hex=label, data_label=unit.label)
    heads = []
    if unit.facing is not None:
        ux, uy = _toward(lay, unit.hex, unit.facing)
        reach = inner * 0.98 if isinstance(unit.facing, HexsideFacing) else size * 0.9
        tip = (cx + ux * reach, cy + uy * reach)
        kind = "hull" if isinstance(unit.facing, HexsideFacing) else "vertex"
        # The shaft runs from the centre (under the counter, so only its outer part shows).
        group.append(_svg.SvgLine(cx, cy, tip[0], tip[1], stroke=_HULL, stroke_width=_svg.fmt(size * 0.08),
                                  class_=kind, data_facing=_facing_number(unit.facing)))
        heads.append(_svg.Polygon(_arrow_head(tip, (ux, uy), size * 0.32), fill=unit.side_color, stroke=_HULL,
                                  stroke_width=_svg.fmt(size * 0.04), stroke_linejoin="round",
                                  class_=f"{kind}-head"))
    group.append(_svg.counter(cx, cy, side, unit.side_color, (unit.label, unit.sublabel),
                              text_color=unit.text_color, class_="counter"))
    group.extend(heads)
    if unit.turret is not None:
        ux, uy = _toward(lay, unit.hex, unit.turret)
        # The barrel leaves the counter where the ray from the centre crosses its rim, so it
        # never covers the counter's text.
        rim = side / 2 / max(abs(ux), abs(uy))
        reach = inner * 1.04
        group.append(_svg.SvgLine(cx + ux * rim, cy + uy * rim, cx + ux * reach, cy + uy * reach,
                                  stroke=_TURRET, stroke_width=_svg.fmt(size * 0.06), stroke_linecap="round",
                                  class_="turret", data_facing=unit.turret.direction))
        group.append(dw.Circle(_svg.fmt(cx + ux * rim), _svg.fmt(cy + uy * rim), _svg.fmt(size * 0.07),
                               fill=_TURRET, class_="turret-mantlet"))
    return group


def _facing_number(facing: HexsideFacing | VertexFacing) -> int:
    return facing.direction if isinstance(facing, HexsideFacing) else facing.vertex


def _legend_items(colors: Mapping[int, str], names: Mapping[int, str],
                  features: Sequence[tuple[str, HexsideStyle]]) -> list[tuple[str, str, HexsideStyle | None]]:
    items: list[tuple[str, str, HexsideStyle | None]] = [
        (names.get(code, f"terrain {code}"), colors[code], None) for code in sorted(colors)
    ]
    items += [(name, style.color, style) for name, style in features]
    return items


def _legend_rows(items: Sequence[tuple[str, str, HexsideStyle | None]], size: float, width: float) -> list[list[int]]:
    """Lay legend items out left to right, wrapping at ``width``; lists of item indices per row."""
    font = size * 0.26
    rows: list[list[int]] = [[]]
    x = 0.0
    for i, (name, _, _) in enumerate(items):
        w = size * 0.6 + _svg.text_ems(name) * font * 0.9 + size * 0.45
        if rows[-1] and x + w > width:
            rows.append([])
            x = 0.0
        rows[-1].append(i)
        x += w
    return rows


def _legend(x: float, y: float, size: float, items: Sequence[tuple[str, str, HexsideStyle | None]],
            rows: Sequence[Sequence[int]]) -> dw.Group:
    group = dw.Group(class_="legend")
    row_h = size * 0.5
    font = size * 0.26
    swatch = size * 0.4
    for r, row in enumerate(rows):
        xx = x
        yy = y + r * row_h
        for i in row:
            name, color, style = items[i]
            if style is None:
                group.append(dw.Rectangle(_svg.fmt(xx), _svg.fmt(yy), _svg.fmt(swatch), _svg.fmt(swatch),
                                          fill=color, stroke="#6b6b6b"))
            else:
                group.append(_svg.SvgLine(xx, yy + swatch / 2, xx + swatch, yy + swatch / 2, stroke=color,
                                          stroke_width=_svg.fmt(style.width * size)))
            group.append(_svg.text(name, xx + size * 0.55, yy + swatch / 2, font, text_anchor="start",
                                   fill="#1a1a1a"))
            xx += size * 0.6 + _svg.text_ems(name) * font * 0.9 + size * 0.45
    return group
