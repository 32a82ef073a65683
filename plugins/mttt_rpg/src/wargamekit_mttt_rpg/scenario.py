"""Scenario files (TOML): who fights, where (range bands) and under which scene rules.

A unit names a character sheet (``sheet``) or a battle group (``group``) from the package's
data files. Unknown keys, wrong types and unknown sheet or group names are refused with a
:class:`~wargamekit.errors.ScenarioError` naming the path (``$.units[2].sheet``).
"""

from __future__ import annotations

from attrs import field, frozen

from wargamekit.errors import ScenarioError

from .battle_groups import magnitude_max
from .ranges import ASTRONOMICAL, pair
from .resources import hp_from_constitution
from .sheets import library
from .state import ABSENT, ACTIVE, Combatant, Scene

__all__ = ["DistanceSpec", "MtttScenario", "UnitSpec", "WarfareSpec", "build_scene", "validate"]

SIDES = ("heroes", "foes")
COVERS = ("none", "light", "heavy", "full")


@frozen
class UnitSpec:
    """One combatant of the scene."""

    id: str
    side: str
    sheet: str = ""
    group: str = ""
    noncombatant: bool = False
    trivial: bool = False
    weapon: str = ""
    joins_round: int = 1
    prepared: bool = True
    cover: str = "none"
    cover_available: str = "none"
    cover_difficulty: int = 12
    prone: bool = False
    leader_of: list[str] = field(factory=list)


@frozen
class DistanceSpec:
    """The starting band between two combatants."""

    a: str
    b: str
    band: int


@frozen
class WarfareSpec:
    """Strategic warfare before the battle: each side's general."""

    heroes: str
    foes: str


@frozen
class MtttScenario:
    """A combat scene."""

    name: str
    units: list[UnitSpec]
    description: str = ""
    round_limit: int = 12
    boss_fight: bool = False
    #: 先导崩溃, the broader reading: crash also strips gear's and spells' parry, dodge,
    #: toughness and defense bonuses, not only protection (防护).
    crash_strips_gear: bool = False
    default_band: int = 2
    withdraw_difficulty: int = 1
    distances: list[DistanceSpec] = field(factory=list)
    warfare: WarfareSpec | None = None


def _fail(message: str, path: str, source: str | None) -> None:
    raise ScenarioError(message, path=path, source=source)


def validate(scenario: MtttScenario, source: str | None = None) -> MtttScenario:
    """Cross-field checks, each failing with the path of the bad field."""
    lib = library()
    ids: list[str] = []
    if scenario.round_limit < 1:
        _fail("round_limit must be at least 1", "$.round_limit", source)
    if not 0 <= scenario.default_band <= ASTRONOMICAL:
        _fail(f"default_band must be 0..{ASTRONOMICAL}", "$.default_band", source)
    for i, u in enumerate(scenario.units):
        where = f"$.units[{i}]"
        if u.id in ids:
            _fail(f"duplicate unit id {u.id!r}", f"{where}.id", source)
        ids.append(u.id)
        if u.side not in SIDES:
            _fail(f"side must be one of {list(SIDES)}, not {u.side!r}", f"{where}.side", source)
        if bool(u.sheet) == bool(u.group):
            _fail("give exactly one of sheet or group", where, source)
        if u.sheet and u.sheet not in lib.characters:
            _fail(f"unknown character sheet {u.sheet!r}", f"{where}.sheet", source)
        if u.group and u.group not in lib.groups:
            _fail(f"unknown battle group {u.group!r}", f"{where}.group", source)
        sheet = lib.characters[u.sheet] if u.sheet else lib.characters[lib.groups[u.group].member]
        if u.weapon and u.weapon not in sheet.weapons:
            _fail(
                f"{u.weapon!r} is not one of the sheet's weapons {sheet.weapons}", f"{where}.weapon", source
            )
        for field_name in ("cover", "cover_available"):
            if getattr(u, field_name) not in COVERS:
                _fail(f"{field_name} must be one of {list(COVERS)}", f"{where}.{field_name}", source)
        if u.joins_round < 1:
            _fail("joins_round must be at least 1", f"{where}.joins_round", source)
        if u.joins_round > scenario.round_limit:
            _fail(
                f"joins_round {u.joins_round} is after the round limit ({scenario.round_limit}): "
                "the combatant would never join the fight",
                f"{where}.joins_round",
                source,
            )
    for i, u in enumerate(scenario.units):
        for j, g in enumerate(u.leader_of):
            if g not in ids or not scenario.units[ids.index(g)].group:
                _fail(f"{g!r} is not a battle group of this scene", f"$.units[{i}].leader_of[{j}]", source)
    for i, d in enumerate(scenario.distances):
        for end in ("a", "b"):
            if getattr(d, end) not in ids:
                _fail(f"unknown unit {getattr(d, end)!r}", f"$.distances[{i}].{end}", source)
        if not 0 <= d.band <= ASTRONOMICAL:
            _fail(f"band must be 0..{ASTRONOMICAL}", f"$.distances[{i}].band", source)
    if scenario.warfare is not None:
        for side in SIDES:
            gid = getattr(scenario.warfare, side)
            if gid not in ids or scenario.units[ids.index(gid)].side != side:
                _fail(f"{gid!r} is not a unit of the {side}", f"$.warfare.{side}", source)
    if not any(u.side == "heroes" for u in scenario.units) or not any(
        u.side == "foes" for u in scenario.units
    ):
        _fail("a scene needs units on both sides", "$.units", source)
    return scenario


def build_scene(scenario: MtttScenario) -> Scene:
    """The scene before the first round (no dice: join battle is rolled in play)."""
    lib = library()
    combatants: dict[str, Combatant] = {}
    for u in scenario.units:
        if u.group:
            gsheet = lib.groups[u.group]
            member = lib.characters[gsheet.member]
            c = Combatant(u.id, gsheet.name, u.side, "group", gsheet.member, group_key=u.group)
            c.size = gsheet.size
            c.magnitude_max = magnitude_max(
                member.health_levels, gsheet.size, perfect_morale=gsheet.perfect_morale
            )
            c.magnitude = c.magnitude_max
            sheet = member
        else:
            sheet = lib.characters[u.sheet]
            kind = "noncombatant" if u.noncombatant else "character"
            c = Combatant(u.id, sheet.name, u.side, kind, u.sheet, trivial=u.trivial)
            c.hp_max = hp_from_constitution(sheet.attributes["constitution"])
            c.hp = c.hp_max
            c.chaos_phase = sheet.chaos_phases
            c.soul_jade = sheet.soul_jade
        c.weapon = u.weapon or (sheet.weapons[0] if sheet.weapons else "")
        c.joins_round = u.joins_round
        c.prepared = u.prepared
        c.status = ACTIVE if u.joins_round <= 1 else ABSENT
        c.cover = u.cover
        c.cover_available = u.cover_available
        c.cover_difficulty = u.cover_difficulty
        c.prone = u.prone
        c.leader_of = list(u.leader_of)
        combatants[u.id] = c
    distances = {}
    ids = list(combatants)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            distances[pair(a, b)] = scenario.default_band
    for d in scenario.distances:
        distances[pair(d.a, d.b)] = d.band
    return Scene(
        combatants=combatants,
        distances=distances,
        round_limit=scenario.round_limit,
        boss_fight=scenario.boss_fight,
        crash_strips_gear=scenario.crash_strips_gear,
        withdraw_difficulty=scenario.withdraw_difficulty,
    )
