"""The turns (回合): the maintenance phase and the combat phase of the active side (阶段顺序).

Players alternate turns (注2: 先手方与后手方轮流进行回合); in each, the active side is the
"first player" (先手方) and the other side only answers with defensive fire.

Combat phase order: 1. fire selection — tanks designated one at a time do aimed fire (1-1) or
leap fire (1-2) and are then done; 2. movement of the other tanks, during which the opponent may
fire defensively (2-1, 2-2); 3. advance fire (3) by tanks that survived the movement phase.

The structure is data: :data:`PHASES` lists the phases and the combat phase's steps, a core
:class:`~wargamekit.sequencing.PhaseCycle` (:func:`turn_cycle`) deals out the numbered turns, the
active side of each and its phases, and :func:`play_all_turns` runs them with
:func:`~wargamekit.sequencing.play_turns` and a :func:`~wargamekit.sequencing.by_phase` table.

>>> [t.label for t in PhaseCycle(PHASES, last_turn=1)]
['turn 1 / maintenance', 'turn 1 / combat / fire selection', 'turn 1 / combat / movement', 'turn 1 / combat / advance fire']
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable
from decimal import ROUND_HALF_UP, Decimal
from functools import partial
from typing import Any, TypeAlias

import attrs

from wargamekit import Choose, ChooseNumber, Decision, Option, Response, ask
from wargamekit.context import Checkpoint
from wargamekit.geometry import Hex
from wargamekit.sequencing import PhaseCycle, Turn, TurnResult, by_phase, play_turns

from . import kinds
from .combat import (
    FireAt,
    RotateTurret,
    can_fire_now,
    could_fire,
    fire_label,
    fire_menu,
    fire_with,
    rotate,
    rotation_options,
    target_in_reach,
    valid_targets,
    why_not_fire,
)
from .maps import facing_name, hex_label
from .movement import MoveBudget, Step, step_options
from .optional_rules import (
    engine_rolls_before_maintenance,
    forced_spotting_end,
    hybrid_engine_check,
    spotting_progress,
)
from .state import Context, GameState, LeapInProgress, MoveInProgress, Tank, other_side
from .vehicles import free_point_cap

__all__ = [
    "PHASES",
    "advance_fire",
    "fire_selection",
    "free_point_range",
    "maintenance_phase",
    "move_menu",
    "movement_phase",
    "play_all_turns",
    "turn_cycle",
]

#: 阶段顺序: the phases of a turn and the steps of the combat phase, in order.
PHASES: dict[str, list[str]] = {
    "maintenance": [],  # 一、整备阶段
    "combat": ["fire selection", "movement", "advance fire"],  # 二、作战阶段 1, 2, 3
}

#: A phase's procedure: the rules context and the active side.
PhaseProcedure = Callable[[Context, str], Generator[Decision | Checkpoint, Any, TurnResult | None]]


def turn_cycle(state: GameState) -> PhaseCycle:
    """The turns after the opening: ``turn_limit`` numbered turns of :data:`PHASES`, the first
    player active in odd turns and the second player in even ones.

    A :class:`~wargamekit.sequencing.PhaseCycle` rather than
    :class:`~wargamekit.sequencing.PlayerTurns`: here each side's turn is a turn of its own and
    counts toward the limit (注2; ten turns are five per side), whereas a ``PlayerTurns`` game
    turn holds a player turn of every side.
    """
    first = state.first_player
    assert first is not None
    order = (first, other_side(first))

    def active(number: int, _phase: str) -> tuple[Hashable, ...]:
        return (order[(number - 1) % 2],)

    return PhaseCycle(PHASES, last_turn=state.scenario.turn_limit, actors=active)


def play_all_turns(ctx: Context) -> Generator[Any, Any, None]:  # decisions and checkpoints
    """Play the turns of :func:`turn_cycle` until the limit or a surrender (which ends the
    sequence with ``TurnResult(end=True)``; an elimination ends the game by raising
    :class:`~wargamekit_tank_solo.combat.GameEnd`)."""
    state = ctx.state
    procedures: dict[str, PhaseProcedure] = {
        "maintenance": maintenance_phase,
        "combat/fire selection": fire_selection,
        "combat/movement": movement_phase,
        "combat/advance fire": advance_fire,
    }

    # Checkpoints (restart points): the start of each turn, of fire selection and advance fire,
    # each pick of the next mover and each step of a move and of a leap (moves are most of a
    # turn's answers). A restart finds ``state.turn == N`` and ``state.phase`` the phase it
    # stopped in: the cycle begins turn N again and the phases before that one, done already,
    # are skipped; a leap or move under way (``state.leap``, ``state.moving``) goes on there.
    order = [step for phase, steps in PHASES.items() for step in (steps or [phase])]
    resume = (state.turn, order.index(state.phase)) if state.turn else None

    def run(procedure: PhaseProcedure) -> Callable[[Turn[Hashable]], Generator[Any, Any, TurnResult | None]]:
        def take(turn: Turn[Hashable]) -> Generator[Decision | Checkpoint, Any, TurnResult | None]:
            nonlocal resume
            side = turn.actor
            assert isinstance(side, str)
            step = turn.step or str(turn.phase)
            if resume is not None:
                if (turn.number, order.index(step)) < resume:
                    return None  # done before the checkpoint this game restarted at
                resume = None
            # The state keeps where the game stands as a record (the summary shows it).
            state.turn, state.active, state.phase = turn.number, side, step
            if procedure is maintenance_phase:
                # before anything of the turn happens: every marker of the last turn is set
                yield ctx.checkpoint(f"turn {turn.number}")
            elif procedure is not movement_phase and state.leap is None:  # movement: per mover
                yield ctx.checkpoint(f"turn {turn.number} {step}")
            return (yield from procedure(ctx, side))

        return take

    cycle = turn_cycle(state)
    cycle.turn = max(state.turn - 1, 0)  # 0 on a fresh game
    yield from play_turns(cycle, ctx.dice, by_phase({key: run(p) for key, p in procedures.items()}))


def can_move_now(state: GameState, tank: Tank) -> bool:
    """Alive, not immobilised (HESH), engine working, not locked by its own defensive fire."""
    return (tank.alive and not tank.immobilised and tank.engine_dead_until < state.turn
            and not tank.defensive_lock)


def free_point_range(state: GameState) -> tuple[int, int]:
    """The free action point roll's bounds (一、整备阶段): from 3 to half the movement points of
    both sides' living tanks that can move (存活并可以移动), rounded half up (四舍五入).

    "Can move" leaves out tanks immobilised by HESH, tanks whose engine failed (10-1 says so
    explicitly) and, by the same token (our reading), tanks locked by their own defensive fire,
    which may not move this turn (2-2). Provisional (not from the source): when that half is
    below 3 the roll is from it to it.
    """
    total = sum(t.spec.movement for t in state.living() if can_move_now(state, t))
    high = int((Decimal(total) / 2).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return min(3, high), high


def _start_turn(state: GameState) -> None:
    for tank in state.tanks:
        tank.fired = False
        tank.tried = []
        tank.moved = False
        tank.rotations_used = 0
        tank.gun_this_turn = None
        tank.spotting_credit = 0
        tank.path_this_turn = [tank.hex] if tank.alive and tank.hex is not None else []


# -- 一、整备阶段 --------------------------------------------------------------------------------------
def maintenance_phase(ctx: Context, side: str) -> Generator[Decision, Any, None]:
    """The turn begins (markers of the last turn cleared, 特殊规则 10's engine rolls before the
    maintenance phase); 一、整备阶段: the free action points, drawn with the random-number
    generator."""
    state = ctx.state
    _start_turn(state)
    state.own_turns[side] += 1
    ctx.event("turn", f"Turn {state.turn} of {state.scenario.turn_limit}: side {side} is active",
              turn=state.turn, side=side)
    if state.options.get("unreliable_engines"):
        engine_rolls_before_maintenance(ctx, side)
    low, high = free_point_range(state)
    state.free_pool = ctx.dice.integer(low, high, f"free action points ({low}-{high}, 自由行动点)")
    ctx.event("free-points", f"{side} has {state.free_pool} free action points this turn", pool=state.free_pool)
    return
    yield  # a phase procedure: a generator, although this phase asks nothing


# -- 1. fire selection -----------------------------------------------------------------------------
def fire_selection(ctx: Context, side: str) -> Generator[Decision | Checkpoint, Any, TurnResult | None]:
    """1: designate tanks one at a time for aimed fire (1-1) or leap fire (1-2). A tank that
    fires is done for the turn (fire marker); one that does not may try the other form or move.

    A surrender (胜利条件: 允许投降认输) is offered here too; it ends the turns
    (``TurnResult(end=True)``, with ``GameState.surrendered`` set).
    """
    state = ctx.state
    if state.leap is not None:  # a restart inside a leap fire (at one of its checkpoints)
        yield from _designated(ctx, state.tank(state.leap.tank), "leap")
    while True:
        values: list[Any] = []
        for tank in state.living(side):
            if tank.fired or tank.defensive_lock or not can_fire_now(state, tank):
                continue
            if "aimed" not in tank.tried and could_fire(state, tank, "aimed"):
                values.append(("aimed", tank.id))
            if "leap" not in tank.tried and can_move_now(state, tank) and _leap_targets(state, tank):
                values.append(("leap", tank.id))
        values.append(Option(("movement", 0), "go on to the movement phase", data={"action": "movement"}))
        if state.options.get("surrender"):
            values.append(Option(("surrender", 0), f"surrender: side {side} concedes the game",
                                 data={"action": "surrender", "concede": True}))
        # A lazy menu (a label per tank and form of fire, of which a random bot reads one); its
        # labels write the positions found here, once for the menu, and are made only while the
        # decision is pending (the answer seals the rest).
        action, tank_id = yield Choose.of(side, f"Turn {state.turn}, side {side}: fire selection", values,
                                          label=partial(_designation_label, _poses(state, side)),
                                          data=_designation_data,
                                          lazy=True, lazy_labels=True, rule="作战阶段 1 先手方射击选择",
                                          kind=kinds.FIRE_SELECTION, context={"turn": state.turn, "side": side})
        if action == "surrender":
            state.surrendered = side
            return TurnResult(end=True)
        if action == "movement":
            return None
        yield from _designated(ctx, state.tank(tank_id), action)


#: A tank and where it stood when a menu was offered: (tank, hex, hull, turret).
_Pose: TypeAlias = tuple[Tank, Hex | None, int, int]


def _poses(state: GameState, side: str) -> dict[int, _Pose]:
    """The positions of ``side``'s living tanks, as values (the lazy labels of a menu offered
    now read these, not the tanks, which move on; a tank's name and vehicle never change)."""
    return {t.id: (t, t.hex, t.hull, t.turret) for t in state.living(side)}


