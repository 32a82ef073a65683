"""The combat flow (战斗流程): preparation, then rounds of three phases until the scene ends.

* Preparation (准备阶段): confirm every combatant's state; confirm the mana pools (all folded:
  MPM 0); strategic warfare if the scene has generals; everyone joins battle (参战骰).
* Phase 1, release mana (解放法力): unfold every pool by the activation speed, refresh MP.
* Phase 2, turns (行动轮): highest initiative first on the core
  :class:`~wargamekit.sequencing.InitiativeTrack`; each turn is turn start, turn responses,
  gaining the standard action, the active step, turn end — with an interrupt window at every
  timing point.
* Phase 3, settle mana (结算法力): leftover MP lapses; crash counts advance; the next round's
  order follows from the initiatives.

The rounds are a core :class:`~wargamekit.sequencing.PhaseCycle` of :data:`ROUND_PHASES`, run by
:func:`~wargamekit.sequencing.play_turns` with the phases as a
:func:`~wargamekit.sequencing.by_phase` table; phase 2 is ``play_turns`` on the
``InitiativeTrack`` (:func:`action_round`). The scene ends as soon as :func:`victory` finds a
winner after a turn, or when the round limit is reached.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable
from typing import Any

from wargamekit import Outcome, YesNo
from wargamekit.sequencing import PhaseCycle, Turn, TurnResult, by_phase, play_turns

from . import kinds
from .battle_groups import disband
from .combat_actions import active_step
from .initiative import (
    BASE_INITIATIVE,
    RULE_CRASH,
    boost_join,
    change_initiative,
    join_battle_roll,
    set_initiative,
)
from .interrupt_phase import open_windows, turn_responses
from .resources import activation_speed, unfold_pool
from .state import ABSENT, ACTIVE, PRESENT, Combatant, Context, Scene
from .warfare import strategic_warfare

__all__ = ["ROUND_PHASES", "action_round", "play_scene", "round_start", "settle", "victory"]

RULE_PREP = "战斗流程 / 准备阶段"
RULE_MANA = "阶段1：解放法力"
RULE_TURNS = "阶段2：行动轮"
RULE_SETTLE = "阶段3：结算法力"
RULE_JOIN = "中途加入"
RULE_SIMULTANEOUS = "先导度 / 先导度变动和同步动作"
RULE_WAIT = "战斗行动 / 待机"


#: A unit keeps its side in the fight while its status and kind are among these and it is not
#: trivial (non-combatants and trivial opponents do not): :func:`victory`'s test.
_IN_FIGHT = (ACTIVE, ABSENT)
_FIGHTING_KINDS = ("character", "group")


def scores(scene: Scene) -> dict[str, float]:
    """HP left on each side's fighting characters (a report, not a victory condition)."""
    return {
        side: float(sum(u.hp for u in scene if u.side == side and u.kind == "character" and u.fighting))
        for side in ("heroes", "foes")
    }


def victory(scene: Scene) -> Outcome | None:
    """The scene's end: a withdrawal, or one side with nobody left fighting."""
    # Hot (after every turn and every action): one pass, each unit's test inline, that stops as soon as
    # both sides are found in the fight (the usual answer); the scores summed only for an outcome.
    if scene.over:
        return Outcome(None, scene.over, scores(scene))
    heroes = foes = False  # whether anyone keeps the side in the fight
    for u in scene.combatants.values():
        if u.status in _IN_FIGHT and u.kind in _FIGHTING_KINDS and not u.trivial:
            side = u.side
            if side == "heroes":
                heroes = True
            elif side == "foes":
                foes = True
            if heroes and foes:
                return None
    if heroes:
        return Outcome("heroes", "every foe is helpless, routed or gone", scores(scene))
    if foes:
        return Outcome("foes", "every hero is helpless or gone", scores(scene))
    return Outcome(None, "nobody is left standing", scores(scene))


