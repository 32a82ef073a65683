"""Observation encoders: a side's :class:`~wargamekit.view.PlayerView` as numpy arrays.

A ruleset provides an :class:`ObservationEncoder` through the
:func:`~wargamekit.hookspecs.wargamekit_observation_encoder` hook; one without gets
:class:`GenericEncoder`. The environment (:mod:`wargamekit.rl.aec`) concatenates three blocks
into one flat ``float32`` vector (the layout is on :doc:`/rl`):

1. the **decision block**, written by the core for every ruleset (:func:`decision_block`): the
   decision's form, its kind (one-hot over :attr:`ObservationEncoder.kinds`), how many options,
   whether it is secret and how far a multi-step answer has got;
2. the **view block**: :meth:`ObservationEncoder.encode` of the side's view;
3. the **option block**: one row of :meth:`ObservationEncoder.encode_option` per action slot,
   so a policy can score each option by what it *is* (its data), not only by its index.

Everything an encoder reads comes from the view: the ruleset's redacted state
(``view.state``), the side's log, the pending decision. It never sees the game state.
This module imports no gymnasium: an encoder describes its bounds as numpy arrays, and the
environment builds the spaces.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..decisions import Choose, ChooseNumber, ChooseSubset, Decision, YesNo
from ..players import is_pass

if TYPE_CHECKING:
    from ..events import Outcome
    from ..view import PlayerView

__all__ = ["FORMS", "Bounds", "GenericEncoder", "GenericOptionRows", "HexPlanes", "clip01", "ObservationEncoder", "decision_block", "decision_block_size", "kinds_of", "unit_bounds"]

#: The decision forms, in the order of the decision block's one-hot.
FORMS = ("choose", "subset", "number", "yesno")

#: ``(low, high)``: the bounds of a block, one entry per feature.
Bounds = tuple[np.ndarray, np.ndarray]


def unit_bounds(size: int) -> Bounds:
    """Bounds of ``size`` features that all lie in ``[0, 1]``."""
    return np.zeros(size, np.float32), np.ones(size, np.float32)


def kinds_of(module: Any, prefix: str) -> tuple[str, ...]:
    """The decision kinds a ruleset's ``kinds`` module declares: every module-level string
    starting with ``prefix`` (``"tank_solo."``), sorted, so the one-hot is stable."""
    return tuple(sorted({v for k, v in vars(module).items() if not k.startswith("_") and isinstance(v, str)
                         and v.startswith(prefix)}))


class ObservationEncoder:
    """How a ruleset's player views become numbers. Subclass it and override what you need.

    The defaults encode nothing of the view but a few public counters (see
    :class:`GenericEncoder`); a ruleset's own encoder reads ``view.state`` (its redacted view)
    and ``view.decision``.

    Class attributes:
        kinds: the ruleset's decision kinds, in a fixed order (:func:`kinds_of` collects them
            from a ``kinds`` module); the decision block one-hot encodes the pending decision's
            kind over them, with one more slot for a kind not listed.
        max_actions: the most options (or values) one decision may offer; the action space is
            ``Discrete(max_actions + 1)`` (the last action ends a subset). Override
            :meth:`action_count` to compute it from the scenario as the side sees it.
    """

    kinds: tuple[str, ...] = ()
    max_actions: int = 64

    def action_count(self, view: PlayerView) -> int:
        """The most options one decision may offer in this game (the scenario as ``view``
        shows it at the start). A decision offering more fails loudly
        (:class:`~wargamekit.rl.ActionSpaceError`)."""
        return self.max_actions

    def view_bounds(self, view: PlayerView) -> Bounds:
        """The bounds of :meth:`encode`'s vector (its length is the view block's), from the
        side's view at the start of the game. It must not depend on the seed."""
        raise NotImplementedError

    def encode(self, view: PlayerView) -> np.ndarray:
        """The view block: a 1-D ``float32`` array within :meth:`view_bounds`."""
        raise NotImplementedError

    def option_bounds(self, view: PlayerView) -> Bounds:
        """The bounds of one option's row (:meth:`encode_option`); width 0 by default."""
        return unit_bounds(0)

    def encode_option(self, view: PlayerView, decision: Choose | ChooseSubset, index: int) -> np.ndarray:
        """Option ``index`` of ``decision`` (pending for ``view``'s side) as a row within
        :meth:`option_bounds`. Rows of unused slots, and of decisions without options, are 0."""
        return np.zeros(0, np.float32)

    def rewards(self, outcome: Outcome, sides: tuple[str, ...]) -> dict[str, float]:
        """Each side's reward at the end of a game: +1 to the winner, -1 to every other side,
        0 to all on a draw (``outcome.winner is None``). Override to refine (scores)."""
        if outcome.winner is None:
            return dict.fromkeys(sides, 0.0)
        return {side: 1.0 if side == outcome.winner else -1.0 for side in sides}


