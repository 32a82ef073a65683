"""Measure one tank_solo bot against another over seeded games.

Usage (from the repository root)::

    uv run python plugins/tank_solo/scripts/bot_vs_bot.py cautious random --games 300
    uv run python plugins/tank_solo/scripts/bot_vs_bot.py cautious heuristic --games 300 --scenario duel
    uv run python plugins/tank_solo/scripts/bot_vs_bot.py cautious heuristic --games 300 --side B

Bots are named as in ``TankSolo().bots()`` (``heuristic``, ``cautious``) or ``random``. The
first bot plays side A in even-numbered games and side B in odd ones, unless ``--side`` fixes
its side. The random bot never surrenders (``surrender`` off, as ``bot_vs_random.py``): a random
surrender would make the comparison meaningless. ``--jobs`` plays games in parallel processes;
the results do not depend on it (each game depends only on its seed).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from wargamekit import Game, RandomBot
from wargamekit_tank_solo import TankSolo

RULESET = TankSolo()


def make_bot(name: str, seed: int) -> Any:
    """A bot by name (``random`` or a key of ``TankSolo().bots()``)."""
    if name == "random":
        return RandomBot(seed)
    return RULESET.bots()[name](seed)


def play_one(first: str, second: str, scenario: str, options: dict[str, bool], seed: int,
             side: str | None) -> tuple[str, str, int, int]:
    """Play game ``seed``; returns (result, reason, first's points, second's points)."""
    first_side = side or ("A" if seed % 2 == 0 else "B")
    second_side = "B" if first_side == "A" else "A"
    game = Game.new(RULESET, scenario, seed=seed, options=options)
    # the second bot gets a different seed so that two equal bots do not mirror each other's tie-breaks
    outcome = game.play({first_side: make_bot(first, seed), second_side: make_bot(second, seed + 10_000)})
    result = "draw" if outcome.winner is None else ("first" if outcome.winner == first_side else "second")
    reason = outcome.reason.split(":", 1)[1].split("(")[0].strip() if ":" in outcome.reason else outcome.reason
    return (result, reason, int(outcome.scores.get(first_side, 0)), int(outcome.scores.get(second_side, 0)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="bot measured: heuristic, cautious or random")
    parser.add_argument("second", help="its opponent: heuristic, cautious or random")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--scenario", default="default")
    parser.add_argument("--side", choices=("A", "B"), default=None, help="fix the first bot's side")
    parser.add_argument("--all-options", action="store_true", help="switch every optional rule on")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes")
    args = parser.parse_args()
    for name in (args.first, args.second):
        if name != "random" and name not in RULESET.bots():
            parser.error(f"unknown bot {name!r}; bots are random, {', '.join(RULESET.bots())}")
    options = {"surrender": False}
    if args.all_options:
        options = {name: name != "surrender" for name in RULESET.options()}
    start = time.time()
    jobs = [(args.first, args.second, args.scenario, options, seed, args.side) for seed in range(args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(play_one, *zip(*jobs, strict=True), chunksize=4))
    else:
        rows = [play_one(*job) for job in jobs]
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    points: Counter[str] = Counter()
    names = {"first": args.first, "second": args.second, "draw": "draw"}
    for result, reason, first_points, second_points in rows:
        results[result] += 1
        reasons[f"{names[result]}: {reason}"] += 1
        points["first"] += first_points
        points["second"] += second_points
    n = args.games
    sides = f"{args.first} always side {args.side}" if args.side else "sides alternate by seed"
    print(f"{n} games on {args.scenario!r} ({time.time() - start:.0f} s), {sides}, options {options}")
    for key in ("first", "second", "draw"):
        label = f"{names[key]}" + (" (2nd)" if key == "second" and args.first == args.second else "")
        print(f"  {label:<16} {results[key]:4d}  {results[key] / n:6.1%}")
    print(f"  victory points per game: {args.first} {points['first'] / n:.2f}, "
          f"{args.second} {points['second'] / n:.2f}")
    for reason, count in reasons.most_common():
        print(f"    {count:4d}  {reason}")


if __name__ == "__main__":
    main()
