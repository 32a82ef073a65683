"""Errors by cause, so callers can tell a typo from a rule from a broken file.

Every error wargamekit raises on purpose is a :class:`WargamekitError`. Each also keeps the
builtin base a caller would expect (like python-chess's move errors are :class:`ValueError`):

========================  ===================================  ==========================
cause                     error                                builtin base
========================  ===================================  ==========================
cannot parse an answer    :class:`InvalidChoiceError`          ``ValueError``
not legal here            :class:`IllegalChoiceError`          ``ValueError``
not your turn             :class:`NotYourTurnError`            ``ValueError``
a ruleset's bad option    :class:`OptionError`                 ``TypeError``
an option read too late   :class:`StaleOptionError`            ``TypeError``
game over                 :class:`GameOverError`               ``ValueError``
unknown ruleset           :class:`UnknownRulesetError`         ``LookupError``
unknown scenario          :class:`UnknownScenarioError`        ``LookupError``
unknown or broken add-on  :class:`UnknownAddonError`           ``LookupError``
bad scenario              :class:`ScenarioError`               ``ValueError``
bad save                  :class:`SaveError`                   ``ValueError``
branch limit (odds)       :class:`BranchLimitError`            ``RuntimeError``
impure odds procedure     :class:`ImpureProcedureError`        ``ValueError``
endless game              :class:`DecisionLimitError`          ``RuntimeError``
a checkpoint misused      :class:`CheckpointError`             ``RuntimeError``
scripted dice ran out     :class:`DiceScriptError`             ``ValueError``
bad hex label             :class:`HexLabelError`               ``ValueError``
off the map               :class:`OffMapError`                 ``ValueError``
locale map look-ups       :class:`UnknownLocaleError`,         ``ValueError``
                          :class:`NotAdjacentError`,
                          :class:`NoApproachError`
the interrupt stack       :class:`InterruptStackError`,        ``RuntimeError``
                          :class:`UnresolvedItemError`
a human quits             :class:`QuitGame`                    —
========================  ===================================  ==========================

>>> from wargamekit import find_ruleset
>>> try:
...     find_ruleset("chess")
... except WargamekitError as exc:
...     print(type(exc).__name__)
UnknownRulesetError
"""

from __future__ import annotations

__all__ = [
    "BranchLimitError",
    "CheckpointError",
    "DecisionLimitError",
    "DiceScriptError",
    "GameOverError",
    "HexLabelError",
    "IllegalChoiceError",
    "ImpureProcedureError",
    "InterruptStackError",
    "InvalidChoiceError",
    "NoApproachError",
    "NotAdjacentError",
    "NotYourTurnError",
    "OffMapError",
    "OptionError",
    "QuitGame",
    "SaveError",
    "ScenarioError",
    "StaleOptionError",
    "UnknownAddonError",
    "UnknownLocaleError",
    "UnknownRulesetError",
    "UnknownScenarioError",
    "UnresolvedItemError",
    "WargamekitError",
]


class WargamekitError(Exception):
    """Base of every error wargamekit raises on purpose."""


# -- answering decisions -------------------------------------------------------------------------
class InvalidChoiceError(WargamekitError, ValueError):
    """An answer could not be read at all (wrong type, out of range, unknown label)."""


class IllegalChoiceError(WargamekitError, ValueError):
    """A well-formed choice that the rules do not allow here.

    Args:
        rule: the rule that forbids it, cited as the rulebook does (e.g. ``"4.2 Reversing"``).
        reason: why, in a sentence.
    """

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"illegal choice [{rule}]: {reason}" if rule else f"illegal choice: {reason}")

    def __reduce__(self) -> tuple[type, tuple[str, str]]:  # picklable across processes
        return (type(self), (self.rule, self.reason))


class OptionError(WargamekitError, TypeError):
    """A ruleset made an option that is not one: a lazy label that makes no ``str``, or a lazy
    menu's option data that is not JSON (raised when the option is made, i.e. first read; see
    :class:`~wargamekit.decisions.LazyOptions`)."""


