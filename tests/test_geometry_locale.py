"""Tests for locale maps."""

import pytest

from wargamekit.geometry import (
    Approach,
    ApproachWidth,
    Locale,
    LocaleMap,
    NoApproachError,
    NotAdjacentError,
    RoadClass,
    UnknownLocaleError,
)


@pytest.fixture
def lmap():
    m = LocaleMap()
    for i, cap in zip("ABCDE", (2, 3, 1, 2, 4), strict=True):
        m.add_locale(Locale(i, f"Locale {i}", cap, 0))
    m.add_approach(Approach("A", "B", ApproachWidth.NARROW, 1))
    m.add_approach(Approach("B", "A", ApproachWidth.WIDE, 0))
    m.add_approach(Approach("B", "C"))
    m.connect("C", "D")
    m.connect("A", "E")
    m.add_road(RoadClass.PRIMARY, ["A", "B", "C"])
    m.add_road(RoadClass.SECONDARY, ["C", "D"])
    return m


def test_two_approaches_per_edge(lmap):
    """An edge carries each side's own approach."""
    assert lmap.approach("A", "B") == Approach("A", "B", ApproachWidth.NARROW, 1)
    assert lmap.approach("B", "A").width is ApproachWidth.WIDE
    assert [a.attacker for a in lmap.approaches_into("B")] == ["A"]


def test_errors(lmap):
    """Unknown locales, non-adjacent pairs and missing approaches raise ValueErrors."""
    with pytest.raises(UnknownLocaleError):
        lmap.approach("A", "Z")
    with pytest.raises(NotAdjacentError):
        lmap.approach("A", "D")
    with pytest.raises(NoApproachError):
        lmap.approach("C", "B")
    with pytest.raises(ValueError):
        lmap.add_locale(Locale("A"))
    with pytest.raises(NotAdjacentError):
        lmap.add_road(RoadClass.PRIMARY, ["A", "D"])


def test_neighbours_and_roads(lmap):
    """Neighbours are all edges; road neighbours filter by class."""
    assert lmap.neighbours("A") == ["B", "E"]
    assert lmap.road_neighbours("C") == ["B", "D"]
    assert lmap.road_neighbours("C", RoadClass.PRIMARY) == ["B"]
    assert lmap.locale("B").capacity == 3


def test_road_steps_within(lmap):
    """Road steps follow roads only, with counts and paths."""
    got = {s.locale: (s.steps, s.path) for s in lmap.road_steps_within("A", 3)}
    assert got == {"A": (0, ("A",)), "B": (1, ("A", "B")), "C": (2, ("A", "B", "C")), "D": (3, ("A", "B", "C", "D"))}
    assert [s.locale for s in lmap.road_steps_within("A", 3, RoadClass.PRIMARY)] == ["A", "B", "C"]
    assert [s.locale for s in lmap.road_steps_within("A", 1)] == ["A", "B"]


def test_road_path(lmap):
    """Shortest road path, or None without a road."""
    assert lmap.road_path("A", "D") == ("A", "B", "C", "D")
    assert lmap.road_path("A", "D", RoadClass.PRIMARY) is None
    assert lmap.road_path("A", "E") is None
