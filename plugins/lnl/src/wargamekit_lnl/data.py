"""Provisional tables: counters (LEG, D1), terrain (D2, D3), the damage-check table (DFT, D4),
the melee table (D5), hero skills (D9) and smoke (D13).

None of these values is in the source (a rules summary whose counter legend and charts are
lost); each is labelled on the docs page with the reason for the values chosen.
"""

from __future__ import annotations

import math
import tomllib
from functools import cache
from importlib import resources

from attrs import Factory, frozen

from wargamekit.geometry import BLOCKING, CLEAR, HINDERING, HexsideFeature, TerrainTable, TerrainType
from wargamekit.scenario import structure

__all__ = [
    "BRUSH",
    "BUILDING",
    "COUNTERS",
    "Counters",
    "DFT_CASUALTY_MARGIN",
    "MELEE_KILL",
    "OPEN",
    "TERRAIN",
    "TERRAIN_NAMES",
    "TerrainEffects",
    "UnitType",
    "WALL",
    "WOODS",
    "Skill",
    "WeaponType",
    "counters",
    "effects",
    "melee_column",
    "kill_number",
]

#: Vehicle movement costs per movement type (VEH 2, U15, D2; provisional; inf = prohibited).
VEHICLE_COST = {
    "T": {0: 1, 1: 2, 2: 4, 3: math.inf},
    "O": {0: 1, 1: 2, 2: 6, 3: math.inf},
    "R": {0: 2, 1: 4, 2: math.inf, 3: math.inf},
}
#: Crossing a wall costs a vehicle this much more (D2).
VEHICLE_WALL = 2

SINGLE_MAN = frozenset({"leader", "hero", "medic", "sniper", "scout"})


@frozen
class MachineGun:
    """A vehicle MG (VEH 4): FP, range, and whether it fires all round (the "*" MG)."""

    fp: int
    range: int
    all_round: bool = False


@frozen
class VehicleSpec:
    """A vehicle's data (VEH, D7): movement type and MP, armour by location (−1: unarmoured),
    the main gun (boxed HE FP, penetration, to-hit bands, red H), its MGs and its tank
    commander's leadership (0: no commander)."""

    move_type: str
    armour: dict[str, int]
    he: int = 0
    pen: int = 0
    gun_range: int = 0
    to_hit: list[list[int]] = Factory(list)
    red_h: bool = False
    red_armour: bool = False
    mgs: list[MachineGun] = Factory(list)
    commander: int = 0  # the tank commander's leadership (RAL 2.4, VMV 3.3; U16: a field, not a counter)

    def to_hit_number(self, distance: int) -> int | None:
        """The to-hit number at ``distance`` (HWF 3), ``None`` beyond the gun's range."""
        for longest, number in self.to_hit:
            if distance <= longest:
                return number
        return None

    def lowest_armour(self) -> int:
        """The lowest armour of any location (IVV 4, SAV 2.2); unarmoured counts 0 (A56)."""
        return max(0, min(self.armour.values()))


@frozen
class UnitType:
    """One counter type (D1)."""

    kind: str
    fp: int
    range: int
    morale: int
    mp: int
    border: str = "none"
    smoke: int = 0
    half: str = ""
    boxed: bool = False
    self_rally: bool = False
    leadership: int = 0
    vehicle: VehicleSpec | None = None
    arrow: bool = False  # a weapon team with a facing arrow (MOV 8, HWF 2): it fires in its front arc

    @property
    def single_man(self) -> bool:
        """A single-man counter (单兵单位)."""
        return self.kind in SINGLE_MAN


@frozen
class WeaponType:
    """One light support weapon (SW, D1)."""

    name: str
    fp: int
    range: int
    melee: bool = False
    jam: bool = False
    nation: str = ""  # the side whose weapon it is (SW 3.3: a captured SW); "" for any side
    tripod: bool = False  # a tripod MG (MOV 1.3): its carrier moves only while it is stowed


@frozen
class Skill:
    """A hero skill card (HER 1, D9)."""

    text: str
    fire: int = 0
    melee: int = 0
    morale: int = 0


@frozen
class Counters:
    """Every counter, weapon and skill type."""

    units: dict[str, UnitType]
    weapons: dict[str, WeaponType] = Factory(dict)
    skills: dict[str, Skill] = Factory(dict)


