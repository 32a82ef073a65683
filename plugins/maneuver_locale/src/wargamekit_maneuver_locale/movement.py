"""移動 (movement): commands, moves from the reserve and from approaches, road movement,
the compulsory move when no enemy is ahead, and cavalry's move onto an approach.

Source rules (移動):

* one command per group moving together from the same locale to the same locale — so the
  reserve's pieces and the pieces on the approach facing the locale entered may move as one
  group (a maneuver attack, or the compulsory move on);
* from the reserve: to an adjacent locale (1); onto an approach when the locale ahead holds
  the enemy (1) — this includes an approach the enemy is blocking; into an enemy-held locale,
  a maneuver attack (1);
* from an approach: back to the reserve when the enemy blocks (1); into the locale ahead when
  the enemy does not block, a maneuver attack (1); when the locale ahead holds no enemy the
  group must either return to the reserve, marked as moved (0), or move on into it (1);
* road movement: up to 3 locales along a road, one piece at a time, at most 3 pieces a turn,
  no two pieces entering the same locale on the same step, free on primary roads, never into an
  enemy locale;
* cavalry may move onto an approach right after entering a locale.

Provisional (not from the source): each piece moves once per player turn (the source's
"移動済み", marked as moved); moves inside a locale (from the reserve onto an approach, from an
approach back to the reserve) are one position's group; a group mixing reserve and approach
pieces "came from the reserve" for Maneuver Attacks, so it may be blocked; road moves start from the reserve and cost 1 command unless every road step is primary; the
cavalry move onto an approach is part of the move that entered the locale (no extra command).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Container, Generator, Iterable, Iterator
from itertools import pairwise
from typing import Any

from attrs import frozen

from wargamekit import Choose, Data, Decision, Option
from wargamekit.decisions import freeze_data

from . import kinds, rules
from .changes import only_arm, piece_subset, place
from .state import RESERVE, Board, Context, GameState, Occupancy, Piece

__all__ = [
    "AssaultAction",
    "Compulsory",
    "EndTurn",
    "GroupMove",
    "RoadMenu",
    "RoadMove",
    "cavalry_onto_approach",
    "compulsory_groups",
    "enterable",
    "option_data",
    "group_moves",
    "road_moves",
]

ROAD_STEPS = 3  # road移動: up to 3 locales (3 steps)
ROAD_PIECES = 3  # road移動: at most 3 pieces a turn


@frozen(cache_hash=True)  # hashed by every menu that offers it (menu_options): hashed once
class GroupMove:
    """A group move costing one command.

    Attributes:
        kind: ``"locale"`` (to an adjacent locale), ``"approach"`` (reserve onto the approach
            facing an enemy locale), ``"maneuver"`` (into an enemy locale: a maneuver attack),
            ``"back"`` (a blocked approach back to the reserve).
        locale: the locale the group is in.
        sources: the positions its pieces may come from: ``RESERVE`` and/or the facing id of
            an approach. A move into another locale (``"locale"``, ``"maneuver"``) may take the
            reserve's pieces and those on the approach facing that locale together (移動 —
            command: one group from the same locale to the same locale).
        target: the adjacent locale moved into or faced.
    """

    kind: str
    locale: str
    sources: tuple[str, ...]
    target: str

    cost = 1

    def data(self) -> dict[str, Any]:
        """What a program reads: ``{"action": "group", "move": kind, "locale", "sources", "target"}``."""
        return {
            "action": "group",
            "move": self.kind,
            "locale": self.locale,
            "sources": list(self.sources),
            "target": self.target,
        }

    def label(self, names: dict[str, str]) -> str:
        """What the player reads."""
        here, there = names[self.locale], names[self.target]
        places = [f"{here} reserve" if s == RESERVE else f"{here} approach facing {there}" for s in self.sources]
        src = " and ".join(places) if len(places) < 2 else f"{here} reserve and approach facing {there}"
        if self.kind == "locale":
            return f"move from {src} to {there} (1 command)"
        if self.kind == "approach":
            return f"move from {src} onto the approach facing {there} (1 command)"
        if self.kind == "back":
            return f"move from {src} back to the reserve (1 command)"
        if RESERVE not in self.sources:
            note = "cannot be blocked"
        elif len(self.sources) == 1:
            note = "may be blocked"
        else:
            note = "may be blocked if reserve pieces go"
        return f"maneuver attack from {src} into {there} (1 command; {note})"


@frozen
class RoadMenu:
    """The entry of the action menu that opens road movement."""

    def data(self) -> dict[str, Any]:
        """What a program reads: ``{"action": "road"}``."""
        return {"action": "road"}

    def label(self, names: dict[str, str]) -> str:
        return f"road move (one piece, up to {ROAD_STEPS} locales along a road)"


@frozen
class RoadMove:
    """One piece's road move along ``path`` (start first)."""

    piece: str
    path: tuple[str, ...]
    cost: int

    def data(self) -> dict[str, Any]:
        """What a program reads: ``{"piece", "path", "to", "cost"}``."""
        return {"piece": self.piece, "path": list(self.path), "to": self.path[-1], "cost": self.cost}

    def label(self, names: dict[str, str]) -> str:
        road = "primary road, 0 commands" if self.cost == 0 else "1 command"
        return f"{' -> '.join(names[x] for x in self.path)} ({road})"


