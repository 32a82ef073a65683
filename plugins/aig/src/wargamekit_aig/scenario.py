"""Scenario data (§2 components, D18 the scenario book): map, leaders, units, banners, tables.

Structured from TOML by cattrs (unknown keys and wrong types are rejected with their path);
:func:`check_scenario` adds what a type cannot express. Every table the rulebook lost or never
wrote (the missile table D3, the terrain chart D2, the shock table D8, withdrawal levels D17) is
scenario data with a default, labelled *provisional* on the docs page.
"""

from __future__ import annotations

import functools

from attrs import Factory, frozen

from wargamekit import ScenarioError
from wargamekit.geometry import Hex, HexLabels, OffsetLayout
from wargamekit.scenario import map_hex

#: The printed map: flat-top hexes, odd columns shoved down, labels start at 0101.
LAYOUT = OffsetLayout.ODD_Q
SIDES = ("red", "blue")

#: §2.2.1 unit types: cataphracts, heavy/light cavalry, heavy/medium/light infantry.
UNIT_TYPES = ("CT", "HC", "LC", "HI", "MI", "LI")
CAVALRY = frozenset({"CT", "HC", "LC"})
INFANTRY = frozenset({"HI", "MI", "LI"})
#: §4.2.1 ranks: the overall commander, ordinary commanders, junior leaders (inverted triangle).
RANKS = ("oc", "ordinary", "junior")
#: §9.1 missile weapons (the letters are lost, D22; these are provisional): composite bow, self bow,
#: sling, javelin. Firearms (§9.1.2) are an empty heading and are left out.
WEAPONS = ("A", "B", "S", "J")


#: How the map prints its hexes (``"0304"``: column 3, row 4; the first hex is 0101).
LABELS = HexLabels(LAYOUT, base=1)
parse_hex = LABELS.parse
#: A hex's printed label, remembered: every move option's data names its hex (tens of thousands
#: per game) and a label is a pure function of the hex.
hex_label = functools.lru_cache(maxsize=4096)(LABELS.label)
#: The hex a printed label names (:func:`parse_hex`), remembered: every move answered names its
#: hex by label, and parsing one is four calls into the core.
label_hex = functools.lru_cache(maxsize=4096)(LABELS.parse)


@frozen
class UnitSpec:
    """One combat-unit counter (§2.2.1).

    Attributes:
        name: unique id.
        side: ``"red"`` or ``"blue"``.
        type: CT, HC, LC, HI, MI or LI.
        command: the affiliation printed on top (group orders, §4.2.4).
        tq: troop quality (§2.2.1 bottom centre).
        ma: movement allowance (bottom right).
        hex: where it starts; ``facing``: the hex corner it points at (§7.1), 0..5.
        missile: the weapon letter (§9.1) or ``""``; ``trained``: the "specially trained"
            shape around it (D22, provisional +1 to hit); ``skirmish``: the "s" mark (§6.4,
            move and fire); ``return_fire``: the "R" mark (§9.2).
        back_ma, back_type: the dismounted back side (§2.2.1); kept as data only (D15).
    """

    name: str
    side: str
    type: str
    command: str
    tq: int
    ma: int
    hex: str
    facing: int = 0
    missile: str = ""
    trained: bool = False
    skirmish: bool = False
    return_fire: bool = False
    back_type: str = ""
    back_ma: int = 0


@frozen
class LeaderSpec:
    """One leader counter (§2.2.2): range – initiative – group orders – charisma.

    ``group_orders`` 0 is the printed "-" (no group orders). ``superior`` names a junior
    leader's commander (§4.3.3); ``commands`` the affiliations his group orders activate
    (D18; default his own ``command``).
    """

    name: str
    side: str
    rank: str
    command: str
    range: int
    initiative: int
    group_orders: int
    charisma: int
    hex: str
    superior: str = ""
    commands: list[str] = Factory(list)


@frozen
class MapSpec:
    """The map (§2.1; the terrain chart D2 is provisional, see :mod:`wargamekit_aig.terrain`)."""

    width: int
    height: int
    woods: list[str] = Factory(list)
    rough: list[str] = Factory(list)
    hills: list[str] = Factory(list)
    marsh: list[str] = Factory(list)
    impassable: list[str] = Factory(list)
    #: Hexsides as ``"0304/1"`` (hex label / direction 0..5).
    rivers: list[str] = Factory(list)
    streams: list[str] = Factory(list)


@frozen
class MissileWeapon:
    """One row of the lost missile table (D3, provisional): hit number by range, volleys."""

    name: str
    hit: list[int]
    volleys: int


def _default_weapons() -> dict[str, MissileWeapon]:
    # Provisional D3. The family's published tables (GBoH) give bows the longest reach and
    # javelins the shortest; numbers here fall by one per hex of range. See docs/rulesets/aig.md.
    return {
        "A": MissileWeapon("composite bow", [6, 5, 4, 3, 2], 5),
        "B": MissileWeapon("self bow", [5, 4, 3, 2], 5),
        "S": MissileWeapon("sling", [5, 4, 3], 4),
        "J": MissileWeapon("javelin", [6, 4], 3),
    }


def _default_shock_value() -> dict[str, int]:
    # Provisional D8: each type's weight in shock; the difference gives the column.
    return {"CT": 5, "HC": 4, "HI": 4, "MI": 3, "LC": 2, "LI": 1}


