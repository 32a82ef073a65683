"""The games ``icount.sh`` counts: the seeded random-bot games 0-4 of RULESET once (the
warm-up), then ROUNDS times more — or, with a third argument ``fresh``, ROUNDS rounds of five
seeds the process has not played (1000 on): games whose positions no process memo has met, as
a user's games are (replayed seeds find every position-keyed memo warm: aig's counted at about
half the instructions of a fresh seed's, session 31).

With ``WARGAMEKIT_GC=off`` in the environment, the collector is run once and turned off at the
end of the warm-up (with ROUNDS=0 too, so that ``icount.sh``'s subtraction of the warm-up alone
cancels that collection): a full collection walks everything loaded (tens of milliseconds), and
whether one falls inside the counted rounds moves a one-round count by more than most changes
measured. The figure is then the games' own work, without the collector's share (what they
leave for it is collected at exit, outside the difference).

With ``WARGAMEKIT_SNAPSHOTS=off``, the games keep no snapshots (``snapshots=False``): the
difference from a count with them is the snapshots' share of a game (the default keeps them, as
a user's game does).
"""

import gc
import os
import sys

from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game

if __name__ == "__main__":
    ruleset = installed_rulesets()[sys.argv[1]]
    fresh = sys.argv[3:] == ["fresh"]
    snapshots = os.environ.get("WARGAMEKIT_SNAPSHOTS") != "off"
    for round_ in range(1 + int(sys.argv[2])):
        for seed in range(5) if round_ == 0 or not fresh else range(995 + 5 * round_, 1000 + 5 * round_):
            play_random_game(ruleset, seed=seed, check_invariants=False, snapshots=snapshots)
        if round_ == 0 and os.environ.get("WARGAMEKIT_GC") == "off":
            gc.collect()
            gc.disable()
