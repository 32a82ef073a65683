"""Sequence of play (3), movement (4), reaction fire (6) and victory (8), with forced dice."""

import random

import pytest

from wargamekit import Game, InvalidChoiceError, ScriptedDice
from wargamekit_skirmish import Skirmish
from wargamekit_skirmish.movement import destinations
from wargamekit_skirmish.scenario import hex_label, parse_hex


def scenario(*units, turns=2, woods=(), first="blue"):
    return {"title": "test", "width": 6, "height": 4, "turns": turns, "first": first,
            "terrain": {"woods": list(woods)}, "units": [dict(u) for u in units]}


A = {"name": "A", "side": "blue", "hex": "0102", "facing": 0}
B = {"name": "B", "side": "red", "hex": "0602", "facing": 3}


def answer(game: Game, *labels: str) -> None:
    """Answer the pending decisions by option label."""
    for label in labels:
        game.answer(_index(game.pending.labels, label))


def test_sides_alternate_and_the_first_side_changes_each_turn_3_1():
    """3.1/3.2: sides alternate activations; the side activating first alternates every turn."""
    game = Game.new(Skirmish(), scenario(A, B, {**A, "name": "A2", "hex": "0101"}, turns=2),
                    options={"reaction_fire": False}, dice=ScriptedDice([]))
    sides = []
    while game.pending is not None:
        if game.pending.rule == "3.2 Activation":
            sides.append(game.pending.side)
        # stay put, keep facing, hold fire
        game.answer(0 if game.pending.rule != "4.2 Facing" else game.state.units[game.state.active].facing)
    # Turn 1: blue, red, blue (red has no unit left to act); turn 2: red first.
    assert sides == ["blue", "red", "blue", "red", "blue", "blue"]
    assert game.outcome.winner is None and game.outcome.reason.startswith("8.2")


def test_movement_costs_and_occupied_hexes_4_1():
    """4.1: clear costs 1, woods 2; a unit may not enter another unit's hex; staying put is allowed."""
    game = Game.new(Skirmish(), scenario({**A, "move": 2}, {**B, "hex": "0202"}, woods=["0103"]))
    state = game.state
    reach = {hex_label(h) for h in destinations(state, state.units["A"])}
    assert "0102" in reach and "0103" in reach  # start; woods for 2
    assert "0104" not in reach  # woods (2) + 1 > 2
    assert "0202" not in reach  # occupied by B
    assert "0302" in reach  # two clear hexes round B
    assert game.pending.rule == "3.2 Activation"


def test_destinations_are_the_maps_reachable_hexes_in_cost_order_4_1():
    """4.1: the move menu's hexes and their order are the core's ``HexMap.reachable`` with the
    other units' hexes blocked, sorted by cost, then hex, wherever the units stand."""
    rng = random.Random(4)
    state = Game.new(Skirmish(), seed=0).state  # Hill 112: woods and hills to cost 2
    hexes = state.map.hexes()
    for _ in range(200):
        spots = rng.sample(hexes, len(state.units))
        for unit, spot in zip(state.units.values(), spots, strict=True):
            unit.hex = spot
        unit = rng.choice(list(state.units.values()))
        unit.move = rng.randint(1, 6)
        others = [u.hex for u in state.alive() if u is not unit]
        reach = state.map.reachable(unit.hex, unit.move, "infantry", blocked=others)
        assert destinations(state, unit) == sorted(reach, key=lambda h: (reach[h], h.q, h.r))


def test_a_hit_removes_a_step_and_a_kill_eliminates_5_3_8_1():
    """5.3: a hit removes one step, a kill two; 8.1: a side with no units left loses."""
    game = Game.new(Skirmish(), scenario(A, {**B, "hex": "0402"}), options={"reaction_fire": False},
                    dice=ScriptedDice([4, 4, 6, 6]))
    answer(game, "A", "0102", "south-east", "B")  # 8 + 2 - 1 = 9: hit
    assert game.state.units["B"].steps == 1
    answer(game, "B", "0402", "north-west", "A")  # natural 12: kill
    assert not game.state.units["A"].alive
    assert game.outcome.winner == "red" and game.outcome.reason.startswith("8.1")
    assert game.outcome.scores == {"blue": 1, "red": 2}


