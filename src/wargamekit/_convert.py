"""Typed attrs converters (``converter=tuple`` would make mypy reject correct calls such as
``PlayerTurns(("a", "b"))``: the builtin is generic, so its parameter type cannot be inferred)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["as_tuple"]


def as_tuple(items: Iterable[Any]) -> tuple[Any, ...]:
    """Any iterable as a tuple (for frozen attrs fields)."""
    return tuple(items)
