"""Maps: terrain grids and deployment zones (开场阶段 3. 行军布阵; 标准规则修改部分 3, 4).

The source names its maps (真理地图, 桑达斯, 黑森峰STAGE1) but shows them only as missing
pictures, so the shipped maps are provisional data (``maps/*.toml``), NOT from the source.

A map file has ``rows`` of terrain letters (``.`` clear, ``F`` forest, ``M`` mountain, ``R``
river), north first, and a ``north`` and a ``south`` deployment zone given as column and row
ranges in printed label numbers (labels ``CCRR`` start at ``0101``).

>>> m = load_map("pravda")
>>> m.width, m.height, m.terrain_at(label_hex("0106"))
(14, 12, 'river')
>>> hex_label(m.zone_hexes("north")[0])
'0101'
"""

from __future__ import annotations

import math
from functools import cache
from importlib import resources

from attrs import frozen

from wargamekit.errors import ScenarioError
from wargamekit.geometry import BLOCKING, CLEAR, Hex, HexLabels, HexMap, OffsetLayout, TerrainTable, TerrainType
from wargamekit.scenario import read_toml_text, structure

__all__ = [
    "FACING_NAMES",
    "LAYOUT",
    "TERRAIN",
    "TERRAIN_LETTERS",
    "Map",
    "Zone",
    "facing_name",
    "hex_label",
    "label_hex",
    "load_map",
    "map_names",
]

LAYOUT = OffsetLayout.ODD_Q

#: Terrain letter -> (code, name). Forest and mountain cannot be entered and block sight; a river
#: costs 2 to enter (标准规则修改部分 3; 4 ii).
TERRAIN_LETTERS: dict[str, tuple[int, str]] = {
    ".": (0, "clear"),
    "F": (1, "forest"),
    "M": (2, "mountain"),
    "R": (3, "river"),
}

TERRAIN = TerrainTable(
    [
        TerrainType(0, "clear", 1, los=CLEAR),
        TerrainType(1, "forest", math.inf, los=BLOCKING),
        TerrainType(2, "mountain", math.inf, los=BLOCKING),
        TerrainType(3, "river", 2, los=CLEAR),
    ]
)

#: Flat-top directions 0..5 (see wargamekit.geometry.hex) by compass name.
FACING_NAMES: tuple[str, ...] = ("SE", "NE", "N", "NW", "SW", "S")


def facing_name(direction: int) -> str:
    """Compass name of a hexside direction (``2`` -> ``"N"``)."""
    return FACING_NAMES[direction % 6]


#: How the tank maps print their hexes (``CCRR``, first hex ``0101``).
LABELS = HexLabels(LAYOUT, base=1)
hex_label = LABELS.label
label_hex = LABELS.parse


@frozen
class Zone:
    """A rectangular deployment zone, inclusive ranges of printed column and row numbers."""

    cols: list[int]
    rows: list[int]


@frozen
class _MapFile:
    name: str
    rows: list[str]
    zones: dict[str, Zone]


@frozen(eq=False)
class Map:
    """A playable map: its :class:`~wargamekit.geometry.HexMap` and deployment zones."""

    key: str
    name: str
    rows: tuple[str, ...]
    zones: dict[str, Zone]
    hexmap: HexMap

    @property
    def width(self) -> int:
        """Columns."""
        return self.hexmap.width

    @property
    def height(self) -> int:
        """Rows."""
        return self.hexmap.height

    def terrain_at(self, h: Hex) -> str:
        """Terrain name of a map hex."""
        col, row = self.hexmap.offset(h)
        return TERRAIN_LETTERS[self.rows[row][col]][1]

    def enterable(self, h: Hex) -> bool:
        """True if ``h`` is on the map and not forest or mountain."""
        return h in self.hexmap and self.terrain_at(h) not in ("forest", "mountain")

    def zone_hexes(self, zone: str) -> list[Hex]:
        """The enterable hexes of deployment zone ``"north"`` or ``"south"``, in label order."""
        return list(_zone_hexes(self, zone))


@cache
def _zone_hexes(m: Map, zone: str) -> tuple[Hex, ...]:
    # cached: a map never changes, and every deployment asks for its zone again
    z = m.zones[zone]
    out = []
    for col in range(z.cols[0], z.cols[1] + 1):
        for row in range(z.rows[0], z.rows[1] + 1):
            h = Hex.from_offset(col - 1, row - 1, LAYOUT)
            if m.enterable(h):
                out.append(h)
    return tuple(out)


def map_names() -> list[str]:
    """The shipped maps' keys."""
    root = resources.files("wargamekit_tank_solo.maps")
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml"))


def parse_map(key: str, text: str) -> Map:
    """Build a map from TOML text, or raise :class:`ScenarioError` naming the bad field."""
    source = f"maps/{key}.toml"
    raw = structure(read_toml_text(text, source=source), _MapFile, source=source)
    if not raw.rows:
        raise ScenarioError("a map needs at least one row", path="$.rows", source=source)
    width = len(raw.rows[0])
    hexmap = HexMap(width, len(raw.rows), TERRAIN, LAYOUT)
    for r, line in enumerate(raw.rows):
        if len(line) != width:
            raise ScenarioError(f"row has {len(line)} letters, expected {width}", path=f"$.rows[{r}]", source=source)
        for c, letter in enumerate(line):
            if letter not in TERRAIN_LETTERS:
                raise ScenarioError(
                    f"unknown terrain letter {letter!r} (known: {''.join(TERRAIN_LETTERS)})",
                    path=f"$.rows[{r}]",
                    source=source,
                )
            hexmap.terrain[c, r] = TERRAIN_LETTERS[letter][0]
    hexmap.invalidate()
    for side in ("north", "south"):
        if side not in raw.zones:
            raise ScenarioError(f"missing the {side} deployment zone", path="$.zones", source=source)
        z = raw.zones[side]
        for what, rng, limit in (("cols", z.cols, width), ("rows", z.rows, len(raw.rows))):
            if len(rng) != 2 or not 1 <= rng[0] <= rng[1] <= limit:
                raise ScenarioError(
                    f"expected [first, last] within 1..{limit}", path=f"$.zones.{side}.{what}", source=source
                )
    return Map(key=key, name=raw.name, rows=tuple(raw.rows), zones=dict(raw.zones), hexmap=hexmap)


@cache
def load_map(key: str) -> Map:
    """The shipped map ``key`` (cached: maps are never changed during play).

    Raises:
        LookupError: no such map.
    """
    resource = resources.files("wargamekit_tank_solo.maps") / f"{key}.toml"
    if not resource.is_file():
        raise LookupError(f"no map {key!r}; maps are {map_names()}")
    return parse_map(key, resource.read_text("utf-8"))
