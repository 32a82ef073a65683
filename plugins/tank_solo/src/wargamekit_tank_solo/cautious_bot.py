"""The cautious bot: plays for survival, using the same exact odds as the heuristic bot.

It moves one step at a time, scoring each candidate step by

- the **incoming threat** there: the chance that the enemy's tanks destroy it in their next
  turn, each firing its best gun from where it stands now (exact kill odds of
  :func:`~wargamekit_tank_solo.fire.resolve_shot` via :func:`~wargamekit_tank_solo.fire.shot_odds`;
  range, line of sight, and the gun's arc after the turret turns it has next turn — an enemy
  that cannot bring its gun to bear must turn its hull and use advance fire; one locked by its
  own defensive fire can only use advance fire; a disarmed or ammunition-short one is no threat),
  discounted by the chance that its own advance fire from there kills the most dangerous shooter
  first, plus the chance that defensive fire destroys it while it leaves its present hex;
- minus what it can achieve there: the best advance-fire kill chance times the target's points;
- a bonus for cover (the share of enemy tanks whose sight of the hex is blocked by forest,
  mountain or wrecks: hull-down), a penalty for standing within 2 hexes of an enemy gun heavier
  than its own (close-range damage bonus, 特殊规则 3), and a small pull toward the nearest enemy
  so that it still comes to a fight when nothing can see it.

It fires (aimed, advance, defensive) only when the kill chance reaches a threshold, never leaps,
and at the end of its turn turns idle turrets toward the nearest enemy (defensive fire may not
turn the turret, 2-2). The opening, free points and special rounds are answered as the
heuristic bot answers them (:mod:`~wargamekit_tank_solo.bot_common`).
"""

from __future__ import annotations

from typing import Any

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
    kill_chance,
    nearest_enemy,
    turn_toward,
)
from .combat import can_fire_now, rotation_options, shot_for, target_in_reach, turns_to_bear
from .fire import shot_odds
from .kinds import step_of
from .movement import Step
from .sight import can_see
from .state import GameState, Tank, other_side
from .vehicles import kill_points

__all__ = ["CautiousBot", "defensive_risk", "defensive_risk_at", "incoming_threat"]

#: Fire (aimed, advance) only with at least this kill chance.
SHOT_THRESHOLD = 0.2
#: Fire defensively (and be locked for a turn) only with at least this kill chance.
DEFENSIVE_THRESHOLD = 0.3
#: Weight of its own expected loss (threat x its points) against the points it may gain.
RISK_WEIGHT = 1.5
#: Bonus for a hex hidden from every enemy tank (scaled by the share hidden from).
COVER_BONUS = 0.4
#: Penalty per enemy gun heavier than its own within close range (2 hexes).
CLOSE_PENALTY = 0.5
#: Penalty per hex of distance to the nearest enemy.
APPROACH = 0.04


def incoming_threat(state: GameState, tank: Tank, at: Hex, *, hooks: Any = None) -> dict[int, float]:
    """Each enemy tank's best kill chance against ``tank`` standing in ``at`` in the enemy's
    next turn, by enemy id (only enemies with a chance above 0).

    Aimed fire if the gun can be brought to bear with the turret turns of a whole turn (a hull
    gun only if ``at`` is in its arc now); otherwise advance fire after turning the hull, if the
    enemy can move. An enemy locked by its own defensive fire may only use advance fire (2-2).
    """
    out: dict[int, float] = {}
    for e in state.living(other_side(tank.side)):
        if e.hex is None or e.hex == at or e.weapon_destroyed or e.ammo_short(state.turn + 1):
            continue
        best = 0.0
        for g, gun in enumerate(e.spec.guns):
            if e.hex.distance(at) > gun.range or not can_see(state.scenario.map, state.wrecks, e.hex, at):
                continue
            bears = turns_to_bear(state, e, g, e.hex, at, rotations=e.spec.turret_rotations) is not None
            if bears:
                fire = "advance" if e.defensive_lock else "aimed"
            elif not e.immobilised and not e.defensive_lock:
                fire = "advance"
            else:
                continue
            best = max(best, float(shot_odds(shot_for(state, e, g, tank, fire, target_hex=at, hooks=hooks)).kill))
        if best > 0:
            out[e.id] = best
    return out


