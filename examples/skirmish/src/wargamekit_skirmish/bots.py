"""A tiny greedy bot: it weighs every option by the exact odds of the shots it allows."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from wargamekit import Decision, PlayerView, RandomBot, odds
from wargamekit.decisions import Answer
from wargamekit.geometry import Hex, HexsideFacing, in_fire_arc, wedges_of
from wargamekit_skirmish import fire
from wargamekit_skirmish.ruleset import KIND_ACTIVATE, KIND_FACE, KIND_FIRE, KIND_MOVE, KIND_REACT
from wargamekit_skirmish.state import SkirmishState, Unit


@cache
def expected_steps(shot: fire.Shot) -> float:
    """Exact expected steps a shot removes (from :func:`wargamekit.odds.distribution`)."""
    return float(odds.expectation(fire.shot_odds(shot)))


def best_shot(state: SkirmishState, unit: Unit, at: Hex) -> float:
    """The best expected damage ``unit`` could deal from ``at``, free to face any way (4.2)."""
    best = 0.0
    for enemy in state.alive():
        if enemy.side != unit.side:
            for facing in wedges_of(at, enemy.hex) if at != enemy.hex else ():
                shot = fire.shot_at(state, unit, enemy, from_hex=at, facing=facing)
                if shot is not None:
                    best = max(best, expected_steps(shot))
    return best


def danger(state: SkirmishState, unit: Unit, at: Hex) -> float:
    """Expected damage the enemies could deal to ``unit`` standing at ``at`` (ignoring their facing)."""
    moved = Unit(unit.name, unit.side, at, unit.facing, unit.move, unit.firepower, unit.max_range, unit.steps)
    total = 0.0
    for enemy in state.alive():
        if enemy.side != unit.side and at.distance(enemy.hex) > 0:
            shot = fire.shot_at(state, enemy, moved, facing=wedges_of(enemy.hex, at)[0])
            total += expected_steps(shot) if shot is not None else 0.0
    return total


class GreedyBot:
    """Activates the unit with the best shot, moves where it can shoot best at least risk, faces
    its best target, fires at the likeliest kill and snap-fires when the odds are good."""

    def __init__(self, seed: int = 0) -> None:
        self.fallback = RandomBot(seed)

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        # Everything read here is structure: the decision's kind and context, the options' data.
        state: SkirmishState = view.state
        data = [o.data for o in getattr(decision, "options", ())]
        unit = state.units.get(decision.context.get("unit", ""))
        if decision.kind == KIND_ACTIVATE:
            # A unit that can already shoot well goes first; otherwise the one nearest the enemy.
            enemies = [e.hex for e in state.alive() if e.side != decision.side]
            units = [state.units[d["unit"]] for d in data]
            scores = [best_shot(state, u, u.hex) - 0.01 * min((u.hex.distance(e) for e in enemies), default=0)
                      for u in units]
        elif decision.kind == KIND_MOVE and unit is not None:
            enemies = [e.hex for e in state.alive() if e.side != unit.side]
            hexes = [Hex(*d["hex"]) for d in data]
            scores = [best_shot(state, unit, h) - 0.5 * danger(state, unit, h)
                      - 0.01 * min((h.distance(e) for e in enemies), default=0) for h in hexes]
        elif decision.kind == KIND_FACE and unit is not None:
            # The best shot in the new arc; failing that, as many enemies in front as possible.
            enemies = [e.hex for e in state.alive() if e.side != unit.side]
            scores = [max((expected_steps(s) for s in fire.targets(state, _facing(unit, d["facing"])).values()),
                          default=0.0)
                      + 0.001 * sum(in_fire_arc(unit.hex, HexsideFacing(d["facing"]), e, fire.FIRE_ARC)
                                    for e in enemies)
                      for d in data]
        elif decision.kind == KIND_FIRE and unit is not None:
            shots = fire.targets(state, unit)
            scores = [-1.0 if "hold" in d else expected_steps(shots[d["target"]]) for d in data]
        elif decision.kind == KIND_REACT:
            # Snap-fire when the shot removes at least half a step on average; else keep the unit.
            scores = [0.5 if d.get("pass") else _reaction_value(state, d["respond"]) for d in data]
        else:
            return self.fallback.choose(decision, view)
        return max(range(len(data)), key=lambda i: (scores[i], -i))


def _facing(unit: Unit, d: int) -> Unit:
    return Unit(unit.name, unit.side, unit.hex, d, unit.move, unit.firepower, unit.max_range, unit.steps)


def _reaction_value(state: SkirmishState, response: Mapping[str, str]) -> float:
    firer, target = state.units.get(response["firer"]), state.units.get(response["target"])
    shot = None if firer is None or target is None else fire.shot_at(state, firer, target, snap=True)
    return expected_steps(shot) if shot is not None else 0.0
