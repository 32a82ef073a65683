"""The games ``icount.sh`` counts: the seeded random-bot games 0-4 of RULESET once (the
warm-up), then ROUNDS times more."""

import sys

from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game

if __name__ == "__main__":
    ruleset = installed_rulesets()[sys.argv[1]]
    for _ in range(1 + int(sys.argv[2])):
        for seed in range(5):
            play_random_game(ruleset, seed=seed, check_invariants=False)