def defensive_risk(state: GameState, tank: Tank, step: Step, *, hooks: Any = None) -> float:
    """The chance that defensive fire (2-2) destroys ``tank`` as it takes ``step``: every enemy
    that may fire defensively, with the gun facing it has now, at the hex it is fired at (the
    starting hex; the hex entered when clearing a wreck, 5 iii)."""
    if step.to is None or tank.hex is None:
        return 0.0
    return defensive_risk_at(state, tank, step.to if step.clears_wreck else tank.hex, hooks=hooks)


def defensive_risk_at(state: GameState, tank: Tank, where: Hex, *, hooks: Any = None) -> float:
    """:func:`defensive_risk` of a step that has ``tank`` fired at in ``where`` (every step that
    does not clear a wreck: its starting hex, so a move's steps share it)."""
    survive = 1.0
    for d in state.living(other_side(tank.side)):
        if d.defensive_lock or not can_fire_now(state, d) or d.hex == where:
            continue
        guns = [d.gun_this_turn] if d.gun_this_turn is not None else range(len(d.spec.guns))
        p = max((float(shot_odds(shot_for(state, d, g, tank, "defensive", target_hex=where, hooks=hooks)).kill)
                 for g in guns if target_in_reach(state, d, g, tank, "defensive", target_hex=where)), default=0.0)
        survive *= 1 - p
    return 1 - survive


