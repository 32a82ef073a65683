"""SVG rendering and the terminal summary."""

from __future__ import annotations

from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.render import describe_position

RULESET = TankSolo()


def test_svg_shows_hulls_turrets_wrecks_and_markers(new_game, pick):
    """Hull arrows and turret lines for living tanks; wrecks and markers as badges."""
    game = new_game([("pz4h", "0603", "S"), ("hetzer", "0803", "S")], [("tiger", "0607", "N"), ("is2", "1007", "N")],
                    dice=[3, 6, 6, 6, 6], wrecks=["0105"])
    pick(game, "aimed fire with Panzer IV H #1")
    pick(game, "at Tiger I #3")
    pick(game, "leave the turret")
    picture = describe_position(game.state)
    assert len(picture.units) == 3
    assert sum(u.turret is not None for u in picture.units) == 2  # the Hetzer has no turret
    texts = [m.text for m in picture.markers]
    assert texts.count("wreck") == 2 and any("fired" in t for t in texts)
    svg = RULESET.render_svg(game.state, "A")
    assert svg.startswith("<?xml") or "<svg" in svg
    assert svg.count('class="unit"') == 3 and svg.count('class="turret"') == 2 and "wreck" in svg


def test_summary_lists_turn_score_and_tanks(new_game):
    """The summary names the turn, the score and every tank with its place and facings."""
    game = new_game([("pz4h", "0603", "S", ["fin", "hesh"])], [("tiger", "0607", "N")], dice=[3])
    text = RULESET.summary(RULESET.view(game.state, "B"))
    assert "turn 1/10" in text and "score A 0, B 0" in text
    assert "Panzer IV H" in text and "0603 hull S turret S" in text
    assert "hidden" in text and "fin" not in text.split("Tiger")[0].split("Panzer IV H")[1]
