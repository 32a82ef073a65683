"""Player views: what one side may see when it is asked a decision.

A bot, a human at a terminal and the RL adapter all see the game through a :class:`PlayerView`:
the ruleset's redacted state for that side (built lazily, so a random bot never pays for it;
shared with the live state for a player that promised only to read it),
the log filtered to what the side may see, the pending decision, the optional rules in force and
the plugin hooks (so a bot's exact odds see the same add-ons as the rules).

A view's state is built once per :class:`PlayerView` (one per decision a player is asked) and
only when read; what it costs is the ruleset's :meth:`Ruleset.view
<wargamekit.ruleset.Ruleset.view>`, whose contract is there. :func:`detached_copy` is the fast
whole-state copy the default uses; :func:`field_copier` the copy of one attrs class, field by field,
for a ruleset's own view, :func:`dict_copier` and :func:`list_copier` the same for a whole dict or
list of records in one call, and :func:`masked_copier` what a side sees of a hidden record.
"""

from __future__ import annotations

import copy
import operator
import pickle
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from ._fastpickle import dumps as fast_dumps
from .decisions import Decision
from .events import Event

if TYPE_CHECKING:
    from .game import Game
    from .ruleset import Ruleset

__all__ = ["CACHE", "PlayerView", "detached_copy", "dict_copier", "field_copier", "list_copier", "masked_copier"]

T = TypeVar("T")
K = TypeVar("K")

#: attrs field metadata (``field(..., metadata=CACHE)``) that marks a derived cache: a value
#: worked out from the object's other fields and kept for speed, which changes no result. What
#: such a field holds depends on which queries ran (a map's movement graph for the unit types
#: searched, its LOS tables once a line was traced), and those can follow a hidden unit, so the
#: non-interference check (:func:`wargamekit.testing.check_non_interference`) leaves it out of
#: the view it compares: a player reads it only through private attributes, never through the
#: rules' answers. Never mark anything else: a field so marked is not checked for leaks.
CACHE: Mapping[str, bool] = MappingProxyType({"wargamekit.cache": True})


def detached_copy(obj: T) -> T:
    """A deep copy of ``obj`` that shares nothing with it, made by a pickle round trip (about
    three times faster than :func:`copy.deepcopy` on attrs states), or by ``deepcopy`` when
    something in it cannot be pickled (a lambda).

    >>> state = {"units": [{"hex": (1, 2), "steps": 2}]}
    >>> seen = detached_copy(state)
    >>> seen["units"][0]["steps"] = 0
    >>> state["units"][0]["steps"]
    2
    """
    try:
        copied: T = pickle.loads(fast_dumps(obj))
        return copied
    except Exception:  # noqa: BLE001 - whatever pickle refuses, deepcopy may still copy
        return copy.deepcopy(obj)


def _field_names(what: str, names: Any) -> frozenset[str]:
    """``names`` (a copier's ``keep`` or ``skip``), checked to be an iterable of field names
    and not one name (whose letters would be taken as names)."""
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise TypeError(f"{what}: expected a tuple of field names, got {names!r}")
    checked = tuple(names)
    for name in checked:
        if not isinstance(name, str):
            raise TypeError(f"{what}: {name!r} is not a field name")
    return frozenset(checked)


def _copy_plan(cls: type, skip: Iterable[str], copier: str = "field_copier") -> tuple[list[str] | None, dict[str, Callable[[Any], Any]]]:
    """How :func:`field_copier` and its bulk forms copy an instance of ``cls``: the assignment
    lines of a copy written out for it (``None``: the class must go through its ``__init__``)
    and, by field name, the copier of each container field (its default is a factory).

    Raises:
        TypeError: ``cls`` is not a class, or ``skip`` is not a tuple of names.
        ValueError: ``cls`` is not an attrs class, or a field is no ``__init__`` argument of
            its own name (``init=False``, an alias), which a copy through ``__init__`` could
            not pass.
    """
    where = f"{copier}({getattr(cls, '__name__', repr(cls))})"
    skip = _field_names(f"{where}: skip", skip)
    fields = attrs.fields(cls)
    odd = [f.name for f in fields if not f.init or f.alias != f.name]
    if odd:
        # Checked in every mode (not an assert): a copier built anyway would drop these fields.
        raise ValueError(f"{where}: every field must be an __init__ argument of its own name, not {', '.join(odd)}")
    containers = {
        # a plain list, dict or set is copied by its own type (cheaper than copy.copy)
        f.name: f.default.factory if f.default.factory in (list, dict, set) else copy.copy
        for f in fields
        if isinstance(f.default, attrs.Factory) and f.name not in skip  # type: ignore[arg-type]
    }
    plain = (
        "__slots__" in cls.__dict__
        and cls.__setattr__ is object.__setattr__  # not frozen, no on_setattr hooks
        and not hasattr(cls, "__attrs_post_init__")
        and all(f.converter is None and f.validator is None and f.on_setattr is None for f in fields)
    )
    if not plain:
        return None, containers
    lines = [f"new.{f.name} = " + (f"copy_{f.name}(obj.{f.name})" if f.name in containers else f"obj.{f.name}")
             for f in fields]
    return lines, containers


