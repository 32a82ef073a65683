"""A heuristic bot: weighs withering against decisive attacks by their exact odds.

For every attack it may make, the bot computes the exact hit chance and damage distribution with
:func:`~wargamekit_mttt_rpg.attack.attack_odds` (the pure resolution under
:mod:`wargamekit.odds`) against the defense the target is best off choosing, and values it:

* withering: expected initiative taken (+1 for the hit, +5 × the chance to crash the target),
  or expected HP against a crashed target, or expected magnitude against a battle group;
* decisive: expected HP damage, weighted by how much of the target's HP it takes, minus the
  initiative it throws away (reset to 5 on a hit, −5 on a miss).

It closes in when nothing is in reach, answers interrupt windows with spells that help at that
moment (defense when attacked, counters against enemy items, heals when hurt), chooses the
defense that minimises the attacker's hit chance, and never waits, disengages or withdraws.
"""

from __future__ import annotations

import re
from typing import Any

from wargamekit import Choose, ChooseNumber, ChooseSubset, Response, SeededBot, YesNo
from wargamekit.decisions import Answer, Decision

from .attack import DECISIVE, WITHERING, attack_odds, hit_chance
from .combat_actions import Action
from .defense import attack_profile, defense_modes, defense_profile
from .state import ROUTED, Combatant, Scene
from .warfare import TACTICS

__all__ = ["HeuristicBot", "attack_value"]

INITIATIVE_VALUE = 0.35
KILL_BONUS = 6.0


def _best_defense(scene: Scene, attacker: Combatant, target: Combatant) -> str:
    weapon = attacker.ready_weapon
    assert weapon is not None
    atk = attack_profile(scene, attacker, target)
    return min(
        defense_modes(target),
        key=lambda m: hit_chance(atk, defense_profile(scene, target, attacker, m, ranged=weapon.ranged)),
    )


def attack_value(scene: Scene, attacker: Combatant, target: Combatant, kind: str) -> float:
    """The bot's value of an attack, in HP of the enemy's side, from its exact odds.

    One point of initiative is worth ``INITIATIVE_VALUE`` HP: a decisive attack deals about half
    the attacker's initiative, discounted because it may miss.
    """
    weapon = attacker.ready_weapon
    assert weapon is not None
    mode = _best_defense(scene, attacker, target)
    atk = attack_profile(scene, attacker, target)
    dfn = defense_profile(scene, target, attacker, mode, ranged=weapon.ranged)
    odds = attack_odds(atk, dfn, kind)
    p = float(odds.hit_chance)
    if target.status == ROUTED or target.kind == "noncombatant":
        return 0.0  # neither wins the scene
    if kind == DECISIVE:
        if target.is_group:
            return p * float(odds.expected_damage) * 0.8 - (1 - p) * 5 * INITIATIVE_VALUE
        hp_left = target.hp + (target.hp_max if target.chaos_phase > 1 else 0)
        dealt = sum(float(pr) * min(d, target.hp) for d, pr in odds.damage.items())
        kill = sum(float(pr) for d, pr in odds.damage.items() if d >= hp_left and d > 0)
        lost = max(0, attacker.initiative - 5)
        # a kill is worth far more than the initiative it spends
        return (
            dealt + KILL_BONUS * kill - (p - kill) * lost * INITIATIVE_VALUE - (1 - p) * 5 * INITIATIVE_VALUE
        )
    if target.is_group:
        return float(odds.expected_damage) * 0.8 + p * INITIATIVE_VALUE
    if target.sheet.chaos_phases > 0 and target.kind == "character":
        return p * INITIATIVE_VALUE
    if target.crashed:
        return (
            sum(float(pr) * min(d, target.hp) for d, pr in odds.damage.items()) * 0.9 + p * INITIATIVE_VALUE
        )
    taken = sum(float(pr) * min(d, max(0, target.initiative)) for d, pr in odds.damage.items())
    crash = sum(float(pr) for d, pr in odds.damage.items() if d > 0 and d >= target.initiative)
    return INITIATIVE_VALUE * (2 * taken + p + 5 * crash)


