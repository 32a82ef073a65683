"""Random-bot games per CPU second of each ruleset named (default: all), on its default
scenario: best and median of 8 rounds of the seeded games 0-4, after one warm-up game."""

import statistics
import sys
import time

from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game


def main(names: list[str]) -> None:
    rulesets = installed_rulesets()
    for name in names or sorted(rulesets):
        ruleset = rulesets[name]
        play_random_game(ruleset, seed=0, check_invariants=False)
        rates = []
        for _ in range(8):
            start = time.process_time()
            for seed in range(5):
                play_random_game(ruleset, seed=seed, check_invariants=False)
            rates.append(5 / (time.process_time() - start))
        print(f"{name:16s} best {max(rates):6.1f} median {statistics.median(rates):6.1f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
