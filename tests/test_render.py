"""Tests of wargamekit.render: the SVG is checked structurally, against the geometry."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from wargamekit.geometry import (
    Approach,
    ApproachWidth,
    Hex,
    HexMap,
    HexsideFacing,
    HexsideFeature,
    Locale,
    LocaleMap,
    NoApproachError,
    OffsetLayout,
    Orientation,
    PixelLayout,
    RoadClass,
    TerrainTable,
    TerrainType,
    VertexFacing,
)
from wargamekit.render import (
    APPROACH_STROKE,
    Marker,
    PieceGlyph,
    UnitGlyph,
    render_hex_map,
    render_locale_map,
)

NS = {"svg": "http://www.w3.org/2000/svg"}
COLORS = {0: "#ece6c9", 1: "#7da65d", 2: "#c9a66b"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode())


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{{{NS['svg']}}}{tag}") if e.get("class") == cls]


def line_vector(e: ET.Element) -> tuple[float, float, float, float]:
    return tuple(float(e.get(k)) for k in ("x1", "y1", "x2", "y2"))  # type: ignore[return-value]


def assert_parallel(dx: float, dy: float, ex: float, ey: float) -> None:
    """Same direction (not just the same line): unit vectors agree."""
    a, b = math.hypot(dx, dy), math.hypot(ex, ey)
    assert dx / a == pytest.approx(ex / b, abs=1e-3) and dy / a == pytest.approx(ey / b, abs=1e-3)


def render_unit(unit_at, offset: OffsetLayout = OffsetLayout.ODD_Q, **glyph) -> tuple[ET.Element, Hex, PixelLayout]:
    """Render one unit on a small map at offset ``unit_at``; the parsed SVG, its hex and the layout."""
    m = small_map(offset)
    h = m.hex_at(*unit_at)
    lay = PixelLayout.for_offset(offset, 40)
    svg = render_hex_map(m, terrain_colors=COLORS, layout=lay, units=[UnitGlyph(h, "Tiger", "#444", **glyph)])
    return parse(svg), h, lay


def small_map(layout: OffsetLayout = OffsetLayout.ODD_Q) -> HexMap:
    table = TerrainTable(
        [TerrainType(0, "clear"), TerrainType(1, "woods", 2, los=1), TerrainType(2, "hill", 2)],
        [HexsideFeature(1, "river", 3), HexsideFeature(2, "hedge", 1)],
    )
    m = HexMap(6, 5, table, layout)
    m.set_terrain(m.hex_at(2, 2), 1)
    m.set_terrain(m.hex_at(4, 1), 2)
    return m


def test_one_polygon_per_hex_with_its_label_and_terrain_colour():
    """Every map hex is exactly one polygon, labelled with its printed label, filled by terrain."""
    m = small_map()
    root = parse(render_hex_map(m, terrain_colors=COLORS, label_base=1))
    polys = by_class(root, "polygon", "hex")
    assert len(polys) == m.width * m.height
    labels = [p.get("data-hex") for p in polys]
    assert sorted(labels) == sorted(h.to_label(m.layout, base=1) for h in m.hexes())
    woods = m.hex_at(2, 2).to_label(m.layout, base=1)
    fills = {p.get("data-hex"): p.get("fill") for p in polys}
    assert fills[woods] == COLORS[1]
    assert fills[m.hex_at(0, 0).to_label(m.layout, base=1)] == COLORS[0]
    texts = [t.text for t in root.iter(f"{{{NS['svg']}}}text")]
    assert woods in texts  # the 4-digit label is printed


def test_hex_polygons_are_the_layout_corners():
    """Polygon points are PixelLayout's corners of that hex (no duplicated hex maths)."""
    m = small_map()
    lay = PixelLayout(Orientation.FLAT, 30)
    root = parse(render_hex_map(m, terrain_colors=COLORS, layout=lay))
    poly = next(p for p in by_class(root, "polygon", "hex") if p.get("data-hex") == "0302")
    pts = [tuple(map(float, xy.split(","))) for xy in poly.get("points").split()]
    expected = lay.corners(Hex.from_label("0302"))
    assert [c for pt in pts for c in pt] == pytest.approx([c for pt in expected for c in pt], abs=0.01)


