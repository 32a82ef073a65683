"""The game state: the map (SET 2), the counters on it and the markers (SET, ADM)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from attrs import define, field

from wargamekit.geometry import Hex, HexMap
from wargamekit.memo import remember
from wargamekit.state_rows import HexRows, StateRows
from wargamekit_lnl.data import BRUSH, BUILDING, COUNTERS, TERRAIN, WALL, WOODS, UnitType, WeaponType, effects
from wargamekit_lnl.scenario import LAYOUT, SIDES, LnLScenario, SniperTable, hex_label, parse_hex

__all__ = ["ACTION_MARKERS", "GameState", "Unit", "Weapon", "initial_state"]

#: Markers that show a unit has acted this turn (OPS 1, OPS 4, A12).
ACTION_MARKERS = frozenset({"move", "fire", "assault", "stealth", "crawl", "ops"})

#: Where a counter stands: a hex and a building level (0 = ground).
Place = tuple[Hex, int]


@define
class Weapon:
    """A light support weapon (SW) carried by a unit or lying loose in a hex."""

    id: str
    type: str
    jammed: bool = False
    stowed: bool = False  # a tripod MG packed up to be carried (MOV 1.3); it cannot fire so

    @property
    def usable(self) -> bool:
        """It can fire: not jammed (SW 3.4), not stowed (MOV 1.3)."""
        return not self.jammed and not self.stowed

    @property
    def spec(self) -> WeaponType:
        """Its counter values."""
        return COUNTERS.weapons[self.type]


@define
class Unit:
    """A counter on the map. ``shaken``: on its flipped side; ``wounded``: an SMC's wounded marker."""

    id: str
    side: str
    type: str
    hex: Hex
    level: int = 0
    weapons: list[Weapon] = field(factory=list)
    skill: str = ""
    shaken: bool = False
    wounded: bool = False
    alive: bool = True
    markers: set[str] = field(factory=set)
    rally_tries: int = 0
    facing: int = 0  # a vehicle's hull facing (hexside 0–5)
    turret: int = 0  # its turret facing

    @property
    def spec(self) -> UnitType:
        """Its counter values."""
        return COUNTERS.units[self.type]

    @property
    def kind(self) -> str:
        """squad, half, team, leader, hero, medic, sniper or scout."""
        return COUNTERS.units[self.type].kind  # self.spec.kind, inlined: the rules' commonest read

    @property
    def place(self) -> Place:
        """Hex and level."""
        return (self.hex, self.level)

    @property
    def good_order(self) -> bool:
        """Good Order (齐整状态): not shaken."""
        return not self.shaken

    @property
    def morale(self) -> int:
        """Morale, with a hero's skill."""
        bonus = COUNTERS.skills[self.skill].morale if self.skill else 0
        return self.spec.morale + bonus

    @property
    def leadership(self) -> int:
        """Leadership of a Good Order leader (LDR 3: −1 when wounded); 0 otherwise."""
        if self.kind != "leader" or self.shaken:
            return 0
        return max(0, self.spec.leadership - (1 if self.wounded else 0))

    @property
    def vehicle(self) -> bool:
        """A vehicle (VEH)."""
        return COUNTERS.units[self.type].vehicle is not None  # self.spec, inlined (as in kind)

    @property
    def set_up(self) -> bool:
        """It carries a tripod MG that is not stowed, and so may not move (MOV 1.3)."""
        for w in self.weapons:  # (a loop, no generator: asked of every mover at every step of a move)
            if w.spec.tripod and not w.stowed:
                return True
        return False

    @property
    def acted(self) -> bool:
        """Has an action marker this turn (A12: a unit acts once per turn)."""
        return bool(self.markers & ACTION_MARKERS)

    def label(self) -> str:
        """Its id and state, for the log and the terminal."""
        flags = ("shaken " if self.shaken else "") + ("wounded " if self.wounded else "")
        return f"{self.id} ({flags}{self.type})".replace(" )", ")")