def _join(ctx: Context, unit: Combatant, *, mid_fight: bool) -> int | None:
    """Join battle; returns the roll's natural die (``None``: no roll) for :func:`boost_join`."""
    scene: Scene = ctx.state
    unit.status = ACTIVE
    natural, value = join_battle_roll(ctx.dice, unit)
    unit.initiative = value
    acts = unit.prepared or not mid_fight
    scene.track.add(unit.id, value, acts_this_round=acts)
    if unit.kind == "noncombatant":
        scene.track.remove(unit.id)  # bystanders take no turns
    ctx.event(
        "join",
        f"{unit.name} joins battle with initiative {value}"
        + (
            ""
            if not mid_fight
            else (" (prepared: acts this round)" if acts else " (unprepared: first acts next round)")
        ),
        unit=unit.id,
        initiative=value,
    )
    return natural


def preparation(ctx: Context) -> Generator[Any, Any, None]:
    """The preparation phase (准备阶段)."""
    scene: Scene = ctx.state
    for u in scene:
        if u.status == ACTIVE:
            what = f"magnitude {u.magnitude}, size {u.size}" if u.is_group else f"HP {u.hp}/{u.hp_max}"
            ctx.event(
                "prepare", f"{u.name} ({u.side}): {what}, ready weapon {u.weapon or 'none'}", unit=u.id
            )
    ctx.event("prepare", "mana pools are folded (MPM 0); they unfold from round 1")
    if ctx.scenario.warfare is not None:
        yield from strategic_warfare(
            ctx, {"heroes": ctx.scenario.warfare.heroes, "foes": ctx.scenario.warfare.foes}
        )
    joined = [(u, _join(ctx, u, mid_fight=False)) for u in scene if u.status == ACTIVE]
    for u, natural in joined:  # everyone has rolled; then soul jade may be burnt (燃玉)
        yield from boost_join(ctx, u, natural, what="join battle")


def release_mana(ctx: Context) -> None:
    """Phase 1 (解放法力): unfold each pool by the activation speed; refresh MP to the cap."""
    scene: Scene = ctx.state
    speed = activation_speed(scene.long_river_count())
    for u in scene:
        if u.kind != "character" or u.status not in PRESENT:  # Combatant.present, as a slot
            continue
        sheet = u.sheet  # (a property: read once)
        u.order_cap = unfold_pool(u.order_cap, sheet.order_pool, speed)
        u.distortion_cap = unfold_pool(u.distortion_cap, sheet.distortion_pool, speed)
        u.order_mp = u.order_cap
        u.distortion_mp = u.distortion_cap
    ctx.event("mana", f"round {scene.round}: activation speed {speed}; pools unfold", speed=speed)


def round_start(ctx: Context) -> list[tuple[Combatant, int | None]]:
    """Bookkeeping at the start of a round: crash resets, wait bonuses, orders, late joiners.
    Returns the late joiners with their join-battle dice (burning soul jade into those is a
    decision: :func:`_rounds` offers it)."""
    scene: Scene = ctx.state
    scene.track.new_round()
    for u in scene:
        if u.status != ACTIVE:  # Combatant.fighting, as a slot (hot: every unit, every round)
            continue
        if u.crashed and u.crashed_rounds >= 3:
            set_initiative(
                ctx, u, BASE_INITIATIVE, why=f"three rounds in crash: reset to base ({RULE_CRASH})"
            )
        if u.waited_this_round:
            change_initiative(
                ctx, u, 5 * u.consecutive_waits, why=f"{u.consecutive_waits} consecutive waits ({RULE_WAIT})"
            )
            u.waited_this_round = False
        else:
            u.consecutive_waits = 0
        u.order_bonus, u.pending_order = u.pending_order, 0
    return [
        (u, _join(ctx, u, mid_fight=True))
        for u in scene
        if u.status == ABSENT and u.joins_round == scene.round
    ]


