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

import inspect
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from attrs import define, field, frozen

from ._fastbuild import builder
from .decisions import ask as _ask
from .dice import Dice, Roll
from .errors import CheckpointError
from .events import (
    _INLINE,
    _INT_FLOOR,
    _INT_LIMIT,
    _KEY_ORDERS,
    _NOT_STR,
    Event,
    _EventBuilder,
    _freeze_data,
    _key_order,
    _owned_copy,
    audience_of,
    is_plain_int,
)
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


class _ByKeyword:
    """The default of :meth:`RulesContext.event`'s ``kind`` and ``text``: not given by position."""

    def __repr__(self) -> str:
        return "<required>"


_BY_KEYWORD: Any = _ByKeyword()


def _kind_and_text_by_keyword(kind: Any, text: Any, data: dict[str, Any]) -> tuple[str, str]:
    """``kind`` and ``text`` given to :meth:`RulesContext.event` by keyword (the deprecated
    form, in which they arrive in ``data``), taken out of ``data``."""
    import warnings

    given = []
    if kind is _BY_KEYWORD and "kind" in data:
        kind = data.pop("kind")
        given.append("kind")
    if text is _BY_KEYWORD and "text" in data:
        text = data.pop("text")
        given.append("text")
    missing = [name for name, value in (("kind", kind), ("text", text)) if value is _BY_KEYWORD]
    if missing:
        raise TypeError(f"RulesContext.event() missing required argument(s): {', '.join(missing)}")
    warnings.warn(
        f"RulesContext.event(): give {' and '.join(given)} by position (ctx.event(kind, text, **data)); "
        "by keyword is deprecated",
        DeprecationWarning,
        stacklevel=3,
    )
    return kind, text


def _event(
    self: Any,
    kind: str = _BY_KEYWORD,
    text: str = _BY_KEYWORD,
    /,
    *,
    audience: tuple[str, ...] | str | None = None,
    **data: Any,
) -> Event:
    """Append an event to the log.

    Args:
        kind: a short machine-readable kind (``"move"``, ``"hit"``).
        text: the sentence a reader sees.
        audience: the side(s) that may see it (one side's name, or a tuple); ``None``:
            everyone.
        **data: JSON-able facts for programs.

    ``kind`` and ``text`` are given by position. Given by keyword (``kind=..., text=...``)
    they are still taken, with a :class:`DeprecationWarning`; that form will go.

    Raises:
        TypeError: ``data`` is not JSON, or ``kind`` or ``text`` is missing.
    """
    # kind and text are positional only: Python matches each of **data's keywords against
    # every parameter that can be named before it packs the keyword into data, a string
    # comparison each (an event of three keys: ~4,400 instructions with kind and text
    # nameable, ~2,900 without). Their defaults only catch the deprecated keyword form.
    if kind is _BY_KEYWORD or text is _BY_KEYWORD:
        kind, text = _kind_and_text_by_keyword(kind, text, data)
    # Hot: every event a rule logs, and every event of the stack's: ``Event(kind, text, data,
    # audience)``, with no copy of data that is JSON scalars only (the dict is this call's own:
    # Python packed **data for it), only its keys put in sorted order; anything else is copied
    # (events._owned_copy). Inline, not a helper's call: ~550 instructions an event (mttt_rpg
    # logs ~650 a game). What can raise is done first: no half-built builder is left to a
    # traceback.
    try:
        for item in data.values():
            of = type(item)
            if of not in _INLINE and (of is not int or not _INT_FLOOR < item < _INT_LIMIT):
                data = _owned_copy(data)
                break
        else:
            keys = tuple(data)
            order = None
            if len(keys) > 1:
                try:
                    order = _KEY_ORDERS[keys]
                except KeyError:
                    order = _key_order(keys)
            if order is None:
                # Keys in order keep the dict as it is, if they are plain strings (a str
                # subclass equals the plain key it stands for, so it can meet a kept order of None).
                for key in keys:
                    if type(key) is not str:
                        data = _freeze_data(data)
                        break
            elif order is _NOT_STR:
                data = _freeze_data(data)
            else:
                data = {key: data[key] for key in order}
        if audience is not None:
            audience = audience_of(audience)
    except TypeError as exc:
        raise TypeError(f"event {kind!r} ({text}): {exc}") from None
    event = _new_object(_EventBuilder)
    event.kind = kind
    event.text = text
    event.data = data
    event.audience = audience
    event.__class__ = Event
    self._events.append(event)
    if self._sink is not None:
        self._sink(event)
    return event


