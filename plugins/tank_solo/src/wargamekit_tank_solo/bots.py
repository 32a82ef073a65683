"""The heuristic bot: picks shots, rounds and moves by exact odds.

Every shot it weighs is scored by :func:`~wargamekit_tank_solo.fire.shot_odds` — the exact hit
and kill probabilities of the pure resolution — times the victory points of the target. Moves
are chosen one step at a time by a one-step look-ahead: the best advance-fire kill chance from
the new place, minus the enemy's best chances against it there, minus a little for distance to
the nearest enemy (so it closes in when nothing is in range).
"""

from __future__ import annotations

from typing import Any

from wargamekit import Choose, ChooseNumber, ChooseSubset, Response, SeededBot, YesNo
from wargamekit.decisions import Decision
from wargamekit.geometry import Hex, HexsideFacing, in_fire_arc

from .combat import FireAt, RotateTurret, can_fire_now, shot_for, turns_to_bear
from .fire import shot_odds
from .movement import Step
from .sight import can_see
from .state import GameState, Tank, other_side
from .vehicles import all_vehicles, kill_points

__all__ = ["HeuristicBot"]

#: Fire in the fire-selection step only with at least this expected gain (points).
AIMED_THRESHOLD = 0.3
#: Fire defensively (and be locked for a turn) only with at least this kill chance.
DEFENSIVE_THRESHOLD = 0.2


def _kill_value(state: GameState, firer: Tank, gun: int, target: Tank, fire: str, *, at: Hex | None = None,
                facing: int | None = None) -> float:
    """Expected victory points of one shot, or 0 if it cannot be fired (range, arc, sight)."""
    origin = firer.hex if at is None else at
    assert origin is not None and target.hex is not None
    if origin == target.hex:
        return 0.0
    g = firer.spec.guns[gun]
    if origin.distance(target.hex) > g.range:
        return 0.0
    if turns_to_bear(state, firer, gun, origin, target.hex, facing) is None:
        return 0.0
    scouting = fire == "leap" and firer.vehicle_class == "light" and target.vehicle_class != "light"
    if not can_see(state.scenario.map, state.wrecks, origin, target.hex, scouting=scouting):
        return 0.0
    saved = firer.hex
    firer.hex = origin
    try:
        odds = shot_odds(shot_for(state, firer, gun, target, fire))
    finally:
        firer.hex = saved
    return float(odds.kill) * kill_points(target.vehicle_class)


