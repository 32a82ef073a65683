"""Battle groups (战团): traits, magnitude, rout checks and command actions.

Pure helpers (magnitude, rout difficulty, the pool rolls) sit beside the application functions
that change the scene. The pool rolls (rout check, order, rally, rally for numbers) are
Exalted-style d10 pools: 7+ a success, a 10 twice; a roll succeeds when its successes reach the
difficulty.

>>> magnitude_max(7, 2), magnitude_max(7, 3, perfect_morale=True)
(9, 13)
>>> rout_difficulty(drill="poor", size_lost=1, ally_group_disbanded=True)
4
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from attrs import frozen

from wargamekit.dice import Dice

from .initiative import award_break
from .soul import offer_pool_boost
from .state import GONE, ROUTED, Combatant, Context, Scene

__all__ = [
    "DRILL_COMMAND",
    "PoolCheck",
    "decisive_magnitude_bonus",
    "drill_command_modifier",
    "magnitude_max",
    "rally_for_numbers_gain",
    "roll_pool_check",
    "rout_difficulty",
]

RULE_GROUPS = "处理大规模战斗 / 战团特性"
RULE_DAMAGE = "与战团战斗 / 数量层级与伤害战团"
RULE_ROUT = "与战团战斗 / 伤害与溃败"
RULE_COMMAND = "与战团战斗 / 指挥动作"
DRILL_COMMAND = {"poor": -2, "average": 0, "elite": 2}


def drill_command_modifier(drill: str, action: str) -> int:
    """The drill modifier (训练度) on a command action's pool (``order``, ``rally``,
    ``rally_numbers``).

    Poor drill: −2 on order (命令) and rally for numbers (整队) only — its rally (集结) is
    hampered by the +1 difficulty instead (the failed rout check's difficulty already includes
    it). Average: none. Elite: +2 on every command roll (指挥掷骰).

    >>> [drill_command_modifier("poor", a) for a in ("order", "rally", "rally_numbers")]
    [-2, 0, -2]
    >>> drill_command_modifier("elite", "rally")
    2
    """
    if drill == "poor" and action == "rally":
        return 0
    return DRILL_COMMAND[drill]
PERFECT_MORALE_MAGNITUDE = 3


def magnitude_max(health_levels: int, size: int, *, perfect_morale: bool = False) -> int:
    """Magnitude (数量层级): the average member's health levels + size (+3 perfect morale)."""
    return health_levels + size + (PERFECT_MORALE_MAGNITUDE if perfect_morale else 0)


