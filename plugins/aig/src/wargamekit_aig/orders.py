"""§5.2 The command phase: individual orders, group orders or a banner rally; the ordered units'
movement and fire (§6, §9); then the melee segment (§3.2.2).

Every decision has a kind (:mod:`wargamekit_aig.kinds`), a context with the acting leader or
unit, and options whose data name ids, hexes and actions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Hashable
from fractions import Fraction
from functools import cache, partial
from typing import TYPE_CHECKING, Any

import attrs

from wargamekit import Choose, Data, Response
from wargamekit.geometry import Hex
from wargamekit_aig import kinds, melee, missile, rout
from wargamekit_aig.command import (
    command_bit_of,
    command_bits,
    in_melee,
    in_range,
    leader_can_move,
    leader_in_range,
    leader_ma,
    leader_moves,
)
from wargamekit_aig.facing import enemy_zoi, engaged_with, front_hexes, zoi
from wargamekit_aig.kinds import Context, Procedure, Restartable
from wargamekit_aig.odds_calc import check_odds, missile_odds, shock_odds
from wargamekit_aig.scenario import hex_label, label_hex
from wargamekit_aig.state import GameState, Leader, PerMap, Unit, position_id

if TYPE_CHECKING:
    from wargamekit_aig.activation import PhaseRun

#: §7.3.2: disordered cavalry has a movement allowance of 6 (Q34 reading: it *is* 6).
DISORDERED_MA = 6


@attrs.define
class Phase:
    """What one command phase has done so far (§5.2.5, §5.4.5)."""

    leader: Leader
    number: int
    seized: bool = False
    #: units activated (to move and/or fire) this phase, in order.
    activated: list[str] = attrs.field(factory=list)
    #: §5.4.5: a unit fired or ended its move in another hex.
    acted: bool = False
    #: §4.3.1.c / §4.3.2.b / §5.1.3.e–f: the leader was finished by a failed check.
    failed: bool = False
    #: §5.2.1 what the leader chose: individual, group, banner or stand by.
    mode: str = ""
    #: The leader's individual orders under way (§5.2.2), kept here rather than in the loop's
    #: locals so that a restart between two orders goes on with them (docs/design.md,
    #: "Checkpoints"); ``None`` outside them.
    orders: Orders | None = None


@attrs.define
class Orders:
    """How far one leader's individual orders have got (§5.2.2, §4.3.2-c)."""

    #: orders left to give.
    left: int
    #: what moving himself costs (§5.2.4.a; 2 for the OC in melee, §4.3.1.a).
    self_cost: int = 1
    #: he has moved himself (or rode along with a unit) this phase.
    moved_self: bool = False
    #: §4.3.2-c: the MP left of his own move once he has ordered himself (None before); he may
    #: spend it in several legs with other orders between them.
    own_mp: float | None = None
    #: orders picked so far (names the restart point before the next one).
    given: int = 0


def pct(p: float | Fraction) -> str:
    """A probability as a short percentage for option labels."""
    return f"{100 * float(p):.0f}%"


# -- §5.2 the command phase -------------------------------------------------------------------
def command_phase(ctx: Context, leader: Leader, *, seized: bool = False, run: PhaseRun | None = None) -> Restartable:
    """§5.2.1: one of individual orders, group orders, a banner rally, or standing by (§5.1.3.d);
    then the melee segment (§5.2.8, §3.2.2). Returns the :class:`Phase`.

    ``run``: the activation's :class:`~wargamekit_aig.activation.PhaseRun`, which holds the
    phase while its individual orders are under way (``run.phase``); when a restart finds one
    there, the phase goes on with those orders."""
    state = ctx.state
    if run is not None and run.phase is not None:  # a restart between two individual orders
        phase = run.phase
        yield from individual_orders(ctx, leader, 0, phase, resume=phase.orders)
        run.phase = phase.orders = None
        yield from melee_segment(ctx, phase)
        return phase
    state.command_phase += 1
    state.reacted.clear()
    state.braced.clear()
    state.withdrew.clear()
    leader.phases += 1
    phase = Phase(leader, state.command_phase, seized)
    ctx.event("command-phase", f"{leader.name} begins command phase {leader.phases} of this turn",
              leader=leader.name, phase=leader.phases)
    fighting = in_melee(state, leader)
    modes = []
    # §4.2.6 a non-OC leader in melee issues no orders; §4.3.1.a the OC still issues individual ones.
    if not fighting or leader.oc:
        modes.append("individual")
    if leader.group_orders > 0 and not fighting:
        modes.append("group")
    if not seized:  # §5.4.5: a successful seizer may neither rally nor stand by
        # a routed unit of his side in play: one pass over the units, neither the side's list
        # (live_units) nor a generator resumed per unit (every command phase asks it)
        side = leader.side
        if [u for u in state.units.values() if u.routed and u.side == side and not u.eliminated]:
            modes.append("banner")
        modes.append("stand by")
    if not modes:
        modes.append("stand by")
    mode = yield from ctx.ask(Choose.of(
        leader.side, f"{leader.name}: which orders this command phase?", modes, rule="5.2.1 command phase",
        lazy=True, kind=kinds.COMMAND, context=Data(leader=leader.name, phase=leader.phases, seized=seized,
                                                    initiative=leader.initiative, group_orders=leader.group_orders),
        data=lambda m: {"mode": m}))
    phase.mode = mode
    ctx.event("orders", f"{leader.name} {'stands by' if mode == 'stand by' else 'issues ' + mode + ' orders'}",
              leader=leader.name, mode=mode)
    if mode == "individual":
        cost = 2 if fighting else 1
        if run is not None:
            run.phase = phase
        yield from individual_orders(ctx, leader, leader.initiative, phase, self_cost=cost)
        if run is not None:
            run.phase = phase.orders = None
    elif mode == "group":
        yield from group_orders(ctx, leader, phase)
    elif mode == "banner":
        yield from banner_rally_order(ctx, leader)
    yield from melee_segment(ctx, phase)
    return phase


