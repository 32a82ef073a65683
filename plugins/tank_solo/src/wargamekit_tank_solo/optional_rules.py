"""Optional rules that act at fixed points of the turn (特殊规则 10 不可靠的发动机,
11 强制点亮). Veteran gunner (8) and ammunition shortage (12) live in
:mod:`~wargamekit_tank_solo.combat`, hybrid drive (9) in :mod:`~wargamekit_tank_solo.movement`.

>>> [engine_roll_due("tiger2", n, own_side=True) for n in range(1, 7)]
[False, True, False, True, False, True]
>>> [engine_roll_due("maus", n, own_side=side) for n in range(1, 4) for side in (True, False)]
[True, True, True, True, True, True]
>>> engine_roll_due("tiger2", 2, own_side=False)
False
"""

from __future__ import annotations

from .state import Context, Tank

__all__ = ["OPTIONS", "engine_roll_due", "other_hit_modifier_bounds", "engine_rolls_before_maintenance", "forced_spotting_end", "spotting_progress"]

#: The optional rules and their defaults (all off, as the source makes them optional); surrender
#: is always allowed by the source, the switch only lets simulations turn it off.
OPTIONS: dict[str, bool] = {
    "surrender": True,
    "veteran_gunner": False,
    "veteran_gunner_per_fire_type": False,
    "hybrid_drive": False,
    "unreliable_engines": False,
    "forced_spotting": False,
    "ammunition_shortage": False,
}

def other_hit_modifier_bounds(max_tanks: int, turn_limit: int) -> tuple[int, int]:
    """The least and greatest hit modifier beyond the fire form's and nation's: the veteran
    gunner's bonus (8: +1 per kill, so at most the ``max_tanks`` of the enemy force) plus the
    target's forced-spotting marker (11: +1 per turn it stays put, so at most ``turn_limit``).
    Neither is ever negative.

    >>> other_hit_modifier_bounds(10, 10)
    (0, 20)
    """
    return 0, max_tanks + turn_limit


#: 10-3: rolled before the side's 2nd, 4th, 6th ... turn's maintenance phase.
EVERY_OTHER_TURN = frozenset({"tiger2", "jagdtiger", "is2"})


def engine_roll_due(model: str, own_turn: int, *, own_side: bool) -> bool:
    """Whether ``model`` rolls for its engine before this turn's maintenance phase.

    Args:
        model: the vehicle key.
        own_turn: how many turns the tank's own side has had, this one included when it is
            the side's turn.
        own_side: whether the turn is the tank's own side's turn.

    10-2, the Maus: "每回合【整备阶段】之前投骰子" — before *every* turn's maintenance phase,
    the opponent's turns included. 10-3, Tiger II, Jagdtiger, IS-2: "己方第二次先手回合 …
    之前投骰子", only before its own side's turns: the second and every second one after.
    """
    if model == "maus":
        return True
    if model in EVERY_OTHER_TURN:
        return own_side and own_turn % 2 == 0
    return False


def engine_rolls_before_maintenance(ctx: Context, side: str) -> None:
    """10-2 / 10-3, before the maintenance phase of ``side``'s turn: roll a d6 for every tank due
    (either side's Maus; the active side's 10-3 tanks on their turn); a 1 means the tank cannot
    move this turn, so the free-point total of this turn leaves it out (一、整备阶段)."""
    state = ctx.state
    for tank in state.living():
        own_side = tank.side == side
        if engine_roll_due(tank.model, state.own_turns[tank.side], own_side=own_side):
            face = ctx.dice.d6(f"unreliable engine of {tank.name} (不可靠的发动机)")
            if face == 1:
                tank.engine_dead_until = max(tank.engine_dead_until, state.turn)
                whose = "" if own_side else " (the opponent's turn)"
                ctx.event("engine", f"{tank.name}'s engine fails: it cannot move this turn{whose}", tank=tank.id)


def hybrid_engine_check(ctx: Context, tank: Tank) -> None:
    """10-1: a Tiger (P) or Ferdinand that used free points rolls a d6; on a 1 it cannot move
    in its side's next turn (and is left out of the free point total until then)."""
    face = ctx.dice.d6(f"unreliable engine of {tank.name} after free points (不可靠的发动机)")
    if face == 1:
        tank.engine_dead_until = ctx.state.turn + 2
        ctx.event("engine", f"{tank.name}'s engine fails: it cannot move next turn", tank=tank.id)


def spotting_progress(ctx: Context, tank: Tank) -> None:
    """11: every two distinct hexes a lit tank moves in its own turn take 1 off its marker,
    never below 0. Called after each hex entered."""
    if not tank.lit or not tank.path_this_turn:
        return
    start = tank.path_this_turn[0]
    distinct = []
    for h in tank.path_this_turn[1:]:
        if h != start and h not in distinct:
            distinct.append(h)
    earned = len(distinct) // 2
    while earned > tank.spotting_credit and tank.lit > 0:
        tank.lit -= 1
        tank.spotting_credit += 1
        ctx.event("spotting", f"{tank.name} has moved two more hexes: hit modifier now {tank.lit:+d}",
                   tank=tank.id, lit=tank.lit)


def forced_spotting_end(ctx: Context, side: str) -> None:
    """11: at the end of its side's combat phase, a tank that did not change its position has
    its modifier to be hit raised by 1 (no upper limit)."""
    for tank in ctx.state.living(side):
        if tank.path_this_turn and tank.hex == tank.path_this_turn[0]:
            tank.lit += 1
            ctx.event("spotting", f"{tank.name} stayed put and is lit up (点亮): hit modifier {tank.lit:+d}",
                       tank=tank.id, lit=tank.lit)