def decisive_magnitude_bonus(pool: int) -> int:
    """Extra magnitude damage of a decisive attack on a group: one level per four dice of the
    damage pool, rounded up (每有四个骰子（向上取整）).

    >>> [decisive_magnitude_bonus(n) for n in (0, 1, 4, 5, 8)]
    [0, 1, 1, 2, 2]
    """
    return -(-pool // 4)


def rout_difficulty(
    *,
    drill: str,
    size_lost: int = 0,
    ally_group_disbanded: bool = False,
    leader_down: bool = False,
    supernatural_area: bool = False,
) -> int:
    """The rout check's difficulty: 1, +1 for each condition of the table, +1 for poor drill."""
    return (
        1
        + (1 if ally_group_disbanded else 0)
        + (1 if leader_down else 0)
        + size_lost
        + (1 if supernatural_area else 0)
        + (1 if drill == "poor" else 0)
    )


@frozen
class PoolCheck:
    """A pool roll against a difficulty."""

    dice: int
    difficulty: int
    successes: int

    @property
    def passed(self) -> bool:
        return self.successes >= self.difficulty


def roll_pool_check(dice: Dice, pool: int, difficulty: int, purpose: str) -> PoolCheck:
    """Roll ``pool`` d10s (at least 1) against ``difficulty`` (pure).

    >>> from wargamekit import ScriptedDice
    >>> roll_pool_check(ScriptedDice([7, 2, 10]), 3, 2, "rout check").successes
    3
    """
    n = max(1, pool)
    return PoolCheck(n, difficulty, dice.pool(n, purpose).successes)


def character_pool_check(
    ctx: Context, roller: Combatant, pool: int, difficulty: int, purpose: str, *, what: str
) -> Generator[Any, Any, PoolCheck]:
    """A character's d10 pool check (:func:`roll_pool_check`'s roll), into whose dice she may
    burn soul jade (燃玉, a boss fight only; a pool is dX: no +x)."""
    n = max(1, pool)
    roll = ctx.dice.pool(n, purpose)
    successes = yield from offer_pool_boost(ctx, roller, roll, what=what)
    return PoolCheck(n, difficulty, successes)


def rally_for_numbers_gain(successes: int, per: int = 2) -> int:
    """Magnitude regained by rally for numbers: 1 per 2 successes (3 with Back to the Sea)."""
    return successes // per


# -- application ---------------------------------------------------------------------------------
def group_rout_pool(scene: Scene, group: Combatant) -> int:
    """The rout check's pool: the average member's willpower (−1 when demoralized by strategic
    warfare). The drill's modifier on rout checks (算上部队的训练度调整值) is the one the drill
    paragraphs give for them: poor drill +1 difficulty (:func:`rout_difficulty`); the −2/+2
    of poor and elite drill are for command rolls only (our reading)."""
    pool = group.sheet.willpower
    if scene.tactic == "demoralized" and group.side != scene.tactic_winner:
        pool -= 1
    return pool


def leader_down(scene: Scene, group: Combatant) -> bool:
    """Whether a leader or hero of the group has been incapacitated."""
    return any(group.id in u.leader_of and not u.fighting and u.status != "absent" for u in scene)


def rout_check(ctx: Context, group: Combatant, *, supernatural: bool) -> bool:
    """Roll a rout check (溃败检定). Success: lose 1 size, refill magnitude. Failure: the group
    disbands at its next turn (unless rallied). Perfect morale always succeeds."""
    scene: Scene = ctx.state
    sheet = group.group_sheet
    assert sheet is not None
    difficulty = rout_difficulty(
        drill=sheet.drill,
        size_lost=group.size_lost,
        ally_group_disbanded=any(
            scene.unit(g).side == group.side for g in scene.groups_disbanded if g != group.id
        ),
        leader_down=leader_down(scene, group),
        supernatural_area=supernatural,
    )
    if sheet.perfect_morale:
        ctx.event(
            "rout", f"{group.name} has perfect morale (完美士气): the rout check succeeds", unit=group.id
        )
        passed = True
    else:
        check = roll_pool_check(
            ctx.dice, group_rout_pool(scene, group), difficulty, f"rout check (溃败检定): {group.name}"
        )
        passed = check.passed
        ctx.event(
            "rout",
            f"{group.name} rout check: {check.successes} successes against difficulty {difficulty}: "
            + ("holds" if passed else "breaks and will disband at its next turn"),
            unit=group.id,
            successes=check.successes,
            difficulty=difficulty,
        )
    if passed:
        lose_size(ctx, group)
    else:
        group.rout_failed = difficulty
    return passed


def lose_size(ctx: Context, group: Combatant) -> None:
    """Lose 1 size and refill magnitude (size 0: the group ceases to exist)."""
    scene: Scene = ctx.state
    group.size -= 1
    group.size_lost += 1
    group.rallied_for_numbers = False  # the rally-for-numbers limit resets after losing size
    group.rout_failed = None
    sheet = group.group_sheet
    assert sheet is not None
    if group.size <= 0:
        group.status = GONE
        group.magnitude = 0
        scene.track.remove(group.id)
        ctx.event("group-gone", f"{group.name} is reduced to size 0 and no longer exists", unit=group.id)
        return
    group.magnitude_max = magnitude_max(
        group.sheet.health_levels, group.size, perfect_morale=sheet.perfect_morale
    )
    group.magnitude = group.magnitude_max
    ctx.event(
        "size-loss",
        f"{group.name} drops to size {group.size}; magnitude refilled to {group.magnitude}",
        unit=group.id,
    )


def disband(ctx: Context, group: Combatant) -> None:
    """A group that failed its rout check disbands at its next turn: it flees or surrenders."""
    scene: Scene = ctx.state
    group.status = ROUTED
    group.rout_failed = None
    scene.groups_disbanded.append(group.id)
    scene.track.remove(group.id)
    ctx.event("disband", f"{group.name} disbands and flees (溃败)", unit=group.id)


def damage_magnitude(
    ctx: Context, group: Combatant, amount: int, *, attacker: Combatant | None, supernatural: bool = False
) -> Generator[Any, Any, None]:
    """Apply ``amount`` magnitude damage: each time magnitude runs out a rout check follows, and
    damage beyond it carries into the refilled track. Reducing size or disbanding the group gives
    the attacker the break bonus."""
    scene: Scene = ctx.state
    if group.status == ROUTED:
        scene.casualties[group.id] = scene.casualties.get(group.id, 0) + amount
        ctx.event(
            "slaughter",
            f"{group.name}: about {amount} more fleeing fighters cut down (屠杀)",
            unit=group.id,
            amount=amount,
        )
        return
    left = amount
    while left > 0 and group.fighting and group.rout_failed is None:
        take = min(left, group.magnitude)
        group.magnitude -= take
        left -= take
        ctx.event(
            "magnitude",
            f"{group.name} loses {take} magnitude ({group.magnitude}/{group.magnitude_max})",
            unit=group.id,
        )
        if group.magnitude > 0:
            break
        size_before = group.size
        rout_check(ctx, group, supernatural=supernatural)
        if attacker is not None and (group.size < size_before or group.rout_failed is not None):
            award_break(ctx, attacker, group)
        if group.kind == "noncombatant":
            break
    return
    yield  # a generator, for uniformity with the other damage procedures
