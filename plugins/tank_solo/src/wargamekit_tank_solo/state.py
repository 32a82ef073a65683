"""Game state: tanks, wrecks, turn bookkeeping and markers (标志表).

All mutable state is here; rules read and change it, resolution functions never touch it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from attrs import define, field, frozen

from wargamekit import RulesContext
from wargamekit.geometry import Hex
from wargamekit.ruleset import other_side as core_other_side

from .maps import Map, facing_name, hex_label, load_map
from .scenario import SIDES, TankSoloScenario
from .vehicles import Gun, VehicleModel, vehicle

if TYPE_CHECKING:
    from .movement import MoveBudget

__all__ = ["Context", "GameState", "LeapInProgress", "MoveInProgress", "OpeningInProgress", "Tank", "other_side"]


def other_side(side: str) -> str:
    """The opponent of ``side``."""
    return core_other_side(SIDES, side)


@define
class Tank:
    """One tank on the table, with its markers.

    Attributes:
        id: unique number, shown as ``#n``.
        side: owning side.
        model: vehicle table key.
        hex: where it stands (``None`` before deployment).
        hull: hull facing, a hexside direction 0..5.
        turret: turret facing (equal to the hull for turretless vehicles).
        alive: False once destroyed (it is then a wreck, see ``GameState.wrecks``).
        immobilised: HESH result 1-2, permanent (移动标志).
        weapon_destroyed: HESH result 3-4, permanent (碎甲标志).
        specials: special rounds still carried (hidden from the opponent).
        fired: the fire marker (射击标记) for this turn: it did aimed, leap or advance fire.
        tried: fire types tried this turn without firing (aimed/leap may each be tried once).
        moved: it took its movement this turn.
        defensive_lock: it did defensive fire and may not move or fire (advance fire excepted)
            until its side's next movement phase ends.
        rotations_used: turret rotations this turn.
        gun_this_turn: index of the gun chosen this turn (multi-turret vehicles).
        veteran: veteran gunner bonus to hit, all fire (特殊规则 8).
        veteran_by_fire: the high-fidelity variant's bonus per fire type.
        lit: forced-spotting modifier to be hit (点亮标志, 特殊规则 11).
        ammo_short_from / ammo_short_until: turns it may not fire (弹药不足, 特殊规则 12).
        engine_dead_until: the last turn it may not move because of its engine (特殊规则 10).
        path_this_turn: its start hex and the hexes entered this turn (forced spotting).
        spotting_credit: forced-spotting reductions already earned this turn.
        kills: tanks it destroyed.
        custom: an add-on's vehicle data (:func:`~wargamekit_tank_solo.hookspecs.tank_solo_vehicles`),
            carried by the tank so that every rule and odds function finds its figures;
            ``None`` for a model of the shipped table.
    """

    id: int
    side: str
    model: str
    hex: Hex | None = None
    hull: int = 0
    turret: int = 0
    alive: bool = True
    immobilised: bool = False
    weapon_destroyed: bool = False
    specials: list[str] = field(factory=list)
    fired: bool = False
    tried: list[str] = field(factory=list)
    moved: bool = False
    defensive_lock: bool = False
    rotations_used: int = 0
    gun_this_turn: int | None = None
    veteran: int = 0
    veteran_by_fire: dict[str, int] = field(factory=dict)
    lit: int = 0
    ammo_short_from: int = -1
    ammo_short_until: int = -1
    engine_dead_until: int = -1
    path_this_turn: list[Hex] = field(factory=list)
    spotting_credit: int = 0
    kills: int = 0
    custom: VehicleModel | None = None

    @property
    def spec(self) -> VehicleModel:
        """The vehicle table entry (or the add-on's vehicle data)."""
        return self.custom if self.custom is not None else vehicle(self.model)

    @property
    def name(self) -> str:
        """``"T-34/85 #3"``."""
        return f"{self.spec.name} #{self.id}"

    @property
    def vehicle_class(self) -> str:
        """light, medium or heavy."""
        return self.spec.vehicle_class

    def gun_facing(self, gun: Gun) -> int:
        """The facing a gun fires along: the turret's, or the hull's for a hull gun
        (标准规则修改部分 2: the fire arc is based on the gun, not the hull)."""
        return self.turret if gun.mount == "turret" else self.hull

    def rotations_left(self) -> int:
        """Turret rotations still allowed this turn."""
        return max(0, self.spec.turret_rotations - self.rotations_used)

    def ammo_short(self, turn: int) -> bool:
        """True if an ammunition shortage forbids firing on ``turn``."""
        return self.ammo_short_from < turn <= self.ammo_short_until

    def where(self) -> str:
        """``"0507 hull N turret NE"``."""
        return self.where_at(self.hex, self.hull, self.turret)

    def where_at(self, at: Hex | None, hull: int, turret: int) -> str:
        """What :meth:`where` says of this tank standing in ``at`` with ``hull`` and ``turret``
        facings (a lazy label binds the position its menu found, and writes it when read, while
        the decision is pending)."""
        if at is None:
            return "not deployed"
        text = f"{hex_label(at)} hull {facing_name(hull)}"
        if not self.spec.turretless:
            text += f" turret {facing_name(turret)}"
        return text


@frozen
class MoveInProgress:
    """A tank's move between two of its steps (标准规则修改部分 3), kept in the state so that play
    can restart there (the checkpoint before each step): the rest of the move reads only this.

    Attributes:
        tank: the moving tank's id.
        points: the movement points it set out with (basic and free).
        budget: where it stands in its movement (points left, free turn, debt).
        asked: steps offered so far (names the checkpoint).
    """

    tank: int
    points: int
    budget: MoveBudget
    asked: int = 0


@frozen
class LeapInProgress:
    """A leap fire under way (作战阶段 1-2), kept in the state so that play can restart inside it
    (the checkpoints before each target is named and each step of the leap).

    Attributes:
        tank: the leaping tank's id.
        start: where it set out, to go back to when it cannot fire (注2): hex, hull, turret,
            turret rotations used, path this turn, lit marker, spotting credit.
        tried: targets named already that it could not fire at.
        target: the target named for the leap being made, while it moves and fires.
    """

    tank: int
    start: tuple[Hex, int, int, int, tuple[Hex, ...], int, int]
    tried: tuple[int, ...] = ()
    target: int | None = None


@frozen
class OpeningInProgress:
    """Where a step of the opening phase (游戏开场阶段) stands, kept in the state so that play can
    restart inside it: the checkpoints before each pick of the force selection, each tank's
    deployment and each special round loaded. ``GameState.phase`` names the step.

    Attributes:
        side: the side whose pick, deployment or loading comes next.
        finished: force selection: the sides that have finished picking.
        loaded: special rounds: the kinds ``side`` has loaded so far, in the order loaded
            (secret: the other side's view shows one ``"hidden"`` per round).
    """

    side: str
    finished: tuple[str, ...] = ()
    loaded: tuple[str, ...] = ()


@define
class GameState:
    """The whole position.

    Attributes:
        scenario: the scenario being played.
        options: the optional rules in force.
        tanks: every tank, alive or not, in id order.
        wrecks: hexes holding a wreck (残骸).
        turn: the current turn (each side's turn is one turn; 先手方与后手方轮流进行回合).
        active: the side whose turn it is (the "first player" 先手方 of the turn).
        first_player: who took the first turn.
        zones: side -> "north" / "south".
        points_spent: force cost per side.
        starting_tanks: tanks per side at the start.
        score: victory points per side.
        free_pool: free action points left this turn (自由行动点).
        own_turns: how many turns each side has had.
        phase: a short name of the current phase, for the summary.
        surrendered: the side that surrendered, if any.
        moving: the move under way between two steps, if any (a restart goes on with it).
        leap: the leap fire under way, if any (a restart goes on with it).
        opening: where the opening step under way stands, if any (a restart goes on with it).
    """

    scenario: TankSoloScenario
    options: dict[str, bool]
    tanks: list[Tank] = field(factory=list)
    wrecks: list[Hex] = field(factory=list)
    turn: int = 0
    active: str | None = None
    first_player: str | None = None
    zones: dict[str, str] = field(factory=dict)
    points_spent: dict[str, int] = field(factory=lambda: {s: 0 for s in SIDES})
    starting_tanks: dict[str, int] = field(factory=lambda: {s: 0 for s in SIDES})
    score: dict[str, int] = field(factory=lambda: {s: 0 for s in SIDES})
    free_pool: int = 0
    own_turns: dict[str, int] = field(factory=lambda: {s: 0 for s in SIDES})
    phase: str = "opening"
    surrendered: str | None = None
    moving: MoveInProgress | None = None
    leap: LeapInProgress | None = None
    opening: OpeningInProgress | None = None

    @property
    def map(self) -> Map:
        """The map being played on."""
        return load_map(self.scenario.map)

    def tank(self, tank_id: int) -> Tank:
        """The tank with id ``tank_id``."""
        return self.tanks[tank_id - 1]

    def living(self, side: str | None = None) -> list[Tank]:
        """Living, deployed tanks (of ``side``), in id order."""
        return [t for t in self.tanks if t.alive and t.hex is not None and (side is None or t.side == side)]

    def occupant(self, h: Hex) -> Tank | None:
        """The living tank in ``h``, if any."""
        for t in self.tanks:
            if t.alive and t.hex == h:
                return t
        return None

    def is_free(self, h: Hex) -> bool:
        """True if ``h`` holds neither a tank nor a wreck (特殊规则 2)."""
        return self.occupant(h) is None and h not in self.wrecks


#: What the rule procedures receive (:meth:`TankSolo.play <wargamekit_tank_solo.TankSolo.play>`
#: gets it from the game): the state, dice, interrupt stack, events and options, nothing that
#: drives the game.
Context: TypeAlias = RulesContext[GameState, TankSoloScenario]