@frozen
class AssaultAction:
    """An assault from the approach of ``locale`` facing ``target`` (1 command)."""

    locale: str
    target: str

    cost = 1

    def data(self) -> dict[str, Any]:
        """What a program reads: ``{"action": "assault", "locale", "target"}``."""
        return {"action": "assault", "locale": self.locale, "target": self.target}

    def label(self, names: dict[str, str]) -> str:
        here, there = names[self.locale], names[self.target]
        return f"assault from {here} approach against the blocking approach of {there} (1 command)"


@frozen
class EndTurn:
    """End the player turn."""

    cost = 0

    def data(self) -> dict[str, Any]:
        """What a program reads: ``{"action": "end"}``."""
        return {"action": "end"}

    def label(self, names: dict[str, str]) -> str:
        return "end the turn"


@frozen
class Compulsory:
    """A group on an approach with no enemy ahead: return (0 commands) or move on (1)."""

    locale: str
    target: str
    move_on: bool

    def data(self) -> dict[str, Any]:
        """What a program reads: ``{"move_on", "locale", "target"}``."""
        return {"move_on": self.move_on, "locale": self.locale, "target": self.target}

    def label(self, names: dict[str, str]) -> str:
        if self.move_on:
            return f"move on from {names[self.locale]} into {names[self.target]} (1 command)"
        return f"return to the {names[self.locale]} reserve, marked as moved (0 commands)"


@functools.lru_cache(maxsize=4096)
def option_data(action: Any) -> Data:
    """``action.data()`` frozen for an :class:`~wargamekit.Option`, once per distinct action
    (actions are frozen values): the menus are rebuilt every decision, and freezing the same
    data again each time was a tenth of a random game."""
    return freeze_data(action.data())


#: board -> action -> its menu option (see :func:`menu_option`)
_MENU_OPTIONS: weakref.WeakKeyDictionary[Board, dict[Any, Option]] = weakref.WeakKeyDictionary()


def menu_option(board: Board, action: Any) -> Option:
    """The menu :class:`~wargamekit.Option` of ``action`` (a frozen action value: a move,
    road move, assault, end of turn or compulsory choice) on ``board``: its label and data.

    Hot (every decision of the command phase offers a dozen actions): an action's label and
    data depend only on the action and the board's names, so each option is built once per
    board and the same frozen option is offered again."""
    return menu_options(board, [action])[0]


def menu_options(board: Board, actions: Iterable[Any]) -> list[Option]:
    """:func:`menu_option` of each of ``actions``, in order (the board's options looked up once)."""
    options = _MENU_OPTIONS.get(board)
    if options is None:
        options = _MENU_OPTIONS[board] = {}
    out = []
    for action in actions:
        option = options.get(action)
        if option is None:
            option = options[action] = Option(action, action.label(board.names), data=option_data(action))
        out.append(option)
    return out


