"""What the terminal shows a person (issue 13): facings clockwise, targets with range and odds,
a text map on `?`."""

from __future__ import annotations

from wargamekit import Game, ScriptedDice
from wargamekit_skirmish.ruleset import Skirmish

DUEL = {"title": "duel", "width": 6, "height": 4, "units": [
    {"name": "A", "side": "blue", "hex": "0102"},
    {"name": "B", "side": "red", "hex": "0402", "facing": 3}]}


def test_facings_run_clockwise_and_targets_carry_range_and_odds():
    """4.2: the facing menu runs clockwise from north; 5.1/5.2: a target's line has its range
    and the shot's exact odds; picking by data still works."""
    game = Game.new(Skirmish(), DUEL, options={"reaction_fire": False}, dice=ScriptedDice([3, 3]))
    game.answer(0)  # A activates
    game.answer(game.pending.labels.index("0102"))  # stays put
    assert game.pending.labels == ["north", "north-east", "south-east", "south", "south-west", "north-west"]
    assert [o.data["facing"] for o in game.pending.options] == [2, 1, 0, 5, 4, 3]
    game.answer(game.pending.labels.index("south-east"))
    assert game.pending.labels == ["hold fire", "B (range 3, modifier +1: hit 58%, kill 8%)"]
    assert game.pending.options[1].data == {"target": "B"}


def test_summary_has_a_text_map():
    """`?`: the map as text, each unit by its side's letter and number."""
    game = Game.new(Skirmish(), DUEL, seed=1)
    text = game.ruleset.summary(game.state)
    assert "Map: . clear  W woods  H hill; odd columns sit half a hex lower (b1 A, r1 B)" in text
    row2 = next(line for line in text.splitlines() if line.startswith("  02 "))
    assert row2.split() == ["02", "b1", ".", ".", "r1", ".", "."]