def individual_orders(ctx: Context, issuer: Leader, budget: int, phase: Phase, *, self_cost: int = 1,
                      relay: bool = False, resume: Orders | None = None) -> Restartable:
    """§4.2.3 / §5.2.2: up to ``budget`` individual orders, each to one friendly unit or leader in
    the issuer's command range: activate a unit (a), remove two cohesion hits (b), try to rally a
    routed unit (c), promote a junior leader (d, §4.3.1.e); move himself (§5.2.4.a; 2 orders in
    melee for the OC, §4.3.1.a); move a lower leader (2 orders if in melee, §4.2.6); relay
    through a junior leader (§4.3.3).

    The issuing leader's own orders (not a relay's) are kept in ``phase.orders``; when the
    activation under way holds the phase (``state.underway``, the game's turn loop), a restart
    point comes before each order. ``resume``: the orders a restart goes on with."""
    state = ctx.state
    progress = Orders(budget, self_cost) if resume is None else resume
    restartable = False
    if not relay:
        phase.orders = progress
        underway = state.underway
        restartable = underway is not None and underway.run.phase is phase
    while (progress.left > 0 or (progress.own_mp or 0) > 0) and issuer.alive and not phase.failed:
        if restartable:
            yield ctx.checkpoint(f"turn {state.turn} {issuer.name} command phase {issuer.phases} "
                                 f"order {progress.given + 1}")
        left, moved_self, own_mp, self_cost = progress.left, progress.moved_self, progress.own_mp, progress.self_cost
        options: list[dict[str, Any]] = []
        # where the units stand: what the range, melee and movement questions below depend on
        # (asked at every order, each remembered by it); a leader move picked here finds it again
        # (the state may be edited while the menu is pending: design.md, "The state is plain data")
        position = position_id(state)
        reach = command_bits(state, issuer, position=position)  # §4.2.2, from where he stands now
        bit_of = command_bit_of(state.map)
        here = (issuer.hex.q, issuer.hex.r)
        for u in state.live_units(issuer.side):
            at = (u.hex.q, u.hex.r)
            if u.ordered_phase == phase.number or u.banned or not reach & bit_of.get(at, 0):
                continue
            if u.routed:
                options.append({"order": "rally", "unit": u.name})
                continue
            options.append({"order": "activate", "unit": u.name})
            # stacked with him: the same as ``state.stacked_unit(issuer) is u``, as no two combat
            # units share a hex (D16; check_invariants asserts it)
            if at == here and not moved_self:
                options.append({"order": "activate", "unit": u.name, "with_leader": True})
            if u.hits > 0:
                options.append({"order": "remove_hits", "unit": u.name})
        # (his rank read once a menu: a property read is a Python call)
        oc, rank = issuer.oc, issuer.rank_value
        free = oc or not in_melee(state, issuer, position=position)  # §4.2.6, §4.3.1.a: he may move himself
        if not moved_self and self_cost <= left and free:
            if leader_can_move(state, issuer, position=position):
                options.append({"order": "move_self", "cost": self_cost})
        elif own_mp is not None and own_mp > 0 and free:
            if leader_can_move(state, issuer, own_mp, position=position):
                options.append({"order": "move_on", "cost": 0, "mp": own_mp})
        for other in state.live_leaders(issuer.side):
            if other is issuer or not reach & bit_of.get((other.hex.q, other.hex.r), 0) or other.rank_value >= rank:
                continue
            is_junior = other.junior
            if is_junior and not relay:
                superior = state.leaders.get(other.superior)
                if oc and (superior is None or not superior.alive) and not other.promoted:
                    options.append({"order": "promote", "leader": other.name})
                elif not other.finished:
                    options.append({"order": "relay", "leader": other.name})
            elif not is_junior and oc and not other.finished:
                cost = 2 if in_melee(state, other, position=position) else 1
                if cost <= left:
                    options.append({"order": "move_leader", "leader": other.name, "cost": cost})
        if phase.seized and not phase.acted and any(o["order"] == "activate" for o in options) and not relay:
            pass  # §5.4.5: a seizer must first make a unit move or fire
        else:
            options.append({"order": "done"})
        if left <= 0:  # §4.3.2-c: his orders are spent, but he may still finish his move
            options = [o for o in options if o["order"] in ("move_on", "done")]
        if not options or options == [{"order": "done"}] and left <= 0:
            return
        pick = yield from ctx.ask(Choose.of(
            issuer.side, f"{issuer.name}: next individual order ({left} left)?", options,
            # a lazy menu (a random bot reads one option) of lazy labels (a bot reads none)
            rule="5.2.2 individual orders", label=_order_label, lazy=True, lazy_labels=True, kind=kinds.ORDER,
            context=Data(leader=issuer.name, left=left, relay=relay, phase=phase.number),
            data=lambda o: o))
        order = pick["order"]
        if order == "done":
            return
        progress.given += 1
        progress.left -= int(pick.get("cost", 1))
        if order == "activate":
            unit = state.units[pick["unit"]]
            if pick.get("with_leader"):
                progress.moved_self = True
            yield from activate(ctx, unit, phase, rider=issuer if pick.get("with_leader") else None)
        elif order == "remove_hits":
            unit = state.units[pick["unit"]]
            unit.ordered_phase = phase.number  # §5.2.5: one order per unit per phase
            removed = min(2, unit.hits)
            unit.hits -= removed
            ctx.event("remove-hits", f"{issuer.name} restores {unit.name}: {removed} hit(s) removed (§5.2.2.b)",
                      unit=unit.name, removed=removed)
        elif order == "rally":
            unit = state.units[pick["unit"]]
            unit.ordered_phase = phase.number
            yield from rally_routed(ctx, issuer, unit)
        elif order == "move_self":
            progress.moved_self = True
            spent = yield from move_leader(ctx, issuer)
            progress.own_mp = leader_ma(state, issuer) - spent
        elif order == "move_on":
            spent = yield from move_leader(ctx, issuer, own_mp, stay=False)
            progress.own_mp = (own_mp or 0) - spent
        elif order == "move_leader":
            yield from move_leader(ctx, state.leaders[pick["leader"]])
        elif order == "promote":
            promote(ctx, state.leaders[pick["leader"]])
        elif order == "relay":
            junior = state.leaders[pick["leader"]]
            ctx.event("relay", f"{issuer.name} sends orders through {junior.name} (§4.3.3)", leader=junior.name)
            stacked = state.stacked_unit(junior)
            if stacked is not None and stacked.ordered_phase != phase.number and not stacked.routed and not stacked.banned:
                yield from activate(ctx, stacked, phase, rider=junior)
            yield from individual_orders(ctx, junior, junior.initiative, phase, relay=True)


def _order_label(o: dict[str, Any]) -> str:
    order = o["order"]
    if order == "activate":
        return f"activate {o['unit']}" + (" (leader moves with it)" if o.get("with_leader") else "")
    if order == "remove_hits":
        return f"remove 2 hits from {o['unit']}"
    if order == "rally":
        return f"try to rally {o['unit']}"
    if order == "move_self":
        return f"move yourself ({o['cost']} order{'s' * (o['cost'] > 1)})"
    if order == "move_on":
        return f"move on ({o['mp']:g} MP left, no order)"
    if order in ("move_leader", "promote", "relay"):
        return f"{order.replace('_', ' ')} {o['leader']}"
    return "done"


def rally_routed(ctx: Context, issuer: Leader, unit: Unit) -> Procedure:
    """§5.2.2.c (D13, provisional): d10 ≤ ⌈TQ/2⌉ rallies the unit (as a banner rally, §8.3);
    on failure it stays routed."""
    roll = ctx.dice.d10(f"§5.2.2.c rally of {unit.name}")
    need = rout.banner_rally_number(unit)
    if roll <= need:
        unit.routed = False
        unit.hits = unit.tq - need
        ctx.event("rally", f"{issuer.name} rallies {unit.name} (rolled {roll}, needed {need})", unit=unit.name)
    else:
        ctx.event("rally-failed", f"{unit.name} does not rally (rolled {roll}, needed {need})", unit=unit.name)
    yield from ()


def banner_rally_order(ctx: Context, leader: Leader) -> Procedure:
    """§5.2.1 banner rally (D12, provisional): every routed unit of the side within the leader's
    command range tries to rally: d10 − 1 (§8.3.2) ≤ ⌈TQ/2⌉; failure leaves it routed."""
    state = ctx.state
    for unit in state.live_units(leader.side):
        if unit.routed and in_range(state, leader, unit):
            roll = ctx.dice.d10(f"§5.2.1 banner rally of {unit.name}")
            if roll - 1 <= rout.banner_rally_number(unit):
                unit.routed = False
                unit.hits = unit.tq - rout.banner_rally_number(unit)
                ctx.event("rally", f"{unit.name} rallies to {leader.name} (rolled {roll} -1)", unit=unit.name)
            else:
                ctx.event("rally-failed", f"{unit.name} does not rally (rolled {roll} -1)", unit=unit.name)
    yield from ()


def promote(ctx: Context, junior: Leader) -> None:
    """§4.3.1.e: the OC promotes a junior whose superior fell: group orders 1, the superior's
    command, finished this turn (§4.4.3); he joins the activation sequence."""
    superior = ctx.state.leaders[junior.superior]
    junior.promoted = True
    junior.rank = "ordinary"
    junior.group_orders = 1
    junior.command = superior.command
    junior.commands = list(superior.commands)
    junior.finished = True
    ctx.event("promote", f"{junior.name} is promoted in place of {superior.name} (§4.3.1.e)", leader=junior.name)


