"""Events: the game log's entries.

The log is the truth of what happened. Each :class:`Event` is a frozen value with a kind, a
human sentence and JSON data. ``audience`` limits who may see it (``None``: everyone), which is
how hidden information (face-down pieces, secret special rounds) stays out of a side's view.

The log serialises to JSON lines with sorted keys, so the same game always gives the same bytes.

>>> e = Event("fire", "Tiger fires at T-34: hit", {"roll": [5, 6]})
>>> e.to_json()
'{"audience": null, "data": {"roll": [5, 6]}, "kind": "fire", "text": "Tiger fires at T-34: hit"}'
>>> e.visible_to("allies")
True
"""

from __future__ import annotations

import inspect
import json
import json.encoder
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from attrs import field, frozen

from ._fastbuild import builder
from .memo import remember

if TYPE_CHECKING:
    from .dice import Roll

__all__ = ["Event", "Outcome"]


def audience_of(sides: Iterable[str] | str | None) -> tuple[str, ...] | None:
    """The audience as a tuple of sides; one side may be given as a plain string (``"allies"``
    is the side allies, not the sides a, l, l, i, e, s)."""
    if sides is None:
        return None
    return (sides,) if isinstance(sides, str) else tuple(sides)


def json_default(value: Any) -> Any:
    """``json.dumps(default=...)``: numpy scalars and arrays (what geometry and bots compute
    with) become plain numbers and lists; anything else is refused."""
    import numpy as np

    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} {value!r} is not JSON data")


class _NotPlain(Exception):
    """Raised by :func:`_plain_copy` for anything a JSON round trip might change or refuse."""


_PLAIN_SCALARS = frozenset({str, int, float, bool, type(None)})
#: ``json.dumps`` refuses integers with more digits than Python converts to text by default.
_INT_LIMIT = 10**4000
#: ... and its negative, made once: ``-_INT_LIMIT`` in a test would build a 4,000-digit integer
#: on every call (a hot one: every int of every event is tested against both).
_INT_FLOOR = -_INT_LIMIT
_INLINE = frozenset({str, float, bool, type(None)})


def _plain_copy(value: Any) -> Any:
    # Hot: every event (every roll, every choice) is copied here. For exact JSON types this is
    # what a JSON round trip gives — a detached copy, tuples as lists, object keys in sorted
    # order — without the text; anything else raises _NotPlain and takes the round trip.
    # Scalars are taken inline (no call per item).
    kind = type(value)
    if kind is dict:
        for key in value:
            if type(key) is not str:
                raise _NotPlain
        copied = {}
        for key in sorted(value):
            item = value[key]
            of = type(item)
            copied[key] = item if of in _INLINE or (of is int and _INT_FLOOR < item < _INT_LIMIT) else _plain_copy(item)
        return copied
    if kind is list or kind is tuple:
        return [
            item if (of := type(item)) in _INLINE or (of is int and _INT_FLOOR < item < _INT_LIMIT) else _plain_copy(item)
            for item in value
        ]
    if kind in _PLAIN_SCALARS:
        if kind is int and not _INT_FLOOR < value < _INT_LIMIT:
            raise _NotPlain
        return value
    raise _NotPlain


#: Each key set that a rule's event data came with, in the order given, → the same keys sorted,
#: or ``None`` where they are in order already. Hot: every rule's event has its keys sorted
#: (see :func:`_record_event` and _owned_copy), and a game's events come with a few dozen key sets (one
#: per ``ctx.event`` call site), so each set is sorted once. Bounded, since data keyed by
#: values (unit ids) could bring new key sets without end: when full it is emptied and learns
#: again (a game's few dozen sets come back at once), so such data cannot leave it full of sets
#: that never recur.
_KEY_ORDERS: dict[tuple[str, ...], tuple[str, ...] | None] = {}
_KEY_ORDERS_LIMIT = 4096


#: What :func:`_key_order` gives for keys that are not all exact ``str`` (never kept; told by
#: identity, so an object of its own, not the shared empty tuple).
_NOT_STR: tuple[str, ...] = ("(keys not all exact str)",)


