"""What the snapshot ladder's spacing trades (issue 9): snapshots a game against answers replayed.

    python tools/speed/spacing.py RULESET [SPACINGS=1,8,12,16] [SEEDS=8]

For each spacing (``wargamekit.game.SNAPSHOT_SPACING``: a checkpoint takes a snapshot only this
many answers after the last one), plays the ruleset's default scenario with seeded random bots
and prints the snapshots a game takes, and how many answers a fork or an undo at each position
from decision 50 on would replay from the latest snapshot before it (mean, 90th percentile,
greatest), and that distance at decision 200 for each seed (the restart benchmarks' position).
The snapshots' thinning past ``SNAPSHOT_LIMIT`` is left out (it thins only the older half).
Counts, not times: the same on any machine. A snapshot costs ~0.3 M instructions in aig
(``tools/speed/cgloop.py``), an answer replayed ~0.15-0.3 M.
"""

from __future__ import annotations

import bisect
import statistics
import sys

import wargamekit.game as game_module
from wargamekit.game import Game
from wargamekit.players import RandomBot
from wargamekit.plugins import installed_rulesets
from wargamekit.testing import bot_seed


def main(argv: list[str]) -> None:
    name = argv[0]
    spacings = [int(s) for s in (argv[1] if len(argv) > 1 else "1,8,12,16").split(",")]
    seeds = range(int(argv[2]) if len(argv) > 2 else 8)
    ruleset = installed_rulesets()[name]
    spacing_before, limit_before = game_module.SNAPSHOT_SPACING, game_module.SNAPSHOT_LIMIT
    try:
        game_module.SNAPSHOT_LIMIT = 1 << 30  # every snapshot taken stays on the ladder
        for spacing in spacings:
            game_module.SNAPSHOT_SPACING = spacing
            taken, distances, at_200 = [], [], []
            for seed in seeds:
                game = Game.new(ruleset, seed=seed)
                game.play({side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(ruleset.sides)})
                positions = [position for position, _ in game.checkpoints]
                taken.append(len(positions))
                for at in range(50, len(game.choices)):
                    latest = bisect.bisect_right(positions, at) - 1
                    distance = at - (positions[latest] if latest >= 0 else 0)
                    distances.append(distance)
                    if at == 200:
                        at_200.append(distance)
            print(f"{name} spacing {spacing:2d}: {statistics.mean(taken):5.1f} snapshots a game; answers "
                  f"replayed: mean {statistics.mean(distances):4.1f}, 90th percentile "
                  f"{statistics.quantiles(distances, n=10)[-1]:4.1f}, greatest {max(distances)}; "
                  f"at decision 200 by seed {at_200}")
    finally:
        game_module.SNAPSHOT_SPACING, game_module.SNAPSHOT_LIMIT = spacing_before, limit_before


if __name__ == "__main__":
    main(sys.argv[1:])
