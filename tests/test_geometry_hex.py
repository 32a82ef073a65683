"""Tests for axial hex coordinates."""

from itertools import pairwise

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wargamekit.geometry import Hex, HexLabelError, OffsetLayout, hex_line, hex_line_pair

coords = st.integers(-30, 30)
hexes = st.builds(Hex, coords, coords)


def test_repr_rebuilds():
    """The repr is the call that rebuilds the hex."""
    assert repr(Hex(2, -1)) == "Hex(2, -1)"
    assert eval(repr(Hex(2, -1))) == Hex(2, -1)


def test_cube_s():
    """s is -q - r."""
    assert Hex(2, -1).s == -1


def test_known_distance():
    """Distance (0,0) -> (3,-1) is 3."""
    assert Hex(0, 0).distance(Hex(3, -1)) == 3
    assert Hex(-2, 5).distance(Hex(-2, 5)) == 0


def test_label_round_trip():
    """Label 0304 is column 3, row 4 and round-trips in every layout."""
    for layout in OffsetLayout:
        h = Hex.from_label("0304", layout)
        assert h.to_offset(layout) == (3, 4)
        assert h.to_label(layout) == "0304"
    assert Hex.from_label("0101", base=1).to_offset() == (0, 0)
    assert Hex.from_label("012034").to_offset() == (12, 34)


@pytest.mark.parametrize("bad", ["304", "03a4", "", "03045"])
def test_bad_label(bad):
    """Malformed labels raise HexLabelError (a ValueError)."""
    with pytest.raises(ValueError):
        Hex.from_label(bad)
    with pytest.raises(HexLabelError):
        Hex.from_label(bad)


def test_label_out_of_range():
    """A negative offset has no label."""
    with pytest.raises(HexLabelError):
        Hex.from_offset(-1, 0).to_label()


@given(coords, coords)
def test_offset_round_trip(col, row):
    """from_offset and to_offset are inverse in every layout."""
    for layout in OffsetLayout:
        assert Hex.from_offset(col, row, layout).to_offset(layout) == (col, row)


def test_odd_q_neighbours_on_paper():
    """In odd-q, column 1 (shoved down) has (0,1) and (2,1) as lower side neighbours."""
    h = Hex.from_offset(1, 0)
    got = {n.to_offset() for n in h.neighbours()}
    assert got == {(2, 0), (2, 1), (1, -1), (0, 0), (0, 1), (1, 1)}


def test_direction_order():
    """Directions run counterclockwise from (+1, 0)."""
    assert Hex(0, 0).neighbours() == (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))
    for d in range(6):
        assert Hex(4, 4).direction_to(Hex(4, 4).neighbour(d)) == d
    with pytest.raises(ValueError):
        Hex(0, 0).direction_to(Hex(2, 0))


def test_ring_and_disk_sizes():
    """A ring of radius 2 has 12 hexes; disks have 3n(n+1)+1."""
    ring = Hex(1, 1).ring(2)
    assert len(ring) == 12 == len(set(ring))
    assert all(Hex(1, 1).distance(h) == 2 for h in ring)
    assert Hex(0, 0).ring(0) == [Hex(0, 0)]
    for n in range(5):
        assert len(Hex(3, -2).disk(n)) == 3 * n * (n + 1) + 1
    with pytest.raises(ValueError):
        Hex(0, 0).ring(-1)


@given(hexes, st.integers(0, 6))
def test_disk_is_union_of_rings(center, n):
    """The disk is exactly the union of rings 0..n."""
    assert set(center.disk(n)) == set(center.spiral(n))


@given(hexes, hexes, st.integers(-7, 7))
def test_rotation_preserves_distance(h, c, k):
    """Rotation keeps distance to the centre and six steps is the identity."""
    assert h.rotate(c, k).distance(c) == h.distance(c)
    assert h.rotate(c, 6) == h
    assert h.rotate(c, k).rotate(c, -k) == h


def test_rotation_moves_directions():
    """One step takes direction d to direction d + 1."""
    for d in range(6):
        assert Hex(0, 0).neighbour(d).rotate(Hex(0, 0), 1) == Hex(0, 0).neighbour(d + 1)


def test_distance_matches_bfs():
    """Distance equals BFS path length on a networkx hex grid graph."""
    g = nx.Graph()
    region = Hex(0, 0).disk(8)
    inside = set(region)
    for h in region:
        for n in h.neighbours():
            if n in inside:
                g.add_edge(h, n)
    for source in (Hex(0, 0), Hex(3, -5), Hex(-8, 4)):
        bfs = nx.single_source_shortest_path_length(g, source)
        for h in region:
            # On a hexagonal region the shortest grid path never needs to leave it.
            assert bfs[h] == source.distance(h)


@given(hexes, hexes)
def test_line_properties(a, b):
    """Lines have distance+1 hexes, step by neighbours and end at both hexes, for both nudges."""
    for line in hex_line_pair(a, b):
        assert len(line) == a.distance(b) + 1
        assert line[0] == a and line[-1] == b
        assert all(p.distance(q) == 1 for p, q in pairwise(line))


def test_line_tie_break():
    """On an edge-running line the two nudges take the two sides, each deterministically."""
    plus, minus = hex_line_pair(Hex(0, 0), Hex(2, -1))
    assert plus == [Hex(0, 0), Hex(1, 0), Hex(2, -1)]
    assert minus == [Hex(0, 0), Hex(1, -1), Hex(2, -1)]
    assert hex_line(Hex(0, 0), Hex(3, -1)) == hex_line(Hex(0, 0), Hex(3, -1), nudge=-1)
    with pytest.raises(ValueError):
        hex_line(Hex(0, 0), Hex(1, 0), nudge=0)


