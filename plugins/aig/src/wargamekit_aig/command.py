"""§4 Leaders: command range (§4.2.2), who is in melee (§4.2.6), leader movement (§4.2.5, §4.4.1)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from collections.abc import Set as AbstractSet
from operator import itemgetter
from typing import NamedTuple
from weakref import WeakKeyDictionary

from wargamekit.geometry import Hex, HexMap
from wargamekit_aig.facing import enemy_zoi, engaged_with
from wargamekit_aig.state import GameState, Leader, PerMap, Unit, position_id

#: §4.1: every leader's movement allowance: 6 carrying the banner, 8 otherwise.
LEADER_MA, BANNER_MA = 8, 6
#: A destination's MP, the menu's sort key (leader_moves).
_MP = itemgetter(1)

#: Per map: the hexes reachable from a start by (start, budget, cost type, blocked hexes). A
#: cache: the rules ask the same search again and again while nothing that blocks has moved,
#: and each search is a scipy call. (Leader movement's; the command range has _RANGES.)
_REACH: PerMap[tuple[Hex, float, str, frozenset[Hex]], dict[Hex, float]] = PerMap(kept=4096)
#: Per map: a command range's hexes' coordinates (command_cells), by its count's question:
#: (the leader's map index, the range, the blocked hexes' bits among those the range could reach
#: with nothing blocked). Kept by the question, not only by the position (_COMMAND): a new
#: position often asks a range asked before (nothing near the leader moved).
_RANGES: PerMap[tuple[int, int, int], int] = PerMap(kept=4096)


#: Per map: a leader's command range's coordinates (§4.2.2, command_cells) by (his hex's q and
#: r, the range, his side, the position key's number, state.position_id). A cache in front of
#: _RANGES: each order re-reads the range, group orders test every command.
_COMMAND: PerMap[tuple[int, int, int, str, Hashable], int] = PerMap(kept=4096)
#: Per map: the bits of the hexes that block a side's command paths (_blocked_bits) by (side,
#: position key's number): the same for every leader of the side in that position.
_BLOCKED: PerMap[tuple[str, Hashable], int] = PerMap(kept=4096)
#: Per map: the bits of the hexes a range reaches with nothing blocked, its start left out, by
#: (map index, range): no path of the range leaves them, and it never enters its start again, so
#: only the blocked hexes among them can change its answer (_RANGES' question).
_NEAR: PerMap[tuple[int, int], int] = PerMap()
#: Per map: a range's coordinates by its bits (_cells): questions that differ often reach the
#: same hexes (on the training map, a range of 12 reaches nearly all of it).
_CELLS: PerMap[int, frozenset[tuple[int, int]]] = PerMap(kept=4096)


class _CommandGraph(NamedTuple):
    """§4.2.2 counts a command range in hexes, not MP: the map as the graph that count runs on,
    a set of hexes as an int whose bit ``i`` stands for map index ``i`` (:func:`_count_range`)."""

    #: each index's hex as its ``(q, r)``
    cells: tuple[tuple[int, int], ...]
    #: the index of each ``(q, r)`` on the map
    index_of: dict[tuple[int, int], int]
    #: the bit of each ``(q, r)`` on the map (``1 << index``)
    bit_of: dict[tuple[int, int], int]
    #: the steps as shifts: ``(d, mask)`` for each difference ``d > 0`` of map index a step
    #: makes (from ``i`` to ``i + d``), ``mask`` the bits of the indices that have that step
    ups: tuple[tuple[int, int], ...]
    #: the same for the steps from ``i`` to ``i - d``
    downs: tuple[tuple[int, int], ...]


#: Per map: its _CommandGraph, for the map's lifetime (weak keys).
_GRAPHS: WeakKeyDictionary[HexMap, _CommandGraph] = WeakKeyDictionary()
#: The last map asked of _command_graph and its graph: every order reads the bits of the map
#: in play (command_bit_of), and an identity test is a tenth of a table's look-up. (A strong
#: reference, as PerMap's last map: it holds one map past its game at most.)
_last_graph: tuple[HexMap | None, _CommandGraph | None] = (None, None)


#: Per map: an ordered leader's destinations and their menu order (leader_moves).
_MOVES: PerMap[tuple[int, int, float, str, Hashable], tuple[Mapping[Hex, float], tuple[Hex, ...]]] = PerMap(kept=4096)
#: Per map: whether a leader in a hex is in melee (§4.2.6) and whether he may move with so many
#: MP (§4.2.5), by his hex (and MP), his side and the position key: both depend on nothing else,
#: and each individual order asks them again (the issuer, every lower leader he may move).
#: (_COMMAND, _MOVES, _MELEE and _CAN_MOVE key his hex by its coordinates: a Hex hashes and
#: compares by Python calls.)
_MELEE: PerMap[tuple[int, int, str, Hashable], bool] = PerMap(kept=4096)
_CAN_MOVE: PerMap[tuple[int, int, float, str, Hashable], bool] = PerMap(kept=4096)


def reach_from(state: GameState, start: Hex, budget: float, cost: str, blocked: AbstractSet[Hex]) -> Mapping[Hex, float]:
    """``state.map.reachable(start, budget, cost, blocked=blocked)``, remembered per map: the
    same mapping object for the same question (callers must not change it).

    D2: no step costs less than 1, so a path within ``budget`` never goes farther than
    ``budget`` hexes and blocked hexes beyond that cannot change the answer: they are left out
    of the question (a unit moving far away does not make it a new one).
    """
    table = _REACH.table(state.map)
    key = _reach_question(start, budget, cost, blocked)
    got = table.get(key)
    if got is None:
        got = table[key] = state.map.reachable(start, budget, cost, blocked=key[3])
    return got


def _reach_question(start: Hex, budget: float, cost: str,
                    blocked: AbstractSet[Hex]) -> tuple[Hex, float, str, frozenset[Hex]]:
    """:func:`reach_from`'s key: its question with only the blocked hexes within ``budget``."""
    # start.distance(h) <= budget, inline (the battle's enemy ZOI holds hundreds of hexes): the
    # distance is half the sum of the three cube deltas, an even sum
    q, r, twice = start.q, start.r, 2 * budget
    return start, budget, cost, frozenset(h for h in blocked if abs(h.q - q) + abs(h.r - r) + abs(h.q - q + h.r - r) <= twice)


