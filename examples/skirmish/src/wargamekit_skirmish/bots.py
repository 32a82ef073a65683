"""A tiny greedy bot: it weighs every option by the exact odds of the shots it allows."""

from __future__ import annotations

from functools import cache

from wargamekit import Decision, PlayerView, RandomBot, odds
from wargamekit.geometry import Hex, HexsideFacing, in_fire_arc, wedges_of
from wargamekit_skirmish import fire
from wargamekit_skirmish.ruleset import ACTIVATE, FACE, FIRE, MOVE, REACT
from wargamekit_skirmish.state import SkirmishState, Unit


@cache
def expected_steps(shot: fire.Shot) -> float:
    """Exact expected steps a shot removes (from :func:`wargamekit.odds.distribution`)."""
    return float(odds.expectation(odds.distribution(fire.resolve_fire, shot)))


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

    def choose(self, decision: Decision, view: PlayerView):  # noqa: ANN201 - an Answer
        state: SkirmishState = view.state
        values = [o.value for o in decision.options]  # type: ignore[attr-defined]
        active = state.units.get(state.active) if state.active else None
        if decision.rule == ACTIVATE:
            # A unit that can already shoot well goes first; otherwise the one nearest the enemy.
            enemies = [e.hex for e in state.alive() if e.side != decision.side]
            scores = [best_shot(state, state.units[n], state.units[n].hex)
                      - 0.01 * min((state.units[n].hex.distance(e) for e in enemies), default=0) for n in values]
        elif decision.rule == MOVE and active is not None:
            enemies = [e.hex for e in state.alive() if e.side != active.side]
            scores = [best_shot(state, active, h) - 0.5 * danger(state, active, h)
                      - 0.01 * min((h.distance(e) for e in enemies), default=0) for h in values]
        elif decision.rule == FACE and active is not None:
            # The best shot in the new arc; failing that, as many enemies in front as possible.
            enemies = [e.hex for e in state.alive() if e.side != active.side]
            scores = [max((expected_steps(s) for s in fire.targets(state, _facing(active, d)).values()), default=0.0)
                      + 0.001 * sum(in_fire_arc(active.hex, HexsideFacing(d), e, fire.FIRE_ARC) for e in enemies)
                      for d in values]
        elif decision.rule == FIRE and active is not None:
            shots = fire.targets(state, active)
            scores = [-1.0 if v is None else expected_steps(shots[v]) for v in values]
        elif decision.rule == REACT:
            # Snap-fire when the shot removes at least half a step on average; else keep the unit.
            scores = [0.5 if v is None else _reaction_value(state, v) for v in values]
        else:
            return self.fallback.choose(decision, view)
        return max(range(len(values)), key=lambda i: (scores[i], -i))


def _facing(unit: Unit, d: int) -> Unit:
    return Unit(unit.name, unit.side, unit.hex, d, unit.move, unit.firepower, unit.max_range, unit.steps)


def _reaction_value(state: SkirmishState, response) -> float:  # noqa: ANN001 - a Response
    firer_name, _, target_name = response.name.partition(" snap-fires at ")
    firer, target = state.units.get(firer_name), state.units.get(target_name)
    shot = None if firer is None or target is None else fire.shot_at(state, firer, target, snap=True)
    return expected_steps(shot) if shot is not None else 0.0