def _float_line(a, b, nudge):
    """The floating-point definition of hex_line (lerp cube points, nudge, cube-round): the reference."""
    import math

    from wargamekit.geometry import LINE_EPSILON

    n = a.distance(b)
    if n == 0:
        return [a]
    out = []
    for i in range(n + 1):
        x = (a.q * n + (b.q - a.q) * i) / n + nudge * LINE_EPSILON[0]
        y = (a.r * n + (b.r - a.r) * i) / n + nudge * LINE_EPSILON[1]
        z = (a.s * n + (b.s - a.s) * i) / n + nudge * LINE_EPSILON[2]
        rx, ry, rz = math.floor(x + 0.5), math.floor(y + 0.5), math.floor(z + 0.5)
        dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dy > dz:
            ry = -rx - rz
        out.append(Hex(rx, ry))
    return out


@given(hexes, hexes, st.sampled_from([1, -1]))
def test_integer_line_equals_float_definition(a, b, nudge):
    """hex_line (exact integer form) gives the floating-point definition's hexes, both nudges."""
    assert hex_line(a, b, nudge=nudge) == _float_line(a, b, nudge)


far = st.integers(-3000, 3000)


@given(st.builds(Hex, far, far), st.builds(Hex, far, far), st.sampled_from([1, -1]))
def test_lines_and_disks_far_from_the_origin(a, b, nudge):
    """Outside the interned grid (|q| or |r| > 256) lines and disks are still the reference ones."""
    assert hex_line(a, b, nudge=nudge) == _float_line(a, b, nudge)
    box = [Hex(a.q + dq, a.r + dr) for dq in range(-2, 3) for dr in range(-2, 3)]
    assert a.disk(2) == sorted(h for h in box if a.distance(h) <= 2)


def test_integer_line_exhaustive_small_deltas():
    """Every delta within distance 12 of the origin, both nudges: integer form == float definition."""
    for d in Hex(0, 0).disk(12):
        for nudge in (1, -1):
            assert hex_line(Hex(0, 0), d, nudge=nudge) == _float_line(Hex(0, 0), d, nudge)


@given(hexes, st.integers(0, 8))
def test_disk_is_every_hex_within_radius(center, n):
    """The disk (slices of interned columns) is every hex within n, sorted by (q, r)."""
    box = [Hex(center.q + dq, center.r + dr) for dq in range(-n, n + 1) for dr in range(-n, n + 1)]
    assert center.disk(n) == sorted(h for h in box if center.distance(h) <= n)


def test_interned_hexes_are_values():
    """Interned hexes equal fresh ones; the dict part is emptied at its bound and lookups stay right."""
    from wargamekit.geometry import hex as hexmod

    assert Hex(0, 0).neighbour(0) == Hex(1, 0) and Hex(0, 0).neighbour(0) is Hex(0, 0).neighbour(0)
    old = hexmod._INTERN_MAX
    try:
        hexmod._INTERN_MAX = 50
        disks = [Hex(1000 + 7 * k, -k).disk(3) for k in range(10)]
        lines = [hex_line(Hex(1000, 5 * k), Hex(1010, 5 * k - 3)) for k in range(10)]
        assert len(hexmod._INTERNED) <= 50
        for k, d in enumerate(disks):
            assert d == sorted(Hex(1000 + 7 * k + h.q, -k + h.r) for h in Hex(0, 0).disk(3))
        for k, line in enumerate(lines):
            assert line == _float_line(Hex(1000, 5 * k), Hex(1010, 5 * k - 3), 1)
    finally:
        hexmod._INTERN_MAX = old


def test_copy_returns_the_hex():
    """Hexes are immutable values: copy and deepcopy return the same object (views copy states cheaply)."""
    import copy

    h = Hex(3, -2)
    assert copy.copy(h) is h and copy.deepcopy(h) is h
    assert copy.deepcopy({"at": [h]})["at"][0] is h


@given(hexes, hexes)
def test_distance_is_max_of_cube_deltas(a, b):
    """The half-sum distance formula equals the max of the three cube deltas."""
    assert a.distance(b) == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))
    assert (a - b).length() == a.distance(b)


def test_a_line_drawn_again_from_its_cached_offsets_is_the_same_line():
    """hex_line keeps short lines' offsets in the interned grid: drawing the same displacement
    again, from anywhere (near the grid's edge, or outside it where nothing is cached), still
    gives the float definition's hexes."""
    from wargamekit.geometry import hex as hexmod

    hexmod._LINE_OFFSETS.clear()
    deltas = Hex(0, 0).disk(6) + [Hex(40, -3), Hex(-41, 20)]  # 41: longer than what is cached
    for origin in (Hex(0, 0), Hex(7, -3), Hex(250, 0), Hex(-256, 256), Hex(300, -5)):
        for d in deltas:
            b = Hex(origin.q + d.q, origin.r + d.r)
            for nudge in (1, -1):
                first, again = hex_line(origin, b, nudge=nudge), hex_line(origin, b, nudge=nudge)
                assert first == again == _float_line(origin, b, nudge), (origin, d, nudge)
    assert (1, 0, 1) in hexmod._LINE_OFFSETS and (40, -3, -1) in hexmod._LINE_OFFSETS
    assert (-41, 20, 1) not in hexmod._LINE_OFFSETS