@frozen
class Tables:
    """The provisional tables (D3, D8, D17) a scenario may override."""

    weapons: dict[str, MissileWeapon] = Factory(_default_weapons)
    shock_value: dict[str, int] = Factory(_default_shock_value)
    #: D21: a leader stacked with a unit in melee is hit on a raw d10 at most this.
    leader_casualty: int = 0


@frozen
class Victory:
    """D17 (provisional): rout points at which each side's army withdraws (§3.4.d, §13)."""

    withdrawal: dict[str, int]
    #: Not from the source (it says "no turn limit", §3.4): a cap so every game ends; at the
    #: cap the side with the lower share of its withdrawal level wins.
    last_turn: int = 12


@frozen
class BannerSpec:
    """D12 (provisional): a side's banner and the leader who carries it (MA 6, §4.1)."""

    side: str
    carrier: str


@frozen
class AigScenario:
    """A battle."""

    title: str
    map: MapSpec
    leaders: list[LeaderSpec]
    units: list[UnitSpec]
    banners: list[BannerSpec]
    victory: Victory
    tables: Tables = Factory(Tables)
    notes: str = ""


def hexside(label: str) -> tuple[Hex, int]:
    """``"0304/1"`` → (hex 0304, direction 1)."""
    where, _, d = label.partition("/")
    if not d.isdigit() or not 0 <= int(d) <= 5:
        raise ValueError(f"hexside {label!r}: expected 'CCRR/D' with D in 0..5")
    return parse_hex(where), int(d)


def check_scenario(s: AigScenario, source: str | None = None) -> AigScenario:
    """Reject what types cannot: unknown sides, types, ranks, off-map hexes, doubled names."""

    def fail(path: str, message: str) -> ScenarioError:
        return ScenarioError(message, path=path, source=source)

    def on_map(label: str, path: str) -> Hex:
        return map_hex(LABELS, label, s.map.width, s.map.height, path=path, source=source)

    for kind in ("woods", "rough", "hills", "marsh", "impassable"):
        for i, label in enumerate(getattr(s.map, kind)):
            on_map(label, f"$.map.{kind}[{i}]")
    for kind in ("rivers", "streams"):
        for i, label in enumerate(getattr(s.map, kind)):
            try:
                hexside(label)
            except ValueError as exc:
                raise fail(f"$.map.{kind}[{i}]", str(exc)) from None
            on_map(label.partition("/")[0], f"$.map.{kind}[{i}]")
    names: set[str] = set()
    occupied: set[str] = set()
    for i, u in enumerate(s.units):
        path = f"$.units[{i}]"
        if u.side not in SIDES:
            raise fail(f"{path}.side", f"side {u.side!r} is not one of {list(SIDES)}")
        if u.type not in UNIT_TYPES:
            raise fail(f"{path}.type", f"unit type {u.type!r} is not one of {list(UNIT_TYPES)} (§2.2.1)")
        if u.missile and u.missile not in s.tables.weapons:
            raise fail(f"{path}.missile", f"weapon {u.missile!r} is not in the missile table {list(s.tables.weapons)}")
        if not 1 <= u.tq <= 9:
            raise fail(f"{path}.tq", f"TQ {u.tq} is outside 1..9 (§2.3: a d10 reads 0..9)")
        if u.ma < 1:
            raise fail(f"{path}.ma", "a unit's movement allowance is at least 1")
        if not 0 <= u.facing <= 5:
            raise fail(f"{path}.facing", f"facing {u.facing} is not a hex corner 0..5 (§7.1)")
        if u.name in names:
            raise fail(f"{path}.name", f"a second counter is called {u.name!r}")
        on_map(u.hex, f"{path}.hex")
        if u.hex in occupied:
            raise fail(f"{path}.hex", f"two combat units start in hex {u.hex} (D16: one unit per hex)")
        names.add(u.name)
        occupied.add(u.hex)
    leaders = {ld.name: ld for ld in s.leaders}
    for i, ld in enumerate(s.leaders):
        path = f"$.leaders[{i}]"
        if ld.side not in SIDES:
            raise fail(f"{path}.side", f"side {ld.side!r} is not one of {list(SIDES)}")
        if ld.rank not in RANKS:
            raise fail(f"{path}.rank", f"rank {ld.rank!r} is not one of {list(RANKS)} (§4.2.1)")
        if ld.name in names:
            raise fail(f"{path}.name", f"a second counter is called {ld.name!r}")
        names.add(ld.name)
        if not 0 <= ld.initiative <= 9 or ld.range < 0 or ld.group_orders < 0:
            raise fail(path, "initiative must be 0..9, range and group orders at least 0 (§2.2.2)")
        if ld.rank == "junior" and (ld.group_orders or ld.superior not in leaders):
            raise fail(path, "a junior leader has no group orders and names his superior (§4.3.3)")
        on_map(ld.hex, f"{path}.hex")
    for side in SIDES:
        ocs = [ld for ld in s.leaders if ld.side == side and ld.rank == "oc"]
        if len(ocs) != 1:
            raise fail("$.leaders", f"side {side!r} needs exactly one overall commander (§4.3.1), has {len(ocs)}")
        if side not in s.victory.withdrawal:
            raise fail("$.victory.withdrawal", f"no withdrawal level for side {side!r} (D17)")
        if not any(u.side == side for u in s.units):
            raise fail("$.units", f"side {side!r} has no units")
    for i, b in enumerate(s.banners):
        if b.carrier not in leaders or leaders[b.carrier].side != b.side:
            raise fail(f"$.banners[{i}].carrier", f"{b.carrier!r} is not a leader of side {b.side!r}")
    return s
