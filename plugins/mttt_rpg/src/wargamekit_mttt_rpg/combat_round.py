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
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargamekit import Outcome, YesNo

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
from .interrupt_phase import open_window, turn_responses
from .resources import activation_speed, unfold_pool
from .state import ABSENT, ACTIVE, Combatant, Scene
from .warfare import strategic_warfare

__all__ = ["play_scene", "round_start", "settle", "victory"]

RULE_PREP = "战斗流程 / 准备阶段"
RULE_MANA = "阶段1：解放法力"
RULE_TURNS = "阶段2：行动轮"
RULE_SETTLE = "阶段3：结算法力"
RULE_JOIN = "中途加入"
RULE_SIMULTANEOUS = "先导度 / 先导度变动和同步动作"
RULE_WAIT = "战斗行动 / 待机"


def _counts(u: Combatant) -> bool:
    """Whether ``u`` keeps its side in the fight (non-combatants and trivial opponents do not)."""
    return u.kind in ("character", "group") and not u.trivial and u.status in (ACTIVE, ABSENT)


def scores(scene: Scene) -> dict[str, float]:
    """HP left on each side's fighting characters (a report, not a victory condition)."""
    return {
        side: float(sum(u.hp for u in scene if u.side == side and u.kind == "character" and u.fighting))
        for side in ("heroes", "foes")
    }


def victory(scene: Scene) -> Outcome | None:
    """The scene's end: a withdrawal, or one side with nobody left fighting."""
    points = scores(scene)
    if scene.over:
        return Outcome(None, scene.over, points)
    alive = {side: any(_counts(u) for u in scene if u.side == side) for side in ("heroes", "foes")}
    if alive["heroes"] and not alive["foes"]:
        return Outcome("heroes", "every foe is helpless, routed or gone", points)
    if alive["foes"] and not alive["heroes"]:
        return Outcome("foes", "every hero is helpless or gone", points)
    if not alive["heroes"] and not alive["foes"]:
        return Outcome(None, "nobody is left standing", points)
    return None