def _order_ties(ctx: Context, actors: tuple[str, ...], tick: int) -> Generator[Any, Any, list[str]]:
    """Simultaneous actors: a player who yields goes after; among the rest a coin toss (a
    random pick for more than two) decides who goes first."""
    scene: Scene = ctx.state
    eager: list[str] = []
    yielding: list[str] = []
    for uid in actors:
        unit = scene.unit(uid)
        others = ", ".join(scene.unit(o).name for o in actors if o != uid)
        gives = yield YesNo(
            side=unit.side,
            prompt=f"{unit.name} acts at tick {tick} together with {others}: let them go first?",
            rule=RULE_SIMULTANEOUS,
            kind=kinds.YIELD_TICK,
            context={"unit": uid, "tick": tick, "with": [o for o in actors if o != uid]},
        )
        (yielding if gives else eager).append(uid)
    order: list[str] = []
    while len(eager) > 1:
        first = ctx.dice.pick(eager, f"coin toss: who acts first at tick {tick}")
        eager.remove(first)
        order.append(first)
    return order + eager + yielding


def _turn_start(ctx: Context, unit: Combatant) -> None:
    """Effects that last "until her next turn" end (猛攻减值, 交锋, 全力防御, 护卫 …)."""
    scene: Scene = ctx.state
    unit.onslaught = 0
    unit.clash_penalty = 0
    unit.full_defense = False
    unit.guarding = False
    unit.defense_bonus = 0
    unit.disengaged_from = []
    unit.readied_this_turn = False
    if unit.is_group:
        for other in scene:
            if other.engaged_by == unit.id:
                other.engaged_by = None


def take_turn(
    ctx: Context, uid: str, same_tick: list[str], *, quiet: bool = False
) -> Generator[Any, Any, bool]:
    """One turn (轮): turn start, turn responses, gain the standard action, active step, turn end.
    ``quiet``: the caller knows that the window before turn start closes at once (the turn
    before this one, in the same round, ended with windows that closed at once, and no rule
    since changed what anyone may answer).

    Returns:
        Whether the turn ended with windows that closed at once (see :func:`.open_windows`);
        ``False`` whenever that is not known (a turn cut short).
    """
    scene: Scene = ctx.state
    unit = scene.unit(uid)
    scene.acting = uid
    # 先导度变动和同步动作: lifted past the current tick, she acts "在下一个时点" — the log names
    # the tick she acts at (the track's), not her new initiative.
    tick = scene.track.tick if scene.track.tick is not None else unit.initiative
    ctx.event(
        "turn",
        f"round {scene.round}, tick {tick}: {unit.name}'s turn",
        unit=uid,
        round=scene.round,
        tick=tick,
    )
    # From before turn start to the standard action declared, a window that closes at once is
    # followed by no rule that changes what anyone may answer (unless a group's turn start frees
    # the units it engaged, or turn responses push or trigger): the windows after it close at
    # once too, and are not tested again (``quiet``; hot: 4 of the ~6 tests of a turn).
    quiet = yield from open_windows(ctx, ("before turn start",), active=uid, quiet=quiet)
    # (Combatant.fighting read as the status slot here and below: hot, every turn; a property
    # read costs several times a slot's)
    if unit.status != ACTIVE or scene.over:
        return False
    if not unit.aiming:
        _turn_start(ctx, unit)
        quiet = quiet and not unit.is_group  # freed from a group's engagement, one may rush
    quiet = yield from open_windows(ctx, ("turn start",), active=uid, quiet=quiet)
    quiet = yield from turn_responses(ctx, unit, quiet=quiet)
    if unit.is_group and unit.rout_failed is not None:
        disband(ctx, unit)
        return False
    if unit.status != ACTIVE or scene.over:
        return False
    quiet = yield from open_windows(
        ctx, ("before gaining the standard action", "after gaining the standard action"), active=uid, quiet=quiet
    )
    if unit.status == ACTIVE and not scene.over and victory(scene) is None:
        yield from active_step(ctx, unit, same_tick, quiet=quiet)
    ended_quiet = yield from open_windows(
        ctx, ("before turn end", "after turn end (before the next turn)"), active=uid
    )
    scene.acting = None
    return ended_quiet


