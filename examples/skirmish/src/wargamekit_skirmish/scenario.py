"""The scenario file (rules section 1 and 2): map size, terrain, turn limit and units.

Structured from TOML by cattrs (unknown keys and wrong types are rejected with the path);
:func:`check_scenario` adds the checks a type cannot express.
"""

from __future__ import annotations

from attrs import Factory, frozen

from wargamekit import ScenarioError
from wargamekit.geometry import Hex, HexLabels, OffsetLayout
from wargamekit.scenario import map_hex

#: The printed map: flat-top hexes, odd columns shoved down, labels start at 0101.
LAYOUT = OffsetLayout.ODD_Q
SIDES = ("blue", "red")
#: 2. Units: the firepower a unit may have. At least 1, so a damaged unit fires with 0 or more;
#: at most 10, since 2d6 + 10 reaches the 12 that kills on every roll but the natural 2 (5.2).
MIN_FIREPOWER, MAX_FIREPOWER = 1, 10
#: 2. Units: the maximum range a unit may have, in hexes (provisional, as the default values).
MAX_RANGE = 12


#: How the skirmish map prints its hexes (``"0304"``: column 3, row 4; the first hex is 0101).
LABELS = HexLabels(LAYOUT, base=1)
parse_hex = LABELS.parse
hex_label = LABELS.label


@frozen
class UnitSpec:
    """One unit: rules section 2 (provisional default values)."""

    name: str
    side: str
    hex: str
    facing: int = 0
    move: int = 4
    firepower: int = 2
    max_range: int = 5


@frozen
class TerrainSpec:
    """Hexes that are not clear (rules section 1)."""

    woods: list[str] = Factory(list)
    hills: list[str] = Factory(list)


@frozen
class SkirmishScenario:
    """A skirmish scenario."""

    title: str
    units: list[UnitSpec]
    width: int = 10
    height: int = 8
    turns: int = 6
    first: str = "blue"
    terrain: TerrainSpec = Factory(TerrainSpec)


def check_scenario(s: SkirmishScenario, source: str | None = None) -> SkirmishScenario:
    """Reject what types cannot: unknown sides, bad or off-map hexes, doubled names or hexes."""

    def fail(path: str, message: str) -> ScenarioError:
        return ScenarioError(message, path=path, source=source)

    def on_map(label: str, path: str) -> Hex:
        return map_hex(LABELS, label, s.width, s.height, path=path, source=source)

    if s.first not in SIDES:
        raise fail("$.first", f"side {s.first!r} is not one of {list(SIDES)}")
    if s.turns < 1:
        raise fail("$.turns", "a game lasts at least one turn")
    for kind in ("woods", "hills"):
        for i, label in enumerate(getattr(s.terrain, kind)):
            on_map(label, f"$.terrain.{kind}[{i}]")
    seen: dict[str, str] = {}
    for i, u in enumerate(s.units):
        if u.side not in SIDES:
            raise fail(f"$.units[{i}].side", f"side {u.side!r} is not one of {list(SIDES)}")
        if u.name in seen:
            raise fail(f"$.units[{i}].name", f"a second unit is called {u.name!r}")
        if not MIN_FIREPOWER <= u.firepower <= MAX_FIREPOWER:
            raise fail(f"$.units[{i}].firepower",
                       f"firepower {u.firepower} is not {MIN_FIREPOWER}..{MAX_FIREPOWER} (2. Units)")
        if not 1 <= u.max_range <= MAX_RANGE:
            raise fail(f"$.units[{i}].max_range", f"maximum range {u.max_range} is not 1..{MAX_RANGE} (2. Units)")
        if u.move < 0:
            raise fail(f"$.units[{i}].move", f"movement {u.move} is negative (2. Units)")
        if not 0 <= u.facing <= 5:
            raise fail(f"$.units[{i}].facing", f"facing {u.facing} is not a hexside 0..5")
        on_map(u.hex, f"$.units[{i}].hex")
        if u.hex in seen.values():
            raise fail(f"$.units[{i}].hex", f"two units start in hex {u.hex} (2. Units: one unit per hex)")
        seen[u.name] = u.hex
    for side in SIDES:
        if not any(u.side == side for u in s.units):
            raise fail("$.units", f"side {side!r} has no units")
    return s
