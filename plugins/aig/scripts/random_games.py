"""Seeded random games: each must end with a result and pass the invariants after every decision.

    uv run python plugins/aig/scripts/random_games.py --games 1000 --workers 1

``wargamekit simulate`` plays bot games too, but checks no invariants; this script runs the core's
``play_random_game`` (invariants after every answer, every decision's structure, the interrupt
stack empty at the end) and names the seed of any game that fails, so it can be replayed.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from wargamekit.testing import play_random_game
from wargamekit_aig import Aig


def one(job: tuple[str, int]) -> tuple[str, int, str | None, str]:
    scenario, seed = job
    try:
        game = play_random_game(Aig(), scenario, seed=seed, structured=True)
    except AssertionError as failure:
        return scenario, seed, None, f"{type(failure).__name__}: {failure}"
    assert game.outcome is not None
    return scenario, seed, game.outcome.winner, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scenarios", nargs="*", default=["training", "battle"])
    parser.add_argument("--progress", action="store_true", help="print each game's result as it ends")
    args = parser.parse_args()
    jobs = [(sc, seed) for sc in args.scenarios for seed in range(args.first, args.first + args.games)]
    results: Counter[tuple[str, str | None]] = Counter()
    failures = []
    with ProcessPoolExecutor(args.workers) as pool:
        for scenario, seed, winner, failure in pool.map(one, jobs, chunksize=8):
            if failure:
                failures.append(f"{scenario} seed {seed}: {failure}")
                print(failures[-1], flush=True)
            else:
                results[(scenario, winner)] += 1
                if args.progress:
                    print(f"{scenario} seed {seed}: winner {winner}", flush=True)
    for (scenario, winner), n in sorted(results.items(), key=str):
        print(f"{scenario:9} winner {winner}: {n}")
    print(f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
