"""SVG of a locale map: locales, approaches by width and terrain effect, roads by class, pieces.

A :class:`~wargamekit.geometry.LocaleMap` has no coordinates, so the caller passes each
locale's centre in pixels.

>>> from wargamekit.geometry import Approach, ApproachWidth, Locale, LocaleMap
>>> m = LocaleMap()
>>> m.add_locale(Locale("A", "Mill", capacity=4))
>>> m.add_locale(Locale("B", "Ridge", capacity=6))
>>> m.add_approach(Approach("A", "B", ApproachWidth.NARROW))
>>> svg = render_locale_map(m, {"A": (0, 0), "B": (300, 0)})
>>> svg.count('class="locale"'), svg.count('class="approach"')
(2, 1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import drawsvg as dw

from wargamekit.geometry.locale import Approach, ApproachWidth, LocaleMap, RoadClass
from wargamekit.render import _svg
from wargamekit.render.glyphs import PieceGlyph

__all__ = ["APPROACH_STROKE", "render_locale_map"]

#: Stroke width of an approach bar by width (pixels): the difference is what the eye reads.
APPROACH_STROKE: dict[ApproachWidth, float] = {ApproachWidth.NARROW: 3.0, ApproachWidth.WIDE: 9.0}
#: Length of an approach bar along the locale's edge, by width (pixels).
_APPROACH_LENGTH: dict[ApproachWidth, float] = {ApproachWidth.NARROW: 26.0, ApproachWidth.WIDE: 62.0}
_ROAD = {RoadClass.PRIMARY: ("#8b5a2b", 7.0, ""), RoadClass.SECONDARY: ("#a0785a", 4.0, "10 6")}
_APPROACH_COLOR = "#742a2a"
_PIECE = 30.0


def _rim(center: tuple[float, float], toward: tuple[float, float], half_w: float, half_h: float) -> float:
    """Distance from a box's centre to its rim along the ray toward ``toward``."""
    ux, uy = _svg.unit_vector(toward[0] - center[0], toward[1] - center[1])
    return min(half_w / abs(ux) if ux else math.inf, half_h / abs(uy) if uy else math.inf)


