"""Decisions as sequences of discrete actions, each with the mask of its legal actions.

The action space of a game is ``Discrete(N + 1)``, ``N`` the most options one decision may
offer (:meth:`ObservationEncoder.action_count <wargamekit.rl.ObservationEncoder.action_count>`):

* :class:`~wargamekit.decisions.Choose`: one step; action ``i`` is option ``i``.
* :class:`~wargamekit.decisions.YesNo`: one step; action 0 is no, action 1 is yes.
* :class:`~wargamekit.decisions.ChooseNumber` from ``low`` to ``high``: action ``i`` is
  ``low + i`` when the ``high - low + 1`` values fit in ``N`` slots; otherwise the offset
  ``value - low`` is given in base ``N``, most significant digit first, one step a digit.
* :class:`~wargamekit.decisions.ChooseSubset`: one step per option picked (action ``i`` adds
  option ``i``), then the **stop** action ``N`` ends the subset.

The mask of each step allows exactly the actions from which a legal answer can still be
reached, so a sequence of masked actions always ends in an answer the rules accept: for a
subset with a ``constraint`` the legal subsets are enumerated once (up to
:data:`SUBSET_ENUMERATION_LIMIT` options); for a number, a digit is allowed only if some
completion stays within ``high``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from ..decisions import Answer, Choose, ChooseNumber, ChooseSubset, Decision, YesNo
from ..errors import IllegalChoiceError, InvalidChoiceError, WargamekitError

__all__ = ["SUBSET_ENUMERATION_LIMIT", "ActionCursor", "ActionSpaceError", "IllegalActionError", "actions_for"]

#: A subset decision with a constraint is masked exactly by listing its legal subsets; past
#: this many options that is too costly, and the environment refuses the decision.
SUBSET_ENUMERATION_LIMIT = 16


class ActionSpaceError(WargamekitError, ValueError):
    """A decision does not fit the environment's action space (more options than its slots),
    or cannot be masked exactly. The environment never truncates a decision's options."""


class IllegalActionError(InvalidChoiceError):
    """An action the mask forbids (or one that is no action at all) was sent; nothing changed."""


class ActionCursor:
    """Where the answer to one pending decision has got, step by step.

    Args:
        decision: the pending decision.
        slots: ``N``, the option slots of the action space (the stop action is ``N``).
        ruleset: the ruleset's name, for messages.

    Raises:
        ActionSpaceError: the decision offers more options than ``N``, or a subset with a
            constraint has more options than :data:`SUBSET_ENUMERATION_LIMIT`.
        IllegalChoiceError: a subset decision has no legal subset at all.
    """

    def __init__(self, decision: Decision, slots: int, ruleset: str = "") -> None:
        self.decision = decision
        self.slots = slots
        self.picked: list[int] = []
        self.prefix = 0  # a number's digits given so far, as a value
        self.given = 0  # how many digits
        self.digits = 0
        self._legal: set[int] | None = None  # subsets as bit sets, when a constraint asks
        where = f"{ruleset}: {decision.kind or decision.prompt}"
        if isinstance(decision, (Choose, ChooseSubset)) and len(decision.options) > slots:
            raise ActionSpaceError(
                f"{where}: {len(decision.options)} options do not fit the action space's {slots} slots "
                f"(raise the encoder's action_count, or pass max_actions=)"
            )
        if isinstance(decision, ChooseNumber):
            span = decision.high - decision.low + 1
            self.digits, reach = 1, slots
            while reach < span:
                self.digits += 1
                reach *= slots
        if isinstance(decision, ChooseSubset) and decision.constraint is not None:
            n = len(decision.options)
            if n > SUBSET_ENUMERATION_LIMIT:
                raise ActionSpaceError(
                    f"{where}: a constrained subset of {n} options (more than {SUBSET_ENUMERATION_LIMIT}) "
                    "cannot be masked exactly"
                )
            legal = set()
            for size in range(decision.min_count, decision.upper + 1):
                for combo in combinations(range(n), size):
                    if not decision.constraint(tuple(decision.options[i].value for i in combo)):
                        legal.add(sum(1 << i for i in combo))
            if not legal:
                raise IllegalChoiceError(decision.rule, f"{decision.prompt}: no legal subset exists")
            self._legal = legal

    @property
    def digits_left(self) -> int:
        """Digits of a number still to give (0 for other decisions)."""
        return self.digits - self.given if self.digits else 0

    def mask(self) -> np.ndarray:
        """The legal actions now: an ``int8`` array of ``N + 1`` zeros and ones."""
        out = np.zeros(self.slots + 1, np.int8)
        d = self.decision
        if isinstance(d, Choose):
            out[: len(d.options)] = 1
        elif isinstance(d, YesNo):
            out[:2] = 1
        elif isinstance(d, ChooseNumber):
            top = d.high - d.low  # the largest offset
            weight = self.slots ** (self.digits - self.given - 1)
            for digit in range(self.slots):
                if (self.prefix * self.slots + digit) * weight <= top:
                    out[digit] = 1
        else:
            assert isinstance(d, ChooseSubset)
            chosen = sum(1 << i for i in self.picked)
            n = len(d.options)
            if self._legal is None:
                if len(self.picked) < d.upper:
                    out[:n] = 1
                    out[self.picked] = 0
                out[self.slots] = int(d.min_count <= len(self.picked) <= d.upper)
            else:
                for i in range(n):
                    if not chosen >> i & 1:
                        wanted = chosen | 1 << i
                        out[i] = any(t & wanted == wanted for t in self._legal)
                out[self.slots] = int(chosen in self._legal)
        return out

    def apply(self, action: Any) -> Answer | None:
        """Take one action: the decision's answer once it is complete, else ``None``.

        Raises:
            IllegalActionError: ``action`` is not a whole number or the mask forbids it; the
                cursor is unchanged.
        """
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"{self._where()}: an action is a whole number, got {action!r}")
        action = int(action)
        mask = self.mask()
        if not 0 <= action < len(mask) or not mask[action]:
            legal = np.flatnonzero(mask).tolist()
            raise IllegalActionError(
                f"{self._where()}: action {action} is masked out (legal now: {legal})"
            )
        d = self.decision
        if isinstance(d, Choose):
            return action
        if isinstance(d, YesNo):
            return bool(action)
        if isinstance(d, ChooseNumber):
            self.prefix = self.prefix * self.slots + action
            self.given += 1
            return d.low + self.prefix if self.given == self.digits else None
        if action == self.slots:
            return sorted(self.picked)
        self.picked.append(action)
        return None

    def _where(self) -> str:
        d = self.decision
        return f"{d.side}: {d.prompt}" + (f" [{d.rule}]" if d.rule else "")


def actions_for(decision: Decision, answer: Answer, slots: int) -> list[int]:
    """The actions that give ``answer`` (in recorded form, as ``Game.answer`` records it) to
    ``decision`` in an action space of ``slots`` option slots: how a recorded game, or a bot's
    answer, is replayed through an environment (and imitation data is made).

    >>> actions_for(ChooseNumber(side="a", prompt="How many?", low=3, high=40), 30, slots=5)
    [1, 0, 2]
    """
    cursor = ActionCursor(decision, slots)
    if isinstance(decision, ChooseNumber):
        offset = int(answer) - decision.low  # type: ignore[arg-type]
        digits = [(offset // slots**k) % slots for k in reversed(range(cursor.digits))]
        return digits
    if isinstance(decision, ChooseSubset):
        return [*sorted(answer), slots]  # type: ignore[arg-type]
    if isinstance(decision, YesNo):
        return [int(bool(answer))]
    return [int(answer)]  # type: ignore[arg-type]
