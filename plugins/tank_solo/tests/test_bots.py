"""Both exact-odds bots beat the random bot (quick check; `wargamekit simulate tank_solo` measures more, see docs/rulesets/tank_solo.md)."""

from __future__ import annotations

import pytest

from wargamekit import Game, RandomBot
from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.bots import HeuristicBot
from wargamekit_tank_solo.cautious_bot import CautiousBot

RULESET = TankSolo()


@pytest.mark.parametrize("bot", [HeuristicBot, CautiousBot], ids=["heuristic", "cautious"])
def test_bot_beats_random(bot):
    """Over 20 seeded duel games, alternating sides, the bot wins at least 16."""
    wins = 0
    for seed in range(20):
        bot_side, other = ("A", "B") if seed % 2 == 0 else ("B", "A")
        game = Game.new(RULESET, "duel", seed=seed, options={"surrender": False})
        outcome = game.play({bot_side: bot(seed), other: RandomBot(seed)})
        wins += outcome.winner == bot_side
    assert wins >= 16


def test_bots_are_registered():
    """The CLI's ``bot`` (and ``heuristic``) is the heuristic bot; ``cautious`` is the cautious bot."""
    bots = RULESET.bots()
    assert bots["bot"] is HeuristicBot and bots["heuristic"] is HeuristicBot
    assert bots["cautious"] is CautiousBot
