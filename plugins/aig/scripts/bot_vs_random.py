"""The heuristic bot against the random bot: games per scenario and side, the win rate of each.

    uv run python plugins/aig/scripts/bot_vs_random.py --games 200 --workers 2

Seeds are 0..games-1 for every (scenario, side); the bot's side is the one named; results are
deterministic for a given seed.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from wargamekit import Game, RandomBot
from wargamekit_aig import Aig
from wargamekit_aig.bots import HeuristicBot


def one(job: tuple[str, str, int]) -> tuple[str, str, str | None]:
    scenario, side, seed = job
    players = {s: HeuristicBot(seed) if s == side else RandomBot(seed) for s in Aig.sides}
    outcome = Game.new(Aig(), scenario, seed=seed).play(players)
    return scenario, side, outcome.winner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scenarios", nargs="*", default=["training", "battle"])
    parser.add_argument("--progress", action="store_true", help="print each game's result as it ends")
    args = parser.parse_args()
    # Sides interleaved, so a run cut short still measures both.
    jobs = [(sc, side, seed) for sc in args.scenarios for seed in range(args.games) for side in Aig.sides]
    wins: dict[tuple[str, str], int] = {}
    played: dict[tuple[str, str], int] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for scenario, side, winner in pool.map(one, jobs, chunksize=1):
            wins[(scenario, side)] = wins.get((scenario, side), 0) + (winner == side)
            played[(scenario, side)] = played.get((scenario, side), 0) + 1
            if args.progress:
                print(scenario, side, winner, flush=True)
    for (scenario, side), won in sorted(wins.items()):
        n = played[(scenario, side)]
        print(f"{scenario:9} heuristic as {side:4}: {won}/{n} = {won / n:.1%}")


if __name__ == "__main__":
    main()
