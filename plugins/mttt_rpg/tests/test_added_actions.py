"""Combat actions as data (docs/rulesets/mttt_rpg.md, "Hooks"): an add-on adds a combat
action through ``mttt_rpg_combat_actions``; it appears in the action menu with its own option
data, resolves through the effect primitives spells use (with forced dice: none are rolled),
may be countered like a standard spell, and the bot chooses it when it is worth it."""

from __future__ import annotations

import pytest

from wargamekit import Game, hookimpl
from wargamekit.plugins import plugin_manager
from wargamekit.testing import check_ruleset
from wargamekit_mttt_rpg import MtttRpg
from wargamekit_mttt_rpg.added_actions import CombatAction, CombatActionError, combat_action_types
from wargamekit_mttt_rpg.bots import HeuristicBot
from wargamekit_mttt_rpg.combat_actions import active_step, legal_actions
from wargamekit_mttt_rpg.sheets import Effect

#: A shield bash: 3 withering damage to an enemy at close range (band 0), for 2 initiative.
BASH = CombatAction("shield_bash", "Shield Bash", Effect("withering_blast", 3, "enemy", 0), initiative=2)


class ShieldBash:
    """An add-on: one combat action, nothing else."""

    def __init__(self, *actions: CombatAction) -> None:
        self.actions = list(actions or [BASH])

    @hookimpl
    def mttt_rpg_combat_actions(self):
        return self.actions


def duel(make, interrupts=False, band=0):
    """Akari and Kyo at ``band``, initiative 10 each, with the add-on."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), band=band), [],
             interrupts=interrupts)
    for u in h.state:
        u.initiative = 10
        h.state.track.set(u.id, 10)
    h.hooks = plugin_manager(plugins=[ShieldBash()]).hook
    return h


def test_the_action_is_offered_with_its_own_option_data(make):
    """The menu (mttt_rpg.action) offers it once per legal target, after the spells, with the
    data ``{"action": "addon", "name": key, "target": id}``; out of range it is not offered,
    and without the add-on it is not there."""
    h = duel(make)
    akari = h.unit("akari")
    added = [a for a in legal_actions(h, akari) if a.kind == "addon"]
    assert [a.data for a in added] == [{"action": "addon", "target": "kyo", "name": "shield_bash"}]
    assert added[0].label == "Shield Bash on Kyo (withering blast 3; −2 initiative)"
    far = duel(make, band=1)
    assert not [a for a in legal_actions(far, far.unit("akari")) if a.kind == "addon"]
    h.hooks = None
    assert not [a for a in legal_actions(h, akari) if a.kind == "addon"]


def test_the_action_resolves_through_the_effect_primitives(make):
    """战斗行动 with the add-on's numbers: Akari pays 2 initiative (10 → 8), then the blast's 3
    withering damage takes Kyo from 10 to 7 and Akari gains what Kyo lost (伤害: a spell's
    blast gives no +1 for a hit): 8 + 3 = 11. It spends the standard action (one menu), and
    no die is rolled (the harness's dice hold no faces)."""
    h = duel(make)
    akari, kyo = h.unit("akari"), h.unit("kyo")
    h.run(active_step(h, akari, []), ["Shield Bash on Kyo"])
    assert (akari.initiative, kyo.initiative) == (11, 7)
    assert "Akari uses Shield Bash on Kyo" in h.texts()
    assert "Shield Bash: 3 withering damage to Kyo" in h.texts()
    assert sum(d.kind == "mttt_rpg.action" for d in h.asked) == 1
    assert h.dice.position == 0 and h.interrupts.items == []


def test_the_action_may_be_countered_like_a_standard_spell(make):
    """插入阶段: the action's effect is a stack item; Kyo's Dispel in its window counters it, so
    Kyo keeps her initiative; the initiative Akari paid is spent (paid when chosen)."""
    h = duel(make, interrupts=True)
    akari, kyo = h.unit("akari"), h.unit("kyo")
    kyo.distortion_cap = kyo.distortion_mp = 3
    step = active_step(h, akari, [])
    decision = step.send(None)
    answers = iter(["Shield Bash on Kyo"])
    try:
        while True:  # then pass in every window, but Kyo counters as soon as she may
            dispel = [o.label for o in decision.options if o.label.startswith("Kyo: Dispel")]
            decision = step.send(h._value(decision, next(answers, dispel[0] if dispel else "pass")))
    except StopIteration:
        pass
    assert (akari.initiative, kyo.initiative) == (8, 10)
    assert any("Shield Bash on Kyo" in t and "fizzles: countered" in t for t in h.texts())


def test_malformed_or_clashing_actions_are_refused():
    with pytest.raises(CombatActionError, match="cannot counter"):
        CombatAction("hush", "Hush", Effect("counter", 0, "top"))
    with pytest.raises(CombatActionError, match="initiative cannot be negative"):
        CombatAction("rush", "Rush", Effect("gain_initiative", 2), initiative=-1)
    with pytest.raises(CombatActionError, match="defined twice"):
        combat_action_types(plugin_manager(plugins=[ShieldBash(BASH, BASH)]).hook)
    assert combat_action_types(None) == {}


def test_the_bot_chooses_it_and_games_with_it_conform():
    """The heuristic bot values the action by its effect (a blast at a foe who feels it, less
    the initiative it costs) and takes it; whole games with the add-on end, replay, save and
    reload with it, and leak nothing (check_ruleset)."""
    pm = plugin_manager(plugins=[ShieldBash(CombatAction(
        "shield_bash", "Shield Bash", Effect("withering_blast", 6, "enemy", 3), initiative=1
    ))])
    ruleset = MtttRpg()
    used = 0
    for seed in range(3):
        game = Game.new(ruleset, "duel", seed=seed, plugin_manager=pm)
        game.play({side: HeuristicBot(seed) for side in ruleset.sides}, max_decisions=3000)
        used += sum(e.kind == "combat-action" for e in game.log)
    assert used > 0
    report = check_ruleset(ruleset, "duel", games=3, max_decisions=3000, plugin_manager=pm)
    assert report.games == 3
