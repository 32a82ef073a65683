"""The vehicle table (标准规则修改部分 1. 战车重新分类; 特殊规则 1. 无炮塔战车类型, 7. 多炮塔战车).

Models, nations and classes come from the source; every figure (movement points, gun range,
attack, armour, price, turret rotations) is provisional data in ``data/vehicles.toml`` because
the source gives none.

>>> tiger = vehicle("tiger")
>>> tiger.name, tiger.vehicle_class, tiger.nation
('Tiger I', 'heavy', 'germany')
>>> [g.mount for g in vehicle("m3").guns]
['hull', 'turret']
>>> vehicle("hetzer").turretless
True
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any, Literal

from attrs import field, frozen

from wargamekit._convert import as_tuple
from wargamekit.errors import WargamekitError
from wargamekit.scenario import read_toml_text, structure

__all__ = [
    "CLASSES",
    "NATIONS",
    "Gun",
    "VehicleError",
    "VehicleModel",
    "all_vehicles",
    "free_point_cap",
    "kill_points",
    "vehicle",
    "vehicle_table",
]

#: The seven nations, in the source's column order (德、苏、美、英、意、日、法).
NATIONS: tuple[str, ...] = ("germany", "ussr", "usa", "uk", "italy", "japan", "france")

#: Vehicle classes, lightest first.
CLASSES: tuple[str, ...] = ("light", "medium", "heavy")

#: Victory points for destroying a tank of each class (胜利条件: 1 / 2 / 4).
KILL_POINTS = {"light": 1, "medium": 2, "heavy": 4}

#: Largest free action point allotment per tank and turn (标准规则修改部分 7).
FREE_POINT_CAP = {"light": 3, "medium": 1, "heavy": 1}

#: Models with hybrid drive (特殊规则 9. 油电混合).
HYBRID_MODELS = frozenset({"tiger_p", "ferdinand"})


def _check_nation(_inst: object, _attr: object, value: str) -> None:
    if value not in NATIONS:
        raise ValueError(f"unknown nation {value!r}; nations are {list(NATIONS)}")


def _check_class(_inst: object, _attr: object, value: str) -> None:
    if value not in CLASSES:
        raise ValueError(f"unknown vehicle class {value!r}; classes are {list(CLASSES)}")


@frozen
class Gun:
    """One gun of a vehicle.

    Attributes:
        name: what the player reads ("75mm hull gun").
        mount: ``"turret"`` (fires along the turret facing) or ``"hull"`` (along the hull).
        range: the longest range it may fire at (主炮射距).
        attack: added to the damage roll (主炮的攻击力).
    """

    name: str
    mount: Literal["turret", "hull"]
    range: int
    attack: int


@frozen
class VehicleModel:
    """One model of the vehicle table.

    Attributes:
        key: the table key (``"t34_85"``).
        name: English name.
        source_name: the name as the source prints it.
        nation: one of :data:`NATIONS`.
        vehicle_class: ``"light"``, ``"medium"`` or ``"heavy"``.
        movement: basic movement points per turn (基础行动值).
        armour: the armour value the damage roll must reach (装甲值).
        price: points cost in force selection (px).
        turret_rotations: 60-degree turret turns per turn (0: turretless).
        guns: one gun, or several for multi-turret vehicles (one gun per turn fires).
    """

    key: str
    name: str
    source_name: str
    nation: str = field(validator=_check_nation)
    vehicle_class: str = field(validator=_check_class)
    movement: int
    armour: int
    price: int
    turret_rotations: int
    guns: tuple[Gun, ...] = field(converter=as_tuple)

    @property
    def turretless(self) -> bool:
        """True when no gun is in a turret (无炮塔战车)."""
        return all(g.mount == "hull" for g in self.guns)

    @property
    def multi_gun(self) -> bool:
        """True for multi-turret vehicles (多炮塔战车): one gun is chosen per turn."""
        return len(self.guns) > 1

    @property
    def hybrid(self) -> bool:
        """True for the hybrid-drive models (Tiger (P), Ferdinand)."""
        return self.key in HYBRID_MODELS


@frozen
class _Entry:
    name: str
    source_name: str
    nation: str
    vehicle_class: str
    movement: int
    armour: int
    price: int
    turret_rotations: int
    guns: list[Gun]


@frozen
class _Table:
    vehicles: dict[str, _Entry]


@cache
def all_vehicles() -> dict[str, VehicleModel]:
    """Every model of the shipped table, by key, in the table's order."""
    text = (resources.files("wargamekit_tank_solo.data") / "vehicles.toml").read_text("utf-8")
    table = structure(read_toml_text(text, source="vehicles.toml"), _Table, source="vehicles.toml")
    return {
        key: VehicleModel(
            key=key,
            name=e.name,
            source_name=e.source_name,
            nation=e.nation,
            vehicle_class=e.vehicle_class,
            movement=e.movement,
            armour=e.armour,
            price=e.price,
            turret_rotations=e.turret_rotations,
            guns=tuple(e.guns),
        )
        for key, e in table.vehicles.items()
    }