def _join(game: Any, unit: Combatant, *, mid_fight: bool) -> int | None:
    """Join battle; returns the roll's natural die (``None``: no roll) for :func:`boost_join`."""
    scene: Scene = game.state
    unit.status = ACTIVE
    natural, value = join_battle_roll(game.dice, unit)
    unit.initiative = value
    acts = unit.prepared or not mid_fight
    scene.track.add(unit.id, value, acts_this_round=acts)
    if unit.kind == "noncombatant":
        scene.track.remove(unit.id)  # bystanders take no turns
    game.event(
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


def preparation(game: Any) -> Generator[Any, Any, None]:
    """The preparation phase (准备阶段)."""
    scene: Scene = game.state
    scene.phase = "preparation"
    for u in scene:
        if u.status == ACTIVE:
            what = f"magnitude {u.magnitude}, size {u.size}" if u.is_group else f"HP {u.hp}/{u.hp_max}"
            game.event(
                "prepare", f"{u.name} ({u.side}): {what}, ready weapon {u.weapon or 'none'}", unit=u.id
            )
    game.event("prepare", "mana pools are folded (MPM 0); they unfold from round 1")
    if game.scenario.warfare is not None:
        yield from strategic_warfare(
            game, {"heroes": game.scenario.warfare.heroes, "foes": game.scenario.warfare.foes}
        )
    joined = [(u, _join(game, u, mid_fight=False)) for u in scene if u.status == ACTIVE]
    for u, natural in joined:  # everyone has rolled; then soul jade may be burnt (燃玉)
        yield from boost_join(game, u, natural, what="join battle")


def release_mana(game: Any) -> None:
    """Phase 1 (解放法力): unfold each pool by the activation speed; refresh MP to the cap."""
    scene: Scene = game.state
    speed = activation_speed(scene.long_river_count())
    for u in scene:
        if u.kind != "character" or not u.present:
            continue
        u.order_cap = unfold_pool(u.order_cap, u.sheet.order_pool, speed)
        u.distortion_cap = unfold_pool(u.distortion_cap, u.sheet.distortion_pool, speed)
        u.order_mp = u.order_cap
        u.distortion_mp = u.distortion_cap
    game.event("mana", f"round {scene.round}: activation speed {speed}; pools unfold", speed=speed)


def round_start(game: Any) -> list[tuple[Combatant, int | None]]:
    """Bookkeeping at the start of a round: crash resets, wait bonuses, orders, late joiners.
    Returns the late joiners with their join-battle dice (burning soul jade into those is a
    decision: :func:`_rounds` offers it)."""
    scene: Scene = game.state
    scene.track.new_round()
    for u in scene:
        if not u.fighting:
            continue
        if u.crashed and u.crashed_rounds >= 3:
            set_initiative(
                game, u, BASE_INITIATIVE, why=f"three rounds in crash: reset to base ({RULE_CRASH})"
            )
        if u.waited_this_round:
            change_initiative(
                game, u, 5 * u.consecutive_waits, why=f"{u.consecutive_waits} consecutive waits ({RULE_WAIT})"
            )
            u.waited_this_round = False
        else:
            u.consecutive_waits = 0
        u.order_bonus, u.pending_order = u.pending_order, 0
    return [
        (u, _join(game, u, mid_fight=True))
        for u in scene
        if u.status == ABSENT and u.joins_round == scene.round
    ]


def _order_ties(game: Any, actors: tuple[str, ...], tick: int) -> Generator[Any, Any, list[str]]:
    """Simultaneous actors: a player who yields goes after; among the rest a coin toss (a
    random pick for more than two) decides who goes first."""
    scene: Scene = game.state
    eager: list[str] = []
    yielding: list[str] = []
    for uid in actors:
        unit = scene.unit(uid)
        others = ", ".join(scene.unit(o).name for o in actors if o != uid)
        gives = yield YesNo(
            side=unit.side,
            prompt=f"{unit.name} acts at tick {tick} together with {others}: let them go first?",
            rule=RULE_SIMULTANEOUS,
        )
        (yielding if gives else eager).append(uid)
    order: list[str] = []
    while len(eager) > 1:
        first = game.dice.pick(eager, f"coin toss: who acts first at tick {tick}")
        eager.remove(first)
        order.append(first)
    return order + eager + yielding


def _turn_start(game: Any, unit: Combatant) -> None:
    """Effects that last "until her next turn" end (猛攻减值, 交锋, 全力防御, 护卫 …)."""
    scene: Scene = game.state
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


def take_turn(game: Any, uid: str, same_tick: list[str]) -> Generator[Any, Any, None]:
    """One turn (轮): turn start, turn responses, gain the standard action, active step, turn end."""
    scene: Scene = game.state
    unit = scene.unit(uid)
    scene.acting = uid
    # 先导度变动和同步动作: lifted past the current tick, she acts "在下一个时点" — the log names
    # the tick she acts at (the track's), not her new initiative.
    tick = scene.track.tick if scene.track.tick is not None else unit.initiative
    game.event(
        "turn",
        f"round {scene.round}, tick {tick}: {unit.name}'s turn",
        unit=uid,
        round=scene.round,
        tick=tick,
    )
    yield from open_window(game, "before turn start", active=uid)
    if not unit.fighting or scene.over:
        return
    if not unit.aiming:
        _turn_start(game, unit)
    yield from open_window(game, "turn start", active=uid)
    yield from turn_responses(game, unit)
    if unit.is_group and unit.rout_failed is not None:
        disband(game, unit)
        return
    if not unit.fighting or scene.over:
        return
    yield from open_window(game, "before gaining the standard action", active=uid)
    yield from open_window(game, "after gaining the standard action", active=uid)
    if unit.fighting and not scene.over and victory(scene) is None:
        yield from active_step(game, unit, same_tick)
    yield from open_window(game, "before turn end", active=uid)
    yield from open_window(game, "after turn end (before the next turn)", active=uid)
    scene.acting = None


def settle(game: Any) -> None:
    """Phase 3 (结算法力): leftover MP lapses, round-long effects end, and every character in
    crash counts one more round in it (先导崩溃: three in a row reset her at the next round's
    start, see :func:`round_start`)."""
    scene: Scene = game.state
    scene.phase = "settle"
    for u in scene:
        u.protection_bonus = 0
        u.rushing = []
        if u.fighting and u.crashed:
            u.crashed_rounds += 1
    game.event(
        "settle",
        f"round {scene.round} ends: leftover MP lapses; the order is recomputed",
        round=scene.round,
    )


def end_of_fight(game: Any, outcome: Outcome) -> Outcome:
    """The end phase (结束阶段): tally every unit; unused burn points vanish (燃玉点数的消失) and
    the soul jade burnt in the second stage is settled as lost."""
    scene: Scene = game.state
    scene.phase = "ended"
    for u in scene:
        if u.burn_points or u.converted:
            lost = ", ".join(u.converted) or "nothing invested"
            game.event(
                "jade",
                f"{u.name}: {u.burn_points} unused burn points vanish; lost to the flames: {lost}",
                unit=u.id,
            )
            u.burn_points = 0
    for u in scene:
        what = f"size {u.size}, magnitude {u.magnitude}" if u.is_group else f"HP {u.hp}/{u.hp_max}"
        game.event("tally", f"{u.name} ({u.side}): {u.status}, {what}", unit=u.id)
    return outcome


def play_scene(game: Any) -> Generator[Any, Any, Outcome]:
    """The whole combat scene."""
    return end_of_fight(game, (yield from _rounds(game)))


def _rounds(game: Any) -> Generator[Any, Any, Outcome]:
    scene: Scene = game.state
    yield from preparation(game)
    while True:
        scene.round += 1
        if scene.round > scene.round_limit:
            scene.round = scene.round_limit
            return Outcome(
                None, f"the round limit ({scene.round_limit}) is reached: the fight breaks off", scores(scene)
            )
        scene.phase = "mana"
        release_mana(game)
        for unit, natural in round_start(game):
            yield from boost_join(game, unit, natural, what="join battle")
        scene.phase = "turns"
        game.event("round", f"round {scene.round} begins", round=scene.round)
        while (turn := scene.track.next_turn()) is not None:
            order = list(turn.actors)
            if len(order) > 1:
                order = yield from _order_ties(game, turn.actors, turn.number)
            while order:
                uid = order.pop(0)
                if scene.unit(uid).fighting:
                    yield from take_turn(game, uid, order)
                result = victory(scene)
                if result is not None:
                    return result
        settle(game)
