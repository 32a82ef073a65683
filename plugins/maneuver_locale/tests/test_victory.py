"""Provisional victory conditions and turn sequence (scenario data, not from the source)."""

from __future__ import annotations


def test_turn_limit_more_points_wins(kit):
    """Provisional victory: at the turn limit the side with more objective points wins."""
    g = kit.start(
        kit.build(
            ["c", "e"],
            [("c", "e")],
            [
                ("A1", "austria", "infantry", 3, "c"),
                ("F1", "france", "infantry", 2, "e"),
            ],
            turns=1,
            objectives={"c": 1, "e": 2},
        )
    )
    kit.act(g, "end the turn", "end the turn")
    assert g.over and g.outcome.winner == "france" and g.outcome.scores == {"austria": 1.0, "france": 2.0}


def test_equal_points_draw(kit):
    """Provisional victory: equal points at the turn limit are a draw."""
    g = kit.start(
        kit.build(
            ["c", "e"],
            [("c", "e")],
            [
                ("A1", "austria", "infantry", 3, "c"),
                ("F1", "france", "infantry", 2, "e"),
            ],
            turns=1,
            objectives={"c": 2, "e": 2},
        )
    )
    kit.act(g, "end the turn", "end the turn")
    assert g.over and g.outcome.winner is None


def test_taking_every_objective_wins_at_once(kit):
    """Provisional victory: controlling every objective ends the game at once."""
    g = kit.start(
        kit.build(
            ["c", "e", "s"],
            [("c", "e"), ("e", "s")],
            [
                ("A1", "austria", "infantry", 3, "c"),
                ("F1", "france", "infantry", 2, "e"),
                ("F2", "france", "infantry", 2, "s"),
            ],
            turns=5,
            objectives={"c": 1, "e": 2},
        )
    )
    kit.act(g, "maneuver attack from C reserve into E (1 command; may be blocked)", ["A1"], "pass", [])
    assert g.state.control["e"] == "austria"
    assert g.over and g.outcome.winner == "austria" and "every objective" in g.outcome.reason


def test_sides_alternate_each_game_turn(kit):
    """Provisional turn sequence: each game turn, the sides act in the scenario's order."""
    g = kit.start(
        kit.build(
            ["c", "e"],
            [("c", "e")],
            [
                ("A1", "austria", "infantry", 3, "c"),
                ("F1", "france", "infantry", 2, "e"),
            ],
            turns=2,
            commands=(2, 1),
        )
    )
    seen = []
    while not g.over:
        seen.append((g.state.turn, g.pending.side, g.state.commands))
        kit.act(g, "end the turn")
    assert seen == [(1, "austria", 2), (1, "france", 1), (2, "austria", 2), (2, "france", 1)]
