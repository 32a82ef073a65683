"""The comparison figures beside the bot's: random against random, and bot against bot.

Usage (from the repository root)::

    uv run python plugins/maneuver_locale/scripts/baselines.py --scenario default

Random against random: ``--random-games`` seeded games of ``wargamekit.testing.play_random_game``
(seeds 0, 1, ...). Bot against bot: ``--bot-games`` games, ``HeuristicBot(seed)`` for the first
side and ``HeuristicBot(seed + 1)`` for the second. Prints the wins of each side and the draws.
"""

from __future__ import annotations

import argparse
from collections import Counter

from wargamekit import Game
from wargamekit.testing import play_random_game
from wargamekit_maneuver_locale import ManeuverLocale
from wargamekit_maneuver_locale.bots import HeuristicBot


def tally(winners: list[str | None], sides: tuple[str, ...]) -> str:
    counts = Counter(winners)
    return ", ".join(f"{side} {counts[side]}" for side in sides) + f", draws {counts[None]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", default="default")
    parser.add_argument("--random-games", type=int, default=200)
    parser.add_argument("--bot-games", type=int, default=30)
    args = parser.parse_args()
    ruleset = ManeuverLocale()
    sides = tuple(ruleset.sides)
    randoms = [play_random_game(ruleset, args.scenario, seed=s).outcome.winner for s in range(args.random_games)]
    print(f"{args.scenario}: random vs random, {args.random_games} games: {tally(randoms, sides)}")
    bots = []
    for seed in range(args.bot_games):
        players = {side: HeuristicBot(seed + i) for i, side in enumerate(sides)}
        bots.append(Game.new(ruleset, args.scenario, seed=seed).play(players).winner)
    print(f"{args.scenario}: bot vs bot, {args.bot_games} games: {tally(bots, sides)}")


if __name__ == "__main__":
    main()
