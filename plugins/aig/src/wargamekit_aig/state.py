"""The game state (§2 components) and the provisional terrain chart (D2).

Units carry their cohesion hits and status markers (§2.2.3: rout, disorder, "Melee – No Check",
moved, ammunition); leaders their finished side (§2.2.2) and skip status (§5.4.4).
"""

from __future__ import annotations

import itertools
import math
from operator import itemgetter
from sys import intern
from typing import Any, Generic, TypeVar
from weakref import WeakKeyDictionary

from attrs import astuple, define, field

from wargamekit.geometry import DIRECTIONS, Hex, HexMap, HexsideFeature, TerrainTable, TerrainType, VertexFacing
from wargamekit.memo import remember
from wargamekit.state_rows import HexRows, StateRows
from wargamekit_aig.scenario import CAVALRY, INFANTRY, LAYOUT, AigScenario, MapSpec, Tables, hexside, parse_hex

INF = math.inf
CLEAR, WOODS, ROUGH, HILL, MARSH, IMPASSABLE = range(6)
RIVER, STREAM = 1, 2

#: D2 (provisional, not from the source): cost to enter by terrain and unit type. Leaders move
#: as mounted men ("leader"); "command" measures command range in hexes (§4.2.2: hexes, not MP),
#: "rout" the rally-phase rout move (§8.2: terrain costs ignored, impassable still impassable).
_TYPES: Any = (
    TerrainType(CLEAR, "clear", 1),
    TerrainType(WOODS, "woods", 2, {"LI": 1, "CT": 3, "HC": 3, "LC": 3, "command": 1, "rout": 1}),
    TerrainType(ROUGH, "rough", 2, {"LI": 1, "command": 1, "rout": 1}),
    TerrainType(HILL, "hill", 2, {"LI": 1, "command": 1, "rout": 1}, los=2),
    TerrainType(MARSH, "marsh", 3, {"LI": 2, "CT": INF, "HC": 4, "LC": 4, "command": 1, "rout": 1}),
    TerrainType(IMPASSABLE, "impassable", INF),
)
_FEATURES: Any = (
    # §8.1.2: routed units may not cross rivers but may cross streams. D2: a river is
    # impassable to every unit (fords would be scenario data); a stream costs one more.
    HexsideFeature(RIVER, "river", INF, {"command": 0}),
    HexsideFeature(STREAM, "stream", 1, {"command": 0, "rout": 0}),
)
TERRAIN = TerrainTable(_TYPES, _FEATURES)

K = TypeVar("K")
V = TypeVar("V")


class PerMap(Generic[K, V]):
    """A cache of facts about one map (its layers are read-only in play, so an entry never goes
    stale): a table per map, held weakly, and at most ``kept`` entries in each (then it starts
    again). The last map's table is kept at hand: the rules ask it thousands of times a game.
    """

    def __init__(self, kept: int = 1 << 16) -> None:
        self.kept = kept
        self._tables: WeakKeyDictionary[HexMap, dict[K, V]] = WeakKeyDictionary()
        self._last: tuple[HexMap, dict[K, V]] | None = None

    def table(self, m: HexMap) -> dict[K, V]:
        """The table of ``m`` (emptied when it has grown to ``kept`` entries)."""
        last = self._last
        if last is not None and last[0] is m:
            table = last[1]
        else:
            kept = self._tables.get(m)
            table = self._tables[m] = {} if kept is None else kept
            self._last = (m, table)
        if len(table) >= self.kept:
            table.clear()
        return table


#: (dq, dr) of a neighbour → its direction (hexside) number.
_DIRECTION_OF = {delta: d for d, delta in enumerate(DIRECTIONS)}
#: The same by (dq + 1, dr + 1), as a 3×3 table (``None`` for the hex itself and the two cells
#: that are not neighbours): read by index, where the mapping builds and hashes a tuple.
_DIRECTION_AT = tuple(tuple(_DIRECTION_OF.get((dq, dr)) for dr in (-1, 0, 1)) for dq in (-1, 0, 1))
_first = itemgetter(0)

#: The cost of a step by (from, to, cost type). A cache: every unit step's menu prices each
#: front hex again.
_STEP_COSTS: PerMap[tuple[Hex, Hex, str], float] = PerMap()