def enterable(state: GameState, locale: str, side: str, n: int = 1, occ: Occupancy | None = None) -> bool:
    """Whether ``n`` pieces of ``side`` may enter ``locale`` by a move: no enemy, room
    (provisional capacity), and not a locale won by assault this turn (Assaults — 後処理).
    ``occ``: the state's :class:`~.state.Occupancy`, if the caller has one."""
    where: GameState | Occupancy = state if occ is None else occ
    return where.holder(locale) != state.enemy(side) and where.room(locale) >= n and locale not in state.won_by_assault


def group_moves(state: GameState, side: str, occ: Occupancy | None = None) -> list[GroupMove]:
    """Every legal one-command group move of ``side`` now (移動 — reserve / approach).
    ``occ``: the state's :class:`~.state.Occupancy`, if the caller has one."""
    if state.commands < 1:
        return []
    # hot (every action menu): the queries go to an index of the pieces, not a scan each; the
    # index's tables are read inline (its holder, has_unmoved, blocked and room, and enterable),
    # and the moves are taken from the board's table of them (_neighbour_moves), not made anew
    occ = occ or Occupancy(state)
    enemy = state.enemy(side)
    out = []
    holders, unmoved, on_approaches = occ.holders, occ.unmoved, occ.on_approaches
    located, capacity, won = occ.locales, state.board.capacity, state.won_by_assault
    table = _neighbour_moves(state.board)
    for loc in occ.held_by(side):  # in the board's order, as the menu lists them
        reserve = (side, loc, RESERVE) in unmoved
        for n, onto, back, into in table[loc]:
            # a move into n may take the reserve and the approach facing n as one group
            facing = (side, loc, n) in unmoved
            if holders.get(n) == enemy:
                if reserve:
                    out.append(onto)
                if (enemy, n, loc) in on_approaches:  # the enemy blocks the approach
                    if facing:
                        out.append(back)
                elif reserve or facing:
                    out.append(into[reserve + 2 * facing][0])  # a maneuver attack
            elif (reserve or facing) and capacity[n] - len(located.get(n, ())) >= 1 and n not in won:  # enterable
                out.append(into[reserve + 2 * facing][1])
    return out


#: One neighbour's row of :func:`_neighbour_moves`: the neighbour ``n``; the move from the
#: reserve onto the approach facing it; the move from that approach back to the reserve; the
#: moves into ``n`` by their sources (index 1: the reserve, 2: the approach, 3: both), each as
#: ``(maneuver attack, move into a locale)``.
_MovesRow = tuple[str, GroupMove, GroupMove, tuple[tuple[GroupMove, GroupMove], ...]]
#: board -> locale -> a row per neighbour, in the board's order (see :func:`_neighbour_moves`)
_NEIGHBOUR_MOVES: weakref.WeakKeyDictionary[Board, dict[str, tuple[_MovesRow, ...]]] = weakref.WeakKeyDictionary()


def _neighbour_moves(board: Board) -> dict[str, tuple[_MovesRow, ...]]:
    """Every group move :func:`group_moves` may offer, by locale and neighbour: they depend on
    the map alone, so they are made once per board, and the menu picks among them."""
    table = _NEIGHBOUR_MOVES.get(board)
    if table is None:
        table = {}
        for loc in board.locale_ids():
            rows = []
            for n in board.neighbours(loc):
                by_sources = [(_group_move("maneuver", loc, s, n), _group_move("locale", loc, s, n))
                              for s in ((RESERVE,), (RESERVE,), (n,), (RESERVE, n))]  # index 0 is never read
                rows.append((n, _group_move("approach", loc, (RESERVE,), n), _group_move("back", loc, (n,), n),
                             tuple(by_sources)))
            table[loc] = tuple(rows)
        _NEIGHBOUR_MOVES[board] = table
    return table


@functools.lru_cache(maxsize=4096)
def _group_move(kind: str, locale: str, sources: tuple[str, ...], target: str) -> GroupMove:
    """``GroupMove(kind, locale, sources, target)``, the same object each time: the menus offer
    the same moves again and again (hot), and :func:`menu_options` finds an action it has seen
    by identity, without comparing its fields."""
    return GroupMove(kind, locale, sources, target)


