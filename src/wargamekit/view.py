"""Player views: what one side may see when it is asked a decision.

A bot, a human at a terminal and the RL adapter all see the game through a :class:`PlayerView`:
the ruleset's redacted state for that side (built lazily, so a random bot never pays for it),
the log filtered to what the side may see, the pending decision, the optional rules in force and
the plugin hooks (so a bot's exact odds see the same add-ons as the rules).

A view's state is built once per :class:`PlayerView` (one per decision a player is asked) and
only when read; what it costs is the ruleset's :meth:`Ruleset.view
<wargamekit.ruleset.Ruleset.view>`, whose contract is there. :func:`detached_copy` is the fast
whole-state copy the default uses; :func:`field_copier` the copy of one attrs class, field by field,
for a ruleset's own view.
"""

from __future__ import annotations

import copy
import operator
import pickle
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from ._fastpickle import dumps as fast_dumps
from .decisions import Decision
from .events import Event

if TYPE_CHECKING:
    from .game import Game
    from .ruleset import Ruleset

__all__ = ["CACHE", "PlayerView", "detached_copy", "field_copier"]

T = TypeVar("T")

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


def field_copier(cls: type[T], *, skip: tuple[str, ...] = ()) -> Callable[[T], T]:
    """A function that copies an instance of the attrs class ``cls`` field by field (every
    field read, so a field added later is copied too), with a fresh copy of each field whose
    default is a factory (its lists, sets and dicts) but those in ``skip`` (the caller copies
    them): a few microseconds, against tens for ``attrs.evolve`` or a pickle round trip. For a
    ruleset's :meth:`~wargamekit.ruleset.Ruleset.view`, which copies what changes in play at
    every decision a bot reads; the other fields are shared, so they must be immutable (or
    copied by the caller).

    A plain slotted class (not frozen; no converter, validator or ``__attrs_post_init__``:
    ``__init__`` only assigns) is copied by a function written for it, one assignment per field — twice as
    fast as calling ``__init__`` with every field (a combatant has seventy); any other class
    through its ``__init__``.

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
    fields = attrs.fields(cls)  # type: ignore[arg-type]
    assert all(f.init and f.alias == f.name for f in fields), f"{cls.__name__}: fields must be __init__ arguments"
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
    if plain:
        lines = [f"    new.{f.name} = " + (f"copy_{f.name}(obj.{f.name})" if f.name in containers else f"obj.{f.name}")
                 for f in fields]
        source = "def copy_of(obj):\n    new = new_instance(cls)\n" + "\n".join(lines) + "\n    return new\n"
        scope: dict[str, Any] = {"new_instance": object.__new__, "cls": cls, **{f"copy_{k}": v for k, v in containers.items()}}
        exec(compile(source, f"<copy of {cls.__qualname__}>", "exec"), scope)  # noqa: S102 - our own source
        copy_fields: Callable[[T], T] = scope["copy_of"]
        return copy_fields
    values = operator.attrgetter(*(f.name for f in fields))

    def copy_of(obj: Any) -> Any:
        new = cls(*values(obj))
        for name, copy_value in containers.items():
            object.__setattr__(new, name, copy_value(getattr(obj, name)))
        return new

    return copy_of


class PlayerView:
    """What one side may see when asked a decision.

    Attributes:
        side: the side whose view this is (``None``: an all-seeing observer).
        decision: the decision this side is asked now, or ``None``.
    """

    __slots__ = ("side", "decision", "_game", "_state", "_log")

    def __init__(self, game: Game, side: str | None, decision: Decision | None) -> None:
        self.side = side
        self.decision = decision
        self._game = game
        self._state: Any = None
        self._log: list[Event] | None = None

    @property
    def state(self) -> Any:
        """The side's view of the game state (changing it changes nothing): built on the first
        read, then shared by every later read of this view."""
        if self._state is None:
            self._state = self._game.ruleset.view(self._game.state, self.side)
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