def _blocked(state: GameState, side: str) -> set[Hex]:
    """§4.2.2: enemy units and enemy ZOI block a command path; Q5 reading: a hex holding a
    friendly combat unit counts as free of enemy ZOI (as §4.4.2 says for evasion)."""
    enemies = {u.hex for u in state.live_units() if u.side != side and not u.routed}
    friends = {u.hex for u in state.live_units(side)}
    return enemies | (enemy_zoi(state, side) - friends)


def command_distances(state: GameState, leader: Leader, reach: int | None = None) -> Mapping[Hex, float]:
    """§4.2.2: hexes reachable from the leader by a path of at most ``reach`` hexes (default his
    command range) not blocked by enemy units, enemy ZOI or impassable terrain, each with its
    distance along such a path: the map's own search (a shared mapping: read it, do not change
    it). The rules ask only who stands in range, :func:`command_cells`."""
    limit = leader.range if reach is None else reach
    return reach_from(state, leader.hex, limit, "command", _blocked(state, leader.side) - {leader.hex})


def command_cells(state: GameState, leader: Leader, reach: int | None = None, *,
                  position: Hashable | None = None) -> frozenset[tuple[int, int]]:
    """The ``(q, r)`` of :func:`command_distances`' hexes (:func:`command_bits` as coordinates)."""
    return _cells(state.map, _command_graph(state.map), command_bits(state, leader, reach, position=position))


def command_bits(state: GameState, leader: Leader, reach: int | None = None, *,
                 position: Hashable | None = None) -> int:
    """:func:`command_distances`' hexes as the bits of their map indices (:func:`command_bit_of`):
    who stands in range, asked by a bit test (the orders ask it of every unit and leader at every
    menu; a ``Hex`` key costs a Python hash and equality call each). ``position``:
    ``position_id(state)``, when the caller has it."""
    limit = leader.range if reach is None else reach
    if position is None:
        position = position_id(state)
    table = _COMMAND.table(state.map)
    q, r = leader.hex.q, leader.hex.r
    key = (q, r, limit, leader.side, position)
    got = table.get(key)
    if got is None:
        graph = _command_graph(state.map)
        start = graph.index_of[(q, r)]
        near_table = _NEAR.table(state.map)
        near = near_table.get((start, limit))
        if near is None:  # (his own hex left out: a count never enters its start)
            near = near_table[start, limit] = _count_range(graph, start, limit, 0) & ~(1 << start)
        question = (start, limit, _blocked_bits(state, leader.side, position, graph) & near)
        ranges = _RANGES.table(state.map)
        got = ranges.get(question)
        if got is None:
            got = ranges[question] = _count_range(graph, start, limit, question[2])
        table[key] = got
    return got


