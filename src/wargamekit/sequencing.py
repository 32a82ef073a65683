"""Turn sequencing: one protocol, turn order as data, one loop.

Every sequencer answers *who acts next?* through one uniform protocol (:class:`Sequencer`):

* ``next_turn(dice)`` → the next :class:`Turn`, or ``None`` when the sequence (a game, a round,
  a phase) is over. The dice are always passed, because some orders roll (AIG's tie roll-off);
* ``end_turn(turn, result)`` → what the turn did (a :class:`TurnResult`: whether the side passed,
  which actor acted, whether the sequence should end).

:func:`play_turns` is the one loop that drives a sequencer: a rule procedure writes
``yield from play_turns(sequencer, ctx.dice, take_turn)`` and never a ``while`` of its own.
Sequencers nest the way a rulebook's structure does: a phase's procedure runs another sequence.

The presets are declarative — plain data plus small callables, in the style of boardgame.io's
turn orders:

* :class:`PhaseCycle` — fixed phases (and steps) repeated each game turn;
* :class:`PlayerTurns` — first and second player, optionally alternating who goes first, with
  an optional last turn;
* :class:`AlternatingImpulses` — sides alternate impulses; the phase ends when nobody can act
  or after N consecutive passes counted over every side (Lock 'n Load's operations phase);
* :class:`InitiativeTrack` — highest value first, ties simultaneous, re-ordered as values
  change, never losing a turn (the MTTT combat round);
* :class:`LeaderActivation` — lowest value first, a tie roll, then alternation by side, with
  out-of-turn activations (seizes), whole sides finished (command chaos) and rounds cut short
  (AIG §3.1, §5).

>>> from wargamekit.dice import SeededDice
>>> def take(turn):
...     print(turn)
...     return TurnResult()
...     yield
>>> cycle = PhaseCycle({"maintenance": [], "combat": ["aimed", "leap"]}, last_turn=1)
>>> list(play_turns(cycle, SeededDice(0), take))
Turn(actors=(), label='turn 1 / maintenance', number=1, phase='maintenance', step=None, candidates=())
Turn(actors=(), label='turn 1 / combat / aimed', number=1, phase='combat', step='aimed', candidates=())
Turn(actors=(), label='turn 1 / combat / leap', number=1, phase='combat', step='leap', candidates=())
[]
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Generic, Literal, Protocol, TypeVar, runtime_checkable

from attrs import define, field, frozen

from ._convert import as_tuple
from ._fastbuild import builder
from .dice import Dice

__all__ = [
    "AlternatingImpulses",
    "InitiativeTrack",
    "LeaderActivation",
    "PhaseCycle",
    "PlayerTurns",
    "Sequencer",
    "Turn",
    "TurnResult",
    "by_phase",
    "play_turns",
]

A = TypeVar("A", bound=Hashable)


@frozen
class Turn(Generic[A]):
    """Who acts now, and where in the sequence this is.

    Attributes:
        actors: the side(s) or unit(s) acting; several when they act simultaneously; none for a
            phase that every side takes together.
        label: where in the sequence this is (``"turn 3 / combat"``, ``"tick 12"``), for logs.
        number: a running count (game turn, impulse number, tick value, leader value).
        phase: the phase, for sequencers that have phases.
        step: the step within the phase, if any.
        candidates: for sequencers where the acting side picks one of several (AIG's tied
            leaders): the ones it may pick from.
    """

    actors: tuple[A, ...]
    label: str = ""
    number: int = 0
    phase: str | None = None
    step: str | None = None
    candidates: tuple[Hashable, ...] = ()

    @property
    def actor(self) -> A:
        """The one actor of a turn that has exactly one.

        Raises:
            ValueError: the turn has no actor or several.
        """
        if len(self.actors) != 1:
            raise ValueError(f"{self.label or 'this turn'} has {len(self.actors)} actors, not one")
        return self.actors[0]


#: Hot: every turn's Turn, built as a _TurnBuilder by plain writes and turned into a Turn (see
#: _fastbuild): half the cost of its six slot setters' calls.
_TurnBuilder = builder(Turn)


def _turn(
    actors: tuple[A, ...],
    label: str,
    number: int,
    phase: str | None = None,
    step: str | None = None,
    candidates: tuple[Hashable, ...] = (),
) -> Turn[A]:
    """``Turn(actors, label, number, phase, step, candidates)`` by plain writes: what attrs'
    frozen ``__init__`` does, without its call per field (hot: one per turn, and LnL and AIG
    take hundreds a game)."""
    turn = object.__new__(_TurnBuilder)
    turn.actors = actors
    turn.label = label
    turn.number = number
    turn.phase = phase
    turn.step = step
    turn.candidates = candidates
    turn.__class__ = Turn
    return turn


@frozen
class TurnResult:
    """What a turn did, as its procedure reports it to the sequencer.

    Attributes:
        passed: the acting side passed (counts toward :class:`AlternatingImpulses`' limit).
        actor: which of the turn's candidates acted (a leader for :class:`LeaderActivation`).
        end: end the whole sequence after this turn (a game won, a turn cut short).
    """

    passed: bool = False
    actor: Hashable | None = None
    end: bool = False


@runtime_checkable
class Sequencer(Protocol[A]):
    """The turn-sequencer protocol: every sequencer, bundled or a ruleset's own, is this."""

    def next_turn(self, dice: Dice) -> Turn[A] | None:
        """Who acts next, or ``None`` when this sequence is over."""
        ...

    def end_turn(self, turn: Turn[Any], result: TurnResult) -> None:
        """Record what the turn returned by :meth:`next_turn` did."""
        ...


#: A turn's procedure: yields decisions, returns what the turn did (``None``: nothing special).
TurnProcedure = Callable[[Turn[A]], Generator[Any, Any, "TurnResult | None"]]


#: What a turn that returns ``None`` did (frozen, so one serves every such turn).
_NOTHING_SPECIAL = TurnResult()


def play_turns(
    sequencer: Sequencer[A],
    dice: Dice,
    take_turn: Callable[[Turn[A]], Generator[Any, Any, TurnResult | None]],
    *,
    end_if: Callable[[], bool] | None = None,
) -> Generator[Any, Any, list[TurnResult]]:
    """The one loop: ask ``sequencer`` for turns and run ``take_turn`` for each, until the
    sequence is over, a turn returns ``TurnResult(end=True)`` or ``end_if()`` is true after a turn.

    Use it with ``yield from`` inside a rule procedure. Returns the turns' results, in order.
    """
    results: list[TurnResult] = []
    while (turn := sequencer.next_turn(dice)) is not None:
        result = yield from take_turn(turn)
        if result is None:
            result = _NOTHING_SPECIAL
        sequencer.end_turn(turn, result)
        results.append(result)
        if result.end or (end_if is not None and end_if()):
            break
    return results


def by_phase(
    handlers: Mapping[str, Callable[[Turn[A]], Generator[Any, Any, TurnResult | None]]],
) -> Callable[[Turn[A]], Generator[Any, Any, TurnResult | None]]:
    """A ``take_turn`` that runs the handler named by the turn's ``"phase/step"`` (or, failing
    that, its ``"phase"``): the phases of a rulebook as a table of procedures.

    Raises:
        KeyError: (when a turn comes) no handler for its phase.
    """

    def take_turn(turn: Turn[A]) -> Generator[Any, Any, TurnResult | None]:
        keys = ([f"{turn.phase}/{turn.step}"] if turn.step is not None else []) + [str(turn.phase)]
        for key in keys:
            if key in handlers:
                return handlers[key](turn)
        raise KeyError(f"no procedure for phase {keys[0]!r}; there are {sorted(handlers)}")

    return take_turn


#: Writes a field of a sequencer as attrs' own ``__setattr__`` does for a field with no converter
#: or validator, without the Python call it makes for every write (the presets have one because
#: a field converts: ``sides``, ``values``, ``leaders``): a third of the alternation's own cost per
#: impulse. Hot writes only (once a turn or more).
_write = object.__setattr__


# ---------------------------------------------------------------------------------------------
def _phase_table(phases: Mapping[str, Sequence[str]] | Iterable[str]) -> dict[str, list[str]]:
    if isinstance(phases, Mapping):
        return {str(k): list(v) for k, v in phases.items()}
    return {str(k): [] for k in phases}


def _steps_or_none(steps: list[str]) -> list[str | None]:
    return list(steps) if steps else [None]


@define
class PhaseCycle:
    """Fixed phases, each with optional steps, repeated every game turn: one :class:`Turn` per
    step (or per phase without steps).

    Args:
        phases: phase names in order, or a mapping phase → its steps in order.
        last_turn: stop after this game turn (``None``: until ``end_if`` says so).
        end_if: called before each new game turn with its number; ``True`` ends the cycle.
        actors: ``actors(turn_number, phase)`` → who acts in that phase (default: nobody in
            particular, i.e. every side together).

    >>> cycle = PhaseCycle({"maintenance": [], "combat": ["aimed", "leap"]}, last_turn=2)
    >>> [t.label for t in cycle]  # doctest: +NORMALIZE_WHITESPACE
    ['turn 1 / maintenance', 'turn 1 / combat / aimed', 'turn 1 / combat / leap',
     'turn 2 / maintenance', 'turn 2 / combat / aimed', 'turn 2 / combat / leap']
    """

    phases: dict[str, list[str]] = field(converter=_phase_table)
    last_turn: int | None = None
    end_if: Callable[[int], bool] | None = field(default=None, eq=False)
    actors: Callable[[int, str], tuple[Hashable, ...]] | None = field(default=None, eq=False)
    turn: int = field(default=0, init=False)
    _queue: list[tuple[str, str | None]] = field(factory=list, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if not self.phases:
            # Iterating would count turns forever without yielding a step.
            raise ValueError("a PhaseCycle needs at least one phase")

    def next_turn(self, dice: Dice | None = None) -> Turn[Hashable] | None:
        if not self._queue:
            upcoming = self.turn + 1
            if self.last_turn is not None and upcoming > self.last_turn:
                return None
            if self.end_if is not None and self.end_if(upcoming):
                return None
            self.turn = upcoming
            self._queue = [
                (phase, step) for phase, steps in self.phases.items() for step in _steps_or_none(steps)
            ]
        phase, step = self._queue.pop(0)
        label = f"turn {self.turn} / {phase}" + (f" / {step}" if step else "")
        actors = tuple(self.actors(self.turn, phase)) if self.actors is not None else ()
        return _turn(actors, label, self.turn, phase, step)

    def end_turn(self, turn: Turn[Any], result: TurnResult) -> None:
        if result.end:
            self._queue.clear()

    def __iter__(self) -> Iterator[Turn[Hashable]]:
        """The turns with no dice and no results (for cycles whose phases never end early)."""
        while (turn := self.next_turn()) is not None:
            yield turn
            self.end_turn(turn, TurnResult())


# ---------------------------------------------------------------------------------------------
@define
class PlayerTurns(Generic[A]):
    """First and second player: each game turn, every side takes a player turn in order.

    Args:
        sides: the sides, first player first.
        alternate: if true, the first player changes every turn (the next side goes first).
        last_turn: stop after this game turn (``None``: go on until a turn ends the sequence).
        first: ``first(turn_number)`` → the side that goes first that turn, when the order is
            decided by play (the tank game's initiative); overrides ``alternate``.

    >>> turns = PlayerTurns(("north", "south"), alternate=True, last_turn=2)
    >>> [turns.order(n) for n in (1, 2, 3)]
    [('north', 'south'), ('south', 'north'), ('north', 'south')]
    >>> [t.label for t in iter(lambda: turns.next_turn(), None)]
    ['turn 1: north', 'turn 1: south', 'turn 2: south', 'turn 2: north']
    """

    sides: tuple[A, ...] = field(converter=as_tuple)
    alternate: bool = False
    last_turn: int | None = None
    first: Callable[[int], A] | None = field(default=None, eq=False)
    turn: int = field(default=0, init=False)
    _queue: list[A] = field(factory=list, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if not self.sides:
            raise ValueError("PlayerTurns needs at least one side")

    def order(self, turn: int) -> tuple[A, ...]:
        """The sides in acting order on game turn ``turn`` (1-based)."""
        if self.first is not None:
            lead = self.first(turn)
            if lead not in self.sides:
                raise ValueError(f"first({turn}) gave {lead!r}, not one of {self.sides}")
            shift = self.sides.index(lead)
        elif self.alternate:
            shift = (turn - 1) % len(self.sides)
        else:
            shift = 0
        return self.sides[shift:] + self.sides[:shift]

    def next_turn(self, dice: Dice | None = None) -> Turn[A] | None:
        if not self._queue:
            if self.last_turn is not None and self.turn >= self.last_turn:
                return None
            self.turn += 1
            self._queue = list(self.order(self.turn))
        side = self._queue.pop(0)
        return _turn((side,), f"turn {self.turn}: {side}", self.turn)

    def end_turn(self, turn: Turn[Any], result: TurnResult) -> None:
        if result.end:
            self._queue.clear()
            self.last_turn = self.turn


# ---------------------------------------------------------------------------------------------
@define
class AlternatingImpulses(Generic[A]):
    """Sides alternate impulses (Lock 'n Load's operations phase, OPS 1).

    The phase ends when no side can act any more (every unit has acted), or after ``pass_limit``
    consecutive passes counted over every side (P1, P2, P1 = 3); any impulse that is not a pass
    resets the count, and a side that passed may act in its next impulse.

    Args:
        sides: the sides, the one with the initiative first.
        can_act: ``can_act(side)`` — whether the side has a unit that may still act. A pure
            question about the state: it is asked of the side whose impulse it is, and of the
            others only when that side cannot act, so how often it is called is not part of
            the behaviour.
        pass_limit: consecutive passes that end the phase (LnL: 3).
        unable: what happens when the side whose impulse it is cannot act while another can:
            ``"skip"`` (default) — its impulse is skipped and the other side goes on, the pass
            count unchanged; ``"pass"`` — it counts as a pass (the other reading of LnL's A11).

    Report a pass with ``TurnResult(passed=True)`` from the impulse's procedure.
    """

    sides: tuple[A, ...] = field(converter=as_tuple)
    can_act: Callable[[A], bool] = field(eq=False)
    pass_limit: int = 3
    unable: Literal["skip", "pass"] = "skip"
    consecutive_passes: int = field(default=0, init=False)
    impulse: int = field(default=0, init=False)
    _cursor: int = field(default=0, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if not self.sides:
            raise ValueError("AlternatingImpulses needs at least one side")
        if self.unable not in ("skip", "pass"):
            raise ValueError(f"unable must be 'skip' or 'pass', not {self.unable!r}")

    def next_turn(self, dice: Dice | None = None) -> Turn[A] | None:
        # Hot (issue 9: every impulse of LnL and the skirmish): the side whose impulse it is is
        # asked first and the others only if it cannot act (``can_act`` is a question about the
        # state, which does not change here: the same turns as asking every side each time, at
        # about 60% of the calls), and the counters are kept in locals and written back once,
        # past attrs' __setattr__ (see _write).
        sides, can_act = self.sides, self.can_act
        n = len(sides)
        cursor, passes = self._cursor, self.consecutive_passes
        turn: Turn[A] | None = None
        while passes < self.pass_limit:
            here = cursor % n
            side = sides[here]
            if can_act(side):
                cursor = (here + 1) % n
                number = self.impulse + 1
                _write(self, "impulse", number)
                turn = _turn((side,), f"impulse {number}: {side}", number)
                break
            if not any(can_act(other) for i, other in enumerate(sides) if i != here):
                break  # nobody can act: the phase is over (the cursor stays on this side)
            cursor = (here + 1) % n
            if self.unable == "pass":
                passes += 1
        _write(self, "_cursor", cursor)
        _write(self, "consecutive_passes", passes)
        return turn

    def end_turn(self, turn: Turn[Any], result: TurnResult) -> None:
        passes = self.pass_limit if result.end else self.consecutive_passes + 1 if result.passed else 0
        _write(self, "consecutive_passes", passes)


# ---------------------------------------------------------------------------------------------
@define
class InitiativeTrack(Generic[A]):
    """Highest value acts first; equal values act simultaneously; values may change mid-round.

    Each participant acts once per round. The *tick* only moves down: a participant whose value
    rises above the current tick before acting does not lose her turn — she acts at the next
    tick, i.e. straight away (MTTT, 先导度变动和同步动作).

    >>> track = InitiativeTrack({"Mami": 12, "Homura": 9, "Witch": 12})
    >>> track.next_turn()
    Turn(actors=('Mami', 'Witch'), label='tick 12', number=12, phase=None, step=None, candidates=())
    >>> track.set("Homura", 15)      # rose past the current tick before acting
    >>> track.next_turn()
    Turn(actors=('Homura',), label='tick 12', number=12, phase=None, step=None, candidates=())
    >>> track.next_turn() is None    # everyone has acted: the round is over
    True
    """

    values: dict[A, int] = field(converter=dict)
    acted: set[A] = field(factory=set)
    tick: int | None = field(default=None)

    def set(self, who: A, value: int) -> None:
        """Change (or add) a participant's value."""
        self.values[who] = value

    def add(self, who: A, value: int, *, acts_this_round: bool = True) -> None:
        """Join mid-round; if ``acts_this_round`` is false she first acts next round."""
        self.values[who] = value
        if not acts_this_round:
            self.acted.add(who)

    def remove(self, who: A) -> None:
        """Leave the track."""
        self.values.pop(who, None)
        self.acted.discard(who)

    def pending(self) -> list[A]:
        """Participants yet to act this round, in acting order.

        :meth:`next_turn` reads :attr:`values` and :attr:`acted` itself rather than call this
        (a hot path): a subclass that changes who is pending overrides ``next_turn`` too."""
        waiting = [w for w in self.values if w not in self.acted]
        return sorted(waiting, key=lambda w: -self.values[w])

    def next_turn(self, dice: Dice | None = None) -> Turn[A] | None:
        # Hot (every mttt_rpg turn): the highest value and who has it, in one plain loop (no
        # generator) rather than sorting pending(); the actors are in pending()'s order (ties in
        # insertion order).
        acted = self.acted
        best = None
        tied: list[A] = []
        for who, value in self.values.items():
            if who in acted:
                continue
            if best is None or value > best:
                best, tied = value, [who]
            elif value == best:
                tied.append(who)
        if best is None:
            return None
        actors = tuple(tied)
        tick = best if self.tick is None else min(self.tick, best)
        _write(self, "tick", tick)
        acted.update(actors)
        return _turn(actors, f"tick {tick}", tick)

    def end_turn(self, turn: Turn[Any], result: TurnResult) -> None:
        if result.end:
            self.acted.update(self.values)

    def refresh(self, who: A) -> None:
        """Give ``who`` another turn this round (MTTT's reversal, 先导逆转)."""
        self.acted.discard(who)

    def new_round(self) -> None:
        """Start the next round: everyone may act again, from the top."""
        self.acted.clear()
        self.tick = None

    def order(self) -> list[A]:
        """Everyone, highest value first (ties in insertion order)."""
        return sorted(self.values, key=lambda w: -self.values[w])


# ---------------------------------------------------------------------------------------------
def _leader_table(leaders: Mapping[Any, Any]) -> dict[Hashable, tuple[str, int]]:
    # (side, value) pairs as tuples: read from TOML or JSON they arrive as lists, which would
    # never equal the (side, level) the sequencer looks for.
    return {name: (str(pair[0]), int(pair[1])) for name, pair in dict(leaders).items()}


@define
class LeaderActivation:
    """Leaders activate lowest value first (AIG §3.1, §5.1): one :class:`Turn` per activation.

    When several unactivated leaders share the lowest value and belong to more than one side,
    each side rolls a d10 (ties re-rolled); the higher roll chooses first, then the sides
    alternate; a side that has activated all its leaders of that value drops out and the other
    activates the rest. The turn's ``actors`` is the side, its ``candidates`` the leaders that
    side may choose from; the turn's procedure reports the leader that acted as
    ``TurnResult(actor=leader)`` (optional when there is a single candidate).

    A leader who acts *instead of* the candidates (a successful seize, §5.4) is reported the
    same way: the turn is used and the candidates stay unactivated for a later turn. Leaders
    finished out of turn (a failed seizer, §5.4.1; a seized momentum leader, §5.4.2.1) go
    through :meth:`finish`; a whole side through :meth:`finish_side` (command chaos, §5.3.3);
    the rest of the round through :meth:`end_round` (a second 9, §5.3.3).

    Args:
        leaders: leader → (side, value).
        sides: the sides in a fixed order (used for rolls and logs).
        roll: the roll-off's purpose text in the log.
    """

    leaders: dict[Hashable, tuple[str, int]] = field(converter=_leader_table)
    sides: tuple[str, ...] = field(converter=as_tuple)
    activated: set[Hashable] = field(factory=set)
    roll: str = "activation roll-off"
    _level: int | None = field(default=None, init=False, repr=False)
    _order: list[str] = field(factory=list, init=False, repr=False)
    _pending: Turn[str] | None = field(default=None, init=False, repr=False)

    def remaining(self) -> list[Hashable]:
        """Leaders not yet activated (or finished) this round.

        :meth:`next_turn` reads :attr:`leaders` and :attr:`activated` itself rather than call
        this (a hot path): a subclass that changes who remains overrides ``next_turn`` too."""
        return [name for name in self.leaders if name not in self.activated]

    def _start_level(self, left: list[Hashable], dice: Dice) -> list[Hashable]:
        """Start the lowest value among the leaders ``left``: who activates first (§3.1).
        Returns the leaders of ``left`` at that value."""
        level = min(self.leaders[n][1] for n in left)
        _write(self, "_level", level)
        at_level = [n for n in left if self.leaders[n][1] == level]
        sides_at_level = {self.leaders[n][0] for n in at_level}
        contenders = [s for s in self.sides if s in sides_at_level]
        _write(self, "_order", contenders)
        if len(contenders) > 1:
            while True:  # ties are re-rolled
                rolls = {s: dice.d10(f"{self.roll} ({s})") for s in contenders}
                top = max(rolls.values())
                winners = [s for s in contenders if rolls[s] == top]
                if len(winners) == 1:
                    break
            _write(self, "_order", [winners[0]] + [s for s in contenders if s != winners[0]])
        return at_level

    def next_turn(self, dice: Dice) -> Turn[str] | None:
        if self._pending is not None:
            raise RuntimeError(f"end_turn() the pending turn ({self._pending.label}) before asking again")
        # Hot (every AIG activation): the fields are read once and written past attrs'
        # __setattr__ (see _write); the side order turns once, to just after the side that acts.
        # remaining(), inline, and those of them at the value being activated, in one pass (no
        # generator: a side's candidates come from the few at that value)
        leaders, activated, level = self.leaders, self.activated, self._level
        left: list[Hashable] = []
        at_level: list[Hashable] = []
        for name, (_, value) in leaders.items():
            if name not in activated:
                left.append(name)
                if value == level:
                    at_level.append(name)
        if not left:
            return None
        if not at_level:
            at_level = self._start_level(left, dice)
            level = self._level
        order = self._order
        for index, side in enumerate(order):
            mine = tuple([n for n in at_level if leaders[n][0] == side])
            if mine:
                _write(self, "_order", order[index + 1 :] + order[: index + 1])
                turn = _turn((side,), f"leader value {level}: {side}", level or 0, candidates=mine)
                _write(self, "_pending", turn)
                return turn
        # Every leader at this level belongs to a side no longer in the order: start afresh.
        _write(self, "_level", None)
        return self.next_turn(dice)

    def end_turn(self, turn: Turn[Any], result: TurnResult) -> None:
        pending = self._pending
        if pending is None or (turn is not pending and turn != pending):
            raise RuntimeError(f"{turn.label}: not the pending turn of this sequencer")
        actor = result.actor
        if actor is None:
            if len(turn.candidates) != 1:
                raise ValueError(f"{turn.label}: report which of {turn.candidates} acted (TurnResult(actor=...))")
            actor = turn.candidates[0]
        _write(self, "_pending", None)
        if actor not in self.activated:
            self.finish(actor)
        if result.end:
            self.end_round()

    def finish(self, leader: Hashable) -> None:
        """Mark ``leader`` finished for the round without using a turn (a failed seizer, a
        seized momentum leader, a leader removed from play this round).

        Raises:
            KeyError: ``leader`` is not one of :attr:`leaders`.
            ValueError: ``leader`` is already finished this round.
        """
        if leader not in self.leaders:
            raise KeyError(f"no leader {leader!r}; the leaders are {list(self.leaders)}")
        if leader in self.activated:
            raise ValueError(f"leader {leader!r} is already finished this round")
        self.activated.add(leader)

    def finish_side(self, side: str) -> None:
        """Finish every remaining leader of ``side`` (AIG §5.3.3: army-wide command chaos)."""
        for name in self.remaining():
            if self.leaders[name][0] == side:
                self.activated.add(name)

    def end_round(self) -> None:
        """Finish every remaining leader (AIG §5.3.3: the turn goes straight to the rally phase)."""
        self.activated.update(self.leaders)

    def add(self, leader: Hashable, side: str, value: int, *, finished: bool = False) -> None:
        """Add a leader (a promoted or replacement leader); ``finished``: not this round."""
        self.leaders[leader] = (side, int(value))
        if finished:
            self.activated.add(leader)

    def remove(self, leader: Hashable) -> None:
        """Take a leader out (killed, captured)."""
        self.leaders.pop(leader, None)
        self.activated.discard(leader)

    def new_round(self) -> None:
        """Every leader is inactive again (AIG §3.4.e)."""
        if self._pending is not None:
            raise RuntimeError("end_turn() the pending turn before starting a new round")
        self.activated.clear()
        self._level = None
        self._order = []
