"""The rules context: everything a rule procedure may use, and nothing that drives the game.

:meth:`Ruleset.play <wargamekit.ruleset.Ruleset.play>` receives a :class:`RulesContext`. It
exposes the game state, the dice, the interrupt stack, the event log (append-only through
:meth:`RulesContext.event`), the optional rules, the structured scenario, the plugin hooks and a
way to ask decisions. Answering, undo, save and fork belong to whoever drives the game (a
:class:`~wargamekit.game.Game`); they are not here.

>>> from wargamekit import Choose, Outcome, Ruleset
>>> class CoinToss(Ruleset):
...     name = "coin_toss"
...     sides = ("heads", "tails")
...     def setup(self, scenario, options):
...         return {"tosses": 0}
...     def play(self, ctx: RulesContext):
...         call = yield Choose.of("heads", "Call the toss", ["heads", "tails"],
...                                kind="coin_toss.call", data=lambda v: {"face": v})
...         face = ctx.dice.pick(["heads", "tails"], "the toss")
...         ctx.state["tosses"] += 1
...         ctx.event("toss", f"The coin shows {face}", face=face)
...         return Outcome(winner="heads" if call == face else "tails", reason="the toss")
>>> from wargamekit import Game
>>> game = Game.new(CoinToss(), {}, seed=1)
>>> game.pending.kind
'coin_toss.call'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from attrs import define, field, frozen

from ._fastbuild import builder
from .decisions import ask as _ask
from .dice import Dice
from .errors import CheckpointError
from .events import Event, _record_event
from .interrupts import InterruptStack

if TYPE_CHECKING:
    from .ruleset import Ruleset

__all__ = ["Checkpoint", "EventLog", "RulesContext"]

StateT = TypeVar("StateT")
ScenarioT = TypeVar("ScenarioT")


class EventLog(Sequence[Event]):
    """A read-only window on the game's log: rules may read it and count it, never edit it."""

    __slots__ = ("_events",)

    def __init__(self, events: list[Event]) -> None:
        self._events = events

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | Sequence[Event]:
        if isinstance(index, slice):
            return tuple(self._events[index])
        return self._events[index]

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __repr__(self) -> str:
        return f"<EventLog of {len(self._events)} events>"


_new_object = object.__new__


@frozen
class Checkpoint:
    """A point of the procedure where play can restart from the state alone.

    Made by :meth:`RulesContext.checkpoint` and yielded by the procedure
    (``yield ctx.checkpoint("turn 3")``); the game takes it back at once (nobody is asked
    anything) and may keep a snapshot there. See :meth:`RulesContext.checkpoint` for the contract.

    Attributes:
        label: where this is (``"turn 3"``), unique along one game's path at one position; a
            restart must reach a checkpoint with the same label first.
    """

    label: str


#: Hot: every checkpoint a procedure yields (aig ~170 a game), built as a _CheckpointBuilder by a
#: plain write and turned into a Checkpoint (see _fastbuild): a third of the class call's cost.
_CheckpointBuilder = builder(Checkpoint)


@define(eq=False)
class RulesContext(Generic[StateT, ScenarioT]):
    """What rule procedures receive: the declared rules API.

    Type it with the ruleset's own state and scenario classes, e.g.
    ``RulesContext[GameState, Scenario]``, so rule code type-checks.

    Attributes:
        ruleset: the ruleset being played.
        scenario: the structured scenario (a fresh copy for this play-through).
        options: the optional rules in force (read-only).
        state: the ruleset's mutable game state.
        dice: the dice service: every random draw goes through it.
        interrupts: the interrupt stack shared by every response window.
        hooks: the plugin manager's hook relay (``ctx.hooks.my_modifier(...)``), or ``None``
            when the game runs without plugins.
    """

    ruleset: Ruleset
    scenario: ScenarioT
    options: Mapping[str, Any]
    state: StateT
    dice: Dice
    interrupts: InterruptStack
    hooks: Any = None
    _events: list[Event] = field(factory=list, repr=False)
    _sink: Any = field(default=None, repr=False)

    @property
    def log(self) -> EventLog:
        """The events so far, oldest first (read-only)."""
        return EventLog(self._events)

    if TYPE_CHECKING:  # what type checkers hold callers to (see events._record_event's sentinels)

        def event(self, kind: str, text: str, /, *, audience: tuple[str, ...] | str | None = None,
                  **data: Any) -> Event: ...

    else:
        # (one function with _Recorder.event, which the stack's events take: see events._record_event)
        event = _record_event

    def _append(self, event: Event) -> None:
        """Log an event already built (the game's own: every answer's)."""
        self._events.append(event)
        if self._sink is not None:
            self._sink(event)

    #: ``ctx.ask(decision)``: ask ``decision`` and return the chosen value; use with ``yield
    #: from``. A :class:`~wargamekit.decisions.Choose` with a single option answers itself
    #: (nobody is asked to confirm the only thing they can do, and nothing is recorded).
    #: It is :func:`wargamekit.decisions.ask` (hot: most decisions are asked through it, and
    #: a method calling it would be a second call).
    ask = staticmethod(_ask)

    def other_sides(self, side: str) -> tuple[str, ...]:
        """Every side but ``side``, in the ruleset's order."""
        return self.ruleset.other_sides(side)

    def other_side(self, side: str) -> str:
        """The opponent of ``side`` in a two-sided ruleset."""
        return self.ruleset.other_side(side)

    def checkpoint(self, label: str) -> Checkpoint:
        """A restart point to yield: ``yield ctx.checkpoint(f"turn {n}")``.

        The contract: if the game state, dice, scenario and the interrupt stack's record of
        answered keys are put back as they were here, and :meth:`Ruleset.play
        <wargamekit.ruleset.Ruleset.play>` is run again on a fresh context holding them, the
        procedure reaches this checkpoint (same label) *first* — no decision, roll or event
        before it — and from there plays exactly as the original run did. In practice: keep
        everything a later step reads in the state (not in local variables of ``play``), and
        let ``play`` skip what the state says is done (start the turn loop after ``state.turn``).

        The game checks the first half on every restart (:class:`~wargamekit.errors.CheckpointError`
        otherwise) and :func:`wargamekit.testing.check_ruleset` checks the second half (a
        restart's log must equal a full replay's, byte for byte).

        Raises:
            CheckpointError: the label is empty or not a string, the interrupt stack holds
                items (a checkpoint inside a response window could not restart from the state),
                or it is inside a ``dice.secret()`` block.
        """
        if not isinstance(label, str) or not label:
            raise CheckpointError(f"{self.ruleset.name}: a checkpoint needs a non-empty label, got {label!r}")
        if self.dice.audience is not None:
            raise CheckpointError(
                f"{self.ruleset.name}: checkpoint {label!r} is inside a dice.secret() block; "
                "checkpoints go where rolls are public again"
            )
        if self.interrupts.items:
            raise CheckpointError(
                f"{self.ruleset.name}: checkpoint {label!r} is inside a response window "
                f"({len(self.interrupts.items)} item(s) on the interrupt stack); checkpoints go "
                "where the stack is empty"
            )
        checkpoint = _new_object(_CheckpointBuilder)
        checkpoint.label = label
        checkpoint.__class__ = Checkpoint
        return checkpoint
