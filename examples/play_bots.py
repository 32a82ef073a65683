"""Play a bundled ruleset bot against bot from Python and print the outcome.

    uv run python examples/play_bots.py                 # skirmish, seed 0
    uv run python examples/play_bots.py tank_solo 7     # another ruleset, another seed

Each side gets the ruleset's best bot (``bots()["bot"]``), or the random bot if it has none.
"""

from __future__ import annotations

import sys

from wargamekit import Game, RandomBot, find_ruleset


def main(name: str = "skirmish", seed: int = 0) -> None:
    ruleset = find_ruleset(name)
    make_bot = ruleset.bots().get("bot", RandomBot)
    players = {side: make_bot(seed * 10 + i) for i, side in enumerate(ruleset.sides)}
    game = Game.new(ruleset, seed=seed)
    outcome = game.play(players)
    print(f"{ruleset.name} {ruleset.version}, seed {seed}: {len(game.choices)} decisions")
    print(ruleset.summary(game.state))
    print(f"winner: {outcome.winner or 'none (a draw)'} — {outcome.reason}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "skirmish", int(sys.argv[2]) if len(sys.argv) > 2 else 0)
