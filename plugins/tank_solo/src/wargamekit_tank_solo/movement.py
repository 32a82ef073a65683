"""Movement (标准规则修改部分 3. 移动规则改良; 5. 残骸位置).

A tank moves one step at a time: forward into the hex its hull faces (1 point, a river 2,
clearing a wreck 2 for light and medium tanks or 1 for heavy tanks), reverse into the hex behind
(2 points; not with fewer than 2 left), or turn its hull 60 degrees in place (1 point). Forest
and mountain hexes cannot be entered; neither can a hex holding a tank, nor a wreck except by
clearing it (never during leap fire).

After a forward move a tank may turn 60 degrees for free (3: 前进外加前进后转动60度车体需要使用1点
行动点) — but a medium or heavy tank pays 1 point for the turn after its *last* forward move; a
light tank does not. This is kept exact by a debt: a medium or heavy tank's free turn owes 1
point that is cancelled by the next forward move and paid by anything else (stopping included).
With hybrid drive (特殊规则 9) the turn after the last move is free, also after a reverse; a
turn after a reverse that is *not* the last move costs 1 as usual, so that turn owes a point
paid by any further step and cancelled by stopping.

Provisional (not from the source): reversing into a river costs 3 (2 + the river's extra 1);
clearing a wreck in a river costs the larger of the two costs; a wreck cannot be cleared by
reversing.

>>> from wargamekit.geometry import Hex
>>> budget = MoveBudget(remaining=1, must_spend=False, leap=False)
>>> budget.after("forward", 1, "medium", hybrid=False).free_turn
True
"""

from __future__ import annotations

from attrs import evolve, frozen

from wargamekit.geometry import Hex

from .maps import facing_name, hex_label
from .state import GameState, Tank

__all__ = ["MoveBudget", "Step", "clear_cost", "enter_cost", "step_options"]


@frozen
class Step:
    """One movement step a tank may take.

    Attributes:
        kind: ``"forward"``, ``"reverse"``, ``"turn"`` (in place, 1 point), ``"free turn"``
            (after a forward move) or ``"stop"``.
        to: the hex entered (forward/reverse).
        hull: the hull facing after the step.
        cost: movement points it costs (a debt paid is included).
        clears_wreck: the forward move clears a wreck.
        label: what a player reads.
    """

    kind: str
    to: Hex | None
    hull: int
    cost: int
    clears_wreck: bool = False
    label: str = ""


@frozen
class MoveBudget:
    """Where a tank stands in its movement.

    Attributes:
        remaining: movement points left (basic first, then free points: only the total matters).
        must_spend: free points were given, so every point must be used (2-1 注1).
        leap: the move is part of leap fire (no wreck clearing, no free points).
        free_turn: a free 60-degree turn is available (just moved forward).
        debt: 1 when a free turn is not yet justified: a medium/heavy tank's turn after a
            forward move (cancelled by another forward move, paid by anything else), or a hybrid
            tank's turn after a reverse (free only after the *last* move, 特殊规则 9: cancelled
            by stopping, paid by any further step).
        last: the last move, ``"forward"`` or ``"reverse"`` (which free turn is on offer).
    """

    remaining: int
    must_spend: bool
    leap: bool
    free_turn: bool = False
    debt: int = 0
    last: str = ""

    @property
    def stop_cost(self) -> int:
        """What stopping now costs: the debt of a turn after the last forward move."""
        return self.debt if self.last == "forward" else 0

    @property
    def forward_debt(self) -> int:
        """The debt a forward move pays (only a hybrid turn after a reverse)."""
        return self.debt if self.last == "reverse" else 0

    def after(self, kind: str, cost: int, vehicle_class: str, *, hybrid: bool) -> MoveBudget:
        """The budget after a step of ``kind`` costing ``cost`` (debt included in ``cost``).

        Hybrid drive (特殊规则 9) gives a free turn after the last move, forward or reverse.
        """
        light_like = vehicle_class == "light" or hybrid
        if kind == "forward":
            return evolve(self, remaining=self.remaining - cost, free_turn=True, debt=0, last="forward")
        if kind == "reverse":
            return evolve(self, remaining=self.remaining - cost, free_turn=hybrid, debt=0, last="reverse")
        if kind == "free turn":
            # after a forward move the turn is free for light and hybrid tanks; after a reverse
            # (hybrid only) it is free only if no other step follows
            owed = 1 if self.last == "reverse" or not light_like else 0
            return evolve(self, free_turn=False, debt=owed)
        return evolve(self, remaining=self.remaining - cost, free_turn=False, debt=0)


def enter_cost(state: GameState, h: Hex) -> int | None:
    """Cost to enter ``h`` by terrain (clear 1, river 2), or ``None`` if it cannot be entered."""
    m = state.map
    if not m.enterable(h):
        return None
    return 2 if m.terrain_at(h) == "river" else 1


def clear_cost(tank: Tank) -> int:
    """Cost to clear a wreck by entering it (5): 1 for a heavy tank, 2 otherwise."""
    return 1 if tank.vehicle_class == "heavy" else 2


def step_options(state: GameState, tank: Tank, budget: MoveBudget, *, hybrid: bool = False) -> list[Step]:
    """The legal steps for ``tank`` now, ``stop`` last.

    ``stop`` is left out while free points must still be spent, unless nothing else is legal.
    """
    assert tank.hex is not None
    rem, debt = budget.remaining, budget.debt
    name = tank.name
    out: list[Step] = []
    ahead = tank.hex.neighbour(tank.hull)
    cost = enter_cost(state, ahead)
    if cost is not None and state.occupant(ahead) is None:
        clears = ahead in state.wrecks
        if clears:
            cost = None if budget.leap else max(cost, clear_cost(tank))
        if cost is not None:
            cost += budget.forward_debt
        if cost is not None and cost <= rem:
            verb = "clear the wreck in" if clears else "forward to"
            out.append(
                Step("forward", ahead, tank.hull, cost, clears,
                     f"move {name} {verb} {hex_label(ahead)} ({rem - cost} MP left)")
            )
    behind = tank.hex.neighbour(tank.hull + 3)
    cost = enter_cost(state, behind)
    if cost is not None and state.is_free(behind):
        cost = cost + 1 + debt
        if rem >= max(2, cost):
            out.append(
                Step("reverse", behind, tank.hull, cost, False,
                     f"reverse {name} to {hex_label(behind)} ({rem - cost} MP left)")
            )
    if budget.free_turn:
        light_like = tank.vehicle_class == "light" or hybrid
        if light_like or rem >= 1:
            note = ("" if light_like and budget.last == "forward"
                    else ", costs 1 MP if it moves again" if budget.last == "reverse"
                    else ", costs 1 MP unless it moves forward next")
            for turn, word in ((1, "left"), (-1, "right")):
                facing = (tank.hull + turn) % 6
                out.append(Step("free turn", None, facing, 0, False,
                                f"turn {name} {word} to {facing_name(facing)} (free after moving{note})"))
    if rem >= 1 + debt:
        for turn, word in ((1, "left"), (-1, "right")):
            facing = (tank.hull + turn) % 6
            out.append(Step("turn", None, facing, 1 + debt, False,
                            f"turn {name} {word} in place to {facing_name(facing)} ({rem - 1 - debt} MP left)"))
    if not budget.must_spend or rem - budget.stop_cost <= 0 or not out:
        unused = max(0, rem - budget.stop_cost)
        out.append(Step("stop", None, tank.hull, budget.stop_cost, False,
                        f"stop {name} here ({unused} MP unused)" if unused else f"{name} ends its move"))
    return out
