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

from wargamekit import Choose
from wargamekit.decisions import Data
from wargamekit.geometry import Hex

from .bot_common import (
    OddsBot,
    acting_tank,
    best_shot,
    fire_of,
    hold_index,
    index_of,
    kill_value,
    nearest_enemy,
    turn_toward,
)
from .combat import shot_for
from .fire import shot_odds
from .kinds import step_of
from .sight import can_see
from .state import GameState, Tank, other_side
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
    def _fire_selection(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        best, best_value = None, AIMED_THRESHOLD
        for i, d in enumerate(data):
            if d["action"] == "aimed":
                value = best_shot(state, state.tank(d["tank"]), "aimed", hooks=self.hooks)
                if value > best_value:
                    best, best_value = i, value
        if best is not None:
            return best
        return index_of(data, "action", "movement")

    def _fire_menu(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        shots = [(i, d) for i, d in enumerate(data) if d["action"] == "fire"]
        tank = acting_tank(state, decision)
        fire = fire_of(decision)
        if shots and tank is not None:
            i, _ = max(shots, key=lambda id_: (kill_value(state, tank, id_[1]["gun"], state.tank(id_[1]["target"]), fire,
                                                          hooks=self.hooks),
                                               -id_[0]))
            return i
        if tank is not None and tank.hex is not None:
            target = nearest_enemy(state, tank)
            if target is not None and target.hex is not None:
                turn = turn_toward(state, tank, target.hex, data)
                if turn is not None:
                    return turn
        return hold_index(data)

    def _advance_pick(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        for i, d in enumerate(data):
            if "tank" in d and best_shot(state, state.tank(d["tank"]), "advance", hooks=self.hooks) > 0:
                return i
        return index_of(data, "action", "end")

    # -- movement ------------------------------------------------------------------------------------
    def _move(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        tank = acting_tank(state, decision)
        if tank is None or tank.hex is None:
            return len(data) - 1
        fire = "leap" if decision.context["leap"] else "advance"
        enemies = [e for e in state.living(other_side(tank.side)) if e.hex is not None]
        # Many steps end in the same place (turning in place, stopping): score each place once.
        places: dict[tuple[Hex, int | None], float] = {}
        best, best_value = len(data) - 1, -1e9
        for i, d in enumerate(data):
            if d["action"] == "rotate_turret":
                continue
            v = step_of(d)
            at = v.to if v.to is not None else tank.hex
            hull = v.hull
            facing = hull if tank.spec.turretless else None
            place = places.get((at, facing))
            if place is None:
                place = places[at, facing] = self._place_value(state, tank, enemies, at, facing, fire)
            value = place - 0.001 * v.cost
            if v.kind == "stop":
                value += 0.0005
            if value > best_value:
                best, best_value = i, value
        return best

    def _place_value(self, state: GameState, tank: Tank, enemies: list[Tank], at: Hex, facing: int | None,
                     fire: str) -> float:
        """The move's score of ``tank`` standing in ``at`` (``facing``: a turretless hull's)."""
        offence = max((kill_value(state, tank, g, e, fire, at=at, facing=facing, hooks=self.hooks)
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
                    danger += float(shot_odds(shot_for(state, e, g, tank, "aimed", hooks=self.hooks)).kill) * kill_points(tank.vehicle_class) * 0.5
                finally:
                    tank.hex = saved
        near = min((at.distance(e_hex) for e in enemies if (e_hex := e.hex) is not None), default=0)
        return offence - danger - 0.05 * near