# -- §5.2.3 group orders ----------------------------------------------------------------------
def group_eligible(state: GameState, leader: Leader, phase: Phase, command: str | None = None, *,
                   position: Hashable | None = None) -> list[Unit]:
    """§4.2.4 / §5.2.3: activatable units of the leader's command(s) (or ``command``) within
    twice his command range, not yet ordered this phase. ``position``: ``position_id(state)``,
    when the caller has it."""
    units = _units_in_group_reach(state, leader, phase, position)
    if command is None:
        return [u for u in units if leader.activates(u)]
    return [u for u in units if u.command == command]


def _units_in_group_reach(state: GameState, leader: Leader, phase: Phase, position: Hashable | None) -> list[Unit]:
    """:func:`group_eligible` of every command of the leader's side: its units not routed, not
    banned, not yet ordered this phase and within twice his command range, in scenario order."""
    reach = command_bits(state, leader, 2 * leader.range, position=position)
    bit_of = command_bit_of(state.map)
    number = phase.number
    return [u for u in state.live_units(leader.side)
            if not u.routed and not u.banned and u.ordered_phase != number and reach & bit_of.get((u.hex.q, u.hex.r), 0)]


def group_check(state: GameState, leader: Leader, *, position: Hashable | None = None) -> int | None:
    """§4.3: the number a group order's d10 must not exceed, or ``None`` when it succeeds without a
    check (the OC §4.3.1.b; within the OC's range §4.3.1.d / §4.3.2.a, kept for the turn).
    ``position``: ``position_id(state)``, when the caller has it."""
    oc = state.oc(leader.side)
    if leader.oc or leader.group_free or (oc is not None and leader_in_range(state, oc, leader, position=position)):
        return None
    # §4.3.1.e: a promoted leader outside the OC's range rolls with +1.
    return leader.initiative - (1 if leader.promoted else 0)


def group_orders(ctx: Context, leader: Leader, phase: Phase) -> Procedure:
    """§5.2.3: up to the leader's group-order number of group orders (Q4 reading: per command
    phase); each activates every eligible unit at once, then they act one by one."""
    state = ctx.state
    for _ in range(leader.group_orders):
        options: list[dict[str, Any]] = []
        # one for the range questions of every command below, and of the order picked
        position = position_id(state)
        # the commands an order may go to (group_eligible), sorted in one pass: his own and, for
        # the OC, every other command (§4.3.1.c)
        own, oc = False, leader.oc
        cross: set[str] = set()
        for u in _units_in_group_reach(state, leader, phase, position):
            if leader.activates(u):
                own = True
            elif oc:
                cross.add(u.command)
        if own:
            options.append({"group": leader.command})
        options += [{"group": c, "cross": True} for c in sorted(cross)]
        if not options:
            return
        options.append({"group": None})
        pick = yield from ctx.ask(Choose.of(
            leader.side, f"{leader.name}: which group order?", options, rule="5.2.3 group orders", lazy=True,
            label=lambda o: "done" if o["group"] is None else f"group order to {o['group']}"
                            + (" (cross-command roll)" if o.get("cross") else ""),
            kind=kinds.GROUP_NEXT, context=Data(leader=leader.name, step="order", phase=phase.number),
            data=lambda o: o))
        if pick["group"] is None:
            return
        # the state may have been edited while the menu was pending (a unit banned, routed or
        # moved): the order activates the units eligible now, asked again once per order given
        position = position_id(state)
        if pick.get("cross"):
            units = group_eligible(state, leader, phase, pick["group"], position=position)
            if not (yield from cross_command(ctx, leader, pick["group"], units, phase)):
                return
        else:
            need = group_check(state, leader, position=position)
            if need is not None:
                roll = ctx.dice.d10(f"§4.3.2.b group order check of {leader.name}")
                if roll > need:
                    ctx.event("group-failed", f"{leader.name}'s group order fails (rolled {roll}, needed {need} or less); "
                              "he is finished (§4.3.2.b, §5.1.3.e)", leader=leader.name, roll=roll)
                    phase.failed = True
                    return
            elif not leader.oc:
                leader.group_free = True  # §4.3.2.a
            units = group_eligible(state, leader, phase, position=position)
        yield from run_group(ctx, leader, units, phase)


def cross_command(ctx: Context, oc: Leader, command: str, units: list[Unit], phase: Phase) -> Procedure:
    """§4.3.1.c: the OC's group order to another command's units: d10 + 1 (Q9 reading: ≤
    initiative succeeds); a raw 0 succeeds and frees that command from the roll for the rest of the
    battle; failure bans the declared units this turn and finishes the OC (§5.1.3.f)."""
    if command in oc.cross_free:
        return True
    roll = ctx.dice.d10(f"§4.3.1.c cross-command group order of {oc.name}")
    if roll == 0:
        oc.cross_free.append(command)
        ctx.event("cross-command", f"{oc.name}'s order to {command} is understood at once (raw 0, §4.3.1.c)",
                  leader=oc.name, command=command)
        return True
    if roll + 1 <= oc.initiative:
        return True
    for u in units:
        u.banned = True
    ctx.event("cross-failed", f"{oc.name}'s order to {command} ends in confusion (rolled {roll}+1): those units may "
              "not be activated this turn and he is finished (§4.3.1.c)", leader=oc.name, command=command)
    phase.failed = True
    return False
    yield


def run_group(ctx: Context, leader: Leader, units: list[Unit], phase: Phase) -> Procedure:
    """The group-activated units act one at a time, in the order the player picks (§5.2.3);
    §5.2.4.c the leader may go with the unit he is stacked with; lower leaders stacked with an
    activated unit go with it (§5.2.4.d)."""
    state = ctx.state
    names = [u.name for u in units]
    ctx.event("group", f"{leader.name}'s group order activates {', '.join(names)}", leader=leader.name, units=names)
    for u in units:
        yield from start_activation(ctx, u, phase)
    waiting = [u for u in units if u.alive and not u.routed]
    rode = False
    while waiting:
        options: list[dict[str, Any]] = [{"unit": u.name} for u in waiting]
        if not rode:
            stacked = state.stacked_unit(leader)
            options += [{"unit": u.name, "with_leader": True} for u in waiting if stacked is u]
        options.append({"unit": None})
        pick = yield from ctx.ask(Choose.of(
            leader.side, f"{leader.name}: which activated unit acts next?", options, rule="5.2.3 group orders", lazy=True,
            label=lambda o: "done" if o["unit"] is None else f"{o['unit']}"
                            + (" (with the leader)" if o.get("with_leader") else ""),
            kind=kinds.GROUP_NEXT, context=Data(leader=leader.name, step="unit", phase=phase.number),
            data=lambda o: o))
        if pick["unit"] is None:
            return
        unit = state.units[pick["unit"]]
        waiting = [u for u in waiting if u is not unit]
        rider = leader if pick.get("with_leader") else None
        rode = rode or rider is not None
        yield from unit_action(ctx, unit, phase, rider=rider, escort=leader)
        waiting = [u for u in waiting if u.alive and not u.routed]


# -- §5.2.2.a activation and §6 / §9 the unit's action ------------------------------------------
def start_activation(ctx: Context, unit: Unit, phase: Phase) -> Procedure:
    """§3.2.1: a unit already activated this turn takes 1 cohesion hit before any action."""
    unit.ordered_phase = phase.number
    unit.fired = False
    unit.fired_upon = False
    unit.moved = False  # D27: the Moved marker records a move in this activation (§3.2.2.a)
    phase.activated.append(unit.name)
    if unit.activations >= 1:
        yield from rout.apply_hits(ctx, unit, 1, "activated again this turn, §3.2.1")
    unit.activations += 1


def activate(ctx: Context, unit: Unit, phase: Phase, *, rider: Leader | None = None) -> Procedure:
    """§5.2.2.a: activate one unit; it may move and/or fire."""
    yield from start_activation(ctx, unit, phase)
    if unit.alive and not unit.routed:
        yield from unit_action(ctx, unit, phase, rider=rider)


