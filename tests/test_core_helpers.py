"""Core helpers every ruleset used to rewrite: the other side, printed hex labels in a map's own
numbering, and "can this unit type stand here"."""

from __future__ import annotations

import math

import numpy as np
import pytest

from wargamekit.errors import HexLabelError, OffMapError
from wargamekit.geometry import Hex, HexLabels, HexMap, OffsetLayout, TerrainTable, TerrainType
from wargamekit.ruleset import Ruleset, other_side, other_sides


class ThreeWay(Ruleset):
    name = "three_way"
    sides = ("red", "blue", "green")


def test_other_side_of_two_and_the_ambiguity_of_three():
    """other_side names the opponent of a two-sided game; with three sides it refuses to guess."""
    assert other_side(("a", "b"), "a") == "b" and other_side(["a", "b"], "b") == "a"
    assert ThreeWay().other_sides("blue") == ("red", "green")
    with pytest.raises(ValueError, match="ambiguous"):
        ThreeWay().other_side("blue")
    with pytest.raises(ValueError, match="'purple' is not one of the sides"):
        other_sides(("a", "b"), "purple")
    with pytest.raises(ValueError, match="has no side 'purple'"):
        ThreeWay().other_side("purple")


def test_map_labels_use_the_maps_own_numbering_and_refuse_off_map_hexes():
    """A map printed from 0101 labels and parses in that numbering; off-map hexes are refused."""
    table = TerrainTable([TerrainType(0, "clear")])
    printed = HexMap(10, 8, table, OffsetLayout.EVEN_Q, label_base=1)
    assert printed.labels == HexLabels(OffsetLayout.EVEN_Q, base=1)
    for col, row in [(0, 0), (3, 4), (9, 7)]:
        h = printed.hex_at(col, row)
        assert printed.label(h) == f"{col + 1:02d}{row + 1:02d}"
        assert printed.parse(printed.label(h)) == h
    assert HexMap(10, 8, table).label(Hex(0, 0)) == "0000"
    with pytest.raises(OffMapError, match="1109 is outside the 10 x 8 map"):
        printed.parse("1109")
    with pytest.raises(OffMapError):
        printed.label(printed.hex_at(9, 7) + Hex(5, 0))
    with pytest.raises(HexLabelError):
        printed.parse("12a4")


def test_enterable_follows_the_terrain_chart_per_unit_type():
    """A hex is enterable by a unit type when its terrain's entry cost for that type is finite."""
    table = TerrainTable([TerrainType(0, "clear"), TerrainType(1, "marsh", math.inf, {"infantry": 3}),
                          TerrainType(2, "road", 1)])
    m = HexMap(3, 2, table)
    m.set_terrain(m.hex_at(1, 0), 1)
    np.testing.assert_array_equal(m.enterable("vehicle"), [[True, True], [False, True], [True, True]])
    assert m.enterable("infantry").all()
    assert not m.can_enter(m.hex_at(1, 0), "vehicle") and m.can_enter(m.hex_at(1, 0), "infantry")
    with pytest.raises(OffMapError):
        m.can_enter(Hex(10, 10), "vehicle")
