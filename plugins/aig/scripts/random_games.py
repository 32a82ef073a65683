"""Seeded random games: each must end with a result and pass the invariants after every decision.

    uv run python plugins/aig/scripts/random_games.py --games 1000 --workers 2
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from wargamekit.testing import play_random_game
from wargamekit_aig import Aig


def one(job: tuple[str, int]) -> tuple[str, str | None]:
    scenario, seed = job
    game = play_random_game(Aig(), scenario, seed=seed)
    return scenario, game.outcome.winner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scenarios", nargs="*", default=["training", "battle"])
    args = parser.parse_args()
    jobs = [(sc, seed) for sc in args.scenarios for seed in range(args.games)]
    results: Counter[tuple[str, str | None]] = Counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for scenario, winner in pool.map(one, jobs, chunksize=8):
            results[(scenario, winner)] += 1
    for (scenario, winner), n in sorted(results.items(), key=str):
        print(f"{scenario:9} winner {winner}: {n}")


if __name__ == "__main__":
    main()