def group_pieces(state: GameState, move: GroupMove, side: str) -> list[Piece]:
    """The pieces that may take part in ``move``: the unmoved pieces of ``side`` at its sources."""
    # from the live index of the pieces (in set-up order within each source), not a scan
    occ = Occupancy.of(state)
    return [p for where in move.sources for p in occ.pieces_at(move.locale, where) if p.side == side and not p.moved]


def group_limit(state: GameState, move: GroupMove) -> int:
    """Most pieces the group may have (room in the locale it enters; provisional capacity)."""
    if move.kind == "locale":
        return Occupancy.of(state).room(move.target)  # (the live index: no scan of the pieces)
    if move.kind == "maneuver":
        # the defenders will have left when the attackers enter
        return state.board.capacity[move.target]
    return 10**6


def road_moves(state: GameState, side: str, occ: Occupancy | None = None) -> dict[str, list[RoadMove]]:
    """Legal road moves by piece id (移動 — road移動). ``occ``: the state's
    :class:`~.state.Occupancy`, if the caller has one."""
    return {pid: road_moves_of(pid, paths) for pid, paths in road_paths(state, side, occ).items()}


def road_paths(state: GameState, side: str, occ: Occupancy | None = None) -> dict[str, list[tuple[tuple[str, ...], int]]]:
    """The ``(path, cost)`` of each piece's road moves, by piece id, for the pieces of ``side``
    that have one (in set-up order): what :func:`road_moves` lists, before it makes a
    :class:`RoadMove` of each (:func:`road_moves_of`).

    Hot (every road movement): the road move asks which piece first, so only the chosen
    piece's moves need making; pieces in the same locale share their roads (one list)."""
    if len(state.road_pieces) >= ROAD_PIECES:
        return {}
    occ = occ or Occupancy.of(state)
    roads_from: dict[str, list[tuple[tuple[str, ...], int]]] = {}
    out: dict[str, list[tuple[tuple[str, ...], int]]] = {}
    for p in state.of(side):
        if p.moved or not p.in_reserve:
            continue
        paths = roads_from.get(p.locale)
        if paths is None:
            paths = roads_from[p.locale] = _best_roads(state, p.locale, side, occ)
        if paths:
            out[p.id] = paths
    return out


def road_moves_of(piece: str, paths: Iterable[tuple[tuple[str, ...], int]]) -> list[RoadMove]:
    """The :class:`RoadMove` of ``piece`` along each of ``paths`` (``(path, cost)``, from
    :func:`road_paths`), in order."""
    return [RoadMove(piece, path, cost) for path, cost in paths]


def has_road_move(state: GameState, side: str, occ: Occupancy) -> bool:
    """Whether ``side`` has any road move (``road_moves`` is not empty), without building them.

    Hot (every action menu only asks whether to offer road movement): stops at the first
    legal path; :func:`road_moves` builds them all when the player picks road movement."""
    if len(state.road_pieces) >= ROAD_PIECES:
        return False
    # a path costs 1 command unless every step is on a primary road (see _best_roads): with no
    # command left only primary roads need walking (the other paths all cost 1)
    primary_only = state.commands < 1
    # the locales where side has unmoved reserve pieces, each once, from the index (the answer
    # does not depend on the order they are searched in)
    for who, start, where in occ.unmoved:
        if who == side and where == RESERVE:
            for _path in _iter_road_paths(state, start, side, occ, primary_only=primary_only):
                return True
    return False


def _best_roads(state: GameState, start: str, side: str, occ: Occupancy) -> list[tuple[tuple[str, ...], int]]:
    """The road moves from ``start`` as ``(path, cost)``: the cheapest, then shortest, then
    first path to each destination, sorted by cost, length and destination."""
    best: dict[str, tuple[tuple[str, ...], int]] = {}
    # hot (every road movement): the board's paths in that order (cost, length, path), so the
    # first legal path to a destination is its best and the others to it need no testing
    # (whether a path is legal does not depend on the other paths); paths costing more than
    # the commands left cost 1, so with none left only the primary roads' are walked
    for path, cost in _iter_road_paths(state, start, side, occ, primary_only=state.commands < 1,
                                       paths=_cheapest_first(state.board, start), found=best):
        best[path[-1]] = (path, cost)
    return [best[k] for k in sorted(best, key=lambda d: (best[d][1], len(best[d][0]), d))]