@define
class GameState:
    """Everything that changes during a game."""

    map: HexMap
    units: dict[str, Unit]
    turns: int
    initiative: str
    objectives: list[Hex]
    control: dict[Hex, str]
    tie_winner: str
    snipers: dict[str, int] = field(factory=dict)  # snipers each side may still place (SMC 2.1)
    sniper_table: SniperTable = field(factory=SniperTable)  # the scenario's sniper table (D8)
    turn: int = 0
    phase: str = "set-up"
    heroes_created: dict[str, int] = field(factory=lambda: {s: 0 for s in SIDES})
    spotted: set[Place] = field(factory=set)
    smoke: dict[Hex, int] = field(factory=dict)
    melee: set[Place] = field(factory=set)
    melee_fought: set[Place] = field(factory=set)
    loose: dict[Place, list[Weapon]] = field(factory=dict)
    wrecks: dict[Hex, int] = field(factory=dict)
    counter: int = 0
    #: Restart bookkeeping (docs/design.md "Checkpoints"): the operations phase's impulse under
    #: way as (its number, the side taking it, the consecutive passes before it), so that a
    #: restart at an impulse goes on with the same sequence; ``None`` outside the phase.
    impulse: tuple[int, str, int] | None = None

    def alive(self, side: str | None = None) -> list[Unit]:
        """Units on the map (of ``side``), in set-up order."""
        # The hottest queries of the rules (every menu, fire and poll asks; a quarter of a
        # random game): one pass over the units, comparing coordinates rather than Hex objects
        # (attrs' __eq__) or each unit's place tuple.
        if side is None:
            return [u for u in self.units.values() if u.alive]
        return [u for u in self.units.values() if u.alive and u.side == side]

    def at(self, place: Place, side: str | None = None) -> list[Unit]:
        """Units at a hex and level (of ``side``)."""
        h, level = place
        q, r = h.q, h.r
        # The column first: it rules out most units at once (~200 queries a random game).
        if side is None:
            return [u for u in self.units.values() if u.hex.q == q and u.hex.r == r and u.level == level and u.alive]
        return [u for u in self.units.values()
                if u.hex.q == q and u.hex.r == r and u.level == level and u.alive and u.side == side]

    def in_hex(self, h: Hex, side: str | None = None) -> list[Unit]:
        """Units in a hex, any level (of ``side``)."""
        q, r = h.q, h.r
        return [u for u in self.units.values() if u.hex.q == q and u.hex.r == r and u.alive
                and (side is None or u.side == side)]

    def terrain(self, h: Hex) -> int:
        """The terrain code at a hex's centre (SET 2)."""
        # item(): a Python int at once (indexing makes a numpy scalar, then int() converts it);
        # the rules' commonest map read (exposure, the step costs, ~600 a random game).
        return self.map.terrain.item(*self.map.offset(h))

    def elevation(self, h: Hex) -> int:
        """The elevation at a hex's centre (SET 2; hills are 1)."""
        return self.map.elevation.item(*self.map.offset(h))  # (a Python int, as terrain's)

    def levels(self, h: Hex) -> int:
        """How many levels the hex has (1, or 2 for a two-storey building)."""
        return effects(self.terrain(h)).levels

    def wall(self, h: Hex, direction: int) -> bool:
        """A wall on that hexside."""
        return self.map.hexside(h, direction) == WALL

    def new_id(self, stem: str) -> str:
        """A fresh counter id (a hero, a half-squad)."""
        self.counter += 1
        return f"{stem}-{self.counter}"

    def __reduce__(self) -> tuple[Any, ...]:
        # Hot: the game pickles the state at checkpoints (a snapshot every eight answers or so,
        # ~36 a game). As attrs objects, each unit and its hex cost a call back into Python
        # (their reducers); as rows of plain values (the hex as two numbers) they pickle in C:
        # a fifth of a snapshot's instructions (docs/design.md "Checkpoints"). The rows hold the
        # units' own weapon lists and marker sets, so the pickle still keeps what they share.
        return _FORM.reduce(self)


def squad_equivalents(units: list[Unit]) -> float:
    """SET 3.1: squads (1), weapon teams (1), half-squads (½)."""
    return sum(1.0 if u.kind in ("squad", "team") else 0.5 if u.kind in ("half", "crew") else 0.0 for u in units)


def single_men(units: list[Unit]) -> int:
    """SET 3.2: single-man counters."""
    return sum(1 for u in units if u.spec.single_man)


def stacking_ok(units: list[Unit], wrecks: int = 0) -> bool:
    """SET 3 (A1: per side, per building level): ≤ 3 squad equivalents (crews as half-squads),
    ≤ 2 single-man counters, ≤ 2 vehicles and wrecks together (wrecks counted for every side)."""
    squads, men, vehicles = stacking_totals(units)
    return squads <= 3 and men <= 2 and vehicles + wrecks <= 2