def unit_ma(unit: Unit) -> int:
    """The unit's movement allowance (§2.2.1; §7.3.2 disordered cavalry 6)."""
    return DISORDERED_MA if unit.disordered and unit.cavalry else unit.ma


#: Per map: a unit's front hexes it may step into, with each step's cost (finite) and
#: direction, by (hex's q, r, corner, all sides front, type). A cache: every step menu prices
#: them. (Keys hold coordinates, not Hex objects, here and in the rules' other caches: a Hex
#: hashes and compares by Python calls.)
_FRONT_STEPS: PerMap[tuple[int, int, int, bool, str], tuple[tuple[Hex, float, int], ...]] = PerMap()


def front_steps(state: GameState, unit: Unit) -> tuple[tuple[Hex, float, int], ...]:
    """The front hexes (§6.3, :func:`~wargamekit_aig.facing.front_hexes`) whose step cost for the
    unit's type is finite (D2), with that cost and the direction to them, in front-hex order."""
    key = (unit.hex.q, unit.hex.r, unit.facing, unit.disordered and unit.cavalry, unit.type)
    table = _FRONT_STEPS.table(state.map)
    got = table.get(key)
    if got is None:
        here, kind = unit.hex, unit.type
        costs = ((h, state.step_cost(here, h, kind), here.direction_to(h)) for h in front_hexes(state, unit))
        got = table[key] = tuple((h, c, d) for h, c, d in costs if math.isfinite(c))
    return got


#: Per map: :func:`front_steps` with each step's "move" option made once (menus must not change
#: them), by the same key. A cache: every step menu offers them again (a turn leaves the unit
#: where it was, so the next menu offers the same moves).
_FRONT_MOVES: PerMap[tuple[int, int, int, bool, str], tuple[tuple[Hex, float, int, dict[str, Any]], ...]] = PerMap()


def _front_moves(state: GameState, unit: Unit) -> tuple[tuple[Hex, float, int, dict[str, Any]], ...]:
    key = (unit.hex.q, unit.hex.r, unit.facing, unit.disordered and unit.cavalry, unit.type)
    table = _FRONT_MOVES.table(state.map)
    got = table.get(key)
    if got is None:
        got = table[key] = tuple((h, c, d, {"step": "move", "hex": hex_label(h), "cost": c})
                                 for h, c, d in front_steps(state, unit))
    return got


def _turn_options(step: str) -> tuple[tuple[dict[str, Any], ...], ...]:
    """By the unit's corner: the five turns to the other corners (§6.3.1, §6.3.4 in melee), in
    corner order. The same values at every step menu: made once (menus must not change them)."""
    return tuple(tuple({"step": step, "facing": v, "cost": 1} for v in range(6) if v != facing) for facing in range(6))


_TURNS, _MELEE_TURNS = _turn_options("turn"), _turn_options("melee_turn")


def step_options(state: GameState, unit: Unit, spent: float, *, can_fire: bool, disengaged: bool,
                 shots: dict[str, missile.Shot] | None = None,
                 around: list[tuple[int, Unit]] | None = None) -> list[dict[str, Any]]:
    """The unit's legal next steps (§6.3 forward into a front hex; §6.3.1 turn; §6.3.4 turn in
    melee; §6.6 HC/CT through friendly infantry; §8.4 into a routed enemy; §9.1 fire; stop).
    ``shots``: ``missile.targets(state, unit)``, ``around``: ``state.units_around(unit.hex)``,
    when the caller has them already."""
    left = unit_ma(unit) - spent
    options: list[dict[str, Any]] = []
    # the units in the six neighbours, found in one pass: who is engaged, who stands in front
    if around is None:
        around = state.units_around(unit.hex)
    engaged = engaged_with(state, unit, around)
    beside = dict(around)
    for h, cost, d, move in _front_moves(state, unit):
        other = beside.get(d)
        if other is None or (other.side != unit.side and other.routed):
            if cost <= left:
                options.append(move)
        elif other.side == unit.side and unit.type in ("HC", "CT") and other.infantry and not other.routed:
            beyond = h.neighbour(d)
            if beyond in state.map and state.unit_at(beyond) is None:
                extra = state.step_cost(h, beyond, unit.type)
                total = cost + 1 + extra
                if math.isfinite(total) and total <= left:
                    options.append({"step": "pass", "hex": hex_label(beyond), "through": other.name, "cost": total})
    if left >= 1 and not (unit.disordered and unit.cavalry):
        options += (_MELEE_TURNS if engaged and not disengaged else _TURNS)[unit.facing]
    if unit.disordered and unit.cavalry and engaged and not disengaged and not any(e.cavalry for e in engaged):
        options.append({"step": "disengage"})
    if can_fire:
        for name in missile.targets(state, unit) if shots is None else shots:
            options.append({"step": "fire", "target": name})
    if unit.back_type and spent == 0 and not unit.moved and not unit.fired and not engaged and not unit.disordered:
        options.append({"step": "dismount", "type": unit.back_type, "ma": unit.back_ma})
    options.append({"step": "stop"})
    return options


def _labelled_step(shots: dict[str, missile.Shot], cohesion: int, fired_upon: bool, o: dict[str, Any]) -> str:
    """The step's label with its exact odds: a volley's hit chance, a turn's morale check (for a
    unit of ``cohesion``, ``fired_upon`` this activation or not, as it was when offered)."""
    if o["step"] == "fire":
        return f"{_step_label(o)} (hit {pct(_hit_p(shots[o['target']]))})"
    if o["step"] == "melee_turn":
        return f"{_step_label(o)} (2 hits, then passes {_check_pct(max(cohesion - 2, -1))})"
    if o["step"] == "turn" and fired_upon:
        return f"{_step_label(o)} (emergency turn: passes {_check_pct(cohesion)})"
    return _step_label(o)


@cache
def _check_pct(cohesion: int) -> str:
    """:func:`pct` of :func:`~wargamekit_aig.odds_calc.check_odds`, made once per cohesion (the
    game logs the label of every step it answers: a fraction's float and its format each time)."""
    return pct(check_odds(cohesion))


def _step_label(o: dict[str, Any]) -> str:
    step = o["step"]
    if step in ("move", "pass"):
        via = f" through {o['through']}" if step == "pass" else ""
        return f"move{via} to {o['hex']} ({o['cost']:g} MP)"
    if step in ("turn", "melee_turn"):
        return f"{'turn in melee' if step == 'melee_turn' else 'turn'} to corner {o['facing']}"
    if step == "fire":
        return f"fire at {o['target']}"
    if step == "dismount":
        return f"dismount (becomes {o['type']}, MA {o['ma']})"
    return step


