"""The interrupt stack: one resolver for every ruleset's responses.

MTTT's interrupt phase (instant spells and triggered effects, last in first out), AIG's seize of
a momentum, LnL's opportunity fire, the tank game's defensive fire and the locale defender's
choice to block are all *response windows* on one :class:`InterruptStack`.

A window opens at a timing point. The sides are polled in the order the ruleset gives; each may
push one of the :class:`Response` items offered to it, or pass. When every side has passed in a
row, the top item resolves: its legality is checked again (an item that is no longer legal
*fizzles*), then it runs — it may itself ask decisions and open windows. After each resolution
the window re-opens, so new responses can be pushed at every resolution point. The window closes
when the stack is back to where it was when the window opened (or down to its ``floor``).

A trigger is answered at most once: every response carries a ``key`` and an offer whose key was
already pushed is not offered again. Simultaneous triggered effects are put on the stack in an
order their controller chooses (a decision, not a hidden default).

With :attr:`InterruptStack.enabled` off (MTTT's optional rule), windows poll nobody; effects
already pushed (mandatory triggers) still resolve.

The stack keeps one invariant: **no item is left unresolved once the window that should resolve
it has closed.** An item pushed inside a window (a response) lies above that window's floor, so
the window resolves it before it closes. An item pushed by ruleset code outside a window (a
spell cast as an action, triggered effects put on with :meth:`InterruptStack.push_triggered`)
waits for a window to resolve it: the next window must reach down to it (``floor``), unless a
window already open lies below it and resolves it when it resumes. A window whose floor would
leave such an item behind raises :class:`UnresolvedItemError` naming the item and the window,
where it opens; :func:`wargamekit.testing.check_ruleset` checks that every game ends with the
stack empty.

>>> def offers(side, point):
...     if side == "blue" and point.timing == "spell cast":
...         return [Response("counterspell", "blue", lambda: print("counterspell resolves"), key="cs")]
...     if side == "red" and point.top is not None and point.top.name == "counterspell":
...         return [Response("dispel", "red", lambda: print("dispel resolves"), key="dispel")]
...     return []
>>> def drive(procedure, answers):
...     try:
...         ask = next(procedure)
...         while True:
...             print(ask.side, "asked:", ask.labels)
...             ask = procedure.send(ask.options[answers.pop(0)].value)  # plain values
...     except StopIteration as stop:
...         return [item.name for item in stop.value]
>>> drive(InterruptStack().window("spell cast", ["red", "blue"], offers), [1, 1])
blue asked: ['pass', 'counterspell']
red asked: ['pass', 'dispel']
dispel resolves
counterspell resolves
['dispel', 'counterspell']
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Iterable, Iterator, Mapping, Sequence
from types import GeneratorType
from typing import Any, cast, final, overload

from attrs import define, field, frozen

from ._fastbuild import builder
from ._fastbuild import set_class as _set_class
from .decisions import (
    Choose,
    Data,
    Decision,
    LazyOptions,
    Option,
    _init_menu,
    _new_object,
    _option,
    _plain_choose,
    freeze_data,
)
from .errors import InterruptStackError, UnresolvedItemError

__all__ = ["InterruptStack", "LazyOffers", "Response", "TimingPoint"]


@frozen(init=False)
class Response:
    """An item that can go on the stack.

    Attributes:
        name: readable name (``"op fire: MG 42 at 0304"``).
        controller: the side that pushed it, or controls the triggered effect.
        resolve: called when the item resolves; may return a generator (a procedure that asks
            decisions), which the stack runs with ``yield from``.
        is_legal: re-checked at resolution; returns ``None`` if still legal, else the reason it
            fizzles. ``None`` here means "always legal".
        key: what this answers (e.g. ``("turn start", "alice", "Mirror Ward")``). An offer
            whose key was already pushed is not offered again. ``None``: never deduplicated.
        data: what the response *is*, for programs: a JSON-able mapping (ids, action names,
            numbers). It becomes the data of the option that offers it, so bots read it, never
            :attr:`name`.
        payload: anything else the ruleset keeps with the item for itself (never shown).
    """

    name: str
    controller: str
    resolve: Callable[[], Any] = field(eq=False, repr=False)
    is_legal: Callable[[], str | None] | None = field(default=None, eq=False, repr=False)
    key: Hashable | None = field(default=None)
    data: Data = field(default=None, eq=False, repr=False)
    payload: Any = field(default=None, eq=False, repr=False)

    def __init__(
        self,
        name: str,
        controller: str,
        resolve: Callable[[], Any],
        is_legal: Callable[[], str | None] | None = None,
        key: Hashable | None = None,
        data: Mapping[str, Any] | None = None,
        payload: Any = None,
    ) -> None:
        # By hand: what attrs' __init__ does (freeze the data, check the key), ~1 µs cheaper.
        # Hot: a ruleset builds responses at every poll. A plain Response is written as its
        # builder (plain attribute writes, then its class back: ~190 ns cheaper than seven
        # slot-setter calls); a subclass, whose layout may differ, through the setters.
        if type(self) is Response:
            _set_class(self, _ResponseBuilder)
            built: Any = self  # (the builder's type, which mypy cannot follow)
            built.name = name
            built.controller = controller
            built.resolve = resolve
            built.is_legal = is_legal
            built.key = key
            built.data = data if type(data) is Data else freeze_data(data)  # (frozen: no call)
            built.payload = payload
            built.__class__ = Response
        else:
            _set_name(self, name)
            _set_controller(self, controller)
            _set_resolve(self, resolve)
            _set_is_legal(self, is_legal)
            _set_key(self, key)
            _set_data(self, data if type(data) is Data else freeze_data(data))
            _set_payload(self, payload)
        _check_key(name, key)

    def option_data(self) -> Data:
        """The data of the option offering this response: ``{"respond": data}`` (or the name
        when the ruleset gave no data)."""
        data = self.data
        # every value a JSON scalar (the types' set compared in C: no generator per call)
        if data and _FLAT.issuperset(map(type, data.values())):
            # hot (every poll that offers something): flat data is frozen already, so wrapping
            # it is what freeze_data would build, without walking it again
            return Data({"respond": data})
        return freeze_data({"respond": data or {"name": self.name}})



def _check_key(name: str, key: Any) -> None:
    try:
        hash(key)
    except TypeError:
        # Otherwise the error comes later, from the stack, far from the rule that built it.
        raise TypeError(f"response {name!r}: its key {key!r} must be hashable (use a tuple, not a list)") from None


_set_name, _set_controller, _set_resolve, _set_is_legal, _set_key, _set_data, _set_payload = (
    Response.__dict__[name].__set__ for name in ("name", "controller", "resolve", "is_legal", "key", "data", "payload")
)
_ResponseBuilder = builder(Response)


@frozen
class TimingPoint:
    """Where a window stands: the timing point's name and the item on top of the stack."""

    timing: str
    top: Response | None
    depth: int


