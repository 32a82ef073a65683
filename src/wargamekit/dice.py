"""The dice service: every random draw of every ruleset goes through it.

A :class:`Dice` knows the dice of all bundled rulesets — d6 and nd6, d10 read 0–9 (AIG: "0 is
0, not 10"), d20, success-counting d10 pools (Exalted-style: 7+ is a success, a 10 counts twice
unless a rule says not), a uniform integer in ``[lo, hi]`` (the tank game's random-number
generator) and a coin toss.

Every draw reduces to one primitive, ``Dice._pick``, which picks one of a finite list of
weighted outcomes (a subclass overrides it, or ``_face`` for a single die). The three services
differ only in how they pick:

* :class:`SeededDice` draws from a seeded :class:`numpy.random.Generator` (play, simulation);
* :class:`ScriptedDice` takes forced faces from a script (tests);
* :class:`wargamekit.odds.EnumeratingDice` hands out lazy die values whose every outcome is
  enumerated (exact odds; it overrides :meth:`Dice.roll` and :meth:`Dice.pool` too).

Every draw is recorded as a :class:`Roll` with its purpose, and passed to the ``on_roll``
observer (the game log uses it).

>>> dice = ScriptedDice([3, 4, 0])
>>> dice.nd6(2, "fire: 2d6 to hit")
(3, 4)
>>> dice.d10("seize attempt")
0
>>> [roll.purpose for roll in dice.rolls]
['fire: 2d6 to hit', 'seize attempt']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import Any

import numpy as np
from attrs import define, field, frozen

from ._fastbuild import builder
from .decisions import _bounded, _random_int
from .errors import DiceScriptError

__all__ = [
    "Dice",
    "Die",
    "PoolRoll",
    "Roll",
    "ScriptedDice",
    "SeededDice",
    "pool_distribution",
]



@frozen
class Die:
    """A uniform die with faces ``low..high`` inclusive.

    >>> Die(1, 6)
    Die(low=1, high=6)
    >>> Die(0, 9).faces
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
    """

    low: int
    high: int = field()

    @high.validator
    def _check(self, _attribute: Any, value: int) -> None:
        if value < self.low:
            raise ValueError(f"a die needs high >= low, got {self.low}..{value}")

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face, lowest first."""
        return tuple(range(self.low, self.high + 1))

    @cached_property  # (read for every roll's record: made once per die, then a slot read)
    def name(self) -> str:
        """Conventional name: ``d6``, ``d10(0-9)``, ``d[3-17]``."""
        if self.low == 1:
            return f"d{self.high}"
        if self.low == 0:
            return f"d{self.high + 1}({self.low}-{self.high})"
        return f"d[{self.low}-{self.high}]"


D6 = Die(1, 6)
D10_ZERO = Die(0, 9)
D10 = Die(1, 10)
D20 = Die(1, 20)


@frozen
class Roll:
    """One recorded draw: which dice, why, and the faces that came up.

    ``kind`` names the dice (``"d6"``, ``"2d6"``, ``"pool(5)"`` …); ``faces`` are the faces in
    the order drawn; ``value`` is their sum (the face itself for one die; for :meth:`Dice.pick`
    the index picked), or for a pool its success count.
    """

    purpose: str
    kind: str
    faces: tuple[int, ...]
    value: int
    audience: tuple[str, ...] | None = None


# The slots' own setters: what Roll's attrs __init__ does (no converters, no validators).
_new_roll = object.__new__
_set_purpose = Roll.__dict__["purpose"].__set__
_set_kind = Roll.__dict__["kind"].__set__
_set_faces = Roll.__dict__["faces"].__set__
_set_value = Roll.__dict__["value"].__set__
_set_audience = Roll.__dict__["audience"].__set__
#: Hot: every draw is recorded as a Roll, built by plain writes (see _fastbuild), not the setters.
_RollBuilder = builder(Roll)


