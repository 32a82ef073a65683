"""Player views: what one side may see when it is asked a decision.

A bot, a human at a terminal and the RL adapter all see the game through a :class:`PlayerView`:
the ruleset's redacted state for that side (built lazily, so a random bot never pays for it),
the log filtered to what the side may see, the pending decision, the optional rules in force and
the plugin hooks (so a bot's exact odds see the same add-ons as the rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .decisions import Decision
from .events import Event

if TYPE_CHECKING:
    from .game import Game
    from .ruleset import Ruleset

__all__ = ["PlayerView"]


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
        """The side's view of the game state (a copy; changing it changes nothing)."""
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
