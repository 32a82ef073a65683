"""A hash of the logs of every bundled scenario's seeded random-bot games (N each, default 20),
and of four games of each ruleset's ``bot`` against itself, one line per scenario: two
checkouts that print the same lines play the same games, byte for byte."""

import hashlib
import sys

from wargamekit import Game
from wargamekit.players import RandomBot, bot_seed
from wargamekit.plugins import installed_rulesets


def main(n: int) -> None:
    for name, ruleset in sorted(installed_rulesets().items()):
        for scenario in sorted(ruleset.scenario_names()):
            digest = hashlib.sha256()
            for seed in range(n):
                game = Game.new(ruleset, ruleset.scenario_data(scenario), seed=seed)
                game.play({side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(ruleset.sides)})
                digest.update(game.log_text().encode())
            print(f"{name} {scenario} random {digest.hexdigest()[:16]}")
        bot = ruleset.bots().get("bot")
        if bot is not None:
            digest = hashlib.sha256()
            for seed in range(4):
                game = Game.new(ruleset, seed=seed)
                game.play({side: bot(bot_seed(seed, i)) for i, side in enumerate(ruleset.sides)})
                digest.update(game.log_text().encode())
            print(f"{name} default bot {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
