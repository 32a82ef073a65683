"""Tests that the numpy batch forms agree with the scalar forms."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargamekit.geometry import Hex, HexMap, OffsetLayout, TerrainTable, TerrainType, hex_line, hexbatch

coords = st.integers(-40, 40)
pairs = st.lists(st.tuples(coords, coords, coords, coords), min_size=1, max_size=40)


def _split(rows):
    arr = np.array(rows, dtype=np.int32)
    return np.ascontiguousarray(arr[:, :2]), np.ascontiguousarray(arr[:, 2:])


@given(pairs)
def test_distance_agrees(rows):
    """Batch distance equals scalar distance, with and without preallocated buffers."""
    a, b = _split(rows)
    expected = [Hex(*x).distance(Hex(*y)) for x, y in zip(a.tolist(), b.tolist())]
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
    for i, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
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
