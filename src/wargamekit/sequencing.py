"""Turn sequencing: one protocol, reusable schemes.

Every sequencer answers one question — *who acts next?* — through ``next_turn()``, which returns
a :class:`Turn` or ``None`` when the sequence (a round, a phase) is over. A ruleset composes
sequencers inside its procedures; it does not rewrite them. The schemes are declarative: plain
data plus small callables, in the style of boardgame.io's turn orders.

* :class:`PhaseCycle` — fixed phases (and steps) repeated each game turn (every ruleset).
* :class:`PlayerTurns` — first and second player, optionally alternating who goes first (the
  tank game).
* :class:`AlternatingImpulses` — sides alternate impulses; the phase ends when nobody can act
  or after N consecutive passes (LnL).
* :class:`InitiativeTrack` — highest value first, ties simultaneous, re-ordered as values
  change, never losing a turn (MTTT).
* :class:`LeaderActivation` — lowest value first, a tie roll, then alternation by side (AIG 3.1).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Protocol, runtime_checkable

from attrs import define, field, frozen

from .dice import Dice

__all__ = [
    "AlternatingImpulses",
    "InitiativeTrack",
    "LeaderActivation",
    "PhaseCycle",
    "PhaseStep",
    "PlayerTurns",
    "Sequencer",
    "Turn",
]


@frozen
class Turn:
    """Who acts now.

    Attributes:
        actors: the side(s) or unit(s) acting; several when they act simultaneously.
        label: where in the sequence this is (``"turn 3 / combat"``, ``"tick 12"``).
        number: a running count (turn number, impulse number, tick value).
    """

    actors: tuple[Hashable, ...]
    label: str = ""
    number: int = 0


@runtime_checkable
class Sequencer(Protocol):
    """The turn-sequencer protocol."""

    def next_turn(self) -> Turn | None:
        """Who acts next, or ``None`` when this sequence is over."""
        ...


# ---------------------------------------------------------------------------------------------
@frozen
class PhaseStep:
    """A position in a :class:`PhaseCycle`: game turn, phase and (optional) step."""

    turn: int
    phase: str
    step: str | None = None

    def __str__(self) -> str:
        return f"turn {self.turn} / {self.phase}" + (f" / {self.step}" if self.step else "")


@define
class PhaseCycle:
    """Fixed phases, each with optional steps, repeated every game turn.

    Args:
        phases: phase names in order, or a mapping phase → its steps in order.
        last_turn: stop after this turn (``None``: until ``end_if`` says so).
        end_if: called before each new turn with the turn number about to start; ``True`` ends.

    >>> cycle = PhaseCycle({"maintenance": [], "combat": ["aimed", "leap"]}, last_turn=2)
    >>> [str(s) for s in cycle]  # doctest: +NORMALIZE_WHITESPACE
    ['turn 1 / maintenance', 'turn 1 / combat / aimed', 'turn 1 / combat / leap',
     'turn 2 / maintenance', 'turn 2 / combat / aimed', 'turn 2 / combat / leap']
    """

    phases: Mapping[str, Sequence[str]] = field(
        converter=lambda p: {k: list(v) for k, v in p.items()} if isinstance(p, Mapping) else {k: [] for k in p}
    )
    last_turn: int | None = None
    end_if: Callable[[int], bool] | None = None
    turn: int = 0

    def __attrs_post_init__(self) -> None:
        if not self.phases:
            # Iterating would count turns forever without yielding a step.
            raise ValueError("a PhaseCycle needs at least one phase")

    def __iter__(self) -> Iterator[PhaseStep]:
        while True:
            upcoming = self.turn + 1
            if self.last_turn is not None and upcoming > self.last_turn:
                return
            if self.end_if is not None and self.end_if(upcoming):
                return
            self.turn = upcoming
            for phase, steps in self.phases.items():
                if not steps:
                    yield PhaseStep(self.turn, phase)
                for step in steps:
                    yield PhaseStep(self.turn, phase, step)

    def next_turn(self) -> Turn | None:  # the protocol, for uniformity: one game turn at a time
        upcoming = self.turn + 1
        if (self.last_turn is not None and upcoming > self.last_turn) or (
            self.end_if is not None and self.end_if(upcoming)
        ):
            return None
        self.turn = upcoming
        return Turn(actors=(), label=f"turn {upcoming}", number=upcoming)


# ---------------------------------------------------------------------------------------------
@define
class PlayerTurns:
    """First and second player.

    Args:
        sides: the sides, first player first.
        alternate: if true, the first player changes every turn (the other side goes first).

    >>> turns = PlayerTurns(("north", "south"), alternate=True)
    >>> [turns.order(n) for n in (1, 2, 3)]
    [('north', 'south'), ('south', 'north'), ('north', 'south')]
    """

    sides: tuple[str, ...] = field(converter=tuple)
    alternate: bool = False
    _queue: list[str] = field(factory=list, init=False, repr=False)
    turn: int = field(default=0, init=False)

    def __attrs_post_init__(self) -> None:
        if not self.sides:
            raise ValueError("PlayerTurns needs at least one side")

    def order(self, turn: int) -> tuple[str, ...]:
        """The sides in acting order on game turn ``turn`` (1-based)."""
        if not self.alternate:
            return self.sides
        shift = (turn - 1) % len(self.sides)
        return self.sides[shift:] + self.sides[:shift]

    def next_turn(self) -> Turn | None:
        """Endless: each call gives the next side's player turn."""
        if not self._queue:
            self.turn += 1
            self._queue = list(self.order(self.turn))
        side = self._queue.pop(0)
        return Turn(actors=(side,), label=f"turn {self.turn}: {side}", number=self.turn)


