"""The LnL ruleset: SEQ — the sequence of play (游戏流程) as phases of a ``PhaseCycle``, the
operations phase (OPS) as the core's ``AlternatingImpulses``, opportunity fire (OPF) as response
windows on the interrupt stack."""

from __future__ import annotations

import copy
import weakref
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from wargamekit import Choose, ChooseSubset, Data, Decision, Outcome, Player, Response, Ruleset
from wargamekit.decisions import LazyOptions
from wargamekit.geometry import Hex, HexMap
from wargamekit.interrupts import LazyOffers
from wargamekit.sequencing import AlternatingImpulses, PhaseCycle, PlayerTurns, Turn, TurnResult, by_phase, play_turns
from wargamekit.view import field_copier
from wargamekit_lnl import fire, kinds, movement, rules, sniper, vehicles
from wargamekit_lnl.data import COUNTERS
from wargamekit_lnl.los import exposed, map_memo, place_exposed, steady_map, visible
from wargamekit_lnl.rules import other, place_data, where
from wargamekit_lnl.scenario import SIDES, LnLScenario, SniperTable, check_scenario, hex_label
from wargamekit_lnl.state import ACTION_MARKERS, Context, GameState, Place, Unit, Weapon, initial_state, stacking_ok

Procedure = Generator[Decision, Any, None]

#: Rule citations for the decisions (for people; programs read the kinds).
RALLY, ACTIVATE, ACTION, MOVE, FIRE, OPF, SPOT, SMOKE, WITHDRAW = (
    "RAL 2", "OPS 2", "OPS 3", "MOV", "FIR/FPR", "OPF 1", "SPT 7", "SMK 1", "MOV 7",
)


#: OPF 1c: markers that keep a unit from opportunity fire.
_NOT_WAITING = frozenset({"move", "fire", "crawl", "stealth"})
#: OPF 1c for a vehicle: markers that keep it from opportunity fire.
_VEHICLE_NOT_WAITING = frozenset({"move", "fire"})


def _rally_label(found: Mapping[tuple[str, ...], tuple[Any, ...]], value: tuple[str, ...]) -> str:
    """RAL 2–4: the rally menu's label for ``value``, from what ``found`` bound when it was offered."""
    action = value[0]
    if action == "rally":
        place, p = found[value]
        return f"rally {value[1]} at {where(place)} ({float(p):.0%})"
    if action == "heal":
        return f"{value[1]} heals {value[2]}"
    if action == "merge":
        return f"merge {value[1]} and {value[2]}"
    if action == "pickup":
        return f"{value[1]} picks up {found[value][0]}"
    return "done"


def _rally_data(found: Mapping[tuple[str, ...], tuple[Any, ...]], value: tuple[str, ...]) -> dict[str, Any]:
    """RAL 2–4: the rally menu's option data for ``value`` (the rally's exact chance as a fraction)."""
    action = value[0]
    if action == "rally":
        p = found[value][1]
        return {"action": "rally", "unit": value[1], "helper": value[2], "p": [p.numerator, p.denominator]}
    if action == "heal":
        return {"action": "heal", "medic": value[1], "unit": value[2]}
    if action == "merge":
        return {"action": "merge", "units": [value[1], value[2]]}
    if action == "pickup":
        return {"action": "pickup", "unit": value[1], "weapon": value[2]}
    return {"action": "done"}


def _place_key(p: Place) -> tuple[int, int, int]:
    return (p[0].q, p[0].r, p[1])


def _fire_label(state: GameState, groups: Sequence[Sequence[Unit]], place: Place) -> str:
    """A fire menu's label for ``place``: where, and each group's attack's exact odds
    (:func:`rules.planned_odds`), ``" | "`` between groups.

    A lazy label's, made only when read (a random bot reads none; the log makes the chosen
    one's): the attacks are planned then, from the state as it is, while the decision is
    pending (docs/design.md "Sealed when answered"). Planning every target's attacks when the
    menu was asked (firepower, terrain DRM, leadership: ~80,000 instructions an attack) was for
    labels mostly never read; the fire's resolution plans its own attack again."""
    with steady_map(state.map):  # the map's memos looked up once for every group's line
        rows = [rules.planned_odds(state, g, place) for g in groups]
    return f"{where(place)}: " + " | ".join(rules.odds_text(odds()) for odds in rows)


#: The units of a side waiting to fire (OPF 1c): its groups able to fire small arms, by the
#: coordinates of their place (``_place_key``'s key), and its waiting vehicles.
_Waiting = tuple[dict[tuple[int, int, int], list[Unit]], list[Unit]]


def _waiting_to_fire(state: GameState, side: str, stop_at: Place | None = None) -> _Waiting | None:
    """``side``'s units that may opportunity-fire (OPF 1c; ops-complete allowed, OPF 1d): each
    place's Good Order units able to fire small arms (:func:`fire.can_fire`) with no
    move/fire/crawl/stealth marker, outside a melee hex, in set-up order; and its Good Order
    vehicles with no move/fire marker. ``None`` as soon as a live unit of ``side`` is found at
    ``stop_at`` (MOV 6's test, made in the same pass: a move into an enemy's hex polls no one)."""
    # One pass over the units (the poll is asked at every hex a mover enters, right after the MOV 6
    # test, a pass of its own before): places compared and keyed by coordinates (a place's hash
    # calls the Hex's, a Python call per unit), fire.can_fire inlined (both kinds of waiting unit
    # are Good Order: the shaken test first, then the counter's kind read once).
    groups: dict[tuple[int, int, int], list[Unit]] = {}
    waiting: list[Unit] = []
    melee = state.melee
    counters, no_small_arms = COUNTERS.units, fire.NO_SMALL_ARMS
    sq = sr = sl = None
    if stop_at is not None:
        sq, sr, sl = stop_at[0].q, stop_at[0].r, stop_at[1]
    for u in state.units.values():
        if not u.alive or u.side != side:
            continue
        h = u.hex
        if h.q == sq and h.r == sr and u.level == sl:
            return None
        if u.shaken:
            continue
        spec = counters[u.type]
        if spec.kind not in no_small_arms:  # fire.can_fire, inline
            if u.markers.isdisjoint(_NOT_WAITING) and not (melee and (h, u.level) in melee):
                groups.setdefault((h.q, h.r, u.level), []).append(u)
        elif spec.vehicle is not None and u.markers.isdisjoint(_VEHICLE_NOT_WAITING):
            waiting.append(u)
    return groups, waiting


#: id of a game's map -> (a weak reference to it, its read-only copy for views)
_PUBLIC_MAPS: dict[int, tuple[weakref.ref[HexMap], HexMap]] = {}


def _copy_unit(unit: Unit) -> Unit:
    """A unit for a view: its fields, a fresh set of markers and fresh weapons."""
    seen = _copy_unit_fields(unit)
    seen.weapons = [_copy_weapon(w) for w in unit.weapons]
    return seen


#: The view's copiers (one assignment per field: views are built at every decision a bot reads).
_copy_state, _copy_unit_fields, _copy_weapon = field_copier(GameState), field_copier(Unit), field_copier(Weapon)


def _public_map(hexmap: HexMap) -> HexMap:
    """One read-only copy of ``hexmap`` (its layers cannot be written), shared by every view of
    the game: a deep copy per decision was most of a view's cost, and players may read the map,
    never change the game's through it."""
    key = id(hexmap)
    held = _PUBLIC_MAPS.get(key)
    if held is not None and held[0]() is hexmap:
        return held[1]
    public = copy.deepcopy(hexmap)
    for layer in (public.terrain, public.elevation, public.hexsides):
        layer.setflags(write=False)
    _PUBLIC_MAPS[key] = (weakref.ref(hexmap, lambda _ref: _PUBLIC_MAPS.pop(key, None)), public)
    return public


def _step_label(o: tuple[Any, ...] | None) -> str:
    """A step menu's option (MOV 4, SW 3.2) as its label: stop, a place entered or a pick-up."""
    if o is None:
        return "stop"
    if len(o) > 3:
        return f"{o[3]} picks up {o[4]} ({o[2]} MP)"
    return f"{where((o[0], o[1]))} ({o[2]} MP)"


def _step_data(o: tuple[Any, ...] | None) -> dict[str, Any]:
    """A step menu's option as its data."""
    if o is None:
        return {"stop": True}
    extra = {"pickup": o[4], "unit": o[3]} if len(o) > 3 else {}
    return {**place_data((o[0], o[1])), "cost": o[2], **extra}


def _weapon_label(sws: Mapping[tuple[Any, ...], tuple[Weapon, Weapon | None]], v: tuple[Any, ...]) -> str:
    """The label of the SW menu's option ``v`` (RAL 4, RAL 5), ``sws``: the SWs each names."""
    if v[0] == "done":
        return "done"
    w, back = sws[v]
    if v[0] in ("setup", "stow"):
        return f"{v[1]} {'sets up' if v[0] == 'setup' else 'stows'} its {w.spec.name}"
    if v[0] != "exchange":
        return f"{v[1]} {v[0]}s its {w.spec.name}"
    if back is None:
        return f"{v[1]} hands its {w.spec.name} to {v[3]}"
    return f"{v[1]} swaps its {w.spec.name} for {v[3]}'s {back.spec.name}"


