"""Player views: what one side may see when it is asked a decision.

A bot, a human at a terminal and the RL adapter all see the game through a :class:`PlayerView`:
the ruleset's redacted state for that side (built lazily, so a random bot never pays for it),
the log filtered to what the side may see, the pending decision, the optional rules in force and
the plugin hooks (so a bot's exact odds see the same add-ons as the rules).

A view's state is built once per :class:`PlayerView` (one per decision a player is asked) and
only when read; what it costs is the ruleset's :meth:`Ruleset.view
<wargamekit.ruleset.Ruleset.view>`, whose contract is there. :func:`detached_copy` is the fast
whole-state copy the default uses.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from ._fastpickle import dumps as fast_dumps
from .decisions import Decision
from .events import Event

if TYPE_CHECKING:
    from .game import Game
    from .ruleset import Ruleset

__all__ = ["PlayerView", "detached_copy"]

T = TypeVar("T")


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