class StaleOptionError(OptionError):
    """A lazy label, option or value (made from its key) of a decision was first read after the
    decision was answered: it is lazy and was not made while the decision was pending, and
    what it would be made from has moved on since, so it is not made at all (the decision is
    *sealed* when answered; see :class:`~wargamekit.decisions.LazyOptions`). What was read
    before the answer stays readable. Read it while the decision is pending, or build the menu
    eagerly."""


class NotYourTurnError(WargamekitError, ValueError):
    """An answer was given for a side that is not the one being asked."""


class GameOverError(WargamekitError, ValueError):
    """An answer was given after the game ended."""


class DecisionLimitError(WargamekitError, RuntimeError):
    """A game asked more decisions than its limit allows: the rules (or the players) loop."""


class CheckpointError(WargamekitError, RuntimeError):
    """A ruleset's checkpoint cannot be used: the interrupt stack is not empty there, or
    :meth:`~wargamekit.ruleset.Ruleset.play` restarted on the state saved there does not reach
    the same checkpoint first (a bug in the ruleset, named with the checkpoint's label)."""


class QuitGame(WargamekitError):
    """A human player stopped the game (typed ``quit``); the driver saves and stops."""


# -- finding and loading -------------------------------------------------------------------------
class UnknownRulesetError(WargamekitError, LookupError):
    """No installed ruleset has the name asked for."""


class UnknownScenarioError(WargamekitError, LookupError):
    """A ruleset has no bundled scenario of the name asked for."""


class UnknownAddonError(WargamekitError, LookupError):
    """An add-on asked for is not installed, or was left out because it is broken."""


class ScenarioError(WargamekitError, ValueError):
    """A scenario file or table is malformed; the message names the path to the bad field."""

    def __init__(self, message: str, *, path: str = "$", source: str | None = None) -> None:
        self.path = path
        self.source = source
        self.reason = message
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{path}: {message}")

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_scenario_error, (self.reason, self.path, self.source))


def _rebuild_scenario_error(message: str, path: str, source: str | None) -> ScenarioError:
    return ScenarioError(message, path=path, source=source)


class SaveError(WargamekitError, ValueError):
    """A save file is malformed, names a missing ruleset or another ruleset version, or does not
    replay. Nothing is half-loaded."""


# -- chance --------------------------------------------------------------------------------------
class DiceScriptError(WargamekitError, ValueError):
    """Scripted dice ran out, or a scripted face is impossible for the die rolled."""


class BranchLimitError(WargamekitError, RuntimeError):
    """Exact-odds enumeration was refused or stopped: the procedure has more branches than
    allowed."""


class ImpureProcedureError(WargamekitError, ValueError):
    """An exact-odds procedure took another course when run again with the same dice: it is not
    a pure function of its arguments and the dice."""


# -- geometry ------------------------------------------------------------------------------------
class HexLabelError(WargamekitError, ValueError):
    """A hex label (``"0304"``) cannot be read."""


class OffMapError(WargamekitError, ValueError):
    """A hex is not on the map."""


class UnknownLocaleError(WargamekitError, ValueError):
    """No locale has this id."""


class NotAdjacentError(WargamekitError, ValueError):
    """Two locales are not adjacent."""


class NoApproachError(WargamekitError, ValueError):
    """A locale has no approach of this name, or none toward that neighbour."""


# -- flow ----------------------------------------------------------------------------------------
class InterruptStackError(WargamekitError, RuntimeError):
    """The interrupt stack was used against its protocol (e.g. an item left unresolved when the
    window that should resolve it closed)."""


class UnresolvedItemError(InterruptStackError):
    """An item on the :class:`InterruptStack` would never resolve: a window opened with its
    floor above an item that no open window lies below (the ruleset's bug, not a player's).

    Args:
        item: the name of the stranded item.
        window: the timing point of the window that leaves it behind.
        reason: why, in a sentence.
    """

    def __init__(self, item: str, window: str, reason: str) -> None:
        self.item = item
        self.window = window
        self.reason = reason
        super().__init__(f"interrupt stack: {item!r} would never resolve (window {window!r}): {reason}")