@frozen
class PoolRoll:
    """The result of a success-counting d10 pool (MTTT's Exalted-style pools).

    ``successes`` already applies the pool's rules (target number, doubling); ``tens`` counts
    the dice showing 10. ``faces`` are the dice read 1–10. Under exact enumeration the faces
    are representatives of their class (1 = a failure, the target number = a single success
    below 10, ``double_at`` = a double below 10, 10 = a ten): enumeration works on these
    classes, not on ten faces per die, so a pool of 10 dice is 66 branches rather than ten
    billion. ``successes`` and ``tens`` are exact either way.
    """

    successes: int
    faces: tuple[int, ...]
    tens: int = 0


def _pool_classes(target: int, double_at: int | None) -> tuple[int, int, int]:
    """Numbers of faces (of 10) that fail, succeed once, succeed twice."""
    if not 1 <= target <= 10:
        raise ValueError(f"pool target number must be 1..10, got {target}")
    if double_at is not None and not target <= double_at <= 10:
        raise ValueError(f"pool double_at must be between the target {target} and 10, got {double_at}")
    fails = target - 1
    doubles = 0 if double_at is None else 11 - double_at
    singles = 10 - fails - doubles
    return fails, singles, doubles


def _pool_face_classes(target: int, double_at: int | None) -> list[tuple[int, int]]:
    """(representative face, number of faces of 10) of each class a pool die falls in:
    failures, singles below 10, doubles below 10, and the ten on its own, so that both the
    successes and the tens of an enumerated pool are exact. Empty classes are left out."""
    _pool_classes(target, double_at)  # validates
    top = 10 if double_at is None else double_at  # first face that is a double (or the ten)
    classes = [(1, target - 1), (target, min(top, 10) - target), (top, 10 - top), (10, 1)]
    return [(face, count) for face, count in classes if count > 0]


def pool_distribution(
    n: int, *, target: int = 7, double_at: int | None = 10
) -> dict[int, Fraction]:
    """Exact distribution of the success count of ``n`` d10s.

    >>> dist = pool_distribution(1)
    >>> dist[0], dist[1], dist[2]
    (Fraction(3, 5), Fraction(3, 10), Fraction(1, 10))
    """
    fails, singles, doubles = _pool_classes(target, double_at)
    out: dict[int, Fraction] = {}
    for k_single in range(n + 1):
        for k_double in range(n - k_single + 1):
            k_fail = n - k_single - k_double
            ways = comb(n, k_single) * comb(n - k_single, k_double)
            weight = ways * fails**k_fail * singles**k_single * doubles**k_double
            if weight:
                key = k_single + 2 * k_double
                out[key] = out.get(key, Fraction(0)) + Fraction(weight, 10**n)
    return dict(sorted(out.items()))