def stacking_totals(units: Iterable[Unit]) -> tuple[float, int, int]:
    """SET 3's counts of ``units``: squad equivalents, single-man counters and vehicles — what
    :func:`stacking_ok` limits. Counts of two groups add up to the counts of both together (the
    step menu counts its movers once and adds each hex's friends)."""
    # squad_equivalents, single_men and the vehicles in one pass: every step menu tests each
    # hex it offers (the halves and wholes add exactly in any order).
    squads = 0.0
    men = vehicles = 0
    for u in units:
        spec = COUNTERS.units[u.type]
        kind = spec.kind
        if kind in ("squad", "team"):
            squads += 1.0
        elif kind in ("half", "crew"):
            squads += 0.5
        elif kind == "vehicle":
            vehicles += 1
        if spec.single_man:
            men += 1
    return squads, men, vehicles


def _scenario_map(s: LnLScenario) -> HexMap:
    """SET 2: a new map of the scenario's terrain, hills and walls, its layers its own (built once
    per terrain: the layers kept, each game given copies)."""
    t = s.terrain
    key = (s.width, s.height, tuple(t.brush), tuple(t.woods), tuple(t.buildings), tuple(t.hills),
           tuple((w.hex, w.side) for w in t.walls))
    layers = _MAP_LAYERS.get(key)
    if layers is None:
        hexmap = HexMap(s.width, s.height, TERRAIN, LAYOUT)
        for code, labels in ((BRUSH, t.brush), (WOODS, t.woods), (BUILDING, t.buildings)):
            for label in labels:
                hexmap.set_terrain(parse_hex(label), code)
        for label in t.hills:  # SET 2: the hex centre's elevation
            hexmap.elevation[hexmap.offset(parse_hex(label))] = 1
        for wall in t.walls:
            hexmap.set_hexside(parse_hex(wall.hex), wall.side, WALL)
        layers = remember(_MAP_LAYERS, key, (hexmap.terrain, hexmap.elevation, hexmap.hexsides), _MAPS_KEPT)
    terrain, elevation, hexsides = layers
    # (Copies: a game may write its map's layers; the kept ones stay as built.)
    return HexMap(s.width, s.height, TERRAIN, LAYOUT, terrain=terrain.copy(), elevation=elevation.copy(),
                  hexsides=hexsides.copy())


#: :func:`_scenario_map`'s layers by what they are built from: every game builds its map anew,
#: and parsing the labels and writing them one by one was ~0.5 % of a random game. Emptied
#: when full (a program making endless scenarios).
_MAP_LAYERS: dict[tuple[Any, ...], tuple[Any, Any, Any]] = {}
_MAPS_KEPT = 64


def initial_state(s: LnLScenario) -> GameState:
    """SET 1–4: build the map and place the counters (heroes without a skill draw it in play)."""
    hexmap = _scenario_map(s)
    # One Hex object per label: equal hexes that are one object compare and hash as dict and
    # set keys by identity (places, control), not through attrs' __eq__ (two tuples a call).
    hexes: dict[str, Hex] = {}

    def at(label: str) -> Hex:
        h = hexes.get(label)
        if h is None:
            h = hexes[label] = parse_hex(label)
        return h

    units: dict[str, Unit] = {}
    n = 0
    for spec in s.units:
        weapons = []
        for w in spec.weapons:
            n += 1
            weapons.append(Weapon(f"{w}-{n}", w))
        units[spec.id] = Unit(spec.id, spec.side, spec.type, at(spec.hex), spec.level, weapons, spec.skill,
                              facing=spec.facing, turret=spec.facing)
    objectives = [at(h) for h in s.objectives]
    control = {at(h): side for side, labels in s.control.items() for h in labels}
    state = GameState(hexmap, units, s.turns, s.initiative, objectives, control,
                      s.tie_winner, dict(s.snipers), s.sniper_table)
    for side in SIDES:
        for place in {u.place for u in state.alive(side)}:
            if not stacking_ok(state.at(place, side)):
                from wargamekit import ScenarioError

                raise ScenarioError(f"{side} overstacks {hex_label(place[0])} level {place[1]} (SET 3)", path="$.units")
    return state


#: GameState.__reduce__: the state's field values, and its units as rows (their hex as q and r).
_FORM = StateRows(GameState, HexRows(Unit))


from wargamekit import RulesContext  # noqa: E402  (the alias needs both classes above)

#: What the ruleset's rule procedures receive.
Context = RulesContext[GameState, LnLScenario]