def _iter_road_paths(
    state: GameState,
    start: str,
    side: str,
    occ: Occupancy,
    *,
    primary_only: bool = False,
    paths: Iterable[tuple[tuple[str, ...], int]] | None = None,
    found: Container[str] = (),
) -> Iterator[tuple[tuple[str, ...], int]]:
    """The road paths from ``start`` one at a time, with their cost (the action menu stops at
    the first): up to 3 steps, never into an enemy locale or a locale won by assault this turn,
    nor into a locale another piece entered by road on the same step; a path ends where there
    is room. A path costs 1 command unless every step is on a primary road (then 0).
    ``primary_only``: only the paths whose every step is on a primary road. ``paths``: the
    board's paths from ``start`` to walk (default :func:`_static_road_paths`), in any order;
    ``found``: destinations to skip (read as the walk goes on).

    Hot (every action menu asks whether there is a road move): the board's simple road paths
    are listed once (:func:`_static_road_paths`, depth first, as a walk along the roads finds
    them), so this only tests each path's steps against the state."""
    enemy = state.enemy(side)
    won = state.won_by_assault
    entries = state.road_entries
    closed: dict[str, bool] = {}  # locale -> closed to a road step now (enemy-held or won), asked once
    # the index's tables read inline (its room and holder)
    capacity, located, holders = state.board.capacity, occ.locales, occ.holders
    for path, cost in _static_road_paths(state.board, start) if paths is None else paths:
        if primary_only and cost:
            continue
        end = path[-1]
        if end in found or capacity[end] - len(located.get(end, ())) < 1:
            continue
        for step in range(1, len(path)):
            n = path[step]
            shut = closed.get(n)
            if shut is None:
                shut = closed[n] = holders.get(n, "") == enemy or n in won
            if shut or (entries and (step, n) in entries):
                break
        else:
            yield path, cost


#: board -> start locale -> every simple road path from it of 1 to ROAD_STEPS steps, with its cost
_ROAD_PATHS: weakref.WeakKeyDictionary[Board, dict[str, tuple[tuple[tuple[str, ...], int], ...]]] = (
    weakref.WeakKeyDictionary()
)


def _static_road_paths(board: Board, start: str) -> tuple[tuple[tuple[str, ...], int], ...]:
    """Every simple path of 1 to :data:`ROAD_STEPS` steps along the roads of ``board`` from
    ``start``, depth first in the order of each locale's road neighbours (sorted), with its cost
    (0 when every step is on a primary road, else 1). They depend on the map alone: found once
    per board and start."""
    by_start = _ROAD_PATHS.get(board)
    if by_start is None:
        by_start = _ROAD_PATHS[board] = {}
    paths = by_start.get(start)
    if paths is None:
        found: list[tuple[tuple[str, ...], int]] = []

        def walk(path: tuple[str, ...]) -> None:
            if len(path) > 1:
                primary = all(board.is_primary(a, b) for a, b in pairwise(path))
                found.append((path, 0 if primary else 1))
            if len(path) - 1 == ROAD_STEPS:
                return
            for n in board.road_neighbours(path[-1]):
                if n not in path:
                    walk((*path, n))

        walk((start,))
        paths = by_start[start] = tuple(found)
    return paths


#: board -> start locale -> :func:`_static_road_paths` sorted by cost, length and path
_CHEAPEST_FIRST: weakref.WeakKeyDictionary[Board, dict[str, list[tuple[tuple[str, ...], int]]]] = (
    weakref.WeakKeyDictionary()
)


def _cheapest_first(board: Board, start: str) -> list[tuple[tuple[str, ...], int]]:
    """The road paths from ``start`` (:func:`_static_road_paths`) sorted by cost, length and
    path: the order in which :func:`_best_roads` prefers them. Once per board and start."""
    by_start = _CHEAPEST_FIRST.get(board)
    if by_start is None:
        by_start = _CHEAPEST_FIRST[board] = {}
    paths = by_start.get(start)
    if paths is None:
        paths = by_start[start] = sorted(_static_road_paths(board, start), key=lambda pc: (pc[1], len(pc[0]), pc[0]))
    return paths


