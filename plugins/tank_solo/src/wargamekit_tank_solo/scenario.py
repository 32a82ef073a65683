"""The scenario file: map, limits of the opening phase, turn limit and optional preset forces.

The defaults are the source's numbers (开场阶段 1: 200 points, at most 10 tanks, 2 heavy,
2 light, +27 (+28 for the USA) for a single-nation force; 胜利条件: 10 turns), except
``fire_arc_width``, which the source shows only in a missing figure (provisional: the front
half, 3 hexsides).

``forces`` may preset each side's tanks (skipping force selection); if every tank of a side has
a ``hex`` the side is also deployed as given (and its ``specials`` loaded), which is how tests
and the ``duel`` scenario build exact positions; ``wrecks`` lists hexes holding a wreck at the start.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import field, frozen

from wargamekit.errors import ScenarioError
from wargamekit.geometry import HexLabelError

from .maps import FACING_NAMES, label_hex, load_map, map_names
from .special_rounds import loadout_problem
from .vehicles import VehicleModel, all_vehicles

__all__ = ["SIDES", "ForceEntry", "TankSoloScenario", "validate_scenario"]

#: The two players, named as the source names them (1-3 A 先攻, 4-6 B 先攻).
SIDES: tuple[str, str] = ("A", "B")


@frozen
class ForceEntry:
    """One preset tank: its model, and optionally where it stands and what it carries."""

    model: str
    hex: str | None = None
    facing: str | None = None
    specials: list[str] = field(factory=list)


@frozen
class TankSoloScenario:
    """A tank_solo scenario (see the module doc)."""

    map: str = "pravda"
    turn_limit: int = 10
    budget: int = 200
    max_tanks: int = 10
    max_heavy: int = 2
    max_light: int = 2
    single_nation_bonus: int = 27
    single_nation_bonus_usa: int = 28
    special_rounds: int = 3
    fire_arc_width: int = 3
    forces: dict[str, list[ForceEntry]] = field(factory=dict)
    zones: dict[str, str] = field(factory=dict)
    wrecks: list[str] = field(factory=list)


def force_problem(models: list[str], scenario: TankSoloScenario,
                  table: Mapping[str, VehicleModel] | None = None) -> str | None:
    """Why a list of model keys breaks the force limits of 开场阶段 1, or ``None`` (``table``:
    the models in play, :func:`~wargamekit_tank_solo.vehicles.vehicle_table`; default the shipped table)."""
    table = all_vehicles() if table is None else table
    chosen = [table[m] for m in models]
    if len(chosen) > scenario.max_tanks:
        return f"at most {scenario.max_tanks} tanks (开场阶段 1)"
    classes = [v.vehicle_class for v in chosen]  # counted in C: every pick's menu asks this of every model
    for cls, limit in (("heavy", scenario.max_heavy), ("light", scenario.max_light)):
        if classes.count(cls) > limit:
            return f"at most {limit} {cls} tanks (开场阶段 1)"
    if sum(v.price for v in chosen) > budget_for(models, scenario, table):
        return f"over the budget of {budget_for(models, scenario, table)} points (开场阶段 1)"
    return None


def legal_picks(mine: list[str], scenario: TankSoloScenario, table: Mapping[str, VehicleModel]) -> list[str]:
    """The models of ``table`` a side holding ``mine`` may pick next under the force limits of
    开场阶段 1, in table order: the keys ``key`` with ``force_problem([*mine, key], ...) is None``.

    Hot: every pick's menu asked :func:`force_problem` of every model (15% of a random-bot game);
    this counts ``mine`` once and checks each model in constant time, with the same limits.
    """
    chosen = [table[m] for m in mine]
    if len(chosen) + 1 > scenario.max_tanks:
        return []
    heavy = sum(v.vehicle_class == "heavy" for v in chosen)
    light = sum(v.vehicle_class == "light" for v in chosen)
    spent = sum(v.price for v in chosen)
    nations = {v.nation for v in chosen}
    legal = []
    for key, v in table.items():
        if heavy + (v.vehicle_class == "heavy") > scenario.max_heavy:
            continue
        if light + (v.vehicle_class == "light") > scenario.max_light:
            continue
        together = nations | {v.nation}
        budget = scenario.budget
        if len(together) == 1:  # budget_for's single-nation bonus
            budget += scenario.single_nation_bonus_usa if together == {"usa"} else scenario.single_nation_bonus
        if spent + v.price <= budget:
            legal.append(key)
    return legal


def budget_for(models: list[str], scenario: TankSoloScenario,
               table: Mapping[str, VehicleModel] | None = None) -> int:
    """The budget for a force: the base budget, plus the single-nation bonus when every tank is
    of one nation (+28 instead of +27 for the USA)."""
    table = all_vehicles() if table is None else table
    nations = {table[m].nation for m in models}
    if len(nations) == 1:
        bonus = scenario.single_nation_bonus_usa if nations == {"usa"} else scenario.single_nation_bonus
        return scenario.budget + bonus
    return scenario.budget


def validate_scenario(s: TankSoloScenario, source: str | None = None) -> TankSoloScenario:
    """Cross-field checks; raise :class:`ScenarioError` naming the bad field."""

    def fail(path: str, message: str) -> None:
        raise ScenarioError(message, path=path, source=source)

    if s.map not in map_names():
        fail("$.map", f"unknown map {s.map!r}; maps are {map_names()}")
    for name in ("turn_limit", "budget", "max_tanks"):
        if getattr(s, name) < 1:
            fail(f"$.{name}", "must be at least 1")
    if s.fire_arc_width not in (1, 3, 5, 6):
        fail("$.fire_arc_width", "must be 1, 3, 5 or 6 hexsides")
    if not 0 <= s.special_rounds <= 3:
        fail("$.special_rounds", "must be 0..3")
    for side, zone in s.zones.items():
        if side not in SIDES:
            fail(f"$.zones.{side}", f"unknown side; sides are {list(SIDES)}")
        if zone not in ("north", "south"):
            fail(f"$.zones.{side}", "must be 'north' or 'south'")
    table = all_vehicles()
    the_map = load_map(s.map)
    used: set[str] = set()
    for i, label in enumerate(s.wrecks):
        try:
            h = label_hex(label)
        except HexLabelError as exc:
            fail(f"$.wrecks[{i}]", str(exc))
        if not the_map.enterable(h) or label in used:
            fail(f"$.wrecks[{i}]", f"{label} is off the map, impassable or already taken")
        used.add(label)
    for side, entries in s.forces.items():
        if side not in SIDES:
            fail(f"$.forces.{side}", f"unknown side; sides are {list(SIDES)}")
        if not entries:
            fail(f"$.forces.{side}", "a preset force needs at least one tank")
        for i, e in enumerate(entries):
            if e.model not in table:
                fail(f"$.forces.{side}[{i}].model", f"unknown vehicle {e.model!r}")
        problem = force_problem([e.model for e in entries], s)
        if problem:
            fail(f"$.forces.{side}", problem)
        placed = [e.hex is not None for e in entries]
        if any(placed) and not all(placed):
            fail(f"$.forces.{side}", "give a hex for every tank of the side or for none")
        for i, e in enumerate(entries):
            path = f"$.forces.{side}[{i}]"
            if e.hex is not None:
                try:
                    h = label_hex(e.hex)
                except HexLabelError as exc:
                    fail(f"{path}.hex", str(exc))
                if not the_map.enterable(h):
                    fail(f"{path}.hex", f"{e.hex} is off the map, forest or mountain")
                if e.hex in used:
                    fail(f"{path}.hex", f"{e.hex} is occupied twice (特殊规则 2: no stacking)")
                used.add(e.hex)
                if e.facing not in FACING_NAMES:
                    fail(f"{path}.facing", f"facing must be one of {list(FACING_NAMES)}")
            elif e.facing is not None or e.specials:
                fail(path, "facing and specials are only given with a hex")
        kinds = [k for e in entries for k in e.specials]
        problem = loadout_problem(kinds, s.special_rounds)
        if problem:
            fail(f"$.forces.{side}", problem)
    return s
