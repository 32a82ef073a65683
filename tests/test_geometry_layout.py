"""Tests for the pixel layout."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from wargamekit.geometry import Hex, OffsetLayout, Orientation, PixelLayout


@pytest.mark.parametrize("orientation", list(Orientation))
def test_corners_are_size_away(orientation):
    """Each corner is `size` from the centre, and neighbouring hexes share two corners."""
    lay = PixelLayout(orientation, 10, (5, 7))
    cx, cy = lay.to_pixel(Hex(2, -1))
    assert all(math.isclose(math.hypot(x - cx, y - cy), 10) for x, y in lay.corners(Hex(2, -1)))
    for d in range(6):
        a = {(round(x, 6), round(y, 6)) for x, y in lay.corners(Hex(0, 0))}
        b = {(round(x, 6), round(y, 6)) for x, y in lay.corners(Hex(0, 0).neighbour(d))}
        assert len(a & b) == 2


@pytest.mark.parametrize("orientation", list(Orientation))
def test_corner_v_between_hexsides(orientation):
    """Corner v is shared by the neighbours across hexsides v and v + 1."""
    lay = PixelLayout(orientation, 1)
    for v in range(6):
        x, y = lay.corner_offset(v)
        for d in (v, v + 1):
            nx_, ny_ = lay.to_pixel(Hex(0, 0).neighbour(d))
            assert math.isclose(math.hypot(nx_ - x, ny_ - y), 1, abs_tol=1e-9)


def test_flat_direction_zero_is_south_east():
    """Flat-top: direction 0 is down-right on screen (y grows down); pointy: east."""
    x, y = PixelLayout(Orientation.FLAT, 1).to_pixel(Hex(1, 0))
    assert x > 0 and y > 0
    x, y = PixelLayout(Orientation.POINTY, 1).to_pixel(Hex(1, 0))
    assert x > 0 and y == 0
    assert PixelLayout.for_offset(OffsetLayout.ODD_R).orientation is Orientation.POINTY


@given(st.integers(-20, 20), st.integers(-20, 20), st.sampled_from(list(Orientation)))
def test_pixel_round_trip(q, r, orientation):
    """from_pixel inverts to_pixel; the batch form agrees."""
    lay = PixelLayout(orientation, (12, 9), (3, -4))
    assert lay.from_pixel(*lay.to_pixel(Hex(q, r))) == Hex(q, r)
    assert np.allclose(lay.to_pixel_batch(np.array([[q, r]])), [lay.to_pixel(Hex(q, r))])


def test_svg_points():
    """svg_points formats six x,y pairs."""
    assert len(PixelLayout(Orientation.FLAT, 10).svg_points(Hex(0, 0)).split()) == 6
