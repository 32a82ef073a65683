"""Victory conditions (胜利条件)."""

from __future__ import annotations

import pytest

from wargamekit_tank_solo.victory import elimination, final_outcome, surrender


def test_points_by_class_and_elimination(new_game, pick):
    """A heavy kill scores 4; a side with no tanks left loses at once."""
    game = new_game([("pz4h", "0603", "S")], [("tiger", "0607", "N")], dice=[3, 6, 6, 6, 6])
    pick(game, "aimed fire with Panzer IV H #1")
    pick(game, "fires main gun")
    assert game.outcome.winner == "A" and game.outcome.scores == {"A": 4.0, "B": 0.0}


@pytest.mark.parametrize(
    ("firer", "model", "points"),
    [(("type89", "Type 89 I-Go"), "bt7", 1), (("pz4h", "Panzer IV H"), "t34_85", 2), (("pz4h", "Panzer IV H"), "is2", 4)],
)
def test_points_per_class_destroyed(new_game, pick, firer, model, points):
    """胜利条件: "每击毁一辆轻战车获得1分,每击毁一辆中战车获得2分,每击毁一辆重战车获得4分" — a
    light, medium or heavy kill scores 1, 2 or 4. (The firer costs less, so it moves first.)"""
    game = new_game([(firer[0], "0603", "S")], [(model, "0607", "N")], dice=[3, 6, 6, 6, 6])
    pick(game, f"aimed fire with {firer[1]} #1")
    pick(game, "fires main gun")
    assert game.outcome.scores == {"A": float(points), "B": 0.0}


def test_after_turn_limit_points_then_cost_then_tanks(make_state):
    """After the last turn: more points; then fewer points spent; then fewer starting tanks; else a draw."""
    state = make_state([("A", "pz4h", "0603", "S"), ("B", "tiger", "0607", "N")])
    state.points_spent = {"A": 100, "B": 90}
    state.starting_tanks = {"A": 3, "B": 4}
    state.score = {"A": 2, "B": 1}
    assert final_outcome(state).winner == "A"
    state.score = {"A": 2, "B": 2}
    assert final_outcome(state).winner == "B" and "fewer force points" in final_outcome(state).reason
    state.points_spent = {"A": 90, "B": 90}
    assert final_outcome(state).winner == "A" and "starting tanks" in final_outcome(state).reason
    state.starting_tanks = {"A": 4, "B": 4}
    assert final_outcome(state).winner is None


def test_elimination_needs_an_empty_side(make_state):
    """Within the turn limit the game goes on while both sides have tanks."""
    state = make_state([("A", "pz4h", "0603", "S"), ("B", "tiger", "0607", "N")])
    assert elimination(state) is None
    state.tank(2).alive = False
    assert elimination(state).winner == "A"


def test_surrender(new_game, pick):
    """允许投降认输: the active side may concede in its fire selection."""
    game = new_game([("pz4h", "0603", "S")], [("tiger", "0607", "N")], dice=[3])
    pick(game, "surrender")
    assert game.outcome.winner == "B" and "surrendered" in game.outcome.reason


def test_surrender_can_be_switched_off_for_simulations(new_game):
    """The surrender switch removes the option (simulations between bots)."""
    game = new_game([("pz4h", "0603", "S")], [("tiger", "0607", "N")], dice=[3], options={"surrender": False})
    assert not any("surrender" in label for label in game.pending.labels)


def test_ten_turns_then_points(new_game, pick):
    """Ten turns (five per side, alternating) and the game ends on points."""
    game = new_game([("pz4h", "0103", "S")], [("tiger", "1410", "N")], dice=[3] * 10, options={"surrender": False})
    sides = []
    while game.pending is not None:
        sides.append(game.state.active)
        labels = game.pending.labels
        end = [i for i, label in enumerate(labels) if label.startswith(("go on", "end "))]
        game.answer(end[0])
    assert game.state.turn == 10
    assert sides[0] == "A" and "B" in sides
    assert game.outcome.winner == "A" and "fewer force points" in game.outcome.reason
    assert surrender(game.state, "A").winner == "B"
