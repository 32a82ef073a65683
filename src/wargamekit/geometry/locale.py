"""Locale maps (the Bonaparte-at-Marengo family): locales joined by approaches and roads.

A locale is an area that holds pieces; two adjacent locales share an edge. Each side of an edge
may have an :class:`Approach`: the approach *belongs to the defending locale* and faces the
attacking one, so the edge between A and B carries up to two approaches, A's approach facing B
(used when B attacks A) and B's approach facing A. Roads are paths of locales with a class.

The map is a networkx graph: nodes are locale ids, an edge means adjacency and holds the
approaches of both sides and the road classes running along it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from itertools import pairwise

import networkx as nx
from attrs import define, field, frozen

from .._convert import as_tuple
from ..errors import NoApproachError, NotAdjacentError, UnknownLocaleError

__all__ = [
    "ApproachWidth",
    "RoadClass",
    "Locale",
    "Approach",
    "Road",
    "RoadSteps",
    "LocaleMap",
]





class ApproachWidth(enum.Enum):
    """How wide an approach is."""

    NARROW = "narrow"
    WIDE = "wide"

    def __repr__(self) -> str:
        return f"ApproachWidth.{self.name}"


class RoadClass(enum.Enum):
    """Road classes."""

    PRIMARY = "primary"
    SECONDARY = "secondary"

    def __repr__(self) -> str:
        return f"RoadClass.{self.name}"


@frozen
class Locale:
    """One locale.

    Args:
        id: Its unique id (the printed number or a short name).
        name: A readable name.
        capacity: How many pieces (or strength points) it holds; the ruleset decides the unit.
        terrain: A ruleset terrain code.
    """

    id: str
    name: str = ""
    capacity: int = 0
    terrain: int = 0


@frozen
class Approach:
    """The defending locale's approach facing the attacking locale.

    Args:
        attacker: Id of the locale attacks come from.
        defender: Id of the locale the approach belongs to.
        width: NARROW or WIDE.
        terrain_effect: The defensive terrain effect (a ruleset int: e.g. a bridge, a slope).
    """

    attacker: str
    defender: str
    width: ApproachWidth = ApproachWidth.WIDE
    terrain_effect: int = 0


@frozen
class Road:
    """A road: a path of locale ids with a class."""

    road_class: RoadClass
    locales: tuple[str, ...] = field(converter=as_tuple)


@frozen
class RoadSteps:
    """A locale reached along roads: how many road steps it takes and the path (start first)."""

    locale: str
    steps: int
    path: tuple[str, ...]


@define
class LocaleMap:
    """A locale map.

    >>> m = LocaleMap()
    >>> for i in "ABC": m.add_locale(Locale(i))
    >>> m.connect("A", "B")
    >>> m.connect("B", "C")
    >>> m.add_approach(Approach("A", "B", ApproachWidth.NARROW, terrain_effect=1))
    >>> road = m.add_road(RoadClass.PRIMARY, ["A", "B", "C"])
    >>> m.approach("A", "B").width
    ApproachWidth.NARROW
    >>> [(s.locale, s.steps) for s in m.road_steps_within("A", 2)]
    [('A', 0), ('B', 1), ('C', 2)]
    """

    graph: nx.Graph = field(factory=nx.Graph)

    # -- building -------------------------------------------------------------------------------

    def add_locale(self, locale: Locale) -> None:
        """Add a locale.

        Raises:
            ValueError: If its id is already used.
        """
        if locale.id in self.graph:
            raise ValueError(f"locale {locale.id!r} is already on the map")
        self.graph.add_node(locale.id, locale=locale)

    def connect(self, a: str, b: str) -> None:
        """Make two locales adjacent (no approach yet on either side)."""
        self._require(a)
        self._require(b)
        if a == b:
            raise ValueError(f"a locale cannot border itself ({a!r})")
        if not self.graph.has_edge(a, b):
            self.graph.add_edge(a, b, approaches={}, roads=set())

    def add_approach(self, approach: Approach) -> None:
        """Add (or replace) the defender's approach facing the attacker; connects them if needed."""
        self.connect(approach.attacker, approach.defender)
        self.graph.edges[approach.attacker, approach.defender]["approaches"][approach.defender] = approach

    def add_road(self, road_class: RoadClass, locales: Iterable[str]) -> Road:
        """Add a road through consecutive locales (they must be adjacent).

        Raises:
            NotAdjacentError: If two consecutive locales are not adjacent.
        """
        road = Road(road_class, tuple(locales))
        for a, b in pairwise(road.locales):
            self._edge(a, b)["roads"].add(road_class)
        return road

    # -- queries --------------------------------------------------------------------------------

    def _require(self, locale_id: str) -> None:
        if locale_id not in self.graph:
            raise UnknownLocaleError(f"no locale {locale_id!r} on this map")

    def _edge(self, a: str, b: str) -> dict:
        self._require(a)
        self._require(b)
        if not self.graph.has_edge(a, b):
            raise NotAdjacentError(f"locales {a!r} and {b!r} are not adjacent")
        return self.graph.edges[a, b]

    def locale(self, locale_id: str) -> Locale:
        """The :class:`Locale` with this id."""
        self._require(locale_id)
        return self.graph.nodes[locale_id]["locale"]

    def locales(self) -> list[Locale]:
        """All locales, sorted by id."""
        return [self.graph.nodes[n]["locale"] for n in sorted(self.graph.nodes)]

    def neighbours(self, locale_id: str) -> list[str]:
        """Ids of the adjacent locales, sorted."""
        self._require(locale_id)
        return sorted(self.graph.neighbors(locale_id))

    def approach(self, attacker: str, defender: str) -> Approach:
        """The defender's approach facing the attacker.

        Raises:
            UnknownLocaleError: If either id is unknown.
            NotAdjacentError: If they are not adjacent.
            NoApproachError: If the defender has no approach facing the attacker.
        """
        approaches = self._edge(attacker, defender)["approaches"]
        try:
            return approaches[defender]
        except KeyError:
            raise NoApproachError(f"locale {defender!r} has no approach facing {attacker!r}") from None

    def approaches_into(self, defender: str) -> list[Approach]:
        """All approaches belonging to ``defender``, sorted by attacker id."""
        out = []
        for other in self.neighbours(defender):
            a = self.graph.edges[other, defender]["approaches"].get(defender)
            if a is not None:
                out.append(a)
        return out

    def road_neighbours(self, locale_id: str, road_class: RoadClass | None = None) -> list[str]:
        """Adjacent locales joined by a road (of ``road_class``, or of any class), sorted."""
        self._require(locale_id)
        return sorted(
            n for n in self.graph.neighbors(locale_id)
            if self._road_ok(self.graph.edges[locale_id, n], road_class)
        )

    @staticmethod
    def _road_ok(data: dict, road_class: RoadClass | None) -> bool:
        return bool(data["roads"]) if road_class is None else road_class in data["roads"]

    def _road_view(self, road_class: RoadClass | None) -> nx.Graph:
        return nx.subgraph_view(self.graph, filter_edge=lambda a, b: self._road_ok(self.graph.edges[a, b], road_class))

    def road_steps_within(self, locale_id: str, n: int, road_class: RoadClass | None = None) -> list[RoadSteps]:
        """Locales reachable from ``locale_id`` along roads in at most ``n`` steps.

        Returns:
            One :class:`RoadSteps` per locale (the start included, 0 steps), with a fewest-steps
            path, sorted by steps then id.
        """
        self._require(locale_id)
        paths = nx.single_source_shortest_path(self._road_view(road_class), locale_id, cutoff=n)
        found = [RoadSteps(k, len(p) - 1, tuple(p)) for k, p in paths.items()]
        return sorted(found, key=lambda s: (s.steps, s.locale))

    def road_path(self, a: str, b: str, road_class: RoadClass | None = None) -> tuple[str, ...] | None:
        """A fewest-steps road path from ``a`` to ``b`` (both included), or ``None``."""
        self._require(a)
        self._require(b)
        try:
            return tuple(nx.shortest_path(self._road_view(road_class), a, b))
        except nx.NetworkXNoPath:
            return None