@define
class Dice:
    """Base dice service. Subclasses implement :meth:`_pick`; everything else is shared.

    Args:
        on_roll: called with each :class:`Roll` as it is made (the game log listens here).
    """

    on_roll: Callable[[Roll], None] | None = field(default=None, kw_only=True)
    rolls: list[Roll] = field(factory=list, init=False)
    audience: tuple[str, ...] | None = field(default=None, init=False)

    @contextmanager
    def secret(self, audience: Iterable[str] | str) -> Iterator[None]:
        """Within this block, rolls are recorded as visible only to ``audience`` (hidden
        information, e.g. a secretly rolled special round): sides, or one side's name.

        >>> dice = ScriptedDice([4])
        >>> with dice.secret(["allies"]):
        ...     _ = dice.d6("hidden deployment")
        >>> dice.rolls[0].audience
        ('allies',)
        """
        from .events import audience_of

        previous = self.audience
        self.audience = audience_of(audience)
        try:
            yield
        finally:
            self.audience = previous

    # -- the one primitive ------------------------------------------------------------------
    def _pick(self, weights: Sequence[int], purpose: str, forced_kind: str) -> int:
        """Return an index into ``weights`` (positive integers, relative probabilities)."""
        raise NotImplementedError

    def _record(self, purpose: str, kind: str, faces: tuple[int, ...], value: int) -> None:
        # Roll(...) by plain writes on a _RollBuilder (hot: every draw of every game is recorded)
        roll = _new_roll(_RollBuilder)
        roll.purpose = purpose
        roll.kind = kind
        roll.faces = faces
        roll.value = value
        roll.audience = self.audience
        roll.__class__ = Roll
        self.rolls.append(roll)
        if self.on_roll is not None:
            self.on_roll(roll)

    def _face(self, die: Die, purpose: str) -> int:
        return die.low + self._pick([1] * (die.high - die.low + 1), purpose, die.name)

    # -- public draws ----------------------------------------------------------------------
    def roll(self, die: Die, purpose: str, n: int = 1) -> tuple[int, ...]:
        """Roll ``n`` of ``die`` and return the faces in order."""
        if n == 1:  # hot: most draws are one die (no generator, no sum)
            face = self._face(die, purpose)
            faces: tuple[int, ...] = (face,)
            self._record(purpose, die.name, faces, face)
            return faces
        if n < 0:
            raise ValueError(f"{purpose}: cannot roll a negative number of dice ({n})")
        faces = tuple([self._face(die, purpose) for _ in range(n)])
        self._record(purpose, f"{n}{die.name}", faces, sum(faces))
        return faces

    def d6(self, purpose: str) -> int:
        """One six-sided die, 1–6."""
        return self.roll(D6, purpose)[0]

    def nd6(self, n: int, purpose: str) -> tuple[int, ...]:
        """``n`` six-sided dice, faces in order (sum them yourself: some rules read faces)."""
        return self.roll(D6, purpose, n)

    def d10(self, purpose: str) -> int:
        """One ten-sided die read 0–9 (AIG: "0 is 0, not 10")."""
        return self.roll(D10_ZERO, purpose)[0]

    def d20(self, purpose: str) -> int:
        """One twenty-sided die, 1–20."""
        return self.roll(D20, purpose)[0]

    def integer(self, low: int, high: int, purpose: str) -> int:
        """A uniform integer in ``[low, high]`` (the tank game's random-number generator)."""
        if high < low:
            raise ValueError(f"{purpose}: no integer between {low} and {high}")
        return self.roll(Die(low, high), purpose)[0]

    def coin(self, purpose: str) -> bool:
        """A fair coin toss: ``True`` for heads."""
        return self.roll(Die(0, 1), purpose)[0] == 1

    def pick(self, options: Sequence[Any], purpose: str) -> Any:
        """A uniformly random element of ``options`` (recorded as a die over its indices)."""
        if not options:
            raise ValueError(f"{purpose}: nothing to pick from")
        return options[self.roll(Die(0, len(options) - 1), purpose)[0]]

    def pool(
        self, n: int, purpose: str, *, target: int = 7, double_at: int | None = 10
    ) -> PoolRoll:
        """Roll a success-counting pool of ``n`` d10s read 1–10.

        Args:
            n: dice in the pool (0 or more).
            target: a die showing this or more is a success (7 by default).
            double_at: a die showing this or more counts two successes (10 by default);
                ``None`` when a rule says tens do not double (e.g. battle groups' damage).
        """
        if n < 0:
            raise ValueError(f"{purpose}: cannot roll a pool of {n} dice")
        fails, singles, doubles = _pool_classes(target, double_at)
        faces = self._pool_faces(n, purpose, target, double_at, (fails, singles, doubles))
        successes = sum(
            2 if double_at is not None and f >= double_at else 1 if f >= target else 0
            for f in faces
        )
        tens = sum(1 for f in faces if f == 10)
        self._record(purpose, f"pool({n})", faces, successes)
        return PoolRoll(successes=successes, faces=faces, tens=tens)

    def _pool_faces(
        self, n: int, purpose: str, target: int, double_at: int | None, classes: tuple[int, int, int]
    ) -> tuple[int, ...]:
        return tuple(self._face(D10, purpose) for _ in range(n))