def _where(pose: _Pose) -> str:
    tank, at, hull, turret = pose
    return tank.where_at(at, hull, turret)


def _designation_label(poses: dict[int, _Pose], pick: tuple[str, int]) -> str:
    """Fire selection: the label of designating tank ``pick[1]`` for ``pick[0]`` fire, standing
    as in ``poses`` (:func:`_poses`, bound when the menu was offered)."""
    action, tank_id = pick
    pose = poses[tank_id]
    tank = pose[0]
    if action == "aimed":
        return f"aimed fire with {tank.name} ({_where(pose)})"
    return f"leap fire with {tank.name} ({_where(pose)}, up to {tank.spec.movement} MP then fire)"


def _designation_data(pick: tuple[str, int]) -> dict[str, Any]:
    return {"action": pick[0], "tank": pick[1]}


def _designated(ctx: Context, tank: Tank, action: str) -> Generator[Decision | Checkpoint, Any, None]:
    """1-1 / 1-2: ``tank``, designated for ``action`` (``"aimed"`` or ``"leap"``), fires and
    takes the fire marker, or has tried that form of fire this turn."""
    if action == "aimed":
        fired = yield from fire_menu(ctx, tank, "aimed", rule="作战阶段 1-1 精准射击")
    else:
        fired = yield from leap_fire(ctx, tank)
    if fired:
        tank.fired = True
    else:
        tank.tried.append(action)


