"""The heuristic bot beats the random bot (quick check; the full measurement is in scripts/)."""

from __future__ import annotations

from wargamekit import Game, RandomBot
from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.bots import HeuristicBot

RULESET = TankSolo()


def test_heuristic_bot_beats_random():
    """Over 20 seeded games, alternating sides, the heuristic bot wins at least 16."""
    wins = 0
    for seed in range(20):
        bot_side, other = ("A", "B") if seed % 2 == 0 else ("B", "A")
        game = Game.new(RULESET, "duel", seed=seed, options={"surrender": False})
        outcome = game.play({bot_side: HeuristicBot(seed), other: RandomBot(seed)})
        wins += outcome.winner == bot_side
    assert wins >= 16


def test_bot_is_registered_as_bot():
    """The CLI's ``bot`` is the heuristic bot."""
    assert RULESET.bots()["bot"] is HeuristicBot
