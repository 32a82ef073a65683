"""The heuristic bot: picks shots, rounds and moves by exact odds.

Every shot it weighs is scored by :func:`~wargamekit_tank_solo.fire.shot_odds` — the exact hit
and kill probabilities of the pure resolution — times the victory points of the target. Moves
are chosen one step at a time by a one-step look-ahead: the best advance-fire kill chance from
the new place, minus the enemy's best chances against it there, minus a little for distance to
the nearest enemy (so it closes in when nothing is in range).

The answers it shares with :class:`~wargamekit_tank_solo.cautious_bot.CautiousBot` (opening,
free points, special rounds, defensive fire) are in :mod:`~wargamekit_tank_solo.bot_common`.
"""

from __future__ import annotations

from typing import Any

from wargamekit import Choose

from .bot_common import (
    OddsBot,
    actor,
    best_shot,
    fire_of,
    hold_index,
    kill_value,
    nearest_enemy,
    turn_toward,
)
from .combat import FireAt, shot_for
from .fire import shot_odds
from .movement import Step
from .sight import can_see
from .state import GameState, other_side
from .vehicles import kill_points

__all__ = ["HeuristicBot"]

#: Fire in the fire-selection step only with at least this expected gain (points).
AIMED_THRESHOLD = 0.3
#: Fire defensively (and be locked for a turn) only with at least this kill chance.
DEFENSIVE_THRESHOLD = 0.2


class HeuristicBot(OddsBot):
    """A bot that uses exact shot odds (see the module doc). Deterministic given its seed."""

    defensive_threshold = DEFENSIVE_THRESHOLD

    # -- combat --------------------------------------------------------------------------------------
    def _fire_selection(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        best, best_value = None, AIMED_THRESHOLD
        for i, (kind, tank_id) in enumerate(values):
            if kind == "aimed":
                value = best_shot(state, state.tank(tank_id), "aimed")
                if value > best_value:
                    best, best_value = i, value
        if best is not None:
            return best
        return values.index(("movement", 0))

    def _fire_menu(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        shots = [(i, v) for i, v in enumerate(values) if isinstance(v, FireAt)]
        tank = actor(state, decision)
        fire = fire_of(decision.rule)
        if shots and tank is not None:
            i, _ = max(shots, key=lambda iv: (kill_value(state, tank, iv[1].gun, state.tank(iv[1].target), fire), -iv[0]))
            return i
        if tank is not None and tank.hex is not None:
            target = nearest_enemy(state, tank)
            if target is not None and target.hex is not None:
                turn = turn_toward(state, tank, target.hex, values)
                if turn is not None:
                    return turn
        return hold_index(values)

    def _advance_pick(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        for i, v in enumerate(values):
            if v is not None and best_shot(state, state.tank(v), "advance") > 0:
                return i
        return values.index(None)

    # -- movement ------------------------------------------------------------------------------------
    def _move(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        tank = actor(state, decision)
        if tank is None or tank.hex is None:
            return len(values) - 1
        fire = "leap" if decision.rule.startswith("作战阶段 1-2") else "advance"
        enemies = [e for e in state.living(other_side(tank.side)) if e.hex is not None]
        best, best_value = len(values) - 1, -1e9
        for i, v in enumerate(values):
            if not isinstance(v, Step):
                continue
            at = v.to if v.to is not None else tank.hex
            hull = v.hull
            facing = hull if tank.spec.turretless else None
            offence = max((kill_value(state, tank, g, e, fire, at=at, facing=facing)
                           for g in range(len(tank.spec.guns)) for e in enemies), default=0.0)
            danger = 0.0
            for e in enemies:
                for g in range(len(e.spec.guns)):
                    e_hex = e.hex
                    if e_hex is None or e_hex == at or e_hex.distance(at) > e.spec.guns[g].range:
                        continue
                    if not can_see(state.scenario.map, state.wrecks, e_hex, at):
                        continue
                    saved = tank.hex
                    tank.hex = at
                    try:
                        danger += float(shot_odds(shot_for(state, e, g, tank, "aimed")).kill) * kill_points(tank.vehicle_class) * 0.5
                    finally:
                        tank.hex = saved
            near = min((at.distance(e.hex) for e in enemies), default=0)
            value = offence - danger - 0.05 * near - 0.001 * v.cost
            if v.kind == "stop":
                value += 0.0005
            if value > best_value:
                best, best_value = i, value
        return best
