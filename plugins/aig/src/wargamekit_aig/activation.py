"""§3.1 / §5 The leader action phase: activation lowest initiative first (the core's
:class:`~wargamekit.sequencing.LeaderActivation`), the command phases of one activation, momentum
(§5.3) and seizes (§5.4) as response windows on the interrupt stack.

* The active side's queue-jump (§5.4.1) is a response in the window opened when a leader is due.
* When it succeeds, the passive side's seize of that seize (§5.4.2.2) is a response in a window
  opened inside its resolution — the stack's own nesting; nobody may answer that one (§5.4.2.2).
* A successful momentum roll opens a window for the passive side's seize (§5.4.2.1).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from functools import partial
from typing import Any

import attrs

from wargamekit import Choose, Data, Response
from wargamekit.interrupts import LazyOffers
from wargamekit.sequencing import LeaderActivation, Turn, TurnResult, play_turns
from wargamekit_aig import kinds, odds_calc
from wargamekit_aig.command import in_melee
from wargamekit_aig.kinds import Context, Procedure, Restartable
from wargamekit_aig.orders import Phase, command_phase, pct
from wargamekit_aig.state import GameState, Leader

#: §5.1.2: at most three command phases per leader per turn.
MAX_PHASES = 3


def activation_sequence(state: GameState, sides: tuple[str, ...]) -> LeaderActivation:
    """§5.1: every non-junior leader in play (juniors never enter the queue, §4.3.3)."""
    return LeaderActivation({ld.name: (ld.side, ld.initiative) for ld in state.live_leaders() if not ld.junior},
                            sides)


def sync(state: GameState, seq: LeaderActivation) -> None:
    """Keep the sequencer in step with the state: fallen leaders are finished (removed at the
    turn's end), leaders promoted in the field join finished for this turn (§4.4.3), and
    finished leaders lose their skip status (§5.4.4)."""
    for ld in state.leaders.values():
        if ld.name not in seq.leaders and ld.alive and not ld.junior:
            seq.add(ld.name, ld.side, ld.initiative, finished=True)
        if ld.name in seq.leaders and ld.name not in seq.activated and (not ld.alive or ld.finished):
            seq.finish(ld.name)
        if ld.name in seq.activated:
            ld.finished = True
            ld.skip = False


def finish(ctx: Context, seq: LeaderActivation, leader: Leader, why: str) -> None:
    """§5.1.3: flip the leader to his finished side."""
    if not leader.finished:
        leader.finished = True
        leader.skip = False
        ctx.event("finished", f"{leader.name} is finished ({why})", leader=leader.name, reason=why)
    if leader.name in seq.leaders and leader.name not in seq.activated:
        seq.finish(leader.name)


def can_seize(state: GameState, leader: Leader) -> bool:
    """§5.4: an inactive, non-skipped, non-junior leader of a side not in command chaos."""
    return (leader.alive and not leader.finished and not leader.skip and not leader.junior
            and leader.side not in state.chaos)


def _seizers(state: GameState, side: str) -> list[Leader]:
    """§5.4.2: the leaders of ``side`` who may seize (:func:`can_seize`)."""
    return [ld for ld in state.live_leaders(side) if can_seize(state, ld)]


def _queue_jumpers(state: GameState, side: str, due: Leader) -> list[Leader]:
    """§5.4.1, §3.1 / Q19 reading: the leaders of ``side`` who may jump ``due``'s place in the
    queue: a leader of *higher* initiative who may seize."""
    return [ld for ld in state.live_leaders(side)
            if ld is not due and ld.initiative > due.initiative and can_seize(state, ld)]


def _window_needed(ctx: Context, seizers: list[Leader]) -> bool:
    """Whether a seize window opened now could offer anything: a leader who may seize, an
    empty stack (the offers are empty at depth > 0) and responses switched on. A window that
    offers nothing asks nothing and logs nothing: it need not be opened."""
    return bool(seizers) and not ctx.interrupts.items and ctx.interrupts.enabled


def give_skip(ctx: Context, seizer: Leader) -> None:
    """§5.4.4: on every seize attempt, every inactive leader of both sides with initiative ≤ the
    seizer's gets skip status (Q16 reading: the seizer too, being inactive when he tries; a leader
    already in his activation is not "inactive", §2.4)."""
    for ld in ctx.state.live_leaders():
        if ld.phases == 0 and ld.initiative <= seizer.initiative and not ld.finished and not ld.junior:
            ld.skip = True


@attrs.define
class Activation:
    """Who acts in this activation, as the seize windows settle it."""

    acting: Leader
    seized: bool = False


class LeaderAction:
    """One game turn's leader action phase: the sequencer and the procedures of its turns."""

    def __init__(self, ctx: Context, seq: LeaderActivation, *, checkpoints: bool = False) -> None:
        self.ctx = ctx
        self.seq = seq
        #: restart points before each command phase (the game's turn loop; a procedure driven
        #: alone, as the tests do, has none)
        self.checkpoints = checkpoints

    @property
    def state(self) -> GameState:
        """The game state. (Its own methods read ``self.ctx.state``: a property read is a Python
        call, and they run at every activation and command phase.)"""
        return self.ctx.state

    def run(self, end_if: Callable[[], bool]) -> Procedure:
        """§5.1.1: activations until every leader is finished."""
        underway = self.ctx.state.underway
        if underway is not None:  # a restart at a command phase: finish that activation first
            result = yield from self.activation(underway)
            self.seq.end_turn(underway.turn, result)
            if result.end or end_if():
                return
        yield from play_turns(self.seq, self.ctx.dice, self.take_turn, end_if=end_if)

    # -- one activation ------------------------------------------------------------------------
    def take_turn(self, turn: Turn[Any]) -> Procedure:
        """§3.1 a due leader of the turn's side; the queue-jump window; the activation."""
        ctx = self.ctx
        state = ctx.state
        side = turn.actor
        state.phase = f"leader action: {turn.label}"
        if len(turn.candidates) == 1:
            # Hot (most turns, every turn of a random game): a lone candidate is due; ctx.ask
            # would answer his one-option menu without asking or recording anything, so the
            # menu is not made.
            due_name: Any = turn.candidates[0]  # (a leader's name: the sequencer keeps them as Hashable)
        else:
            due_name = yield from ctx.ask(Choose.of(
                side, "Which of your tied leaders activates?", sorted(turn.candidates, key=str),
                rule="3.1 leader activation", lazy=True, kind=kinds.ACTIVATE,
                context=Data(value=turn.number, turn=state.turn),  # as the core would freeze it
                data=lambda n: {"leader": n}))
        due = state.leaders[due_name]
        act = Activation(due)
        # §5.4.1 the active side may try to seize its own due leader's activation. Hot (every
        # activation): no window when no leader may jump the queue (an empty window asks
        # nothing and logs nothing).
        if _window_needed(ctx, _queue_jumpers(state, side, due)):
            yield from ctx.interrupts.window(f"{due.name} is due", [side], self._queue_jump(due, act),
                                             rule="5.4.1 seize", kind=kinds.SEIZE)
        if self.checkpoints:
            return (yield from self.activation(Underway(turn, due.name, act.acting.name,
                                                        PhaseRun(act.acting, act.seized))))
        end = yield from self.activate(act.acting, seized=act.seized)
        sync(state, self.seq)
        return TurnResult(actor=act.acting.name if act.acting.name in self.seq.leaders else due.name, end=end)

    def activation(self, underway: Underway) -> Procedure:
        """The rest of :meth:`take_turn` with the activation kept in the state (``state.underway``)
        and a restart point before each command phase: what a restart there goes on with."""
        state = self.ctx.state
        state.underway = underway
        end = yield from self.activate(state.leaders[underway.acting], seized=underway.run.seized, run=underway.run)
        state.underway = None
        sync(state, self.seq)
        acting = underway.acting
        return TurnResult(actor=acting if acting in self.seq.leaders else underway.due, end=end)

    def _queue_jump(self, due: Leader, act: Activation) -> Callable[[str, Any], Sequence[Response]]:
        state = self.ctx.state

        def offers(side: str, point: Any) -> Sequence[Response]:
            if point.depth:
                return []
            seizers = _queue_jumpers(state, side, due)
            if not seizers:
                return []
            # Hot (a window at every activation): each response, its name with the odds, made
            # only when its option is read (a random bot reads one, or none).
            key = ("queue-jump", state.turn, due.name)

            def make(i: int) -> Response:
                ld = seizers[i]
                return Response(f"{ld.name} tries to seize {due.name}'s activation "
                                f"({pct(odds_calc.seize_odds(ld.initiative))})", side,
                                resolve=partial(self._active_seize, ld, due, act), key=key,
                                data={"seizer": ld.name, "due": due.name, "initiative": ld.initiative,
                                      "chance": float(odds_calc.seize_odds(ld.initiative))})

            return LazyOffers([key] * len(seizers), make)

        return offers

    def _active_seize(self, seizer: Leader, due: Leader, act: Activation) -> Procedure:
        """§5.4.1: d10 ≤ the seizer's initiative; success → the passive side may seize the seize
        (§5.4.2.2); failure → the seizer is finished and the due leader acts."""
        ctx = self.ctx
        give_skip(ctx, seizer)
        roll = ctx.dice.d10(f"§5.4.1 seize by {seizer.name}")
        if roll > seizer.initiative:
            ctx.event("seize-failed", f"{seizer.name} fails to seize (rolled {roll})", leader=seizer.name, roll=roll)
            finish(ctx, self.seq, seizer, "failed seize, §5.1.3.b")
            return
        ctx.event("seize", f"{seizer.name} seizes {due.name}'s activation (rolled {roll})", leader=seizer.name,
                  roll=roll)
        act.acting, act.seized = seizer, True
        passive = ctx.other_side(seizer.side)
        if not _window_needed(ctx, _seizers(ctx.state, passive)):
            return  # no window when nobody may seize (as at the queue-jump)
        yield from ctx.interrupts.window(f"{seizer.name} seized", [passive], self._passive(seizer, act),
                                         rule="5.4.2.2 seizing a seize", kind=kinds.SEIZE)

    def _passive(self, target: Leader, act: Activation) -> Callable[[str, Any], Sequence[Response]]:
        """§5.4.2: the passive side's seize of ``target`` (a momentum or an active seize)."""
        state = self.ctx.state

        def offers(side: str, point: Any) -> Sequence[Response]:
            if point.depth or side == target.side:
                return []
            seizers = _seizers(state, side)
            if not seizers:
                return []
            key = ("passive", state.turn, target.name, target.phases)  # as when offered (a lazy offer)

            def make(i: int) -> Response:
                ld = seizers[i]
                return Response(f"{ld.name} tries to seize from {target.name} "
                                f"({pct(odds_calc.seize_odds(ld.initiative))})", side,
                                resolve=partial(self._passive_seize, ld, target, act), key=key,
                                data={"seizer": ld.name, "from": target.name, "initiative": ld.initiative,
                                      "chance": float(odds_calc.seize_odds(ld.initiative))})

            return LazyOffers([key] * len(seizers), make)

        return offers

    def _passive_seize(self, seizer: Leader, target: Leader, act: Activation) -> Procedure:
        """§5.4.2.1 / §5.4.2.2: success finishes ``target`` and the seizer acts; failure finishes
        the seizer and ``target`` goes on."""
        ctx = self.ctx
        give_skip(ctx, seizer)
        roll = ctx.dice.d10(f"§5.4.2 seize by {seizer.name}")
        if roll > seizer.initiative:
            ctx.event("seize-failed", f"{seizer.name} fails to seize (rolled {roll})", leader=seizer.name, roll=roll)
            finish(ctx, self.seq, seizer, "failed seize, §5.1.3.b")
            return
        ctx.event("seize", f"{seizer.name} seizes from {target.name} (rolled {roll})", leader=seizer.name, roll=roll)
        finish(ctx, self.seq, target, "seized by the enemy, §5.1.3.c")
        act.acting, act.seized = seizer, True
        yield from ()

    # -- the command phases of one activation --------------------------------------------------
    def activate(self, leader: Leader, *, seized: bool, run: PhaseRun | None = None) -> Generator[Any, Any, Any]:
        """§3.2–§3.3: command phases while momentum holds (at most three, §5.1.2); returns whether
        the turn goes straight to the rally phase (§5.3.3: a 9 after a 9). ``run``: the phases
        kept in the state (with a restart point before each), from :meth:`activation`."""
        ctx = self.ctx
        state = ctx.state
        state.active = leader.name
        if run is None:
            phases = PhaseRun(leader, seized)
            results = yield from play_turns(phases, ctx.dice, lambda _turn: self.one_phase(phases))
        else:
            phases, results = run, []
            # play_turns with a restart point before each command phase, where the interrupt
            # stack is empty and the PhaseRun (in state.underway) has no turn pending, and
            # others between its individual orders (orders.individual_orders): a restart there
            # finds the phase in the PhaseRun and goes straight on with it
            while True:
                if phases.phase is None:
                    yield ctx.checkpoint(f"turn {state.turn} {phases.current.name} command phase {phases.current.phases + 1}")
                    if not phases.take_phase():  # (not next_turn: its Turn would go unread)
                        break
                result = yield from self.one_phase(phases)
                phases.end_turn(None, result)
                results.append(result)
                if result.end:
                    break
        state.active = None
        if not phases.current.finished and phases.current.alive:
            finish(ctx, self.seq, phases.current, "activation complete, §5.1.3.a")
        elif not phases.current.alive:
            finish(ctx, self.seq, phases.current, "fallen")
        return any(r.end for r in results)

    def one_phase(self, run: PhaseRun) -> Restartable:
        """A command phase, then the momentum phase (§3.3) and any passive seize of it (§5.4.2.1)."""
        ctx = self.ctx
        state = ctx.state
        leader = run.current
        phase = yield from command_phase(ctx, leader, seized=run.seized, run=run)
        if phase.failed:
            finish(ctx, self.seq, leader, "failed order check, §5.1.3.e–f")
            return TurnResult(passed=True)
        sync(state, self.seq)
        # §5.1.3.d / Q15 reading: a leader who stood by makes no momentum attempt.
        if (phase.mode == "stand by" or not leader.alive or leader.skip or leader.phases >= MAX_PHASES or in_melee(state, leader)
                or leader.side in state.chaos):
            return TurnResult(passed=True)
        chances = odds_calc.momentum_odds(leader.initiative)
        go = yield from ctx.ask(Choose.of(
            leader.side, f"{leader.name}: try momentum (success {pct(chances.get('success', 0))})?", [True, False],
            rule="5.3 momentum", label=lambda b: "try momentum" if b else "finish",
            kind=kinds.MOMENTUM, context={"leader": leader.name, "initiative": leader.initiative,
                                          "phases": leader.phases, "success": float(chances.get("success", 0))},
            data=lambda b: {"momentum": b}))
        if not go:
            return TurnResult(passed=True)
        result = odds_calc.momentum(ctx.dice, leader.initiative)
        ctx.event("momentum", f"{leader.name} tries momentum: {result}", leader=leader.name, result=result)
        if result == "failure":
            finish(ctx, self.seq, leader, "failed momentum, §5.1.3.b")
            return TurnResult(passed=True)
        if result == "chaos":
            finish(ctx, self.seq, leader, "failed momentum, §5.3.3")
            state.chaos.append(leader.side)
            for ld in state.live_leaders(leader.side):
                if not ld.junior:
                    finish(ctx, self.seq, ld, "army-wide command chaos, §5.3.3")
            return TurnResult(passed=True)
        if result == "turn ends":
            finish(ctx, self.seq, leader, "failed momentum, §5.3.3")
            ctx.event("turn-ends", "A 9 after a 9: the turn goes straight to the rally phase (§5.3.3)")
            return TurnResult(end=True)
        # §5.4.2.1 the passive side may seize a successful momentum.
        act = Activation(leader)
        passive = ctx.other_side(leader.side)
        if _window_needed(ctx, _seizers(state, passive)):  # (as at the queue-jump)
            yield from ctx.interrupts.window(f"{leader.name}'s momentum succeeded", [passive],
                                             self._passive(leader, act), rule="5.4.2.1 seizing momentum",
                                             kind=kinds.SEIZE)
        if act.acting is not leader:
            run.current, run.seized = act.acting, True
        return TurnResult()


