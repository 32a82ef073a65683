"""Measure the heuristic bot against the random bot.

Usage (from the repository root)::

    uv run python plugins/maneuver_locale/scripts/bot_vs_random.py --games 200 --scenario default

Plays ``games`` seeded games with the bot as each side (half each) and prints win/draw/loss.
"""

from __future__ import annotations

import argparse
import time

from wargamekit import Game, RandomBot
from wargamekit_maneuver_locale import ManeuverLocale
from wargamekit_maneuver_locale.bots import HeuristicBot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--scenario", default="default")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    ruleset = ManeuverLocale()
    start = time.time()
    for bot_side in ruleset.sides:
        wins = draws = losses = 0
        for i in range(args.games // 2):
            seed = args.seed + i
            players = {
                side: HeuristicBot(seed) if side == bot_side else RandomBot(seed + 7919) for side in ruleset.sides
            }
            game = Game.new(ruleset, args.scenario, seed=seed)
            outcome = game.play(players)
            if outcome.winner == bot_side:
                wins += 1
            elif outcome.winner is None:
                draws += 1
            else:
                losses += 1
        n = args.games // 2
        print(
            f"{args.scenario}: bot as {bot_side}: {wins}/{n} wins ({100 * wins / n:.0f}%), "
            f"{draws} draws, {losses} losses"
        )
    print(f"({time.time() - start:.1f} s)")


if __name__ == "__main__":
    main()