@final
class LazyOffers(Sequence[Response]):
    """What a side may push at a poll, each response made when first read (a *lazy offer*).

    Why: a window's poll offers every response a side could push, yet a random bot reads one
    of them, or passes; mttt_rpg built ~3.4 responses per poll that offered any. An ``offers``
    function may return a lazy offer instead of a list: the keys of its responses (what the
    stack needs to drop those already answered) and ``make(i)``, which makes response ``i``.
    The poll then asks its decision with a lazy menu (:class:`~wargamekit.decisions.LazyOptions`)
    whose option for response ``i`` is made, with the response, when read; the response pushed
    is the one made for the chosen option.

    To every reader it is the list of responses an eager offer holds: its length, indexing,
    slicing (a tuple), iteration and equality are those of that list; a response is made once.
    The decision, its options, the log and the stack are what the eager list gives.

    **The contract of** ``make`` (as for lazy menus): response ``i`` is made while the poll's
    decision is pending (when its option is read), or, the chosen one, by the poll right after
    the answer, before anything else happens; the answer seals the decision, so a response not
    made by then is never made through it (see :class:`~wargamekit.decisions.LazyOptions`).
    ``make`` may read what it closes over and the state as it is then; it must never roll dice
    or change anything (a ruleset that numbers its items reserves the numbers when it builds
    the offer). ``make(i)`` must return a :class:`Response` whose ``key`` is ``keys[i]``.

    Raises:
        TypeError: (when built) a key that cannot be hashed, as :class:`Response` refuses it.
        InterruptStackError: (when a response is made) ``make`` returned no :class:`Response`,
            or one whose key is not the key it was offered with; nothing is kept, so every
            read raises again.

    >>> made = []
    >>> def make(i):
    ...     made.append(i)
    ...     return Response(f"bolt {i}", "blue", resolve=lambda: None, key=("bolt", i))
    >>> offer = LazyOffers([("bolt", 0), ("bolt", 1)], make)
    >>> len(offer), made  # the length is known, nothing is made
    (2, [])
    >>> offer[1].name, made
    ('bolt 1', [1])
    >>> offer[1] is offer[1], made  # made once
    (True, [1])
    """

    __slots__ = ("_keys", "_make", "_made")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # The poll keeps a lazy offer by its exact type (anything else is read as a list).
        raise TypeError(f"{cls.__name__}: LazyOffers cannot be subclassed (the poll reads it by its exact type)")

    def __init__(self, keys: Iterable[Hashable | None], make: Callable[[int], Response]) -> None:
        self._keys = tuple(keys)
        try:
            hash(self._keys)  # every key at once (hot: an offer at every poll that has one)
        except TypeError:
            for index, key in enumerate(self._keys):
                _check_key(f"lazy offer {index}", key)  # here, as Response does: not later, far from the rule
            raise
        self._make = make
        self._made: list[Response | None] = [None] * len(self._keys)

    @property
    def keys(self) -> tuple[Hashable | None, ...]:
        """The keys of the responses, in order (``None``: never deduplicated)."""
        return self._keys

    def _build(self, index: int) -> Response:
        """Make, check, keep and return response ``index`` (a valid index)."""
        response = self._make(index)
        if type(response) is not Response:
            raise InterruptStackError(f"lazy offer {index}: make({index}) returned {response!r}, not a Response")
        if response.key != self._keys[index]:
            raise InterruptStackError(
                f"lazy offer {index}: the response {response.name!r} has the key {response.key!r}, "
                f"but it was offered with the key {self._keys[index]!r}"
            )
        self._made[index] = response
        return response

    def __len__(self) -> int:
        return len(self._keys)

    def _name_of(self, index: int) -> str:
        """Response ``index``'s name, made if it is not yet (a poll menu's label)."""
        return self[index].name

    def _data_of(self, index: int) -> Data:
        """Response ``index``'s option data, made if it is not yet (a poll menu's data)."""
        return self[index].option_data()

    @overload
    def __getitem__(self, index: int) -> Response: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Response, ...]: ...

    def __getitem__(self, index: int | slice) -> Response | tuple[Response, ...]:
        if type(index) is slice:
            return tuple(self[i] for i in range(*index.indices(len(self._keys))))
        response = self._made[index]  # the IndexError/TypeError a list raises
        if response is not None:
            return response
        return self._build(index % len(self._keys))

    def __iter__(self) -> Iterator[Response]:
        for index in range(len(self._keys)):
            yield self[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (LazyOffers, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a list's: mutable in what it has made

    def __repr__(self) -> str:
        return f"LazyOffers({list(self)!r})"


Offers = Callable[[str, TimingPoint], Sequence[Response]]

#: Hot: one TimingPoint a poll of a side, built as a _TimingPointBuilder by plain writes and
#: turned into a TimingPoint (see _fastbuild): cheaper than its slots' setters.
_TimingPointBuilder = builder(TimingPoint)


def _timing_point(timing: str, top: Response | None, depth: int) -> TimingPoint:
    """``TimingPoint(timing, top, depth)`` by plain writes (hot: one per poll of a side)."""
    point = object.__new__(_TimingPointBuilder)
    point.timing = timing
    point.top = top
    point.depth = depth
    point.__class__ = TimingPoint
    return point

#: JSON scalars: a response's data holding only these is frozen as it is
_FLAT = frozenset((str, int, float, bool, type(None)))

_PASS = freeze_data({"pass": True})
#: every poll's first option (frozen, so one serves every decision)
_PASS_OPTION = Option(None, "pass", data=_PASS)


@define
class InterruptStack:
    """LIFO stack of responses with polling windows. One per game (``game.interrupts``)."""

    enabled: bool = True
    on_event: Callable[..., Any] | None = field(default=None, repr=False)
    items: list[Response] = field(factory=list)
    answered: set[Hashable] = field(factory=set, repr=False)
    #: The floors of the windows open now, outermost first.
    open_floors: list[int] = field(factory=list, repr=False)

    @property
    def top(self) -> Response | None:
        """The item that resolves next."""
        return self.items[-1] if self.items else None

    def push(self, response: Response) -> None:
        """Put ``response`` on top (and mark its key answered)."""
        if response.key is not None:
            self.answered.add(response.key)
        items = self.items
        items.append(response)
        # The event straight to ``on_event`` (hot: every push and resolution; a helper taking
        # ``**data`` to pass it on packed the arguments twice, ~40 % of a push); the data's
        # keys in sorted order, as the event keeps them, so that they need no reordering
        if self.on_event is not None:
            depth, name, controller = len(items), response.name, response.controller
            self.on_event(
                "stack-push",
                f"{controller} pushes {name} (stack depth {depth})",
                controller=controller,
                depth=depth,
                name=name,
            )

    def is_answered(self, key: Hashable | None) -> bool:
        """Whether a response with this key was already pushed."""
        return key is not None and key in self.answered

    def push_triggered(
        self, triggered: Sequence[Response], order: Sequence[str], *, rule: str = "", kind: str = ""
    ) -> Generator[Decision, Any, None]:
        """Push simultaneous triggered effects.

        Controllers push in ``order`` (the ruleset's, e.g. the active side first), so the last
        controller's effects resolve first. Each controller with several effects chooses the
        order in which its own go on the stack (a decision of kind ``kind``).
        """
        for side in order:
            mine = [r for r in triggered if r.controller == side and not self.is_answered(r.key)]
            while len(mine) > 1:
                # The options' values are plain indices into ``mine``, never the responses:
                # a response closes over the live game, and a player must not reach it.
                index = yield Choose(
                    side=side,
                    prompt="Order your simultaneous triggered effects: which goes on the stack next?",
                    options=tuple(Option(i, r.name, data=r.option_data()) for i, r in enumerate(mine)),
                    rule=rule,
                    kind=kind,
                    context={"timing": "simultaneous triggers", "depth": len(self.items)},
                )
                # By position: two effects may be equal (same name, controller and key) yet
                # resolve differently; ``list.remove`` would drop the wrong one.
                pick = mine.pop(_index(index, len(mine)))
                self.push(pick)
            for r in mine:
                self.push(r)

    def window(
        self,
        timing: str,
        order: Sequence[str],
        offers: Offers,
        *,
        rule: str = "",
        floor: int | None = None,
        kind: str = "",
        context: Mapping[str, Any] | None = None,
    ) -> Generator[Decision, Any, list[Response]]:
        """Open a response window at ``timing`` and run it until the stack is back to its level.

        Args:
            timing: the timing point's name, passed to ``offers`` while polling; at resolution
                points it is ``"resolution of <name>"``.
            order: the sides to poll, in order.
            offers: ``offers(side, point)`` lists what ``side`` may push now.
            rule: the rule citation for the decisions asked.
            kind: the kind of the decisions asked (``"lnl.opportunity_fire"``); their context
                holds the timing point and the stack depth, their options the responses' data.
            context: more facts for the decisions' context (the unit that triggered the window,
                the attack being answered); the core's keys (``timing``, ``depth``, ``top``)
                win over a clash.
            floor: resolve down to this stack depth. By default the depth when the window
                opened; pass ``0`` to also resolve items pushed before it (e.g. triggered
                effects put on the stack with :meth:`push_triggered`).

        Returns:
            The items resolved (fizzled ones excluded), in resolution order.
        """
        if floor is not None and not 0 <= floor <= len(self.items):
            raise ValueError(
                f"{timing}: floor {floor} is outside the stack (depth {len(self.items)}); "
                "items below a floor above the top would never resolve"
            )
        base = len(self.items) if floor is None else floor
        self._check_floor(timing, base)
        self.open_floors.append(base)
        try:
            return (yield from self._run(timing, order, offers, rule, base, kind, context))
        finally:
            self.open_floors.pop()

    def _check_floor(self, timing: str, base: int) -> None:
        """The invariant: every item below ``base`` lies above the floor of a window already
        open (which resolves it when it resumes); otherwise nothing would ever resolve it."""
        if not self.items:
            return  # most windows open on an empty stack: nothing to strand
        # An open window resolves everything above its floor when it resumes; so an item is
        # safe if it lies at or above the new floor, or at or above the lowest open floor.
        lowest_open = min(self.open_floors, default=len(self.items))
        stranded = self.items[: min(base, lowest_open)]
        if stranded:
            raise UnresolvedItemError(
                stranded[-1].name,
                timing,
                f"it lies below the window's floor (depth {base}) and below every open window; "
                f"a window must resolve down to depth {len(stranded) - 1} or lower to reach it",
            )

    def assert_empty(self, when: str) -> None:
        """Raise :class:`UnresolvedItemError` if any item is still on the stack (e.g. when a game
        ends: ``when`` says at what point)."""
        if self.items:
            raise UnresolvedItemError(
                self.items[-1].name,
                when,
                f"{len(self.items)} item(s) left on the stack: "
                + ", ".join(repr(i.name) for i in self.items),
            )

    def _run(
        self, timing: str, order: Sequence[str], offers: Offers, rule: str, base: int, kind: str, context: Mapping[str, Any] | None
    ) -> Generator[Decision, Any, list[Response]]:
        resolved: list[Response] = []
        point_name = timing
        while True:
            if self.enabled and order:
                yield from self._poll(point_name, order, offers, rule, kind, context)
            if len(self.items) <= base:
                return resolved
            item = self.items.pop()
            reason = item.is_legal() if item.is_legal is not None else None
            on_event, name = self.on_event, item.name  # (events straight to on_event: see push)
            if reason:
                if on_event is not None:
                    on_event("stack-fizzle", f"{name} fizzles: {reason}", name=name, reason=reason)
            else:
                if on_event is not None:
                    on_event("stack-resolve", f"{name} resolves", name=name)
                result = item.resolve()
                # a plain generator first (most resolutions are one): the ABC's check is a Python call
                if type(result) is GeneratorType or isinstance(result, Generator):
                    yield from result
                resolved.append(item)
            point_name = f"resolution of {name}"

    def _poll(
        self, timing: str, order: Sequence[str], offers: Offers, rule: str, kind: str, extra: Mapping[str, Any] | None
    ) -> Generator[Decision, Any, None]:
        passes = 0
        turn = 0
        items, answered = self.items, self.answered
        frozen_extra: Data | None = None
        point: TimingPoint | None = None
        # Hot: every poll of every side (mttt_rpg opens a window at nearly every action).
        # What is built here is what the plain constructors build (same values, same order).
        while passes < len(order):
            side = order[turn % len(order)]
            turn += 1
            top = items[-1] if items else None
            depth = len(items)
            if point is None or point.top is not top or point.depth != depth:
                # one point (frozen) for the sides polled until something is pushed
                point = _timing_point(timing, top, depth)
            offered = offers(side, point)
            available: Sequence[Any]
            if type(offered) is LazyOffers:
                lazy: LazyOffers | None = offered
                # Only the keys are read: a response is made when its option is (see LazyOffers).
                # (Its own tuple: the offer's len() and its keys are Python calls; an empty one
                # is passed below, as nothing available.)
                keys = offered._keys
                if answered.isdisjoint(keys):  # most offers: none answered yet (one test in C)
                    available = cast("Sequence[Any]", range(len(keys)))
                else:
                    available = [i for i, key in enumerate(keys) if key is None or key not in answered]
            elif not offered:  # most polls of most sides: nothing to filter
                if offered is None or not hasattr(offered, "__len__"):
                    raise TypeError(
                        f"the offers at {timing!r} for {side!r} returned {offered!r}: expected a "
                        "sequence of responses (an empty one when there are none)"
                    )
                passes += 1
                continue
            else:
                lazy = None
                available = [r for r in offered if r.key is None or r.key not in answered]
            if not available:
                passes += 1
                continue
            if frozen_extra is None:
                frozen_extra = freeze_data(extra)
            # ``top.data`` is frozen already: the context is frozen once, not walked again
            top_data = None if top is None else (top.data or freeze_data({"name": top.name}))
            fields = {**frozen_extra, "timing": timing, "depth": depth, "top": top_data}
            # Plain values (``None`` to pass, else an index into ``available``): the player
            # never holds a response, whose closures reach the live game.
            if lazy is not None:
                options: Sequence[Option] = _lazy_menu(lazy, available)
            else:
                options = (_PASS_OPTION, *(_option(i, r.name, r.option_data()) for i, r in enumerate(available)))
            # (built without the class's keyword call: ~210 polls an mttt_rpg game ask)
            pick = yield _plain_choose(side, f"{timing}: respond?", rule, False, kind,
                                      Data(fields) if type(timing) is str else fields, options)
            if pick is None:
                passes += 1
            else:
                index = _index(pick, len(available))
                self.push(available[index] if lazy is None else lazy[available[index]])
                passes = 0


def _lazy_menu(offered: LazyOffers, available: Sequence[int]) -> LazyOptions:
    """The poll's menu for a lazy offer: "pass", then option ``i`` for the offer's response
    ``available[i]``, made (with the response) when read — the options the eager list gives."""
    # Hot: every poll with an offer (mttt_rpg ~180 a game). The values are kept by their count,
    # and where nothing was dropped (``available`` is the offer's own range, most polls) option
    # ``i`` is response ``i``: the offer's bound methods make its label and data, not two new
    # closures (their cells and functions were ~2,500 of ~8,400 instructions a menu).
    count = len(available)
    values = _POLL_VALUES[count] if count < len(_POLL_VALUES) else (_PASS_OPTION, *range(count))
    menu: LazyOptions = _new_object(LazyOptions)
    if type(available) is range:
        _init_menu(menu, values, offered._name_of, offered._data_of)
        return menu

    def label(i: int) -> str:
        return offered[available[i]].name

    def data(i: int) -> Data:
        return offered[available[i]].option_data()

    _init_menu(menu, values, label, data)
    return menu


#: a poll menu's values by its count of responses: "pass", then each response's index
_POLL_VALUES = tuple((_PASS_OPTION, *range(count)) for count in range(17))


def _index(value: Any, length: int) -> int:
    """The option value sent back for a response: its index (a driver sends the chosen
    option's value; anything else is a bug of the driver, reported as such)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < length:
        raise TypeError(f"interrupt stack: expected the index of an offered response, got {value!r}")
    return value
