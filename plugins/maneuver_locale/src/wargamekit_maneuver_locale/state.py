"""Game state: where every piece is, and what this player turn has used up.

Positions follow the source: a piece is in a locale's *reserve* or on one of the locale's
*approaches* (the approach facing an adjacent locale). Pieces are face-down (hidden from the
opponent) until revealed (leading pieces in an assault, guns declaring or firing).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any

import networkx as nx
from attrs import define, field, frozen

from wargamekit import RulesContext
from wargamekit.geometry.locale import Approach, ApproachWidth, Locale, LocaleMap, RoadClass
from wargamekit.memo import remember
from wargamekit.ruleset import other_side
from wargamekit.view import CACHE

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
        remember(_SCENARIO_BOARDS, id(s), (s, board), 16)
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
        return _approach(self, locale, facing)  # hot (every assault offered asks its width)

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


@functools.lru_cache(maxsize=4096)
def _approach(board: Board, locale: str, facing: str) -> Approach:
    """:meth:`Board.approach`, found in the map's graph once per board, locale and facing (a
    board never changes; kept here, not on the board, which the snapshot cache pickles)."""
    return board.map.approach(attacker=facing, defender=locale)


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

    Where a piece stands (``locale``, ``approach``) and whether it ``moved`` change through
    :func:`~.changes.place`, which keeps the state's live index (:class:`Occupancy`) up to date;
    the few other changes keep it up to date through the index itself
    (:meth:`Occupancy.mark_moved`, :meth:`Occupancy.remove` by :func:`~.changes.eliminate`,
    :meth:`Occupancy.unmove_all` at a new player turn); any other change to them, or to which
    pieces the state holds, must drop that index (:meth:`Occupancy.drop`): the menus and the
    state's own queries (:meth:`GameState.at`, :meth:`~GameState.holder`,
    :meth:`~GameState.room`) read it.

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
        index: the live :class:`Occupancy` of the pieces (:meth:`Occupancy.of`), or ``None``
            (indexed when next asked); never copied: a snapshot, a copy or a view has none.
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
    #: the live index of the pieces (:class:`Occupancy`): derived, kept for speed
    index: Occupancy | None = field(default=None, eq=False, repr=False, metadata=CACHE)

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
        occ = Occupancy.live(self)  # the game's state has one most of the time: no scan
        if occ is not None:
            return occ.at(locale, approach)
        return [p for p in self.pieces.values() if p.locale == locale and (approach is None or p.approach == approach)]

    def of(self, side: str) -> Iterator[Piece]:
        """The pieces of ``side``, in set-up order."""
        return (p for p in self.pieces.values() if p.side == side)

    def holder(self, locale: str) -> str:
        """The side with pieces in ``locale``, or "" if it is empty."""
        occ = Occupancy.live(self)  # (as at)
        if occ is not None:
            return occ.holders.get(locale, "")
        for p in self.pieces.values():
            if p.locale == locale:
                return p.side
        return ""

    def room(self, locale: str) -> int:
        """How many more pieces ``locale`` can hold (provisional capacity, scenario data)."""
        occ = Occupancy.live(self)  # (as at)
        return self.board.capacity[locale] - (len(self.at(locale)) if occ is None else occ.count(locale))

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
    """Where the pieces of ``state`` stand, indexed: the same answers as the state's
    :meth:`~GameState.holder`, :meth:`~GameState.at`, :meth:`~GameState.room` and
    :meth:`~GameState.blocked`, without a scan of every piece per query.

    ``Occupancy(state)`` indexes the pieces as they stand now. :meth:`of` gives the state's
    *live* index (:attr:`GameState.index`), which :func:`~.changes.place` keeps up to date move
    by move, and :meth:`mark_moved`, :meth:`remove` and :meth:`unmove_all` for a piece marked
    as moved where it stands, an eliminated piece and a new player turn (a checkpoint sets it
    aside while its snapshot is taken); every other change to where the pieces are, or to
    whether they moved, drops it (:meth:`drop`), and the next :meth:`of` indexes the pieces
    again. The menus ask thousands of
    queries a game and the pieces move a few at a time: indexing them for every menu was the
    largest item of a random game's own code.
    """

    __slots__ = ("_state", "_pieces", "_count", "_order", "holders", "locales", "_places", "unmoved", "on_approaches",
                 "sides", "_approaches", "_held")

    # read-only tables (the hot menus read them inline):
    #: locale -> the side with pieces there (of its first piece in set-up order)
    holders: dict[str, str]
    #: locale -> its pieces, in set-up order
    locales: dict[str, list[Piece]]
    #: ``(side, locale, approach)`` of every place where a piece of ``side`` has not moved
    #: this turn -> how many such pieces stand there
    unmoved: dict[tuple[str, str, str], int]
    #: ``(side, locale, facing)`` of every approach where ``side`` has pieces -> how many
    on_approaches: dict[tuple[str, str, str], int]
    #: side -> how many pieces it has on the map (sides without pieces are absent)
    sides: dict[str, int]

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._pieces = state.pieces  # the dict indexed (a new dict of pieces needs a new index)
        self._count = len(state.pieces)  # a piece added to or taken from it, not dropped: rebuilt
        self._order = {pid: n for n, pid in enumerate(state.pieces)}  # set-up order
        holders: dict[str, str] = {}
        locales: dict[str, list[Piece]] = {}
        places: dict[tuple[str, str], list[Piece]] = {}
        unmoved: dict[tuple[str, str, str], int] = {}
        on_approaches: dict[tuple[str, str, str], int] = {}
        sides: dict[str, int] = {}
        # each piece's fields read once, the keys built once
        for p in state.pieces.values():  # set-up order, as the state's own queries keep it
            side, locale, approach = p.side, p.locale, p.approach
            sides[side] = sides.get(side, 0) + 1
            if not p.moved:
                key = (side, locale, approach)
                unmoved[key] = unmoved.get(key, 0) + 1
            if approach != RESERVE:
                key = (side, locale, approach)
                on_approaches[key] = on_approaches.get(key, 0) + 1
            here = locales.get(locale)
            if here is None:  # the locale's first piece: its holder
                locales[locale] = [p]
                holders[locale] = side
            else:
                here.append(p)
            place = places.get((locale, approach))
            if place is None:
                places[locale, approach] = [p]
            else:
                place.append(p)
        self.holders, self.locales, self._places = holders, locales, places
        self.unmoved, self.on_approaches, self.sides = unmoved, on_approaches, sides
        self._approaches: dict[str, list[tuple[str, str]]] = {}  # side -> approaches(side), until a move
        self._held: dict[str, list[str]] = {}  # side -> held_by(side), until a move

    @classmethod
    def of(cls, state: GameState) -> Occupancy:
        """The live index of ``state``'s pieces (:attr:`GameState.index`), indexed now if the
        state has none (or its dict of pieces was replaced, or holds another number of pieces,
        since: a guard against a change that forgot to drop it)."""
        occ = state.index
        if occ is None or occ._pieces is not state.pieces or occ._count != len(state.pieces):
            occ = state.index = cls(state)
        return occ

    @staticmethod
    def drop(state: GameState) -> None:
        """Forget ``state``'s live index: for any change to where pieces stand, to which pieces
        there are, or to whether they moved, that :func:`~.changes.place` does not make."""
        state.index = None

    @staticmethod
    def live(state: GameState) -> Occupancy | None:
        """``state``'s live index if it has one that is still its pieces' (see :meth:`of`), else
        ``None``: for a change that keeps the index up to date instead of dropping it."""
        occ = state.index
        if occ is None or occ._pieces is not state.pieces or occ._count != len(state.pieces):
            return None
        return occ

    def unmove_all(self) -> None:
        """Every piece has just been marked as not moved (a new player turn): the pieces stand
        where they stood, so only the table of unmoved pieces changes (hot: a player turn
        rebuilt the whole index, most of a random game's builds)."""
        unmoved: dict[tuple[str, str, str], int] = {}
        for p in self._pieces.values():  # set-up order, as a new index counts them
            key = (p.side, p.locale, p.approach)
            unmoved[key] = unmoved.get(key, 0) + 1
        self.unmoved = unmoved

    def mark_moved(self, p: Piece) -> None:
        """Mark ``p`` (a piece in the index) as moved this turn, where it stands."""
        if not p.moved:
            p.moved = True
            _count_down(self.unmoved, (p.side, p.locale, p.approach))

    def remove(self, p: Piece) -> None:
        """Take ``p`` out of the index: it has just left the state's pieces (eliminated)."""
        self._leave(p)
        _count_down(self.sides, p.side)
        self._count = len(self._pieces)

    def __reduce__(self) -> tuple[Any, ...]:
        # a copy or a snapshot of the state has no index: it is made again when asked
        return (_no_index, ())

    def _leave(self, p: Piece) -> None:
        """Take ``p`` out of the tables (before it moves)."""
        side, locale, approach = p.side, p.locale, p.approach
        self._approaches.clear()
        self._held.clear()
        here = self.locales[locale]
        if len(here) == 1:  # the locale empties
            del self.locales[locale], self.holders[locale]
        else:
            _remove(here, p)
            self.holders[locale] = here[0].side
        place = self._places[locale, approach]
        if len(place) == 1:
            del self._places[locale, approach]
        else:
            _remove(place, p)
        if not p.moved:
            _count_down(self.unmoved, (side, locale, approach))
        if approach != RESERVE:
            _count_down(self.on_approaches, (side, locale, approach))

    def _enter(self, p: Piece) -> None:
        """Put ``p`` into the tables (after it moved), in set-up order."""
        side, locale, approach = p.side, p.locale, p.approach
        self._approaches.clear()
        self._held.clear()
        here = self.locales.get(locale)
        if here is None:
            self.locales[locale] = [p]
            self.holders[locale] = side
        else:
            self._insert(here, p)
            self.holders[locale] = here[0].side
        place = self._places.get((locale, approach))
        if place is None:
            self._places[locale, approach] = [p]
        else:
            self._insert(place, p)
        key = (side, locale, approach)
        if not p.moved:
            self.unmoved[key] = self.unmoved.get(key, 0) + 1
        if approach != RESERVE:
            self.on_approaches[key] = self.on_approaches.get(key, 0) + 1

    def _insert(self, pieces: list[Piece], p: Piece) -> None:
        """Insert ``p`` into ``pieces`` (in set-up order) at its place in that order."""
        order = self._order
        rank = order[p.id]
        for i, q in enumerate(pieces):
            if order[q.id] > rank:
                pieces.insert(i, p)
                return
        pieces.append(p)

    def holder(self, locale: str) -> str:
        """The side with pieces in ``locale``, or "" if it is empty."""
        return self.holders.get(locale, "")

    def at(self, locale: str, approach: str | None = None) -> list[Piece]:
        """Pieces in ``locale`` (only those at ``approach`` if given), a fresh list."""
        found = self.locales.get(locale) if approach is None else self._places.get((locale, approach))
        return list(found) if found else []

    def held_by(self, side: str) -> list[str]:
        """The locales where ``side`` has pieces, sorted (the board's order of locales)."""
        # asked by every action menu (group_moves): sorted once until a move
        found = self._held.get(side)
        if found is None:
            found = self._held[side] = sorted(loc for loc, holder in self.holders.items() if holder == side)
        return list(found)

    def pieces_at(self, locale: str, approach: str) -> Sequence[Piece]:
        """The pieces at ``approach`` of ``locale``: the index's own list (read it, never change it)."""
        return self._places.get((locale, approach), ())

    def has_unmoved(self, side: str, locale: str, approach: str) -> bool:
        """Whether a piece of ``side`` that has not moved this turn stands at ``approach`` of ``locale``."""
        return (side, locale, approach) in self.unmoved

    def approaches(self, side: str) -> list[tuple[str, str]]:
        """``(locale, facing)`` of every approach where ``side`` has pieces, sorted: the order of
        the board's locales and of each locale's neighbours."""
        # asked twice an action (the compulsory moves, the assaults): sorted once until a move
        found = self._approaches.get(side)
        if found is None:
            found = self._approaches[side] = sorted(
                (locale, facing) for who, locale, facing in self.on_approaches if who == side
            )
        return list(found)

    def count(self, locale: str) -> int:
        """How many pieces are in ``locale``."""
        return len(self.locales.get(locale, ()))

    def room(self, locale: str) -> int:
        """How many more pieces ``locale`` can hold."""
        return self._state.board.capacity[locale] - len(self.locales.get(locale, ()))

    def blocked(self, attacker: str, defender: str, side: str) -> bool:
        """Whether the enemy of ``side`` blocks the approach of ``defender`` facing ``attacker``."""
        enemy = self._state.enemy(side)
        return any(p.side == enemy for p in self._places.get((defender, attacker), ()))

    def tables(self) -> tuple[Any, ...]:
        """Everything the index holds, by piece id (for comparing two indexes: the live one
        must equal a new one)."""
        return (
            self.holders,
            {k: [p.id for p in v] for k, v in self.locales.items()},
            {k: [p.id for p in v] for k, v in self._places.items()},
            self.unmoved,
            self.on_approaches,
            self.sides,
        )


def _remove(pieces: list[Piece], p: Piece) -> None:
    """Remove ``p`` itself from ``pieces`` (``list.remove`` would compare pieces field by field)."""
    for i, q in enumerate(pieces):
        if q is p:
            del pieces[i]
            return
    raise ValueError(f"{p.id} is not in the index where it stands")


def _count_down(counts: dict[Any, int], key: Any) -> None:
    left = counts[key] - 1
    if left:
        counts[key] = left
    else:
        del counts[key]


def _no_index() -> None:
    """What a pickled or copied :class:`Occupancy` becomes: no index (see :meth:`Occupancy.of`)."""
    return None


#: What the rule procedures of this ruleset receive (the core's declared rules API).
Context = RulesContext[GameState, ManeuverScenario]