def _key_order(keys: tuple[str, ...]) -> tuple[str, ...] | None:
    """``keys`` (strings) in sorted order, or ``None`` if they are in it already; kept in
    :data:`_KEY_ORDERS` (a miss there: callers look it up first). Keys that are not all exact
    ``str`` (a ``StrEnum`` member passed through ``**data``) give :data:`_NOT_STR` and are not
    kept: the memo's orders are what later events of equal keys are rebuilt with, and those
    must get the plain strings a JSON round trip would give them."""
    for key in keys:
        if type(key) is not str:
            return _NOT_STR
    ordered = tuple(sorted(keys))
    order = None if ordered == keys else ordered
    return remember(_KEY_ORDERS, keys, order, _KEY_ORDERS_LIMIT)


def _freeze_data(data: Mapping[str, Any] | None) -> dict[str, Any]:
    # Copy now, as a JSON round trip would, so non-serialisable data fails where it is logged,
    # not later in a save, and so the stored data is exactly what a replay will compare.
    data = dict(data or {})
    try:
        copied: dict[str, Any] = _plain_copy(data)
        return copied
    except (_NotPlain, RecursionError):
        pass
    return json.loads(json.dumps(data, sort_keys=True, ensure_ascii=False, default=json_default))


#: ``json.dumps(..., sort_keys=True, ensure_ascii=False)``'s encoder, built once: ``dumps`` with
#: options builds a new one per call, a fifth of a log line's cost (saves and load digests write
#: every line of the log).
_LINE_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False)
#: The C encoder that ``_LINE_ENCODER.encode`` makes again on every call (``c_make_encoder``:
#: ~40 % of a line's cost), made once; ``None`` where Python has no C accelerator. Its
#: ``markers`` (the circular-reference check) are emptied after an error, which can leave them
#: holding the objects being encoded when it raised.
_LINE_MARKERS: dict[int, Any] = {}
_c_make_encoder: Any = getattr(json.encoder, "c_make_encoder", None)  # (private: not in typeshed)
_C_LINE = (
    None
    if _c_make_encoder is None
    else _c_make_encoder(
        _LINE_MARKERS, _LINE_ENCODER.default, json.encoder.encode_basestring, None,
        _LINE_ENCODER.key_separator, _LINE_ENCODER.item_separator, True, False, True,
    )
)


def _json_line(obj: dict[str, Any]) -> str:
    """``_LINE_ENCODER.encode(obj)`` for a dict, through the C encoder made once."""
    if _C_LINE is None:
        return _LINE_ENCODER.encode(obj)
    try:
        return "".join(_C_LINE(obj, 0))
    except BaseException:
        _LINE_MARKERS.clear()
        raise


@frozen
class Event:
    """One log entry.

    Attributes:
        kind: a short machine name (``"roll"``, ``"move"``, ``"fire"``, ``"phase"`` …).
        text: one readable sentence.
        data: JSON-serialisable details.
        audience: the sides allowed to see it; ``None`` means everyone.
    """

    kind: str
    text: str
    data: dict[str, Any] = field(factory=dict, converter=_freeze_data, eq=False)
    audience: tuple[str, ...] | None = field(default=None, converter=audience_of)

    def visible_to(self, side: str | None) -> bool:
        """Whether ``side`` may see this event (``None`` = an omniscient observer)."""
        return side is None or self.audience is None or side in self.audience

    def to_json(self) -> str:
        """One deterministic JSON line."""
        return _json_line(
            {
                "audience": None if self.audience is None else list(self.audience),
                "data": self.data,
                "kind": self.kind,
                "text": self.text,
            }
        )


# The slots' own setters: what Event's attrs __init__ does (its two converters, no
# validators), about a third cheaper (kept for the snapshot cache's builders).
_set_kind = Event.__dict__["kind"].__set__
_set_text = Event.__dict__["text"].__set__
_set_data = Event.__dict__["data"].__set__
_set_audience = Event.__dict__["audience"].__set__
#: Hot: every roll and every answer logs an event, built as an _EventBuilder by plain writes and
#: turned into an Event (see _fastbuild): half the cost of the four setters' calls.
_EventBuilder = builder(Event)
_new = object.__new__