def leap_fire(ctx: Context, tank: Tank) -> Generator[Decision | Checkpoint, Any, bool]:
    """1-2: name a target, move up to the basic movement points (no free points, no wreck
    clearing, no defensive fire against it), turn the turret and fire at -3 (US -2). If it
    cannot fire at that target after moving, it goes back to where it started and may name
    another target (注2).

    The leap under way is kept in ``state.leap`` (checkpoints before each target is named and
    each step); a restart inside it finds it set and goes on with it."""
    state = ctx.state
    assert tank.hex is not None
    if state.leap is None:  # else a restart inside this leap fire
        state.leap = LeapInProgress(tank.id, (tank.hex, tank.hull, tank.turret, tank.rotations_used,
                                              tuple(tank.path_this_turn), tank.lit, tank.spotting_credit))
    fired = False
    while tank.alive:
        leap = state.leap
        assert leap is not None
        if leap.target is not None:  # a restart inside the leap's move
            fired = yield from _leap_at(ctx, tank, leap.target)
            if fired:
                break
            continue
        yield ctx.checkpoint(f"turn {state.turn} leap fire of #{tank.id}, target {len(leap.tried) + 1}")
        enemies = [e for e in _leap_targets(state, tank) if e.id not in leap.tried]
        if not enemies:
            break
        options = [Option(e.id, f"leap toward {e.name} in {hex_label(e.hex)} (range {tank.hex.distance(e.hex)})",
                          data={"target": e.id, "hex": hex_label(e.hex), "range": tank.hex.distance(e.hex)})
                   for e in enemies if e.hex is not None]
        options.append(Option(None, f"{tank.name} gives up leap fire", data={"action": "give up"}))
        target = yield Choose(side=tank.side, prompt=f"Leap fire with {tank.name}: name the target "
                              f"(tanks within {tank.spec.movement} MP of its gun's range)",
                              options=tuple(options), rule="作战阶段 1-2 跃进射击", kind=kinds.LEAP_TARGET,
                              context={"tank": tank.id, "points": tank.spec.movement, "turn": state.turn})
        if target is None:
            break
        state.leap = attrs.evolve(leap, target=target)
        fired = yield from _leap_at(ctx, tank, target)
        if fired:
            break
    state.leap = None
    return fired


