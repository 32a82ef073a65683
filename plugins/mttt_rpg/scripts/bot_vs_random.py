"""Measure the heuristic bot against the random bot over many seeded games.

    uv run python plugins/mttt_rpg/scripts/bot_vs_random.py --games 200

For each scene the bot plays each side in turn against the random bot; a game counts as a win
for the side that wins the scene (draws: the round limit or a withdrawal).
"""

from __future__ import annotations

import argparse

from wargamekit import Game, RandomBot
from wargamekit_mttt_rpg import MtttRpg
from wargamekit_mttt_rpg.bots import HeuristicBot


def measure(scene: str, bot_side: str, games: int, seed: int = 0, interrupts: bool = True) -> dict[str, int]:
    """Play ``games`` games with the bot on ``bot_side``; count bot wins, losses and draws."""
    ruleset = MtttRpg()
    tally = {"win": 0, "loss": 0, "draw": 0}
    for i in range(games):
        game = Game.new(ruleset, scene, seed=seed + i, options={"interrupts": interrupts})
        players = {
            side: HeuristicBot(seed + i) if side == bot_side else RandomBot(10_000 + seed + i)
            for side in ruleset.sides
        }
        outcome = game.play(players)
        key = "draw" if outcome.winner is None else ("win" if outcome.winner == bot_side else "loss")
        tally[key] += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for scene in ("default", "duel", "battle"):
        for side in ("heroes", "foes"):
            bot = measure(scene, side, args.games, args.seed)
            print(f"{scene:8} bot as {side:6}: {bot}")
        for side in ("heroes", "foes"):
            base = measure_random(scene, side, args.games, args.seed)
            print(f"{scene:8} random as {side:6} (baseline): {base}")


def measure_random(scene: str, side: str, games: int, seed: int = 0) -> dict[str, int]:
    """The same tally with the random bot on both sides (the baseline)."""
    ruleset = MtttRpg()
    tally = {"win": 0, "loss": 0, "draw": 0}
    for i in range(games):
        game = Game.new(ruleset, scene, seed=seed + i)
        players = {s: RandomBot(20_000 * (k + 1) + seed + i) for k, s in enumerate(ruleset.sides)}
        outcome = game.play(players)
        key = "draw" if outcome.winner is None else ("win" if outcome.winner == side else "loss")
        tally[key] += 1
    return tally


if __name__ == "__main__":
    main()
