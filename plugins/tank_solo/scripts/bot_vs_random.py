"""Measure the heuristic bot against the random bot over seeded games.

Usage (from the repository root)::

    uv run python plugins/tank_solo/scripts/bot_vs_random.py --games 300 --scenario default

The bot plays side A in even-numbered games and side B in odd ones. The random bot never
surrenders (``surrender`` off): a random surrender would make the comparison meaningless.
``bot_vs_bot.py`` measures any two bots (the cautious bot too) the same way.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from wargamekit import Game, RandomBot
from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.bots import HeuristicBot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--scenario", default="default")
    parser.add_argument("--all-options", action="store_true", help="switch every optional rule on")
    args = parser.parse_args()
    ruleset = TankSolo()
    options = {"surrender": False}
    if args.all_options:
        options = {name: name != "surrender" for name in ruleset.options()}
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    points = Counter()
    start = time.time()
    for seed in range(args.games):
        bot_side = "A" if seed % 2 == 0 else "B"
        random_side = "B" if bot_side == "A" else "A"
        game = Game.new(ruleset, args.scenario, seed=seed, options=options)
        outcome = game.play({bot_side: HeuristicBot(seed), random_side: RandomBot(seed)})
        result = "draw" if outcome.winner is None else ("bot" if outcome.winner == bot_side else "random")
        results[result] += 1
        reasons[f"{result}: {outcome.reason.split(':', 1)[1].split('(')[0].strip()}"] += 1
        points["bot"] += int(outcome.scores.get(bot_side, 0))
        points["random"] += int(outcome.scores.get(random_side, 0))
    n = args.games
    print(f"{n} games on {args.scenario!r} ({time.time() - start:.0f} s), options {options}")
    for key in ("bot", "random", "draw"):
        print(f"  {key:<7} {results[key]:4d}  {results[key] / n:6.1%}")
    print(f"  victory points per game: bot {points['bot'] / n:.2f}, random {points['random'] / n:.2f}")
    for reason, count in reasons.most_common():
        print(f"    {count:4d}  {reason}")


if __name__ == "__main__":
    main()