def _leap_at(ctx: Context, tank: Tank, target: int) -> Generator[Decision | Checkpoint, Any, bool]:
    """1-2: the leap toward the named ``target`` (``state.leap`` holds it): move, then fire at it,
    or go back to the start and note it as tried (注2)."""
    state = ctx.state
    yield from move_tank(ctx, tank, tank.spec.movement, must_spend=False, leap=True)
    fired = yield from fire_menu(ctx, tank, "leap", only=target, rule="作战阶段 1-2 跃进射击")
    if fired:
        return True
    leap = state.leap
    assert leap is not None
    state.leap = attrs.evolve(leap, tried=(*leap.tried, target), target=None)
    where = hex_label(tank.hex) if tank.hex is not None else "?"
    why = why_not_fire(state, tank, state.tank(target), "leap") or "it did not fire"
    (tank.hex, tank.hull, tank.turret, tank.rotations_used, path, tank.lit, tank.spotting_credit) = leap.start
    tank.path_this_turn = list(path)
    ctx.event("leap-cancel", f"{tank.name} cannot fire at {state.tank(target).name} from {where}: {why}; "
               f"it returns to {hex_label(tank.hex)} and may name another target (leap fire, note 2)",
               tank=tank.id)
    return False


def _leap_targets(state: GameState, tank: Tank) -> list[Tank]:
    """Enemy tanks that a leap could possibly bring into range (the others always fail, 注2)."""
    assert tank.hex is not None
    reach = max(g.range for g in tank.spec.guns) + tank.spec.movement
    return [e for e in state.living(other_side(tank.side)) if e.hex is not None and tank.hex.distance(e.hex) <= reach]