@define
class Unit:
    """A combat unit on the map (§2.2.1) with its markers (§2.2.3)."""

    name: str
    side: str
    type: str
    command: str
    tq: int
    ma: int
    hex: Hex
    facing: int
    missile: str = ""
    trained: bool = False
    skirmish: bool = False
    return_fire: bool = False
    hits: int = 0
    routed: bool = False
    disordered: bool = False
    eliminated: bool = False
    ammo: int = 0
    #: §3.2.1: activations this game turn (each after the first costs a cohesion hit).
    activations: int = 0
    #: §5.2.5: the command phase (a running number) in which it was last ordered.
    ordered_phase: int = -1
    #: §3.2.2.a "Melee – No Check" and the Moved marker (D27: placed when it leaves its hex).
    moved: bool = False
    no_check: bool = False
    #: §9.1 fired this activation; §6.3.3.a fired upon this activation.
    fired: bool = False
    fired_upon: bool = False
    #: §4.3.1.c: may not be activated again this turn (a failed cross-command group order).
    banned: bool = False
    #: §2.2.1 the back side (dismounted cavalry): its type and MA, "" / 0 when it has none (D15).
    back_type: str = ""
    back_ma: int = 0

    @property
    def alive(self) -> bool:
        """On the map (routed units are still on the map)."""
        return not self.eliminated

    @property
    def cavalry(self) -> bool:
        """§2.2.1: CT, HC and LC are cavalry."""
        return self.type in CAVALRY

    @property
    def infantry(self) -> bool:
        """§2.2.1: HI, MI and LI are infantry."""
        return self.type in INFANTRY

    @property
    def cohesion(self) -> int:
        """§2.4: cohesion starts at TQ and falls by one per cohesion hit."""
        return max(self.tq - self.hits, 0)

    @property
    def vertex(self) -> VertexFacing:
        """§7.1: the corner the counter points at."""
        return VertexFacing(self.facing)


#: §4.2.1 the chain of command by rank (a constant: every individual order compares ranks).
_RANK_VALUES = {"oc": 2, "ordinary": 1, "junior": 0}


@define
class Leader:
    """A leader counter (§2.2.2, §4.1)."""

    name: str
    side: str
    rank: str
    command: str
    range: int
    initiative: int
    group_orders: int
    charisma: int
    hex: Hex
    superior: str = ""
    commands: list[str] = field(factory=list)
    alive: bool = True
    #: §2.2.2 finished side up (mirrors the LeaderActivation sequencer, for views).
    finished: bool = False
    #: §5.4.4 skip status.
    skip: bool = False
    #: §5.1.2 command phases taken this turn.
    phases: int = 0
    #: §4.3.2.a: issued group orders without a check this turn.
    group_free: bool = False
    #: §4.3.1.c: commands whose units take the OC's group orders without a roll (raw 0).
    cross_free: list[str] = field(factory=list)
    #: §4.3.1.e: promoted in the field.
    promoted: bool = False

    @property
    def junior(self) -> bool:
        """§4.2.1: no stars, an inverted triangle."""
        return self.rank == "junior"

    @property
    def oc(self) -> bool:
        """§4.3.1: the scenario's overall commander."""
        return self.rank == "oc"

    @property
    def rank_value(self) -> int:
        """Chain of command (§4.2.1): OC 2, ordinary 1, junior 0."""
        return _RANK_VALUES[self.rank]

    def activates(self, unit: Unit) -> bool:
        """D18: the units his group orders activate (his command, or those the scenario lists)."""
        return unit.command in (self.commands or [self.command])


@define
class Banner:
    """D12 (provisional): a side's banner, carried by a leader or, once captured, an enemy unit."""

    side: str
    carrier: str
    captured: bool = False


