"""Scenarios (SET 1, D10): map, terrain, forces, turns, initiative and victory, as TOML data.

The source has no scenario book (剧本想定书, U2): every scenario bundled here is provisional
and labelled so on the docs page.
"""

from __future__ import annotations

from attrs import Factory, frozen

from wargamekit import ScenarioError
from wargamekit.geometry import Hex, HexLabels, OffsetLayout
from wargamekit.scenario import map_hex
from wargamekit_lnl.data import COUNTERS

__all__ = ["LAYOUT", "SIDES", "LnLScenario", "SniperTable", "check_scenario", "hex_label", "parse_hex"]

#: Flat-top hexes, odd columns shoved down, printed labels from 0101.
LAYOUT = OffsetLayout.ODD_Q
SIDES = ("us", "german")


#: How the map prints its hexes (``"0304"``: column 3, row 4; the first hex is 0101).
LABELS = HexLabels(LAYOUT, base=1)
parse_hex = LABELS.parse
#: (q, r) -> printed label, for :func:`hex_label`.
_LABEL_OF: dict[tuple[int, int], str] = {}


def hex_label(h: Hex) -> str:
    """The printed label of ``h`` (``"0304"``).

    Memoized: every place in an option's data and label, and every event, is written this way
    (tens of thousands of times in a game, on a map of at most a few hundred hexes).

    Raises:
        HexLabelError: the hex has no four-digit label.
    """
    key = (h.q, h.r)
    label = _LABEL_OF.get(key)
    if label is None:
        label = _LABEL_OF[key] = LABELS.label(h)
    return label


@frozen
class UnitSpec:
    """One counter at set-up (SET 1). ``skill`` empty for a hero: drawn at random (HER 1)."""

    id: str
    side: str
    type: str
    hex: str
    level: int = 0
    weapons: list[str] = Factory(list)
    skill: str = ""
    facing: int = 0


@frozen
class WallSpec:
    """A wall on one hexside of ``hex`` (direction 0–5)."""

    hex: str
    side: int


@frozen
class TerrainSpec:
    """The hexes that are not open ground, and the hills (elevation 1)."""

    brush: list[str] = Factory(list)
    woods: list[str] = Factory(list)
    buildings: list[str] = Factory(list)
    walls: list[WallSpec] = Factory(list)
    hills: list[str] = Factory(list)  # hexes at elevation 1 (SET 2, LOS 3.3); their terrain is as listed above


@frozen
class SniperTable:
    """The sniper's attack table (SMC 2.3, D8) — PROVISIONAL, not from the source: 2D6 + the
    target's terrain DRM + 1 per hindering hex; at or below ``casualty`` a casualty, at or below
    ``shaken`` a shaken result."""

    casualty: int = 4
    shaken: int = 6


@frozen
class LnLScenario:
    """A scenario: the map, the forces, the length, the initiative and the victory condition."""

    title: str
    units: list[UnitSpec]
    objectives: list[str]
    tie_winner: str
    width: int = 12
    height: int = 10
    turns: int = 6
    initiative: str = "us"
    terrain: TerrainSpec = Factory(TerrainSpec)
    control: dict[str, list[str]] = Factory(dict)
    snipers: dict[str, int] = Factory(dict)
    sniper_table: SniperTable = Factory(SniperTable)
    note: str = ""


#: (label, map width, map height) of the labels :func:`check_scenario` found on such a map;
#: emptied when full.
_ON_MAP: set[tuple[str, int, int]] = set()
_ON_MAP_KEPT = 4096


