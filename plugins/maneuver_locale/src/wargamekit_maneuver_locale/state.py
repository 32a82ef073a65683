"""Game state: where every piece is, and what this player turn has used up.

Positions follow the source: a piece is in a locale's *reserve* or on one of the locale's
*approaches* (the approach facing an adjacent locale). Pieces are face-down (hidden from the
opponent) until revealed (leading pieces in an assault, guns declaring or firing).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

import networkx as nx
from attrs import define, field, frozen

from wargamekit import RulesContext
from wargamekit.geometry.locale import Approach, ApproachWidth, Locale, LocaleMap, RoadClass
from wargamekit.ruleset import other_side

from .arms import ArmType
from .scenario import ApproachSpec, LocaleSpec, ManeuverScenario

__all__ = ["Board", "Context", "GameState", "Occupancy", "Piece", "RESERVE", "other_side"]

#: The ``approach`` value of a piece in its locale's reserve.
RESERVE = ""


@frozen(eq=False)
class Board:
    """The static map of a game: the locale map, drawing positions, objectives and capacities.

    Shared (never changed) by the state and every view of it.
    """

    map: LocaleMap
    names: dict[str, str]
    positions: dict[str, tuple[float, float]]
    capacity: dict[str, int]
    objectives: dict[str, int]
    distances: dict[str, dict[str, int]]
    # Derived from ``map`` once (it never changes): the menus ask these thousands of times a game.
    _neighbours: dict[str, tuple[str, ...]] = field(init=False, repr=False)
    _road_neighbours: dict[str, tuple[str, ...]] = field(init=False, repr=False)
    _road_classes: dict[tuple[str, str], tuple[RoadClass, ...]] = field(init=False, repr=False)
    _primary_neighbours: dict[str, tuple[str, ...]] = field(init=False, repr=False)
    _locale_ids: tuple[str, ...] = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        m = self.map
        ids = tuple(sorted(self.positions))
        object.__setattr__(self, "_locale_ids", ids)
        object.__setattr__(self, "_neighbours", {k: tuple(m.neighbours(k)) for k in ids})
        object.__setattr__(self, "_road_neighbours", {k: tuple(m.road_neighbours(k)) for k in ids})
        object.__setattr__(
            self,
            "_road_classes",
            {
                (a, b): tuple(sorted(m.graph.edges[a, b]["roads"], key=lambda r: r.value))
                for a in ids
                for b in self._neighbours[a]
            },
        )

        object.__setattr__(
            self,
            "_primary_neighbours",
            {k: tuple(n for n in self._road_neighbours[k] if RoadClass.PRIMARY in self._road_classes[k, n]) for k in ids},
        )

    @classmethod
    def from_scenario(cls, s: ManeuverScenario) -> Board:
        """The board of a (validated) scenario: built once per map and shared by the games on
        it (a board never changes; building it, with its distance table, was a tenth of a new
        game)."""
        held = _SCENARIO_BOARDS.get(id(s))
        if held is not None and held[0] is s:  # the same scenario object (games share it): no hashing
            return held[1]
        roads = tuple((road.road_class, tuple(road.locales)) for road in s.roads)
        board = _board(tuple(s.locales), tuple(s.approaches), roads, s.default_capacity)
        if len(_SCENARIO_BOARDS) >= 16:
            _SCENARIO_BOARDS.clear()
        _SCENARIO_BOARDS[id(s)] = (s, board)
        return board

    @classmethod
    def _build(
        cls,
        locales: tuple[LocaleSpec, ...],
        approaches: tuple[ApproachSpec, ...],
        roads: tuple[tuple[RoadClass, tuple[str, ...]], ...],
        default_capacity: int,
    ) -> Board:
        m = LocaleMap()
        for loc in locales:
            m.add_locale(Locale(loc.id, loc.name, loc.capacity or default_capacity))
        for ap in approaches:
            m.add_approach(Approach(ap.facing, ap.locale, ap.width, ap.terrain))
        for road_class, road_locales in roads:
            m.add_road(road_class, list(road_locales))
        distances = {k: dict(sorted(v.items())) for k, v in sorted(nx.all_pairs_shortest_path_length(m.graph))}
        return cls(
            map=m,
            names={loc.id: loc.name for loc in locales},
            positions={loc.id: (loc.x, loc.y) for loc in locales},
            capacity={loc.id: loc.capacity or default_capacity for loc in locales},
            objectives={loc.id: loc.objective for loc in locales if loc.objective},
            distances=distances,
        )

    def approach(self, locale: str, facing: str) -> Approach:
        """The approach of ``locale`` facing ``facing``."""
        return self.map.approach(attacker=facing, defender=locale)

    def width(self, locale: str, facing: str) -> ApproachWidth:
        """Width of ``locale``'s approach facing ``facing``."""
        return self.approach(locale, facing).width

    def terrain(self, locale: str, facing: str) -> int:
        """Terrain effect of ``locale``'s approach facing ``facing``."""
        return self.approach(locale, facing).terrain_effect

    def neighbours(self, locale: str) -> list[str]:
        """Adjacent locales, sorted."""
        try:
            return list(self._neighbours[locale])
        except KeyError:
            return self.map.neighbours(locale)  # raises UnknownLocaleError

    def road_neighbours(self, locale: str) -> tuple[str, ...]:
        """Adjacent locales joined by a road of any class, sorted."""
        try:
            return self._road_neighbours[locale]
        except KeyError:
            return tuple(self.map.road_neighbours(locale))  # raises UnknownLocaleError

    def primary_neighbours(self, locale: str) -> tuple[str, ...]:
        """Adjacent locales joined by a primary road, sorted."""
        try:
            return self._primary_neighbours[locale]
        except KeyError:
            self.map.neighbours(locale)  # raises UnknownLocaleError
            raise

    def road_classes(self, a: str, b: str) -> list[RoadClass]:
        """Road classes along the edge a-b (sorted by value; empty if none)."""
        try:
            return list(self._road_classes[a, b])
        except KeyError:
            return sorted(self.map.graph.edges[a, b]["roads"], key=lambda r: r.value)

    def is_primary(self, a: str, b: str) -> bool:
        """Whether a primary road joins the adjacent locales a and b."""
        classes = self._road_classes.get((a, b))  # hot (every road step priced): no list copy
        return RoadClass.PRIMARY in (classes if classes is not None else self.road_classes(a, b))

    def locale_ids(self) -> list[str]:
        """Every locale id, sorted."""
        return list(self._locale_ids)


