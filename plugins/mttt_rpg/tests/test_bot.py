"""The heuristic bot: exact-odds attack choice, and a quick check that it beats the random bot."""

from wargamekit import Game, RandomBot
from wargamekit_mttt_rpg import MtttRpg
from wargamekit_mttt_rpg.bots import HeuristicBot, attack_value


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
