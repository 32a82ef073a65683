"""Bounded memos: the one policy for keeping values that are pure functions of their keys.

The core and the rulesets keep many small memos of that kind: parsed scenario text, hexes by
coordinates, line-of-sight offsets, pair keys, position numbers. Each must stay bounded (a
long-lived process may meet keys by the thousand: generated scenes, a search over positions),
and each is read on a hot path, so a hit must cost no more than a ``dict`` read.

The policy: a memo is a plain ``dict``, read as one (``memo.get(key)``, ``memo[key]``), and a
new entry is stored through :func:`remember`, which starts the memo again empty when the entry
would pass its limit.

* Why a plain ``dict`` and not a subclass with ``__missing__``: CPython 3.11 specializes reads
  of an exact ``dict`` only. A hit on a subclass costs ~170–200 instructions more (``memo[key]``
  883 against 687, ``memo.get(key)`` 960 against 792: ``tools/speed/cgloop.py`` with a 100-entry
  memo, session 30), and the hottest memos are read thousands of times a game.
* Why empty it rather than evict the least recently used entry (``functools.lru_cache``): that
  pays bookkeeping on every hit, and hits are the common case; here only a miss pays (a length
  test). The values are pure functions of their keys, so forgetting them costs only their
  remaking, and a working set under the limit is never forgotten.

>>> from wargamekit.memo import remember
>>> squares: dict[int, int] = {}
>>> def square(n: int) -> int:
...     got = squares.get(n)
...     return remember(squares, n, n * n, 2) if got is None else got
>>> square(3), square(4), len(squares)
(9, 16, 2)
>>> square(5), sorted(squares)  # full: it started again, with the new entry alone
(25, [5])
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["remember"]

K = TypeVar("K")
V = TypeVar("V")


def remember(memo: dict[K, V], key: K, value: V, limit: int) -> V:
    """Store ``value`` for ``key`` in ``memo`` and return it; if the memo already holds
    ``limit`` entries, empty it first (see the module doc for why it does not evict one entry
    at a time). Call it on a miss only: a hit is the ``dict``'s own read.

    >>> memo = {"a": 1, "b": 2}
    >>> remember(memo, "c", 3, limit=2), memo
    (3, {'c': 3})
    >>> remember(memo, "d", 4, limit=2), memo
    (4, {'c': 3, 'd': 4})
    """
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value