#: id of a scenario -> (the scenario, its board) (see :meth:`Board.from_scenario`)
_SCENARIO_BOARDS: dict[int, tuple[ManeuverScenario, Board]] = {}


@functools.lru_cache(maxsize=16)
def _board(
    locales: tuple[LocaleSpec, ...],
    approaches: tuple[ApproachSpec, ...],
    roads: tuple[tuple[RoadClass, tuple[str, ...]], ...],
    default_capacity: int,
) -> Board:
    """The board of a map (see :meth:`Board.from_scenario`), kept for the next game on it."""
    return Board._build(locales, approaches, roads, default_capacity)


@define
class Piece:
    """A piece (駒).

    Attributes:
        id: the piece's handle in this game, visible to both sides (``"F-3"``: assigned at
            set-up by a secret shuffle, :mod:`.handles`; it says nothing about the piece's
            place in the scenario's order of battle).
        side: owner.
        arm: its arm (:class:`~.arms.ArmType`: infantry, cavalry, artillery or an add-on's);
            ``None`` in a view where the piece is hidden.
        steps: strength; ``None`` in a view where the piece is hidden.
        locale: the locale it is in.
        approach: the adjacent locale whose approach it is on, or ``RESERVE``.
        face_up: revealed to the opponent.
        moved: has moved (or fought) this player turn.
        declared: a gun that declared bombardment and may fire at the start of its next turn.
        last_fired: player-turn number of its last fire (bombardment or defensive fire).
        last_declared: player-turn number of its last bombardment declaration.
        origin: its id in the scenario's order of battle (its identity): known to its owner,
            and to the opponent once the piece is face-up; ``""`` in a view where it is hidden.
    """

    id: str
    side: str
    arm: ArmType | None
    steps: int | None
    locale: str
    approach: str = RESERVE
    face_up: bool = False
    moved: bool = False
    declared: bool = False
    last_fired: int = -10
    last_declared: int = -10
    origin: str = ""

    @property
    def in_reserve(self) -> bool:
        """Whether the piece is in its locale's reserve."""
        return self.approach == RESERVE

    def where(self, names: dict[str, str] | None = None) -> str:
        """Readable position: ``"Marengo reserve"`` or ``"Marengo approach facing Spinetta"``."""
        n = names or {}
        here = n.get(self.locale, self.locale)
        if self.in_reserve:
            return f"{here} reserve"
        return f"{here} approach facing {n.get(self.approach, self.approach)}"

    def describe(self) -> str:
        """``"A03 infantry 3"``, or ``"A03 (face-down)"`` when hidden in a view."""
        if self.arm is None:
            return f"{self.id} (face-down)"
        return f"{self.id} {self.arm.value} {self.steps}"