# -- 2. movement and defensive fire ------------------------------------------------------------------
def movement_phase(ctx: Context, side: str) -> Generator[Decision | Checkpoint, Any, None]:
    """2: the movement of the active side's tanks (2-1) under the opponent's defensive fire (2-2);
    then the tanks locked by their own defensive fire are free again ("until its side's next
    movement phase ends", 2-2)."""
    yield from _move_tanks(ctx, side)
    for tank in ctx.state.living(side):
        tank.defensive_lock = False


def _move_tanks(ctx: Context, side: str) -> Generator[Decision | Checkpoint, Any, None]:
    """2-1: tanks that did not fire move one at a time, each given free points first (0 or
    more, within its cap and the pool); a tank given free points must use every point."""
    state = ctx.state
    hybrid = bool(state.options.get("hybrid_drive"))
    if state.moving is not None:  # a restart between two steps of a move: finish it first
        tank = state.tank(state.moving.tank)
        spent = yield from move_tank(ctx, tank, state.moving.points, must_spend=state.moving.budget.must_spend,
                                     leap=False)
        _after_move(ctx, tank, spent)
    while True:
        # A checkpoint before each pick: which tanks have moved and the free points left are state.
        yield ctx.checkpoint(f"turn {state.turn} movement {sum(t.moved for t in state.tanks if t.side == side)}")
        movers = [t for t in state.living(side) if not t.fired and not t.moved and can_move_now(state, t)]
        if not movers:
            return
        values: list[Any] = [t.id for t in movers]
        values.append(Option(None, f"end the movement phase ({state.free_pool} free points unused)",
                             data={"action": "end"}))
        pick = yield Choose.of(side, f"Turn {state.turn}, side {side}: which tank moves next?", values,
                               label=partial(_mover_label, _poses(state, side)), data=_mover_data, lazy=True,
                               lazy_labels=True,
                               rule="作战阶段 2-1 先手方移动", kind=kinds.NEXT_MOVER,
                               context={"turn": state.turn, "side": side, "free_pool": state.free_pool})
        if pick is None:
            return
        tank = state.tank(pick)
        tank.moved = True
        cap = min(free_point_cap(tank.spec, hybrid_drive=hybrid), state.free_pool)
        free = 0
        if cap > 0:
            free = yield ChooseNumber(side=side, prompt=f"Free action points for {tank.name} (0-{cap}; "
                                      f"{state.free_pool} in the pool; given points must all be used)",
                                      low=0, high=cap, rule="标准规则修改部分 7 自由行动点分配规则",
                                      kind=kinds.FREE_POINTS,
                                      context={"tank": tank.id, "pool": state.free_pool, "cap": cap,
                                               "movement": tank.spec.movement})
        state.free_pool -= free
        points = tank.spec.movement + free
        ctx.event("declare-move", f"{tank.name} declares {points} MP ({tank.spec.movement} basic + {free} free)",
                   tank=tank.id, points=points, free=free)
        spent = yield from move_tank(ctx, tank, points, must_spend=free > 0, leap=False)
        _after_move(ctx, tank, spent)