def render_locale_map(
    locale_map: LocaleMap,
    positions: Mapping[str, tuple[float, float]],
    *,
    pieces: Iterable[PieceGlyph] = (),
    terrain_colors: Mapping[int, str] | None = None,
    terrain_names: Mapping[int, str] | None = None,
    approach_effects: Mapping[int, str] | None = None,
    locale_size: tuple[float, float] = (170.0, 110.0),
    title: str = "",
) -> str:
    """Draw a locale map as SVG text.

    Args:
        locale_map: The map.
        positions: Each locale's centre in pixels (every locale must have one). Leave about
            120 pixels between neighbouring boxes where both sides have approaches with
            pieces on them.
        pieces: Pieces in reserve (stacked inside their locale) or on an approach (on its bar).
        terrain_colors: Locale fill by terrain code (default a pale parchment for all).
        terrain_names: Terrain names by code, printed under the locale's name.
        approach_effects: Names of approach terrain effects by code (``{1: "bridge"}``),
            printed beside the approach; effect 0 is printed only if named here.
        locale_size: Width and height of a locale's box, in pixels.
        title: A heading above the map.

    Returns:
        The SVG document. Each locale is a ``<g class="locale" data-locale=…>``; each approach
        a ``<line class="approach">`` (``data-width``, ``data-attacker``, ``data-defender``)
        drawn across the edge on the defender's side, wide ones thicker and longer (see
        :data:`APPROACH_STROKE`); each road segment a ``<line class="road">`` (``data-class``,
        secondary ones dashed); each piece a ``<g class="piece">`` (``data-face`` up or down;
        a face-down piece carries no text at all).

    Raises:
        ValueError: If a locale has no position.
        wargamekit.geometry.UnknownLocaleError: A piece names an unknown locale.
        wargamekit.geometry.NoApproachError: A piece stands on an approach that does not exist.
    """
    locales = locale_map.locales()
    missing = [loc.id for loc in locales if loc.id not in positions]
    if missing:
        raise ValueError(f"no position for locale(s) {missing}")
    colors = terrain_colors or {}
    tnames = terrain_names or {}
    effects = approach_effects or {}
    w, h = locale_size
    pos = {loc.id: (float(positions[loc.id][0]), float(positions[loc.id][1])) for loc in locales}

    xs = [p[0] for p in pos.values()] or [0.0]
    ys = [p[1] for p in pos.values()] or [0.0]
    margin = 40.0
    top = 40.0 if title else 0.0
    x0, y0 = min(xs) - w / 2 - margin, min(ys) - h / 2 - margin - top
    x1, y1 = max(xs) + w / 2 + margin, max(ys) + h / 2 + margin
    drawing = dw.Drawing(_svg.fmt(x1 - x0), _svg.fmt(y1 - y0), origin=(_svg.fmt(x0), _svg.fmt(y0)))
    drawing.append(dw.Rectangle(_svg.fmt(x0), _svg.fmt(y0), _svg.fmt(x1 - x0), _svg.fmt(y1 - y0), fill="white"))
    if title:
        drawing.append(_svg.text(title, (x0 + x1) / 2, y0 + top * 0.6, 18, fill="#1a1a1a", font_weight="bold",
                                 class_="title"))

    # Edges first (under the boxes): adjacency, then roads over it.
    edges = sorted(tuple(sorted(e)) for e in locale_map.graph.edges)
    edge_group = dw.Group(class_="edges")
    for a, b in edges:
        (ax, ay), (bx, by) = pos[a], pos[b]
        roads = locale_map.graph.edges[a, b]["roads"]
        edge_group.append(_svg.SvgLine(ax, ay, bx, by, stroke="#a0aec0", stroke_width=1.5,
                                       stroke_dasharray="2 4", class_="adjacency"))
        # Draw the best road class only: a primary road along an edge hides a secondary one.
        for road_class in (RoadClass.PRIMARY, RoadClass.SECONDARY):
            if road_class in roads:
                color, width, dash = _ROAD[road_class]
                extra = {"stroke_dasharray": dash} if dash else {}
                edge_group.append(_svg.SvgLine(ax, ay, bx, by, stroke=color, stroke_width=width,
                                               stroke_linecap="round", class_="road",
                                               data_class=road_class.value, **extra))
                break
    drawing.append(edge_group)

    # Locales.
    locale_group = dw.Group(class_="locales")
    for loc in locales:
        cx, cy = pos[loc.id]
        group = dw.Group(class_="locale", data_locale=loc.id)
        group.append(dw.Rectangle(_svg.fmt(cx - w / 2), _svg.fmt(cy - h / 2), w, h, rx=10,
                                  fill=colors.get(loc.terrain, "#f5efd9"), stroke="#4a5568", stroke_width=2))
        name, id_elsewhere = _title(loc.id, loc.name, w - 12)
        # When the title had no room for the id, it heads the second line.
        details = [loc.id, f"cap {loc.capacity}"] if id_elsewhere else [f"cap {loc.capacity}"]
        group.append(_svg.text(name, cx, cy - h / 2 + 14, _svg.fit_font(name, 14, w - 12), fill="#1a1a1a",
                               font_weight="bold"))
        if loc.terrain in tnames:
            details.append(tnames[loc.terrain])
        group.append(_svg.text(" · ".join(details), cx, cy - h / 2 + 30, 11, fill="#4a5568"))
        locale_group.append(group)
    drawing.append(locale_group)

    # Approaches: a bar across the edge line, just outside the defender's box (its side of the edge).
    approach_spot: dict[tuple[str, str], tuple[float, float, float, float]] = {}
    approach_group = dw.Group(class_="approaches")
    for defender in sorted(pos):
        for approach in locale_map.approaches_into(defender):
            spot = _approach_spot(approach, pos, w, h)
            approach_spot[(approach.defender, approach.attacker)] = spot
            px, py, ux, uy = spot
            half = _APPROACH_LENGTH[approach.width] / 2
            approach_group.append(
                _svg.SvgLine(px - uy * half, py + ux * half, px + uy * half, py - ux * half, stroke=_APPROACH_COLOR,
                             stroke_width=APPROACH_STROKE[approach.width], stroke_linecap="butt", class_="approach",
                             data_width=approach.width.value, data_attacker=approach.attacker,
                             data_defender=approach.defender, data_effect=approach.terrain_effect)
            )
            effect = effects.get(approach.terrain_effect)
            if effect is None and approach.terrain_effect:
                effect = f"effect {approach.terrain_effect}"
            if effect:
                # Printed past one end of the bar, clear of the pieces standing on it.
                ex, ey = px + uy * (half + 6), py - ux * (half + 6)
                anchor = "start" if uy > 0.3 else "end" if uy < -0.3 else "middle"
                approach_group.append(_svg.text(effect, ex, ey + (6 if abs(uy) <= 0.3 else 0), 10,
                                                fill=_APPROACH_COLOR, font_style="italic", text_anchor=anchor,
                                                class_="approach-effect"))
    drawing.append(approach_group)

    # Pieces: reserve pieces in rows inside the box, approach pieces on the bar.
    reserve: dict[str, list[PieceGlyph]] = {}
    on_approach: dict[tuple[str, str], list[PieceGlyph]] = {}
    for piece in pieces:
        locale_map.locale(piece.locale)
        if piece.approach is None:
            reserve.setdefault(piece.locale, []).append(piece)
        else:
            locale_map.approach(piece.approach, piece.locale)  # raises if there is no such approach
            on_approach.setdefault((piece.locale, piece.approach), []).append(piece)
    piece_group = dw.Group(class_="pieces")
    per_row = max(1, int((w - 10) // (_PIECE + 4)))
    for locale_id, items in reserve.items():
        cx, cy = pos[locale_id]
        for i, piece in enumerate(items):
            row, col = divmod(i, per_row)
            in_row = min(per_row, len(items) - row * per_row)
            x = cx + (col - (in_row - 1) / 2) * (_PIECE + 4)
            y = cy - h / 2 + 42 + _PIECE / 2 + row * (_PIECE + 4)
            piece_group.append(_piece(piece, x, y))
    for (locale_id, attacker), items in on_approach.items():
        px, py, ux, uy = approach_spot[(locale_id, attacker)]
        # On the bar's outer side (facing the attacker), fanned out along it; the bar stays
        # visible between the piece and the defender's box.
        reach = APPROACH_STROKE[locale_map.approach(attacker, locale_id).width] / 2 + 3 + _PIECE / 2
        bx, by = px + ux * reach, py + uy * reach
        for i, piece in enumerate(items):
            k = i - (len(items) - 1) / 2
            piece_group.append(_piece(piece, bx + uy * k * (_PIECE + 3), by - ux * k * (_PIECE + 3)))
    drawing.append(piece_group)
    return drawing.as_svg()


def _title(locale_id: str, name: str, width: float) -> tuple[str, bool]:
    """The title, and whether the id must be shown elsewhere: ``"12 Marengo"``; just the name
    when the id only repeats it squashed (``"marengo"``); the name alone, the id moved, when
    both would not fit in ``width`` at a readable size."""
    if not name or name == locale_id:
        return locale_id, False
    if "".join(name.split()).lower() == locale_id.lower():
        return name, False
    both = f"{locale_id} {name}"
    if _svg.fit_font(both, 14, width) < 11:
        return name, True
    return both, False


def _approach_spot(approach: Approach, pos: Mapping[str, tuple[float, float]], w: float,
                   h: float) -> tuple[float, float, float, float]:
    """Where the bar of ``approach`` goes: a point just outside the defender's rim on the line to
    the attacker, and the unit vector from defender to attacker."""
    d, a = pos[approach.defender], pos[approach.attacker]
    ux, uy = _svg.unit_vector(a[0] - d[0], a[1] - d[1])
    r = _rim(d, a, w / 2, h / 2) + APPROACH_STROKE[approach.width] / 2 + 4
    return d[0] + ux * r, d[1] + uy * r, ux, uy


def _piece(piece: PieceGlyph, x: float, y: float) -> dw.Group:
    face = "up" if piece.face_up else "down"
    attrs = {"class_": "piece", "data_face": face, "data_locale": piece.locale}
    if not piece.face_up:
        # The blank back: the side's colour and a pattern of stripes, no text at all.
        group = _svg.counter(x, y, _PIECE, piece.side_color, (), **attrs)
        half = _PIECE / 2 - 4
        group.append(_svg.SvgLine(x - half, y + half, x + half, y - half, stroke="white", stroke_opacity=0.5,
                                  stroke_width=3))
        group.append(_svg.SvgLine(x - half, y - half, x + half, y + half, stroke="white", stroke_opacity=0.5,
                                  stroke_width=3))
        return group
    lines = (piece.label, "" if piece.steps is None else f"{piece.steps}")
    return _svg.counter(x, y, _PIECE, piece.side_color, lines, **attrs)
