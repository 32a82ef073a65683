"""Errors by cause, so callers can tell a typo from a rule from a broken file.

All are :class:`ValueError` or :class:`LookupError` subclasses, like python-chess's move errors.
"""

from __future__ import annotations

__all__ = [
    "IllegalChoiceError",
    "InvalidChoiceError",
    "NotYourTurnError",
    "SaveError",
    "ScenarioError",
    "UnknownRulesetError",
    "WargamekitError",
]


class WargamekitError(Exception):
    """Base of every error wargamekit raises on purpose."""


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


class NotYourTurnError(WargamekitError, ValueError):
    """An answer was given for a side that is not the one being asked."""


class ScenarioError(WargamekitError, ValueError):
    """A scenario file or table is malformed; the message names the path to the bad field."""

    def __init__(self, message: str, *, path: str = "$", source: str | None = None) -> None:
        self.path = path
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{path}: {message}")


class SaveError(WargamekitError, ValueError):
    """A save file is malformed, names a missing ruleset or another ruleset version, or does not
    replay. Nothing is half-loaded."""


class UnknownRulesetError(WargamekitError, LookupError):
    """No installed ruleset has the name asked for."""