@define
class SeededDice(Dice):
    """Dice drawn from a seeded :class:`numpy.random.Generator` (PCG64).

    The same seed gives the same sequence of draws on every platform.

    >>> a, b = SeededDice(7), SeededDice(7)
    >>> [a.d6("x") for _ in range(5)] == [b.d6("x") for _ in range(5)]
    True
    """

    seed: int = 0
    _rng: np.random.Generator = field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._rng = np.random.Generator(np.random.PCG64(self.seed))

    def _pick(self, weights: Sequence[int], purpose: str, forced_kind: str) -> int:
        if len(weights) == 1:
            return 0
        if all(w == weights[0] for w in weights):
            return _random_int(self._rng, 0, len(weights) - 1)
        total = sum(weights)
        ticket = _random_int(self._rng, 0, total - 1)
        for index, weight in enumerate(weights):
            ticket -= weight
            if ticket < 0:
                return index
        raise AssertionError("unreachable")

    def roll(self, die: Die, purpose: str, n: int = 1) -> tuple[int, ...]:
        # Hot: every single die of every game. What Dice.roll does (_face, then _record), in
        # one call, for this class itself: a subclass (the probe dice of wargamekit.testing)
        # keeps every hook it overrides.
        if n == 1 and type(self) is SeededDice:
            low, high = die.low, die.high
            if type(low) is int and type(high) is int and 0 < high - low < 0xFFFFFFFF:
                draws = self._rng.bit_generator.ctypes
                face = low + _bounded(draws.next_uint32, draws.state, high - low)
                faces = (face,)
                # through _record, the one place a roll is built (inlining it saved ~60 ns a
                # die, not worth a second copy of how a roll is recorded)
                self._record(purpose, die.name, faces, face)
                return faces
        return Dice.roll(self, die, purpose, n)

    def _face(self, die: Die, purpose: str) -> int:
        # Hot: every die of every game. A uniform pick of ``die``'s faces, as _pick draws it,
        # without the list of weights; a subclass that overrides _pick (the probe dice of
        # wargamekit.testing, which count and force picks) still gets every pick.
        low, high = die.low, die.high
        if type(self)._pick is not SeededDice._pick or type(low) is not int or type(high) is not int:
            return super()._face(die, purpose)
        if not 0 < high - low < 0xFFFFFFFF:  # one face (no draw), or a range numpy draws otherwise
            return low + _random_int(self._rng, 0, high - low)
        draws = self._rng.bit_generator.ctypes
        return low + _bounded(draws.next_uint32, draws.state, high - low)


@define
class ScriptedDice(Dice):
    """Dice that return forced faces, in order, for tests.

    Each scripted value is the face of one die (for a pool, one d10 read 1–10; for a coin,
    1 = heads, 0 = tails). A face the die cannot show, or a draw after the script ran out,
    raises :class:`DiceScriptError` naming the purpose of the draw.

    >>> dice = ScriptedDice([7])
    >>> dice.d6("to hit")
    Traceback (most recent call last):
    ...
    wargamekit.errors.DiceScriptError: to hit: scripted face 7 is impossible on a d6
    """

    script: list[int] = field(factory=list, converter=list)
    position: int = field(default=0, init=False)

    def _pick(self, weights: Sequence[int], purpose: str, forced_kind: str) -> int:
        raise AssertionError("ScriptedDice overrides _face")

    def _face(self, die: Die, purpose: str) -> int:
        if self.position >= len(self.script):
            raise DiceScriptError(
                f"{purpose}: the dice script ran out after {len(self.script)} faces"
            )
        face = self.script[self.position]
        if not die.low <= face <= die.high:
            raise DiceScriptError(f"{purpose}: scripted face {face} is impossible on a {die.name}")
        self.position += 1
        return face

    @property
    def remaining(self) -> list[int]:
        """Faces not yet used."""
        return self.script[self.position :]

    def extend(self, faces: Iterable[int]) -> None:
        """Append more forced faces."""
        self.script.extend(faces)