@attrs.define
class Underway:
    """An activation under way (``state.underway``), for a restart at one of its command phases:
    the sequencer's turn it answers, the leader due and the one acting (they differ after a seize
    of the queue, §5.4.1), and its command phases."""

    turn: Turn[Any]
    due: str
    acting: str
    run: PhaseRun


@attrs.define
class PhaseRun:
    """The command phases of one activation as a sequence (§5.1.2): a new phase while the last
    one ended in a successful momentum (or a successful seize of it, which hands the next phase
    to the seizer), never more than three for one leader."""

    current: Leader
    seized: bool = False
    _more: bool = True
    #: The command phase whose individual orders are under way (orders.command_phase sets it),
    #: for a restart between two of them; ``None`` between phases.
    phase: Phase | None = None

    def take_phase(self) -> bool:
        """Whether another command phase follows; if so, it is taken (the next asks again only
        after :meth:`end_turn` reports a successful momentum)."""
        if not self._more or not self.current.alive or self.current.finished:
            return False
        self._more = False
        return True

    def next_turn(self, dice: Any = None) -> Turn[str] | None:
        if not self.take_phase():
            return None
        return Turn(actors=(self.current.side,), label=f"{self.current.name} command phase",
                    number=self.current.phases + 1, phase="command")

    def end_turn(self, turn: Turn[Any] | None, result: TurnResult) -> None:
        self._more = not result.passed and not result.end