@cache
def counters() -> Counters:
    """The bundled counter data (``counters.toml``)."""
    text = (resources.files("wargamekit_lnl") / "counters.toml").read_text(encoding="utf-8")
    return structure(tomllib.loads(text), Counters, source="wargamekit_lnl/counters.toml")


COUNTERS = counters()

# -- D2 terrain effects chart --------------------------------------------------------------------
OPEN, BRUSH, WOODS, BUILDING = 0, 1, 2, 3
WALL = 1


@frozen
class TerrainEffects:
    """What a terrain type does beyond movement and LOS (D2)."""

    name: str
    drm: int  # defensive terrain DRM (FPR 3)
    open: bool  # SPT 1, CRL 1.1, STL 1.2
    favourable: bool  # RAL 2.1b, IVV 2
    levels: int = 1  # multi-storey building levels (SET 4, OPS 2.2)


EFFECTS = {
    OPEN: TerrainEffects("open ground", 0, True, False),
    BRUSH: TerrainEffects("brush", 1, False, False),
    WOODS: TerrainEffects("woods", 2, False, True),
    BUILDING: TerrainEffects("stone building", 3, False, True, levels=2),
}
TERRAIN_NAMES = {code: e.name for code, e in EFFECTS.items()}

#: Movement costs (MOV 1, MOV 3: entering a multi-storey building from open ground costs 2) and
#: LOS classes (LOS 1: brush hinders, woods and buildings block).
_TERRAIN_TYPES: tuple[TerrainType, ...] = (
    TerrainType(OPEN, "open ground", 1, los=CLEAR),
    TerrainType(BRUSH, "brush", 2, los=HINDERING),
    TerrainType(WOODS, "woods", 2, los=BLOCKING),
    TerrainType(BUILDING, "stone building", 2, los=BLOCKING),
)
_HEXSIDES: tuple[HexsideFeature, ...] = (HexsideFeature(WALL, "wall", extra_cost=1, los=CLEAR),)
TERRAIN = TerrainTable(_TERRAIN_TYPES, _HEXSIDES)

#: HWF 2 / D12: a weapon team's (and a vehicle's hull MG's) front arc, in hexsides (180°).
FRONT_ARC = 3

#: Defensive DRM of a wall hexside the fire crosses into the target hex (provisional).
WALL_DRM = 1
#: FPR 3: one hex's terrain DRM is at most 4.
DRM_CAP = 4
#: D3: the attacker subtracts this per hindering hex between (FPR 1.2).
HINDRANCE_DRM = 1
#: MP to change level inside a multi-storey building (U9).
LEVEL_COST = 1
#: SMK 2 (A15): attacking into or out of a smoke hex.
SMOKE_DRM = 1


def effects(code: int) -> TerrainEffects:
    """The terrain effects of a terrain code."""
    return EFFECTS[code]


# -- D4 the damage-check table (DFT) --------------------------------------------------------------
#: value ≤ morale → no effect; morale < value < morale + margin → shaken; ≥ morale + margin →
#: casualty (D4's provisional shape).
DFT_CASUALTY_MARGIN = 3


# -- D5 the melee table ---------------------------------------------------------------------------
#: 2D6 kill number per odds column (the attacker's FP ÷ the defender's, MEL 7).
MELEE_KILL = {-3: 12, -2: 11, -1: 10, 1: 8, 2: 7, 3: 6, 4: 5, 5: 4}


def melee_column(attack: int, defence: int) -> int:
    """The odds column (MEL 7, A24): ``n`` for n:1 (``ceil(attack / defence)``, at most 5),
    ``-n`` for 1:n when the attacker is weaker (``floor(defence / attack)``, rounding the odds up,
    at most 1:3); 1:1 covers every ratio from 1 up to 1.

    >>> melee_column(4, 2), melee_column(5, 2), melee_column(2, 3), melee_column(2, 5), melee_column(1, 9)
    (2, 3, 1, -2, -3)
    """
    if attack >= defence:
        return min(5, math.ceil(attack / defence))
    n = defence // attack
    return 1 if n <= 1 else -min(3, n)


def shift_column(column: int, shift: int) -> int:
    """Move ``shift`` columns toward the attacker (MEL 7.2 hero shift), clamped to the table."""
    order = sorted(MELEE_KILL)
    i = min(max(order.index(column) + shift, 0), len(order) - 1)
    return order[i]


def kill_number(column: int) -> int:
    """The kill number of an odds column (MEL 8)."""
    return MELEE_KILL[column]
