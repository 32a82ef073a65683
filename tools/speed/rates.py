"""Random-bot games per CPU second of each ruleset named (default: all), on its default
scenario: best and median of 8 rounds of the seeded games 0-4, after one warm-up game; with
``--fresh``, each round on five seeds the process has not played (1000 on): the replayed
seeds find every memo keyed by a position warm, a user's games do not (see games.py)."""

import statistics
import sys
import time

from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game


def main(names: list[str], fresh: bool = False) -> None:
    rulesets = installed_rulesets()
    for name in names or sorted(rulesets):
        ruleset = rulesets[name]
        play_random_game(ruleset, seed=0, check_invariants=False)
        rates = []
        for round_ in range(8):
            start = time.process_time()
            for seed in range(1000 + 5 * round_, 1005 + 5 * round_) if fresh else range(5):
                play_random_game(ruleset, seed=seed, check_invariants=False)
            rates.append(5 / (time.process_time() - start))
        print(f"{name:16s} best {max(rates):6.1f} median {statistics.median(rates):6.1f}", flush=True)


if __name__ == "__main__":
    main([a for a in sys.argv[1:] if a != "--fresh"], fresh="--fresh" in sys.argv[1:])
