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

from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from attrs import define, field

from .decisions import Choose, Decision
from .dice import Dice
from .events import Event
from .interrupts import InterruptStack

if TYPE_CHECKING:
    from .ruleset import Ruleset

__all__ = ["EventLog", "RulesContext"]

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

    def event(
        self, kind: str, text: str, *, audience: tuple[str, ...] | str | None = None, **data: Any
    ) -> Event:
        """Append an event to the log.

        Args:
            kind: a short machine-readable kind (``"move"``, ``"hit"``).
            text: the sentence a reader sees.
            audience: the side(s) that may see it (one side's name, or a tuple); ``None``:
                everyone.
            **data: JSON-able facts for programs.

        Raises:
            TypeError: ``data`` is not JSON.
        """
        try:
            event = Event(kind, text, data, audience)
        except TypeError as exc:
            raise TypeError(f"event {kind!r} ({text}): {exc}") from None
        self._events.append(event)
        if self._sink is not None:
            self._sink(event)
        return event

    def ask(self, decision: Decision) -> Generator[Decision, Any, Any]:
        """Ask ``decision`` and return the chosen value; use with ``yield from``.

        A :class:`~wargamekit.decisions.Choose` with a single option answers itself (nobody
        is asked to confirm the only thing they can do, and nothing is recorded).
        """
        if isinstance(decision, Choose) and len(decision.options) == 1:
            return decision.options[0].value
        return (yield decision)

    def other_sides(self, side: str) -> tuple[str, ...]:
        """Every side but ``side``, in the ruleset's order."""
        return self.ruleset.other_sides(side)

    def other_side(self, side: str) -> str:
        """The opponent of ``side`` in a two-sided ruleset."""
        return self.ruleset.other_side(side)