def _blocked_bits(state: GameState, side: str, position: Hashable, graph: _CommandGraph) -> int:
    """:func:`_blocked` as bits of map indices (:class:`_CommandGraph`), remembered by the side and
    the position key's number: the same for every leader of the side while nothing moves. (A
    leader's own hex may be among them: a count never enters its start.) The same rule as
    :func:`_blocked`, written over bits: deriving it from that set of hexes costs aig ~1 % of a
    fresh game (98.40 -> 99.38 M); the shortcut tests compare the ranges with the map's search
    on :func:`_blocked` at every third decision of two games."""
    table = _BLOCKED.table(state.map)
    key = (side, position)
    got = table.get(key)
    if got is None:
        index = graph.index_of
        enemies = friends = zone = 0
        for u in state.units.values():
            if u.eliminated:
                continue
            i = index.get((u.hex.q, u.hex.r))
            if i is None:
                continue  # off the map: blocks nothing
            bit = 1 << i
            if u.side == side:
                friends |= bit
            elif not u.routed:
                enemies |= bit
        for h in enemy_zoi(state, side):
            i = index.get((h.q, h.r))
            if i is not None:
                zone |= 1 << i
        got = table[key] = enemies | (zone & ~friends)
    return got


def _command_graph(m: HexMap) -> _CommandGraph:
    """``m``'s :class:`_CommandGraph`, made the first time asked. D2: a command step costs 1
    whatever the terrain and hexside (``"command"`` in the terrain chart), or may not be taken."""
    global _last_graph
    last_map, last = _last_graph
    if last_map is m and last is not None:
        return last
    got = _GRAPHS.get(m)
    if got is None:
        hexes = m.hexes()
        index = {(h.q, h.r): i for i, h in enumerate(hexes)}
        masks: dict[int, int] = {}  # index difference -> the bits of the indices with such a step
        for i, h in enumerate(hexes):
            for d in range(6):
                n = h.neighbour(d)
                j = index.get((n.q, n.r))
                if j is None:
                    continue  # off the map
                cost = m.movement_cost(h, n, "command")
                if cost == 1:
                    masks[j - i] = masks.get(j - i, 0) | 1 << i
                elif math.isfinite(cost):
                    raise ValueError(f"a command step costs 1 or may not be taken (D2), not {cost}: {h} to {n}")
        got = _GRAPHS[m] = _CommandGraph(
            tuple((h.q, h.r) for h in hexes), index, {c: 1 << i for c, i in index.items()},
            tuple((d, mask) for d, mask in sorted(masks.items()) if d > 0),
            tuple((-d, mask) for d, mask in sorted(masks.items()) if d < 0))
    _last_graph = (m, got)
    return got


def _count_range(graph: _CommandGraph, start: int, reach: int, blocked: int) -> int:
    """The bits of every hex a path of at most ``reach`` steps from index ``start`` comes to
    without entering a hex of the bits ``blocked``: the map's own search when every step costs 1
    (:func:`command_distances`' hexes), counted ring by ring, each ring the last one's steps
    taken all at once as shifts of its bits (a few operations on one int a step direction, not
    a Python loop over each hex and neighbour: aig.md, "The sixteenth round")."""
    if reach < 0:
        return 0  # as the map's search: not even the start is within a negative reach
    ups, downs = graph.ups, graph.downs
    reached = ring = 1 << start
    closed = reached | blocked  # reached or blocked: not entered again
    for _ in range(reach):
        after = 0
        for d, mask in ups:
            after |= (ring & mask) << d
        for d, mask in downs:
            after |= (ring & mask) >> d
        ring = after & ~closed
        if not ring:
            break
        closed |= ring
        reached |= ring
    return reached


#: The bits set in each byte value, lowest first (_cells).
_BITS = tuple(tuple(b for b in range(8) if v >> b & 1) for v in range(256))


