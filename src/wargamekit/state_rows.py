"""Game states that pickle their units as rows of plain values (issue 9).

A game keeps a snapshot (a pickle of its state) at its checkpoints, every eight answers or so
(see :doc:`/design`, "Checkpoints"). Pickle reduces each attrs instance, and each
:class:`~wargamekit.geometry.Hex` in it, by a call back into Python; a state of a few dozen units
pays that per unit and per hex at every snapshot. :class:`HexRows` gives a ruleset's state a
cheaper ``__reduce__``: its units as tuples read by one compiled reader
(``wargamekit._fastpickle.attribute_reader``), pickled in C, and made again on load;
:class:`StateRows` is the whole ``__reduce__`` of a state that holds its units in a dict by
name. The AIG and LnL states use it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

import attrs

from ._fastpickle import _FORMED, _FORMS, _make, attribute_reader
from .geometry.hex import Hex

__all__ = ["HexRows", "StateRows"]

T = TypeVar("T")
S = TypeVar("S")


def _positional_fields(cls: type) -> list[str]:
    """The names of ``cls``'s fields, every one a positional ``__init__`` argument (or raise)."""
    fields = attrs.fields(cls)  # (an attrs class, or attrs raises)
    if not all(a.init and not a.kw_only for a in fields):
        raise TypeError(f"{cls.__qualname__}: every field must be a positional __init__ argument")
    return [a.name for a in fields]


class HexRows(Generic[T]):
    """The instances of an attrs class (a ruleset's units) as rows of plain values, for a game
    state's ``__reduce__``: every field in order, the ``hex`` field as its two numbers.

    Hot (issue 9): a snapshot pickles the state every eight answers or so, and reduces each
    attrs instance and each :class:`~wargamekit.geometry.Hex` in it by a call back into Python
    (its reducer, or the shared-object stand-in); a row is read by one function of plain
    attribute reads (``lambda o: (o.name, o.hex.q, o.hex.r, ...)``, which the interpreter
    specialises to slot reads) and pickled in C, what the row holds (lists, sets, strings) with
    pickle's memo as before. :meth:`objects` makes the instances again by the class's
    ``__init__`` (with a new equal Hex each), so they must be held nowhere else in the pickled
    state, and every field must be an ``__init__`` argument in order.

    What the form does not keep: an instance of a subclass comes back as ``cls``; the hex field
    must hold a :class:`~wargamekit.geometry.Hex` (``None``, an undeployed unit, cannot be read
    as two numbers); and ``__init__`` runs again on load, with the class's converters,
    validators and ``__attrs_post_init__`` (a class whose ``__init__`` changes what it is given
    does not come back equal).

    >>> import attrs
    >>> from wargamekit.geometry import Hex
    >>> @attrs.define
    ... class Counter:
    ...     name: str
    ...     hex: Hex
    ...     hits: int = 0
    >>> form = HexRows(Counter)
    >>> form.rows([Counter("a", Hex(2, -1), 1)])
    (('a', 2, -1, 1),)
    >>> list(form.objects(form.rows([Counter("a", Hex(2, -1), 1)])))
    [Counter(name='a', hex=Hex(2, -1), hits=1)]
    """

    def __init__(self, cls: type[T], hex_field: str = "hex") -> None:
        names = _positional_fields(cls)
        if hex_field not in names:
            raise TypeError(f"{cls.__qualname__}: no field {hex_field!r} to hold the hex (fields: {names})")
        self._make: Callable[..., T] = cls
        self._at = at = names.index(hex_field)
        #: an instance's row
        self.row = attribute_reader([*names[:at], f"{hex_field}.q", f"{hex_field}.r", *names[at + 1:]])

    def rows(self, objects: Iterable[T]) -> tuple[tuple[Any, ...], ...]:
        """The rows of ``objects``, in order."""
        return tuple(map(self.row, objects))

    def objects(self, rows: Iterable[tuple[Any, ...]]) -> Iterator[T]:
        """The instances ``rows`` were read from, made again, in order."""
        make, at, hex_ = self._make, self._at, Hex  # (locals: read once per row)
        return (make(*row[:at], hex_(row[at], row[at + 1]), *row[at + 2:]) for row in rows)


class StateRows(Generic[S]):
    """A game state's whole ``__reduce__``: its fields' values, with its units (a dict of units
    by name, one of its fields) as :class:`HexRows`, and the state made again on load.

    A ruleset's state returns ``form.reduce(self)`` from its ``__reduce__``; the form is made
    once, after the class (at import, so that a load in a fresh process finds it). The loaded
    state is made by the class's ``__init__`` with every field's value (the units made by
    :meth:`HexRows.objects`, so held nowhere else in the pickled state), and names its form by
    the class's ``"module:qualname"``, which must lead back to the class. Every field must be a
    positional ``__init__`` argument, as for :class:`HexRows`. As there, an instance of a
    subclass comes back as the form's class, and the state's ``__init__`` runs again on load.

    >>> import attrs, pickle
    >>> from wargamekit.geometry import Hex
    >>> @attrs.define
    ... class Counter:
    ...     name: str
    ...     hex: Hex
    >>> @attrs.define
    ... class State:
    ...     turn: int
    ...     units: dict[str, Counter]
    ...     def __reduce__(self):
    ...         return FORM.reduce(self)
    >>> FORM = StateRows(State, HexRows(Counter))
    >>> FORM.reduce(State(3, {"a": Counter("a", Hex(2, -1))}))[1][2:]
    ((3,), ('a',), (('a', 2, -1),))
    >>> FORM.state((3,), ("a",), (("a", 2, -1),))
    State(turn=3, units={'a': Counter(name='a', hex=Hex(2, -1))})
    """

    def __init__(self, cls: type[S], units: HexRows[Any], field: str = "units") -> None:
        names = _positional_fields(cls)
        if field not in names:
            raise TypeError(f"{cls.__qualname__}: no field {field!r} to hold the units (fields: {names})")
        self._make: Callable[..., S] = cls
        self._at = at = names.index(field)
        self._units = operator.attrgetter(field)
        others = names[:at] + names[at + 1 :]
        #: the other fields' values, in order, as one tuple
        self._values: Callable[[S], tuple[Any, ...]] = attribute_reader(others)
        self._row = units.row
        self._objects = units.objects
        #: how a pickle names this form: the class's ``"module:qualname"`` (a load in a fresh
        #: process imports the class's module, which makes the form)
        self.key = f"{cls.__module__}:{cls.__qualname__}"
        _FORMS[self.key] = self.state

    def reduce(self, state: S) -> tuple[Any, ...]:
        """What ``state.__reduce__()`` returns: :meth:`state` called with its values, its
        units' names and their rows (through a loader that finds this form by :attr:`key`)."""
        # Hot: a snapshot every eight answers or so pickles the state (C calls only, but one).
        units = self._units(state)
        return _make, (_FORMED, self.key, self._values(state), tuple(units), tuple(map(self._row, units.values())))

    def state(self, values: tuple[Any, ...], names: tuple[str, ...], rows: tuple[tuple[Any, ...], ...]) -> S:
        """The state :meth:`reduce` read: its other fields' ``values`` in order, its units
        under ``names`` made again from ``rows``."""
        at = self._at
        units = dict(zip(names, self._objects(rows), strict=True))
        return self._make(*values[:at], units, *values[at:])