def unit_action(ctx: Context, unit: Unit, phase: Phase, *, rider: Leader | None = None,
                escort: Leader | None = None) -> Procedure:
    """§6 movement (step by step, §6.3.2) and §9 fire of one activated unit. §6.4: only "s" units
    may fire between moves; any other unit's fire ends its action (it may move first)."""
    state = ctx.state
    start = unit.hex
    spent = 0.0
    disengaged = False
    riders = [rider] if rider is not None else []
    if escort is not None:  # §5.2.4.d lower leaders stacked with a group-activated unit go with it
        riders += [ld for ld in state.leaders_at(unit.hex) if ld.side == unit.side and ld is not rider
                   and ld.rank_value < escort.rank_value]
    # The units around the unit's hex, kept from one step's menu to the next while it only turns:
    # a turn moves nobody (a failed morale check routs or removes the unit itself, which ends its
    # action), so the next menu would find the same units (their markers are read live). Known
    # exception to the rule for caches (design.md, "The state is plain data"): kept across the
    # step decision, so a direct edit of the state while that menu is pending is not seen here.
    around: list[tuple[int, Unit]] | None = None
    # So too the enemies it could fire at from its hex (missile.in_reach: range and line, every
    # corner): a turn changes only its front, which missile.targets tests at every menu.
    reach: list[tuple[Unit, int]] | None = None
    while not unit.eliminated and not unit.routed:  # (alive, without a property call a step)
        can_fire = not unit.fired and missile.can_fire(unit) is None
        if can_fire:
            if reach is None:
                reach = missile.in_reach(state, unit)
            shots = missile.targets(state, unit, reach)
        else:
            shots = {}
        if around is None:
            around = state.units_around(unit.hex)
        options = step_options(state, unit, spent, can_fire=can_fire, disengaged=disengaged, shots=shots,
                               around=around)
        if len(options) == 1:
            # "stop" alone (offered last, always): ctx.ask would answer it without asking or
            # recording anything, so the menu is not made (a unit that cannot go on: 15 of the
            # 224 step menus of a random game)
            break
        left = unit_ma(unit) - spent
        pick = yield from ctx.ask(Choose.of(
            unit.side, f"{unit.name} ({left:g} MP left): next step?", options,
            rule="6 movement / 9 missile fire",
            # a lazy menu (options made when read: a random bot reads one) of lazy labels (made
            # only when read: a bot never reads the odds in them)
            label=partial(_labelled_step, shots, unit.cohesion, unit.fired_upon), lazy=True, lazy_labels=True,
            kind=kinds.UNIT_STEP,
            # the context as the core would freeze it (plain scalars): not walked again, as in
            # the command and order menus
            context=Data(unit=unit.name, mp_left=left, phase=phase.number),
            data=lambda o: o))
        step = pick["step"]
        if step == "stop":
            break
        if step not in ("turn", "melee_turn"):
            # a volley, a disengagement or a move may change who stands around it and whom it sees
            around = reach = None
        if step == "fire":
            unit.fired = True
            yield from fire(ctx, unit, state.units[pick["target"]], "ordered")
            phase.acted = True
            if not unit.skirmish:
                break
            continue
        if step == "dismount":
            dismount(ctx, unit)
            phase.acted = True
            break
        if step == "disengage":
            disengaged = True
            yield from disengage(ctx, unit)
            spent = 0.0
            continue
        spent += float(pick["cost"])
        if step in ("turn", "melee_turn"):
            yield from turn(ctx, unit, int(pick["facing"]), in_melee=step == "melee_turn")
            continue
        if step == "pass":
            passed = state.units[pick["through"]]
            yield from rout.apply_hits(ctx, unit, 1, f"passing through {passed.name}, §6.6")
            yield from rout.apply_hits(ctx, passed, 2, f"passed through by {unit.name}, §6.6")
            # The passed unit may rout from those hits, and its rout move may take the very hex
            # beyond it: then the pass ends where it began (D16, one unit per hex).
            if not unit.alive or unit.routed or state.unit_at(label_hex(pick["hex"])):
                break
        # a quiet step hands back the units around the new hex: the next menu's
        around = yield from enter(ctx, unit, label_hex(pick["hex"]), riders)
    if unit.hex != start:
        phase.acted = True


def _hit_p(shot: missile.Shot) -> float:
    """A volley's chance to hit: ``missile_odds(shot)[True]``."""
    # Whether a volley hits depends on its modified number alone (resolve_missile: d10 <= the
    # number; the cavalry morale check after it decides the disorder only), so the chance is the
    # bare shot's of that number, remembered by it: the shot's own odds enumerate that check's
    # die too (1.74 M instructions a cavalry target), for each new shot a fresh game labels.
    return _hit_chance(shot.number)


@cache
def _hit_chance(number: int) -> float:
    """The chance a volley of modified ``number`` hits (the bare shot's odds: no modifier)."""
    return float(missile_odds(missile.Shot(number))[True])


def turn(ctx: Context, unit: Unit, facing: int, *, in_melee: bool = False) -> Procedure:
    """§6.3.1 a facing change (1 MP); §6.3.4 in melee: 2 hits, then a morale check — failure or rout
    eliminates the unit; §6.3.3.a an emergency turn (fired upon this activation): a morale check,
    failure routs it whatever its cohesion. Morale check (D9, Q29 reading): d10 ≤ cohesion."""
    if in_melee:
        yield from rout.apply_hits(ctx, unit, 2, "turning in melee, §6.3.4", rout_now=False)
        roll = ctx.dice.d10(f"§6.3.4 morale check of {unit.name}")
        if roll > unit.cohesion or unit.hits >= unit.tq:
            rout.eliminate(ctx, unit, f"its turn in melee failed (rolled {roll}) (§6.3.4)")
            return
    elif unit.fired_upon and (yield from _emergency_morale_check(ctx, unit)) is None:
        return
    unit.facing = facing
    # The data's keys in sorted order, as the log keeps them: the core then takes the dict as it
    # is, where it would build it again in that order (~2,300 instructions an event; here, at
    # "move" and at rout.apply_hits, the commonest events: aig.md, "The thirteenth round").
    ctx.event("turn", f"{unit.name} turns to corner {facing}", facing=facing, unit=unit.name)


def dismount(ctx: Context, unit: Unit) -> None:
    """D15 (provisional, not from the source): an activated cavalry unit with a back side that has
    neither moved nor fired, is not engaged and not disordered may dismount: the counter turns to
    its back (§2.2.1 "背面往往代表着骑兵单位的步行状态"), taking the back's type and MA; that is its
    whole action this activation. There is no remounting."""
    ctx.event("dismount", f"{unit.name} dismounts: {unit.type} → {unit.back_type}, MA {unit.back_ma} (D15)",
              unit=unit.name, type=unit.back_type, ma=unit.back_ma)
    unit.type, unit.ma = unit.back_type, unit.back_ma
    unit.back_type, unit.back_ma = "", 0


def disengage(ctx: Context, unit: Unit) -> Procedure:
    """§7.3.2: disordered cavalry engaged only with non-cavalry takes 2 hits, then a morale check;
    failure or rout eliminates it; otherwise it moves with 6 MP."""
    yield from rout.apply_hits(ctx, unit, 2, "disengaging, §7.3.2", rout_now=False)
    roll = ctx.dice.d10(f"§7.3.2 disengagement morale check of {unit.name}")
    if roll > unit.cohesion or unit.hits >= unit.tq:
        rout.eliminate(ctx, unit, f"its disengagement failed (rolled {roll}) (§7.3.2)")


def enter(ctx: Context, unit: Unit, to: Hex, riders: list[Leader]) -> Procedure:
    """Move ``unit`` into ``to`` with the leaders riding along; §8.4 a routed enemy there is
    eliminated; an unstacked enemy leader there is lost (provisional, §4.4.2 when he did not
    evade); then reaction fire (§9.3, provisional) and leader evasion (§4.4.2). Returns the
    units around ``to`` (``state.units_around(to)``) when no window opened and no banner moved
    (nobody else moved after the step), else ``None``."""
    state = ctx.state
    other = state.unit_at(to)
    if other is not None and other.side != unit.side and other.routed:
        rout.eliminate(ctx, other, f"{unit.name} overran it while it was routed (§8.4)")
    for ld in state.leaders_at(to):
        if ld.side != unit.side and state.stacked_unit(ld) is None:
            rout.kill_leader(ctx, ld, f"{unit.name} overran him (§4.4.2)", by=unit)
    unit.hex = to
    unit.moved = True
    for ld in riders:
        if ld.alive:
            ld.hex = to
    label = hex_label(to)
    ctx.event("move", f"{unit.name} moves to {label}", to=label, unit=unit.name)  # (sorted keys: see turn)
    banner = any(state.carries_banner(ld) for ld in riders)
    if banner:
        yield from rout.banner_moved(ctx, unit.side)
    # Hot (every step of every move): each of the four windows needs an enemy next to the unit's
    # new hex (a unit to fire at it, be charged or withdraw, a leader to evade), which most
    # steps do not have; one look at its neighbours spares their four searches.
    around = state.units_around(to)
    if not enemy_next_to(state, unit, around):
        # nothing has moved since that look (no window, no banner rally): the unit's next step
        # menu may take the units around it from here
        return None if banner else around
    yield from reaction_fire(ctx, unit)
    yield from charged_turn(ctx, unit)
    yield from withdrawal(ctx, unit)
    yield from evasion(ctx, unit)
    return None