def settle(ctx: Context) -> None:
    """Phase 3 (结算法力): leftover MP lapses, round-long effects end, and every character in
    crash counts one more round in it (先导崩溃: three in a row reset her at the next round's
    start, see :func:`round_start`)."""
    scene: Scene = ctx.state
    for u in scene:
        u.protection_bonus = 0
        u.rushing = []
        if u.status == ACTIVE and u.crashed:  # (Combatant.fighting, as a slot: every unit, every round)
            u.crashed_rounds += 1
    ctx.event(
        "settle",
        f"round {scene.round} ends: leftover MP lapses; the order is recomputed",
        round=scene.round,
    )


def end_of_fight(ctx: Context, outcome: Outcome) -> Outcome:
    """The end phase (结束阶段): tally every unit; unused burn points vanish (燃玉点数的消失) and
    the soul jade burnt in the second stage is settled as lost."""
    scene: Scene = ctx.state
    scene.phase = "ended"
    for u in scene:
        if u.burn_points or u.converted:
            lost = ", ".join(u.converted) or "nothing invested"
            ctx.event(
                "jade",
                f"{u.name}: {u.burn_points} unused burn points vanish; lost to the flames: {lost}",
                unit=u.id,
            )
            u.burn_points = 0
    for u in scene:
        what = f"size {u.size}, magnitude {u.magnitude}" if u.is_group else f"HP {u.hp}/{u.hp_max}"
        ctx.event("tally", f"{u.name} ({u.side}): {u.status}, {what}", unit=u.id)
    return outcome


def play_scene(ctx: Context) -> Generator[Any, Any, Outcome]:
    """The whole combat scene: preparation, then rounds until the scene ends, then the tally."""
    return end_of_fight(ctx, (yield from _rounds(ctx)))


#: The three phases of a round (战斗流程), as :class:`~wargamekit.sequencing.PhaseCycle` runs them.
ROUND_PHASES = ("mana", "turns", "settle")


def _rounds(ctx: Context) -> Generator[Any, Any, Outcome]:
    """Preparation, then a :class:`~wargamekit.sequencing.PhaseCycle` of rounds (one per game
    turn, up to the scene's round limit), each with its three phases run :func:`by_phase`; the
    scene ends as soon as a side has won (:func:`victory`, checked after every turn)."""
    scene: Scene = ctx.state
    # Checkpoints (restart points) open each round but the first, and each turn (see
    # action_round), where the interrupt stack is empty. Everything later steps read is in the
    # scene there (the round and phase, the initiative track, who at the tick is still waiting,
    # every combatant); ``ended`` is still empty. A restart skips the preparation and the rounds
    # already played (``scene.round`` is the last round begun); one at a turn (the scene in
    # phase 2) first finishes the round it is in.
    if scene.round == 0:
        yield from preparation(ctx)
    ended: list[Outcome] = []
    resumed = [scene.phase == "turns"]  # restarted at a turn: the round was announced before

    def over() -> bool:
        # The first outcome found is the scene's: nothing changes between it and the end.
        if not ended and (outcome := victory(scene)) is not None:
            ended.append(outcome)
        return bool(ended)

    def mana(turn: Turn[Hashable]) -> Generator[Any, Any, None]:
        release_mana(ctx)
        for unit, natural in round_start(ctx):
            yield from boost_join(ctx, unit, natural, what="join battle")

    def turns(turn: Turn[Hashable]) -> Generator[Any, Any, TurnResult]:
        if resumed[0]:
            resumed[0] = False
        else:
            ctx.event("round", f"round {scene.round} begins", round=scene.round)
        yield from action_round(ctx, over)
        return TurnResult(end=over())

    def settle_mana(turn: Turn[Hashable]) -> Generator[Any, Any, None]:
        settle(ctx)
        yield from ()

    phases = by_phase({"mana": mana, "turns": turns, "settle": settle_mana})

    def take_phase(turn: Turn[Hashable]) -> Generator[Any, Any, TurnResult | None]:
        if turn.phase == ROUND_PHASES[0] and turn.number > 1:
            yield ctx.checkpoint(f"round {turn.number}")
        # The round and phase are kept on the scene as a record (views, summary, and the
        # windows of the interrupt phase, which open in phase 2 only).
        scene.round, scene.phase = turn.number, str(turn.phase)
        return (yield from phases(turn))

    if resumed[0]:
        # A restart at a turn: the rest of the round begun (its turns, then settling mana).
        rest = PhaseCycle(ROUND_PHASES[1:], last_turn=scene.round)
        rest.turn = scene.round - 1
        yield from play_turns(rest, ctx.dice, take_phase)
    if not ended:
        cycle = PhaseCycle(ROUND_PHASES, last_turn=scene.round_limit)
        cycle.turn = scene.round  # go on after the last round begun (0 on a fresh scene)
        yield from play_turns(cycle, ctx.dice, take_phase)
    if ended:
        return ended[0]
    return Outcome(
        None,
        f"the round limit ({scene.round_limit}) is reached and both sides still have someone fighting: "
        "the fight breaks off undecided (a side wins only when nobody of the other is left fighting; "
        "the scores are the HP left, a report only)",
        scores(scene),
    )


