"""Movement on range bands (移动): move, rush, disengage, recover, take cover, withdraw, and
the battle-group movement rules (passing through, dispersing, leaving smaller groups).

Distances are relative: a move changes the band between the mover and the one combatant she
moves toward or away from; other bands stay as they are (the GM's common sense, simplified:
provisional). Contests (rush, disengage, recovering next to an enemy) are opposed d20 checks
(d20 + agility modifier; the mover must beat every opponent, ties go to the opponent:
provisional). Withdraw (逃脱) is an extended agility pool roll.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from attrs import frozen

from wargamekit import ChooseSubset, Option, Response
from wargamekit.dice import Dice

from . import kinds
from .battle_groups import character_pool_check
from .initiative import spend_initiative
from .ranges import ASTRONOMICAL, GEOGRAPHIC, SIGHT, band_name
from .resources import pool_rating
from .soul import offer_boost
from .state import ACTIVE, PRESENT, WITHDRAWN, Combatant, Context, Scene

__all__ = [
    "WITHDRAW_GOAL",
    "Contest",
    "contest",
    "disengage",
    "move",
    "recover",
    "rush_response",
    "take_cover",
    "withdraw",
]

RULE_MOVE = "移动 / 通常移动"
RULE_RUSH = "移动 / 跟步"
RULE_DISENGAGE = "移动 / 撤退"
RULE_RECOVER = "移动 / 恢复移动力"
RULE_COVER = "移动 / 寻求掩蔽"
RULE_WITHDRAW = "移动 / 逃脱"
RULE_PASS = "战团与移动"
WITHDRAW_GOAL = 5
WITHDRAW_COST = 10
DISENGAGE_COST = 5
PASS_THROUGH_COST = 1


@frozen
class Contest:
    """An opposed d20 check: the actor wins only by beating the opponent."""

    actor: int
    opponent: int

    @property
    def won(self) -> bool:
        return self.actor > self.opponent


def contest(dice: Dice, actor_bonus: int, opponent_bonus: int, purpose: str) -> Contest:
    """Roll an opposed d20 check (pure).

    >>> from wargamekit import ScriptedDice
    >>> contest(ScriptedDice([12, 9]), 3, 2, "rush").won
    True
    """
    return Contest(
        dice.d20(f"{purpose}: actor") + actor_bonus, dice.d20(f"{purpose}: opponent") + opponent_bonus
    )


def contest_roll(
    ctx: Context,
    actor: Combatant,
    opponent: Combatant,
    actor_bonus: int,
    opponent_bonus: int,
    purpose: str,
    *,
    what: str,
) -> Generator[Any, Any, Contest]:
    """:func:`contest` in play: the same two d20s, then each side may burn soul jade into its
    die and its +x (燃玉, a boss fight only), the actor first."""
    mine = ctx.dice.d20(f"{purpose}: actor")
    theirs = ctx.dice.d20(f"{purpose}: opponent")
    mine += yield from offer_boost(ctx, actor, face=mine, sides=20, what=what)
    theirs += yield from offer_boost(ctx, opponent, face=theirs, sides=20, what=what)
    return Contest(mine + actor_bonus, theirs + opponent_bonus)


def _shift(ctx: Context, mover: Combatant, other: Combatant, delta: int, why: str) -> None:
    scene: Scene = ctx.state
    before = scene.distance(mover.id, other.id)
    after = max(0, before + delta)
    scene.set_distance(mover.id, other.id, after)
    ctx.event(
        "move",
        f"{mover.name} {why}: {other.name} is now at {band_name(after)} ({after})",
        unit=mover.id,
        other=other.id,
        band=after,
    )


def follow_up(ctx: Context, mover: Combatant, other: Combatant, delta: int) -> None:
    """Reflexive steps after ``mover`` moved ``delta`` relative to ``other``: a rusher who
    caught ``mover`` follows (跟步), a character who disengaged from ``mover`` steps away (撤退)."""
    if delta > 0 and mover.id in other.rushing and other.fighting:
        _shift(ctx, other, mover, -delta, "follows reflexively (rush, 跟步)")
    if delta < 0 and mover.id in other.disengaged_from and other.fighting:
        other.disengaged_from.clear()  # only the first escaped opponent who closes in
        _shift(ctx, other, mover, 1, "steps reflexively away (disengage, 撤退)")


def can_leave_freely(scene: Scene, mover: Combatant, other: Combatant) -> bool:
    """A battle group leaves opponents 2+ sizes smaller without disengaging (characters count
    as size 0)."""
    other_size = other.size if other.is_group else 0
    return mover.is_group and mover.size - other_size >= 2


def move_targets(
    scene: Scene, mover: Combatant, bands: Mapping[str, int] | None = None
) -> list[tuple[Combatant, int]]:
    """Legal moves (通常移动): (other, ±1) within bands 0–6. ``bands``: the band from ``mover``
    to each combatant, if the caller has read them (the action menu)."""
    out: list[tuple[Combatant, int]] = []
    if mover.prone:
        return out
    # Hot (every menu): the mover's fields read once, ``Combatant.present`` inline, and
    # can_leave_freely asked only of a group (it is false for anyone else)
    mid, side, engaged_by, group = mover.id, mover.side, mover.engaged_by, mover.kind == "group"
    for other in scene.combatants.values():
        oid = other.id
        if oid == mid or other.status not in PRESENT:
            continue
        band = scene.distance(mid, oid) if bands is None else bands[oid]
        opponent = other.side != side
        if opponent and engaged_by == oid:
            continue  # engaged (包围): cannot move relative to the engaging group
        if 0 < band <= SIGHT:
            out.append((other, -1))
        limit = SIGHT + 1 if opponent and group and can_leave_freely(scene, mover, other) else SIGHT
        if band < limit and not (band == SIGHT and not opponent):
            out.append((other, +1))
    return out


def move(ctx: Context, mover: Combatant, other: Combatant, delta: int) -> Generator[Any, Any, None]:
    """A move action: one band toward or away from ``other``. Under Fortifications the losing
    side pays 1 initiative per move (difficult terrain: provisional)."""
    scene: Scene = ctx.state
    _shift(ctx, mover, other, delta, "moves toward" if delta < 0 else "moves away from")
    follow_up(ctx, mover, other, delta)
    if scene.tactic == "fortifications" and scene.tactic_winner not in (None, mover.side):
        yield from spend_initiative(ctx, mover, 1, why="difficult terrain (防御工事)")


def rush_response(
    ctx: Context, unit: Combatant, enemy: Combatant, *, key: Any, at: Mapping[str, Any] | None = None
) -> Response:
    """The rush (跟步) instant action as a stack item: an agility contest; if won, the rusher
    follows every move ``enemy`` makes away from her this round. ``at``: where it is offered
    (added to its data)."""
    uid, eid = unit.id, enemy.id

    def legal() -> str | None:
        s: Scene = ctx.state
        if not s.unit(uid).fighting or not s.unit(eid).fighting:
            return "a rusher or her target left the fight"
        if s.distance(uid, eid) != 0:
            return "no longer at contact distance"
        return None

    def resolve() -> Generator[Any, Any, None]:
        s: Scene = ctx.state
        me, them = s.unit(uid), s.unit(eid)
        result = yield from contest_roll(
            ctx,
            me,
            them,
            me.mod("agility"),
            them.mod("agility"),
            f"rush (跟步): {me.name} vs {them.name}",
            what="rush roll",
        )
        if result.won:
            me.rushing.append(eid)
        ctx.event(
            "rush",
            f"{me.name} rushes {them.name}: {result.actor} vs {result.opponent}: "
            + ("she will follow every step" if result.won else "fails"),
            unit=uid,
            other=eid,
            won=result.won,
        )

    return Response(
        name=f"{unit.name}: rush {enemy.name} (跟步, agility contest)",
        controller=unit.side,
        resolve=resolve,
        is_legal=legal,
        key=key,
        data={"action": "rush", "unit": uid, "target": eid, **(at or {})},
    )


def disengage(ctx: Context, unit: Combatant) -> Generator[Any, Any, bool]:
    """Disengage (撤退): contest agility against every opponent within sight who tries to stop
    her; win them all and move to geographic distance from them (one reflexive step later
    against the first who closes in). −5 initiative, win or lose."""
    scene: Scene = ctx.state
    near = [
        e for e in scene.enemies(unit) if e.kind != "noncombatant" and scene.distance(unit.id, e.id) <= SIGHT
    ]
    stoppers: tuple[Combatant, ...] = ()
    if near:
        # Options hold unit ids, never the live combatants.
        ids = yield ChooseSubset(
            side="foes" if unit.side == "heroes" else "heroes",
            prompt=f"{unit.name} disengages: which of your combatants try to stop her?",
            options=tuple(Option(e.id, e.name, data={"unit": e.id}) for e in near),
            rule=RULE_DISENGAGE,
            kind=kinds.STOP_DISENGAGE,
            context={"unit": unit.id},
        )
        stoppers = tuple(scene.unit(uid) for uid in ids)
    won = True
    for enemy in stoppers:
        result = yield from contest_roll(
            ctx,
            unit,
            enemy,
            unit.mod("agility"),
            enemy.mod("agility"),
            f"disengage (撤退): {unit.name} vs {enemy.name}",
            what="disengage roll",
        )
        ctx.event(
            "disengage-roll",
            f"{unit.name} {result.actor} vs {enemy.name} {result.opponent}",
            unit=unit.id,
            other=enemy.id,
        )
        won = won and result.won
    if won:
        for enemy in near:
            scene.set_distance(unit.id, enemy.id, GEOGRAPHIC)
        unit.disengaged_from = [e.id for e in near]
        for other in scene:
            if unit.id in other.rushing:
                other.rushing.remove(unit.id)
        ctx.event("disengage", f"{unit.name} disengages to geographic distance (地理距离)", unit=unit.id)
    else:
        ctx.event("disengage", f"{unit.name} fails to disengage", unit=unit.id)
    yield from spend_initiative(ctx, unit, DISENGAGE_COST, why="disengage (撤退)")
    return won


def recover(ctx: Context, unit: Combatant) -> Generator[Any, Any, bool]:
    """Recover from prone (恢复移动力): automatic, unless an enemy is at contact: then an
    agility-or-strength contest against one of them (the best of both attributes, against
    that enemy's best)."""
    scene: Scene = ctx.state
    adjacent = [e for e in scene.enemies(unit) if scene.distance(unit.id, e.id) == 0]
    if adjacent:
        enemy = adjacent[0]
        mine = max(unit.mod("agility"), unit.mod("strength"))
        theirs = max(enemy.mod("agility"), enemy.mod("strength"))
        result = yield from contest_roll(
            ctx, unit, enemy, mine, theirs, f"rise from prone next to {enemy.name}", what="rising roll"
        )
        if not result.won:
            ctx.event(
                "prone", f"{unit.name} fails to rise ({result.actor} vs {result.opponent})", unit=unit.id
            )
            return False
    unit.prone = False
    ctx.event("prone", f"{unit.name} gets up", unit=unit.id)
    return True
    yield


def take_cover(ctx: Context, unit: Combatant) -> Generator[Any, Any, bool]:
    """Take cover (寻求掩蔽): an agility roll (d20 + agility modifier, soul jade may be burnt
    into it) against the GM's difficulty for the cover at hand (scenario data)."""
    natural = ctx.dice.d20(f"take cover (寻求掩蔽): {unit.name}")
    natural += yield from offer_boost(ctx, unit, face=natural, sides=20, what="take-cover roll")
    total = natural + unit.mod("agility")
    won = total >= unit.cover_difficulty
    if won:
        unit.cover = unit.cover_available
    ctx.event(
        "cover",
        f"{unit.name} seeks {unit.cover_available} cover: {total} vs {unit.cover_difficulty}: "
        + ("in cover" if won else "finds none"),
        unit=unit.id,
    )
    return won


def can_withdraw(scene: Scene, unit: Combatant, bands: Mapping[str, int] | None = None) -> bool:
    """Withdraw needs every opponent at sight distance or farther (and no Back to the Sea).
    ``bands``: the band from ``unit`` to each combatant, if the caller has read them."""
    side = unit.side
    if scene.tactic == "back_to_the_sea" and side != scene.tactic_winner:
        return False
    if unit.prone:
        return False
    # every fighting opponent but a non-combatant (Scene.enemies), in a loop (hot: every menu)
    uid = unit.id
    for e in scene.combatants.values():
        if e.side != side and e.status == ACTIVE and e.kind != "noncombatant":
            if (scene.distance(uid, e.id) if bands is None else bands[e.id]) < SIGHT:
                return False
    return True


def withdraw(ctx: Context, unit: Combatant) -> Generator[Any, Any, bool]:
    """One round of withdraw (逃脱): move one band away from every enemy, lose 10 initiative
    (even below 0), and roll the extended agility pool; each roll's successes (if they reach
    the GM's difficulty) add up, and each successful roll moves one more band away. At 5
    successes with every enemy at astronomical distance she escapes and the scene ends."""
    scene: Scene = ctx.state
    unit.withdrawing = True
    for enemy in scene.enemies(unit):
        scene.set_distance(unit.id, enemy.id, scene.distance(unit.id, enemy.id) + 1)
    check = yield from character_pool_check(
        ctx,
        unit,
        pool_rating(unit.attribute("agility")),
        scene.withdraw_difficulty,
        f"withdraw (逃脱): {unit.name}",
        what="withdraw pool",
    )
    if check.passed:
        unit.withdraw_successes += check.successes
        for enemy in scene.enemies(unit):
            scene.set_distance(unit.id, enemy.id, scene.distance(unit.id, enemy.id) + 1)
    ctx.event(
        "withdraw",
        f"{unit.name} withdraws: {check.successes} successes (total {unit.withdraw_successes}/{WITHDRAW_GOAL})",
        unit=unit.id,
        successes=unit.withdraw_successes,
    )
    yield from spend_initiative(ctx, unit, WITHDRAW_COST, why="withdraw (逃脱)")
    escaped = unit.withdraw_successes >= WITHDRAW_GOAL and all(
        scene.distance(unit.id, e.id) >= ASTRONOMICAL for e in scene.enemies(unit) if e.kind != "noncombatant"
    )
    if escaped:
        unit.status = WITHDRAWN
        scene.track.remove(unit.id)
        scene.over = f"{unit.name} withdraws from the battlefield (逃脱): the scene ends"
        ctx.event("escaped", scene.over, unit=unit.id)
    return escaped