def enemy_next_to(state: GameState, unit: Unit, around: list[tuple[int, Unit]] | None = None) -> bool:
    """Whether an enemy combat unit or an enemy leader in play stands in a hex adjacent to
    ``unit``'s: what reaction fire (D4), a charge (§6.3.3.b), a withdrawal (D11) and an evasion
    (§4.4.2) each need before they can happen. ``around``: ``state.units_around(unit.hex)``,
    when the caller has it."""
    side = unit.side
    if any(u.side != side for _, u in (state.units_around(unit.hex) if around is None else around)):
        return True
    # the leaders' distance inline (every step asks it of every leader): twice the distance is
    # the sum of the three cube deltas
    q, r = unit.hex.q, unit.hex.r
    for ld in state.leaders.values():
        if ld.alive and ld.side != side:
            dq, dr = ld.hex.q - q, ld.hex.r - r
            if abs(dq) + abs(dr) + abs(dq + dr) == 2:
                return True
    return False


def move_leader(ctx: Context, leader: Leader, mp: float | None = None, *, stay: bool = True,
                position: Hashable | None = None) -> Procedure:
    """§4.2.5 / §5.2.4.a: the leader moves up to 8 MP (6 with the banner, §4.1), or the ``mp`` he
    has left of his own move (§4.3.2-c), never alone into enemy ZOI (§4.4.1); ``stay`` offers
    his own hex too. Returns the MP spent. ``position``: ``position_id(state)``, when the caller
    has it."""
    state = ctx.state
    reach, order = leader_moves(state, leader, mp, position=position)
    hexes = list(order)  # by MP, then label
    if not stay and leader.hex in reach:
        hexes.remove(leader.hex)
    to = yield from ctx.ask(Choose.of(
        leader.side, f"Move {leader.name} to?", hexes, rule="4.2.5 leader movement",
        label=lambda h: f"{hex_label(h)} ({reach[h]:g} MP)", lazy=True, lazy_labels=True,
        kind=kinds.LEADER_MOVE, context=Data(leader=leader.name),
        data=lambda h: {"hex": hex_label(h), "cost": reach[h]}))
    if to != leader.hex:
        leader.hex = to
        ctx.event("leader-move", f"{leader.name} moves to {hex_label(to)}", leader=leader.name, to=hex_label(to))
        if state.carries_banner(leader):
            yield from rout.banner_moved(ctx, leader.side)
    return reach[to]


# -- §9 missile fire --------------------------------------------------------------------------
def fire(ctx: Context, firer: Unit, target: Unit, how: str) -> Procedure:
    """One volley (§9.1): one cohesion hit on a hit; §7.3 cavalry morale check; then §9.2 return
    fire from an "R" target still in normal state (not after return fire itself)."""
    state = ctx.state
    shot = missile.shot_at(state, firer, target, check_arc=how == "ordered")
    if shot is None:
        return
    if ctx.hooks is not None:  # add-ons may modify the shot (hookspecs.aig_missile_modifier)
        extras = ctx.hooks.aig_missile_modifier(state=state, firer=firer, target=target, shot=shot)
        shot = attrs.evolve(shot, extra=shot.extra + sum(e for e in extras if e))
    firer.ammo -= 1
    volley = missile.resolve_missile(ctx.dice, shot)
    target.fired_upon = True
    ctx.event("fire", f"{firer.name} ({how} fire) at {target.name}, needs {shot.number}: "
              f"{'hit' if volley.hit else 'miss'}", firer=firer.name, target=target.name, how=how,
              number=shot.number, hit=volley.hit)
    if volley.hit:
        yield from rout.apply_hits(ctx, target, 1, f"missile fire from {firer.name}, §9.1.1")
    if volley.disordered and target.alive and not target.routed:
        target.disordered = True
        ctx.event("disorder", f"{target.name} is disordered by the fire (§7.3)", unit=target.name)
    if how == "ordered" and target.return_fire and target.alive and not target.routed:
        yield from ctx.interrupts.window(
            f"{target.name} was fired upon", [target.side], _return_fire(ctx, target, firer),
            rule="9.2 return fire", kind=kinds.RETURN_FIRE)


def _return_fire(ctx: Context, unit: Unit, at: Unit) -> Callable[[str, Any], list[Response]]:
    volley = len(ctx.log)  # one return volley per volley received

    def offers(side: str, point: Any) -> list[Response]:
        if point.depth or side != unit.side:
            return []
        shot = missile.shot_at(ctx.state, unit, at, check_arc=False)
        if shot is None:
            return []
        return [Response(f"{unit.name} returns fire at {at.name}", side,
                         resolve=lambda: fire(ctx, unit, at, "return"),
                         key=("return", unit.name, at.name, volley),
                         data={"firer": unit.name, "target": at.name, "number": shot.number})]

    return offers


def reaction_fire(ctx: Context, mover: Unit) -> Procedure:
    """§9.3 is empty: provisional reaction fire (D4). An enemy missile unit may fire once per
    command phase at a unit that enters its ZOI; it needs no order (§5.2.6) and draws no return
    fire."""
    state = ctx.state
    phase = state.command_phase
    enemy = ctx.other_side(mover.side)

    def offers(side: str, point: Any) -> list[Response]:
        if point.depth or not mover.alive:
            return []
        return [Response(f"{u.name} reaction-fires at {mover.name}", side,
                         resolve=partial(_react, ctx, u, mover),
                         key=("reaction", phase, u.name, mover.name, mover.hex),
                         data={"firer": u.name, "target": mover.name, "number": shot.number})
                for u, shot in _reaction_shots(state, mover, side)]

    # Hot (every step of every move): no window when no enemy may react. An empty window asks
    # nothing and logs nothing, and one opened on a non-empty stack offers nothing (depth > 0).
    if ctx.interrupts.items or not ctx.interrupts.enabled or not mover.alive \
            or next(_reaction_shots(state, mover, enemy), None) is None:
        return
    yield from ctx.interrupts.window(f"{mover.name} entered {hex_label(mover.hex)}", [ctx.other_side(mover.side)],
                                     offers, rule="9.3 reaction fire (provisional)", kind=kinds.REACTION_FIRE)


def _reaction_shots(state: GameState, mover: Unit, side: str) -> Generator[tuple[Unit, missile.Shot], None, None]:
    """D4: the units of ``side`` that may reaction-fire at ``mover`` now, with their shots."""
    at = mover.hex
    for u in state.live_units(side):
        # a ZOI is of adjacent hexes (§2.4, D7): the distance first, a cheap test that fails
        # for nearly every unit
        if at.distance(u.hex) != 1 or u.name in state.reacted or at not in zoi(state, u):
            continue
        shot = missile.shot_at(state, u, mover, check_arc=False)
        if shot is not None:
            yield u, shot