def _compile(cls: type, what: str, function: str, source: str, scope: dict[str, Any]) -> Any:
    """The function ``function`` defined by ``source`` (our own), named ``<what CLASS>`` in tracebacks."""
    scope.update(new_instance=object.__new__, cls=cls)
    exec(compile(source, f"<{what} {cls.__qualname__}>", "exec"), scope)  # noqa: S102 - our own source
    return scope[function]


def field_copier(cls: type[T], *, skip: tuple[str, ...] = ()) -> Callable[[T], T]:
    """A function that copies an instance of the attrs class ``cls`` field by field (every
    field read, so a field added later is copied too), with a fresh copy of each field whose
    default is a factory (its lists, sets and dicts) but those in ``skip`` (the caller copies
    them): a few microseconds, against tens for ``attrs.evolve`` or a pickle round trip. For a
    ruleset's :meth:`~wargamekit.ruleset.Ruleset.view`, which copies what changes in play at
    every decision a bot reads; the other fields are shared, so they must be immutable (or
    copied by the caller). :func:`dict_copier` and :func:`list_copier` copy a whole dict or
    list of such instances in one call.

    A plain slotted class (not frozen; no converter, validator or ``__attrs_post_init__``:
    ``__init__`` only assigns) is copied by a function written for it, one assignment per field — twice as
    fast as calling ``__init__`` with every field (a combatant has seventy); any other class
    through its ``__init__``.

    Raises:
        TypeError: ``skip`` is not a tuple of field names (one name alone is refused).
        ValueError: ``cls`` is not an attrs class, or has a field that is no ``__init__``
            argument of its own name (``init=False``, an alias). :func:`dict_copier`,
            :func:`list_copier` and :func:`masked_copier` raise the same.

    >>> import attrs
    >>> @attrs.define
    ... class Unit:
    ...     name: str
    ...     steps: int = 2
    ...     orders: list[str] = attrs.Factory(list)
    >>> unit = Unit("A", orders=["hold"])
    >>> copy_unit = field_copier(Unit)
    >>> seen = copy_unit(unit)
    >>> seen == unit, seen is unit, seen.orders is unit.orders
    (True, False, False)
    """
    lines, containers = _copy_plan(cls, skip)
    if lines is not None:
        body = "".join(f"    {line}\n" for line in lines)
        source = f"def copy_of(obj):\n    new = new_instance(cls)\n{body}    return new\n"
        copy_fields: Callable[[T], T] = _compile(cls, "copy of", "copy_of", source, {f"copy_{k}": v for k, v in containers.items()})
        return copy_fields
    values = operator.attrgetter(*(f.name for f in attrs.fields(cls)))  # type: ignore[arg-type]

    def copy_of(obj: Any) -> Any:
        new = cls(*values(obj))
        for name, copy_value in containers.items():
            object.__setattr__(new, name, copy_value(getattr(obj, name)))
        return new

    return copy_of