def new_event(kind: str, text: str, data: Mapping[str, Any] | None, audience: Iterable[str] | str | None) -> Event:
    """``Event(kind, text, data, audience)``, built through the slots (for the game's log)."""
    # What can raise is made first: no half-built builder is left to a traceback.
    frozen_data, frozen_audience = _freeze_data(data), audience_of(audience)
    event = _new(_EventBuilder)
    event.kind = kind
    event.text = text
    event.data = frozen_data
    event.audience = frozen_audience
    event.__class__ = Event
    return event


def _owned_copy(data: dict[str, Any]) -> dict[str, Any]:
    """:func:`_freeze_data` of a dict nobody else holds that holds more than JSON scalars
    (``ctx.event``'s case of data holding more than scalars: see :func:`_record_event`): the same
    result, with no copy of the dict first."""
    # Hot for rulesets whose events carry lists (lnl: a list of unit ids in a third of its
    # events): _plain_copy's work for the top level, with its key order looked up as the
    # scalars' case does and a list or tuple of scalars copied without a call.
    keys = tuple(data)
    for key in keys:
        if type(key) is not str:  # (a str subclass: the JSON round trip makes it a str)
            return _freeze_data(data)
    try:
        order = _KEY_ORDERS[keys]
    except KeyError:
        order = _key_order(keys)
    copied = {}
    try:
        for key in keys if order is None else order:
            item = data[key]
            of = type(item)
            if of in _INLINE or (of is int and _INT_FLOOR < item < _INT_LIMIT):
                copied[key] = item
                continue
            if of is list or of is tuple:
                for element in item:
                    of = type(element)
                    if of not in _INLINE and (of is not int or not _INT_FLOOR < element < _INT_LIMIT):
                        break
                else:
                    copied[key] = list(item)
                    continue
            copied[key] = _plain_copy(item)
    except (_NotPlain, RecursionError):
        return _freeze_data(data)
    return copied


def logged_event(kind: str, text: str, data: dict[str, Any], audience: tuple[str, ...] | None) -> Event:
    """An event whose ``data`` is already what freezing would give: a fresh dict of exact JSON
    types, keys in sorted order, held by nobody else; ``audience`` a tuple of sides or ``None``.
    For the core's own events (every roll's and every answer's), built from values it checked."""
    event = _new(_EventBuilder)
    event.kind = kind
    event.text = text
    event.data = data
    event.audience = audience
    event.__class__ = Event
    return event


def is_plain_int(value: Any) -> bool:
    """Whether ``value`` is an ``int`` (not a ``bool``, not numpy's) that JSON writes as it is."""
    return type(value) is int and _INT_FLOOR < value < _INT_LIMIT


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


def _record_event(
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
                # (a loop, not a comprehension: one makes a function and a frame at every
                # call, ~1,500 instructions more for three keys; lnl reorders ~65 % of its events)
                ordered = {}
                for key in order:
                    ordered[key] = data[key]
                data = ordered
        if audience is not None:
            audience = audience_of(audience)
    except TypeError as exc:
        raise TypeError(f"event {kind!r} ({text}): {exc}") from None
    # (new_event's build, inline: a call more for every event of a game is ~0.5 % of it)
    event = _new(_EventBuilder)
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
_record_event.__signature__ = inspect.signature(_record_event).replace(  # type: ignore[attr-defined]
    parameters=[
        p.replace(default=inspect.Parameter.empty) if p.name in ("kind", "text") else p
        for p in inspect.signature(_record_event).parameters.values()
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

    if TYPE_CHECKING:  # what type checkers hold callers to (see _record_event's sentinels)

        def event(self, kind: str, text: str, /, *, audience: tuple[str, ...] | str | None = None,
                  **data: Any) -> Event: ...

    else:
        # As RulesContext.event, the same function (it reads only _events and _sink): a
        # stack's event is one call (it was two, through a shared helper).
        event = _record_event

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
            event = _new(_EventBuilder)
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



@frozen
class Outcome:
    """How a game ended.

    Attributes:
        winner: the winning side, or ``None`` for a draw.
        reason: why it ended, citing the victory rule.
        scores: points per side where the ruleset keeps any.
    """

    winner: str | None
    reason: str
    scores: dict[str, float] = field(factory=dict, eq=False)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"winner": self.winner, "reason": self.reason, "scores": dict(sorted(self.scores.items()))}
