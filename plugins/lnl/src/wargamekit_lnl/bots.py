"""The heuristic bot: it weighs options by exact odds.

It reads only decision kinds, contexts and option data, the state in its view and the
ruleset's pure functions (fire and melee planning, exact odds) — never prompts or labels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from wargamekit import Decision, PlayerView, RandomBot
from wargamekit.decisions import Answer
from wargamekit.geometry import Hex
from wargamekit_lnl import fire, kinds, rules, vehicles
from wargamekit_lnl.data import effects
from wargamekit_lnl.los import visible
from wargamekit_lnl.scenario import parse_hex
from wargamekit_lnl.state import GameState, Place, Unit

#: How much each damage-check result is worth to the firer.
WORTH = {fire.NO_EFFECT: 0.0, fire.SHAKEN: 1.0, fire.WOUNDED: 1.5, fire.REDUCED: 2.0, fire.ELIMINATED: 3.0}


def expected_damage(rows: Sequence[tuple[str, Mapping[str, Fraction]]]) -> float:
    """Expected worth of a fire attack over every target unit (exact odds)."""
    return sum(float(p) * WORTH[res] for _uid, dist in rows for res, p in dist.items())


def _place(data: Mapping[str, Any]) -> Place:
    return (parse_hex(data["hex"]), int(data.get("level", 0)))


class OddsBot:
    """Fires where the exact odds are best, moves on the objectives it does not hold through
    cover and away from waiting enemy guns, assaults a hex when the melee odds are good, holds
    the objectives it has, opportunity-fires when the expected damage is worth the unit's turn,
    and rallies the likeliest units first."""

    def __init__(self, seed: int = 0) -> None:
        self.fallback = RandomBot(seed)
        self.plan: str | None = None
        self.vehicle: str | None = None

    # -- helpers ------------------------------------------------------------------------------
    def goals(self, state: GameState, side: str) -> list[Hex]:
        """The objectives a majority needs, nearest to the side's units first: those not held;
        when all are held, the held ones (to stay on)."""
        units = state.alive(side) or state.alive()
        needed = len(state.objectives) // 2 + 1
        near = sorted(state.objectives, key=lambda h: (sum(h.distance(u.hex) for u in units), h.q, h.r))[:needed]
        mine = [h for h in state.objectives if state.control.get(h) == side]
        return [h for h in near if h not in mine] or mine or near

    def goal_distance(self, state: GameState, side: str, h: Hex) -> int:
        return min(h.distance(g) for g in self.goals(state, side))

    def holding(self, state: GameState, unit: Unit) -> bool:
        """The first Good Order unit on an objective its side holds stays put (the others move on)."""
        if unit.hex not in state.objectives or state.control.get(unit.hex) != unit.side:
            return False
        keepers = [u for u in state.in_hex(unit.hex, unit.side) if u.good_order and u.kind != "medic"]
        return unit is (keepers[0] if keepers else unit)

    def danger(self, state: GameState, side: str, h: Hex) -> float:
        """Enemy units that could still opportunity-fire at ``h``, weighted by cover."""
        n = 0
        for e in state.alive(rules.other(side)):
            if e.good_order and fire.can_fire(e) and not (e.markers & {"move", "fire", "crawl", "stealth"}) \
                    and e.hex.distance(h) <= e.spec.range and visible(state, e.hex, h) is not None:
                n += 1
        cover = effects(state.terrain(h)).drm
        return n * (0.6 if cover == 0 else 0.25 / cover)

    def best_fire(self, state: GameState, units: list[Unit]) -> tuple[float, Place | None]:
        shooters = [u for u in units if fire.can_fire(u) and not u.acted]
        if not shooters:
            return 0.0, None
        best: tuple[float, Place | None] = (0.0, None)
        for place in rules.targets_for(state, shooters, [shooters]):
            value = expected_damage(rules.fire_odds(state, shooters, place))
            if value > best[0]:
                best = (value, place)
        return best

    # -- decisions ----------------------------------------------------------------------------
    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        state: GameState = view.state
        side = decision.side
        data = [o.data for o in getattr(decision, "options", ())]
        kind = decision.kind
        if kind == kinds.RALLY:
            return max(range(len(data)), key=lambda i: self._rally_score(data[i]))
        if kind == kinds.ACTIVATE:
            return self._activate(state, side, data)
        if kind == kinds.UNITS:
            return self._units(state, decision, data)
        if kind == kinds.ACTION:
            actions = [d["action"] for d in data]
            for wanted in (self.plan, "melee", "move", "fire"):
                if wanted in actions:
                    return actions.index(wanted)
            return 0
        if kind == kinds.MOVE_MODE:
            modes = [d["mode"] for d in data]
            return modes.index("normal")
        if kind == kinds.MOVE_STEP:
            return self._step(state, side, decision.context, data)
        if kind in (kinds.FIRE_TARGET, kinds.ASSAULT_FIRE):
            units = [state.units[i] for i in decision.context["units"]]
            scores = [-0.1 if d.get("hold") else expected_damage(rules.fire_odds(state, units, _place(d)))
                      for d in data]
            return max(range(len(data)), key=lambda i: scores[i])
        if kind == kinds.OPPORTUNITY_FIRE:
            scores = []
            for d in data:
                if d.get("pass"):
                    scores.append(0.35)
                    continue
                r = d["respond"]
                if "vehicle" in r:
                    v = state.units[r["vehicle"]]
                    targets_v = [state.units[i] for i in r["targets"]]
                    scores.append(self.vehicle_value(state, v, _place(r["at"]), targets_v))
                    continue
                firers = [state.units[i] for i in r["firers"]]
                targets = {state.units[i].id for i in r["targets"]}
                rows = [row for row in rules.fire_odds(state, firers, _place(r["at"]), opportunity=True, moving=True)
                        if row[0] in targets]
                scores.append(expected_damage(rows))
            return max(range(len(data)), key=lambda i: scores[i])
        if kind == kinds.VEHICLE_TARGET:
            v = state.units[decision.context["unit"]]
            scores = []
            for d in data:
                if d.get("hold"):
                    scores.append(0.1)
                elif "vehicle" in d:
                    tank = state.units[d["vehicle"]]
                    scores.append(self.vehicle_value(state, v, tank.place, [tank]))
                else:
                    place = _place(d)
                    scores.append(self.vehicle_value(state, v, place, state.at(place, rules.other(side))))
            return max(range(len(data)), key=lambda i: scores[i])
        if kind == kinds.VEHICLE_STEP:
            return self._vehicle_step(state, side, decision.context, data)
        if kind == kinds.AT_TARGET:
            return 0
        if kind == kinds.WITHDRAW_HEX:
            return max(range(len(data)), key=lambda i: effects(state.terrain(parse_hex(data[i]["hex"]))).drm)
        return self.fallback.choose(decision, view)

    def _rally_score(self, d: Mapping[str, Any]) -> float:
        action = d["action"]
        if action == "rally":
            num, den = d["p"]
            return 1 + num / den
        return {"heal": 3.0, "merge": 2.5, "pickup": 2.2, "done": 0.0}[action]

    def _activate(self, state: GameState, side: str, data: list[Mapping[str, Any]]) -> int:
        best: tuple[float, int, str | None] = (0.25, 0, None)  # passing: the defender waits for targets
        self.vehicle = None
        for i, d in enumerate(data):
            if d.get("pass"):
                continue
            place = _place(d)
            units = [u for u in state.at(place, side) if not u.acted and not u.vehicle]
            for v in (u for u in state.at(place, side) if u.vehicle and not u.acted):
                score, plan = self.vehicle_plan(state, v)
                if score > best[0]:
                    best = (score, i, plan)
                    self.vehicle = v.id
            if not units:
                continue
            if place in state.melee:
                atk = [u for u in units if rules.melee.can_melee(u, attacking=True)]
                p = rules.melee_odds(state, atk, place) if atk else None
                score, plan = (2.0 * float(p), "melee") if p is not None else (0.3, "withdraw")
            else:
                value, _target = self.best_fire(state, units)
                score, plan = value, "fire"
                movers = [u for u in units if not self.holding(state, u)]
                if movers:
                    gain = self.goal_distance(state, side, place[0])
                    # The attack must reach the objectives in time: moving gains weight each turn.
                    move_score = 1.0 + 0.2 * state.turn if gain else 0.0
                    if gain and gain <= 2 and all(u.good_order for u in movers):
                        move_score = 4.0  # an objective within reach this impulse: take it
                    for lvl in range(state.levels(place[0])):
                        above = (place[0], lvl)
                        if lvl != place[1] and state.at(above, rules.other(side)):
                            p = rules.melee_odds(state, movers, above)
                            if p is not None:
                                move_score = max(move_score, 3.0 * float(p))  # climb and melee (MEL 1.4)
                    if any(u.shaken for u in movers) and self.danger(state, side, place[0]) > 0:
                        move_score = max(move_score, 0.4)  # shaken units leave the line of fire
                    if move_score > score:
                        score, plan = move_score, "move"
            if score > best[0]:
                best = (score, i, plan)
                self.vehicle = None
        self.plan = best[2]
        return best[1]

    def _units(self, state: GameState, decision: Decision, data: list[Mapping[str, Any]]) -> Answer:
        start = (parse_hex(decision.context["hex"]), int(decision.context["level"]))
        if self.vehicle is not None:
            return [next(i for i, d in enumerate(data) if d["unit"] == self.vehicle)]
        picked = []
        for i, d in enumerate(data):
            u = state.units[d["unit"]]
            if u.place != start:
                continue
            if u.vehicle or (self.plan == "fire" and not fire.can_fire(u)):
                continue
            if self.plan == "move" and self.holding(state, u) and u.good_order:
                continue
            picked.append(i)
        if not picked:
            picked = [next(i for i, d in enumerate(data) if state.units[d["unit"]].place == start
                           and not state.units[d["unit"]].vehicle)]
        return picked

    def _step(self, state: GameState, side: str, context: Mapping[str, Any], data: list[Mapping[str, Any]]) -> int:
        movers = [state.units[i] for i in context["units"]]
        here = movers[0].hex
        shaken = any(u.shaken for u in movers)

        def score(d: Mapping[str, Any]) -> float:
            h = here if d.get("stop") else parse_hex(d["hex"])
            place = (h, 0 if d.get("stop") else int(d["level"]))
            enemies = [] if d.get("stop") else state.at(place, rules.other(side))
            if enemies:
                p = rules.melee_odds(state, movers, place)
                if p is None:
                    return -5.0
                # The swapped round (MEL 9) may wipe the movers out: weigh it in.
                back = [u for u in enemies if rules.melee.can_melee(u, attacking=True)]
                q = rules.melee_odds(state, back, (here, 0)) if back else None
                q = Fraction(0) if q is None else q
                return 6.0 * float(p) - 5.0 * float((1 - p) * q) - 1.0
            cover = effects(state.terrain(h)).drm
            value = -1.0 * self.goal_distance(state, side, h) + 0.2 * cover - 0.4 * self.danger(state, side, h)
            if shaken:
                # Shaken units rally only beside a Good Order leader (RAL 2): seek one, in cover.
                helpers = [u.hex for u in state.alive(side) if u.good_order and u.kind in ("leader", "hero", "medic")
                           and u not in movers]
                near = min((h.distance(x) for x in helpers), default=0)
                value = 0.8 * cover - 2.0 * self.danger(state, side, h) - 0.7 * near
            if h in state.objectives and state.control.get(h) != side and not d.get("stop"):
                value += 3.0
            if d.get("stop") and h in self.goals(state, side):
                value += 0.5
            return value

        return max(range(len(data)), key=lambda i: score(data[i]))

    # -- vehicles -----------------------------------------------------------------------------
    def vehicle_value(self, state: GameState, v: Unit, place: Place, targets: Sequence[Unit]) -> float:
        """Expected worth of the vehicle's gun and MGs at ``targets`` (exact odds)."""
        value = 0.0
        shot = vehicles.gun_shot(state, v, place[0])
        tanks = [u for u in targets if u.vehicle and u.alive]
        if tanks and shot is not None:
            dist = vehicles.gun_vs_vehicle_odds(shot, vehicles.penetration_for(v, tanks[0]))
            worth = {vehicles.DESTROYED: 5.0, vehicles.ABANDONED: 4.0, vehicles.SHAKEN: 1.5}
            return sum(float(p) * worth.get(k, 0.0) for k, p in dist.items())
        men = [u for u in targets if not u.vehicle and u.alive]
        if shot is not None and men:
            attack = vehicles.he_attack(state, v, place)
            for u in men:
                dist = vehicles.gun_vs_infantry_odds(shot, attack, fire.Target.of(state, u))
                value += sum(float(p) * WORTH.get(k, 0.0) for k, p in dist.items())
        mg = vehicles.mg_fp(v, place[0])
        line = visible(state, v.hex, place[0])
        if mg and men and line is not None:
            attack = fire.Attack(mg, -line.hindering, fire.terrain_drm(state, v.hex, place), fire.leadership_at(men))
            value += expected_damage([(u.id, fire.outcome_odds(attack, fire.Target.of(state, u))) for u in men])
        return value

    def vehicle_plan(self, state: GameState, v: Unit) -> tuple[float, str]:
        """Fire at the best target, or close on the objectives."""
        places, tanks = vehicles.vehicle_targets(state, v)
        best = 0.0
        if v.good_order:
            for p in places:
                best = max(best, self.vehicle_value(state, v, p, state.at(p, rules.other(v.side))))
            for tank in tanks:
                best = max(best, self.vehicle_value(state, v, tank.place, [tank]))
        gain = self.vehicle_goal_distance(state, v)
        move = 0.6 + 0.1 * state.turn if gain > 3 else 0.0
        if 0 < gain <= 3 and state.turn >= state.turns // 2:
            move = 1.0 + 0.3 * state.turn  # late on, a vehicle takes an objective it can enter
        return (best, "fire") if best >= move else (move, "move")

    def vehicle_goal_distance(self, state: GameState, v: Unit) -> int:
        """Distance to the nearest objective not held that the vehicle can enter (no buildings)."""
        spec = v.spec.vehicle
        assert spec is not None
        from wargamekit_lnl.data import VEHICLE_COST

        open_goals = [h for h in state.objectives if state.control.get(h) != v.side
                      and VEHICLE_COST[spec.move_type][state.terrain(h)] < 99]
        if not open_goals:
            d = self.goal_distance(state, v.side, v.hex)
            return d if d > 3 else 0  # close to within 3 hexes and support the infantry
        return min(v.hex.distance(h) for h in open_goals)

    def _vehicle_step(self, state: GameState, side: str, context: Mapping[str, Any], data: list[Mapping[str, Any]]) -> int:
        v = state.units[context["unit"]]
        enemies = [e for e in state.alive(rules.other(side)) if e.vehicle]
        late = state.turn >= state.turns // 2

        def dist(h: Hex) -> int:
            if late:
                moved = Unit(v.id, v.side, v.type, h, 0)
                return self.vehicle_goal_distance(state, moved) + 3
            return self.goal_distance(state, side, h)

        def facing_score(h: Hex, facing: int) -> float:
            # Keep the thick front armour toward the nearest enemy vehicle (HWV 1.3a).
            if not enemies:
                return 0.0
            nearest = min(enemies, key=lambda e: e.hex.distance(h))
            if nearest.hex == h:
                return 0.0
            from wargamekit.geometry import Arc, HexsideFacing, arc_of

            return {Arc.FRONT: 0.6, Arc.FLANK: 0.0, Arc.REAR: -0.6}[arc_of(h, HexsideFacing(facing), nearest.hex)]

        def score(d: Mapping[str, Any]) -> float:
            if d.get("stop"):
                return -0.8 * max(dist(v.hex) - 3, 0) + facing_score(v.hex, v.facing)
            step, direction = d["step"], d["direction"]
            if step in ("left", "right"):
                ahead = v.hex.neighbour(direction)
                closer = ahead in state.map and dist(ahead) < dist(v.hex)
                far = dist(v.hex) > 3
                return -0.8 * max(dist(v.hex) - 3, 0) + facing_score(v.hex, direction) \
                    + (0.5 if closer and far else -0.2)
            h = v.hex.neighbour(direction)
            if state.at((h, 0), rules.other(side)):
                return 1.0  # an overrun
            return -0.8 * max(dist(h) - 3, 0) + facing_score(h, v.facing) \
                - 0.5 * self.danger(state, side, h) - (0.3 if step == "reverse" else 0.0)

        return max(range(len(data)), key=lambda i: score(data[i]))
