"""Tests that the numpy batch forms agree with the scalar forms."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargamekit.geometry import Hex, HexMap, HexsideFeature, OffsetLayout, TerrainTable, TerrainType, hex_line, hexbatch

coords = st.integers(-40, 40)
pairs = st.lists(st.tuples(coords, coords, coords, coords), min_size=1, max_size=40)


def _split(rows):
    arr = np.array(rows, dtype=np.int32)
    return np.ascontiguousarray(arr[:, :2]), np.ascontiguousarray(arr[:, 2:])


@given(pairs)
def test_distance_agrees(rows):
    """Batch distance equals scalar distance, with and without preallocated buffers."""
    a, b = _split(rows)
    expected = [Hex(*x).distance(Hex(*y)) for x, y in zip(a.tolist(), b.tolist(), strict=True)]
    assert hexbatch.distance(a, b).tolist() == expected
    out = np.empty(len(a), dtype=np.int32)
    scratch = np.empty((2, len(a)), dtype=np.int32)
    assert hexbatch.distance(a, b, out=out, scratch=scratch) is out
    assert out.tolist() == expected


@given(coords, coords, st.integers(0, 6))
def test_disk_agrees(q, r, n):
    """Batch disk equals the scalar disk, in the same order."""
    assert [Hex(*x) for x in hexbatch.disk(Hex(q, r), n).tolist()] == Hex(q, r).disk(n)


@given(pairs, st.sampled_from([1, -1]))
def test_lines_agree(rows, nudge):
    """Batch lines equal scalar lines hex for hex, for both nudges."""
    a, b = _split(rows)
    offsets, flat = hexbatch.lines(a, b, nudge=nudge)
    for i, (x, y) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
        got = [Hex(*p) for p in flat[offsets[i]:offsets[i + 1]].tolist()]
        assert got == hex_line(Hex(*x), Hex(*y), nudge=nudge)


@given(st.lists(st.tuples(coords, coords), min_size=1, max_size=20), st.sampled_from(list(OffsetLayout)))
def test_offset_conversion_agrees(rows, layout):
    """Batch offset conversion equals the scalar one and round-trips."""
    h = np.array(rows, dtype=np.int32)
    off = hexbatch.axial_to_offset(h, layout)
    assert off.tolist() == [list(Hex(*x).to_offset(layout)) for x in rows]
    assert hexbatch.offset_to_axial(off, layout).tolist() == h.tolist()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)), st.sampled_from([1, -1]))
def test_los_batch_agrees_with_scalar(seed, layout, nudge):
    """Batch LOS counts equal the scalar LineOfSight counts on random maps, edges included."""
    rng = np.random.default_rng(seed)
    w, h = int(rng.integers(1, 12)), int(rng.integers(1, 12))
    table = TerrainTable([TerrainType(0, "clear"), TerrainType(1, "brush", los=1), TerrainType(2, "woods", los=2)])
    m = HexMap(w, h, table, layout, terrain=rng.integers(0, 3, size=(w, h)).astype(np.int16))
    wreck = rng.random((w, h)) < 0.1
    ca = np.column_stack((rng.integers(0, w, 30), rng.integers(0, h, 30)))
    cb = np.column_stack((rng.integers(0, w, 30), rng.integers(0, h, 30)))
    a, b = hexbatch.offset_to_axial(ca, layout), hexbatch.offset_to_axial(cb, layout)
    blk, hin = hexbatch.line_of_sight_batch(a, b, m.los_class(), layout, blocking_mask=wreck, nudge=nudge)
    first, _ = hexbatch.line_of_sight_batch(a, b, m.los_class(), layout, blocking_mask=wreck,
                                            nudge=nudge, stop_after_blocking=1)
    for i in range(len(a)):
        los = m.line_of_sight(Hex(*a[i].tolist()), Hex(*b[i].tolist()), blocking=wreck,
                              edge="primary") if nudge == 1 else None
        if los is not None:
            assert (blk[i], hin[i]) == (los.blocking, los.hindering)
        line = hex_line(Hex(*a[i].tolist()), Hex(*b[i].tolist()), nudge=nudge)[1:-1]
        cls = [2 if wreck[x.to_offset(layout)] else int(m.los_class()[x.to_offset(layout)])
               for x in line if x in m]
        assert (blk[i], hin[i]) == (cls.count(2), cls.count(1))
        assert first[i] == min(blk[i], 1)


def test_los_batch_rejects_off_map():
    """Endpoints off the map are a ValueError."""
    with pytest.raises(ValueError):
        hexbatch.line_of_sight_batch(np.array([[0, 0]]), np.array([[9, 0]]), np.zeros((3, 3), dtype=np.int8))


def test_bad_shapes():
    """Arrays that are not (N, 2) are rejected."""
    with pytest.raises(ValueError):
        hexbatch.as_hex_array(np.zeros((3, 3)))


@pytest.mark.parametrize("nudge", [1, -1])
def test_lines_exhaustive_small_deltas(nudge):
    """Batch lines equal scalar lines for every delta up to 25 hexes, from two origins."""
    k = np.arange(-25, 26)
    dq, dr = (x.ravel() for x in np.meshgrid(k, k, indexing="ij"))
    for origin in ((0, 0), (-17, 31)):
        a = np.tile(np.array(origin, dtype=np.int32), (len(dq), 1))
        b = a + np.column_stack((dq, dr)).astype(np.int32)
        offsets, flat = hexbatch.lines(a, b, nudge=nudge)
        rows = flat.tolist()
        for i, (x, y) in enumerate(zip(a.tolist(), b.tolist(), strict=True)):
            expected = [[h.q, h.r] for h in hex_line(Hex(*x), Hex(*y), nudge=nudge)]
            assert rows[offsets[i]:offsets[i + 1]] == expected


@given(coords, coords, coords, coords, st.sampled_from([1, -1]))
def test_scalar_line_is_translation_invariant(aq, ar, bq, br, nudge):
    """The scalar line from a to b is a + line(0, b - a): rays with one delta share one step table."""
    a, b = Hex(aq, ar), Hex(bq, br)
    assert hex_line(a, b, nudge=nudge) == [a + h for h in hex_line(Hex(0, 0), b - a, nudge=nudge)]


def test_tie_test_matches_the_two_nudges():
    """_has_tie is True exactly where the two nudges give different lines."""
    k = np.arange(-30, 31)
    dq, dr = (x.ravel() for x in np.meshgrid(k, k, indexing="ij"))
    n, _kind, _f0, _f1, sec = hexbatch._line_params(dq.astype(np.int32), dr.astype(np.int32), 1)
    tie = hexbatch._has_tie(n, sec)
    for i in range(len(dq)):
        b = Hex(int(dq[i]), int(dr[i]))
        assert bool(tie[i]) == (hex_line(Hex(0, 0), b, nudge=1) != hex_line(Hex(0, 0), b, nudge=-1))


def _random_map(rng, layout, sides: bool):
    w, h = int(rng.integers(1, 12)), int(rng.integers(1, 12))
    table = TerrainTable(
        [TerrainType(0, "clear"), TerrainType(1, "brush", los=1), TerrainType(2, "woods", los=2)],
        [HexsideFeature(1, "hedge", los=1), HexsideFeature(2, "wall", los=2), HexsideFeature(3, "stream")],
    )
    m = HexMap(w, h, table, layout, terrain=rng.integers(0, 3, size=(w, h)).astype(np.int16),
               elevation=rng.integers(0, 3, size=(w, h)).astype(np.int16))
    if sides:
        for hx in m.hexes():
            for d in range(6):
                if rng.random() < 0.15:
                    m.set_hexside(hx, d, int(rng.integers(1, 4)))
    return m


def _random_pairs(rng, m, k=30):
    ca = np.column_stack((rng.integers(0, m.width, k), rng.integers(0, m.height, k)))
    cb = np.column_stack((rng.integers(0, m.width, k), rng.integers(0, m.height, k)))
    return hexbatch.offset_to_axial(ca, m.layout), hexbatch.offset_to_axial(cb, m.layout)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)), st.sampled_from(["primary", "worse", "better"]),
       st.booleans(), st.booleans())
def test_los_batch_edges_and_hexsides_agree_with_scalar(seed, layout, edge, sides, at_ends):
    """Batch LOS with edge="worse"/"better" and hexside LOS classes equals the scalar form."""
    rng = np.random.default_rng(seed)
    m = _random_map(rng, layout, sides)
    wreck = rng.random((m.width, m.height)) < 0.1
    a, b = _random_pairs(rng, m)
    blk, hin = m.line_of_sight_batch(a, b, blocking_mask=wreck, edge=edge, hexside_at_ends=at_ends)
    first, _ = m.line_of_sight_batch(a, b, blocking_mask=wreck, edge=edge, hexside_at_ends=at_ends,
                                     stop_after_blocking=1)
    for i in range(len(a)):
        los = m.line_of_sight(Hex(*a[i].tolist()), Hex(*b[i].tolist()), blocking=wreck, edge=edge,
                              hexside_at_ends=at_ends)
        assert (blk[i], hin[i]) == (los.blocking, los.hindering)
        assert (first[i] > 0) == (blk[i] > 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)))
def test_los_batch_elevation_hook_agrees_with_scalar(seed, layout):
    """The batch elevation hook (arrays) gives the scalar hook's answers."""
    rng = np.random.default_rng(seed)
    m = _random_map(rng, layout, sides=True)
    a, b = _random_pairs(rng, m)
    seen = []

    def batch_hook(hexes, he, ea, eb):
        seen.append(hexes)
        return np.maximum(ea, eb) > he

    blk, hin = m.line_of_sight_batch(a, b, elevation_hook=batch_hook)
    for i in range(len(a)):
        los = m.line_of_sight(Hex(*a[i].tolist()), Hex(*b[i].tolist()),
                              elevation_hook=lambda h, he, ea, eb: max(ea, eb) > he)
        assert (blk[i], hin[i]) == (los.blocking, los.hindering)
    for hexes in seen:
        assert all(Hex(*x) in m for x in hexes.tolist())


