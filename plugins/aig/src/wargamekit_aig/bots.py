"""Bots. The core's :class:`~wargamekit.RandomBot` plays AIG as is; :class:`HeuristicBot` reads
only decision kinds, contexts and option data (plus the view's state and pure odds functions) and
weighs fire, shock, momentum and seizes by their exact odds (:mod:`wargamekit_aig.odds_calc`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from wargamekit import Decision, PlayerView, RandomBot
from wargamekit.decisions import Answer
from wargamekit.geometry import Arc, Hex, arc_of
from wargamekit_aig import kinds, melee, missile, odds_calc
from wargamekit_aig.scenario import LAYOUT
from wargamekit_aig.state import GameState, Unit

#: Units that fight at a distance: they close to this range and shoot rather than charge.
SKIRMISHERS = frozenset({"LI", "LC"})


def _hex(label: str) -> Hex:
    return Hex.from_label(label, LAYOUT, base=1)


def _enemies(state: GameState, side: str) -> list[Unit]:
    return [e for e in state.live_units() if e.side != side and not e.routed]


def _nearest(state: GameState, side: str, h: Hex) -> int:
    return min((h.distance(e.hex) for e in _enemies(state, side)), default=99)


def expected_shock(shock: melee.Shock) -> float:
    """Expected (defender hits − attacker hits) of a shock, from its exact distribution."""
    return float(sum(p * (d - a) for (a, d), p in odds_calc.shock_odds(shock).items()))


class HeuristicBot:
    """Advances on the enemy, shoots when the exact odds are fair, attacks where the exact shock
    odds favour it, tries momentum and seizes when likely to succeed."""

    #: The read-only promise (:class:`wargamekit.players.Player`): it only reads ``view.state``
    #: and keeps nothing of it, so it is handed the live position (no copy per decision).
    reads_view_only = True

    def __init__(self, seed: int = 0) -> None:
        self.fallback = RandomBot(seed)
        #: kind -> scorer of one option; a scorer reads ``view.state`` only if it needs the
        #: position (a view is built on its first read: seizes, momentum and fire-back windows
        #: never pay for one).
        self.scorers: dict[str, Callable[[PlayerView, Decision, Mapping[str, Any]], float]] = {
            kinds.ACTIVATE: self.activate, kinds.SEIZE: self.seize, kinds.COMMAND: self.command,
            kinds.ORDER: self.order, kinds.GROUP_NEXT: self.group_next, kinds.UNIT_STEP: self.step,
            kinds.MELEE: self.melee, kinds.MOMENTUM: self.momentum, kinds.RETURN_FIRE: self.fire_back,
            kinds.REACTION_FIRE: self.fire_back, kinds.EVADE: self.fire_back,
            kinds.EMERGENCY_TURN: self.brace, kinds.WITHDRAW: self.withdraw,
        }

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        scorer = self.scorers.get(decision.kind)
        options = getattr(decision, "options", ())
        if scorer is None or not options:
            return self.fallback.choose(decision, view)
        scores = [scorer(view, decision, o.data) for o in options]
        return max(range(len(options)), key=lambda i: (scores[i], -i))

    # -- leaders ---------------------------------------------------------------------------------
    def activate(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        state: GameState = view.state
        leader = state.leaders[data["leader"]]
        return -_nearest(state, leader.side, leader.hex)

    def seize(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        if data.get("pass"):
            return 0.5
        return float(data["respond"]["chance"])

    def momentum(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        chances = odds_calc.momentum_odds(int(decision.context["initiative"]))
        good = float(chances.get("success", 0)) - 3 * float(chances.get("chaos", 0))
        return good if data["momentum"] else 0.45

    def command(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        side, state = decision.side, view.state
        routed = sum(u.routed for u in state.live_units(side))
        # §3.2.1: a group order re-activates every unit of the command, each used one for a hit.
        leader = state.leaders[decision.context["leader"]]
        mine = [u for u in state.live_units(side) if leader.activates(u) and not u.routed]
        fresh = sum(u.activations == 0 for u in mine)
        group = 3.0 if fresh * 2 >= len(mine) else 1.0
        return {"group": group, "individual": 2.0, "banner": 1.0 + routed, "stand by": 0.0}[data["mode"]]

    def order(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        kind = data["order"]
        if kind == "done":
            return 0.0
        if kind == "promote":
            return 10.0
        if kind == "rally":
            return 3.0
        if kind == "activate":
            state: GameState = view.state
            unit = state.units[data["unit"]]
            if unit.activations:  # §3.2.1: a second activation costs a hit first
                return -0.5
            return 5.0 - 0.1 * _nearest(state, unit.side, unit.hex) - 0.5 * bool(data.get("with_leader"))
        if kind == "remove_hits":
            unit = view.state.units[data["unit"]]
            return 1.0 + unit.hits if unit.hits >= 2 else -1.0
        return -1.0

    def group_next(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        if decision.context["step"] == "order":
            return -1.0 if data["group"] is None else (0.5 if data.get("cross") else 2.0)
        if data["unit"] is None:
            return -5.0
        state: GameState = view.state
        unit = state.units[data["unit"]]
        return 5.0 - 0.1 * _nearest(state, unit.side, unit.hex) - bool(data.get("with_leader"))

    # -- units -----------------------------------------------------------------------------------
    def step(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        state: GameState = view.state
        unit = state.units[decision.context["unit"]]
        kind = data["step"]
        enemies = _enemies(state, unit.side)
        if not enemies:
            return 1.0 if kind == "stop" else 0.0
        near = min(enemies, key=lambda e: (unit.hex.distance(e.hex), e.name))
        gap = unit.hex.distance(near.hex)
        keep_off = 2 if unit.type in SKIRMISHERS and unit.missile and unit.ammo else 1
        if kind == "fire":
            shot = missile.targets(state, unit).get(data["target"])
            return 0.0 if shot is None else 2.0 + float(odds_calc.missile_odds(shot)[True])
        if kind == "stop":
            return 1.0
        if kind in ("melee_turn", "disengage", "dismount"):
            return -5.0
        if kind == "turn":
            if gap == 0 or arc_of(unit.hex, unit.vertex, near.hex, firer="unit") == Arc.FRONT:
                return -1.0
            faced = arc_of(unit.hex, type(unit.vertex)(data["facing"]), near.hex, firer="unit") == Arc.FRONT
            return 1.5 if faced else -1.0
        # move / pass
        to = _hex(data["hex"])
        after = _nearest(state, unit.side, to)
        if after < keep_off:
            return -2.0
        if gap <= keep_off:
            return 0.5
        return 1.2 + 0.1 * (gap - after) - 0.05 * float(data["cost"]) + (0.3 if after < gap else -0.5)

    def melee(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        if data.get("hold"):
            return 0.0
        state: GameState = view.state
        attacker = state.units[decision.context["unit"]]
        defender = state.units[data["target"]]
        return expected_shock(melee.shock_of(state, attacker, defender)) + 0.3

    def fire_back(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        return 0.0 if data.get("pass") else 1.0

    def brace(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        """§6.3.3.b: turn to face a charge when the exact chance of passing the check is good."""
        if data.get("pass"):
            return 0.7
        return float(data["respond"]["chance"])

    def withdraw(self, view: PlayerView, decision: Decision, data: Mapping[str, Any]) -> float:
        """D11: skirmishers step back from a slower enemy (taking their leaders); others stand."""
        if data.get("pass"):
            return 0.5
        unit = view.state.units[data["respond"]["unit"]]
        if unit.type not in SKIRMISHERS or not unit.missile:
            return 0.0
        return 1.0 + 0.1 * bool(data["respond"]["leaders"])