def test_labels_can_be_switched_off():
    """labels=False prints no hex labels."""
    m = small_map()
    root = parse(render_hex_map(m, terrain_colors=COLORS, labels=False))
    assert not [t for t in root.iter(f"{{{NS['svg']}}}text")]


@pytest.mark.parametrize("offset", [OffsetLayout.ODD_Q, OffsetLayout.ODD_R])
@pytest.mark.parametrize("direction", range(6))
def test_hull_arrow_points_at_the_faced_neighbours_centre(offset, direction):
    """A hexside-facing unit's hull arrow runs from its centre toward the neighbour across the faced hexside."""
    root, h, lay = render_unit((2, 2), offset, facing=HexsideFacing(direction))
    (hull,) = by_class(root, "line", "hull")
    x1, y1, x2, y2 = line_vector(hull)
    cx, cy = lay.to_pixel(h)
    nx_, ny_ = lay.to_pixel(h.neighbour(direction))
    assert (x1, y1) == pytest.approx((cx, cy), abs=0.01)
    assert_parallel(x2 - x1, y2 - y1, nx_ - cx, ny_ - cy)
    # The tip stays inside the hex: closer to the unit's centre than to the neighbour's.
    assert math.dist((x2, y2), (cx, cy)) < math.dist((x2, y2), (nx_, ny_))


@pytest.mark.parametrize("turret", range(6))
def test_turret_line_points_at_its_own_hexside(turret):
    """The turret line points toward the turret's hexside, independently of the hull."""
    root, h, lay = render_unit((3, 2), facing=HexsideFacing(0), turret=HexsideFacing(turret))
    (line,) = by_class(root, "line", "turret")
    x1, y1, x2, y2 = line_vector(line)
    cx, cy = lay.to_pixel(h)
    nx_, ny_ = lay.to_pixel(h.neighbour(turret))
    assert_parallel(x2 - cx, y2 - cy, nx_ - cx, ny_ - cy)
    assert_parallel(x2 - x1, y2 - y1, nx_ - cx, ny_ - cy)
    assert line.get("data-facing") == str(turret)


@pytest.mark.parametrize("vertex", range(6))
def test_vertex_facing_arrow_points_at_the_corner(vertex):
    """A vertex-facing unit points at corner v, the corner between hexsides v and v+1."""
    root, h, lay = render_unit((2, 2), facing=VertexFacing(vertex))
    assert not by_class(root, "line", "hull")
    (arrow,) = by_class(root, "line", "vertex")
    x1, y1, x2, y2 = line_vector(arrow)
    corner = lay.corners(h)[vertex]
    cx, cy = lay.to_pixel(h)
    assert_parallel(x2 - x1, y2 - y1, corner[0] - cx, corner[1] - cy)
    # The corner is where the two front hexsides meet: it is equidistant from both neighbours.
    a, b = (lay.to_pixel(h.neighbour(d)) for d in VertexFacing(vertex).front_hexsides)
    assert math.dist(corner, a) == pytest.approx(math.dist(corner, b))


def test_unit_without_facing_has_no_arrow_and_shows_its_texts():
    """A unit with no facing draws a counter only, with its label and sublabel."""
    m = small_map()
    root = parse(render_hex_map(m, terrain_colors=COLORS, labels=False,
                                units=[UnitGlyph(m.hex_at(1, 1), "Rifles", "#25a", sublabel="4-6")]))
    assert not by_class(root, "line", "hull") and not by_class(root, "line", "vertex")
    (unit,) = by_class(root, "g", "unit")
    assert [t.text for t in unit.iter(f"{{{NS['svg']}}}text")] == ["Rifles", "4-6"]


