"""Write the example position of the docs page (docs/rulesets/tank_solo_example.svg).

Usage (from the repository root)::

    uv run python plugins/tank_solo/scripts/render_example.py

Two heuristic bots play the ``duel`` scenario (seed 5) with forced spotting and the veteran
gunner on, until the start of turn 5; the position is drawn as side A sees it.
"""

from __future__ import annotations

from pathlib import Path

from wargamekit import Game
from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.bots import HeuristicBot

OUT = Path(__file__).resolve().parents[3] / "docs" / "rulesets" / "tank_solo_example.svg"


def main() -> None:
    ruleset = TankSolo()
    game = Game.new(ruleset, "duel", seed=5, options={"surrender": False, "forced_spotting": True,
                                                       "veteran_gunner": True})
    bots = {"A": HeuristicBot(1), "B": HeuristicBot(2)}
    game.play(bots, until=lambda g: g.state.turn >= 5)
    OUT.write_text(ruleset.render_svg(game.state, "A"), encoding="utf-8")
    print(ruleset.summary(ruleset.view(game.state, "A")))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
