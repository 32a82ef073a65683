"""Hidden information: face-down pieces are hidden from the opponent (views, logs, summaries)."""

from __future__ import annotations

import re

import pytest

from wargamekit.testing import play_random_game
from wargamekit_maneuver_locale import ManeuverLocale

ASSAULT = "assault from C approach against the blocking approach of E (1 command)"


def small(kit):
    return kit.start(
        kit.build(
            ["c", "e", "s"],
            [("c", "e"), ("e", "s")],
            [
                ("A1", "austria", "infantry", 3, "c", "e"),
                ("A2", "austria", "cavalry", 2, "c", "e"),
                ("F1", "france", "infantry", 2, "e", "c"),
                ("F2", "france", "artillery", 1, "e"),
                ("F9", "france", "infantry", 2, "s"),
            ],
        )
    )


def test_shared_view_masks_what_the_view_masks_and_shares_the_rest(kit, ruleset):
    """Hidden information, for a bot that promised only to read its view (``reads_view_only``):
    the shared view shows what the view shows — the opponent's face-down pieces with no arm,
    steps or identity — while the pieces the side sees whole are the live ones, not copies."""
    g = small(kit)
    shared, copied = ruleset.shared_view(g.state, "austria"), ruleset.view(g.state, "austria")
    assert shared == copied and shared.index is None
    assert (shared.pieces["F1"].arm, shared.pieces["F1"].steps, shared.pieces["F1"].origin) == (None, None, "")
    assert shared.pieces["F1"] is not g.state.pieces["F1"] and shared.pieces["A1"] is g.state.pieces["A1"]
    assert ruleset.shared_view(g.state, None).pieces is g.state.pieces
    assert ruleset.bots()["bot"](0).reads_view_only is True


def test_view_redacts_face_down_enemy_pieces(kit, ruleset):
    """Hidden information: the opponent's face-down pieces show no arm and no steps."""
    g = small(kit)
    view = ruleset.view(g.state, "austria")
    assert (view.pieces["F1"].arm, view.pieces["F1"].steps) == (None, None)
    assert view.pieces["F1"].locale == "e" and view.pieces["F1"].approach == "c"  # positions are public
    assert view.pieces["A1"].steps == 3  # own pieces are known
    assert ruleset.view(g.state, None).pieces["F1"].steps == 2


def test_revealed_pieces_are_visible(kit, ruleset):
    """Hidden information: leading pieces are revealed (face-up) and then seen by both sides."""
    g = small(kit)
    kit.act(g, ASSAULT, ["A1"])
    assert ruleset.view(g.state, "france").pieces["A1"].steps == 3
    assert ruleset.view(g.state, "france").pieces["A2"].arm is None


def test_view_is_a_copy(kit, ruleset):
    """Hidden information: a view is a fresh copy; changing it changes nothing in the game."""
    g = small(kit)
    view = g.view("austria").state
    view.pieces["A1"].steps = 99
    view.pieces.clear()
    assert g.state.pieces["A1"].steps == 3 and len(g.state.pieces) == 5


def test_summary_shows_only_what_the_side_may_see(kit, ruleset):
    """Hidden information: the terminal summary of a side's view hides the enemy's face-down pieces."""
    g = small(kit)
    text = ruleset.summary(ruleset.view(g.state, "austria"))
    assert "F1 ?" in text and "A1 I3" in text and "F2 A1" not in text
    assert "approach facing E (wide, terrain 0)" in text


def test_step_detail_of_face_down_pieces_only_for_the_owner(kit):
    """Hidden information: a face-down piece's remaining steps are logged for its owner only."""
    g = kit.start(
        kit.build(
            ["c", "e", "s"],
            [("c", "e"), ("e", "s")],
            [
                ("A1", "austria", "infantry", 3, "c"),
                ("F1", "france", "infantry", 3, "e"),
                ("F9", "france", "infantry", 2, "s"),
            ],
        )
    )
    kit.act(g, "maneuver attack from C reserve into E (1 command; may be blocked)", ["A1"], "pass")
    detail = [e for e in g.log if e.kind == "step-loss-detail"]
    assert detail and all(e.audience == ("france",) for e in detail)
    assert "2 steps left" not in g.log_text("austria") and "2 steps left" in g.log_text("france")


@pytest.mark.parametrize("scenario", ["default", "training"])
def test_random_games_never_leak_hidden_arms_or_steps(scenario):
    """Hidden information: in whole random games, no event a side may see names the arm or the
    steps of an enemy piece before that piece was revealed."""
    ruleset = ManeuverLocale()
    data = ruleset.scenario_data(scenario)
    owner = {p["id"]: p["side"] for p in data["pieces"]}
    for seed in range(6):
        game = play_random_game(ruleset, scenario, seed=seed)
        for side in ruleset.sides:
            revealed: set[str] = set()
            for event in game.log:
                if not event.visible_to(side):
                    continue
                if event.kind == "reveal":
                    revealed.update(p["id"] for p in event.data["pieces"])
                    continue
                for pid, who in owner.items():
                    if who == side or pid in revealed:
                        continue
                    pattern = rf"\b{pid}\b \(?(infantry|cavalry|artillery|[ICA]\d)"
                    assert not re.search(pattern, event.text), (seed, side, event.text)
                    if event.data.get("piece") == pid:
                        assert "steps" not in event.data, (seed, side, event.to_json())


def test_players_see_only_their_own_view(kit):
    """Hidden information: the view handed to a player is its own side's redacted view."""
    g = small(kit)
    pv = g.view("austria")
    assert pv.state.viewer == "austria" and pv.state.pieces["F2"].arm is None


def test_piece_labels_private_to_the_chooser_log_public(kit):
    """Hidden information: a side reads its own pieces' arms and steps in the options; the
    logged answer, which the opponent sees, names only the public label."""
    g = kit.start(kit.build(["w", "c", "e"], [("w", "c"), ("c", "e")], [
        ("A1", "austria", "infantry", 3, "w"), ("A2", "austria", "cavalry", 2, "w"),
        ("F1", "france", "infantry", 2, "e"),
    ]))
    kit.act(g, "move from W reserve to C (1 command)")
    assert [o.label for o in g.pending.options] == ["A1 infantry 3, face-down", "A2 cavalry 2, face-down"]
    kit.act(g, ["A1", "A2"])
    seen = g.log_text("france")
    assert "-> A1, A2" in seen and "infantry" not in seen and "cavalry" not in seen
