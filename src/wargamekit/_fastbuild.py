"""Building frozen attrs instances with plain attribute writes (internal; hot paths only).

A frozen attrs class refuses ``obj.field = value`` (its ``__setattr__`` raises), so the core's
hot builders set each slot through the slot descriptor's ``__set__`` — one C call per field,
~40 ns each, half of building an :class:`~wargamekit.events.Event` (issue 9: a decision of the
rule-free game builds two events, a roll and four options through such calls).

:func:`builder` gives a subclass that adds no slot and takes plain writes; an instance of it,
its fields written, is turned into the frozen class by assigning ``__class__`` (allowed: the
two layouts are the same). What comes out is an instance of the frozen class exactly as the
slot setters would make it; the builder class never escapes its function.

>>> from attrs import frozen
>>> @frozen
... class Point:
...     x: int
...     y: int
>>> PointBuilder = builder(Point)
>>> p = object.__new__(PointBuilder)
>>> p.x, p.y = 1, 2
>>> p.__class__ = Point
>>> p, type(p) is Point, p == Point(1, 2)
(Point(x=1, y=2), True, True)
"""

from __future__ import annotations

from typing import Any

__all__ = ["builder", "set_class"]

#: ``object``'s own ``__class__`` assignment: what turns an instance of its own frozen class
#: into its builder and back, for an ``__init__`` that writes itself as its builder (a frozen
#: class refuses the assignment through its own ``__setattr__``).
set_class = object.__dict__["__class__"].__set__


def builder(cls: type) -> type[Any]:
    """A subclass of ``cls`` (a slotted class) with no slot of its own whose instances accept
    plain attribute writes: build one with ``object.__new__``, write its fields, then assign
    ``__class__ = cls``. Both ``__setattr__`` and ``__delattr__`` are ``object``'s own, so that
    Python takes the C setter for attribute writes (with only one of them it calls a Python
    wrapper, slower than the slot setters)."""
    if "__dict__" in dir(cls) and not hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} is not a slotted class")
    return type(
        f"_{cls.__name__}Builder",
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__module__": cls.__module__,
            "__qualname__": f"_{cls.__qualname__}Builder",
        },
    )
