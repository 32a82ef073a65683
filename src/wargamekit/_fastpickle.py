"""``pickle.dumps`` for game states, a third faster on attrs classes (issue 9).

Snapshots at checkpoints and views' detached copies pickle the whole game state, which is mostly
slotted attrs instances (units, hexes, maps). attrs pickles those through its generated Python
``__getstate__`` (a dict comprehension per object); here the same instances reduce to their
field values read by one C :func:`operator.attrgetter`, which attrs' own ``__setstate__`` reads
back (it accepts a tuple of the field values in field order). The loaded objects are the same;
any class that customises its pickling in any way takes pickle's ordinary path.
"""

from __future__ import annotations

import copyreg
import io
import operator
import pickle
from collections.abc import Callable
from typing import Any

import attrs

__all__ = ["dumps"]

#: class -> its field getter, or ``False`` for a class pickled the ordinary way
_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]] | bool] = {}


def _attrs_pickled(cls: type) -> bool:
    """Whether ``cls`` pickles exactly through attrs' generated slotted-class state methods."""
    getstate = getattr(cls, "__getstate__", None)
    setstate = getattr(cls, "__setstate__", None)
    return (
        attrs.has(cls)
        and "__slots__" in cls.__dict__  # not a plain subclass with a __dict__ of its own
        and getattr(getstate, "__name__", "") == "slots_getstate"
        and getattr(setstate, "__name__", "") == "slots_setstate"
        and getattr(getstate, "__module__", "") == getattr(setstate, "__module__", "") == "attr._make"
        and cls.__reduce_ex__ is object.__reduce_ex__
        and cls.__reduce__ is object.__reduce__
        and not hasattr(cls, "__getnewargs_ex__")
        and not hasattr(cls, "__getnewargs__")
        and cls not in copyreg.dispatch_table
    )


def _getter(cls: type) -> Callable[[Any], tuple[Any, ...]] | bool:
    getter: Callable[[Any], tuple[Any, ...]] | bool = False
    if _attrs_pickled(cls):
        # attrs' state: every field but __weakref__, in field order (inherited ones first)
        names = [a.name for a in cls.__attrs_attrs__ if a.name != "__weakref__"]  # type: ignore[attr-defined]
        if len(names) > 1:
            getter = operator.attrgetter(*names)
        elif names:
            one = operator.attrgetter(names[0])
            getter = lambda obj: (one(obj),)  # noqa: E731 - attrgetter of one name is no tuple
    _GETTERS[cls] = getter
    return getter


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        # Called by pickle for every object that is not a builtin container or scalar.
        cls = type(obj)
        getter = _GETTERS.get(cls)
        if getter is None:
            getter = _getter(cls)
        if getter is False:
            return NotImplemented
        # What object.__reduce_ex__ gives (cls.__new__, then attrs' __setstate__), with the
        # state as the tuple of field values instead of a dict built in Python.
        return (copyreg.__newobj__, (cls,), getter(obj))  # type: ignore[attr-defined,operator]


def dumps(obj: Any) -> bytes:
    """``pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)``, faster on attrs instances
    (:func:`pickle.loads` reads it back to the same objects)."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()