def compulsory_groups(state: GameState, side: str, occ: Occupancy | None = None) -> list[tuple[str, str]]:
    """Approaches of ``side`` whose locale ahead holds no enemy (移動 — 先のlocaleに敵が存在しない場合).
    ``occ``: the state's :class:`~.state.Occupancy`, if the caller has one."""
    enemy = state.enemy(side)
    # hot (before every action menu): only the approaches the index says side stands on
    occ = occ or Occupancy.of(state)
    return [
        (loc, n)
        for loc, n in occ.approaches(side)
        if occ.holder(n) != enemy and compulsory_pieces(state, side, loc, n, occ)
    ]


def compulsory_pieces(
    state: GameState, side: str, locale: str, target: str, occ: Occupancy | None = None
) -> list[Piece]:
    """The pieces of ``side`` on the approach that the compulsory move takes along: all but the
    guns that fired this turn (Artillery Bombardment: a gun that fired may not move — the more
    specific rule; such a gun stays until its next turn). ``occ``: the state's
    :class:`~.state.Occupancy`, if the caller has one."""
    return [
        p
        for p in (state if occ is None else occ).at(locale, target)
        if p.side == side and not (p.arm is not None and p.arm.gun and p.last_fired == state.player_turn)
    ]


def compulsory_options(state: GameState, side: str, locale: str, target: str) -> list[Compulsory]:
    """The two compulsory choices (moving on needs a command, unmoved pieces and room)."""
    pieces = compulsory_pieces(state, side, locale, target)
    out = [Compulsory(locale, target, move_on=False)]
    if state.commands >= 1 and not any(p.moved for p in pieces) and enterable(state, target, side, len(pieces)):
        out.insert(0, Compulsory(locale, target, move_on=True))
    return out


def cavalry_onto_approach(ctx: Context, side: str, pieces: list[Piece], locale: str) -> Generator[Decision, Any, None]:
    """移動 — cavalry: right after entering ``locale``, cavalry may move onto one of its
    approaches facing an enemy-held locale.

    Asked whenever such an approach exists, whatever the group holds, so being asked tells
    the opponent nothing; only cavalry may be picked.
    """
    state = ctx.state
    enemy = state.enemy(side)
    names = state.board.names
    movers = [p for p in pieces if p.id in state.pieces and p.locale == locale and p.approach == RESERVE]
    if not movers:
        return
    # hot (after every entry into a locale): the neighbours' pieces from the live index
    located = Occupancy.of(state).locales
    targets = []
    for n in state.board.neighbours(locale):
        for p in located.get(n, ()):  # (a locale's pieces are one side's but in an assault's midst)
            if p.side == enemy:
                targets.append(n)
                break
    if not targets:
        return

    chosen = yield piece_subset(
        side,
        f"Cavalry that entered {names[locale]} may move onto an approach: which (none for none)?",
        movers,
        rule=rules.CAVALRY,
        kind=kinds.CAVALRY,
        context={"locale": locale},
        constraint=only_arm(state, "enters_approach", "only cavalry may move onto an approach right after entering a locale",
                            movers),
        why_not=lambda p: None if p.arm is not None and p.arm.enters_approach else f"{p.arm.key if p.arm else 'this piece'} (only cavalry may)",
        secret=True,
    )
    if not chosen:
        return
    target = yield from ctx.ask(
        Choose.of(
            side,
            f"Onto the approach of {names[locale]} facing which locale?",
            [Option(n, names[n], data={"facing": n}) for n in targets],
            rule=rules.CAVALRY,
            kind=kinds.CAVALRY_APPROACH,
            context={"locale": locale, "pieces": list(chosen)},
        )
    )
    place(ctx, [state.pieces[i] for i in chosen], locale, target, "cavalry moves onto an approach")


__all__ += [
    "compulsory_options", "compulsory_pieces", "group_limit", "group_pieces", "has_road_move", "menu_option", "menu_options",
    "road_moves_of", "road_paths",
]