class HeuristicBot(SeededBot):
    """The ``bot`` of the MTTT ruleset (see the module docstring)."""

    # -- dispatch ------------------------------------------------------------------------------
    def choose(self, decision: Decision, view: Any) -> Answer:
        if isinstance(decision, Choose):
            values = [o.value for o in decision.options]
            if any(isinstance(v, Action) for v in values):
                return self._action(decision, view.state, values)
            if any(isinstance(v, Response) for v in values):
                return self._respond(decision, view.state, values)
            if all(isinstance(v, str) for v in values) and set(values) <= {"passive", "parry", "dodge"}:
                return self._defend(view.state, values)
            if all(isinstance(v, str) for v in values) and set(values) <= set(TACTICS):
                return values.index("pincer") if "pincer" in values else 0
            if None in values and WITHERING in values:  # clash
                return values.index(WITHERING)
            if None in values:  # the GM's break recipient
                return 1 if len(values) > 1 else 0
            if all(isinstance(v, Combatant) for v in values) and len(values) == 2:  # guard: strike whom
                return 1
            return 0
        if isinstance(decision, ChooseNumber):
            return self._number(decision, view.state)
        if isinstance(decision, YesNo):
            match = re.search(r"lose (\d+) HP \(at (\d+)\)", decision.prompt)
            if match:  # soul disability: only to avoid helplessness
                return int(match.group(1)) >= int(match.group(2))
            return False  # never yield the first action at a shared tick
        if isinstance(decision, ChooseSubset):
            values = [o.value for o in decision.options]
            if values and all(isinstance(v, Response) for v in values):
                return self._triggers(decision, view.state, values)
            return list(range(decision.upper))
        return decision.random_answer(self.rng)

    # -- the active step ------------------------------------------------------------------------
    def _action(self, decision: Choose, scene: Scene, values: list[Any]) -> int:
        unit = scene.unit(scene.acting) if scene.acting else None
        assert unit is not None
        if unit.ready_weapon is None:  # ambushed: draw a weapon first (it keeps the action)
            drawn = [i for i, a in enumerate(values) if a.kind == "ready"]
            if drawn:
                return drawn[0]
        best, best_value = None, 0.0
        for i, a in enumerate(values):
            if a.kind == "attack":
                targets = (
                    [scene.unit(a.target)]
                    if a.target
                    else [
                        e
                        for e in scene.enemies(unit)
                        if scene.distance(unit.id, e.id) <= (1 if unit.dispersed else 0)
                    ]
                )
                value = sum(attack_value(scene, unit, t, a.kind_of_attack) for t in targets)
            elif a.kind == "spell":
                value = self._spell_value(scene, unit, a)
            elif a.kind == "rally":
                value = 6.0
            elif a.kind == "recover":
                value = 5.0
            elif a.kind == "order":
                value = 0.05  # only when nothing better is in reach and nobody to close in on
            else:
                continue
            if value > best_value:
                best, best_value = i, value
        if best is not None and best_value > 0.3:
            return best
        closing = self._close_in(scene, unit, values)
        if values[closing].kind == "move" or best is None:
            return closing
        return best

    def _spell_value(self, scene: Scene, unit: Combatant, a: Action) -> float:
        spell = next(s for s in unit.sheet.spells if s.name == a.name)
        target = scene.unit(a.target) if a.target else unit
        if spell.effect.kind == "heal":
            return 3.0 if target.hp * 2 <= target.hp_max else 0.0
        if spell.effect.kind == "withering_blast":
            if target.sheet.chaos_phases > 0 or target.kind == "noncombatant":
                return 0.0
            return 0.5 * min(spell.effect.amount, max(0, target.initiative)) + (
                2.5 if target.initiative <= spell.effect.amount else 0
            )
        return 0.0

    def _close_in(self, scene: Scene, unit: Combatant, values: list[Any]) -> int:
        fighters = [e for e in scene.enemies(unit) if e.kind != "noncombatant"]
        weapon = unit.ready_weapon
        reach = weapon.max_range if weapon else 0

        def gap(a: Action) -> tuple[int, int]:
            if a.kind != "move" or a.target is None:
                return (99, 0)
            other = scene.unit(a.target)
            if other not in fighters:
                return (98, 0)
            after = scene.distance(unit.id, other.id) + a.delta
            return (max(0, after - reach), -a.delta)

        moves = [i for i, a in enumerate(values) if a.kind == "move"]
        if moves:
            best = min(moves, key=lambda i: gap(values[i]))
            if gap(values[best])[0] < 98 and values[best].delta < 0:
                return best
        for kind in ("full_defense", "guard", "cover"):
            for i, a in enumerate(values):
                if a.kind == kind:
                    return i
        return next(i for i, a in enumerate(values) if a.kind == "wait")

    # -- reactions ------------------------------------------------------------------------------
    def _respond(self, decision: Choose, scene: Scene, values: list[Any]) -> int:
        if None not in values:
            return 0  # ordering simultaneous triggered effects
        return next((i for i, r in enumerate(values) if self._helps(r, scene, decision.prompt)), 0)

    def _triggers(self, decision: ChooseSubset, scene: Scene, values: list[Response]) -> list[int]:
        """The triggered effects worth answering, as many as the mana pays for (in order)."""
        picked: list[int] = []
        for i, r in enumerate(values):
            if self._helps(r, scene, decision.prompt) and (
                decision.constraint is None or decision.constraint(tuple(values[j] for j in [*picked, i])) is None
            ):
                picked.append(i)
        return picked

    @staticmethod
    def _helps(r: Response | None, scene: Scene, timing: str) -> bool:
        """Whether a stack item helps now: counters, a defense for the attacked, a blast at a
        foe who feels it, a heal for the hurt, initiative for the crashed."""
        if r is None or not isinstance(r.data, dict):
            return False
        effect = r.data.get("effect")
        target = scene.unit(r.data["target"]) if r.data.get("target") else None
        if effect == "counter":
            return True
        if target is None:
            return False
        if effect in ("defense", "protection"):
            return timing.startswith("attack declared") and target.id == scene.attack_target
        if effect == "withering_blast":
            return target.sheet.chaos_phases == 0
        if effect == "heal":
            return target.hp < target.hp_max
        return effect == "gain_initiative" and target.crashed

    def _defend(self, scene: Scene, values: list[str]) -> int:
        if scene.attacker is None or scene.defender is None:
            return 0
        attacker, target = scene.unit(scene.attacker), scene.unit(scene.defender)
        return values.index(_best_defense(scene, attacker, target))

    def _number(self, decision: ChooseNumber, scene: Scene) -> int:
        prompt = decision.prompt
        if "into the attack" in prompt or "into the clash" in prompt:
            return decision.high
        if "into the defense" in prompt:
            return min(decision.high, 2)
        if "into the +x" in prompt:
            return decision.low  # keep the points for the dice, where a boost is cheapest
        if "burn soul jade" in prompt:
            return min(decision.high, 3)
        return decision.low