class CautiousBot(OddsBot):
    """A bot that plays for survival by exact odds (see the module doc). Deterministic given its seed."""

    defensive_threshold = DEFENSIVE_THRESHOLD

    # -- fire ----------------------------------------------------------------------------------------
    def _fire_selection(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        """Aimed fire with the tank that has the best kill chance, if it reaches the threshold."""
        best, best_chance = None, SHOT_THRESHOLD
        for i, d in enumerate(data):
            if d["action"] == "aimed":
                chance = best_shot(state, state.tank(d["tank"]), "aimed", measure=kill_chance, hooks=self.hooks)
                if chance >= best_chance:
                    best, best_chance = i, chance
        return best if best is not None else index_of(data, "action", "movement")

    def _advance_pick(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        """The tank with the best advance-fire kill chance at or above the threshold; else a tank
        whose turret should turn toward the nearest enemy (ready for defensive fire); else end."""
        best, best_chance = None, SHOT_THRESHOLD
        for i, d in enumerate(data):
            if "tank" in d:
                chance = best_shot(state, state.tank(d["tank"]), "advance", measure=kill_chance, hooks=self.hooks)
                if chance >= best_chance:
                    best, best_chance = i, chance
        if best is not None:
            return best
        for i, d in enumerate(data):
            if "tank" in d:
                tank = state.tank(d["tank"])
                if self._turn_to_nearest(state, tank, _rotations(tank)) is not None:
                    return i
        return index_of(data, "action", "end")

    def _fire_menu(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        """Fire the best shot if its kill chance reaches the threshold; else turn the turret
        toward the best target it could reach, or the nearest enemy; else hold fire."""
        tank = acting_tank(state, decision)
        if tank is None or tank.hex is None:
            return hold_index(data)
        fire = fire_of(decision)
        threshold = DEFENSIVE_THRESHOLD if fire == "defensive" else SHOT_THRESHOLD
        shots = [(kill_chance(state, tank, d["gun"], state.tank(d["target"]), fire, hooks=self.hooks), -i, i)
                 for i, d in enumerate(data) if d["action"] == "fire"]
        if shots and max(shots)[0] >= threshold:
            return max(shots)[2]
        target = self._best_target(state, tank, fire, threshold)
        if target is not None and target.hex is not None:
            turn = turn_toward(state, tank, target.hex, data)
            if turn is not None:
                return turn
        turn = self._turn_to_nearest(state, tank, data)
        return turn if turn is not None else hold_index(data)

    def _best_target(self, state: GameState, tank: Tank, fire: str, threshold: float) -> Tank | None:
        """The enemy with the best kill chance (turret turns left included), if it reaches
        ``threshold``."""
        best, best_chance = None, threshold
        guns = [tank.gun_this_turn] if tank.gun_this_turn is not None else range(len(tank.spec.guns))
        for e in state.living(other_side(tank.side)):
            for g in guns:
                chance = kill_chance(state, tank, g, e, fire, hooks=self.hooks)
                if chance >= best_chance:
                    best, best_chance = e, chance
        return best

    def _turn_to_nearest(self, state: GameState, tank: Tank, data: list[Data]) -> int | None:
        target = nearest_enemy(state, tank)
        if target is None or target.hex is None or tank.spec.turretless:
            return None
        return turn_toward(state, tank, target.hex, data)

    # -- movement ------------------------------------------------------------------------------------
    def _move(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        tank = acting_tank(state, decision)
        if tank is None or tank.hex is None:
            return len(data) - 1
        fire = "leap" if decision.context["leap"] else "advance"
        best, best_value = len(data) - 1, -1e9
        places: dict[tuple[Hex, int | None], tuple[float, float, float, int, int]] = {}
        risks: dict[Hex, float] = {}
        for i, d in enumerate(data):
            if d["action"] == "rotate_turret":
                continue
            value = self.step_value(state, tank, step_of(d), fire, places=places, risks=risks)
            if value > best_value:
                best, best_value = i, value
        return best

    def step_value(self, state: GameState, tank: Tank, step: Step, fire: str = "advance", *,
                   places: dict[tuple[Hex, int | None], tuple[float, float, float, int, int]] | None = None,
                   risks: dict[Hex, float] | None = None) -> float:
        """The score of ``step`` for ``tank`` (see the module doc); higher is better.

        ``places``: the scores of places already weighed for this move (many steps end in the
        same place: turning in place, stopping), filled as they are computed; ``risks``: the
        same for the defensive-fire risk by the hex fired at (every step into a new hex but a
        wreck clearing is fired at in the starting hex).
        """
        assert tank.hex is not None
        at = step.to if step.to is not None else tank.hex
        facing = step.hull if tank.spec.turretless else None
        key = (at, facing)
        place = places.get(key) if places is not None else None
        if place is None:
            place = self._place(state, tank, at, facing, fire)
            if places is not None:
                places[key] = place
        offence, survive, cover, close, near = place
        if step.to is None:
            fired_at = 0.0  # turning in place or stopping: no defensive fire (2-2 is before a step into a hex)
        else:
            where = step.to if step.clears_wreck else tank.hex
            fired_at = risks.get(where, -1.0) if risks is not None else -1.0
            if fired_at < 0:
                fired_at = defensive_risk_at(state, tank, where, hooks=self.hooks)
                if risks is not None:
                    risks[where] = fired_at
        risk = (1 - survive) + fired_at
        value = (offence - RISK_WEIGHT * kill_points(tank.vehicle_class) * risk + COVER_BONUS * cover
                 - CLOSE_PENALTY * close - APPROACH * near - 0.001 * step.cost)
        if step.kind == "stop":
            value += 0.0005
        return value

    def _place(self, state: GameState, tank: Tank, at: Hex, facing: int | None,
               fire: str) -> tuple[float, float, float, int, int]:
        """What a place is worth to ``tank``, whatever step brings it there: its best shot's
        value, the chance to survive the enemy's next turn, cover, heavier guns close, distance."""
        enemies = [e for e in state.living(other_side(tank.side)) if e.hex is not None]
        # what it can do from there: its best advance shot among those it would fire
        offence, target, chance = 0.0, None, 0.0
        for e in enemies:
            for g in range(len(tank.spec.guns)):
                k = kill_chance(state, tank, g, e, fire, at=at, facing=facing, hooks=self.hooks)
                if k >= SHOT_THRESHOLD and k * kill_points(e.vehicle_class) > offence:
                    offence, target, chance = k * kill_points(e.vehicle_class), e, k
        # what the enemy can do to it there next turn, less the shooter it may kill first
        threats = incoming_threat(state, tank, at, hooks=self.hooks)
        survive = 1.0
        for e_id, p in threats.items():
            if target is not None and e_id == target.id:
                p *= 1 - chance
            survive *= 1 - p
        placed = [(e, e_hex) for e in enemies if (e_hex := e.hex) is not None]
        hidden = sum(1 for _, e_hex in placed
                     if e_hex != at and not can_see(state.scenario.map, state.wrecks, e_hex, at))
        cover = hidden / len(enemies) if enemies else 0.0
        my_attack = max(g.attack for g in tank.spec.guns)
        close = sum(1 for e, e_hex in placed if e_hex.distance(at) <= 2 and not e.weapon_destroyed
                    and max(g.attack for g in e.spec.guns) > my_attack)
        near = min((at.distance(e_hex) for _, e_hex in placed), default=0)
        return offence, survive, cover, close, near


def _rotations(tank: Tank) -> list[Data]:
    """The data of the turret-rotation options open to ``tank`` (for asking :func:`turn_toward`)."""
    return [o.data for o in rotation_options(tank)]