def check_scenario(s: LnLScenario, source: str | None = None) -> LnLScenario:
    """Reject what types cannot: unknown sides/types/weapons/skills, bad or off-map hexes, doubled
    ids, levels a hex does not have, more SWs than a unit may carry (SW 1)."""

    def fail(path: str, message: str) -> ScenarioError:
        return ScenarioError(message, path=path, source=source)

    def on_map(label: str, path: str) -> None:
        # Each label checked once per map size (every game loads its scenario again).
        key = (label, s.width, s.height)
        if key not in _ON_MAP:
            map_hex(LABELS, label, s.width, s.height, path=path, source=source)
            if len(_ON_MAP) >= _ON_MAP_KEPT:
                _ON_MAP.clear()
            _ON_MAP.add(key)

    for name, side in (("initiative", s.initiative), ("tie_winner", s.tie_winner)):
        if side not in SIDES:
            raise fail(f"$.{name}", f"side {side!r} is not one of {list(SIDES)}")
    if s.turns < 1:
        raise fail("$.turns", "a game lasts at least one turn")
    for kind in ("brush", "woods", "buildings", "hills"):
        for i, label in enumerate(getattr(s.terrain, kind)):
            on_map(label, f"$.terrain.{kind}[{i}]")
    for i, wall in enumerate(s.terrain.walls):
        on_map(wall.hex, f"$.terrain.walls[{i}].hex")
        if not 0 <= wall.side <= 5:
            raise fail(f"$.terrain.walls[{i}].side", f"hexside {wall.side} is not 0..5")
    for i, label in enumerate(s.objectives):
        on_map(label, f"$.objectives[{i}]")
    for side, labels in s.control.items():
        if side not in SIDES:
            raise fail(f"$.control.{side}", f"side {side!r} is not one of {list(SIDES)}")
        for i, label in enumerate(labels):
            on_map(label, f"$.control.{side}[{i}]")
    for side, count in s.snipers.items():
        if side not in SIDES:
            raise fail(f"$.snipers.{side}", f"side {side!r} is not one of {list(SIDES)}")
        if count < 0:
            raise fail(f"$.snipers.{side}", f"{count} snipers: a count is 0 or more (SMC 2.1)")
    if not 2 <= s.sniper_table.casualty <= s.sniper_table.shaken:
        raise fail("$.sniper_table", "the sniper table needs 2 <= casualty <= shaken (SMC 2.3, D8)")
    seen: set[str] = set()
    for i, u in enumerate(s.units):
        path = f"$.units[{i}]"
        if u.side not in SIDES:
            raise fail(f"{path}.side", f"side {u.side!r} is not one of {list(SIDES)}")
        if u.id in seen:
            raise fail(f"{path}.id", f"a second unit is called {u.id!r}")
        seen.add(u.id)
        if u.type not in COUNTERS.units:
            raise fail(f"{path}.type", f"no counter type {u.type!r}; there are {sorted(COUNTERS.units)}")
        on_map(u.hex, f"{path}.hex")
        levels = 2 if u.hex in s.terrain.buildings else 1
        if not 0 <= u.level < levels:
            raise fail(f"{path}.level", f"hex {u.hex} has no level {u.level} (SET 4: it has {levels})")
        for j, w in enumerate(u.weapons):
            if w not in COUNTERS.weapons:
                raise fail(f"{path}.weapons[{j}]", f"no support weapon {w!r}; there are {sorted(COUNTERS.weapons)}")
        kind = COUNTERS.units[u.type].kind
        if kind == "sniper":
            raise fail(f"{path}.type", "SMC 2.1: snipers are not deployed at the start; give the side one in `snipers`")
        limit = {"squad": 2, "half": 1, "team": 1, "medic": 0, "sniper": 0, "vehicle": 0}.get(kind, 1)
        if len(u.weapons) > limit:
            raise fail(f"{path}.weapons", f"a {kind} carries at most {limit} support weapon(s) (SW 1, SMC 1.1)")
        if not 0 <= u.facing <= 5:
            raise fail(f"{path}.facing", f"facing {u.facing} is not a hexside 0..5")
        if kind == "vehicle" and u.hex in s.terrain.buildings:
            raise fail(f"{path}.hex", "a vehicle cannot stand in a building (D2)")
        if u.skill and u.skill not in COUNTERS.skills:
            raise fail(f"{path}.skill", f"no hero skill {u.skill!r}; there are {sorted(COUNTERS.skills)}")
    for side in SIDES:
        if not any(u.side == side for u in s.units):
            raise fail("$.units", f"side {side!r} has no units")
    return s
