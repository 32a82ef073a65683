"""Initiative (先导度): join battle, crash (先导崩溃), break (先导突破), reversal (先导逆转).

Initiative decides the order of turns (highest first; equal values act together) and is the
resource withering attacks fight over. Its track is the core
:class:`~wargamekit.sequencing.InitiativeTrack`, kept in step with each combatant's value.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargamekit import Choose
from wargamekit.dice import Dice

from . import kinds
from .soul import offer_boost
from .state import Combatant, Context, Scene

__all__ = [
    "BASE_INITIATIVE",
    "BREAK_BONUS",
    "award_break",
    "boost_join",
    "join_battle",
    "join_battle_roll",
    "reversal",
    "set_initiative",
    "spend_initiative",
]

BASE_INITIATIVE = 5  # "reset to base initiative" (重置为基础先导度)
BREAK_BONUS = 5  # 先导突破加值
SELF_CRASH_PENALTY = 5  # self-inflicted crash: lose 5 more at once
RULE_JB = "战斗资源与战斗数值 / 先导度 (参战骰)"
RULE_CRASH = "先导度 / 先导崩溃"
RULE_BREAK = "先导度 / 先导突破"
RULE_REVERSAL = "先导度 / 先导逆转"


def join_battle(dice: Dice, unit: Combatant, purpose: str | None = None) -> int:
    """The join-battle roll (参战骰): ``D20 + agility modifier + other bonuses``, minimum 0.

    Non-combatants and trivial opponents have initiative fixed at 0 (no roll).

    >>> from wargamekit import ScriptedDice
    >>> from wargamekit_mttt_rpg.state import Combatant
    >>> akari = Combatant("akari", "Akari", "heroes", "character", "akari")
    >>> join_battle(ScriptedDice([9]), akari)   # agility 16: +3
    12
    """
    return join_battle_roll(dice, unit, purpose)[1]


def join_battle_roll(dice: Dice, unit: Combatant, purpose: str | None = None) -> tuple[int | None, int]:
    """The join-battle roll's natural d20 (``None``: no roll) and its total."""
    if unit.kind == "noncombatant" or unit.trivial:
        return None, 0
    roll = dice.d20(purpose or f"join battle (参战骰): {unit.name}")
    return roll, _join_total(unit, roll)


def _join_total(unit: Combatant, natural: int) -> int:
    return max(0, natural + unit.mod("agility") + unit.sheet.initiative_bonus)


def boost_join(ctx: Context, unit: Combatant, natural: int | None, *, what: str) -> Generator[Any, Any, None]:
    """After a join-battle roll (a d20+x roll): the character may burn soul jade into the die
    and the +x (燃玉, a boss fight only); her initiative rises by what the roll's total gains."""
    if natural is None:
        return
    boost = yield from offer_boost(ctx, unit, face=natural, sides=20, what=what)
    gain = _join_total(unit, natural + boost) - _join_total(unit, natural)
    if gain:
        change_initiative(ctx, unit, gain, why=f"soul jade burnt into the {what} (燃玉)")


def set_initiative(ctx: Context, unit: Combatant, value: int, *, why: str) -> None:
    """Change a combatant's initiative, keeping the track and crash bookkeeping in step."""
    scene: Scene = ctx.state
    before = unit.initiative
    was_crashed = unit.crashed
    unit.initiative = value
    if unit.id in scene.track.values:
        scene.track.set(unit.id, value)
    if before != value:
        ctx.event(
            "initiative",
            f"{unit.name}: initiative {before} -> {value} ({why})",
            unit=unit.id,
            before=before,
            after=value,
        )
    if not was_crashed and unit.crashed:
        ctx.event("crash", f"{unit.name} is in initiative crash (先导崩溃)", unit=unit.id)
        unit.crashed_rounds = 0
    elif was_crashed and not unit.crashed:
        unit.recovered_round = scene.round
        unit.crashed_by = None
        unit.crash_self = False
        unit.crashed_rounds = 0
        ctx.event("crash-recover", f"{unit.name} recovers from initiative crash", unit=unit.id)


def change_initiative(ctx: Context, unit: Combatant, delta: int, *, why: str, floor: bool = False) -> None:
    """Add ``delta`` to a combatant's initiative (``floor``: never below 0)."""
    value = unit.initiative + delta
    set_initiative(ctx, unit, max(0, value) if floor else value, why=why)


def spend_initiative(ctx: Context, unit: Combatant, cost: int, *, why: str) -> Generator[Any, Any, None]:
    """Pay initiative for one's own action (disengage, aim, readying a weapon, withdraw …).

    A character who crashes through her own action loses 5 more at once (and cannot reverse
    that crash); the GM (the ``foes`` player) decides which opponent, if any, most directly
    forced it and gains the break bonus.
    """
    scene: Scene = ctx.state
    was_crashed = unit.crashed
    change_initiative(ctx, unit, -cost, why=why)
    if unit.kind != "character" or was_crashed or not unit.crashed:
        return
    change_initiative(ctx, unit, -SELF_CRASH_PENALTY, why="self-inflicted crash: 5 more (先导崩溃)")
    unit.crash_self = True
    candidates = [e for e in scene.enemies(unit, include_inert=False) if scene.distance(e.id, unit.id) <= 6]
    if not candidates:
        return
    picked = yield Choose.of(  # options hold unit ids, never the live combatants
        "foes",
        f"GM: {unit.name} crashed through her own action. Which opponent most directly forced it "
        "and gains the break bonus?",
        [None, *(c.id for c in candidates)],
        rule=RULE_BREAK,
        label=lambda uid: "nobody" if uid is None else f"{scene.unit(uid).name} (+5 initiative)",
        kind=kinds.BREAK_BONUS,
        context={"unit": unit.id},
        data=lambda uid: {"unit": uid},
    )
    if picked is not None:
        unit.crashed_by = picked
        award_break(ctx, scene.unit(picked), unit)


def award_break(ctx: Context, attacker: Combatant, target: Combatant) -> bool:
    """Give the break bonus (+5) to ``attacker`` for crashing ``target``, unless ``target``
    recovered from a crash this round or the last one, or ``attacker`` is a battle group
    (inert initiative). Returns whether it was given."""
    scene: Scene = ctx.state
    if attacker.inert or not attacker.fighting:
        return False
    recovered = target.recovered_round
    if recovered is not None and scene.round - recovered <= 1:
        ctx.event(
            "no-break",
            f"{attacker.name} gains no break bonus: {target.name} recovered from crash in round {recovered}",
            unit=attacker.id,
            target=target.id,
        )
        return False
    change_initiative(ctx, attacker, BREAK_BONUS, why=f"initiative break on {target.name} (先导突破)")
    return True


def reversal(ctx: Context, unit: Combatant, target: Combatant) -> int | None:
    """Initiative reversal (先导逆转): reset to base initiative (never downwards), add a fresh
    join-battle roll, and refresh the turn; a refreshed attack may only target ``target``.
    Returns the join-battle roll's natural die (for :func:`boost_join`)."""
    scene: Scene = ctx.state
    base = max(unit.initiative, BASE_INITIATIVE)
    natural, roll = join_battle_roll(
        ctx.dice, unit, f"initiative reversal: join battle for {unit.name} (先导逆转)"
    )
    set_initiative(ctx, unit, base + roll, why=f"initiative reversal against {target.name} (先导逆转)")
    unit.reversal_target = target.id
    if unit.id in scene.track.values:
        scene.track.refresh(unit.id)
    ctx.event(
        "reversal",
        f"{unit.name} reverses the crash on {target.name} and acts again",
        unit=unit.id,
        target=target.id,
    )
    return natural
