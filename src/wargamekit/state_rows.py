"""Game states that pickle their units as rows of plain values (issue 9).

A game keeps a snapshot (a pickle of its state) at its checkpoints, every eight answers or so
(see :doc:`/design`, "Checkpoints"). Pickle reduces each attrs instance, and each
:class:`~wargamekit.geometry.Hex` in it, by a call back into Python; a state of a few dozen units
pays that per unit and per hex at every snapshot. :class:`HexRows` gives a ruleset's state a
cheaper ``__reduce__``: its units as tuples read by one C :func:`operator.attrgetter`, pickled in
C, and made again on load. The AIG and LnL states use it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

import attrs

from .geometry.hex import Hex

__all__ = ["HexRows"]

T = TypeVar("T")


class HexRows(Generic[T]):
    """The instances of an attrs class (a ruleset's units) as rows of plain values, for a game
    state's ``__reduce__``: every field in order, the ``hex`` field as its two numbers.

    Hot (issue 9): a snapshot pickles the state every eight answers or so, and reduces each
    attrs instance and each :class:`~wargamekit.geometry.Hex` in it by a call back into Python
    (its reducer, or the shared-object stand-in); a row is read by one C
    :func:`operator.attrgetter` and pickled in C, what the row holds (lists, sets, strings) with
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
        fields = attrs.fields(cls)  # type: ignore[arg-type]  # (an attrs class, or attrs raises)
        if not all(a.init and not a.kw_only for a in fields):
            raise TypeError(f"{cls.__qualname__}: every field must be a positional __init__ argument")
        names = [a.name for a in fields]
        if hex_field not in names:
            raise TypeError(f"{cls.__qualname__}: no field {hex_field!r} to hold the hex (fields: {names})")
        self._make: Callable[..., T] = cls
        self._at = at = names.index(hex_field)
        #: an instance's row
        self.row = operator.attrgetter(*names[:at], f"{hex_field}.q", f"{hex_field}.r", *names[at + 1:])

    def rows(self, objects: Iterable[T]) -> tuple[tuple[Any, ...], ...]:
        """The rows of ``objects``, in order."""
        return tuple(map(self.row, objects))

    def objects(self, rows: Iterable[tuple[Any, ...]]) -> Iterator[T]:
        """The instances ``rows`` were read from, made again, in order."""
        make, at, hex_ = self._make, self._at, Hex  # (locals: read once per row)
        return (make(*row[:at], hex_(row[at], row[at + 1]), *row[at + 2:]) for row in rows)