def test_hexside_feature_lies_on_the_shared_edge_and_is_drawn_once():
    """A river between two hexes is one line whose midpoint is halfway between their centres."""
    m = small_map()
    a = m.hex_at(2, 2)
    m.set_hexside(a, 1, 1)
    m.set_hexside(a, 4, 2)
    lay = PixelLayout.for_offset(m.layout, 40)
    root = parse(render_hex_map(m, terrain_colors=COLORS, layout=lay))
    sides = by_class(root, "line", "hexside")
    assert sorted(s.get("data-feature") for s in sides) == ["hedge", "river"]
    for side, d in ((s, 1 if s.get("data-feature") == "river" else 4) for s in sides):
        x1, y1, x2, y2 = line_vector(side)
        mid = ((x1 + x2) / 2, (y1 + y2) / 2)
        ca, cb = lay.to_pixel(a), lay.to_pixel(a.neighbour(d))
        assert mid == pytest.approx(((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2), abs=0.02)
    river = next(s for s in sides if s.get("data-feature") == "river")
    hedge = next(s for s in sides if s.get("data-feature") == "hedge")
    assert float(river.get("stroke-width")) > float(hedge.get("stroke-width"))
    assert hedge.get("stroke-dasharray") and not river.get("stroke-dasharray")


def test_markers_are_badges_with_their_text_in_their_hex():
    """Markers are drawn as badges carrying their text, one per marker."""
    m = small_map()
    h = m.hex_at(1, 3)
    root = parse(render_hex_map(m, terrain_colors=COLORS, markers=[Marker(h, "wreck"), Marker(h, "smoke")]))
    badges = by_class(root, "g", "marker")
    assert [b.get("data-hex") for b in badges] == [h.to_label(m.layout)] * 2
    assert [next(b.iter(f"{{{NS['svg']}}}text")).text for b in badges] == ["wreck", "smoke"]


def test_shape_input_uses_the_given_layers():
    """A (width, height) shape with a terrain array renders like a map."""
    terrain = np.zeros((4, 3), np.int16)
    terrain[1, 2] = 2
    root = parse(render_hex_map((4, 3), terrain=terrain, terrain_colors=COLORS, offset_layout=OffsetLayout.EVEN_Q))
    polys = by_class(root, "polygon", "hex")
    assert len(polys) == 12
    hill = Hex.from_offset(1, 2, OffsetLayout.EVEN_Q).to_label(OffsetLayout.EVEN_Q)
    assert [p.get("data-hex") for p in polys if p.get("fill") == COLORS[2]] == [hill]


def test_bad_inputs_are_refused():
    """Off-map units and wrongly shaped layers raise ValueError."""
    m = small_map()
    with pytest.raises(ValueError, match="off the map"):
        render_hex_map(m, terrain_colors=COLORS, units=[UnitGlyph(Hex(40, 40), "X", "#000")])
    with pytest.raises(ValueError, match="shape"):
        render_hex_map((4, 3), terrain=np.zeros((3, 4)), terrain_colors=COLORS)
    with pytest.raises(TypeError):
        UnitGlyph(Hex(0, 0), "X", "#000", turret=VertexFacing(1))  # type: ignore[arg-type]


def test_rendering_is_deterministic():
    """Same position, same bytes."""
    m = small_map()
    units = [UnitGlyph(m.hex_at(1, 1), "A", "#25a", HexsideFacing(2))]
    assert render_hex_map(m, terrain_colors=COLORS, units=units, legend=True) == render_hex_map(
        m, terrain_colors=COLORS, units=units, legend=True
    )


# -- locale maps -----------------------------------------------------------------------------


def locale_map() -> tuple[LocaleMap, dict[str, tuple[float, float]]]:
    m = LocaleMap()
    m.add_locale(Locale("A", "Mill", capacity=4, terrain=1))
    m.add_locale(Locale("B", "Ridge", capacity=6))
    m.add_locale(Locale("C", "Ford", capacity=2))
    m.add_approach(Approach("A", "B", ApproachWidth.NARROW, terrain_effect=1))
    m.add_approach(Approach("B", "A", ApproachWidth.WIDE))
    m.add_approach(Approach("C", "B", ApproachWidth.WIDE, terrain_effect=2))
    m.add_road(RoadClass.PRIMARY, ["A", "B"])
    m.add_road(RoadClass.SECONDARY, ["B", "C"])
    return m, {"A": (0, 0), "B": (400, 0), "C": (400, 300)}


def test_locales_are_labelled_with_capacity_and_terrain():
    """Each locale is one group with its name, capacity and terrain name."""
    m, pos = locale_map()
    root = parse(render_locale_map(m, pos, terrain_names={0: "open", 1: "village"}))
    groups = by_class(root, "g", "locale")
    assert [g.get("data-locale") for g in groups] == ["A", "B", "C"]
    a_texts = [t.text for t in groups[0].iter(f"{{{NS['svg']}}}text")]
    assert a_texts == ["A Mill", "cap 4 · village"]


def test_locale_title_drops_an_id_that_only_repeats_the_name():
    """A locale whose id is its name squashed is titled by its name; a long id and name split over two lines."""
    m = LocaleMap()
    m.add_locale(Locale("castelceriolo", "Castel Ceriolo"))
    m.add_locale(Locale("12", "Marengo"))
    m.add_locale(Locale("bormidanord", "Bormida north ford", capacity=4))
    pos = {"castelceriolo": (0, 0), "12": (300, 0), "bormidanord": (600, 0)}
    texts = [[t.text for t in g.iter(f"{{{NS['svg']}}}text")]
             for g in by_class(parse(render_locale_map(m, pos)), "g", "locale")]
    assert texts == [["12 Marengo", "cap 0"], ["Bormida north ford", "bormidanord · cap 4"],
                     ["Castel Ceriolo", "cap 0"]]


@pytest.mark.parametrize("label", ["Tiger", "B1 Bis", "Panzergrenadiere", "四号D型"])
def test_counter_text_fits_inside_the_counter(label):
    """Every line of a counter's text fits its width (at about 0.7 em a Latin letter), and all lines its height."""
    m = small_map()
    root = parse(render_hex_map(m, terrain_colors=COLORS, labels=False,
                                units=[UnitGlyph(m.hex_at(1, 1), label, "#444", sublabel="#8 M")]))
    (unit,) = by_class(root, "g", "unit")
    rect = next(unit.iter(f"{{{NS['svg']}}}rect"))
    side = float(rect.get("width"))
    texts = list(unit.iter(f"{{{NS['svg']}}}text"))
    size = float(texts[0].get("font-size"))
    assert len(texts) * size * 1.15 <= side
    for t in texts:
        ems = sum(1.0 if ord(c) > 0x2E80 else 0.7 for c in t.text)
        assert ems * size <= side


def test_wide_characters_shrink_the_font_more():
    """A counter label in CJK characters gets a smaller font than as many Latin letters."""
    m = small_map()
    sizes = []
    for label in ("Tiger", "虎式坦克重"):
        root = parse(render_hex_map(m, terrain_colors=COLORS, labels=False, units=[UnitGlyph(m.hex_at(1, 1), label, "#444")]))
        (text,) = [t for t in root.iter(f"{{{NS['svg']}}}text")]
        sizes.append(float(text.get("font-size")))
    assert sizes[1] < sizes[0]


def test_approach_widths_have_distinct_strokes_on_the_defenders_side():
    """Narrow and wide approaches get distinct stroke widths; each bar is on the defender's side."""
    m, pos = locale_map()
    root = parse(render_locale_map(m, pos, approach_effects={1: "bridge", 2: "ford"}))
    bars = by_class(root, "line", "approach")
    assert len(bars) == 3
    widths = {b.get("data-width"): float(b.get("stroke-width")) for b in bars}
    assert widths == {"narrow": APPROACH_STROKE[ApproachWidth.NARROW], "wide": APPROACH_STROKE[ApproachWidth.WIDE]}
    assert widths["wide"] > widths["narrow"]
    for bar in bars:
        x1, y1, x2, y2 = line_vector(bar)
        mid = ((x1 + x2) / 2, (y1 + y2) / 2)
        d, a = pos[bar.get("data-defender")], pos[bar.get("data-attacker")]
        assert math.dist(mid, d) < math.dist(mid, a)
    effects = sorted(t.text for t in by_class(root, "text", "approach-effect"))
    assert effects == ["bridge", "ford"]


def test_roads_by_class_primary_solid_and_thicker_secondary_dashed():
    """A primary road is a thick solid line, a secondary one a thinner dashed line."""
    m, pos = locale_map()
    roads = {r.get("data-class"): r for r in by_class(parse(render_locale_map(m, pos)), "line", "road")}
    assert set(roads) == {"primary", "secondary"}
    assert roads["primary"].get("stroke-dasharray") is None
    assert roads["secondary"].get("stroke-dasharray")
    assert float(roads["primary"].get("stroke-width")) > float(roads["secondary"].get("stroke-width"))


def test_face_down_piece_hides_its_type_and_steps():
    """A face-down piece shows a blank back: neither its type nor its steps appear anywhere."""
    m, pos = locale_map()
    pieces = [PieceGlyph("A", "Grenadiers", "#25a", 3), PieceGlyph("A", "Cuirassiers", "#25a", 2, face_up=False)]
    svg = render_locale_map(m, pos, pieces=pieces)
    assert "Cuirassiers" not in svg
    root = parse(svg)
    up, down = by_class(root, "g", "piece")
    assert (up.get("data-face"), down.get("data-face")) == ("up", "down")
    assert [t.text for t in up.iter(f"{{{NS['svg']}}}text")] == ["Grenadiers", "3"]
    assert not list(down.iter(f"{{{NS['svg']}}}text"))


def test_reserve_pieces_inside_their_locale_and_approach_pieces_on_the_approach():
    """Reserve pieces stack inside the box; a piece on an approach sits next to that approach's bar."""
    m, pos = locale_map()
    w, h = 170.0, 110.0
    pieces = [PieceGlyph("B", f"I{k}", "#a33", k) for k in range(5)] + [PieceGlyph("B", "Gd", "#a33", 4, approach="A")]
    root = parse(render_locale_map(m, pos, pieces=pieces, locale_size=(w, h)))
    rects = []
    for g in by_class(root, "g", "piece"):
        r = next(g.iter(f"{{{NS['svg']}}}rect"))
        rects.append((float(r.get("x")) + float(r.get("width")) / 2, float(r.get("y")) + float(r.get("height")) / 2))
    bx, by = pos["B"]
    for x, y in rects[:5]:
        assert abs(x - bx) < w / 2 and abs(y - by) < h / 2
    assert len(set(rects[:5])) == 5  # no two reserve pieces on the same spot
    bar = next(b for b in by_class(root, "line", "approach") if b.get("data-defender") == "B")
    x1, y1, x2, y2 = line_vector(bar)
    gx, gy = rects[5]
    assert math.dist((gx, gy), ((x1 + x2) / 2, (y1 + y2) / 2)) < 30
    assert gx < bx - w / 2  # outside B's box, toward the attacker A


def test_locale_errors_name_the_problem():
    """A missing position or a piece on a missing approach is refused."""
    m, pos = locale_map()
    with pytest.raises(ValueError, match="no position"):
        render_locale_map(m, {"A": (0, 0)})
    m.connect("A", "C")
    with pytest.raises(NoApproachError):
        render_locale_map(m, pos, pieces=[PieceGlyph("A", "Inf", "#000", approach="C")])