class HeuristicBot(SeededBot):
    """A bot that uses exact shot odds (see the module doc). Deterministic given its seed."""

    # -- dispatch ------------------------------------------------------------------------------
    def choose(self, decision: Decision, view: Any) -> Any:
        if isinstance(decision, YesNo):
            return True  # the only yes/no is the light tank's second round: always take it
        if isinstance(decision, ChooseNumber):
            return decision.high  # free points: as many as allowed
        if isinstance(decision, ChooseSubset):
            return decision.random_answer(self.rng)
        assert isinstance(decision, Choose)
        state: GameState = view.state
        values = [o.value for o in decision.options]
        rule = decision.rule
        if any(isinstance(v, Step) for v in values):
            return self._move(state, decision, values)
        if any(isinstance(v, (FireAt, RotateTurret)) for v in values) or "holds fire" in decision.options[-1].label:
            return self._fire_menu(state, decision, values)
        if rule.startswith("开场阶段 1"):
            return self._pick_tank(values)
        if rule.startswith("开场阶段 2"):
            return 0
        if rule.startswith("开场阶段 3 行军"):
            return self._deploy(state, decision, values)
        if rule.startswith("标准规则修改部分 3 (车体朝向)"):
            return 0  # options list the facing toward the enemy first
        if rule.startswith("开场阶段 3;"):
            return self._load(state, values)
        if rule.startswith("作战阶段 1 "):
            return self._fire_selection(state, values)
        if rule.startswith("作战阶段 2-2"):
            return self._defensive(state, values)
        if rule.startswith("作战阶段 2-1"):
            return self._next_mover(values)
        if rule.startswith("作战阶段 3 "):
            return self._advance_pick(state, values)
        if rule.startswith("特殊规则 4"):
            return self._round(state, decision, values)
        if rule.startswith("作战阶段 1-2"):
            return len(values) - 1  # naming a leap target: give up (this bot does not leap)
        return 0

    # -- opening -----------------------------------------------------------------------------------
    def _pick_tank(self, values: list[Any]) -> int:
        table = all_vehicles()
        best, best_score = len(values) - 1, -1.0
        for i, key in enumerate(values):
            if key is None:
                continue
            v = table[key]
            g = max(v.guns, key=lambda g: g.attack)
            score = v.armour + g.attack + 0.5 * g.range + v.movement + 0.01 * v.price
            if score > best_score:
                best, best_score = i, score
        return best

    def _deploy(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        mine = [t.hex for t in state.tanks if t.side == decision.side and t.hex is not None]
        centre = state.map.width / 2

        def score(h: Hex) -> float:
            col, _ = state.map.hexmap.offset(h)
            spread = min((h.distance(o) for o in mine), default=4)
            return min(spread, 3) - abs(col - centre) * 0.2

        return max(range(len(values)), key=lambda i: (score(values[i]), -i))

    def _load(self, state: GameState, values: list[Any]) -> int:
        for kind in ("fin", "hesh", "overloaded"):
            candidates = [(i, v) for i, v in enumerate(values) if v is not None and v[0] == kind]
            if candidates:
                return max(candidates, key=lambda iv: (state.tank(iv[1][1]).spec.guns[0].attack, -iv[0]))[0]
        return len(values) - 1

    # -- combat --------------------------------------------------------------------------------------
    def _best_shot(self, state: GameState, tank: Tank, fire: str) -> float:
        if not can_fire_now(state, tank):
            return 0.0
        guns = [tank.gun_this_turn] if tank.gun_this_turn is not None else range(len(tank.spec.guns))
        return max((_kill_value(state, tank, g, e, fire) for g in guns for e in state.living(other_side(tank.side))),
                   default=0.0)

    def _fire_selection(self, state: GameState, values: list[Any]) -> int:
        best, best_value = None, AIMED_THRESHOLD
        for i, (kind, tank_id) in enumerate(values):
            if kind == "aimed":
                value = self._best_shot(state, state.tank(tank_id), "aimed")
                if value > best_value:
                    best, best_value = i, value
        if best is not None:
            return best
        return values.index(("movement", 0))

    def _fire_menu(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        shots = [(i, v) for i, v in enumerate(values) if isinstance(v, FireAt)]
        tank = self._actor(state, decision, values)
        fire = _fire_of(decision.rule)
        if shots and tank is not None:
            i, _ = max(shots, key=lambda iv: (_kill_value(state, tank, iv[1].gun, state.tank(iv[1].target), fire), -iv[0]))
            return i
        rotations = [(i, v) for i, v in enumerate(values) if isinstance(v, RotateTurret)]
        if rotations and tank is not None and tank.hex is not None:
            enemies = [e for e in state.living(other_side(tank.side)) if e.hex is not None]
            if enemies:
                target = min(enemies, key=lambda e: (tank.hex.distance(e.hex), e.id))
                if not in_fire_arc(tank.hex, HexsideFacing(tank.turret), target.hex, state.scenario.fire_arc_width):
                    for i, r in rotations:
                        after = (tank.turret + r.turn) % 6
                        if _gap(tank.hex, after, target.hex) < _gap(tank.hex, tank.turret, target.hex):
                            return i
        return values.index(None) if None in values else len(values) - 1

    def _actor(self, state: GameState, decision: Choose, values: list[Any]) -> Tank | None:
        for tank in state.living(decision.side):
            if tank.name in decision.prompt:
                return tank
        return None

    def _round(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        """Use a special round only when its exact odds (in the labels) clearly beat the standard
        round's; HESH counts its disabling results at part of a kill."""
        best, best_value = 0, -1.0
        for i, option in enumerate(decision.options):
            hit = _percent_in(option.label, "hit") or 0.0
            kill = _percent_in(option.label, "kill") or 0.0
            value = hit * (1 / 3 + 1 / 3 * 0.5 + 1 / 3 * 0.3) if option.value == "hesh" else kill
            if option.value is not None:
                value -= 0.05  # a special round is spent for good: keep it unless it helps
            if value > best_value:
                best, best_value = i, value
        return best

    def _defensive(self, state: GameState, values: list[Any]) -> int:
        best, best_value = 0, DEFENSIVE_THRESHOLD
        for i, v in enumerate(values):
            if isinstance(v, Response) and v.data is not None:
                defender_id, shot, where = v.data
                defender, target = state.tank(defender_id), state.tank(shot.target)
                saved = target.hex
                target.hex = where
                try:
                    value = _kill_value(state, defender, shot.gun, target, "defensive") / kill_points(target.vehicle_class)
                finally:
                    target.hex = saved
                if value > best_value:
                    best, best_value = i, value
        return best

    def _next_mover(self, values: list[Any]) -> int:
        for i, v in enumerate(values):
            if v is not None:
                return i
        return len(values) - 1

    def _advance_pick(self, state: GameState, values: list[Any]) -> int:
        for i, v in enumerate(values):
            if v is not None and self._best_shot(state, state.tank(v), "advance") > 0:
                return i
        return values.index(None)

    # -- movement ------------------------------------------------------------------------------------
    def _move(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        tank = self._actor(state, decision, values)
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
            offence = max((_kill_value(state, tank, g, e, fire, at=at, facing=facing)
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


def _fire_of(rule: str) -> str:
    if "1-1" in rule:
        return "aimed"
    if "1-2" in rule:
        return "leap"
    if "2-2" in rule:
        return "defensive"
    return "advance"


def _gap(at: Hex, facing: int, target: Hex) -> int:
    from wargamekit.geometry import wedges_of

    return min(min((w - facing) % 6, (facing - w) % 6) for w in wedges_of(at, target))


def _percent_in(label: str, word: str) -> float | None:
    key = f"{word} "
    if key not in label:
        return None
    after = label.split(key, 1)[1]
    number = after.split("%", 1)[0]
    try:
        return float(number) / 100
    except ValueError:
        return None