def action_round(ctx: Context, over: Callable[[], bool]) -> Generator[Any, Any, None]:
    """Phase 2 (行动轮): the scene's :class:`~wargamekit.sequencing.InitiativeTrack` gives each
    tick's actors, highest initiative first, until everyone has acted or ``over()``.

    Simultaneous actors (先导度变动和同步动作) act one after another in the order
    :func:`_order_ties` settles (kept in ``scene.waiting``); one struck back in a clash (交锋)
    has used her turn and is skipped. Each turn begins at a checkpoint, so a restart there goes
    on with the tick's actors still waiting, then the track.
    """
    scene: Scene = ctx.state
    # Whether the last turn ended with windows that closed at once (hot: a test at every turn's
    # start). Between that turn's end and the next turn's "before turn start" in the same round
    # no rule changes what anyone may answer (mana, positions, conditions, the stack): the
    # track gives the next tick, simultaneous actors are ordered (a yes/no, a coin toss), so
    # that window closes at once too. Not kept in the scene: a restart tests it again, with the
    # same result.
    calm = [False]

    def tick(turn: Turn[str]) -> Generator[Any, Any, None]:
        order = list(turn.actors)
        if len(order) > 1:
            order = yield from _order_ties(ctx, turn.actors, turn.number)
        scene.waiting = tuple(order)
        yield from _tick_turns(ctx, over, calm)

    if scene.waiting:  # restarted at a turn of a tick begun
        yield from _tick_turns(ctx, over, calm)
        if over():
            return
    yield from play_turns(scene.track, ctx.dice, tick, end_if=over)


def _tick_turns(ctx: Context, over: Callable[[], bool], calm: list[bool]) -> Generator[Any, Any, None]:
    """The turns of the actors waiting at this tick (``scene.waiting``), in order, each from a
    checkpoint; the actors no longer fighting are skipped. Stops as soon as ``over()``.
    ``calm[0]``: whether the round's last turn ended with windows that closed at once (read
    and kept here, see :func:`action_round`)."""
    scene: Scene = ctx.state
    while scene.waiting:
        uid, *rest = scene.waiting
        if scene.combatants[uid].status == ACTIVE:  # (Scene.unit, Combatant.fighting inline: every turn)
            yield ctx.checkpoint(f"round {scene.round}, tick {scene.track.tick}: {uid}'s turn")
            scene.waiting = tuple(rest)
            calm[0] = yield from take_turn(ctx, uid, rest, quiet=calm[0])
            scene.waiting = tuple(rest)  # a clash (交锋) may have taken its target out of ``rest``
        else:
            scene.waiting = tuple(rest)
        if over():
            scene.waiting = ()
            return
