"""Draw the example position of the docs page (default scenario, two heuristic bots, seed 4,
stopped when turn 3 begins), as Austria sees it.

Usage (from the repository root)::

    uv run python plugins/maneuver_locale/scripts/example_position.py docs/rulesets/maneuver_locale_example.svg
"""

from __future__ import annotations

import sys

from wargamekit import Game
from wargamekit_maneuver_locale import ManeuverLocale
from wargamekit_maneuver_locale.bots import HeuristicBot
from wargamekit_maneuver_locale.render import render_state
from wargamekit_maneuver_locale.view import redact, summary_text

SEED, STOP_TURN, SIDE = 4, 3, "austria"


def example_game() -> Game:
    """The game of the example, stopped at the start of turn ``STOP_TURN``."""
    ruleset = ManeuverLocale()
    game = Game.new(ruleset, "default", seed=SEED)
    bots = {side: HeuristicBot(SEED + i) for i, side in enumerate(ruleset.sides)}
    game.play(bots, until=lambda g: g.state.turn >= STOP_TURN)
    return game


def main() -> None:
    game = example_game()
    view = redact(game.state, SIDE)
    svg = render_state(view, title=f"Marengo (default scenario), start of turn {STOP_TURN}, as {SIDE} sees it")
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        out.write(svg)
    print(summary_text(view))


if __name__ == "__main__":
    main()