def test_los_batch_elevation_hook_errors():
    """A batch hook needs the elevation layer and must return one bool per hex."""
    cls = np.full((5, 1), 2, dtype=np.int8)
    a, b = np.array([[0, 0]]), np.array([[4, -2]])
    with pytest.raises(ValueError, match="elevation"):
        hexbatch.line_of_sight_batch(a, b, cls, elevation_hook=lambda *x: x[1] > 0)
    with pytest.raises(TypeError, match="bool array"):
        hexbatch.line_of_sight_batch(a, b, cls, elevation=np.zeros((5, 1)), elevation_hook=lambda *x: True)
    with pytest.raises(ValueError, match="edge"):
        hexbatch.line_of_sight_batch(a, b, cls, edge="sideways")


def test_los_batch_stop_after_blocking_counts():
    """stop_after_blocking=k stops each ray at its k-th block and keeps the hindering before it."""
    cls = np.array([[0], [1], [2], [1], [2], [2], [0]], dtype=np.int8)  # one row, ODD_Q columns
    a = hexbatch.offset_to_axial(np.array([[0, 0]]))
    b = hexbatch.offset_to_axial(np.array([[6, 0]]))
    line = hex_line(Hex(*a[0].tolist()), Hex(*b[0].tolist()))
    assert [h.to_offset() for h in line] == [(c, 0) for c in range(7)]
    assert [x.tolist() for x in hexbatch.line_of_sight_batch(a, b, cls)] == [[3], [2]]
    assert [x.tolist() for x in hexbatch.line_of_sight_batch(a, b, cls, stop_after_blocking=1)] == [[1], [1]]
    assert [x.tolist() for x in hexbatch.line_of_sight_batch(a, b, cls, stop_after_blocking=2)] == [[2], [2]]