class VehicleError(WargamekitError, ValueError):
    """An add-on's vehicle is malformed or reuses a key of the table (标准规则修改部分 1)."""


def vehicle_table(hooks: Any = None) -> dict[str, VehicleModel]:
    """Every model in play, by key: the shipped table, then the add-ons' (through
    :func:`~wargamekit_tank_solo.hookspecs.tank_solo_vehicles`; ``hooks`` is ``ctx.hooks``/
    ``view.hooks``, ``None`` without plugins).

    Raises:
        VehicleError: an add-on's vehicle is not a :class:`VehicleModel` or reuses a key.
    """
    table = dict(all_vehicles())
    if hooks is None:
        return table
    for added in hooks.tank_solo_vehicles():
        for model in added or ():
            if not isinstance(model, VehicleModel):
                raise VehicleError(f"tank_solo_vehicles returned {model!r}, not a VehicleModel (标准规则修改部分 1)")
            if model.key in table:
                raise VehicleError(f"vehicle {model.key!r} is defined twice (标准规则修改部分 1): keys must be unique")
            table[model.key] = model
    return table


@frozen
class TableBounds:
    """The extremes of the vehicle table: what a shot between two tanks of the table can
    involve (a gun fires only at a target within its range: 作战阶段, 射程)."""

    max_range: int
    attack: tuple[int, int]
    armour: tuple[int, int]


def table_bounds(hooks: Any = None) -> TableBounds:
    """The longest gun range and the least and greatest attack and armour of the vehicles in
    play (:func:`vehicle_table`: the shipped table and the add-ons')."""
    models = vehicle_table(hooks).values()
    guns = [g for m in models for g in m.guns]
    return TableBounds(
        max_range=max(g.range for g in guns),
        attack=(min(g.attack for g in guns), max(g.attack for g in guns)),
        armour=(min(m.armour for m in models), max(m.armour for m in models)),
    )


@cache  # a hot path: every ``Tank.spec`` (the bots read it tens of thousands of times a game)
def vehicle(key: str) -> VehicleModel:
    """The model with table key ``key``.

    Raises:
        KeyError: no such model (the message lists the known keys).
    """
    try:
        return all_vehicles()[key]
    except KeyError:
        raise KeyError(f"unknown vehicle {key!r}; known: {', '.join(all_vehicles())}") from None


def kill_points(vehicle_class: str) -> int:
    """Victory points for destroying a tank of ``vehicle_class`` (胜利条件)."""
    return KILL_POINTS[vehicle_class]


def free_point_cap(model: VehicleModel, *, hybrid_drive: bool) -> int:
    """The most free action points one tank may be given in a turn (标准规则修改部分 7;
    with hybrid drive, Tiger (P) and Ferdinand may take 2: 特殊规则 9)."""
    if hybrid_drive and model.hybrid:
        return 2
    return FREE_POINT_CAP[model.vehicle_class]