def charged_units(state: GameState, mover: Unit) -> list[Unit]:
    """§6.3.3.b (reading R-charge): the enemy units ``mover`` is charging (none if it is disordered
    cavalry, which cannot charge, §2.4) — non-routed units in its front hexes that do not yet have it in their own front, engaged with no other enemy (§6.3.1:
    no turn while engaged), not disordered cavalry (all front already, §7.3.1), and not yet
    turned against a charge this command phase."""
    if mover.cavalry and mover.disordered:  # §2.4: disordered cavalry cannot charge (发起冲锋)
        return []
    out = []
    for h in front_hexes(state, mover):
        u = state.unit_at(h)
        if u is None or u.side == mover.side or u.routed or u.name in state.braced:
            continue
        if (u.cavalry and u.disordered) or mover.hex in front_hexes(state, u):
            continue
        if any(e is not mover for e in engaged_with(state, u)):
            continue
        out.append(u)
    return out


def facing_toward(unit: Unit, h: Hex) -> list[int]:
    """The corners (§7.1) that would put ``h`` in the unit's front."""
    d = unit.hex.direction_to(h)
    return [v for v in range(6) if d in type(unit.vertex)(v).front_hexsides]


def charged_turn(ctx: Context, mover: Unit) -> Procedure:
    """§6.3.3.b: a unit being charged (正在受到敌军的冲锋) may make an emergency turn to face the
    charging unit, as a response in the charged side's window (reading R-charge on the docs page;
    ruleset option ``charged_turn``): a morale check (D9: d10 ≤ cohesion); failure routs it
    whatever its cohesion."""
    if not ctx.options.get("charged_turn", True) or not mover.alive or mover.routed:
        return
    state = ctx.state
    if not charged_units(state, mover):
        return
    phase = state.command_phase

    def offers(side: str, point: Any) -> list[Response]:
        if point.depth or not mover.alive or mover.routed:
            return []
        charged = charged_units(state, mover)  # again: a resolved turn may have changed the position
        return [Response(f"{u.name} turns to face {mover.name} (corner {v})", side,
                         resolve=partial(emergency_turn, ctx, u, v),
                         key=("charged turn", phase, u.name),
                         data={"unit": u.name, "facing": v, "from": mover.name,
                               "chance": float(check_odds(u.cohesion))})
                for u in charged if u.side == side for v in facing_toward(u, mover.hex)]

    yield from ctx.interrupts.window(f"{mover.name} charges", [ctx.other_side(mover.side)], offers,
                                     rule="6.3.3.b emergency turn", kind=kinds.EMERGENCY_TURN)


def _emergency_morale_check(ctx: Context, unit: Unit) -> Generator[Any, Any, int | None]:
    """§6.3.3: an emergency turn's morale check (D9: d10 ≤ cohesion), shared by a turn when fired
    upon (§6.3.3.a) and one against a charge (§6.3.3.b). Returns the roll if the unit holds;
    on failure routs it and returns ``None``."""
    roll = ctx.dice.d10(f"§6.3.3 emergency turn morale check of {unit.name}")
    if roll > unit.cohesion:
        ctx.event("emergency-turn", f"{unit.name}'s emergency turn fails (rolled {roll}) (§6.3.3)", unit=unit.name)
        yield from rout.rout(ctx, unit, "failed emergency turn (§6.3.3)")
        return None
    return roll


def emergency_turn(ctx: Context, unit: Unit, facing: int) -> Procedure:
    """§6.3.3: the emergency turn's morale check (D9: d10 ≤ cohesion); failure routs the unit."""
    ctx.state.braced.append(unit.name)
    roll = yield from _emergency_morale_check(ctx, unit)
    if roll is None:
        return
    unit.facing = facing
    ctx.event("turn", f"{unit.name} makes an emergency turn to corner {facing} (rolled {roll}, §6.3.3.b)",
              unit=unit.name, facing=facing)


def withdrawal_hexes(state: GameState, unit: Unit, mover: Unit) -> list[Hex]:
    """D11 (provisional): where ``unit`` may withdraw before ``mover``: an empty neighbour (no unit,
    no enemy leader) farther from the mover, enterable by the unit's type (no river, no impassable hex), not in enemy ZOI."""
    zone = None
    out = []
    for d in range(6):
        h = unit.hex.neighbour(d)
        if h not in state.map or h.distance(mover.hex) <= unit.hex.distance(mover.hex) or state.unit_at(h):
            continue
        if state.enemy_leader_in(h, unit.side):
            continue
        if not math.isfinite(state.step_cost(unit.hex, h, unit.type)):
            continue
        zone = enemy_zoi(state, unit.side) if zone is None else zone
        if h not in zone:
            out.append(h)
    return sorted(out, key=hex_label)


def withdrawers(state: GameState, mover: Unit) -> list[Unit]:
    """D11 (provisional): the enemy units ``mover`` approaches (D24: it entered an adjacent hex)
    that may withdraw before it: not routed, a greater movement allowance than the mover's,
    engaged with no other enemy, not yet withdrawn this command phase."""
    out = []
    for _, u in state.units_around(mover.hex):
        if u.side == mover.side or u.routed or u.name in state.withdrew:
            continue
        if unit_ma(u) <= unit_ma(mover) or any(e is not mover for e in engaged_with(state, u)):
            continue
        out.append(u)
    return out


def withdrawal(ctx: Context, mover: Unit) -> Procedure:
    """§3.2.1 names orderly withdrawal (有序撤退) but never defines it (D11). Provisional: a unit
    approached by a slower enemy unit may step back one hex, keeping its facing, once per command
    phase; leaders stacked with it may go with it (§4.4.2 first sentence, §5.2.4.e). A response in
    the approached side's window."""
    state = ctx.state
    if not mover.alive or mover.routed or not withdrawers(state, mover):
        return
    phase = state.command_phase

    def offers(side: str, point: Any) -> list[Response]:
        if point.depth or not mover.alive or mover.routed:
            return []
        out = []
        for u in withdrawers(state, mover):
            if u.side != side:
                continue
            riders = [ld.name for ld in state.leaders_at(u.hex) if ld.side == u.side]
            for h in withdrawal_hexes(state, u, mover):
                for along in ([True, False] if riders else [False]):
                    out.append(Response(
                        f"{u.name} withdraws to {hex_label(h)}" + (" with its leader(s)" if along else ""), side,
                        resolve=partial(withdraw, ctx, u, h, riders if along else []),
                        key=("withdraw", phase, u.name),
                        data={"unit": u.name, "hex": hex_label(h), "from": mover.name, "leaders": along}))
        return out

    yield from ctx.interrupts.window(f"{mover.name} approaches", [ctx.other_side(mover.side)], offers,
                                     rule="3.2.1 orderly withdrawal (provisional, D11)", kind=kinds.WITHDRAW)


def withdraw(ctx: Context, unit: Unit, to: Hex, riders: list[str]) -> Procedure:
    """D11 (provisional): the withdrawal itself (no MP, no order, facing kept)."""
    state = ctx.state
    state.withdrew.append(unit.name)
    unit.hex = to
    going = [state.leaders[n] for n in riders if state.leaders[n].alive]
    for ld in going:
        ld.hex = to
    ctx.event("withdraw", f"{unit.name} withdraws to {hex_label(to)}"
              + (f" with {', '.join(ld.name for ld in going)}" if going else "") + " (D11, provisional)",
              unit=unit.name, to=hex_label(to), leaders=[ld.name for ld in going])
    if any(state.carries_banner(ld) for ld in going):
        yield from rout.banner_moved(ctx, unit.side)


def _react(ctx: Context, u: Unit, mover: Unit) -> Procedure:
    ctx.state.reacted.append(u.name)
    yield from fire(ctx, u, mover, "reaction")