def dict_copier(cls: type[T], *, skip: tuple[str, ...] = ()) -> Callable[[Mapping[K, T]], dict[K, T]]:
    """A function that copies a mapping of instances of ``cls`` into a new dict (same keys, same
    order) of copies made as :func:`field_copier` makes them.

    For a plain slotted class the loop and the copy are written out as one function: a view
    copies every unit at every decision a bot reads, and one call for the whole dict saves a
    call per unit (about a tenth of the copy's time, and most of the overhead a profiler adds to it).

    >>> import attrs
    >>> @attrs.define
    ... class Unit:
    ...     steps: int = 2
    ...     orders: list[str] = attrs.Factory(list)
    >>> units = {"A": Unit(orders=["hold"]), "B": Unit(1)}
    >>> seen = dict_copier(Unit)(units)
    >>> seen == units, seen["A"] is units["A"], seen["A"].orders is units["A"].orders
    (True, False, False)
    """
    lines, containers = _copy_plan(cls, skip, "dict_copier")
    if lines is None:
        one = field_copier(cls, skip=skip)
        return lambda records: {key: one(obj) for key, obj in records.items()}
    body = "".join(f"        {line}\n" for line in lines)
    source = (
        "def copy_dict(records):\n    out = {}\n    for key, obj in records.items():\n"
        f"        new = new_instance(cls)\n{body}        out[key] = new\n    return out\n"
    )
    copy_all: Callable[[Mapping[K, T]], dict[K, T]] = _compile(
        cls, "copy of a dict of", "copy_dict", source, {f"copy_{k}": v for k, v in containers.items()}
    )
    return copy_all


def list_copier(cls: type[T], *, skip: tuple[str, ...] = ()) -> Callable[[Iterable[T]], list[T]]:
    """A function that copies an iterable of instances of ``cls`` into a new list of copies
    made as :func:`field_copier` makes them (for a plain slotted class, one function written
    out for the loop and the copy, as :func:`dict_copier`).

    >>> import attrs
    >>> @attrs.define
    ... class Tank:
    ...     hull: int = 0
    >>> tanks = [Tank(1), Tank(2)]
    >>> seen = list_copier(Tank)(tanks)
    >>> seen == tanks, seen[0] is tanks[0]
    (True, False)
    """
    lines, containers = _copy_plan(cls, skip, "list_copier")
    if lines is None:
        one = field_copier(cls, skip=skip)
        return lambda records: [one(obj) for obj in records]
    body = "".join(f"        {line}\n" for line in lines)
    source = (
        "def copy_list(records):\n    out = []\n    append = out.append\n    for obj in records:\n"
        f"        new = new_instance(cls)\n{body}        append(new)\n    return out\n"
    )
    copy_all: Callable[[Iterable[T]], list[T]] = _compile(
        cls, "copy of a list of", "copy_list", source, {f"copy_{k}": v for k, v in containers.items()}
    )
    return copy_all


