"""What each decision decides, for programs: the decision kinds and the data of their options.

Every decision the ruleset asks has a :attr:`~wargamekit.Decision.kind` from this module, a
:attr:`~wargamekit.Decision.context` naming the tank and the numbers at stake, and options whose
:attr:`~wargamekit.Option.data` say what each option is (tank ids, hex labels such as ``"0605"``,
hexside directions 0-5, action names). Bots read these, never prompts, labels or rule citations;
the table of kinds, context keys and option data keys is in the ruleset's docs page
(``docs/rulesets/tank_solo.md``, "Decision kinds").

>>> from wargamekit_tank_solo.movement import Step
>>> from wargamekit.geometry import Hex
>>> data = step_data(Step("forward", Hex(0, 1), 5, 1, label="move forward"))
>>> data
{'action': 'forward', 'hex': '0102', 'hull': 5, 'cost': 1, 'clears_wreck': False}
>>> step_of(data) == Step("forward", Hex(0, 1), 5, 1)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .maps import hex_label, label_hex
from .movement import Step

__all__ = [
    "FIRE_SELECTION",
    "FIRE_TARGET",
    "FREE_POINTS",
    "KINDS",
    "LEAP_TARGET",
    "LOAD_SPECIAL",
    "MOVE_STEP",
    "NEXT_MOVER",
    "PICK_TANK",
    "ADVANCE_PICK",
    "DEFENSIVE_FIRE",
    "DEPLOY_FACING",
    "DEPLOY_HEX",
    "DEPLOY_ZONE",
    "SECOND_ROUND",
    "SPECIAL_ROUND",
    "TURRET_AFTER_FIRE",
    "fire_data",
    "rotate_data",
    "step_data",
    "step_of",
]

# -- the opening (开场阶段) --------------------------------------------------------------------------
#: 1 调配军力: pick a tank for the side (or finish).
PICK_TANK = "tank_solo.pick_tank"
#: 2 决定先手: the first player deploys in the north or the south.
DEPLOY_ZONE = "tank_solo.deploy_zone"
#: 3 行军布阵: the hex a tank deploys in.
DEPLOY_HEX = "tank_solo.deploy_hex"
#: 3 (标准规则修改部分 3 车体朝向): the hexside a deployed tank faces.
DEPLOY_FACING = "tank_solo.deploy_facing"
#: 3; 特殊规则 4: load one more hidden special round on a tank (or finish).
LOAD_SPECIAL = "tank_solo.load_special"

# -- a turn (回合) ------------------------------------------------------------------------------------
#: 作战阶段 1: designate a tank for aimed or leap fire, go on to the movement phase, or surrender.
FIRE_SELECTION = "tank_solo.fire_selection"
#: 1-2: the target a leap is made toward (or give up the leap).
LEAP_TARGET = "tank_solo.leap_target"
#: 1-1, 1-2, 3: a tank's fire menu: fire a gun at a target, turn the turret, or hold fire.
FIRE_TARGET = "tank_solo.fire_target"
#: 6 v: after firing, turn the turret with the rotations left (or leave it).
TURRET_AFTER_FIRE = "tank_solo.turret_after_fire"
#: 特殊规则 4: which round a declared shot fires.
SPECIAL_ROUND = "tank_solo.special_round"
#: 特殊规则 5: a light tank's second round at a surviving medium or heavy tank (yes/no).
SECOND_ROUND = "tank_solo.second_round"
#: 2-1: which tank moves next (or end the movement phase).
NEXT_MOVER = "tank_solo.next_mover"
#: 标准规则修改部分 7: free action points given to the tank about to move (a number).
FREE_POINTS = "tank_solo.free_points"
#: 标准规则修改部分 3; 1-2: one movement step (or a turret turn) of the moving tank.
MOVE_STEP = "tank_solo.move_step"
#: 2-2: the response window for defensive fire against a moving tank.
DEFENSIVE_FIRE = "tank_solo.defensive_fire"
#: 3: which tank takes its advance fire next (or end the turn).
ADVANCE_PICK = "tank_solo.advance_pick"

#: Every kind, in the order a game meets them.
KINDS: tuple[str, ...] = (
    PICK_TANK, DEPLOY_ZONE, DEPLOY_HEX, DEPLOY_FACING, LOAD_SPECIAL, FIRE_SELECTION, LEAP_TARGET,
    FIRE_TARGET, TURRET_AFTER_FIRE, SPECIAL_ROUND, SECOND_ROUND, NEXT_MOVER, FREE_POINTS, MOVE_STEP,
    DEFENSIVE_FIRE, ADVANCE_PICK,
)


def step_data(step: Step) -> dict[str, Any]:
    """A movement step's option data: its kind as ``action``, the hex entered (``None`` for a
    turn or a stop), the hull facing after it, its cost and whether it clears a wreck."""
    return {
        "action": step.kind,
        "hex": None if step.to is None else hex_label(step.to),
        "hull": step.hull,
        "cost": step.cost,
        "clears_wreck": step.clears_wreck,
    }


def step_of(data: Mapping[str, Any]) -> Step:
    """The :class:`~wargamekit_tank_solo.movement.Step` a move option's data describes (no label)."""
    where = data["hex"]
    return Step(data["action"], None if where is None else label_hex(where), data["hull"], data["cost"],
                data["clears_wreck"])


def rotate_data(turn: int) -> dict[str, Any]:
    """A turret rotation's option data (``turn``: +1 left, -1 right, 6. 炮塔转动)."""
    return {"action": "rotate_turret", "turn": turn}


def fire_data(gun: int, target: int) -> dict[str, Any]:
    """A shot's option data: the gun's index on the firing tank and the target tank's id."""
    return {"action": "fire", "gun": gun, "target": target}
