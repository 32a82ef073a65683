"""Seeded random games per scenario: each must end with a result, with the ruleset's invariants
checked after every decision and every decision structured (kind, context, option data).

    uv run python plugins/lnl/scripts/random_games.py --games 1000
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from wargamekit.testing import play_random_game
from wargamekit_lnl import LnL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--scenario", action="append", help="scenario name(s) (default: all bundled)")
    args = parser.parse_args()
    ruleset = LnL()
    for scenario in args.scenario or ruleset.scenario_names():
        start = time.perf_counter()
        winners: Counter[str | None] = Counter()
        decisions = 0
        for seed in range(args.games):
            game = play_random_game(ruleset, scenario, seed=seed, structured=True)
            assert game.outcome is not None, f"seed {seed}: no result"
            winners[game.outcome.winner] += 1
            decisions += len(game.choices)
        print(f"{scenario:14} {args.games} games, all ended; winners {dict(winners)}; "
              f"{decisions / args.games:.0f} decisions a game; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