# What inspect and the API docs show: kind and text required (the sentinel defaults exist only
# to catch the deprecated keyword form).
_event.__signature__ = inspect.signature(_event).replace(  # type: ignore[attr-defined]
    parameters=[
        p.replace(default=inspect.Parameter.empty) if p.name in ("kind", "text") else p
        for p in inspect.signature(_event).parameters.values()
    ]
)


class _Recorder:
    """What the dice (:attr:`Dice.on_roll <wargamekit.dice.Dice.on_roll>`) and the interrupt
    stack (:attr:`InterruptStack.on_event <wargamekit.interrupts.InterruptStack.on_event>`)
    call to log into a context's log: its events list and sink, and nothing else.

    It holds neither the context nor the game, so that the dice and the stack refer to no
    object that refers back to them: a game nobody holds any more is freed at once by
    reference counting, not left to the cyclic garbage collector (a game's log is thousands
    of objects, which every collection until then would walk).
    """

    __slots__ = ("_events", "_sink")

    def __init__(self, events: list[Event], sink: Callable[[Event], Any] | None) -> None:
        self._events = events
        self._sink = sink

    if TYPE_CHECKING:  # what type checkers hold callers to (see _event's sentinels)

        def event(self, kind: str, text: str, /, *, audience: tuple[str, ...] | str | None = None,
                  **data: Any) -> Event: ...

    else:
        # As RulesContext.event, the same function (it reads only _events and _sink): a
        # stack's event is one call (it was two, through a shared helper).
        event = _event

    def roll(self, roll: Roll) -> None:
        """Log ``roll`` as a ``roll`` event (its purpose, dice, faces and value)."""
        faces, value, purpose, kind = roll.faces, roll.value, roll.purpose, roll.kind
        if len(faces) == 1:
            (face,) = faces
            text = f"{purpose}: {kind} [{face!s}] = {value}"
            plain = type(face) is int and _INT_FLOOR < face < _INT_LIMIT
            listed = [face]
        else:
            text = f"{purpose}: {kind} [{' '.join(map(str, faces))}] = {value}"
            plain = all(map(is_plain_int, faces))
            listed = list(faces)
        if plain and type(value) is int and _INT_FLOOR < value < _INT_LIMIT and type(purpose) is str and type(kind) is str:
            # Hot: every roll of every game. The data as freezing would make it (keys in
            # sorted order, the faces a list), from values checked to be plain JSON: no copy,
            # no walk; the event built by plain writes (as events.logged_event, inline).
            event = _new_object(_EventBuilder)
            event.kind = "roll"
            event.text = text
            event.data = {"dice": kind, "faces": listed, "purpose": purpose, "value": value}
            event.audience = roll.audience
            event.__class__ = Event
            self._events.append(event)
            if self._sink is not None:
                self._sink(event)
        else:  # numpy faces, a purpose that is not a str: the general path converts or refuses
            self.event("roll", text, audience=roll.audience,
                       purpose=purpose, dice=kind, faces=list(faces), value=value)


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

    if TYPE_CHECKING:  # what type checkers hold callers to (see _event's sentinels)

        def event(self, kind: str, text: str, /, *, audience: tuple[str, ...] | str | None = None,
                  **data: Any) -> Event: ...

    else:
        # (one function with _Recorder.event, which the stack's events take: see _event)
        event = _event

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
