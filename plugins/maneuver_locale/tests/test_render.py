"""SVG of the locale map: locales, approaches by width, roads by class, face-up/face-down pieces."""

from __future__ import annotations

from wargamekit import Game


def test_svg_draws_the_map(ruleset):
    """Render: every locale, approaches of both widths, roads of both classes."""
    g = Game.new(ruleset, "default")
    svg = ruleset.render_svg(g.state, "austria")
    assert svg.startswith("<?xml") or svg.startswith("<svg")
    assert svg.count('class="locale"') == 14
    assert 'data-width="narrow"' in svg and 'data-width="wide"' in svg
    assert 'data-class="primary"' in svg and 'data-class="secondary"' in svg


def test_enemy_face_down_pieces_are_blank(ruleset, kit):
    """Render: the viewer's enemy face-down pieces are blank backs; revealed ones carry text."""
    g = kit.start(
        kit.build(
            ["c", "e", "s"],
            [("c", "e"), ("e", "s")],
            [
                ("A1", "austria", "infantry", 3, "c", "e"),
                ("F1", "france", "infantry", 3, "e", "c"),
                ("F9", "france", "cavalry", 2, "s"),
            ],
        )
    )
    svg = ruleset.render_svg(g.state, "austria")
    assert svg.count('data-face="down"') == 2 and svg.count('data-face="up"') == 1
    board, legend = svg.split('<g class="legend-extra">')
    # Own face-down piece bracketed; enemy arms hidden, on the map and in the legend's list.
    assert ">A1<" in board and ">(Inf)<" in board and "Cav" not in board
    assert ">S: F9<" in legend and "C2" not in legend
    kit.act(g, "assault from C approach against the blocking approach of E (1 command)", ["A1"], "pass", ["F1"])
    # 3 - 0 - 3 = 0: France holds; its revealed leading piece stays face-up on the approach
    svg = ruleset.render_svg(g.state, "austria")
    assert g.state.pieces["F1"].face_up and ">F1<" in svg and ">Inf<" in svg


def test_observer_sees_everything(ruleset):
    """Render: with no side, every piece is drawn with its arm."""
    g = Game.new(ruleset, "training")
    svg = ruleset.render_svg(g.state, None)
    assert 'data-face="down"' not in svg
