"""Tests for hexside and vertex facing and their arcs."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wargamekit.geometry import Arc, Hex, HexsideFacing, VertexFacing, arc_of, in_fire_arc, wedges_of

ORIGIN = Hex(0, 0)
hexes = st.builds(Hex, st.integers(-12, 12), st.integers(-12, 12)).filter(lambda h: h != ORIGIN)


def test_vertex_facing_neighbours_all_facings():
    """A vertex-facing counter: two front, two flank, two rear neighbours, for each of the 6 corners."""
    for v in range(6):
        got = [arc_of(ORIGIN, VertexFacing(v), ORIGIN.neighbour(d)) for d in range(6)]
        expected = {v: Arc.FRONT, (v + 1) % 6: Arc.FRONT, (v + 2) % 6: Arc.FLANK,
                    (v + 3) % 6: Arc.REAR, (v + 4) % 6: Arc.REAR, (v + 5) % 6: Arc.FLANK}
        assert got == [expected[d] for d in range(6)]


def test_hexside_facing_neighbours():
    """A hexside-facing unit: faced neighbour FRONT, opposite REAR, four FLANK."""
    got = [arc_of(Hex(2, 3), HexsideFacing(1), Hex(2, 3).neighbour(d)) for d in range(6)]
    assert got == [Arc.FLANK, Arc.FRONT, Arc.FLANK, Arc.FLANK, Arc.REAR, Arc.FLANK]


def test_distant_hexes_and_boundary_rule():
    """Distant hexes follow the wedges; boundary hexes go to the firer's favour."""
    f = HexsideFacing(0)
    assert arc_of(ORIGIN, f, Hex(5, -2)) is Arc.FRONT  # inside wedge 0 (q >= r >= s)
    assert arc_of(ORIGIN, f, Hex(-5, 2)) is Arc.REAR
    # Hex(2, -1) lies on the line through the corner between hexsides 0 and 1.
    assert wedges_of(ORIGIN, Hex(2, -1)) == (0, 1)
    assert arc_of(ORIGIN, f, Hex(2, -1)) is Arc.FLANK
    assert arc_of(ORIGIN, f, Hex(2, -1), firer="unit") is Arc.FRONT
    # Vertex facing 0: boundary between FRONT (wedge 1) and FLANK (wedge 2) is the line through Hex(1, -2).
    assert wedges_of(ORIGIN, Hex(1, -2)) == (1, 2)
    assert arc_of(ORIGIN, VertexFacing(0), Hex(1, -2)) is Arc.FLANK
    assert arc_of(ORIGIN, VertexFacing(0), Hex(1, -2), firer="unit") is Arc.FRONT


def test_same_hex_is_an_error():
    """The unit's own hex has no arc."""
    with pytest.raises(ValueError):
        arc_of(ORIGIN, HexsideFacing(0), ORIGIN)
    with pytest.raises(ValueError):
        in_fire_arc(ORIGIN, HexsideFacing(0), ORIGIN)


def test_fire_arc_widths():
    """Width 1 is the 60-degree wedge, 3 the front half, with boundary lines inside."""
    f = HexsideFacing(0)
    assert in_fire_arc(ORIGIN, f, Hex(4, -1))
    assert in_fire_arc(ORIGIN, f, Hex(2, -1))  # boundary counts as inside
    assert in_fire_arc(ORIGIN, f, Hex(1, 1))  # the other boundary (q == r)
    assert not in_fire_arc(ORIGIN, f, Hex(1, -1))
    assert in_fire_arc(ORIGIN, f, Hex(1, -1), width=3)
    assert not in_fire_arc(ORIGIN, f, Hex(-1, 0), width=3)
    assert in_fire_arc(ORIGIN, f, Hex(-1, 0), width=6)
    with pytest.raises(ValueError):
        in_fire_arc(ORIGIN, f, Hex(1, 0), width=2)


def test_turning():
    """Turning is modulo 6 in both directions."""
    assert HexsideFacing(5).turned(1) == HexsideFacing(0)
    assert VertexFacing(0).turned(-1) == VertexFacing(5)
    assert HexsideFacing(8) == HexsideFacing(2)


@given(hexes, st.integers(0, 5), st.integers(-6, 6))
def test_arcs_rotate_with_the_unit(target, facing, k):
    """Rotating the target and the facing together keeps the arc."""
    turned = target.rotate(ORIGIN, k)
    for f in (HexsideFacing(facing), VertexFacing(facing)):
        for firer in ("other", "unit"):
            assert arc_of(ORIGIN, f, target, firer=firer) == arc_of(ORIGIN, f.turned(k), turned, firer=firer)


@given(hexes)
def test_wedges_partition(target):
    """Every hex lies in one wedge, or two adjacent ones on a corner line."""
    w = wedges_of(ORIGIN, target)
    assert len(w) in (1, 2)
    if len(w) == 2:
        assert (w[1] - w[0]) % 6 in (1, 5)
        # Corner lines are the cube diagonals: two coordinates equal.
        assert len({target.q, target.r, target.s}) == 2
