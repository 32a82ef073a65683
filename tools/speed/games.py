"""The games ``icount.sh`` counts: the seeded random-bot games 0-4 of RULESET once (the
warm-up), then ROUNDS times more.

With ``WARGAMEKIT_GC=off`` in the environment, the collector is run once and turned off at the
end of the warm-up (with ROUNDS=0 too, so that ``icount.sh``'s subtraction of the warm-up alone
cancels that collection): a full collection walks everything loaded (tens of milliseconds), and
whether one falls inside the counted rounds moves a one-round count by more than most changes
measured. The figure is then the games' own work, without the collector's share (what they
leave for it is collected at exit, outside the difference).
"""

import gc
import os
import sys

from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game

if __name__ == "__main__":
    ruleset = installed_rulesets()[sys.argv[1]]
    for round_ in range(1 + int(sys.argv[2])):
        for seed in range(5):
            play_random_game(ruleset, seed=seed, check_invariants=False)
        if round_ == 0 and os.environ.get("WARGAMEKIT_GC") == "off":
            gc.collect()
            gc.disable()
