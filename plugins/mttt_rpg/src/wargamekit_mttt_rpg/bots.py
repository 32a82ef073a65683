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

from collections.abc import Callable
from typing import Any

from wargamekit import Choose, ChooseNumber, ChooseSubset, PlayerView, SeededBot, YesNo
from wargamekit.decisions import Answer, Data, Decision

from . import kinds
from .added_actions import ADDON, combat_action_types
from .attack import DECISIVE, WITHERING, attack_odds, hit_chance
from .defense import attack_profile, defense_modes, defense_profile
from .sheets import Effect
from .state import ROUTED, Combatant, Scene

__all__ = ["HeuristicBot", "attack_value"]

INITIATIVE_VALUE = 0.35
KILL_BONUS = 6.0


def _best_defense(scene: Scene, attacker: Combatant, target: Combatant, hooks: Any = None) -> str:
    weapon = attacker.ready_weapon
    assert weapon is not None
    atk = attack_profile(scene, attacker, target, hooks=hooks)
    return min(
        defense_modes(target),
        key=lambda m: hit_chance(atk, defense_profile(scene, target, attacker, m, ranged=weapon.ranged, hooks=hooks)),
    )


def attack_value(scene: Scene, attacker: Combatant, target: Combatant, kind: str, hooks: Any = None) -> float:
    """The bot's value of an attack, in HP of the enemy's side, from its exact odds.

    One point of initiative is worth ``INITIATIVE_VALUE`` HP: a decisive attack deals about half
    the attacker's initiative, discounted because it may miss.
    """
    weapon = attacker.ready_weapon
    assert weapon is not None
    mode = _best_defense(scene, attacker, target, hooks)
    atk = attack_profile(scene, attacker, target, hooks=hooks)
    dfn = defense_profile(scene, target, attacker, mode, ranged=weapon.ranged, hooks=hooks)
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
    """The ``bot`` of the MTTT ruleset (see the module docstring).

    It reads only the decision's kind and context, the options' data and the scene
    (``view.state``), never a prompt or a label (:mod:`.kinds` lists what each kind carries).
    """

    #: The read-only promise (:class:`wargamekit.players.Player`): it only reads ``view.state``
    #: and keeps nothing of it, so it is handed the live scene (no copy per decision).
    reads_view_only = True

    # -- dispatch ------------------------------------------------------------------------------
    #: The plugin hooks of the game (``view.hooks``): the bot's odds count the add-ons.
    _hooks: Any = None

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        # The scene (view.state: the live scene, as this bot reads only) is read only where the choice
        # depends on it: most decisions are interrupt windows answered from the options' data.
        self._hooks = getattr(view, "hooks", None)
        context = decision.context
        data = [o.data for o in getattr(decision, "options", ())]
        kind = decision.kind
        if kind == kinds.ACTION:
            scene: Scene = view.state
            return self._action(scene, scene.unit(context["unit"]), data)
        if kind == kinds.RESPOND:
            return self._respond(view, data)
        if kind == kinds.TRIGGERS:
            return self._triggers(view.state, context, data)
        if kind == kinds.DEFENSE:
            scene = view.state
            attacker, target = scene.unit(context["attacker"]), scene.unit(context["unit"])
            modes = [d["mode"] for d in data]
            return modes.index(_best_defense(scene, attacker, target, self._hooks))
        if kind == kinds.TACTIC:
            tactics = [d["tactic"] for d in data]
            return tactics.index("pincer") if "pincer" in tactics else 0
        if kind == kinds.CLASH:
            return [d["clash"] for d in data].index(WITHERING)
        if kind == kinds.BREAK_BONUS:
            return 1 if len(data) > 1 else 0
        if kind == kinds.GUARD_STRIKE:  # carry on against the target the protector covered
            return next(i for i, d in enumerate(data) if not d["protector"])
        if kind == kinds.DISABILITY:  # only to avoid helplessness
            return bool(context["damage"] >= context["hp"])
        if kind == kinds.STOP_DISENGAGE:
            return list(range(len(data)))
        if isinstance(decision, ChooseNumber):
            return self._number(decision)
        if isinstance(decision, YesNo):
            return False  # never yield the first action at a shared tick; never burn on dice pools
        if isinstance(decision, (Choose, ChooseSubset)):
            # ordering simultaneous triggered effects, the GM's attribute for a disability
            return 0 if isinstance(decision, Choose) else list(range(decision.upper))
        return decision.random_answer(self.rng)

    # -- the active step ------------------------------------------------------------------------
    def _action(self, scene: Scene, unit: Combatant, actions: list[Data]) -> int:
        if unit.ready_weapon is None:  # ambushed: draw a weapon first (it keeps the action)
            drawn = [i for i, a in enumerate(actions) if a["action"] == "ready"]
            if drawn:
                return drawn[0]
        best, best_value = None, 0.0
        for i, a in enumerate(actions):
            what = a["action"]
            if what == "attack":
                targets = (
                    [scene.unit(a["target"])]
                    if a.get("target")
                    else [
                        e
                        for e in scene.enemies(unit)
                        if scene.distance(unit.id, e.id) <= (1 if unit.dispersed else 0)
                    ]
                )
                value = sum(attack_value(scene, unit, t, a["attack"], self._hooks) for t in targets)
            elif what == "spell":
                value = self._spell_value(scene, unit, a)
            elif what == ADDON:  # an add-on's combat action: its effect, less the initiative it costs
                added = combat_action_types(self._hooks)[a["name"]]
                target = scene.unit(a["target"]) if a.get("target") else unit
                value = _effect_value(added.effect, target) - added.initiative * INITIATIVE_VALUE
            elif what == "rally":
                value = 6.0
            elif what == "recover":
                value = 5.0
            elif what == "order":
                value = 0.05  # only when nothing better is in reach and nobody to close in on
            else:
                continue
            if value > best_value:
                best, best_value = i, value
        if best is not None and best_value > 0.3:
            return best
        closing = self._close_in(scene, unit, actions)
        if actions[closing]["action"] == "move" or best is None:
            return closing
        return best

    def _spell_value(self, scene: Scene, unit: Combatant, a: Data) -> float:
        spell = next(s for s in unit.sheet.spells if s.name == a["name"])
        target = scene.unit(a["target"]) if a.get("target") else unit
        return _effect_value(spell.effect, target)

    def _close_in(self, scene: Scene, unit: Combatant, actions: list[Data]) -> int:
        fighters = [e for e in scene.enemies(unit) if e.kind != "noncombatant"]
        weapon = unit.ready_weapon
        reach = weapon.max_range if weapon else 0

        def gap(a: Data) -> tuple[int, int]:
            if a["action"] != "move" or not a.get("target"):
                return (99, 0)
            other = scene.unit(a["target"])
            if other not in fighters:
                return (98, 0)
            delta = a.get("delta", 0)
            after = scene.distance(unit.id, other.id) + delta
            return (max(0, after - reach), -delta)

        moves = [i for i, a in enumerate(actions) if a["action"] == "move"]
        if moves:
            best = min(moves, key=lambda i: gap(actions[i]))
            if gap(actions[best])[0] < 98 and actions[best].get("delta", 0) < 0:
                return best
        for what in ("full_defense", "guard", "cover"):
            for i, a in enumerate(actions):
                if a["action"] == what:
                    return i
        return next(i for i, a in enumerate(actions) if a["action"] == "wait")

    # -- reactions ------------------------------------------------------------------------------
    def _respond(self, view: PlayerView, options: list[Data]) -> int:
        """At an interrupt window: the first offer that helps now, else pass (option 0)."""
        for i, d in enumerate(options):
            item = d.get("respond")
            # A defense helps only as the attack is declared, not at a resolution point after.
            if item is not None and self._helps(
                item, lambda: view.state, item.get("timing") == "attack declared" and not item.get("resolution")
            ):
                return i
        return 0

    def _triggers(self, scene: Scene, context: Data, options: list[Data]) -> list[int]:
        """The triggered effects worth answering, as many as the mana pays for (in order)."""
        available = {(m["caster"], m["pool"]): m["available"] for m in context["mana"]}
        declared = context["timing"] == "attack declared"
        picked: list[int] = []
        for i, item in enumerate(options):
            if self._helps(item, lambda: scene, declared) and _affordable([options[j] for j in [*picked, i]], available):
                picked.append(i)
        return picked

    @staticmethod
    def _helps(item: Data, scene_of: Callable[[], Scene], attack_declared: bool) -> bool:
        """Whether a stack item helps now: counters, a defense for the attacked (as the attack
        is declared), a blast at a foe who feels it, a heal for the hurt, initiative for the
        crashed. ``scene_of()`` gives the scene, read only for an effect on a target."""
        effect = item.get("effect")
        if effect == "counter":
            return True
        if not item.get("target") or effect not in ("defense", "protection", "withering_blast", "heal", "gain_initiative"):
            return False  # nothing else helps (a rush, burning soul jade)
        if effect in ("defense", "protection") and not attack_declared:
            return False  # decided without the scene: most windows are not an attack declared
        scene = scene_of()
        target = scene.unit(item["target"])
        if effect in ("defense", "protection"):
            return target.id == scene.attack_target
        if effect == "withering_blast":
            return target.sheet.chaos_phases == 0
        if effect == "heal":
            return target.hp < target.hp_max
        return effect == "gain_initiative" and target.crashed

    def _number(self, decision: ChooseNumber) -> int:
        context = decision.context
        if decision.kind == kinds.CHARGE:
            # everything into the attack or the clash; a little into the defense
            return decision.high if context["into"] in ("attack", "clash") else min(decision.high, 2)
        if decision.kind == kinds.JADE_BOOST and context["into"] == "die":
            return min(decision.high, 3)
        # the +x of a roll: keep the points for the dice, where a boost is cheapest; aiming: 1 tick
        return decision.low


def _effect_value(effect: Effect, target: Combatant) -> float:
    """The bot's value of an effect on ``target`` (a spell's or an add-on's combat action's):
    a heal for the badly hurt, a blast at a foe who feels it; other effects none."""
    if effect.kind == "heal":
        return 3.0 if target.hp * 2 <= target.hp_max else 0.0
    if effect.kind == "withering_blast":
        if target.sheet.chaos_phases > 0 or target.kind == "noncombatant":
            return 0.0
        return 0.5 * min(effect.amount, max(0, target.initiative)) + (2.5 if target.initiative <= effect.amount else 0)
    return 0.0


def _affordable(items: list[Data], available: dict[tuple[str, str], int]) -> bool:
    """Whether the triggered effects ``items`` can all be paid for together."""
    need: dict[tuple[str, str], int] = {}
    for item in items:
        key = (item["caster"], item["pool"])
        need[key] = need.get(key, 0) + item["cost"]
    return all(cost <= available[key] for key, cost in need.items())