def _cells(m: HexMap, graph: _CommandGraph, bits: int) -> frozenset[tuple[int, int]]:
    """The ``(q, r)`` of the indices whose bits are set, remembered by the bits (_CELLS)."""
    table = _CELLS.table(m)
    got = table.get(bits)
    if got is None:
        cells = graph.cells
        out = []
        base = 0
        for v in bits.to_bytes((len(cells) + 7) // 8, "little"):
            if v:
                for b in _BITS[v]:
                    out.append(cells[base + b])
            base += 8
        got = table[bits] = frozenset(out)
    return got


def command_bit_of(m: HexMap) -> dict[tuple[int, int], int]:
    """Each ``(q, r)`` of ``m``'s bit in :func:`command_bits`' answers."""
    return _command_graph(m).bit_of


def in_range(state: GameState, leader: Leader, unit: Unit, *, twice: bool = False) -> bool:
    """§4.2.2 (individual orders) or §4.2.4 (group orders: twice the range)."""
    reach = leader.range * (2 if twice else 1)
    return bool(command_bits(state, leader, reach) & command_bit_of(state.map).get((unit.hex.q, unit.hex.r), 0))


def leader_in_range(state: GameState, leader: Leader, other: Leader, *, position: Hashable | None = None) -> bool:
    """Whether ``other`` stands within ``leader``'s command range (§4.3.1.d, §4.3.2.a).
    ``position``: ``position_id(state)``, when the caller has it."""
    return bool(command_bits(state, leader, position=position)
                & command_bit_of(state.map).get((other.hex.q, other.hex.r), 0))


def in_melee(state: GameState, leader: Leader, *, position: Hashable | None = None) -> bool:
    """§4.2.6: a leader is in melee when the unit he is stacked with is engaged. ``position``:
    ``position_id(state)``, when the caller has it (the answer is then remembered by it)."""
    if position is None:
        unit = state.stacked_unit(leader)
        return unit is not None and bool(engaged_with(state, unit))
    table = _MELEE.table(state.map)
    key = (leader.hex.q, leader.hex.r, leader.side, position)
    got = table.get(key)
    if got is None:
        got = table[key] = in_melee(state, leader)
    return got


def leader_ma(state: GameState, leader: Leader) -> int:
    """§4.1: 6 with the banner, 8 without."""
    return BANNER_MA if state.carries_banner(leader) else LEADER_MA


def _leader_blocked(state: GameState, leader: Leader) -> set[Hex]:
    """§4.4.1: the hexes an ordered leader may not enter: enemy units, and enemy ZOI unless a
    friendly combat unit stands there (he stacks with it)."""
    enemies = {u.hex for u in state.live_units() if u.side != leader.side}
    friends = {u.hex for u in state.live_units(leader.side) if not u.routed}
    return (enemies | (enemy_zoi(state, leader.side) - friends)) - {leader.hex}


def leader_destinations(state: GameState, leader: Leader, mp: float | None = None) -> dict[Hex, float]:
    """§4.2.5, §4.4.1: where an ordered leader may move with ``mp`` movement points (default his
    whole MA): not into enemy units, and not into enemy ZOI alone (a hex with a friendly combat
    unit is fine: he stacks with it, §4.4.1)."""
    return dict(leader_moves(state, leader, mp)[0])


def leader_moves(state: GameState, leader: Leader, mp: float | None = None, *,
                 position: Hashable | None = None) -> tuple[Mapping[Hex, float], tuple[Hex, ...]]:
    """:func:`leader_destinations` as a shared mapping (read it, do not change it), with its
    hexes in the order a menu offers them: by MP, then by label. Remembered per map by the
    leader's hex, MP, side and the position key. ``position``: ``position_id(state)``, when the
    caller has it."""
    budget = leader_ma(state, leader) if mp is None else mp
    table = _MOVES.table(state.map)
    key = (leader.hex.q, leader.hex.r, budget, leader.side, position_id(state) if position is None else position)
    got = table.get(key)
    if got is None:
        reach = reach_from(state, leader.hex, budget, "leader", _leader_blocked(state, leader))
        # Within a finite budget every cost the search gives is finite (it is at most the
        # budget): the search's own mapping is the answer, not a copy of it made hex by hex
        # (a Hex key's Python hash each: 132,180 instructions for 95 hexes, aig.md "The eighteenth round").
        moves = reach if math.isfinite(budget) else {h: c for h, c in reach.items() if math.isfinite(c)}
        # By MP, then by label: a label is the column then the row, both of two digits. The
        # search gives its hexes in map index order (column by column, each column's rows in
        # order: HexMap.reachable_many), which is the labels' order; so a stable sort by MP
        # alone gives the menu's order, with no label or (MP, q, r) tuple made per hex (aig.md,
        # "Session 33": ~130,000 instructions less for ~90 hexes).
        got = table[key] = (moves, tuple([h for h, _ in sorted(moves.items(), key=_MP)]))
    return got


def leader_can_move(state: GameState, leader: Leader, mp: float | None = None, *,
                    position: Hashable | None = None) -> bool:
    """Whether :func:`leader_destinations` holds a hex besides his own: whether he may enter an
    adjacent hex within ``mp`` (every path starts with such a step and no step is free, so no
    search is needed to know that a move is possible at all). ``position``:
    ``position_id(state)``, when the caller has it (the answer is then remembered by it)."""
    budget = leader_ma(state, leader) if mp is None else mp
    if position is not None:
        table = _CAN_MOVE.table(state.map)
        key = (leader.hex.q, leader.hex.r, budget, leader.side, position)
        got = table.get(key)
        if got is None:
            got = table[key] = leader_can_move(state, leader, budget)
        return got
    here, m = leader.hex, state.map
    # _leader_blocked for the six neighbours alone (asked at every individual order)
    around = dict(state.units_around(here))
    zone: frozenset[Hex] | None = None
    for d in range(6):
        h = here.neighbour(d)
        if h not in m:
            continue
        unit = around.get(d)
        if unit is not None and unit.side != leader.side:
            continue  # an enemy unit, routed or not
        if unit is None or unit.routed:  # no friendly combat unit to stack with: ZOI closes it
            zone = enemy_zoi(state, leader.side) if zone is None else zone
            if h in zone:
                continue
        if state.step_cost(here, h, "leader") <= budget:
            return True
    return False
