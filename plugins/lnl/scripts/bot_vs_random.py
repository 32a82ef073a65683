"""The heuristic bot against the random bot: games per scenario and side, with the win rate.

    uv run python plugins/lnl/scripts/bot_vs_random.py --games 200

Seeds 0..N-1; the bot plays one side, the random bot (seeded differently) the other.
"""

from __future__ import annotations

import argparse
import time

from wargamekit import Game, RandomBot
from wargamekit_lnl import LnL
from wargamekit_lnl.bots import OddsBot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--scenario", action="append", help="scenario name(s) (default: all bundled)")
    args = parser.parse_args()
    ruleset = LnL()
    for scenario in args.scenario or ruleset.scenario_names():
        for bot_side in ruleset.sides:
            start = time.perf_counter()
            wins = 0
            for seed in range(args.games):
                players = {s: OddsBot(seed) if s == bot_side else RandomBot(seed + 10_000) for s in ruleset.sides}
                outcome = Game.new(ruleset, scenario, seed=seed).play(players)
                wins += outcome.winner == bot_side
            print(f"{scenario:10} bot as {bot_side:7}: {wins}/{args.games} wins ({wins / args.games:.1%})"
                  f" in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
