"""§3.4 The rally phase, steps a–e in order, and §13 withdrawal and victory (empty in the source:
provisional, D17)."""

from __future__ import annotations

from wargamekit import Outcome
from wargamekit.geometry import Hex
from wargamekit_aig import rout
from wargamekit_aig.facing import enemy_zoi
from wargamekit_aig.kinds import Context, Procedure
from wargamekit_aig.state import GameState


def step_a(ctx: Context) -> Procedure:
    """§3.4.a: remove every Rallying and Disorder marker."""
    for unit in ctx.state.live_units():
        unit.disordered = False
    ctx.event("rally-a", "Disorder markers removed (§3.4.a)")
    yield from ()


def step_b(ctx: Context) -> Procedure:
    """§3.4.b: every routed unit makes its rout move toward its banner (§8.2)."""
    for unit in list(ctx.state.live_units()):
        if unit.routed and unit.alive:
            yield from rout.rally_phase_move(ctx, unit)


def step_c(ctx: Context) -> Procedure:
    """§3.4.c reload (D5, provisional): a missile unit neither routed nor in enemy ZOI gets its
    full volleys back."""
    state = ctx.state
    zones: dict[str, frozenset[Hex]] = {}  # each side's enemy ZOI, once (reloading moves nothing)
    for unit in state.live_units():
        if unit.side not in zones:
            zones[unit.side] = enemy_zoi(state, unit.side)
        if unit.missile and not unit.routed and unit.hex not in zones[unit.side]:
            full = state.tables.weapons[unit.missile].volleys
            if unit.ammo < full:
                unit.ammo = full
                ctx.event("reload", f"{unit.name} is resupplied (§3.4.c)", unit=unit.name)
    yield from ()


def withdrawn(state: GameState) -> list[str]:
    """§3.4.d (D17, provisional): the sides whose rout points reached their withdrawal level."""
    return [side for side in state.withdrawal if state.rout_points[side] >= state.withdrawal[side]]


def step_d(ctx: Context, sides: tuple[str, ...]) -> Outcome | None:
    """§3.4.d army-withdrawal check; the provisional turn cap ends the battle too."""
    state = ctx.state
    gone = withdrawn(state)
    if len(gone) == 1:
        winner = next(s for s in sides if s not in gone)
        return Outcome(winner=winner, reason=f"the {gone[0]} army withdraws ({state.rout_points[gone[0]]} rout "
                                              f"points, level {state.withdrawal[gone[0]]}) (§13, D17)")
    if len(gone) > 1:
        return Outcome(winner=None, reason="both armies withdraw at once (§13, D17): a draw")
    if state.turn >= state.last_turn:
        share = {s: state.rout_points[s] / state.withdrawal[s] for s in sides}
        low = min(share.values())
        best = [s for s in sides if share[s] == low]
        if len(best) == 1:
            return Outcome(winner=best[0], reason=f"turn {state.turn} (provisional cap): fewer rout points "
                                                   "for its withdrawal level (D17)")
        return Outcome(winner=None, reason=f"turn {state.turn} (provisional cap): even losses, a draw (D17)")
    return None


def step_e(ctx: Context) -> Procedure:
    """§3.4.e: leaders back to inactive; Moved and other markers removed."""
    state = ctx.state
    for ld in state.leaders.values():
        ld.finished = False
        ld.skip = False
        ld.phases = 0
        ld.group_free = False
    for unit in state.live_units():
        unit.activations = 0
        unit.moved = False
        unit.no_check = False
        unit.banned = False
        unit.fired = False
        unit.fired_upon = False
    state.chaos.clear()
    ctx.event("rally-e", "Leaders flipped back to inactive; markers removed (§3.4.e)")
    yield from ()