def _mover_label(poses: dict[int, _Pose], tank_id: int) -> str:
    """Movement: the label of moving tank ``tank_id`` next, standing as in ``poses`` (bound
    when the menu was offered: the tanks before it in the phase may move, fire, be hit)."""
    pose = poses[tank_id]
    return f"move {pose[0].name} ({_where(pose)}, {pose[0].spec.movement} MP)"


def _mover_data(tank_id: int) -> dict[str, Any]:
    return {"tank": tank_id}


def _after_move(ctx: Context, tank: Tank, spent: int) -> None:
    """10-1: the roll is for free points actually used (spent beyond the basic points), not
    merely given (a tank stopped by a HESH hit may never reach them)."""
    if (spent > tank.spec.movement and ctx.state.options.get("unreliable_engines") and tank.spec.hybrid
            and tank.alive):
        hybrid_engine_check(ctx, tank)


def move_menu(state: GameState, tank: Tank, budget: MoveBudget, *, hybrid: bool) -> Choose:
    """The step decision of a moving tank (kind ``tank_solo.move_step``): its legal steps (see
    :func:`~wargamekit_tank_solo.movement.step_options`) with the turret rotations left before
    the last, stopping."""
    steps = step_options(state, tank, budget, hybrid=hybrid)
    last = steps[-1]
    values: list[Any] = [*steps[:-1], *rotation_options(tank)]
    if budget.leap:
        values.append(Option(last, f"{tank.name} stops and fires ({budget.remaining} MP unused)",
                             data=kinds.step_data(last)))
    else:
        values.append(last)
    rule = "作战阶段 1-2 跃进射击" if budget.leap else "标准规则修改部分 3 移动规则改良"
    # A lazy menu (hot: a move is many steps, each a menu of a dozen options of which a random
    # bot reads one, and a heuristic bot the data only).
    return Choose.of(tank.side, f"Move {tank.name} ({tank.where()}, {budget.remaining} MP left)", values,
                     label=_step_label, data=kinds.step_data, lazy=True, lazy_labels=True,
                     rule=rule, kind=kinds.MOVE_STEP,
                     context={"tank": tank.id, "remaining": budget.remaining, "leap": budget.leap,
                              "must_spend": budget.must_spend, "turn": state.turn})


def _step_label(step: Step) -> str:
    return step.label


def move_tank(ctx: Context, tank: Tank, points: int, *, must_spend: bool,
              leap: bool) -> Generator[Decision | Checkpoint, Any, int]:
    """Move ``tank`` step by step (see :mod:`~wargamekit_tank_solo.movement`); outside leap fire
    each step into a new hex opens a defensive fire window first. Returns the points spent.

    A tank immobilised by defensive fire stays where it was fired at: in the step's starting
    hex, or in the hex it moves into when it was fired at there (5 ii forced spotting, 5 iii
    clearing a wreck: "the target counts as in the position after the move").

    The move under way is kept in ``state.moving`` with a checkpoint before each step; a
    restart there finds it set (for this tank) and goes on with it."""
    state = ctx.state
    moving = state.moving
    if moving is None or moving.tank != tank.id:
        moving = MoveInProgress(tank.id, points, MoveBudget(remaining=points, must_spend=must_spend, leap=leap))
    spent = yield from _steps(ctx, tank, moving)
    state.moving = None
    return spent