@define
class GameState:
    """Everything that changes during a game."""

    map: HexMap
    units: dict[str, Unit]
    leaders: dict[str, Leader]
    banners: dict[str, Banner]
    tables: Tables
    withdrawal: dict[str, int]
    last_turn: int
    title: str = ""
    turn: int = 0
    #: A record of where the game is, for views (set from the sequencers' turns).
    phase: str = ""
    active: str | None = None
    #: A running number of command phases (§5.2.5 "once per command phase").
    command_phase: int = 0
    #: D17: rout points each side has lost.
    rout_points: dict[str, int] = field(factory=lambda: {"red": 0, "blue": 0})
    #: §5.3.3: sides in army-wide command chaos for the rest of the turn.
    chaos: list[str] = field(factory=list)
    #: §9.3 (provisional): units that made reaction fire this command phase.
    reacted: list[str] = field(factory=list)
    #: §6.3.3.b: units that made an emergency turn against a charge this command phase.
    braced: list[str] = field(factory=list)
    #: D11 (provisional): units that made an orderly withdrawal this command phase.
    withdrew: list[str] = field(factory=list)
    #: Restart bookkeeping (docs/design.md "Checkpoints"): the leader action phase's activation
    #: sequence (a LeaderActivation) and the activation under way (activation.Underway), so that
    #: a restart at a command phase goes on with them.
    sequence: Any = None
    underway: Any = None

    def __reduce__(self) -> tuple[Any, ...]:
        # Hot: the game pickles the state at checkpoints (a snapshot every eight answers or so,
        # ~37 a training game, about a fifth of its CPU time), and the units are most of it:
        # as rows of plain values (the hex as two numbers) they pickle without a call back into
        # Python per unit and per hex.
        return _FORM.reduce(self)

    # -- queries ----------------------------------------------------------------------------
    def live_units(self, side: str | None = None) -> list[Unit]:
        """Units on the map (of ``side``), in scenario order."""
        if side is None:
            return [u for u in self.units.values() if not u.eliminated]
        return [u for u in self.units.values() if not u.eliminated and u.side == side]

    def live_leaders(self, side: str | None = None) -> list[Leader]:
        """Leaders still in play (of ``side``)."""
        if side is None:
            return [ld for ld in self.leaders.values() if ld.alive]
        return [ld for ld in self.leaders.values() if ld.alive and ld.side == side]

    def unit_at(self, h: Hex) -> Unit | None:
        """The combat unit in ``h`` (D16: at most one)."""
        # The hot query of every rule: compare coordinates, not Hex objects (their attrs __eq__).
        q, r = h.q, h.r
        for u in self.units.values():
            at = u.hex
            if at.r == r and at.q == q and not u.eliminated:
                return u
        return None

    def units_around(self, h: Hex) -> list[tuple[int, Unit]]:
        """The combat units adjacent to ``h`` with the direction to each, in direction order:
        ``unit_at(h.neighbour(d))`` for each direction ``d`` that holds one."""
        # Hot (engagement, withdrawals, every step menu): one pass over the units, not six scans
        # of them; the offsets from the corner cell (q - 1, r - 1) index the direction table.
        q, r, direction_at = h.q - 1, h.r - 1, _DIRECTION_AT
        around = []
        for u in self.units.values():
            at = u.hex
            dq = at.q - q
            if 0 <= dq <= 2:
                dr = at.r - r
                if 0 <= dr <= 2:
                    d = direction_at[dq][dr]
                    if d is not None and not u.eliminated:
                        around.append((d, u))
        if len(around) > 1:
            around.sort(key=_first)
        return around

    def leaders_at(self, h: Hex) -> list[Leader]:
        """The leaders in ``h``."""
        # coordinates, not Hex objects (their attrs __eq__): every move asks it
        q, r = h.q, h.r
        return [ld for ld in self.leaders.values() if ld.alive and ld.hex.q == q and ld.hex.r == r]

    def enemy_leader_in(self, h: Hex, side: str) -> bool:
        """Whether a leader of the side opposing ``side`` stands in ``h``."""
        return any(ld.alive and ld.hex == h and ld.side != side for ld in self.leaders.values())

    def stacked_unit(self, leader: Leader) -> Unit | None:
        """§4.4.1: the friendly combat unit the leader is stacked with, if any."""
        u = self.unit_at(leader.hex)
        return u if u is not None and u.side == leader.side else None

    def oc(self, side: str) -> Leader | None:
        """The side's overall commander, if alive (§4.4.3: never replaced)."""
        return next((ld for ld in self.live_leaders(side) if ld.oc), None)

    def banner_hex(self, side: str) -> Hex | None:
        """Where the side's banner is (its carrier's hex)."""
        b = self.banners.get(side)
        if b is None:
            return None
        if b.captured:
            u = self.units.get(b.carrier)
            return u.hex if u is not None and u.alive else None
        ld = self.leaders.get(b.carrier)
        return ld.hex if ld is not None and ld.alive else None

    def carries_banner(self, leader: Leader) -> bool:
        """§4.1: the leader carries his side's banner (MA 6 instead of 8)."""
        b = self.banners.get(leader.side)
        return b is not None and not b.captured and b.carrier == leader.name

    def step_cost(self, from_hex: Hex, to_hex: Hex, unit_type: str) -> float:
        """``self.map.movement_cost(from_hex, to_hex, unit_type)`` (D2 terrain and hexside costs),
        remembered per map."""
        table = _STEP_COSTS.table(self.map)
        key = (from_hex, to_hex, unit_type)
        cost = table.get(key)
        if cost is None:
            cost = table[key] = self.map.movement_cost(from_hex, to_hex, unit_type)
        return cost

    def is_terrain(self, h: Hex, code: int) -> bool:
        """Whether ``h`` is of terrain ``code``."""
        return int(self.map.terrain[self.map.offset(h)]) == code


#: GameState.__reduce__: the state's field values, and its units as rows (their hex as q and r).
_FORM = StateRows(GameState, HexRows(Unit))


