"""The assault preview (Python and ``wargamekit odds maneuver_locale``)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from wargamekit.geometry.locale import ApproachWidth
from wargamekit_maneuver_locale import Combatant, preview_assault
from wargamekit_maneuver_locale.scenario import Arm

I3 = Combatant("a1", Arm.INFANTRY, 3)


def test_one_line_per_defender_response():
    """Assaults preview: every legal defender response (fire or not × leading choice) gets a line."""
    defenders = [Combatant("d1", Arm.INFANTRY, 2), Combatant("d2", Arm.CAVALRY, 1), Combatant("d3", Arm.INFANTRY, 1)]
    guns = [Combatant("g1", Arm.ARTILLERY, 1)]
    lines = preview_assault([I3], defenders, width=ApproachWidth.WIDE, terrain=1, defender_guns=guns)
    # leading choices on a wide approach: none, d1, d2, d3, d1+d3 (no mixing) -> 5; fire or not -> x2
    assert len(lines) == 10
    by_key = {(line.guns_firing, line.defender_leading): line for line in lines}
    quiet = by_key[((), ())]
    assert (quiet.outcome.result, quiet.outcome.winner, quiet.retreat) == (2, "attacker", True)
    assert (quiet.outcome.attacker_losses, quiet.outcome.defender_losses) == (1, 3)
    hard = by_key[(("g1",), ("d1", "d3"))]
    assert (hard.fire_losses, hard.outcome.result, hard.outcome.winner) == (1, -2, "defender")


def test_preview_shows_pursuit():
    """Assaults preview — 騎兵の追撃: the winning attacker's best pursuit of a defence without cavalry."""
    lines = preview_assault(
        [I3],
        [Combatant("d1", Arm.INFANTRY, 1)],
        width=ApproachWidth.NARROW,
        terrain=0,
        attacker_others=[Combatant("c1", Arm.CAVALRY, 2)],
    )
    no_lead = next(line for line in lines if line.defender_leading == ())
    assert (no_lead.pursuit, no_lead.pursuer_losses) == (2, 1)


def test_preview_no_pursuit_when_the_defending_locale_has_cavalry():
    """Assaults preview — 騎兵の追撃: cavalry anywhere in the defending locale (防御側: its reserve
    or other approaches, ``defender_others``) stops the pursuit."""
    kwargs = dict(width=ApproachWidth.NARROW, terrain=0, attacker_others=[Combatant("c1", Arm.CAVALRY, 2)])
    alone = preview_assault([I3], [Combatant("d1", Arm.INFANTRY, 1)], **kwargs)
    assert alone[0].pursuit == 2
    backed = preview_assault(
        [I3], [Combatant("d1", Arm.INFANTRY, 1)], defender_others=[Combatant("r1", Arm.CAVALRY, 1)], **kwargs
    )
    assert [(line.pursuit, line.pursuer_losses) for line in backed] == [(0, 0), (0, 0)]
    assert [line.outcome for line in backed] == [line.outcome for line in alone]


def test_preview_in_a_position_counts_the_defending_reserve(kit, ruleset):
    """Assaults preview — 騎兵の追撃: in a position, the defending locale's reserve counts; seen
    in full, its cavalry stops the pursuit (hidden, it is guessed to be infantry)."""
    from wargamekit_maneuver_locale.assault import assault_preview

    g = kit.start(kit.build(["c", "e", "s"], [("c", "e"), ("e", "s")], [
        ("A1", "austria", "infantry", 3, "c", "e"), ("A2", "austria", "cavalry", 2, "c", "e"),
        ("F1", "france", "infantry", 1, "e", "c"), ("F5", "france", "cavalry", 2, "e"),
        ("F9", "france", "infantry", 2, "s"),
    ]))
    exact = assault_preview(ruleset.view(g.state, None), "c", "e", ["A1"])
    assert [line.pursuit for line in exact] == [0, 0]
    seen = assault_preview(ruleset.view(g.state, "austria"), "c", "e", ["A1"])
    assert [line.pursuit for line in seen] == [2, 2]


def test_preview_no_pursuit_by_the_defender():
    """Assaults preview — 騎兵の追撃: a defender that wins never pursues (the source's condition
    is that the defender has no cavalry)."""
    lines = preview_assault(
        [Combatant("a1", Arm.INFANTRY, 2)],
        [Combatant("d1", Arm.INFANTRY, 3), Combatant("d2", Arm.CAVALRY, 3)],
        width=ApproachWidth.NARROW,
        terrain=0,
    )
    held = next(line for line in lines if line.defender_leading == ("d1",))
    assert held.outcome.winner == "defender" and (held.pursuit, held.pursuer_losses) == (0, 0)


def test_preview_refuses_illegal_leading():
    """Assaults preview: illegal attacker leading pieces are refused naming the rule."""
    with pytest.raises(ValueError, match="Assaults — leading pieces"):
        preview_assault([Combatant("a", Arm.INFANTRY, 1)], [], width=ApproachWidth.WIDE, terrain=0)


def test_odds_command(ruleset):
    """``wargamekit odds maneuver_locale``: prints the preview lines."""
    result = CliRunner().invoke(
        ruleset.odds_command(), ["--leading", "I3,I2", "--defenders", "I2,C2", "--terrain", "1", "--guns", "A1"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("6 defender responses; the attacker wins under 6 of them")
    assert "fire g1 (-1), defender leads d1: result +1 -> attacker wins; losses attacker 1, defender 2" in result.output


def test_odds_command_defender_others(ruleset):
    """``wargamekit odds maneuver_locale --defender-others``: cavalry elsewhere in the defending
    locale stops the pursuit (Assaults — 騎兵の追撃)."""
    args = ["--leading", "I3", "--defenders", "I1", "--others", "C2", "--width", "narrow"]
    alone = CliRunner().invoke(ruleset.odds_command(), args)
    backed = CliRunner().invoke(ruleset.odds_command(), [*args, "--defender-others", "C1"])
    assert alone.exit_code == 0 and backed.exit_code == 0, alone.output + backed.output
    assert "no leading pieces: result +3 -> attacker wins; losses attacker 1, defender 4; pursuit -2" in alone.output
    assert "pursuit" not in backed.output


def test_odds_command_bad_piece(ruleset):
    """``wargamekit odds maneuver_locale``: a malformed piece is a usage error."""
    result = CliRunner().invoke(ruleset.odds_command(), ["--leading", "X3"])
    assert result.exit_code != 0 and "write a piece as I3" in result.output


def test_preview_in_a_position_from_a_sides_view(kit, ruleset):
    """Assaults preview: from the attacker's view, hidden defenders count as 2-step infantry;
    face-up guns able to fire are included."""
    from wargamekit_maneuver_locale.assault import assault_preview

    g = kit.start(
        kit.build(
            ["c", "e", "s"],
            [("c", "e", "narrow", 1, "wide", 0), ("e", "s")],
            [
                ("A1", "austria", "infantry", 3, "c", "e"),
                ("A2", "austria", "cavalry", 2, "c", "e"),
                ("F1", "france", "infantry", 3, "e", "c"),
                ("F9", "france", "infantry", 2, "s"),
            ],
        )
    )
    view = ruleset.view(g.state, "austria")
    lines = assault_preview(view, "c", "e", ["A1"])
    assert [(line.defender_leading, line.outcome.result) for line in lines] == [((), 2), (("F1",), 0)]
    assert lines[0].pursuit == 1  # A2 (2 steps) pursues a presumed infantry defence: 2 - terrain 1
    exact = assault_preview(ruleset.view(g.state, None), "c", "e", ["A1"])
    assert [line.outcome.result for line in exact] == [2, -1]