# ---------------------------------------------------------------------------------------------
@define
class AlternatingImpulses:
    """Sides alternate impulses (LnL's operations phase).

    The phase ends when no side can act any more (every unit has acted), or after
    ``pass_limit`` consecutive passes. A side that cannot act is skipped; the other side goes on.

    Args:
        sides: the sides, the one with the initiative first.
        can_act: ``can_act(side)`` — whether the side has a unit that may still act.
        pass_limit: consecutive passes that end the phase (LnL: 3).

    Call :meth:`next_turn` for who acts, then :meth:`record` with whether that side passed.
    """

    sides: tuple[str, ...] = field(converter=tuple)
    can_act: Callable[[str], bool]
    pass_limit: int = 3
    consecutive_passes: int = field(default=0, init=False)
    impulse: int = field(default=0, init=False)
    _cursor: int = field(default=0, init=False, repr=False)
    _waiting: str | None = field(default=None, init=False, repr=False)

    def next_turn(self) -> Turn | None:
        if self._waiting is not None:
            raise RuntimeError(f"record() the impulse of {self._waiting!r} before asking again")
        if self.consecutive_passes >= self.pass_limit:
            return None
        for offset in range(len(self.sides)):
            side = self.sides[(self._cursor + offset) % len(self.sides)]
            if self.can_act(side):
                self._cursor = (self._cursor + offset + 1) % len(self.sides)
                self.impulse += 1
                self._waiting = side
                return Turn(actors=(side,), label=f"impulse {self.impulse}: {side}", number=self.impulse)
        return None

    def record(self, side: str, *, passed: bool) -> None:
        """Record the impulse just taken by ``side``."""
        if side != self._waiting:
            raise RuntimeError(f"the impulse belongs to {self._waiting!r}, not {side!r}")
        self._waiting = None
        self.consecutive_passes = self.consecutive_passes + 1 if passed else 0


# ---------------------------------------------------------------------------------------------
@define
class InitiativeTrack:
    """Highest value acts first; equal values act simultaneously; values may change mid-round.

    Each participant acts once per round. The *tick* only moves down: a participant whose value
    rises above the current tick before acting does not lose her turn — she acts at the next
    tick, i.e. straight away (MTTT, 先导度变动和同步动作).

    >>> track = InitiativeTrack({"Mami": 12, "Homura": 9, "Witch": 12})
    >>> track.next_turn()
    Turn(actors=('Mami', 'Witch'), label='tick 12', number=12)
    >>> track.set("Homura", 15)      # rose past the current tick before acting
    >>> track.next_turn()
    Turn(actors=('Homura',), label='tick 12', number=12)
    >>> track.next_turn() is None    # everyone has acted: the round is over
    True
    """

    values: dict[Hashable, int] = field(converter=dict)
    acted: set[Hashable] = field(factory=set)
    tick: int | None = field(default=None)

    def set(self, who: Hashable, value: int) -> None:
        """Change (or add) a participant's value."""
        self.values[who] = value

    def add(self, who: Hashable, value: int, *, acts_this_round: bool = True) -> None:
        """Join mid-round; if ``acts_this_round`` is false she first acts next round."""
        self.values[who] = value
        if not acts_this_round:
            self.acted.add(who)

    def remove(self, who: Hashable) -> None:
        """Leave the track."""
        self.values.pop(who, None)
        self.acted.discard(who)

    def pending(self) -> list[Hashable]:
        """Participants yet to act this round, in acting order."""
        waiting = [w for w in self.values if w not in self.acted]
        return sorted(waiting, key=lambda w: -self.values[w])

    def next_turn(self) -> Turn | None:
        waiting = self.pending()
        if not waiting:
            return None
        best = self.values[waiting[0]]
        tick = best if self.tick is None else min(self.tick, best)
        actors = tuple(w for w in waiting if self.values[w] == best)
        self.tick = tick
        self.acted.update(actors)
        return Turn(actors=actors, label=f"tick {tick}", number=tick)

    def refresh(self, who: Hashable) -> None:
        """Give ``who`` another turn this round (MTTT's reversal, 先导逆转)."""
        self.acted.discard(who)

    def new_round(self) -> None:
        """Start the next round: everyone may act again, from the top."""
        self.acted.clear()
        self.tick = None

    def order(self) -> list[Hashable]:
        """Everyone, highest value first (ties in insertion order)."""
        return sorted(self.values, key=lambda w: -self.values[w])


