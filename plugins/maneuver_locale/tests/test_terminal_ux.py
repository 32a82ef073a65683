"""What the terminal shows a person (issue 13): pieces that cannot be chosen carry the reason
(for the chooser only); `?` shows the map's adjacency and roads."""

from __future__ import annotations

from wargamekit import Game
from wargamekit_maneuver_locale.bombardment import declarable
from wargamekit_maneuver_locale.changes import piece_subset
from wargamekit_maneuver_locale.view import map_text


def test_guns_menu_says_why_other_pieces_cannot_declare():
    """Artillery Bombardment: a non-gun in the declaration menu says it is not artillery; the
    public label (what the opponent's log reads) does not."""
    game = Game.new("maneuver_locale", "default", seed=1)
    state = game.state
    pieces = list(state.of("austria"))
    decision = piece_subset("austria", "which guns?", pieces, rule="r", kind="k",
                            why_not=lambda p: declarable(state, p), names=state.board.names)
    for piece, option in zip(pieces, decision.options, strict=True):
        reason = declarable(state, piece)
        assert option.label.endswith(f" — cannot: {reason}") if reason else "cannot" not in option.label
        assert "cannot" not in option.public_label
    assert any("is not artillery" in o.label for o in decision.options)


def test_map_text_lists_neighbours_roads_and_approaches():
    """`?`: each locale with its neighbours, the road along each link and its own approach."""
    game = Game.new("maneuver_locale", "default", seed=1)
    lines = map_text(game.state)
    marengo = next(line for line in lines if line.strip().startswith("Marengo ["))
    assert "objective 3 VP" in marengo
    assert "San Giuliano (primary road; approach wide, terrain 0)" in marengo
    assert "Cascina Grossa (no road; approach narrow, terrain 1)" in marengo
    assert "\n".join(lines) in game.ruleset.summary(game.state)