def masked_copier(cls: type[T], *, keep: tuple[str, ...], mask: Mapping[str, Any] | None = None) -> Callable[[T], T]:
    """A function that makes what a player may see of a hidden instance of ``cls``: the fields
    in ``keep`` copied (they must be immutable values), those in ``mask`` set to the value
    given there, **every other field at its default** (a factory's default made afresh).

    What is shown is listed, not what is hidden: a field added to ``cls`` later is hidden until
    it is kept on purpose. Written out for ``cls`` as one assignment per field (a view may hide
    a dozen pieces at every decision a bot reads); a class that is not plain (see
    :func:`field_copier`) goes through its ``__init__`` with the kept and masked fields.

    Each value in ``mask`` is *shared* by every copy made (it is assigned, not copied), so it
    must be immutable (``None``, a number, a string, a tuple): a list given there would be one
    list in every hidden piece, and a view changing it would change the others.

    Raises:
        TypeError: ``keep`` is not a tuple of field names (one name alone is refused), or
            ``mask`` is not a mapping of field names.
        ValueError: a field is neither kept nor masked and has no default (nothing to show in
            its place), a field is both kept and masked (which is meant is unclear), or
            ``keep`` or ``mask`` names no field of ``cls``.

    >>> import attrs
    >>> @attrs.define
    ... class Piece:
    ...     id: str
    ...     steps: int | None
    ...     locale: str
    ...     origin: str = ""
    ...     history: list[int] = attrs.Factory(list)
    >>> hide = masked_copier(Piece, keep=("id", "locale"), mask={"steps": None})
    >>> hide(Piece("F-2", 3, "Marengo", origin="F02", history=[4]))
    Piece(id='F-2', steps=None, locale='Marengo', origin='', history=[])
    """
    where = f"masked_copier({getattr(cls, '__name__', repr(cls))})"
    kept = _field_names(f"{where}: keep", keep)
    if mask is None:
        mask = {}
    elif not isinstance(mask, Mapping):
        raise TypeError(f"{where}: mask: expected a mapping of field names to values, got {mask!r}")
    mask = dict(mask)
    _field_names(f"{where}: mask", mask)
    lines, _ = _copy_plan(cls, (), "masked_copier")  # checks cls first
    fields = attrs.fields(cls)  # type: ignore[arg-type]
    names = {f.name for f in fields}
    unknown = (kept | set(mask)) - names
    if unknown:
        raise ValueError(f"{where}: no such field: {', '.join(sorted(unknown))}")
    both = kept & set(mask)
    if both:
        raise ValueError(f"{where}: {', '.join(sorted(both))} both kept and masked: name each field in one")
    scope: dict[str, Any] = {}
    assignments: dict[str, str] = {}
    for f in fields:
        if f.name in kept:
            assignments[f.name] = f"obj.{f.name}"
        elif f.name in mask:
            scope[f"mask_{f.name}"] = mask[f.name]
            assignments[f.name] = f"mask_{f.name}"
        elif isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
            if f.default.takes_self:
                raise ValueError(f"{where}: {f.name}'s default needs the instance")
            scope[f"default_{f.name}"] = f.default.factory
            assignments[f.name] = f"default_{f.name}()"
        elif f.default is not attrs.NOTHING:
            scope[f"default_{f.name}"] = f.default
            assignments[f.name] = f"default_{f.name}"
        else:
            raise ValueError(f"{where}: {f.name} has no default to show in its place")
    if lines is not None:
        body = "".join(f"    new.{name} = {value}\n" for name, value in assignments.items())
        source = f"def masked(obj):\n    new = new_instance(cls)\n{body}    return new\n"
    else:
        shown = [f.name for f in fields if f.name in kept or f.name in mask]
        args = ", ".join(f"{name}={assignments[name]}" for name in shown)
        source = f"def masked(obj):\n    return cls({args})\n"
    masked: Callable[[T], T] = _compile(cls, "masked copy of", "masked", source, scope)
    return masked


class PlayerView:
    """What one side may see when asked a decision.

    Attributes:
        side: the side whose view this is (``None``: an all-seeing observer).
        decision: the decision this side is asked now, or ``None``.
        shared: whether :attr:`state` is the ruleset's
            :meth:`~wargamekit.ruleset.Ruleset.shared_view` (handed to a player that promised
            only to read it) rather than its :meth:`~wargamekit.ruleset.Ruleset.view`.
    """

    __slots__ = ("side", "decision", "shared", "_game", "_state", "_log")

    def __init__(self, game: Game, side: str | None, decision: Decision | None, *, shared: bool = False) -> None:
        self.side = side
        self.decision = decision
        # handed to a player that promised never to write it (reads_view_only): the shared
        # view may be (part of) the live state, valid only during that choose call
        self.shared = shared
        self._game = game
        self._state: Any = None
        self._log: list[Event] | None = None

    @property
    def state(self) -> Any:
        """The side's view of the game state: built on the first read, then shared by every
        later read of this view. A copy that changing changes nothing
        (:meth:`~wargamekit.ruleset.Ruleset.view`), or, for a view handed to a player that
        promised only to read it (:attr:`shared`), the ruleset's
        :meth:`~wargamekit.ruleset.Ruleset.shared_view`, which may share the live state."""
        if self._state is None:
            game = self._game
            if self.shared:
                self._state = game.ruleset.shared_view(game.state, self.side)
            else:
                self._state = game.ruleset.view(game.state, self.side)
        return self._state

    @property
    def log(self) -> list[Event]:
        """The events this side may see, oldest first."""
        if self._log is None:
            self._log = [e for e in self._game.log if e.visible_to(self.side)]
        return self._log

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset being played (bots call its pure resolution helpers)."""
        return self._game.ruleset

    @property
    def options(self) -> Mapping[str, Any]:
        """The optional rules in force."""
        return dict(self._game.options)

    @property
    def hooks(self) -> Any:
        """The plugin hooks in force (pass them to a ruleset's odds helpers), or ``None``."""
        return self._game.hooks

    @property
    def decisions_made(self) -> int:
        """How many answers the game has recorded so far (a cheap clock for bots)."""
        return len(self._game.choices)