def test_disk_offsets_are_cached_and_read_only():
    """Disks reuse one read-only offset table per radius; the result is a fresh array."""
    d1, d2 = hexbatch.disk(Hex(3, 4), 5), hexbatch.disk(Hex(3, 4), 5)
    assert d1 is not d2 and np.array_equal(d1, d2) and d1.flags.writeable
    with pytest.raises(ValueError):
        hexbatch.disk(Hex(0, 0), -1)


@given(st.lists(st.tuples(coords, coords), min_size=1, max_size=5), st.integers(0, 4))
def test_disks_agree(centers, n):
    """Batch disks equal the scalar disk of each centre, in the same order."""
    got = hexbatch.disks(np.array(centers, dtype=np.int32), n)
    assert got.shape == (len(centers), 3 * n * (n + 1) + 1, 2)
    for row, (q, r) in zip(got.tolist(), centers, strict=True):
        assert [Hex(*x) for x in row] == Hex(q, r).disk(n)


@pytest.mark.parametrize("layout", list(OffsetLayout))
def test_los_batch_long_lines_agree_with_scalar(layout):
    """On a 150x90 map, long batch rays (with and without hexside classes) give the scalar counts."""
    rng = np.random.default_rng(7)
    w, h = 150, 90
    table = TerrainTable(
        [TerrainType(0, "clear"), TerrainType(1, "brush", los=1), TerrainType(2, "woods", los=2)],
        [HexsideFeature(1, "hedge", los=1)],
    )
    terrain = rng.choice([0, 0, 0, 0, 1, 2], size=(w, h)).astype(np.int16)
    m = HexMap(w, h, table, layout, terrain=terrain)
    a, b = _random_pairs(rng, m, 150)
    plain = m.line_of_sight_batch(a, b)
    for hx in m.hexes()[::7]:
        m.set_hexside(hx, int(rng.integers(0, 6)), 1)
    sided = m.line_of_sight_batch(a, b, edge="worse")
    layer = m.los_class()
    for i in range(len(a)):
        p, q = Hex(*a[i].tolist()), Hex(*b[i].tolist())
        los = m.line_of_sight(p, q, edge="worse")
        assert (sided[0][i], sided[1][i]) == (los.blocking, los.hindering)
        cls = [int(layer[x.to_offset(layout)]) for x in hex_line(p, q)[1:-1] if x in m]
        assert (plain[0][i], plain[1][i]) == (cls.count(2), cls.count(1))


@given(pairs)
def test_distance_broadcast_and_strided(rows):
    """Batch distance to one broadcast row, and on strided column views, equals the scalar distance."""
    a, b = _split(rows)
    one = b[:1]
    assert hexbatch.distance(a, one).tolist() == [Hex(*x).distance(Hex(*one[0].tolist())) for x in a.tolist()]
    wide = np.concatenate([a, b, a], axis=1)
    assert hexbatch.distance(wide[:, 0:2], wide[:, 2:4]).tolist() == hexbatch.distance(a, b).tolist()