class GenericOptionRows(ObservationEncoder):
    """An encoder whose option rows are the generic ones (width 3, in ``[0, 1]``): 1 for a real
    option; 1 if it is a response window's pass (:func:`~wargamekit.players.is_pass`); 1 if it
    is a "hold"/"none" option (its data says ``{"hold": True}`` or ``{"none": True}``). A
    ruleset's encoder derives from it to keep these rows and write only its view block."""

    def option_bounds(self, view: PlayerView) -> Bounds:
        return unit_bounds(3)

    def encode_option(self, view: PlayerView, decision: Choose | ChooseSubset, index: int) -> np.ndarray:
        option = decision.options[index]
        data: Mapping[str, Any] = option.data or {}
        return np.array([1.0, float(is_pass(option)),
                         float(data.get("hold") is True or data.get("none") is True)], np.float32)


class GenericEncoder(GenericOptionRows):
    """The encoder of a ruleset without its own: only what every game has.

    View block (length ``len(sides) + 3``, all in ``[0, 1]``):

    ====================  ===================================================================
    index                 feature
    ====================  ===================================================================
    ``0 .. S-1``          one-hot: which side this is (the ruleset's order of sides)
    ``S``                 1 (a constant, so the vector is never all zero)
    ``S+1``               decisions made so far, ``log1p(n) / log1p(DECISIONS)`` capped at 1
    ``S+2``               events the side has seen, ``log1p(n) / log1p(EVENTS)`` capped at 1
    ====================  ===================================================================

    Option row (width 3, in ``[0, 1]``): 1 for a real option; 1 if it is a response window's
    pass (:func:`~wargamekit.players.is_pass`); 1 if it is a "hold"/"none" option (its data says
    ``{"hold": True}`` or ``{"none": True}``).
    """

    #: the decision and event counts that map to 1
    DECISIONS = 10_000
    EVENTS = 50_000

    def __init__(self, sides: tuple[str, ...], kinds: tuple[str, ...] = ()) -> None:
        self.sides = tuple(sides)
        self.kinds = tuple(kinds)

    def view_bounds(self, view: PlayerView) -> Bounds:
        return unit_bounds(len(self.sides) + 3)

    def encode(self, view: PlayerView) -> np.ndarray:
        out = np.zeros(len(self.sides) + 3, np.float32)
        if view.side in self.sides:
            out[self.sides.index(view.side)] = 1.0
        s = len(self.sides)
        out[s] = 1.0
        out[s + 1] = min(1.0, math.log1p(view.decisions_made) / math.log1p(self.DECISIONS))
        out[s + 2] = min(1.0, math.log1p(len(view.log)) / math.log1p(self.EVENTS))
        return out



