"""The game state: the map (rules section 1) and the units (section 2)."""

from __future__ import annotations

import copy
import functools

from attrs import define, field

from wargamekit.geometry import BLOCKING, CLEAR, HINDERING, Hex, HexMap, TerrainTable, TerrainType
from wargamekit.memo import remember
from wargamekit_skirmish.scenario import LAYOUT, SkirmishScenario, parse_hex

CLEAR_CODE, WOODS, HILL = 0, 1, 2
#: 1. Terrain: cost to enter, and what it does to line of sight (woods hinder, hills block).
TERRAIN = TerrainTable([
    TerrainType(CLEAR_CODE, "clear", 1, los=CLEAR),
    TerrainType(WOODS, "woods", 2, los=HINDERING),
    TerrainType(HILL, "hill", 2, los=BLOCKING),
])


@define
class Unit:
    """A unit on the map. ``steps`` is 2 at full strength, 1 when damaged, 0 when eliminated."""

    name: str
    side: str
    hex: Hex
    facing: int
    move: int
    firepower: int
    max_range: int
    steps: int = 2
    spent: bool = False

    @property
    def alive(self) -> bool:
        """Still on the map."""
        return self.steps > 0


@define
class SkirmishState:
    """Everything that changes during a game."""

    map: HexMap
    units: dict[str, Unit]
    turns: int
    turn: int = 0
    active: str | None = None
    #: impulses taken this turn (``None`` between turns) and the side that took the last one:
    #: where a restart at a checkpoint goes on from (3.2).
    impulse: int | None = None
    last_side: str | None = None
    #: Enemy steps each side has destroyed (8. Victory).
    destroyed: dict[str, int] = field(factory=lambda: {"blue": 0, "red": 0})

    def alive(self, side: str | None = None) -> list[Unit]:
        """Units on the map (of ``side``), in scenario order."""
        # hot (every activation and shot asks it): the steps read directly, one test per unit
        if side is None:
            return [u for u in self.units.values() if u.steps > 0]
        return [u for u in self.units.values() if u.steps > 0 and u.side == side]

    def unit_at(self, h: Hex) -> Unit | None:
        """The live unit in ``h``, if any."""
        return next((u for u in self.alive() if u.hex == h), None)


def in_woods(hexmap: HexMap, h: Hex) -> bool:
    """Whether map hex ``h`` is woods (1. Terrain).

    Hot (concealment, 7, and cover, 5.2, ask it for every unit many times a turn): the map's
    woods hexes are found once per map content and kept, not looked up in its layers each time.
    """
    # kept by map and checked against its content (compared, not hashed: hot); a new map with
    # the same content (every game copies its terrain's map) finds the woods found before
    content = (hexmap.width, hexmap.height, hexmap.layout, hexmap.terrain.tobytes())
    held = _MAP_WOODS.get(id(hexmap))
    if held is None or held[0] != content:
        woods = _WOODS.get(content)
        if woods is None:
            woods = frozenset(x for x in hexmap.hexes() if hexmap.terrain[hexmap.offset(x)] == WOODS)
            remember(_WOODS, content, woods, 16)  # a few maps in use at a time: keep the memory bounded
        held = remember(_MAP_WOODS, id(hexmap), (content, woods), 64)
    return h in held[1]


#: map content -> its woods hexes (see :func:`in_woods`)
_WOODS: dict[tuple[object, ...], frozenset[Hex]] = {}
#: id of a map -> (its content, its woods hexes): a map with that id later (the first one gone)
#: is another map only if its content differs
_MAP_WOODS: dict[int, tuple[tuple[object, ...], frozenset[Hex]]] = {}


def initial_state(s: SkirmishScenario) -> SkirmishState:
    """Build the map and place the units."""
    # A copy of the terrain's map: its own layers, with the movement graph and line-of-sight
    # tables the first game on that terrain built (a HexMap's copies share what derives from
    # its layers until one is written to). Building them was a tenth of a random game.
    hexmap = copy.deepcopy(_terrain_map(s.width, s.height, tuple(s.terrain.woods), tuple(s.terrain.hills)))
    units = {u.name: Unit(u.name, u.side, parse_hex(u.hex), u.facing, u.move, u.firepower, u.max_range)
             for u in s.units}
    return SkirmishState(hexmap, units, s.turns)


@functools.lru_cache(maxsize=16)
def _terrain_map(width: int, height: int, woods: tuple[str, ...], hills: tuple[str, ...]) -> HexMap:
    """The map of a terrain (never given out: :func:`initial_state` copies it), with what the
    rules ask of every map built once: the movement graph and the line-of-sight tables."""
    hexmap = HexMap(width, height, TERRAIN, LAYOUT)
    for code, labels in ((WOODS, woods), (HILL, hills)):
        for label in labels:
            hexmap.set_terrain(parse_hex(label), code)
    corner = hexmap.hex_at(0, 0)
    hexmap.reachable(corner, 1, "infantry")
    hexmap.line_of_sight(corner, hexmap.hex_at(width - 1, height - 1), edge="worse")
    return hexmap