def position_key(state: GameState) -> tuple[Any, ...]:
    """Where and how every combat unit stands: for a unit in play its hex, corner, side, rout
    and, when it is disordered, its type (disordered cavalry has every side as its front,
    §7.3.1); for an eliminated unit ``True``. With the map, all that blocking and ZOI (§2.4,
    §4.2.2, §4.4.1) depend on; as plain values, cheap to build and hash, a key for remembering
    them (the rules ask them again at every order while nothing has moved)."""
    # Plain attribute reads in a comprehension: under half the instructions of an attrgetter of
    # the same fields mapped over the units (18 against 40 thousand for 16 units, cachegrind).
    # Nothing the key stands for reads an eliminated unit, nor the type of one in order (only
    # "disordered and cavalry"): leaving them out is two values fewer to build and hash a unit.
    return tuple([u.eliminated or (u.hex.q, u.hex.r, u.facing, u.side, u.routed, u.disordered and u.type)
                  for u in state.units.values()])


#: Position keys met lately, each with the number that stands for it (position_id). Numbers are
#: never given twice (a count, not the table's size), so emptying the table when it is full only
#: makes a position met again take a new number: no cache keyed by an old one can answer wrongly.
_POSITION_IDS: dict[tuple[Any, ...], int] = {}
_POSITION_IDS_KEPT = 4096  # as many as the caches keyed by them keep (command.py)
_next_position_id = itertools.count()


def position_id(state: GameState) -> int:
    """A number that stands for :func:`position_key`: the same for the same key (while it is
    remembered), never the same for two keys. The rules' caches are keyed by it: a key of 16
    units is hashed once here, not again in each of the several caches an order asks."""
    key = position_key(state)
    got = _POSITION_IDS.get(key)
    if got is None:
        got = remember(_POSITION_IDS, key, next(_next_position_id), _POSITION_IDS_KEPT)
    return got


#: Maps built so far, by their scenario data (a few: the bundled battles and the tests' maps).
_MAPS: dict[tuple[Any, ...], HexMap] = {}
_MAPS_KEPT = 32


def build_map(spec: MapSpec) -> HexMap:
    """The map of ``spec`` (§2.1, D2): terrain and hexside features, its layers read-only.

    The map never changes in play, so every game of one map holds the same object (views and
    snapshots share it too): the searches it caches (movement graphs, lines of sight, and the
    rules' own caches keyed by map) stay warm from one game to the next.
    """
    key = tuple(tuple(v) if isinstance(v, list) else v for v in astuple(spec, recurse=False))
    m = _MAPS.get(key)
    if m is not None:
        return m
    m = HexMap(spec.width, spec.height, TERRAIN, LAYOUT)
    for code, labels in ((WOODS, spec.woods), (ROUGH, spec.rough), (HILL, spec.hills),
                         (MARSH, spec.marsh), (IMPASSABLE, spec.impassable)):
        for label in labels:
            m.set_terrain(parse_hex(label), code)
    for code, labels in ((RIVER, spec.rivers), (STREAM, spec.streams)):
        for label in labels:
            h, d = hexside(label)
            m.set_hexside(h, d, code)
    for layer in (m.terrain, m.elevation, m.hexsides):
        layer.flags.writeable = False
    return remember(_MAPS, key, m, _MAPS_KEPT)


def _interned(s: str) -> str:
    """The one interned copy of ``s``, or ``s`` itself when it is a ``str`` subclass (an
    ``enum.StrEnum`` side in data built in Python), which ``sys.intern`` refuses."""
    return intern(s) if type(s) is str else s


def initial_state(s: AigScenario) -> GameState:
    """Build the map, place leaders and units, hand out banners and ammunition (D5).

    The counters' strings are interned: the scenario's parse makes one string per occurrence
    (``"red"`` once per counter), and a snapshot's pickle writes out every distinct object it
    meets, where a string met before is a two-byte reference to it (docs/design.md, round
    ``snap9``; about a twentieth of a snapshot). A ``str`` subclass (a ``StrEnum`` member) is
    kept as it is: ``sys.intern`` takes exact strings only."""
    m = build_map(s.map)
    units = {
        name: Unit(name, _interned(u.side), _interned(u.type), _interned(u.command), u.tq, u.ma, parse_hex(u.hex),
                   u.facing, _interned(u.missile), u.trained, u.skirmish, u.return_fire,
                   ammo=s.tables.weapons[u.missile].volleys if u.missile else 0,
                   back_type=_interned(u.back_type), back_ma=u.back_ma)
        for u in s.units for name in [_interned(u.name)]
    }
    leaders = {
        name: Leader(name, _interned(ld.side), _interned(ld.rank), _interned(ld.command), ld.range, ld.initiative,
                     ld.group_orders, ld.charisma, parse_hex(ld.hex), _interned(ld.superior),
                     [_interned(c) for c in ld.commands])
        for ld in s.leaders for name in [_interned(ld.name)]
    }
    banners = {side: Banner(side, _interned(b.carrier)) for b in s.banners for side in [_interned(b.side)]}
    return GameState(m, units, leaders, banners, s.tables,
                     {_interned(side): n for side, n in s.victory.withdrawal.items()}, s.victory.last_turn,
                     title=s.title)