def _steps(ctx: Context, tank: Tank, moving: MoveInProgress) -> Generator[Decision | Checkpoint, Any, int]:
    """:func:`move_tank`'s steps, from where ``moving`` stands; returns the points spent."""
    state = ctx.state
    hybrid = bool(state.options.get("hybrid_drive")) and tank.spec.hybrid
    points, budget, asked = moving.points, moving.budget, moving.asked
    leap = budget.leap
    while tank.alive and not tank.immobilised:
        state.moving = MoveInProgress(tank.id, points, budget, asked)
        yield ctx.checkpoint(f"turn {state.turn} #{tank.id} step {asked}")
        asked += 1
        spent = points - budget.remaining
        pick = yield from ask(move_menu(state, tank, budget, hybrid=hybrid))
        if isinstance(pick, RotateTurret):
            rotate(ctx, tank, pick.turn)
            continue
        step: Step = pick
        budget = budget.after(step.kind, step.cost, tank.vehicle_class, hybrid=hybrid)
        if step.kind == "stop":
            return points - budget.remaining
        if step.kind in ("turn", "free turn"):
            tank.hull = step.hull
            if tank.spec.turretless:
                tank.turret = step.hull
            ctx.event("hull", f"{tank.name} turns its hull to {facing_name(step.hull)} ({step.kind}, "
                       f"{step.cost} MP)", tank=tank.id, hull=step.hull, cost=step.cost)
            continue
        assert step.to is not None and tank.hex is not None
        if not leap:
            immobilised_at = yield from defensive_fire(ctx, tank, step)
            if not tank.alive:
                return points - budget.remaining
            if tank.immobilised and immobilised_at != step.to:
                return spent  # stopped before this step was taken
        if step.clears_wreck:
            state.wrecks.remove(step.to)
            ctx.event("clear", f"{tank.name} clears the wreck in {hex_label(step.to)}", tank=tank.id)
        ctx.event("move", f"{tank.name} moves {step.kind} {hex_label(tank.hex)} -> {hex_label(step.to)} "
                   f"({budget.remaining} MP left)", tank=tank.id, to=hex_label(step.to), cost=step.cost)
        tank.hex = step.to
        tank.path_this_turn.append(step.to)
        if state.options.get("forced_spotting"):
            spotting_progress(ctx, tank)
    return points - budget.remaining


def _defensive_target_hex(state: GameState, defender: Tank, gun: int, mover: Tank, step: Step) -> Hex | None:
    """Where the moving tank counts as standing for this defender, or ``None`` (2-2; 5 ii-iii).

    Normally the step's starting hex; when clearing a wreck the hex after the step; a lit tank
    under forced spotting may be fired at after the step if it is in arc and sight there.
    """
    assert mover.hex is not None and step.to is not None
    if step.clears_wreck:
        candidates = [step.to]
    elif state.options.get("forced_spotting") and mover.lit > 0:
        candidates = [step.to, mover.hex]
    else:
        candidates = [mover.hex]
    for where in candidates:
        if where == defender.hex:
            continue
        if target_in_reach(state, defender, gun, mover, "defensive", target_hex=where):
            return where
    return None


def defensive_fire(ctx: Context, mover: Tank, step: Step) -> Generator[Decision, Any, Hex | None]:
    """2-2: before the step, each enemy tank with the moving tank in its gun's arc, range and
    sight may fire at -2 (UK -1); it may not turn its turret, and it is then locked until its
    side's next movement phase ends. Returns the hex the mover was fired at when a shot
    immobilised it (HESH), else ``None``."""
    state = ctx.state
    defenders_side = other_side(mover.side)
    origin = mover.hex
    immobilised_at: list[Hex] = []

    def offers(side: str, point: Any) -> list[Response]:
        if not mover.alive or mover.immobilised or mover.hex != origin:
            return []
        out = []
        for d in state.living(side):
            if d.defensive_lock or not can_fire_now(state, d):
                continue
            guns = [d.gun_this_turn] if d.gun_this_turn is not None else range(len(d.spec.guns))
            for gun in guns:
                where = _defensive_target_hex(state, d, gun, mover, step)
                if where is None:
                    continue
                label = fire_label(state, d, FireAt(gun, mover.id), "defensive", target_hex=where, hooks=ctx.hooks)
                out.append(Response(
                    name=f"defensive fire: {label}",
                    controller=side,
                    resolve=_resolver(ctx, d, gun, mover, where, immobilised_at),
                    is_legal=_still_alive(mover),
                    key=("defensive", state.turn, d.id),
                    data={"tank": d.id, "gun": gun, "target": mover.id, "hex": hex_label(where)},
                    payload=(d.id, FireAt(gun, mover.id), where),
                ))
        return out

    assert origin is not None and step.to is not None
    yield from ctx.interrupts.window(
        f"{mover.name} moves {hex_label(origin)} -> {hex_label(step.to)}",
        [defenders_side], offers, rule="作战阶段 2-2 后手方防御射击", kind=kinds.DEFENSIVE_FIRE,
    )
    return immobilised_at[0] if immobilised_at else None