# ---------------------------------------------------------------------------------------------
@define
class LeaderActivation:
    """AIG 3.1: the lowest-valued unactivated leaders activate first.

    When several leaders share the lowest value, each side rolls a d10 (ties re-rolled); the
    higher roll chooses first, then the sides alternate; a side that has activated all its
    leaders of that value drops out and the other activates the rest in any order.

    Args:
        leaders: leader → (side, value).
        sides: the sides in a fixed order (used for rolls and logs).

    :meth:`next_turn` needs the dice for the tie roll: call ``next_turn(dice)``. It returns the
    side to activate and, in :attr:`candidates`, the leaders it may choose from; then call
    :meth:`activate` with the chosen one. A leader activated out of turn (AIG 5.4: a seize, or
    a seizer flipped after failing) is also passed to :meth:`activate`; see there whether it
    takes the pending turn.
    """

    # (side, value) pairs as tuples: read from TOML or JSON they arrive as lists, which would
    # never equal the (side, level) the sequencer looks for.
    leaders: dict[Hashable, tuple[str, int]] = field(
        converter=lambda leaders: {name: tuple(pair) for name, pair in dict(leaders).items()}
    )
    sides: tuple[str, ...] = field(converter=tuple)
    activated: set[Hashable] = field(factory=set)
    candidates: tuple[Hashable, ...] = field(default=(), init=False)
    _level: int | None = field(default=None, init=False, repr=False)
    _order: list[str] = field(factory=list, init=False, repr=False)
    _waiting: bool = field(default=False, init=False, repr=False)

    def remaining(self) -> list[Hashable]:
        """Leaders not yet activated."""
        return [name for name in self.leaders if name not in self.activated]

    def _start_level(self, dice: Dice | None) -> None:
        left = self.remaining()
        self._level = min(self.leaders[n][1] for n in left)
        at_level = [n for n in left if self.leaders[n][1] == self._level]
        contenders = [s for s in self.sides if any(self.leaders[n][0] == s for n in at_level)]
        self._order = contenders
        if len(contenders) > 1:
            if dice is None:
                raise ValueError("AIG 3.1: a tie for lowest initiative needs dice for the d10 roll-off")
            while True:  # "平手重投": re-roll ties
                rolls = {s: dice.d10(f"AIG 3.1 activation roll-off ({s})") for s in contenders}
                top = max(rolls.values())
                winners = [s for s in contenders if rolls[s] == top]
                if len(winners) == 1:
                    break
            self._order = [winners[0]] + [s for s in contenders if s != winners[0]]

    def next_turn(self, dice: Dice | None = None) -> Turn | None:  # type: ignore[override]
        if self._waiting:
            raise RuntimeError("activate() the chosen leader before asking again")
        left = self.remaining()
        if not left:
            return None
        if self._level is None or not any(self.leaders[n][1] == self._level for n in left):
            self._start_level(dice)
        level = self._level
        for _ in range(len(self._order)):
            side = self._order[0]
            self._order = self._order[1:] + [side]
            mine = tuple(n for n in left if self.leaders[n] == (side, level))
            if mine:
                self.candidates = mine
                self._waiting = True
                return Turn(actors=(side,), label=f"leader value {level}: {side}", number=level or 0)
        raise AssertionError("unreachable: a level with leaders always has a side to act")

    def activate(self, leader: Hashable, *, takes_turn: bool = False) -> None:
        """Mark ``leader`` as activated.

        One of :attr:`candidates` takes the pending turn. Any other leader is activated out of
        turn (AIG 5.4): by default the pending turn stays pending, so after a seizer fails and
        is flipped the side still activates one of its candidates (5.4.1); pass
        ``takes_turn=True`` when the seizer acts in the turn's place (a successful seize), and
        the candidates stay unactivated for a later turn.

        Raises:
            KeyError: ``leader`` is not one of :attr:`leaders`.
            ValueError: ``leader`` was already activated this round.
        """
        if leader not in self.leaders:
            raise KeyError(f"AIG 3.1: no leader {leader!r}; the leaders are {list(self.leaders)}")
        if leader in self.activated:
            raise ValueError(f"AIG 3.1: leader {leader!r} was already activated")
        self.activated.add(leader)
        if leader in self.candidates or takes_turn:
            self.candidates = ()
        else:
            self.candidates = tuple(c for c in self.candidates if c != leader)
        self._waiting = bool(self.candidates)