@define
class GameState:
    """The whole mutable state of a game.

    Attributes:
        board: the static map (shared).
        sides: the two sides, in turn order.
        pieces: every piece on the map, by id, in set-up order.
        eliminated: ids of removed pieces with their side, in order of removal.
        control: the side controlling each locale (the last to hold it alone), or "".
        turn: the game turn (1-based).
        turn_limit: the last game turn.
        player_turn: running count of player turns (1-based).
        active: the side whose player turn it is.
        phase: the phase of the player turn now (``"bombardment"``, ``"commands"``,
            ``"declarations"``): a record for views, set from the sequencer's turn.
        windows: response windows opened this player turn (the key of each window's
            response, so a response is offered once per window).
        commands: commands left this player turn.
        commands_per_turn: commands each side gets.
        road_pieces: pieces moved by road this player turn.
        road_entries: ``[step, locale]`` pairs entered by road this player turn.
        won_by_assault: locales won by assault this player turn, with the pieces that took part.
        viewer: the side this state is a view for ("" : the full state).
    """

    board: Board
    sides: tuple[str, ...]
    pieces: dict[str, Piece]
    turn_limit: int
    commands_per_turn: dict[str, int]
    control: dict[str, str] = field(factory=dict)
    eliminated: list[tuple[str, str]] = field(factory=list)
    turn: int = 0
    player_turn: int = 0
    active: str = ""
    phase: str = ""
    windows: int = 0
    commands: int = 0
    road_pieces: list[str] = field(factory=list)
    road_entries: list[tuple[int, str]] = field(factory=list)
    won_by_assault: dict[str, list[str]] = field(factory=dict)
    viewer: str = ""

    # -- queries ------------------------------------------------------------------------------
    def enemy(self, side: str) -> str:
        """The opponent of ``side``."""
        sides = self.sides  # hot (every menu asks it dozens of times): two sides, no scan
        if len(sides) == 2:
            if side == sides[0]:
                return sides[1]
            if side == sides[1]:
                return sides[0]
        return other_side(sides, side)  # raises: not a side, or not two sides

    def at(self, locale: str, approach: str | None = None) -> list[Piece]:
        """Pieces in ``locale`` (only those at ``approach`` if given; ``RESERVE`` for the reserve)."""
        return [p for p in self.pieces.values() if p.locale == locale and (approach is None or p.approach == approach)]

    def of(self, side: str) -> Iterator[Piece]:
        """The pieces of ``side``, in set-up order."""
        return (p for p in self.pieces.values() if p.side == side)

    def holder(self, locale: str) -> str:
        """The side with pieces in ``locale``, or "" if it is empty."""
        for p in self.pieces.values():
            if p.locale == locale:
                return p.side
        return ""

    def room(self, locale: str) -> int:
        """How many more pieces ``locale`` can hold (provisional capacity, scenario data)."""
        return self.board.capacity[locale] - len(self.at(locale))

    def blocked(self, attacker: str, defender: str, side: str) -> bool:
        """Whether the enemy of ``side`` blocks the approach of ``defender`` facing ``attacker``."""
        enemy = self.enemy(side)
        return any(p.side == enemy for p in self.at(defender, attacker))

    def groups(self, locale: str) -> list[tuple[str, list[Piece]]]:
        """The pieces of ``locale`` by position: reserve first, then approaches by facing id."""
        out = []
        pieces = self.at(locale)
        for where in [RESERVE, *self.board.neighbours(locale)]:
            here = [p for p in pieces if p.approach == where]
            if here:
                out.append((where, here))
        return out

    def points(self, side: str) -> int:
        """Victory points of the objectives ``side`` controls (provisional victory)."""
        return sum(v for k, v in self.board.objectives.items() if self.control.get(k) == side)