def evasion(ctx: Context, mover: Unit) -> Procedure:
    """§4.4.2: an unstacked enemy leader approached (D24 reading: the unit enters an adjacent hex)
    may evade: vs infantry at once, vs cavalry after a d10 (+1 for LC with MA ≥ 8) ≤ initiative,
    to the nearest friendly unit he can reach (§4.4.2.c); no such unit or a failed roll: lost."""
    state = ctx.state
    near = [ld for ld in state.live_leaders() if ld.side != mover.side and ld.hex.distance(mover.hex) == 1
            and state.stacked_unit(ld) is None]
    if not near:
        return

    def offers(side: str, point: Any) -> list[Response]:
        if point.depth:
            return []
        return [Response(f"{ld.name} evades", side, resolve=partial(evade, ctx, ld, mover),
                         key=("evade", state.command_phase, ld.name, mover.name, mover.hex),
                         data={"leader": ld.name, "from": mover.name})
                for ld in near if ld.side == side and ld.alive]

    yield from ctx.interrupts.window(f"{mover.name} approaches", [ctx.other_side(mover.side)], offers,
                                     rule="4.4.2 leader evasion", kind=kinds.EVADE)


def evasion_targets(state: GameState, leader: Leader) -> list[Hex]:
    """§4.4.2.a/c: the nearest (least MP) friendly units the leader can reach within his MA, never
    entering enemy ZOI (friendly-occupied hexes count as free of it) or enemy units."""
    from wargamekit_aig.command import leader_ma
    from wargamekit_aig.facing import enemy_zoi

    friends = {u.hex for u in state.live_units(leader.side) if not u.routed}
    enemies = {u.hex for u in state.live_units() if u.side != leader.side}
    blocked = (enemies | (enemy_zoi(state, leader.side) - friends)) - {leader.hex}
    reach = state.map.reachable(leader.hex, leader_ma(state, leader), "leader", blocked=blocked)
    costs = {h: c for h, c in reach.items() if h in friends and h != leader.hex}
    if not costs:
        return []
    best = min(costs.values())
    return sorted((h for h, c in costs.items() if c == best), key=hex_label)


def evade(ctx: Context, leader: Leader, mover: Unit) -> Procedure:
    """§4.4.2 a/b: the evasion itself."""
    state = ctx.state
    if mover.cavalry:
        roll = ctx.dice.d10(f"§4.4.2.b evasion of {leader.name}")
        plus = 1 if mover.type == "LC" and mover.ma >= 8 else 0
        if roll + plus > leader.initiative:
            rout.kill_leader(ctx, leader, f"caught by {mover.name} (rolled {roll}{'+1' if plus else ''}) (§4.4.2.b)",
                             by=mover)
            return
    places = evasion_targets(state, leader)
    if not places:
        rout.kill_leader(ctx, leader, "no friendly unit within reach to evade to (§4.4.2.c)", by=mover)
        return
    to = yield from ctx.ask(Choose.of(
        leader.side, f"{leader.name} evades to?", places, rule="4.4.2.a leader evasion", label=hex_label,
        kind=kinds.EVADE_TO, context={"leader": leader.name}, data=lambda h: {"hex": hex_label(h)}))
    leader.hex = to
    ctx.event("evade", f"{leader.name} evades to {hex_label(to)}", leader=leader.name, to=hex_label(to))


def _melee_label(shocks: dict[str, melee.Shock], n: str | None) -> str:
    """The target with the shock's exact expected hits (``odds_calc.shock_odds``)."""
    if n is None:
        return "no melee"
    dist = shock_odds(shocks[n])
    mine = float(sum(p * a for (a, _), p in dist.items()))
    theirs = float(sum(p * d for (_, d), p in dist.items()))
    return f"{n} (column {shocks[n].column:+d}: expected hits you {mine:.1f}, them {theirs:.1f})"


# -- §3.2.2 the melee segment -----------------------------------------------------------------
def melee_segment(ctx: Context, phase: Phase) -> Procedure:
    """§3.2.2 a–e. Q25 reading: the units activated this command phase may attack an enemy in
    their front (after a successful seize they must, §5.4.5); defenders take no pre-melee check
    (Q26); disordered cavalry attacks only if it did not move (it was already engaged, §7.3.1)."""
    state = ctx.state
    fights: list[tuple[Unit, Unit]] = []
    for name in phase.activated:
        unit = state.units[name]
        if unit.eliminated or unit.routed or unit.banned:
            continue
        if unit.disordered and unit.cavalry and unit.moved:
            continue
        foes = [f for h in front_hexes(state, unit) if (f := state.unit_at(h)) is not None
                and f.side != unit.side and not f.routed]
        if not foes:
            continue
        # a. "Melee – No Check": activated, did not move.
        unit.no_check = not unit.moved
        values: list[str | None] = [f.name for f in foes] + ([] if phase.seized else [None])
        shocks = {f.name: melee.shock_of(state, unit, f) for f in foes}
        target = yield from ctx.ask(Choose.of(
            unit.side, f"{unit.name}: melee whom?", values, rule="3.2.2 melee segment",
            label=partial(_melee_label, shocks), lazy_labels=True,
            kind=kinds.MELEE, context={"unit": unit.name, "no_check": unit.no_check, "phase": phase.number},
            data=lambda n: {"hold": True} if n is None else {"target": n}))
        if target is not None:
            fights.append((unit, state.units[target]))
    if not fights:
        return
    # b. pre-melee TQ checks for attackers without the marker (D8: failure = 1 hit, provisional).
    for attacker, _ in fights:
        if not attacker.no_check and attacker.alive and not attacker.routed:
            if not melee.pre_melee_check(ctx.dice, attacker.cohesion):
                yield from rout.apply_hits(ctx, attacker, 1, "failed pre-melee TQ check, §3.2.2.b", rout_now=False)
    # c. leader casualties (D21, provisional).
    checked: set[str] = set()
    for attacker, defender in fights:
        for unit, foe in ((attacker, defender), (defender, attacker)):
            for ld in state.leaders_at(unit.hex):
                if ld.side == unit.side and ld.name not in checked:
                    checked.add(ld.name)
                    if melee.leader_casualty(ctx.dice, state.tables.leader_casualty):
                        rout.kill_leader(ctx, ld, "fell in the melee (§3.2.2.c)", by=foe)
    # d. resolution.
    for attacker, defender in fights:
        if not attacker.alive or not defender.alive or attacker.hits >= attacker.tq or defender.routed:
            continue
        shock = melee.shock_of(state, attacker, defender)
        if ctx.hooks is not None:  # hookspecs.aig_shock_modifier
            extras = ctx.hooks.aig_shock_modifier(state=state, attacker=attacker, defender=defender, shock=shock)
            shock = attrs.evolve(shock, extra=shock.extra + sum(e for e in extras if e))
        a_hits, d_hits = melee.resolve_shock(ctx.dice, shock)
        ctx.event("melee", f"{attacker.name} attacks {defender.name} (column {shock.column:+d}): "
                  f"attacker {a_hits} hit(s), defender {d_hits}", attacker=attacker.name, defender=defender.name,
                  column=shock.column, attacker_hits=a_hits, defender_hits=d_hits)
        yield from rout.apply_hits(ctx, attacker, a_hits, "melee, §10 (provisional)", rout_now=False)
        yield from rout.apply_hits(ctx, defender, d_hits, "melee, §10 (provisional)", rout_now=False)
        for unit in (attacker, defender):
            if unit.cavalry and not unit.disordered:  # §7.3 / §2.4: after a melee, win or lose
                unit.disordered = True
                ctx.event("disorder", f"{unit.name} is disordered after the melee (§7.3)", unit=unit.name)
    # e. rout checks: hits ≥ TQ rout (§8.1) — every such unit of the segment takes its Rout
    # marker at once, then they make their rout moves in order.
    routing = list(dict.fromkeys(u.name for pair in fights for u in pair
                                 if u.alive and not u.routed and u.hits >= u.tq))
    for name in routing:
        rout.mark_routed(ctx, state.units[name], "its hits reach its TQ after the melee (§3.2.2.e, §8.1)")
    for name in routing:
        yield from rout.rout_move(ctx, state.units[name])
    for attacker, _ in fights:
        attacker.no_check = False
