"""Draw an example position: the training battle after two turns of two heuristic bots (seed 4).

    uv run python plugins/aig/scripts/example_position.py docs/rulesets/aig_example.svg
"""

from __future__ import annotations

import sys

from wargamekit import Game
from wargamekit_aig import Aig
from wargamekit_aig.bots import HeuristicBot


def main(path: str, scenario: str = "training", turns: int = 2, seed: int = 4) -> None:
    game = Game.new(Aig(), scenario, seed=seed)
    bots = {side: HeuristicBot(seed) for side in Aig.sides}
    while game.outcome is None and game.state.turn <= turns:
        decision = game.pending
        game.answer(bots[decision.side].choose(decision, game.view(decision.side)))
    with open(path, "w", encoding="utf-8") as out:
        out.write(Aig().render_svg(game.state))
    print(Aig().summary(game.state))


if __name__ == "__main__":
    main(*sys.argv[1:2], *(sys.argv[2:3] or []))
