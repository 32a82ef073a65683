"""The heuristic bot: it weighs options by exact odds.

It reads only decision kinds, contexts and option data, the state in its view and the
ruleset's pure functions (fire and melee planning, exact odds) — never prompts or labels.

How it judges (each a function below):

- :func:`threat_worth`: what an enemy group's fire at a place is expected to cost the units
  there, from the exact odds of every damage-check result;
- :meth:`OddsBot.opportunity_risk` / :meth:`OddsBot.exposure_risk`: the fire a stack invites by
  entering a hex (enemy units still able to opportunity-fire) and by standing there marked
  afterwards (enemy units that have not acted yet);
- :meth:`OddsBot.place_value`: what a place is worth to a stack — an objective taken, the
  distance to the objectives still needed, a Good Order leader for shaken units;
- :func:`break_chance` / :meth:`OddsBot.stop_chance`: the chance opportunity fire breaks a
  mover on the way, which stops it (MOV 2.3), so a place's gain counts at the chance of getting
  there;
- :func:`stranding_worth` / :meth:`OddsBot.reserve`: what a hit costs a hex holding every
  leader, hero and medic of the side (the units broken with them have no one to rally them),
  and the rallier kept back so that it does not;
- :meth:`OddsBot.plan_move`: every place the stack can reach with its MP (the ruleset's own
  ``movement.steps``), the path inviting least fire, and the best place net of that risk;
- :meth:`OddsBot.plan_vehicle_move`: every hex and facing a vehicle can reach, and the best end
  net of the enemy guns on the way (:meth:`OddsBot.gun_danger`);
- melee: the exact chance the movers' round eliminates the defenders, less the chance of the
  swapped round (MEL 9) eliminating them.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from attrs import evolve

from wargamekit import Decision, PlayerView, RandomBot, odds
from wargamekit.decisions import Answer
from wargamekit.geometry import Arc, Hex, HexsideFacing, arc_of
from wargamekit_lnl import fire, kinds, movement, rules, vehicles
from wargamekit_lnl.data import effects
from wargamekit_lnl.los import exposed, visible
from wargamekit_lnl.scenario import parse_hex
from wargamekit_lnl.state import GameState, Place, Unit, stacking_ok

#: How much each damage-check result is worth to the firer.
WORTH = {fire.NO_EFFECT: 0.0, fire.SHAKEN: 1.0, fire.WOUNDED: 1.5, fire.REDUCED: 2.0, fire.ELIMINATED: 3.0}


def expected_damage(rows: Sequence[tuple[str, Mapping[str, Fraction]]]) -> float:
    """Expected worth of a fire attack over every target unit (exact odds)."""
    return sum(float(p) * WORTH[res] for _uid, dist in rows for res, p in dist.items())


#: Markers that keep an enemy unit from opportunity fire (OPF 1c).
NO_OPPORTUNITY = frozenset({"move", "fire", "crawl", "stealth"})
#: Markers a move leaves that expose the movers until the turn ends (SPT 3).
EXPOSING = frozenset({"move", "assault"})
#: How likely an enemy is to take a shot it is offered: an opportunity-fire window is usually
#: answered; a later impulse may go elsewhere.
OPPORTUNITY_CHANCE, LATER_CHANCE = 0.6, 0.3
#: The worth of an objective hex taken, and of each hex nearer the objectives still needed.
TAKE, HEX = 4.0, 1.0


def _place(data: Mapping[str, Any]) -> Place:
    return (parse_hex(data["hex"]), int(data.get("level", 0)))


def _key(place: Place) -> tuple[int, int, int]:
    return (place[0].q, place[0].r, place[1])


@cache
def _target_worth(attack: fire.Attack, target: fire.Target) -> float:
    return sum(float(p) * WORTH[res] for res, p in fire.outcome_odds(attack, target).items())


def threat_worth(attack: fire.Attack | None, state: GameState, movers: Sequence[Unit]) -> float:
    """The expected worth (``WORTH``) of the damage an enemy ``attack`` (``fire.plan_fire``: at a
    place, opportunity fire at a mover with OPF 4–5) would do to ``movers`` standing there (exact
    odds of every damage check, the movers' own leader helping)."""
    if attack is None:
        return 0.0
    attack = evolve(attack, leadership=fire.leadership_at(movers))
    return sum(_target_worth(attack, fire.Target.of(state, u)) for u in movers)


def vehicle_mg_attack(state: GameState, v: Unit, place: Place, men: Sequence[Unit]) -> fire.Attack | None:
    """VEH 4: the small-arms attack of the vehicle's MGs that reach ``place`` at the infantry
    ``men`` there (``None``: no MG reaches, no LOS, or no one to hit)."""
    mg = vehicles.mg_fp(v, place[0])
    line = visible(state, v.hex, place[0])
    if not mg or not men or line is None:
        return None
    return fire.Attack(mg, -line.hindering, fire.terrain_drm(state, v.hex, place), fire.leadership_at(men))


#: Units that let shaken units in their hex rally (RAL 2.2, HER 2.5, RAL 2.5).
RALLIERS = ("leader", "hero", "medic")
#: What a unit broken (shaken or worse) with no one left to rally it loses beyond the damage
#: itself: it stays out of the fight to the end.
STRANDED = 1.5


@cache
def _broken_odds(difference: int, leadership: int, target: fire.Target) -> float:
    """The chance a damage check of a hit by ``difference`` leaves the unit shaken or worse."""
    dist = odds.distribution(fire.damage_check, difference, leadership, target)
    return float(sum(p for (res, _hero), p in dist.items() if res != fire.NO_EFFECT))


def stranding_worth(attack: fire.Attack | None, state: GameState, group: Sequence[Unit]) -> float:
    """What one enemy ``attack`` on a hex holding ``group`` costs beyond :func:`threat_worth` when
    the group holds every Good Order leader, hero and medic its side has: one hit checks them all
    (FPR 4), and if every one of them breaks, the other units it breaks have no one to rally them
    (RAL 2). Exact: for each fire difference, the chance all the ralliers break times the
    expected number of the others broken, worth ``STRANDED`` each."""
    if attack is None or not group:
        return 0.0
    side = group[0].side
    ralliers = [u for u in group if u.good_order and u.kind in RALLIERS]
    others = [u for u in group if u not in ralliers and not u.vehicle]
    if not ralliers or not others or any(u.good_order and u.kind in RALLIERS and u not in group
                                         for u in state.alive(side)):
        return 0.0
    attack = evolve(attack, leadership=fire.leadership_at(group))
    targets = [fire.Target.of(state, u) for u in ralliers], [fire.Target.of(state, u) for u in others]
    total = 0.0
    for diff, p in odds.distribution(fire.fire_difference, attack).items():
        if diff <= 0:
            continue
        all_broken = math.prod(_broken_odds(diff, attack.leadership, t) for t in targets[0])
        total += float(p) * all_broken * sum(_broken_odds(diff, attack.leadership, t) for t in targets[1])
    return STRANDED * total


def break_chance(attack: fire.Attack | None, state: GameState, movers: Sequence[Unit]) -> float:
    """The exact chance an ``attack`` (opportunity fire, OPF 1) breaks at least one of the
    ``movers`` (shaken or worse): a mover made shaken stops where it is (MOV 2.3), and the
    stack's plan with it."""
    if attack is None:
        return 0.0
    attack = evolve(attack, leadership=fire.leadership_at(movers))
    targets = [fire.Target.of(state, u) for u in movers if not u.vehicle]
    total = 0.0
    for diff, p in odds.distribution(fire.fire_difference, attack).items():
        if diff > 0:
            total += float(p) * (1.0 - math.prod(1.0 - _broken_odds(diff, attack.leadership, t) for t in targets))
    return total


def melee_value(state: GameState, movers: Sequence[Unit], place: Place, here: Place) -> float:
    """Entering an enemy place (MOV 6): the exact chance ``p`` the movers' round eliminates the
    defenders (each worth an elimination, and an objective taken), less the chance the swapped
    round (MEL 9) eliminates the movers, and a little for a melee left locked; no one able to
    attack is worth a loss."""
    p = rules.melee_odds(state, movers, place)
    if p is None:
        return -5.0
    enemies = state.at(place, rules.other(movers[0].side))
    back = [u for u in enemies if rules.melee.can_melee(u, attacking=True)]
    q = rules.melee_odds(state, back, here) if back else None
    q = Fraction(0) if q is None else q
    lost = float((1 - p) * q)
    locked = float((1 - p) * (1 - q))
    value = float(p) * WORTH[fire.ELIMINATED] * len(enemies) - lost * WORTH[fire.ELIMINATED] * len(movers) \
        - 0.5 * locked
    if place[0] in state.objectives:
        value += TAKE * float(p)
    return value


class OddsBot:
    """Fires where the exact odds are best; moves on the objectives it does not hold along the
    path that invites least fire; assaults a hex when the melee odds are good; keeps a leader
    with shaken units and sends shaken units to a leader; holds the objectives it has;
    opportunity-fires when the expected damage is worth the unit's turn; rallies the likeliest
    units first."""

    def __init__(self, seed: int = 0) -> None:
        self.fallback = RandomBot(seed)
        self.plan: str | None = None
        self.vehicle: str | None = None
        self.movers: list[str] = []
        self.purpose = "attack"  # of the move chosen at activation
        # Judgements of enemy fire, kept while the enemy's units and the smoke stay as they are.
        self.memo: dict[tuple[Any, ...], Any] = {}
        self.memo_key: tuple[Any, ...] = ()

    # -- what the side wants ------------------------------------------------------------------
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
        """The first Good Order unit on an objective its side holds stays put while a Good Order
        enemy could come and take it (the hex stays held when left empty: the victory rule);
        the others move on."""
        if unit.hex not in state.objectives or state.control.get(unit.hex) != unit.side:
            return False
        last = state.turn >= state.turns
        if not any(e.good_order and e.hex.distance(unit.hex) <= 5 and not (last and e.acted)
                   for e in state.alive(rules.other(unit.side))):
            return False
        keepers = [u for u in state.in_hex(unit.hex, unit.side) if u.good_order and u.kind != "medic"]
        return unit is (keepers[0] if keepers else unit)

    def late(self, state: GameState) -> float:
        """How much the fire a move invites still matters: fully early on, less in the last
        turns, when only the objectives held at the end count."""
        left = state.turns - state.turn
        return 1.0 if left >= 3 else 0.6 if left >= 1 else 0.3

    # -- fire the stack invites -----------------------------------------------------------------
    def enemy_groups(self, state: GameState, side: str, *, waiting: bool) -> list[list[Unit]]:
        """Enemy infantry by place that can still fire: ``waiting`` — at a mover now (OPF 1c,
        1d); otherwise — in a later impulse (no action marker yet)."""
        memo = ("groups", side, waiting)
        if memo in self.memo:
            return self.memo[memo]
        groups: dict[Place, list[Unit]] = {}
        for u in state.alive(rules.other(side)):
            if not fire.can_fire(u) or u.place in state.melee:
                continue
            if (u.markers & NO_OPPORTUNITY) if waiting else u.acted:
                continue
            groups.setdefault(u.place, []).append(u)
        self.memo[memo] = out = list(groups.values())
        return out

    def fire_risk(self, state: GameState, movers: Sequence[Unit], place: Place, *, waiting: bool) -> float:
        """Expected worth of the damage enemy fire would do to ``movers`` at ``place``."""
        side = movers[0].side
        group = [*movers, *(u for u in state.at(place, side) if u not in movers)]
        memo = ("risk", tuple((u.id, u.shaken, u.wounded) for u in group), len(movers), place, waiting)
        if memo in self.memo:
            return self.memo[memo]
        risk = 0.0
        for g in self.enemy_groups(state, side, waiting=waiting):
            key = ("attack", tuple(u.id for u in g), place, waiting)
            if key not in self.memo:
                self.memo[key] = fire.plan_fire(state, g, place, opportunity=waiting, moving=waiting)
            risk += threat_worth(self.memo[key], state, movers) + stranding_worth(self.memo[key], state, group)
        for v in state.alive(rules.other(movers[0].side)):
            if v.vehicle and v.good_order and not (v.markers & ({"move", "fire"} if waiting else {"move", "fire", "ops"})):
                risk += self.vehicle_value(state, v, place, list(movers)) \
                    + stranding_worth(vehicle_mg_attack(state, v, place, group), state, group)
        self.memo[memo] = risk
        return risk

    def opportunity_risk(self, state: GameState, movers: Sequence[Unit], place: Place) -> float:
        """The fire entering ``place`` invites now (OPF 1)."""
        return OPPORTUNITY_CHANCE * self.fire_risk(state, movers, place, waiting=True)

    def stop_chance(self, state: GameState, movers: Sequence[Unit], place: Place) -> float:
        """The chance entering ``place`` ends the move there: some waiting enemy group or
        vehicle fires (``OPPORTUNITY_CHANCE``) and breaks a mover (:func:`break_chance`; a
        vehicle: its MGs, or its HE shell breaking the likeliest mover)."""
        memo = ("stop", tuple((u.id, u.shaken, u.wounded) for u in movers), place)
        if memo not in self.memo:
            go_on = 1.0
            for g in self.enemy_groups(state, movers[0].side, waiting=True):
                key = ("attack", tuple(u.id for u in g), place, True)
                if key not in self.memo:
                    self.memo[key] = fire.plan_fire(state, g, place, opportunity=True, moving=True)
                go_on *= 1.0 - OPPORTUNITY_CHANCE * break_chance(self.memo[key], state, movers)
            for v in state.alive(rules.other(movers[0].side)):
                if v.vehicle and v.good_order and not v.markers & {"move", "fire"}:
                    go_on *= 1.0 - OPPORTUNITY_CHANCE * self.vehicle_break_chance(state, v, place, movers)
            self.memo[memo] = 1.0 - go_on
        return self.memo[memo]

    @staticmethod
    def vehicle_break_chance(state: GameState, v: Unit, place: Place, movers: Sequence[Unit]) -> float:
        """The chance the vehicle's opportunity fire at ``place`` breaks one of the ``movers``:
        its MGs (VEH 4) or else its HE shell (HWF 3, HWI 1–2, +1 at movers), at its likeliest."""
        men = [u for u in movers if not u.vehicle]
        if not men:
            return 0.0
        mgs = vehicle_mg_attack(state, v, place, men)
        by_mg = break_chance(evolve(mgs, drm=mgs.drm + 1) if mgs is not None else None, state, men)  # OPF 5
        shot = vehicles.gun_shot(state, v, place[0])
        by_he = 0.0
        if shot is not None:
            he = vehicles.he_attack(state, v, place, moving=True)
            for u in men:
                dist = vehicles.gun_vs_infantry_odds(shot, he, fire.Target.of(state, u))
                by_he = max(by_he, float(1 - dist.get(vehicles.MISS, 0) - dist.get(fire.NO_EFFECT, 0)))
        return 1.0 - (1.0 - by_mg) * (1.0 - by_he)

    def exposure_risk(self, state: GameState, movers: Sequence[Unit], place: Place, marked: bool) -> float:
        """The fire standing at ``place`` invites for the rest of the turn: exposed by a move
        marker (SPT 3), open ground (SPT 1) or a Good Order enemy next to it (SPT 4)."""
        h = place[0]
        exposed = marked or (effects(state.terrain(h)).open and place[1] == 0) or place in state.spotted \
            or any(e.good_order and e.hex.distance(h) <= 1 for e in state.alive(rules.other(movers[0].side)))
        return LATER_CHANCE * self.fire_risk(state, movers, place, waiting=False) if exposed else 0.0

    def enemy_fingerprint(self, state: GameState, side: str) -> tuple[Any, ...]:
        """What enemy fire depends on: the enemy's units, their markers and SWs, the smoke."""
        units = tuple((u.id, u.place, u.shaken, u.wounded, tuple(sorted(u.markers)),
                       tuple(w.jammed for w in u.weapons)) for u in state.alive(rules.other(side)))
        return (side, state.turn, units, tuple(sorted((_key((h, 0)), n) for h, n in state.smoke.items())),
                tuple(sorted(_key(p) for p in state.melee)))

    def own_fingerprint(self, state: GameState, side: str) -> tuple[Any, ...]:
        """What a move plan depends on besides the enemy: the side's units, control, spotting."""
        units = tuple((u.id, u.place, u.shaken, u.wounded, tuple(sorted(u.markers))) for u in state.alive(side))
        return (units, tuple(sorted((_key((h, 0)), s) for h, s in state.control.items())),
                tuple(sorted(_key(p) for p in state.spotted)), state.phase)

    # -- what a place is worth ----------------------------------------------------------------
    def stranded(self, state: GameState, side: str) -> dict[Place, int]:
        """Places of shaken units with no Good Order leader, hero or medic to rally them (RAL 2),
        and how many units wait there."""
        out: dict[Place, int] = {}
        for u in state.alive(side):
            if u.shaken and not u.vehicle and not any(
                    x.good_order and x.kind in ("leader", "hero", "medic") for x in state.at(u.place, side)):
                out[u.place] = out.get(u.place, 0) + 1
        return out

    def place_value(self, state: GameState, movers: Sequence[Unit], place: Place, purpose: str = "attack") -> float:
        """Good Order movers: nearer the objectives still needed, an objective taken; a leader
        sent to rally (``purpose`` ``"rescue"``): shaken units with no one to rally them; shaken
        movers: a Good Order leader or hero to rally with (RAL 2), a medic, cover."""
        side = movers[0].side
        h = place[0]
        if purpose == "rescue":
            return max((n * (2.0 - 0.6 * (h.distance(p[0]) + abs(p[1] - place[1])))
                        for p, n in self.stranded(state, side).items()), default=0.0)
        if all(u.shaken for u in movers):
            helpers = [u for u in state.alive(side) if u.good_order and u.kind in ("leader", "hero", "medic")
                       and u not in movers]
            if not helpers:
                return 0.5 * effects(state.terrain(h)).drm
            near = min(h.distance(x.hex) + (0 if x.level == place[1] else 1) for x in helpers)
            return -HEX * near + 0.3 * effects(state.terrain(h)).drm
        value = -HEX * self.goal_distance(state, side, h)
        if h in state.objectives and state.control.get(h) != side and not state.in_hex(h, rules.other(side)):
            value += TAKE
        return value

    def melee_place_value(self, state: GameState, movers: Sequence[Unit], target: Place, frm: Place,
                          purpose: str = "attack") -> float:
        """A melee (MOV 6) on the scale of :meth:`place_value`: the place the movers attack from,
        what the melee itself is worth (:func:`melee_value`), and, at the chance they win, the
        step into the hex. (Scored alone, a melee worth nothing beat every move not taking an
        objective, whose place values are below zero.)"""
        base = self.place_value(state, movers, frm, purpose)
        p = rules.melee_odds(state, movers, target)
        won = float(p) if p is not None else 0.0
        return base + melee_value(state, movers, target, frm) + won * (self.place_value(state, movers, target, purpose) - base)

    def plan_move(self, state: GameState, movers: Sequence[Unit], mode: str, total: int,
                  moved: bool = False, purpose: str = "attack") -> tuple[float, Place | None]:
        """Every place the stack can reach this impulse (the ruleset's ``movement.steps``), each
        by the path inviting least opportunity fire; the best place's score net of that risk
        and of the exposure after, and the first step toward it (``None``: stay)."""
        memo = ("plan", tuple(u.id for u in movers), mode, total, moved, purpose,
                self.own_fingerprint(state, movers[0].side))
        if memo not in self.memo:
            self.memo[memo] = self._plan_move(state, movers, mode, total, moved, purpose)
        return self.memo[memo]

    def _plan_move(self, state: GameState, movers: Sequence[Unit], mode: str, total: int,
                   moved: bool, purpose: str) -> tuple[float, Place | None]:
        start = movers[0].place
        side = movers[0].side
        weight = self.late(state)
        targetable = mode in ("normal", "assault") or (mode == "crawl" and all(exposed(state, u) for u in movers))
        entering: dict[Place, tuple[float, float]] = {}

        def enter_risk(p: Place) -> tuple[float, float]:
            """The fire entering ``p`` invites, and the chance the move goes on past it."""
            if p not in entering:
                entering[p] = (self.opportunity_risk(state, movers, p), 1.0 - self.stop_chance(state, movers, p)) \
                    if targetable else (0.0, 1.0)
            return entering[p]

        marks = mode in ("normal", "assault")
        exposure: dict[Place, float] = {}

        here = self.place_value(state, movers, start, purpose)

        def arrive(value: float, survive: float) -> float:
            # Broken on the way, the stack stops short: only the gain of arriving counts, at the
            # chance it arrives (MOV 2.3).
            return here + survive * (value - here)

        def final(p: Place, risk: float, survive: float) -> float:
            if p not in exposure:
                exposure[p] = self.exposure_risk(state, movers, p, marks)
            return arrive(self.place_value(state, movers, p, purpose), survive) - weight * (risk + exposure[p])

        best: tuple[float, Place | None] = (here - weight * self.exposure_risk(state, movers, start, moved and marks), None)
        # Every step costs at least 1 MP: taking nodes by MP spent, each node's least risk is final.
        nodes: dict[tuple[Place, int], tuple[float, float, Place | None]] = {(start, 0): (0.0, 1.0, None)}
        places = {_key(start): start}
        reached: dict[Place, list[tuple[int, float, float]]] = {start: [(0, 0.0, 1.0)]}
        heap = [(0, _key(start))]
        while heap:
            spent, k = heapq.heappop(heap)
            place = places[k]
            risk, survive, first = nodes[(place, spent)]
            if spent and place != start:
                score = final(place, risk, survive)
                if score > best[0]:
                    best = (score, first)
            for h, lvl, cost in movement.steps(state, movers, place, spent, total, mode, int(moved or spent > 0)):
                nxt = (h, lvl)
                step = nxt if first is None else first
                if state.at(nxt, rules.other(side)):  # MOV 6: entering starts a melee, the move ends
                    # Won, the movers stand in the hex, exposed by the melee (SPT 4) for the turn.
                    score = arrive(self.melee_place_value(state, movers, nxt, place, purpose), survive) \
                        - weight * (risk + self.exposure_risk(state, movers, nxt, True))
                    if score > best[0]:
                        best = (score, step)
                    continue
                danger, go_on = enter_risk(nxt)
                r, sv = risk + danger, survive * go_on
                node = (nxt, spent + cost)
                # A node reached with no less MP spent, no less risk and no better chance of
                # getting there than another is no better.
                if any(s <= spent + cost and q <= r and v >= sv for s, q, v in reached.get(nxt, ())):
                    continue
                reached.setdefault(nxt, []).append((spent + cost, r, sv))
                if node not in nodes or r < nodes[node][0] - 1e-12:
                    if node not in nodes:
                        heapq.heappush(heap, (spent + cost, _key(nxt)))
                    nodes[node] = (r, sv, step)
                    places[_key(nxt)] = nxt
        return best

    def best_fire(self, state: GameState, units: list[Unit]) -> tuple[float, Place | None]:
        shooters = [u for u in units if fire.can_fire(u) and not u.acted]
        if not shooters:
            return 0.0, None
        best: tuple[float, Place | None] = (0.0, None)
        for place in rules.targets_for(state, shooters, [shooters]):
            value = self.fire_value(state, shooters, place)
            if value > best[0]:
                best = (value, place)
        return best

    def fire_value(self, state: GameState, shooters: Sequence[Unit], place: Place, **kw: bool) -> float:
        """Expected damage, more where the target stands on an objective (it must be cleared)."""
        value = expected_damage(rules.fire_odds(state, shooters, place, **kw))
        return value * (1.5 if place[0] in state.objectives else 1.0)

    def turn_given_up(self, state: GameState, firers: Sequence[Unit]) -> float:
        """Opportunity fire marks the firers (OPF 1c): the move they would have made this turn
        is given up, worth its gain (the last turn's dash onto an objective above all)."""
        if any(u.acted for u in firers):
            return 0.0
        movers = self.movers_for(state, firers)
        return max(0.0, self.move_gain(state, movers, "attack")) if movers else 0.0

    def move_gain(self, state: GameState, movers: Sequence[Unit], purpose: str) -> float:
        """What moving the stack now gains over leaving it where it is (its best plan, normal
        or crawling)."""
        place = movers[0].place
        stay = self.place_value(state, movers, place, purpose) - self.late(state) * \
            self.exposure_risk(state, movers, place, False)
        return max(self.plan_move(state, movers, mode, movement.allowance(movers, mode), purpose=purpose)[0]
                   for mode in ("normal", "crawl") if mode in movement.modes_for(movers)) - stay

    def rescuers(self, state: GameState, units: Sequence[Unit]) -> list[Unit]:
        """A Good Order leader (else hero) not needed where it stands, to go and rally shaken
        units elsewhere that have no one (RAL 2)."""
        if any(u.shaken for u in units) or not self.stranded(state, units[0].side):
            return []
        helpers = sorted((u for u in units if u.good_order and u.kind in ("leader", "hero") and not self.holding(state, u)),
                         key=lambda u: (u.kind != "leader", u.id))
        return helpers[:1]

    def reserve(self, state: GameState, movers: Sequence[Unit]) -> Unit | None:
        """The rallier to keep back when ``movers`` hold every Good Order leader and hero of
        their side with units for them to lead: a hero (else the weaker leader) that stays
        where it is, so that a hit on the stack (:func:`stranding_worth`) leaves someone to
        rally it (RAL 2). The move is then weighed with and without it."""
        ralliers = [u for u in movers if u.good_order and u.kind in ("leader", "hero")]
        if len(ralliers) < 2 or len(ralliers) == len(movers) or any(
                u.good_order and u.kind in ("leader", "hero") and u not in movers for u in state.alive(movers[0].side)):
            return None
        return max(ralliers, key=lambda u: (u.kind == "hero", -u.leadership, u.id))

    def movers_for(self, state: GameState, units: Sequence[Unit]) -> list[Unit]:
        """Who moves from a place: Good Order units not holding an objective — but a Good Order
        leader (else hero) stays with shaken units to rally them next turn (RAL 2); with no
        helper there, the shaken units go to one."""
        shaken = [u for u in units if u.shaken]
        go = [u for u in units if u.good_order and not self.holding(state, u) and u.kind != "medic"]
        helpers = sorted((u for u in units if u.good_order and u.kind in ("leader", "hero")),
                         key=lambda u: (u.kind != "leader", u.id))
        if shaken and helpers:
            return [u for u in go if u is not helpers[0]]
        medics = [u for u in units if u.kind == "medic" and u.good_order]
        return go + medics if go else shaken

    # -- decisions ----------------------------------------------------------------------------
    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        state: GameState = view.state
        side = decision.side
        seen = self.enemy_fingerprint(state, side)
        if seen != self.memo_key:
            self.memo.clear()
            self.memo_key = seen
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
            return self._mode(state, decision.context, data)
        if kind == kinds.MOVE_STEP:
            return self._step(state, decision.context, data)
        if kind in (kinds.FIRE_TARGET, kinds.ASSAULT_FIRE):
            units = [state.units[i] for i in decision.context["units"]]
            scores = [-0.1 if d.get("hold") else self.fire_value(state, units, _place(d)) for d in data]
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
                scores.append(expected_damage(rows) - self.turn_given_up(state, firers))
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
        if kind == kinds.SNIPER:
            # SMC 2.1: a sniper placed now fires at once; one kept back fires no better later
            return next((i for i, d in enumerate(data) if not d.get("pass")), 0)
        if kind == kinds.SNIPER_TARGET:
            return max(range(len(data)), key=lambda i: self._sniper_target_value(state, data[i]))
        if kind == kinds.TEAM_FACING:
            team = state.units[decision.context["unit"]]
            return max(range(len(data)), key=lambda i: self._facing_value(state, team, data[i]["facing"]))
        if kind == kinds.COUNTER_ATTACK:
            return self._counter_attack(data)
        if kind == kinds.WEAPONS:
            return max(range(len(data)), key=lambda i: self._weapons_value(state, data[i]))
        return self.fallback.choose(decision, view)

    @staticmethod
    def _counter_attack(data: list[Mapping[str, Any]]) -> int:
        """VMV 3.5: hold: each attacker must first pass a morale check (IVV 2) against a vehicle
        that has just overrun it, and a failed one leaves the hex's infantry worse off."""
        return next((i for i, d in enumerate(data) if not d["attack"]), 0)

    @staticmethod
    def _weapons_value(state: GameState, d: Mapping[str, Any]) -> float:
        """RAL 4, SW 1–2: keep the SWs ("done": never drop or destroy one, SW 3.1), except that
        a single-man counter hands its SW to a squad or half-squad of its hex: carrying one costs
        it 2 MP (MOV 1.1), and so the whole stack it leads, and it fires it at half FP (SW 2.3)
        where a squad adds it in full (SW 2.1–2.2)."""
        if d["action"] == "done":
            return 0.0
        if d["action"] == "exchange" and d.get("back") is None:
            giver, taker = state.units[d["unit"]], state.units[d["to"]]
            if giver.spec.single_man and taker.kind in ("squad", "half"):
                return 1.0
        return -1.0

    @staticmethod
    def _sniper_target_value(state: GameState, d: Mapping[str, Any]) -> float:
        """SMC 2.3: a leader hit costs a whole stack its leadership; any target beats holding."""
        if d.get("hold"):
            return 0.0
        return 2.0 if state.units[d["unit"]].kind in ("leader", "hero") else 1.0

    @staticmethod
    def _facing_value(state: GameState, team: Unit, facing: int) -> tuple[int, int]:
        """MOV 8 / HWF 2: the hexside whose front arc holds the most enemy units (ties: keep the
        facing it has)."""
        faced = evolve(team, facing=facing)
        enemies = sum(fire.in_arc(faced, u.hex) for u in state.alive(rules.other(team.side)))
        return enemies, facing == team.facing

    def _rally_score(self, d: Mapping[str, Any]) -> float:
        action = d["action"]
        if action == "rally":
            num, den = d["p"]
            return 1 + num / den
        return {"heal": 3.0, "merge": 2.5, "pickup": 2.2, "done": 0.0}.get(action, 0.0)

    def _activate(self, state: GameState, side: str, data: list[Mapping[str, Any]]) -> int:
        """The impulse worth most: a vehicle's fire or move, a melee to fight, the best fire
        (expected damage), or the best move (the planned place's gain over staying)."""
        best: tuple[float, int, str | None, list[str]] = (0.25, 0, None, [])  # passing: wait for targets
        self.vehicle = None
        self.purpose = "attack"
        for i, d in enumerate(data):
            if d.get("pass"):
                continue
            place = _place(d)
            units = [u for u in state.at(place, side) if not u.acted and not u.vehicle]
            for v in (u for u in state.at(place, side) if u.vehicle and not u.acted):
                score, plan = self.vehicle_plan(state, v)
                if plan in ("move", "hunt") and self.plan_vehicle_move(state, v, vehicles.mp_of(v), plan == "hunt") is None:
                    continue  # nowhere better to go: unmarked, it can still opportunity-fire (OPF 1c)
                if score > best[0]:
                    best = (score, i, plan, [v.id])
            if not units:
                continue
            if place in state.melee:
                atk = [u for u in units if rules.melee.can_melee(u, attacking=True)]
                p = rules.melee_odds(state, atk, place) if atk else None
                score, plan = (2.0 * float(p), "melee") if p is not None else (0.3, "withdraw")
                if score > best[0]:
                    best = (score, i, plan, [u.id for u in units])
                continue
            value, _target = self.best_fire(state, units)
            if value > best[0]:
                best = (value, i, "fire", [u.id for u in units if fire.can_fire(u)])
            movers = self.movers_for(state, units)
            candidates = [(movers, "attack")]
            kept = self.reserve(state, movers)
            if kept:
                candidates.append(([u for u in movers if u is not kept], "attack"))
            rescuers = self.rescuers(state, units)
            if rescuers:
                candidates.append((rescuers, "rescue"))
            for movers, purpose in candidates:
                if not movers:
                    continue
                gain = self.move_gain(state, movers, purpose)
                if gain > best[0]:
                    best = (gain, i, "move", [u.id for u in movers])
                    self.purpose = purpose
        self.plan = best[2]
        self.movers = best[3]
        if self.plan is not None and best[3] and state.units[best[3][0]].vehicle:
            self.vehicle = best[3][0]
        return best[1]

    def _units(self, state: GameState, decision: Decision, data: list[Mapping[str, Any]]) -> Answer:
        start = (parse_hex(decision.context["hex"]), int(decision.context["level"]))
        picked = [i for i, d in enumerate(data) if d["unit"] in self.movers and state.units[d["unit"]].place == start]
        if not picked:
            picked = [next(i for i, d in enumerate(data) if state.units[d["unit"]].place == start
                           and not state.units[d["unit"]].vehicle)]
        return picked

    def purpose_of(self, movers: Sequence[Unit]) -> str:
        return self.purpose if sorted(u.id for u in movers) == sorted(self.movers) else "attack"

    def _mode(self, state: GameState, context: Mapping[str, Any], data: list[Mapping[str, Any]]) -> int:
        """Normal or crawl, whichever plan scores better (crawl: one hex, no opportunity fire at
        unexposed movers, CRL 1); a vehicle moves normally."""
        movers = [state.units[i] for i in context["units"]]
        modes = [d["mode"] for d in data]
        if movers[0].vehicle:
            return modes.index("normal")
        purpose = self.purpose_of(movers)
        scores = {m: self.plan_move(state, movers, m, movement.allowance(movers, m), purpose=purpose)[0]
                  for m in ("normal", "crawl") if m in modes}
        return modes.index(max(scores, key=lambda m: (scores[m], m == "normal")))

    def _step(self, state: GameState, context: Mapping[str, Any], data: list[Mapping[str, Any]]) -> int:
        movers = [state.units[i] for i in context["units"]]
        moved = any(u.markers & {"move", "crawl", "stealth", "assault"} for u in movers)
        _score, first = self.plan_move(state, movers, context["mode"], int(context["mp_left"]), moved,
                                       self.purpose_of(movers))
        for i, d in enumerate(data):
            if first is None and d.get("stop"):
                return i
            if first is not None and not d.get("stop") and _place(d) == first:
                return i
        return next(i for i, d in enumerate(data) if d.get("stop"))

    def danger(self, state: GameState, side: str, h: Hex) -> float:
        """Enemy units that could still opportunity-fire at ``h``, weighted by cover (a
        vehicle's path: its armour, not the damage check, decides)."""
        n = 0
        for e in state.alive(rules.other(side)):
            if e.good_order and fire.can_fire(e) and not (e.markers & NO_OPPORTUNITY) \
                    and e.hex.distance(h) <= e.spec.range and visible(state, e.hex, h) is not None:
                n += 1
        cover = effects(state.terrain(h)).drm
        return n * (0.6 if cover == 0 else 0.25 / cover)

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
        mgs = vehicle_mg_attack(state, v, place, men)
        if mgs is not None:
            value += expected_damage([(u.id, fire.outcome_odds(mgs, fire.Target.of(state, u))) for u in men])
        return value

    def vehicle_plan(self, state: GameState, v: Unit) -> tuple[float, str]:
        """Fire at the best target, or close on the objectives; with neither, hunt: drive toward
        the nearest enemy until something is in sight ("hunt")."""
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
        if best == 0.0 and move == 0.0 and v.good_order and state.alive(rules.other(v.side)):
            return (0.5, "hunt")
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

    def vehicle_aims(self, state: GameState, v: Unit, hunt: bool) -> tuple[Callable[[Hex], int], Callable[[Hex, int], float]]:
        """What a vehicle's move aims at: the distance still to go from a hex (hunting: to the
        nearest enemy; late on: onto an objective it can enter; else: within 3 hexes of the
        objectives the infantry needs), and how a facing there is worth keeping the thick front
        armour toward the nearest enemy vehicle (HWV 1.3a)."""
        side = v.side
        enemies = [e for e in state.alive(rules.other(side)) if e.vehicle]
        late = state.turn >= state.turns // 2

        def dist(h: Hex) -> int:
            if hunt:
                return min(e.hex.distance(h) for e in state.alive(rules.other(side))) + 1
            if late:
                return self.vehicle_goal_distance(state, evolve(v, hex=h, level=0)) + 3
            return self.goal_distance(state, side, h)

        def facing_score(h: Hex, facing: int) -> float:
            if not enemies:
                return 0.0
            nearest = min(enemies, key=lambda e: e.hex.distance(h))
            if nearest.hex == h:
                return 0.0
            return {Arc.FRONT: 0.6, Arc.FLANK: 0.0, Arc.REAR: -0.6}[arc_of(h, HexsideFacing(facing), nearest.hex)]

        return dist, facing_score

    def gun_danger(self, state: GameState, v: Unit, h: Hex, facing: int) -> float:
        """The chance-weighted loss an armoured vehicle risks entering ``h``: each enemy gun
        still able to opportunity-fire (no move or fire marker, OPF 1c) that reaches ``h``, by
        the exact odds of destroying or abandoning it through the armour it would show there
        (HWV 1); small arms cannot hurt it (SAV 2.4). An unarmoured one counts the infantry
        too (:meth:`danger`)."""
        if vehicles.unarmoured(v):
            return self.danger(state, v.side, h)
        moved = evolve(v, hex=h, level=0, facing=facing, turret=facing)
        loss = 0.0
        for e in state.alive(rules.other(v.side)):
            if not e.vehicle or not e.good_order or e.markers & {"move", "fire"} or e.hex == h:
                continue
            shot = vehicles.gun_shot(state, e, h)
            if shot is None or e.spec.vehicle is None or e.spec.vehicle.pen == 0:
                continue
            dist = vehicles.gun_vs_vehicle_odds(shot, vehicles.penetration_for(e, moved))
            loss += OPPORTUNITY_CHANCE * float(dist.get(vehicles.DESTROYED, 0) + dist.get(vehicles.ABANDONED, 0))
        return 5.0 * loss

    def plan_vehicle_move(self, state: GameState, v: Unit, mp_left: int, hunt: bool = False) -> tuple[str, int] | None:
        """Every hex and facing the vehicle can reach with the MP it has left (VMV 1: forward,
        reverse at double cost, a hexside turn 1 MP; never into an enemy vehicle's hex or past
        the stacking limit; an overrun, VMV 3, with 4 MP to spare, ends the plan), each by the
        cheapest way; the best end — nearer its aim, front toward the enemy armour, least
        exposed to enemy guns on the way — and the first step toward it (``None``: stop)."""
        dist, facing_score = self.vehicle_aims(state, v, hunt)
        side = v.side
        start = (v.hex, v.facing)

        def end_score(h: Hex, facing: int, risk: float) -> float:
            return -0.8 * max(dist(h) - 3, 0) + facing_score(h, facing) - risk

        best: tuple[float, tuple[str, int] | None] = (end_score(v.hex, v.facing, 0.0), None)
        # Dijkstra by MP spent; a node's first step and risk come from its cheapest way.
        seen: dict[tuple[Hex, int], int] = {start: 0}
        heap: list[tuple[int, int, int, int, int]] = [(0, 0, v.hex.q, v.hex.r, v.facing)]
        info: dict[tuple[Hex, int], tuple[float, tuple[str, int] | None]] = {start: (0.0, None)}
        while heap:
            spent, _n, q, r, facing = heapq.heappop(heap)
            node = (Hex(q, r), facing)
            if seen.get(node, -1) < spent:
                continue
            risk, first = info[node]
            if node != start:
                score = end_score(node[0], facing, risk)
                if score > best[0]:
                    best = (score, first)
            h = node[0]
            moves: list[tuple[str, int, Hex, int, int]] = [
                ("left", (facing + 5) % 6, h, (facing + 5) % 6, 1),
                ("right", (facing + 1) % 6, h, (facing + 1) % 6, 1)]
            for step, direction, mult in (("forward", facing, 1), ("reverse", (facing + 3) % 6, 2)):
                to = h.neighbour(direction)
                if to not in state.map:
                    continue
                cost = vehicles.vehicle_step_cost(state, h, to, v) * mult
                if cost == float("inf"):
                    continue
                enemies = state.at((to, 0), rules.other(side))
                if any(e.vehicle for e in enemies):
                    continue
                friends = [u for u in state.at((to, 0), side) if u is not v]
                if not stacking_ok([*friends, v], state.wrecks.get(to, 0)):
                    continue
                if enemies:  # VMV 3: an overrun ends the plan here
                    if step == "forward" and spent + cost + 4 <= mp_left:
                        score = 1.0 - risk
                        if score > best[0]:
                            best = (score, first or (step, direction))
                    continue
                moves.append((step, direction, to, facing, int(cost)))
            for step, direction, to, new_facing, cost in moves:
                if spent + cost > mp_left:
                    continue
                nxt = (to, new_facing)
                if nxt in seen and seen[nxt] <= spent + cost:
                    continue
                seen[nxt] = spent + cost
                extra = 0.5 * self.gun_danger(state, v, to, new_facing) if to != h else 0.0
                extra += 0.3 if step == "reverse" else 0.0
                info[nxt] = (risk + extra, first or (step, direction))
                heapq.heappush(heap, (spent + cost, len(info), to.q, to.r, new_facing))
        return best[1]

    def _vehicle_step(self, state: GameState, side: str, context: Mapping[str, Any], data: list[Mapping[str, Any]]) -> int:
        """The first step of :meth:`plan_vehicle_move` (stop when it plans none, or when the
        step is not offered: an escort's own limits, VMV 1.4)."""
        v = state.units[context["unit"]]
        first = self.plan_vehicle_move(state, v, int(context["mp_left"]), self.plan == "hunt")
        for i, d in enumerate(data):
            if first is None and d.get("stop"):
                return i
            if first is not None and not d.get("stop") and (d["step"], d["direction"]) == first:
                return i
        return next(i for i, d in enumerate(data) if d.get("stop"))
