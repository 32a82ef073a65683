"""Measure the greedy bot against the random bot: ``uv run python examples/skirmish/scripts/bot_vs_random.py 300``.

The bot plays each side in half of the games; prints wins, losses and draws of the bot.
"""

from __future__ import annotations

import sys
import time

from wargamekit import Game, RandomBot
from wargamekit_skirmish import Skirmish
from wargamekit_skirmish.bots import GreedyBot


def main(games: int) -> None:
    ruleset = Skirmish()
    tally = {"win": 0, "loss": 0, "draw": 0}
    start = time.perf_counter()
    for seed in range(games):
        bot_side = ruleset.sides[seed % 2]
        players = {side: GreedyBot(seed) if side == bot_side else RandomBot(seed) for side in ruleset.sides}
        outcome = Game.new(ruleset, seed=seed).play(players)
        tally["draw" if outcome.winner is None else "win" if outcome.winner == bot_side else "loss"] += 1
    took = time.perf_counter() - start
    print(f"greedy bot vs random bot, {games} games: {tally['win']} wins, {tally['loss']} losses, "
          f"{tally['draw']} draws ({tally['win'] / games:.1%} won) in {took:.1f}s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