def _weapon_data(v: tuple[Any, ...]) -> dict[str, Any]:
    """The data of the SW menu's option ``v``."""
    if v[0] == "done":
        return {"action": "done"}
    if v[0] != "exchange":
        return {"action": v[0], "unit": v[1], "weapon": v[2]}
    if v[4] is None:
        return {"action": "exchange", "unit": v[1], "weapon": v[2], "to": v[3]}
    return {"action": "exchange", "unit": v[1], "weapon": v[2], "to": v[3], "back": v[4]}


class LnL(Ruleset):
    """Lock 'n Load tactical, v4.1 core rules summary: squads, leaders, heroes, support weapons."""

    name = "lnl"
    version = "0.3"
    description = "Lock 'n Load tactical (v4.1 summary): squads, leaders, heroes, support weapons, melee."
    sides = SIDES
    scenario_type = LnLScenario
    scenario_package = "wargamekit_lnl.scenarios"
    #: The map never changes after set-up (SET 2) and the scenario is frozen: snapshots keep
    #: them by reference (pickling the map was most of a snapshot's cost). Hexes (frozen values,
    #: ~20 in a state) and the scenario's frozen sniper table likewise: a snapshot a third of a
    #: game's impulses, each Hex pickled and rebuilt was ~a third of a snapshot's dump and load.
    shared_types = (HexMap, LnLScenario, Hex, SniperTable)

    def load_scenario(self, data: Mapping[str, Any], *, source: str | None = None) -> LnLScenario:
        return check_scenario(super().load_scenario(data, source=source), source)

    def setup(self, scenario: LnLScenario, options: Mapping[str, Any]) -> GameState:
        return initial_state(scenario)

    def options(self) -> Mapping[str, Any]:
        # A11: a side that cannot act when its impulse comes is skipped, or counts as passing.
        return {"unable": "skip", "opportunity_fire": True}

    # -- SEQ: the turn ----------------------------------------------------------------------------
    def play(self, ctx: Context) -> Generator[Decision, Any, Outcome]:
        state = ctx.state
        for u in state.alive():
            if u.kind == "hero" and not u.skill:  # HER 1: the scenario's hero draw
                u.skill = ctx.dice.pick(sorted(rules.COUNTERS.skills), "hero skill card")
                ctx.event("hero", f"{u.id} draws the skill {u.skill}", unit=u.id, skill=u.skill)
        if ctx.options["unable"] not in ("skip", "pass"):
            from wargamekit import InvalidChoiceError

            raise InvalidChoiceError(f"option unable: 'skip' or 'pass' (A11), not {ctx.options['unable']!r}")
        ended: list[Outcome] = []
        # A restart at an impulse (state.impulse set): the turn's rally phase is done already.
        resume = state.impulse is not None

        def phase(name: str, body: Callable[[Turn[Any]], Procedure]) -> Callable[[Turn[Any]], Generator[Any, Any, TurnResult]]:
            def take(turn: Turn[Any]) -> Generator[Any, Any, TurnResult]:
                nonlocal resume
                if resume:
                    if name == "rally":
                        return TurnResult()
                    resume = False
                elif name == "rally":
                    # A restart point before anything of the turn happens (everything after it
                    # reads the state only; the cycle below resumes after state.turn).
                    yield ctx.checkpoint(f"turn {turn.number}")
                state.turn, state.phase = turn.number, name
                yield from body(turn)
                end = self.sudden_death(state)
                if end is not None:
                    ended.append(end)
                return TurnResult(end=end is not None)

            return take

        cycle = PhaseCycle(["rally", "operations", "administration"], last_turn=state.turns)
        # 0 on a fresh game; the last turn begun on a restart at a turn, the one before it at an impulse
        cycle.turn = state.turn if state.impulse is None else state.turn - 1
        handlers = {"rally": phase("rally", lambda t: self.rally_phase(ctx)),
                    "operations": phase("operations", lambda t: self.operations_phase(ctx, ended)),
                    "administration": phase("administration", lambda t: self.administration_phase(ctx))}
        yield from play_turns(cycle, ctx.dice, by_phase(handlers), end_if=lambda: bool(ended))
        return ended[0] if ended else self.final_outcome(state)

    def sudden_death(self, state: GameState) -> Outcome | None:
        """A side with no units left on the map loses (provisional victory rule)."""
        # One pass for both sides (asked after every impulse), ending at the first unit of the
        # second side found.
        first = None
        for u in state.units.values():
            if u.alive:
                if first is None:
                    first = u.side
                elif u.side != first:
                    return None
        for side in SIDES:
            if side != first:
                return Outcome(winner=other(side), reason=f"{side} has no units left")
        return None

    def final_outcome(self, state: GameState) -> Outcome:
        """Provisional victory: more objective hexes controlled after the last turn; a tie goes to
        the scenario's ``tie_winner``."""
        rules.update_control(state)
        counts = {s: sum(1 for h in state.objectives if state.control.get(h) == s) for s in SIDES}
        a, b = SIDES
        winner = a if counts[a] > counts[b] else b if counts[b] > counts[a] else state.tie_winner
        return Outcome(winner=winner, reason=f"objectives held: {counts[a]} {a}, {counts[b]} {b}")

    # -- RAL --------------------------------------------------------------------------------------
    def rally_phase(self, ctx: Context) -> Procedure:
        """RAL 1: initiative, 1D6 each, a tie keeps it; RAL 2/6: the initiative player first."""
        state = ctx.state
        rolls = {s: ctx.dice.d6(f"initiative ({s})") for s in SIDES}
        a, b = SIDES
        if rolls[a] != rolls[b]:
            state.initiative = a if rolls[a] > rolls[b] else b
        ctx.event("initiative", f"Initiative rolls {rolls[a]}-{rolls[b]}: {state.initiative} has the initiative",
                  rolls=rolls, initiative=state.initiative)
        order: PlayerTurns[str] = PlayerTurns((state.initiative, other(state.initiative)), last_turn=1)

        def rally_side(turn: Turn[str]) -> Generator[Decision, Any, None]:
            yield from self.rally_side(ctx, turn.actor)

        yield from play_turns(order, ctx.dice, rally_side)

    def rally_side(self, ctx: Context, side: str) -> Procedure:
        """RAL 2–5 for one side: rally attempts, a medic's healing (SMC 1.2), half-squad merging
        (RAL 3), picking up loose SWs (RAL 4); jammed SWs of Good Order units with no enemy in
        the hex are cleared (RAL 5, U7/U8 reading)."""
        state = ctx.state
        medic_used: set[str] = set()
        for u in state.alive(side):
            # (A jammed SW first: seldom there, where the enemy test scans the units. The shaken
            # flag, not Good Order's property, and a loop, not any() over a generator: every
            # unit of both sides each turn.)
            if u.shaken:
                continue
            for w in u.weapons:
                if w.jammed:
                    if not state.in_hex(u.hex, other(side)):
                        self._clear_jams(ctx, u)
                    break
        while True:
            # A lazy menu (a random bot reads one option): what each option shows is found and
            # bound now (the rallying unit's place and its chance), its label and data made when read.
            found: dict[tuple[str, ...], tuple[Any, ...]] = {("done",): ()}
            alive = state.alive(side)
            # The side's units by place, each list in set-up order (what state.at gives): read
            # once per menu, not once per place and medic (the menu is made again after each pick).
            by_place: dict[Place, list[Unit]] = {}
            for u in alive:
                by_place.setdefault(u.place, []).append(u)
            for u in alive:
                helper = rules.may_rally(state, u, medic_used, by_place)
                if helper is not None:
                    found["rally", u.id, helper] = (u.place, rules.rally_odds(state, u))
            for m in alive:
                if m.kind == "medic" and m.good_order and m.id not in medic_used:
                    for u in by_place[m.place]:
                        if u.wounded:
                            found["heal", m.id, u.id] = ()
            for place in sorted(by_place, key=_place_key):
                here = by_place[place]
                halves = [u for u in here if u.kind == "half" and u.good_order]
                if place not in state.melee and any(u.kind == "leader" and u.good_order for u in here):
                    for i, x in enumerate(halves):
                        for y in halves[i + 1:]:
                            if x.type == y.type:
                                found["merge", x.id, y.id] = ()
                for w in rules.loose_weapon(state, place):
                    for u in here:
                        if u.good_order and len(u.weapons) < rules.carry_limit(u):
                            found["pickup", u.id, w.id] = (w.spec.name,)
            pick = yield from ctx.ask(Choose.of(
                side, "Rally phase: what next?", list(found), rule=RALLY, kind=kinds.RALLY,
                label=partial(_rally_label, found), data=partial(_rally_data, found), lazy=True,
                context={"turn": state.turn, "side": side}))
            if pick[0] == "done":
                yield from self.weapon_handling(ctx, side)
                return
            if pick[0] == "rally":
                rules.try_rally(ctx, state.units[pick[1]], pick[2], medic_used)
            elif pick[0] == "heal":
                medic_used.add(pick[1])
                state.units[pick[2]].wounded = False
                ctx.event("heal", f"{pick[1]} heals {pick[2]}", medic=pick[1], unit=pick[2])
            elif pick[0] == "merge":
                rules.merge_halves(ctx, state.units[pick[1]], state.units[pick[2]])
            else:
                rules.pick_up(ctx, state.units[pick[1]], pick[2])

    @staticmethod
    def _clear_jams(ctx: Context, u: Unit) -> None:
        """RAL 5: ``u`` clears every jammed SW it carries."""
        for w in u.weapons:
            if w.jammed:
                w.jammed = False
                ctx.event("unjam", f"{u.id} clears its {w.spec.name}", unit=u.id, weapon=w.id)

    def weapon_handling(self, ctx: Context, side: str) -> Procedure:
        """SW 3.1, RAL 4 (A5: RAL 4 is the broader rule): any Good Order infantry unit may drop,
        destroy or exchange (hand over, or swap) the SWs it carries within its hex; RAL 5: a Good
        Order squad or half-squad with no enemy in its hex may stow or set up a tripod MG
        (MOV 1.3). Each SW is handled once per rally phase (a limit of this implementation, so
        the phase ends)."""
        state = ctx.state
        handled: set[str] = set()
        while True:
            # A lazy menu (every rally phase of both sides, often dozens of options; a random
            # bot reads one): the values now, each label and data from its value and SWs when read.
            values: list[tuple[Any, ...]] = [("done",)]
            sws: dict[tuple[Any, ...], tuple[Weapon, Weapon | None]] = {}
            units = [u for u in state.alive(side) if u.good_order and not u.vehicle]
            # Those units by place, in set-up order: the partners of an exchange read once per
            # menu (made again after each pick), not a place compared per pair of units.
            by_place: dict[Place, list[Unit]] = {}
            for u in units:
                by_place.setdefault(u.place, []).append(u)
            for u in units:
                for w in u.weapons:
                    if w.id in handled:
                        continue
                    if w.spec.tripod and u.kind in ("squad", "half") and not state.in_hex(u.hex, other(side)):
                        change = "setup" if w.stowed else "stow"  # RAL 5 (U7: a tripod's two states)
                        values.append((change, u.id, w.id))
                        sws[values[-1]] = (w, None)
                    for action in ("drop", "destroy"):
                        values.append((action, u.id, w.id))
                        sws[values[-1]] = (w, None)
                    for t in by_place[u.place]:
                        if t is u:
                            continue
                        if len(t.weapons) < rules.carry_limit(t):
                            values.append(("exchange", u.id, w.id, t.id, None))
                            sws[values[-1]] = (w, None)
                        if u.id < t.id:
                            for back in t.weapons:
                                if back.id not in handled:
                                    values.append(("exchange", u.id, w.id, t.id, back.id))
                                    sws[values[-1]] = (w, back)
            if len(values) == 1:
                return

            pick = yield from ctx.ask(Choose.of(side, "Support weapons: what next?", values, rule="RAL 4",
                                                kind=kinds.WEAPONS, context={"turn": state.turn, "side": side},
                                                label=partial(_weapon_label, sws), data=_weapon_data, lazy=True))
            if pick[0] == "done":
                return
            unit = state.units[pick[1]]
            handled.add(pick[2])
            if pick[0] in ("stow", "setup"):
                rules.change_state(ctx, unit, pick[2], stowed=pick[0] == "stow")
            elif pick[0] == "drop":
                rules.drop_weapon(ctx, unit, pick[2])
            elif pick[0] == "destroy":
                rules.destroy_weapon(ctx, unit, pick[2])
            else:
                if pick[4] is not None:
                    handled.add(pick[4])
                rules.exchange_weapons(ctx, unit, pick[2], state.units[pick[3]], pick[4])

    # -- OPS --------------------------------------------------------------------------------------
    def ready(self, state: GameState, side: str) -> list[Unit]:
        """Units that may still be activated (OPS 1, OPS 4, A12): no action marker, and not in a
        melee hex that has already fought this turn (MEL 4)."""
        table = state.sniper_table
        # A sniper is ready if it has any target: the first one found will do (the whole list,
        # with each shot's odds inputs, was a fifth of a random game: this runs at every impulse).
        # (As can_act: the place tuple is built only when a melee was fought this turn.)
        # (The kind read inline, not through Unit.kind: a Python call per unit of every impulse.)
        fought, kinds_of = state.melee_fought, COUNTERS.units
        return [u for u in state.units.values() if u.alive and u.side == side and u.markers.isdisjoint(ACTION_MARKERS)
                and not (fought and u.place in fought)
                and (kinds_of[u.type].kind != "sniper" or sniper.has_target(state, u, table.casualty, table.shaken))]

    def can_act(self, state: GameState, side: str) -> bool:
        """Whether :meth:`ready` is not empty. The alternation asks it before every impulse (of
        the side whose impulse it is, and of the other when that side cannot act): an ordinary
        unit settles it, a sniper's targets are looked for only if none."""
        # One pass that stops at the first ordinary ready unit (asked once or twice per impulse);
        # the place tuple is built only when a melee was fought this turn.
        fought = state.melee_fought
        snipers = []
        for u in state.units.values():
            if u.alive and u.side == side and u.markers.isdisjoint(ACTION_MARKERS) \
                    and not (fought and u.place in fought):
                if u.kind != "sniper":
                    return True
                snipers.append(u)
        table = state.sniper_table
        return any(sniper.has_target(state, u, table.casualty, table.shaken) for u in snipers)

    def sniper_targets(self, state: GameState, u: Unit) -> list[tuple[Unit, sniper.SniperShot]]:
        """SMC 2.2–2.3: what the sniper ``u`` may fire at, with the scenario's table (D8)."""
        table = state.sniper_table
        return sniper.targets(state, u, table.casualty, table.shaken)

    def operations_phase(self, ctx: Context, ended: list[Outcome]) -> Procedure:
        """OPS 1: impulses alternate from the initiative player; the phase ends when no unit can
        act or after 3 consecutive passes over both players."""
        state = ctx.state
        first = state.initiative if state.impulse is None else state.impulse[1]
        impulses: AlternatingImpulses[str] = AlternatingImpulses((first, other(first)),
                                       can_act=lambda s: self.can_act(state, s), pass_limit=3,
                                       unable=ctx.options["unable"])
        if state.impulse is not None:  # a restart at an impulse: the sequence goes on from it
            impulses.impulse, impulses.consecutive_passes = state.impulse[0] - 1, state.impulse[2]

        def impulse(turn: Turn[str]) -> Generator[Any, Any, TurnResult]:
            # A restart point before each impulse: the state holds the units' markers, the
            # initiative and (in state.impulse) where the alternation stands.
            state.impulse = (turn.number, turn.actor, impulses.consecutive_passes)
            yield ctx.checkpoint(f"turn {state.turn} impulse {turn.number}")
            acted = yield from self.impulse(ctx, turn.actor)
            rules.update_control(state)
            end = self.sudden_death(state)
            if end is not None:
                ended.append(end)
            return TurnResult(passed=not acted, end=end is not None)

        yield from play_turns(impulses, ctx.dice, impulse)
        state.impulse = None

    def reach_places(self, state: GameState, side: str, start: Place, chosen: Sequence[Unit]) -> set[Place]:
        """OPS 2.1, LDR 1 (A2): the places an activation reaches: the first one, and the hexes
        adjacent to each place whose chosen units include a Good Order leader (chaining)."""
        # The places of the chosen Good Order leaders, read once (the units menu's constraint
        # asks this for every subset a random bot tries).
        leading = {u.place for u in chosen if u.good_order and u.kind == "leader"}
        reached = {start}
        if start not in leading:
            return reached
        frontier = [start]
        while frontier:
            place = frontier.pop()
            if place in leading:
                for near in self._places_next_to(state, place[0]):
                    if near not in reached:
                        reached.add(near)
                        frontier.append(near)
        return reached

    @staticmethod
    def _places_next_to(state: GameState, h: Hex) -> tuple[Place, ...]:
        """Every place (hex and level) of the hexes next to ``h``, memoized by the map (the
        units menu's constraint asks :meth:`reach_places` for every subset a random bot tries)."""
        memo = map_memo(state.map, "places next to")
        key = (h.q, h.r)
        found = memo.get(key)
        if found is None:
            found = memo[key] = tuple((n, level) for n in state.map.neighbours(h) for level in range(state.levels(n)))
        return found

    def impulse(self, ctx: Context, side: str) -> Generator[Decision, Any, bool]:
        """OPS 2–3: activate a hex (one building level), pick the units, pick their one action."""
        state = ctx.state
        # SMC 2.1 (A57): a sniper may be placed at any time — at the start of every impulse,
        # either side first offered in turn.
        if any(state.snipers.values()):
            yield from ctx.interrupts.window("impulse start", [side, other(side)], self._sniper_offers(ctx),
                                             rule="SMC 2.1", kind=kinds.SNIPER)
        ready = self.ready(state, side)
        if not ready:
            ctx.event("pass", f"{side} has nothing left to activate", side=side)
            return False
        # SMC 2.2: a sniper is activated on its own, as an option of its own. (One pass: the
        # snipers, the other units and their places, keyed by coordinates — _place_key's key,
        # written out: a place's hash calls its Hex's, a Python call per unit.)
        snipers: list[Unit] = []
        others: list[Unit] = []
        at: dict[tuple[int, int, int], Place] = {}
        kinds_of = COUNTERS.units  # (the kind read inline, as in ready)
        for u in ready:
            if kinds_of[u.type].kind == "sniper":
                snipers.append(u)
            else:
                others.append(u)
                h = u.hex
                at.setdefault((h.q, h.r, u.level), (h, u.level))
        ready = others
        places = [at[key] for key in sorted(at)]
        sniper_at = {u.id: u.place for u in snipers}  # found once for the menu's labels and data
        # Lazy menus and labels (here and in the other menus of values that never change): a
        # random bot reads no option, the log makes only the chosen label, a bot reads the data.
        pick = yield from ctx.ask(Choose.of(
            side, "Activate which hex?", [None, *places, *snipers], rule=ACTIVATE,
            label=lambda p: "pass" if p is None else f"sniper {p.id} at {where(sniper_at[p.id])}"
            if isinstance(p, Unit) else where(p), kind=kinds.ACTIVATE, lazy_labels=True,
            context={"turn": state.turn, "side": side},
            data=lambda p: {"pass": True} if p is None else {**place_data(sniper_at[p.id]), "sniper": p.id}
            if isinstance(p, Unit) else place_data(p), lazy=True))
        if pick is None:
            ctx.event("pass", f"{side} passes", side=side)
            return False
        if isinstance(pick, Unit):
            ctx.event("activate", f"{side} activates the sniper {pick.id}", side=side, units=[pick.id], action="snipe")
            yield from self.snipe(ctx, pick)
            return True
        start: Place = pick
        # Candidate units: the hex's, plus every ready unit a chain of leaders could reach.
        # (Coordinates compared: two equal hexes that are not one object compare by attrs' __eq__.)
        hq, hr, level = start[0].q, start[0].r, start[1]
        here = [u for u in ready if u.level == level and u.hex.q == hq and u.hex.r == hr]
        candidates = list(here)
        if any(u.kind == "leader" and u.good_order for u in here):
            reach = self.reach_places(state, side, start, ready)
            candidates += [u for u in ready if u.place in reach and u.place != start]

        def legal(values: tuple[Any, ...]) -> str | None:
            chosen = [state.units[v] for v in values]
            if not any(u.place == start for u in chosen):
                return "activate at least one unit of the chosen hex"
            tanks = [u for u in chosen if u.vehicle]
            if len(tanks) > 1:
                return "a vehicle is activated on its own (FIR 2, OPS 3.2a)"
            if tanks and any(u.place != tanks[0].place for u in chosen):
                return "infantry moving with a vehicle is activated in its hex (VMV 1.4)"
            away = [u for u in chosen if u.place != start]
            if not away:
                return None  # (the activated place is always reached: no leaders' reach to find)
            allowed = self.reach_places(state, side, start, chosen)
            if any(u.place not in allowed for u in away):
                return "units of other hexes join only through an activated Good Order leader (LDR 1, OPS 2.1)"
            return None

        if len(candidates) == 1:
            chosen = candidates
        else:
            # A lazy menu (a random bot reads no option, the log the chosen labels): each unit's
            # label and place bound now, as offered; an option's data made when read.
            labels = {u.id: u.label() for u in candidates}
            at_place = {u.id: u.place for u in candidates}
            ids = yield ChooseSubset(side=side, prompt=f"Which units at {where(start)} (and beyond, with leaders)?",
                                     options=LazyOptions(labels, labels.__getitem__,
                                                         lambda i: {"unit": i, **place_data(at_place[i])}),
                                     min_count=1, constraint=legal, rule=ACTIVATE, kind=kinds.UNITS,
                                     context={"hex": hex_label(start[0]), "level": start[1]})
            chosen = [state.units[i] for i in ids]
        groups = [[u for u in chosen if u.place == p] for p in sorted({u.place for u in chosen}, key=_place_key)]
        actions = self.actions(state, groups)
        ids = tuple(u.id for u in chosen)
        # The context as the core would freeze it (see move): not walked again.
        action = yield from ctx.ask(Choose.of(side, "What do they do?", actions, rule=ACTION, kind=kinds.ACTION,
                                              context=Data({"units": ids}),
                                              data=lambda a: {"action": a}, lazy=True))
        ctx.event("activate", f"{side} activates {', '.join(ids)} to {action}",
                  side=side, units=list(ids), action=action)
        tank = next((u for u in chosen if u.vehicle), None)
        if tank is not None:
            if action == "move":
                yield from self.vehicle_move(ctx, tank, [u for u in chosen if u is not tank])
            else:
                yield from self.vehicle_fire(ctx, tank)
            return True
        if action == "snipe":
            yield from self.snipe(ctx, chosen[0])
            return True
        if action == "anti-tank":
            yield from self.anti_tank(ctx, chosen)
            return True
        if action == "move":
            for group in groups:
                yield from self.move(ctx, group)
        elif action == "fire":
            yield from self.fire_action(ctx, groups)
        elif action == "smoke":
            yield from self.smoke_action(ctx, chosen)
        elif action == "spot":
            yield from self.spot_action(ctx, chosen)
        elif action == "drop":
            yield from self.drop_action(ctx, chosen)
        elif action == "melee":
            for u in chosen:
                u.markers.add("ops")
            rules.fight_melee(ctx, side, chosen[0].place, [u for u in chosen if u.alive])
        else:
            yield from self.withdraw(ctx, chosen)
        return True

    def actions(self, state: GameState, groups: list[list[Unit]]) -> list[str]:
        """OPS 3: the actions every activated unit can take together."""
        units = [u for g in groups for u in g]
        if any(u.vehicle for u in units) and len(units) > 1:
            return ["move"]  # VMV 1.4: infantry and a vehicle activated together move together
        if units[0].vehicle:
            v = units[0]
            out = ["move"]
            if v.good_order and vehicles.has_vehicle_target(state, v):
                out.append("fire")  # VEH 3: a shaken vehicle does not fire
            return out
        melee = state.melee  # (tested for emptiness first: a place's hash is a Python call)
        if melee and any(g[0].place in melee for g in groups):
            out = ["withdraw"] if len(groups) == 1 else []
            if len(groups) == 1 and any(rules.melee.can_melee(u, attacking=True) for u in units):
                out.insert(0, "melee")
            return out or ["withdraw"]
        out = ["move"]
        # Fire (A13), smoke and spot are Good Order actions: with a shaken unit among them (three
        # in ten menus of random games) the enemy is not read at all.
        if all(u.good_order for u in units):
            # The enemy by place and their exposure, read once for the fire and the spot tests;
            # the map's memos looked up once for the lines they ask (dozens a menu).
            enemies = rules.enemies_by_place(state, other(units[0].side))
            exposure: dict[str, bool] = {}
            fire_asked = all(fire.can_fire(u) for u in units)
            with steady_map(state.map):
                if len(groups) > 1:
                    can_fire = fire_asked and rules.has_target(state, units, groups, enemies, exposure)
                    can_spot = False
                else:  # one group: the fire and spot tests in one pass over the enemy places
                    can_fire, can_spot = rules.fire_and_spot(state, units, enemies, exposure, fire_asked,
                                                             not any(u.markers for u in units))
            if can_fire:
                out.append("fire")
            if all(u.spec.smoke > 0 for u in units) and len(groups) == 1:
                out.append("smoke")  # SMK 1
            if can_spot:
                out.append("spot")  # SPT 7.1–7.2
        if len(groups) == 1 and any(vehicles.can_at_melee(u) for u in units) \
                and vehicles.adjacent_vehicles(state, units):
            out.append("anti-tank")  # IVV 1
        if len(groups) == 1 and self.droppers(units):
            out.append("drop")  # SW 3.2
        return out

    def droppers(self, units: list[Unit]) -> list[Unit]:
        """SW 3.2: the Good Order squads and leaders among ``units`` that carry an SW."""
        return [u for u in units if u.good_order and u.kind in ("squad", "leader") and u.weapons]

    def drop_action(self, ctx: Context, units: list[Unit]) -> Procedure:
        """SW 3.2: a Good Order squad or leader puts one SW down in its hex; dropping costs
        nothing (the rule prices only picking up), so it leaves no marker."""
        pairs = [(u, w) for u in self.droppers(units) for w in u.weapons]
        unit, weapon = yield from ctx.ask(Choose.of(
            units[0].side, "Drop which support weapon?", pairs, rule="SW 3.2", kind=kinds.DROP_WEAPON,
            label=lambda p: f"{p[0].id}: {p[1].spec.name}", context={"units": [u.id for u in units]},
            data=lambda p: {"unit": p[0].id, "weapon": p[1].id}, lazy=True))
        rules.drop_weapon(ctx, unit, weapon.id)

    # -- MOV / CRL / STL / AST --------------------------------------------------------------------
    def move(self, ctx: Context, movers: list[Unit]) -> Procedure:
        """MOV 2–10: the stack moves hex by hex; on entering each hex: events (none defined, U5),
        opportunity fire, then only Good Order movers go on (MOV 9, MOV 2.3)."""
        state = ctx.state
        side = movers[0].side
        modes = movement.modes_for(movers)
        mode = yield from ctx.ask(Choose.of(side, "How do they move?", modes, rule=MOVE, kind=kinds.MOVE_MODE,
                                            context=Data({"units": tuple(u.id for u in movers)}),
                                            data=lambda m: {"mode": m}, lazy=True))
        total = movement.allowance(movers, mode)
        marker = "move" if mode == "normal" else mode
        everyone = list(movers)
        # CRL 1.1: only a crawl asks whether the movers were exposed before it (every move
        # read each mover's exposure, a scan of the units per mover).
        was_exposed = {u.id: exposed(state, u) for u in movers} if mode == "crawl" else {}
        spent = moved = 0
        while movers:
            here = movers[0].place
            ids = tuple(u.id for u in movers)
            options: list[tuple[Any, ...]] = []
            if not any(u.set_up for u in movers):  # MOV 1.3: a set-up tripod MG holds its carrier
                options = movement.steps(state, movers, here, spent, total, mode, moved)  # (a new list)
            # SW 3.2: any mover able to use SWs picks up a loose one for 2 MP. (The emptiness
            # tests here and below first: a place's hash is a Python call, at every step.)
            if mode != "crawl" and state.loose:
                options += [(here[0], here[1], movement.PICKUP_COST, u.id, w.id)
                            for u in movers for w in rules.loose_weapon(state, here)
                            if len(u.weapons) < rules.carry_limit(u) and total - spent >= movement.PICKUP_COST]

            # The context as the core would freeze it (a Data of scalars and a tuple of ids), so it
            # is not walked again: the commonest menu with a list in its context.
            step = yield from ctx.ask(Choose.of(
                side, f"Move {', '.join(ids)} from {where(here)} ({total - spent} MP left)?",
                [None, *options], rule=MOVE, kind=kinds.MOVE_STEP, label=_step_label, lazy_labels=True,
                context=Data({"units": ids, "mp_left": total - spent, "mode": mode, "hex": hex_label(here[0]),
                              "level": here[1]}),
                data=_step_data, lazy=True))
            if step is None:
                break
            if len(step) > 3:  # SW 3.2: picking up spends MP but enters no hex (no opportunity fire)
                spent += step[2]
                rules.pick_up(ctx, state.units[step[3]], step[4])
                total = min(total, movement.allowance(movers, mode))  # MOV 1.1: an SMC now carries one
                continue
            h, level, cost = step
            spent += cost
            moved += 1
            for u in movers:
                u.hex, u.level = h, level
                u.markers.add(marker)
            ctx.event("move", f"{', '.join(ids)} enter {where((h, level))}", hex=hex_label(h),
                      level=level, units=ids, mode=mode)  # (the tuple logged as a list, as any event's)
            place = (h, level)
            if state.melee and place in state.melee:  # MEL 1.5: a reinforcement move (U11 reading)
                rules.reinforce_melee(ctx, side, place, movers)
                break
            # MOV 6: an enemy there, stop and melee — tested in the pass that finds the enemy's
            # units waiting to fire, which this hex's opportunity-fire poll then reads.
            waiting_found = _waiting_to_fire(state, other(side), place)
            if waiting_found is None:
                rules.fight_melee(ctx, side, place, movers)
                break
            # CRL 1.1 / STL 1.2: entering open ground (crawl: also ending next to the enemy).
            if mode in ("crawl", "stealth") and (rules.effects(state.terrain(h)).open and level == 0):
                with steady_map(state.map):  # (the map's memos looked up once for every enemy's line)
                    seen = any(visible(state, e.hex, h) for e in state.alive(other(side)))
                if seen:
                    state.spotted.add(place)
            targetable = mode in ("normal", "assault") or (mode == "crawl" and all(was_exposed[u.id] for u in movers))
            if targetable and ctx.options["opportunity_fire"]:  # OPF 1a–1b
                yield from self._opportunity_window(ctx, side, movers, place, side, waiting_found=waiting_found)
            movers = [u for u in movers if u.alive and u.good_order]  # MOV 2.3, A65
        for u in everyone:
            if u.alive:
                u.markers.add(marker)  # MOV 10, CRL 2, STL 6, AST 3
        if moved:
            for u in everyone:
                if u.alive and u.spec.arrow:
                    yield from self.team_facing(ctx, u)
        if mode == "assault":  # AST 2.3: fire in the same impulse
            shooters = [u for u in everyone if u.alive and fire.can_fire(u) and u.place == everyone[0].place]
            if shooters:
                places = rules.targets_for(state, shooters, [shooters])
                if places:
                    target = yield from ctx.ask(Choose.of(
                        side, "Assault fire at?", [None, *places], rule="AST 2.3", kind=kinds.ASSAULT_FIRE,
                        label=lambda p: "hold fire" if p is None else _fire_label(state, [shooters], p),
                        lazy_labels=True,
                        context={"units": [u.id for u in shooters]},
                        data=lambda p: {"hold": True} if p is None else place_data(p), lazy=True))
                    if target is not None:
                        rules.fire_at(ctx, shooters, target)

    def team_facing(self, ctx: Context, team: Unit) -> Procedure:
        """MOV 8: a weapon team with an arrow may face any hexside on entering a new hex. Only
        the facing in the last hex entered can matter (it fires in no hex it passes through), so
        it is asked once, after the move."""
        now = team.facing
        facing = yield from ctx.ask(Choose.of(
            team.side, f"{team.id} at {where(team.place)}: face which hexside?", list(range(6)), rule="MOV 8",
            kind=kinds.TEAM_FACING, label=lambda d: f"hexside {d}" + (" (as now)" if d == now else ""),
            lazy_labels=True,
            context={"unit": team.id, "facing": team.facing, **place_data(team.place)},
            data=lambda d: {"facing": d}, lazy=True))
        if facing != team.facing:
            team.facing = facing
            ctx.event("face", f"{team.id} faces hexside {facing}", unit=team.id, facing=facing)

    def _opportunity_window(self, ctx: Context, side: str, movers: list[Unit], place: Place, who: str,
                            verb: str = "enters", *, waiting_found: _Waiting | None = None,
                            ) -> Generator[Decision, Any, None]:
        """OPF 1a–1b: the response window after ``side``'s ``movers`` enter ``place``, in which
        the other side may fire at them (:meth:`_opportunity`), named "``who`` ``verb`` place".
        ``waiting_found``: the other side's units waiting to fire in the state as it is now
        (:func:`_waiting_to_fire`), if the caller found them already (the window's first poll
        reads them).

        Most windows offer nothing (three in four polls of a random game): with nothing on the
        stack the window's one poll is asked here first, and when it offers nothing no window
        is opened — what the window would do (poll once, offer nothing, close with no decision
        and no event) — so its timing label, offers and machinery are not made (issue 9)."""
        interrupts = ctx.interrupts
        enemy = other(side)
        first: Sequence[Response] | None = None
        if not interrupts.items:
            if not interrupts.enabled:
                return  # (a window with an empty stack and responses disabled does nothing)
            first = self._opportunity_offers(ctx, enemy, movers, place, waiting_found)
            if not first:
                return
        later = self._opportunity(ctx, movers, place)
        offers = later
        if first is not None:
            # The window polls at once, the state as it is now: its first poll is the one made above.
            pending = [first]

            def offers_once(side: str, point: Any) -> Sequence[Response]:
                if pending and not point.depth:
                    return pending.pop()
                return later(side, point)

            offers = offers_once
        yield from interrupts.window(f"{who} {verb} {where(place)}", [enemy], offers, rule=OPF,
                                     kind=kinds.OPPORTUNITY_FIRE)

    def _opportunity(self, ctx: Context, movers: list[Unit], place: Place) -> Callable[[str, Any], Sequence[Response]]:
        """OPF 1–2: each enemy hex's waiting units (no move/fire/crawl/stealth marker, OPF 1c;
        ops-complete allowed at −1, OPF 1d) may fire together at the movers (A41)."""

        def offers(side: str, point: Any) -> Sequence[Response]:
            if point.depth:
                return []
            return self._opportunity_offers(ctx, side, movers, place)

        return offers

    def _opportunity_offers(self, ctx: Context, side: str, movers: list[Unit], place: Place,
                            waiting_found: _Waiting | None = None) -> Sequence[Response]:
        """OPF 1–2: what ``side`` may fire at the ``movers`` at ``place`` now, with nothing on
        the stack (:meth:`_opportunity`'s offers at depth 0); ``waiting_found``: the units of
        ``side`` waiting to fire, as :func:`_waiting_to_fire` finds them in the state as it is
        now, if the caller found them already."""
        state = ctx.state
        targets = [u for u in movers if u.alive and u.place == place]
        if not targets:
            return []

        def still_there() -> str | None:
            return None if any(u.alive and u.place == place for u in targets) else "the movers are gone"

        # The movers' ids, labels and damage-check views are made once for every offer (asked
        # at every hex a mover enters: a tenth of a random game).
        if waiting_found is None:
            waiting_found = _waiting_to_fire(state, side)
        assert waiting_found is not None  # (no stop_at: never None)
        groups, waiting = waiting_found
        if not waiting and not groups:
            return []
        ids = tuple(u.id for u in targets)
        label = hex_label(place[0])
        # Which responses there are is found now (whether each group may fire at all); each
        # response, its name with the exact odds, is made only when its option is read (a
        # LazyOffers: a random bot reads one, or none), and so is the attack those odds need
        # (fire.plan_fire's firepower and DRMs: most of a poll's cost, for offers mostly unread).
        keys: list[Any] = []
        found: list[tuple[Any, ...]] = []
        with steady_map(state.map):  # the map's memos looked up once for every group's line
            for v in waiting:
                if self._vehicle_shot_at(state, v, targets, place) is not None:
                    keys.append(("opf", state.turn, v.id, ids, label))
                    found.append((v,))
            for firers in [groups[key] for key in sorted(groups)] if len(groups) > 1 else groups.values():
                if fire.in_reach(state, firers, place) is None:  # (None exactly when plan_fire is)
                    continue
                origin = firers[0].place
                keys.append(("opf", state.turn, hex_label(origin[0]), origin[1], ids, label))
                found.append((firers, origin))
        if not keys:
            return []
        return LazyOffers(keys, partial(self._opportunity_response, ctx, side, place, targets, still_there,
                                        keys, found))

    def _opportunity_response(self, ctx: Context, side: str, place: Place, targets: list[Unit],
                              still_there: Callable[[], str | None], keys: list[Any], found: list[tuple[Any, ...]],
                              index: int) -> Response:
        """OPF 1–2: opportunity-fire response ``index`` of an offer :meth:`_opportunity` found,
        made from what was found then (the firers and the movers) and, for its odds, the state
        as it is when the response is read: while its decision is pending (its answer seals
        the rest, docs/design.md "Sealed when answered"), as any lazy label."""
        state = ctx.state
        what = found[index]
        at = place_data(place)
        listed = [u.id for u in targets]
        if len(what) == 1:  # a waiting vehicle (VEH)
            v = what[0]
            return Response(
                f"opportunity fire: {v.id} at {where(place)}", side,
                resolve=partial(self.vehicle_shoot, ctx, v, place, targets, opportunity=True),
                is_legal=still_there, key=keys[index], data={"vehicle": v.id, "at": at, "targets": listed})
        firers, origin = what
        attack = fire.plan_fire(state, firers, place, opportunity=True, moving=True)
        if attack is None:  # (only if the state was edited since the poll)
            odds = "out of reach"
        else:  # the movers there, in set-up order (as attack_odds lists them)
            ids = {u.id for u in targets}
            odds = rules.odds_text([(u.id, fire.outcome_odds(attack, fire.Target.of(state, u)))
                                    for u in state.at(place, other(side)) if u.id in ids])
        return Response(
            f"opportunity fire from {where(origin)} at {where(place)} ({odds})", side,
            resolve=partial(rules.fire_at, ctx, firers, place, opportunity=True, targets=targets),
            is_legal=still_there, key=keys[index],
            data={"firers": [u.id for u in firers], "from": place_data(origin), "at": at, "targets": listed})

    # -- SMC 2: the sniper ---------------------------------------------------------------------
    def _sniper_offers(self, ctx: Context) -> Callable[[str, Any], list[Response]]:
        """SMC 2.1: a side with a sniper in hand may place one (a response in the window)."""
        state = ctx.state

        def offers(side: str, point: Any) -> list[Response]:
            if point.depth or state.snipers.get(side, 0) <= 0:
                return []
            return [Response(f"{side} places a sniper", side, resolve=partial(self.place_sniper, ctx, side),
                             key=("sniper", state.turn, state.counter, side), data={"sniper": side})]

        return offers

    def place_sniper(self, ctx: Context, side: str) -> Procedure:
        """SMC 2.1–2.2: put a sniper on a place of a hex with no enemy units; it may fire at once
        at one exposed enemy unit in its LOS (A57: 可立[即] = immediately)."""
        state = ctx.state
        # (Placed at the map's first hex until its place is chosen: the first of map_places.)
        unit = Unit(state.new_id(f"{side}-sniper"), side, "sniper", sniper.map_places(state)[0][0])
        places = sniper.placements(state, side, unit)
        # Two questions (the map column, then the place in it) keep each one short: a whole map
        # of places would not fit a program's action space.
        columns = sorted({hex_label(p[0])[:2] for p in places})
        column = yield from ctx.ask(Choose.of(side, "Place the sniper in which map column?", columns,
                                              rule="SMC 2.1", kind=kinds.SNIPER_COLUMN, context={"side": side},
                                              data=lambda c: {"column": c}, lazy=True))
        place = yield from ctx.ask(Choose.of(side, "Place the sniper where?",
                                             [p for p in places if hex_label(p[0])[:2] == column], rule="SMC 2.1",
                                             kind=kinds.SNIPER_PLACE, label=where, lazy_labels=True,
                                             context={"side": side, "column": column}, data=place_data, lazy=True))
        unit.hex, unit.level = place
        state.units[unit.id] = unit
        state.snipers[side] -= 1
        ctx.event("sniper", f"{side} places the sniper {unit.id} at {where(place)}", unit=unit.id, side=side,
                  hex=hex_label(place[0]), level=place[1])
        yield from self.snipe(ctx, unit, optional=True)

    def snipe(self, ctx: Context, unit: Unit, *, optional: bool = False) -> Procedure:
        """SMC 2.2–2.3: 2D6 against one exposed enemy unit (D8), the exact odds beside each
        target; the sniper gets a fire marker (FPR 7)."""
        state = ctx.state
        lines = {u.id: line for u, line in sniper.target_lines(state, unit)}
        options: list[str | None] = [*lines]
        if optional:
            options = [None, *options]
        if not lines:
            return
        # Lazy labels (the odds are made only for a label read): what they read is bound now.
        victims_at = {uid: state.units[uid].place for uid in lines}
        # Each target's shot (its DRM and damage-check view) made once, when its label is read
        # or it is chosen, while the decision is pending or at once after the answer, the state
        # as it was asked (every target's shot made with the menu was ~35,000 instructions a
        # target, ~8 a menu, for labels a random bot never reads).
        table = state.sniper_table
        shots: dict[str, sniper.SniperShot] = {}

        def shot(uid: str) -> sniper.SniperShot:
            made = shots.get(uid)
            if made is None:
                made = shots[uid] = sniper.shot_along(state, unit, state.units[uid], lines[uid], table.casualty,
                                                      table.shaken)
            return made

        def label(uid: str | None) -> str:
            if uid is None:
                return "hold fire"
            dist = sniper.snipe_odds(shot(uid))
            bad = ", ".join(f"{r} {float(p):.0%}" for r, p in dist.items() if r != fire.NO_EFFECT and p)
            return f"{uid} at {where(victims_at[uid])}: {bad or 'no effect'}"

        target = yield from ctx.ask(Choose.of(unit.side, f"{unit.id} fires at?", options, rule="SMC 2.3",
                                              kind=kinds.SNIPER_TARGET, label=label, context={"unit": unit.id},
                                              lazy_labels=True,
                                              data=lambda u: {"hold": True} if u is None else {"unit": u}, lazy=True))
        if target is None:
            return
        victim = state.units[target]
        result = sniper.snipe(ctx.dice, shot(target))
        unit.markers.add("fire")
        ctx.event("snipe", f"{unit.id} fires at {victim.id}: {result}", unit=unit.id, target=victim.id, result=result)
        rules.apply_damage(ctx, victim, result)

    def withdraw(self, ctx: Context, units: list[Unit]) -> Procedure:
        """MOV 7: each unit takes a morale check (A4: −2 in favourable terrain); those that pass
        leave the melee hex for an adjacent hex without enemies; the melee marker goes when one
        side is gone, and the withdrawal may then be opportunity fired (MOV 7.2)."""
        state = ctx.state
        side = units[0].side
        place = units[0].place
        options = [h for h in state.map.neighbours(place[0])
                   if not state.in_hex(h, other(side)) and stacking_ok(state.at((h, 0), side) + units)]
        for u in units:
            u.markers.add("move")
        if not options:
            ctx.event("withdraw", "No hex to withdraw to", units=[u.id for u in units])
            return
        dest = yield from ctx.ask(Choose.of(side, "Withdraw to?", options, rule=WITHDRAW, kind=kinds.WITHDRAW_HEX,
                                            label=hex_label, lazy_labels=True, context={"units": [u.id for u in units]},
                                            data=lambda h: {"hex": hex_label(h)}, lazy=True))
        gone = []
        for u in units:
            drm = 2 if rules.effects(state.terrain(u.hex)).favourable else 0
            if rules.rally_roll(ctx.dice, u.morale, drm):
                u.hex, u.level = dest, 0
                gone.append(u)
        ctx.event("withdraw", f"{len(gone)} of {len(units)} withdraw to {hex_label(dest)}",
                  units=[u.id for u in gone], hex=hex_label(dest))
        for u in gone:
            if u.spec.arrow:
                yield from self.team_facing(ctx, u)  # MOV 8: it entered a new hex
        if not state.at(place, side):
            state.melee.discard(place)
            if gone and ctx.options["opportunity_fire"]:
                yield from self._opportunity_window(ctx, side, gone, (dest, 0), side, "withdraws to")

    # -- FIR / FPR --------------------------------------------------------------------------------
    def fire_action(self, ctx: Context, groups: list[list[Unit]]) -> Procedure:
        """OPS 3.2, FIR 1, FPR: all activated units fire at one target, one attack per hex."""
        state = ctx.state
        units = [u for g in groups for u in g]
        side = units[0].side
        with steady_map(state.map):  # the map's memos looked up once for every line asked
            places = rules.targets_for(state, units, groups)
        target = yield from ctx.ask(Choose.of(
            side, "Fire at?", places, rule=FIRE, kind=kinds.FIRE_TARGET, lazy_labels=True,
            label=partial(_fire_label, state, groups), context={"units": [u.id for u in units]},
            data=place_data, lazy=True))
        for group in groups:
            alive = [u for u in group if u.alive]
            if alive and state.at(target, other(side)) and fire.plan_fire(state, alive, target) is not None:
                rules.fire_at(ctx, alive, target)
            for u in group:
                u.markers.add("fire")

    # -- VMV / VEH / HWF / IVV --------------------------------------------------------------------
    def vehicle_move(self, ctx: Context, v: Unit, escort: Sequence[Unit] = ()) -> Procedure:
        """VMV 1–3: forward into the hex in front, turning 1 MP a hexside (A51), reversing at
        double cost, never into a hex with an enemy vehicle (VMV 1.3); half MP when shaken
        (VEH 3) or assault moving (VMV 2.2); entering an infantry hex is an overrun (VMV 3), with
        4 MP to spare, never in an assault (VMV 2.3), ignoring opportunity fire (VMV 3.1).

        VMV 1.4 (U14 reading): infantry activated with the vehicle in its hex (``escort``) moves
        with it, hex by hex, into the same hexes: a normal move, each paying its own MP (the
        infantry MOV 1 costs from its own allowance, no minimum move), never into an enemy hex;
        opportunity fire at a hex they enter may hit any of them, and an escort made shaken stops
        there (MOV 2.3) while the rest go on."""
        state = ctx.state
        side = v.side
        escort = list(escort)
        moved_with: list[Unit] = []
        modes = ["normal"] if v.shaken or escort else ["normal", "assault"]
        mode = yield from ctx.ask(Choose.of(side, f"How does {v.id} move?", modes, rule="VMV", kind=kinds.MOVE_MODE,
                                            context={"units": [v.id, *(u.id for u in escort)]},
                                            data=lambda m: {"mode": m}, lazy=True))
        total = vehicles.mp_of(v)
        if mode == "assault":
            total = -(-total // 2)
        spent = 0
        foot_total, foot_spent = (movement.allowance(escort, "normal"), 0) if escort else (0, 0)
        marker = "move" if mode == "normal" else "assault"
        v.markers.add(marker)
        for u in escort:
            u.markers.add("move")
        while v.alive and v.good_order:
            options: list[tuple[str, int, int]] = []
            left = total - spent
            for step, direction, mult in (("forward", v.facing, 1), ("reverse", (v.facing + 3) % 6, 2)):
                h = v.hex.neighbour(direction)
                if h not in state.map:
                    continue
                cost = vehicles.vehicle_step_cost(state, v.hex, h, v) * mult
                enemies = state.at((h, 0), other(side))
                if any(e.vehicle for e in enemies) or cost == float("inf"):
                    continue
                friends = [u for u in state.at((h, 0), side) if u is not v and u not in escort]
                if not stacking_ok([*friends, v, *escort], state.wrecks.get(h, 0)):
                    continue
                if escort and (enemies or foot_spent + movement.step_cost(state, v.hex, h, escort) > foot_total):
                    continue  # VMV 1.4: the infantry must enter the same hex, with its own MP
                need = cost + (4 if enemies else 0)
                if enemies and (mode == "assault" or step == "reverse"):
                    continue
                if need <= left:
                    options.append((step, direction, int(need)))
            if left >= 1:
                options += [("left", (v.facing + 5) % 6, 1), ("right", (v.facing + 1) % 6, 1)]
            step = yield from ctx.ask(Choose.of(
                side, f"{v.id} at {hex_label(v.hex)} facing {v.facing} ({left} MP left)?", [None, *options],
                rule="VMV 1", kind=kinds.VEHICLE_STEP,
                label=lambda o: "stop" if o is None else f"{o[0]} ({o[2]} MP)", lazy_labels=True,
                context={"unit": v.id, "mp_left": left, "facing": v.facing, "hex": hex_label(v.hex),
                         "escort": [u.id for u in escort]},
                data=lambda o: {"stop": True} if o is None else {"step": o[0], "direction": o[1], "cost": o[2]}, lazy=True))
            if step is None:
                break
            name, direction, cost = step
            spent += cost
            if name in ("left", "right"):
                v.facing = v.turret = direction
                ctx.event("turn-vehicle", f"{v.id} turns to face {direction}", unit=v.id, facing=direction)
                continue
            if escort:
                foot_spent += movement.step_cost(state, v.hex, v.hex.neighbour(direction), escort)
            v.hex = v.hex.neighbour(direction)
            for u in escort:
                u.hex, u.level = v.hex, 0
                if u not in moved_with:
                    moved_with.append(u)
            ctx.event("move", f"{', '.join([v.id, *(u.id for u in escort)])} "
                      f"{'reverses' if name == 'reverse' else 'moves'} to {hex_label(v.hex)}",
                      hex=hex_label(v.hex), level=0, units=[v.id, *(u.id for u in escort)], mode=mode)
            place = (v.hex, 0)
            if state.at(place, other(side)):
                self.overrun(ctx, v, place)
                yield from self.counter_attack(ctx, v, place)
                break
            if ctx.options["opportunity_fire"]:
                yield from self._opportunity_window(ctx, side, [v, *escort], place, v.id)
            escort = [u for u in escort if u.alive and u.good_order]  # MOV 2.3, A65
        for u in moved_with:
            if u.alive and u.spec.arrow:
                yield from self.team_facing(ctx, u)  # MOV 8: a team that moved with the vehicle
        if mode == "assault" and v.alive and v.good_order:  # VMV 2.2: fire after an assault move
            yield from self.vehicle_fire(ctx, v, assault=True, optional=True)

    def overrun(self, ctx: Context, v: Unit, place: Place) -> None:
        """VMV 3.3–3.4: gun FP + MG FP + 2 + the tank commander's leadership (U16) + 1D6 against
        1D6; the difference is a damage check for every defending unit (A54: as FPR 4)."""
        state = ctx.state
        spec = v.spec.vehicle
        assert spec is not None
        value = spec.he + sum(mg.fp for mg in spec.mgs) + 2 + spec.commander
        diff = vehicles.overrun(ctx.dice, value)
        defenders = [u for u in state.at(place, other(v.side)) if not u.vehicle]
        ctx.event("overrun", f"{v.id} overruns {where(place)}: difference {diff}", unit=v.id, hex=hex_label(place[0]),
                  difference=diff)
        if diff <= 0:
            return
        lead = fire.leadership_at(defenders)
        for u in defenders:
            res, hero = fire.damage_check(ctx.dice, diff, lead, fire.Target.of(state, u))
            rules.apply_damage(ctx, u, res)
            if hero:
                rules.create_hero(ctx, u.side, place)

    def _vehicle_shot_at(self, state: GameState, v: Unit, targets: list[Unit], place: Place) -> object | None:
        if v.hex.distance(place[0]) == 0 or visible(state, v.hex, place[0]) is None:
            return None
        if any(u.vehicle for u in targets):
            return vehicles.gun_shot(state, v, place[0])
        return vehicles.gun_shot(state, v, place[0]) or (vehicles.mg_fp(v, place[0]) or None)

    def vehicle_shoot(self, ctx: Context, v: Unit, place: Place, targets: Sequence[Unit] | None = None, *,
                      opportunity: bool = False, assault: bool = False) -> None:
        """VEH 5, HWF, HWI, HWV: the main gun and the MGs fire together at one target."""
        state = ctx.state
        v.markers.add("fire")
        enemy = other(v.side)
        victims = list(targets) if targets is not None else state.at(place, enemy)
        tanks = [u for u in victims if u.vehicle and u.alive]
        shot = vehicles.gun_shot(state, v, place[0], assault=assault)
        if tanks:
            target = tanks[0]
            if shot is not None:
                hit = vehicles.to_hit(ctx.dice, shot)
                ctx.event("gun", f"{v.id} fires at {target.id}: {'hit' if hit else 'miss'}", unit=v.id,
                          target=target.id, hit=hit)
                if hit:
                    rules.vehicle_lost(ctx, target, vehicles.penetrate(ctx.dice, vehicles.penetration_for(v, target)))
            mg = vehicles.mg_fp(v, place[0])
            if mg and target.alive and vehicles.unarmoured(target):
                rules.small_arms_on_vehicle(ctx, [v], target, mg - (2 if assault else 0), 0)
            return
        men = [u for u in victims if not u.vehicle and u.alive]
        if not men:
            return
        if shot is not None:
            hit = vehicles.to_hit(ctx.dice, shot)
            ctx.event("gun", f"{v.id} fires HE at {where(place)}: {'hit' if hit else 'miss'}", unit=v.id,
                      hex=hex_label(place[0]), hit=hit)
            if hit:
                attack = vehicles.he_attack(state, v, place, moving=opportunity)
                self._resolve_men(ctx, attack, men, place)
        mg = vehicles.mg_fp(v, place[0])
        # The MGs fire at the same hex (VEH 5): at whoever of the target stands there now.
        men = [u for u in state.at(place, enemy) if not u.vehicle] if targets is None else [u for u in men if u.alive]
        line = visible(state, v.hex, place[0])
        if mg and men and line is not None:
            attack = fire.Attack(mg - (2 if assault else 0), -line.hindering + (1 if opportunity else 0),
                                 fire.terrain_drm(state, v.hex, place, sniper=any(u.kind == "sniper" for u in men)),
                                 fire.leadership_at(men))
            ctx.event("mg", f"{v.id}'s MGs fire at {where(place)} (FP {attack.fp})", unit=v.id, fp=attack.fp)
            self._resolve_men(ctx, attack, men, place)

    def _resolve_men(self, ctx: Context, attack: fire.Attack, men: list[Unit], place: Place) -> None:
        state = ctx.state
        result = fire.resolve_fire(ctx.dice, attack, [fire.Target.of(state, u) for u in men])
        ctx.event("fire", f"attack {result.attack} against {result.defence}", attack=result.attack,
                  defence=result.defence, hex=hex_label(place[0]), level=place[1], firers=[], opportunity=False)
        for u, (res, hero) in zip(men, result.checks, strict=False):
            rules.apply_damage(ctx, u, res)
            if hero:
                rules.create_hero(ctx, u.side, place)

    def vehicle_fire(self, ctx: Context, v: Unit, *, assault: bool = False, optional: bool = False) -> Procedure:
        """VEH 5: choose one target — a hex of infantry or a vehicle — with the exact odds shown."""
        state = ctx.state
        places, tanks = vehicles.vehicle_targets(state, v)
        options: list[Any] = [*places, *tanks]
        if optional:
            options = [None, *options]
        if not options or options == [None]:
            return

        def label(o: Any) -> str:
            if o is None:
                return "hold fire"
            if isinstance(o, Unit):
                shot = vehicles.gun_shot(state, v, o.hex, assault=assault)
                dist = vehicles.gun_vs_vehicle_odds(shot, vehicles.penetration_for(v, o)) if shot else {}
                return f"{o.id}: " + ", ".join(f"{k} {float(p):.0%}" for k, p in dist.items() if k != "miss")
            return where(o)

        target = yield from ctx.ask(Choose.of(
            v.side, f"{v.id} fires at?", options, rule="VEH 5", kind=kinds.VEHICLE_TARGET, label=label,
            context={"unit": v.id, "assault": assault},
            data=lambda o: {"hold": True} if o is None else {"vehicle": o.id} if isinstance(o, Unit) else place_data(o)))
        if target is None:
            return
        if isinstance(target, Unit):
            self.vehicle_shoot(ctx, v, target.place, [target], assault=assault)
        else:
            self.vehicle_shoot(ctx, v, target, assault=assault)

    def anti_tank(self, ctx: Context, units: list[Unit]) -> Procedure:
        """IVV 1–5: each unit passes a morale check (−2 in favourable terrain) and then attacks
        alone: FP + leadership (one unit only) + AT weapon + 1D6 against lowest armour + 1D6."""
        state = ctx.state
        side = units[0].side
        targets = vehicles.adjacent_vehicles(state, units)
        v = yield from ctx.ask(Choose.of(side, "Attack which vehicle?", targets, rule="IVV", kind=kinds.AT_TARGET,
                                         label=lambda u: u.id, context={"units": [u.id for u in units]},
                                         data=lambda u: {"vehicle": u.id}, lazy=True))
        self.at_attacks(ctx, units, v)

    def at_attacks(self, ctx: Context, units: list[Unit], v: Unit) -> None:
        """IVV 2–5 against one vehicle: each unit's morale check (−2 in favourable terrain), then
        its attack alone, the leadership going to the first attacker only (IVV 3)."""
        state = ctx.state
        spec = v.spec.vehicle
        assert spec is not None
        lead = fire.leadership_at(units)
        for u in units:
            u.markers.add("ops")
            if not vehicles.can_at_melee(u) or not v.alive:
                continue
            drm = 2 if vehicles.terrain_favourable(state, u) else 0
            if not rules.rally_roll(ctx.dice, u.morale, drm):  # IVV 2
                ctx.event("at-morale", f"{u.id} does not dare", unit=u.id)
                continue
            value = vehicles.at_value(u, lead)
            lead = 0  # IVV 3: leadership helps one unit only
            killed = vehicles.at_melee(ctx.dice, value, spec.lowest_armour())
            ctx.event("anti-tank", f"{u.id} attacks {v.id}: {'destroyed' if killed else 'no effect'}", unit=u.id,
                      vehicle=v.id, destroyed=killed)
            if killed:
                rules.vehicle_lost(ctx, v, vehicles.DESTROYED, melee_kill=True)

    def counter_attack(self, ctx: Context, v: Unit, place: Place) -> Procedure:
        """VMV 3.5: infantry surviving an overrun may melee the vehicle at once — its owner
        chooses to attack or hold; every Good Order melee-capable unit in the hex then attacks as
        in IVV 2–5 (morale check first, one at a time, leadership to one unit), ending with an
        ops-complete marker (U18)."""
        state = ctx.state
        enemy = other(v.side)
        able = [u for u in state.at(place, enemy) if vehicles.can_at_melee(u)]
        if not able or not v.alive:
            return
        attack = yield from ctx.ask(Choose.of(
            enemy, f"{v.id} has overrun {where(place)}: counter-attack it?", [False, True], rule="VMV 3.5",
            kind=kinds.COUNTER_ATTACK, label=lambda a: "counter-attack" if a else "hold",
            context={"vehicle": v.id, "units": [u.id for u in able], **place_data(place)},
            data=lambda a: {"attack": a}, lazy=True))
        if attack:
            ctx.event("counter-attack", f"{', '.join(u.id for u in able)} counter-attack {v.id}", vehicle=v.id,
                      units=[u.id for u in able])
            self.at_attacks(ctx, able, v)

    # -- SMK / SPT --------------------------------------------------------------------------------
    def smoke_action(self, ctx: Context, units: list[Unit]) -> Procedure:
        """SMK 1: smoke in the units' own hex or an adjacent one."""
        state = ctx.state
        here = units[0].hex
        options = [here, *state.map.neighbours(here)]
        h = yield from ctx.ask(Choose.of(units[0].side, "Smoke where?", options, rule=SMOKE, kind=kinds.SMOKE_HEX,
                                         label=hex_label, lazy_labels=True, context={"units": [u.id for u in units]},
                                         data=lambda x: {"hex": hex_label(x)}, lazy=True))
        rules.place_smoke(ctx, units, h)

    def spot_targets(self, state: GameState, units: list[Unit]) -> list[Place]:
        """SPT 7: places in LOS holding enemies that are not exposed, for units without markers."""
        with steady_map(state.map):  # the map's memos looked up once for every line asked
            return list(self._spot_targets(state, units))

    def _spot_targets(self, state: GameState, units: list[Unit], enemies: list[tuple[Place, list[Unit]]] | None = None,
                      exposure: dict[str, bool] | None = None) -> Iterator[Place]:
        # A generator: the action menu only asks whether there is one (with the enemy by place
        # and their exposure it read for the fire test).
        if any(u.markers for u in units):
            return
        if enemies is None:
            enemies = rules.enemies_by_place(state, other(units[0].side))
        origin = units[0].hex
        for p, there in enemies:
            # An exposed place first (open ground, spotted, melee: every unit there exposed, so
            # no spot target; two in three places of random games' menus, each a line saved),
            # then the LOS (memoized), where exposure reads every unit. (rules.spot_drm is None
            # exactly when there is no LOS; its DRM is not needed to know there is a target.)
            if not place_exposed(state, p) and visible(state, origin, p[0]) is not None \
                    and any(not rules.exposed_memo(state, u, exposure) for u in there):
                yield p

    def spot_action(self, ctx: Context, units: list[Unit]) -> Procedure:
        """SPT 7: one spotting check against one place."""
        state = ctx.state
        places = self.spot_targets(state, units)
        target = yield from ctx.ask(Choose.of(units[0].side, "Spot which hex?", places, rule=SPOT,
                                              kind=kinds.SPOT_TARGET, label=where, lazy_labels=True,
                                              context={"units": [u.id for u in units]}, data=place_data, lazy=True))
        rules.spot(ctx, units, target)

    # -- ADM --------------------------------------------------------------------------------------
    def administration_phase(self, ctx: Context) -> Procedure:
        """ADM 1–4."""
        rules.administration(ctx)
        return
        yield

    # -- information ------------------------------------------------------------------------------
    def view(self, state: GameState, side: str | None) -> GameState:
        """Open information: both players see the whole map (the source has no hidden units).

        Cheap and detached (built once per decision a bot reads): the state and its units are
        copied field by field with their sets, dicts and lists, weapons (carried or loose) too;
        hexes and places are immutable values, shared; the map, which never changes after set-up
        (SET 2), is one read-only copy per game.
        """
        seen = _copy_state(state)
        seen.map = _public_map(state.map)
        seen.units = {i: _copy_unit(u) for i, u in state.units.items()}
        seen.objectives, seen.control = list(state.objectives), dict(state.control)
        seen.loose = {p: [_copy_weapon(w) for w in pile] for p, pile in state.loose.items()}
        return seen

    def shared_view(self, state: GameState, side: str | None) -> GameState:
        """For a bot that promised only to read it: a frame of the live state (open information,
        nothing hidden; its units and markers shared, no copy) carrying the read-only copy of
        the map :meth:`view` hands out, as the live map's layers are writable (no rule changes
        them in play, but set-up and tests do) and a write there would change the game."""
        # Hot (a promising bot reads one per decision): one shallow copy; the map copy is per game.
        seen = _copy_state(state)
        seen.map = _public_map(state.map)
        return seen

    def check_invariants(self, state: GameState) -> None:
        for side in SIDES:
            for place in {u.place for u in state.alive(side)}:
                assert stacking_ok(state.at(place, side), state.wrecks.get(place[0], 0)), \
                    f"SET 3: {side} overstacks {where(place)}"
                assert 0 <= place[1] < state.levels(place[0]), f"SET 4: no level {place[1]} at {where(place)}"
            assert sum(1 for u in state.alive(side) if u.kind == "hero") <= 2, "HER 3: more than two heroes"
        for u in state.alive():
            assert u.hex in state.map, f"{u.id} left the map"
            assert len(u.weapons) <= rules.carry_limit(u) or u.kind == "squad", f"SW 1: {u.id} carries too much"
            assert not (u.wounded and not u.spec.single_man), f"FPR 5: only single-man counters are wounded ({u.id})"

    def summary(self, state: GameState) -> str:
        from wargamekit_lnl.picture import summary

        return summary(state)

    def render_svg(self, state: GameState, side: str | None = None) -> str:
        from wargamekit_lnl.picture import picture

        return picture(self.view(state, side))

    def bots(self) -> Mapping[str, Callable[[int], Player]]:
        from wargamekit_lnl.bots import OddsBot

        return {"bot": OddsBot, "odds": OddsBot}

    def odds_command(self) -> Any:
        from wargamekit_lnl.odds_cli import odds_command

        return odds_command


__all__ = ["LnL", "Hex"]
