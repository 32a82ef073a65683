"""The heuristic bot: exact-odds attack choice, and a quick check that it beats the random bot."""

from types import SimpleNamespace

import pytest

from wargamekit import Game, RandomBot
from wargamekit.testing import check_prose_independence
from wargamekit_mttt_rpg import MtttRpg, kinds
from wargamekit_mttt_rpg.bots import HeuristicBot, attack_value
from wargamekit_mttt_rpg.damage import apply_decisive


def test_bot_prefers_decisive_only_with_initiative_to_spend(make):
    """处理关键攻击 vs 制敌攻击: low initiative -> withering; a killing decisive at high initiative."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), band=2), [])
    akari, kyo = h.unit("akari"), h.unit("kyo")
    kyo.initiative = 10
    akari.initiative = 6
    assert attack_value(h.state, akari, kyo, "withering") > attack_value(h.state, akari, kyo, "decisive")
    akari.initiative = 20
    assert attack_value(h.state, akari, kyo, "decisive") > attack_value(h.state, akari, kyo, "withering")


def test_bot_does_not_wither_a_chaos_phase_boss_for_nothing(make):
    """歪曲阶段: withering damage is useless against the boss; the bot values only the +1."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("witch", "foes"), band=2), [])
    akari, witch = h.unit("akari"), h.unit("witch")
    akari.initiative, witch.initiative = 15, 15
    assert attack_value(h.state, akari, witch, "withering") < 0.4
    assert attack_value(h.state, akari, witch, "decisive") > 1


def test_bot_beats_random_in_the_duel():
    """The bot wins clearly more duels against the random bot than it loses (20 seeded games)."""
    ruleset = MtttRpg()
    wins = losses = 0
    for seed in range(20):
        game = Game.new(ruleset, "duel", seed=seed)
        outcome = game.play({"heroes": HeuristicBot(seed), "foes": RandomBot(500 + seed)})
        wins += outcome.winner == "heroes"
        losses += outcome.winner == "foes"
    assert wins >= 10 and losses <= 2



#: One short seed per scene (the default scene often runs to the round limit: ~1,400 decisions).
PROSE_SEEDS = {"default": 5, "duel": 6, "battle": 2}


@pytest.mark.parametrize("scene", ["default", "duel", "battle"])
@pytest.mark.parametrize("interrupts", [True, False])
def test_bot_reads_structure_not_prose(scene, interrupts):
    """With every prompt, label and rule citation rewritten, the heuristic bot (against itself
    and against the random bot) gives the same answers and the scene the same outcome."""
    seeds, options = [PROSE_SEEDS[scene]], {"interrupts": interrupts}
    compared = check_prose_independence(
        MtttRpg(), {"heroes": HeuristicBot, "foes": HeuristicBot}, scenario=scene, seeds=seeds, options=options
    )
    compared += check_prose_independence(
        MtttRpg(), {"heroes": HeuristicBot, "foes": RandomBot}, scenario=scene, seeds=seeds, options=options
    )
    assert compared > 20


def test_bot_takes_a_soul_disability_from_the_decisions_context_only_to_avoid_helplessness(make):
    """灵魂残疾: the decision says what is at stake (the damage and the HP left) in its context;
    the bot takes the disability only when the damage would leave her helpless."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), band=2), [])
    akari, kyo = h.unit("akari"), h.unit("kyo")
    view = SimpleNamespace(state=h.state)
    answers = []
    for hp in (7, 4):
        akari.hp, akari.disability_used = hp, False
        decision = next(apply_decisive(h, kyo, akari, 4, 8))
        assert decision.kind == kinds.DISABILITY
        assert dict(decision.context) == {"unit": "akari", "damage": 4, "hp": hp}
        answers.append(HeuristicBot(0).choose(decision, view))
    assert answers == [False, True]