def test_turn_limit_victory_8_2():
    """8.2: after the last turn the side that destroyed more enemy steps wins."""
    game = Game.new(Skirmish(), scenario(A, {**B, "hex": "0402"}, turns=1), options={"reaction_fire": False},
                    dice=ScriptedDice([4, 4]))
    answer(game, "A", "0102", "south-east", "B")  # hit
    answer(game, "B", "0402", "north-west", "hold fire")
    assert game.outcome.winner == "blue" and game.outcome.reason.startswith("8.2")


def test_reaction_fire_window_6():
    """6: after a unit moves, an unspent enemy that can fire at it may snap-fire (-1) and is then spent."""
    game = Game.new(Skirmish(), scenario(A, {**B, "hex": "0402"}), dice=ScriptedDice([5, 5, 3, 3]))
    answer(game, "A", "0202", "south-east")
    window = game.pending
    assert window.side == "red" and window.rule == "6 Reaction fire"
    assert window.labels == ["pass", "B snap-fires at A"]
    # Red pushes the snap-fire; with nothing else to push it resolves: 10 + 2 - 1 (range 2) - 1 (snap) = 10, a hit.
    answer(game, "B snap-fires at A")
    assert game.state.units["A"].steps == 1 and game.state.units["B"].spent
    answer(game, "B")  # the damaged A fires back: 6 + 1 - 1 = 6, a miss
    assert game.state.units["B"].steps == 2
    # B already fired this turn: the turn ends, and turn 2 begins with red.
    assert game.state.turn == 2 and game.pending.side == "red"


def test_reaction_fire_fizzles_if_the_target_is_gone_6():
    """6: a snap-fire whose target was eliminated meanwhile fizzles (re-checked at resolution)."""
    units = (A, {**B, "hex": "0402"}, {**B, "name": "C", "hex": "0401", "facing": 4})
    game = Game.new(Skirmish(), scenario(*units), dice=ScriptedDice([6, 6]))
    answer(game, "A", "0202", "south-east")
    # Once both are on the stack nobody has anything left to push: C resolves first (LIFO) and kills.
    answer(game, "B snap-fires at A", "C snap-fires at A")
    assert not game.state.units["A"].alive
    assert any(e.kind == "stack-fizzle" for e in game.log)
    assert game.outcome.winner == "red"


def test_an_unreadable_answer_is_refused_and_changes_nothing():
    """An answer outside the options raises InvalidChoiceError citing the rule; the state is unchanged."""
    game = Game.new(Skirmish(), scenario(A, B))
    before = game.log_text()
    with pytest.raises(InvalidChoiceError, match=r"3\.2 Activation"):
        game.answer(7)
    assert game.log_text() == before and game.state.active is None


def test_summary_and_picture_show_the_position():
    """The summary lists units; the SVG draws one counter per visible unit."""
    ruleset = Skirmish()
    game = Game.new(ruleset, scenario(A, B, woods=["0602"]))
    assert "A" in ruleset.summary(game.state) and "0602" in ruleset.summary(game.state)
    assert ruleset.render_svg(game.state).count('class="unit"') == 2
    assert ruleset.render_svg(game.state, "blue").count('class="unit"') == 1  # B is concealed (7)
    assert parse_hex("0602") not in [u.hex for u in ruleset.view(game.state, "blue").units.values()]


def _index(labels: list[str], label: str) -> int:
    """The option labelled ``label``; a fire target's label goes on with its range and odds
    ("B (range 3, …)"), so a target is found by its name."""
    return next(i for i, text in enumerate(labels) if text == label or text.startswith(label + " ("))