class HexPlanes:
    """Feature planes over a rectangular hex map, flattened: a view block for hex-map rulesets.

    ``channels`` planes of ``width x height`` cells, indexed by a hex's offset ``(col, row)``
    on the map; :meth:`put` ignores a hex off the map (a unit not yet entered). The flat
    layout is channel-major: feature ``c * width * height + col * height + row``.

    >>> from wargamekit.geometry import Hex
    >>> planes = HexPlanes(3, 2, channels=2)
    >>> grid = planes.zeros()
    >>> planes.put(grid, 1, Hex.from_offset(2, 1), 0.5)
    >>> int(np.flatnonzero(planes.flat(grid))[0]) == 1 * 3 * 2 + 2 * 2 + 1
    True
    """

    def __init__(self, width: int, height: int, channels: int, layout: Any = None) -> None:
        from ..geometry import OffsetLayout

        self.width, self.height, self.channels = width, height, channels
        self.layout = OffsetLayout.ODD_Q if layout is None else layout

    @classmethod
    def of(cls, hexmap: Any, channels: int) -> HexPlanes:
        """Planes the size of ``hexmap`` (a :class:`~wargamekit.geometry.HexMap`)."""
        return cls(hexmap.width, hexmap.height, channels, hexmap.layout)

    @property
    def size(self) -> int:
        """The number of features."""
        return self.channels * self.width * self.height

    def zeros(self) -> np.ndarray:
        """Empty planes, ``(channels, width, height)``."""
        return np.zeros((self.channels, self.width, self.height), np.float32)

    def put(self, grid: np.ndarray, channel: int, where: Any, value: float) -> None:
        """Set ``channel`` at hex ``where`` (nothing if ``where`` is ``None`` or off the map)."""
        if where is None:
            return
        c, r = where.to_offset(self.layout)
        if 0 <= c < self.width and 0 <= r < self.height:
            grid[channel, c, r] = value

    def flat(self, grid: np.ndarray) -> np.ndarray:
        """The planes as one vector."""
        return grid.reshape(-1)


def clip01(value: float) -> float:
    """``value`` clipped to ``[0, 1]`` (features are scaled to lie there)."""
    return 0.0 if value < 0 else 1.0 if value > 1 else float(value)


def decision_block_size(kinds: int, actions: int) -> int:
    """The decision block's length for ``kinds`` listed kinds and ``actions`` option slots."""
    return len(FORMS) + kinds + 1 + 4 + actions


def decision_block(
    decision: Decision | None, kinds: tuple[str, ...], actions: int, *,
    picked: tuple[int, ...] = (), digits_left: int = 0, digits: int = 0,
) -> np.ndarray:
    """The core's description of the pending decision (all zero when ``decision`` is ``None``).

    Layout, with ``K = len(kinds)`` and ``N = actions``:

    * ``[0:4]`` one-hot of the form (:data:`FORMS`: choose, subset, number, yes/no);
    * ``[4:4+K+1]`` one-hot of the kind over ``kinds``; the last slot: a kind not listed;
    * ``[4+K+1]`` how many actions the decision offers in all, divided by ``N``;
    * ``[4+K+2]`` 1 if the decision is secret;
    * ``[4+K+3]`` how many options of a subset are picked so far, divided by ``N``;
    * ``[4+K+4]`` for a number answered in several digits, the share of digits still to give;
    * ``[4+K+5:]`` (``N`` slots) 1 for each option of a subset picked so far.
    """
    out = np.zeros(decision_block_size(len(kinds), actions), np.float32)
    if decision is None:
        return out
    out[FORMS.index(decision.form)] = 1.0
    k = len(FORMS)
    out[k + (kinds.index(decision.kind) if decision.kind in kinds else len(kinds))] = 1.0
    base = k + len(kinds) + 1
    if isinstance(decision, (Choose, ChooseSubset)):
        offered = len(decision.options)
    elif isinstance(decision, ChooseNumber):
        offered = decision.high - decision.low + 1
    else:
        assert isinstance(decision, YesNo)
        offered = 2
    out[base] = min(1.0, offered / actions)
    out[base + 1] = float(decision.secret)
    out[base + 2] = len(picked) / actions
    out[base + 3] = digits_left / digits if digits else 0.0
    for index in picked:
        out[base + 4 + index] = 1.0
    return out