class Occupancy:
    """Where the pieces of ``state`` stand, indexed once: the same answers as the state's
    :meth:`~GameState.holder`, :meth:`~GameState.at`, :meth:`~GameState.room` and
    :meth:`~GameState.blocked`, without a scan of every piece per query.

    For a burst of queries on an unchanging state (one action menu asks thousands); build a new
    one after anything moves.
    """

    __slots__ = ("_state", "holders", "_locales", "_places", "unmoved", "_on_approaches")

    #: locale -> the side with pieces there (read-only: the hot menus read it inline)
    holders: dict[str, str]
    #: ``(side, locale, approach)`` of every place where a piece of ``side`` has not moved
    #: this turn (read-only)
    unmoved: set[tuple[str, str, str]]

    def __init__(self, state: GameState) -> None:
        self._state = state
        holders: dict[str, str] = {}
        locales: dict[str, list[Piece]] = {}
        places: dict[tuple[str, str], list[Piece]] = {}
        unmoved: set[tuple[str, str, str]] = set()
        on_approaches: set[tuple[str, str, str]] = set()
        # hot (every action menu builds one): each piece's fields read once, the keys built once
        for p in state.pieces.values():  # set-up order, as the state's own queries keep it
            side, locale, approach = p.side, p.locale, p.approach
            if not p.moved:
                unmoved.add((side, locale, approach))
            if approach != RESERVE:
                on_approaches.add((side, locale, approach))
            here = locales.get(locale)
            if here is None:  # the locale's first piece: its holder
                locales[locale] = [p]
                holders[locale] = side
            else:
                here.append(p)
            key = (locale, approach)
            place = places.get(key)
            if place is None:
                places[key] = [p]
            else:
                place.append(p)
        self.holders, self._locales, self._places = holders, locales, places
        self.unmoved, self._on_approaches = unmoved, on_approaches

    def holder(self, locale: str) -> str:
        """The side with pieces in ``locale``, or "" if it is empty."""
        return self.holders.get(locale, "")

    def at(self, locale: str, approach: str | None = None) -> list[Piece]:
        """Pieces in ``locale`` (only those at ``approach`` if given), a fresh list."""
        found = self._locales.get(locale) if approach is None else self._places.get((locale, approach))
        return list(found) if found else []

    def held_by(self, side: str) -> list[str]:
        """The locales where ``side`` has pieces, sorted (the board's order of locales)."""
        return sorted(loc for loc, holder in self.holders.items() if holder == side)

    def pieces_at(self, locale: str, approach: str) -> Sequence[Piece]:
        """The pieces at ``approach`` of ``locale``: the index's own list (read it, never change it)."""
        return self._places.get((locale, approach), ())

    def has_unmoved(self, side: str, locale: str, approach: str) -> bool:
        """Whether a piece of ``side`` that has not moved this turn stands at ``approach`` of ``locale``."""
        return (side, locale, approach) in self.unmoved

    def approaches(self, side: str) -> list[tuple[str, str]]:
        """``(locale, facing)`` of every approach where ``side`` has pieces, sorted: the order of
        the board's locales and of each locale's neighbours."""
        return sorted((locale, facing) for who, locale, facing in self._on_approaches if who == side)

    def count(self, locale: str) -> int:
        """How many pieces are in ``locale``."""
        return len(self._locales.get(locale, ()))

    def room(self, locale: str) -> int:
        """How many more pieces ``locale`` can hold."""
        return self._state.board.capacity[locale] - len(self._locales.get(locale, ()))

    def blocked(self, attacker: str, defender: str, side: str) -> bool:
        """Whether the enemy of ``side`` blocks the approach of ``defender`` facing ``attacker``."""
        enemy = self._state.enemy(side)
        return any(p.side == enemy for p in self._places.get((defender, attacker), ()))


#: What the rule procedures of this ruleset receive (the core's declared rules API).
Context = RulesContext[GameState, ManeuverScenario]