def _still_alive(mover: Tank) -> Callable[[], str | None]:
    def is_legal() -> str | None:
        return None if mover.alive else "the target is already destroyed"

    return is_legal


def _resolver(
    ctx: Context, defender: Tank, gun: int, mover: Tank, where: Hex, immobilised_at: list[Hex]
) -> Callable[[], Generator[Decision, Any, None]]:
    def resolve() -> Generator[Decision, Any, None]:
        defender.defensive_lock = True
        lit_before = mover.lit  # 11: the reduction this step would earn is ignored
        was_mobile = not mover.immobilised
        yield from fire_with(ctx, defender, gun, mover, "defensive", target_hex=where,
                             target_lit=lit_before, wreck_hex=where, rule="作战阶段 2-2 后手方防御射击")
        if was_mobile and mover.immobilised:
            immobilised_at.append(where)

    return resolve


# -- 3. advance fire ---------------------------------------------------------------------------------
def advance_fire(ctx: Context, side: str) -> Generator[Decision, Any, None]:
    """3: advance fire; then, with forced spotting (特殊规则 11), the tanks that stayed put are
    lit up at the end of the side's combat phase."""
    yield from _advance_fire(ctx, side)
    if ctx.state.options.get("forced_spotting"):
        forced_spotting_end(ctx, side)


def _advance_fire(ctx: Context, side: str) -> Generator[Decision, Any, None]:
    """3: each tank that did not fire in step 1 and survived the movement phase may turn its
    turret and fire once at -1 (Soviet -0)."""
    state = ctx.state
    done: list[int] = []
    while True:
        ready = [t for t in state.living(side) if not t.fired and t.id not in done and can_fire_now(state, t)
                 and (could_fire(state, t, "advance") or rotation_options(t))]
        if not ready:
            return
        options = [Option(t.id, _advance_label(state, t), data={"tank": t.id}) for t in ready]
        options.append(Option(None, f"end side {side}'s turn", data={"action": "end"}))
        pick = yield Choose(side=side, prompt=f"Turn {state.turn}, side {side}: advance fire",
                            options=tuple(options), rule="作战阶段 3 前进射击", kind=kinds.ADVANCE_PICK,
                            context={"turn": state.turn, "side": side})
        if pick is None:
            return
        tank = state.tank(pick)
        done.append(tank.id)
        fired = yield from fire_menu(ctx, tank, "advance", rule="作战阶段 3 前进射击")
        if fired:
            tank.fired = True


def _target_count(state: GameState, tank: Tank) -> int:
    return len({t.target for t in valid_targets(state, tank, "advance")})


def _advance_label(state: GameState, tank: Tank) -> str:
    """What choosing ``tank`` for advance fire can do: fire (how many targets are in its arc
    now, or that turning the turret brings one in), or only turn the turret (no enemy in range
    and sight)."""
    if not could_fire(state, tank, "advance"):
        return f"turn {tank.name}'s turret only ({tank.where()}: no enemy in range and sight to fire at)"
    now = _target_count(state, tank)
    if now:
        return f"advance fire with {tank.name} ({tank.where()}, {now} target(s) in arc now)"
    return f"advance fire with {tank.name} ({tank.where()}, a target after turning the turret)"
