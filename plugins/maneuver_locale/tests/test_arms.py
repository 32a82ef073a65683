"""Piece types as data (docs/rulesets/maneuver_locale.md, "Hooks"): the source's three arms
are :class:`ArmType` data the rules read, and an add-on adds an arm through
``maneuver_locale_arms`` without touching the ruleset; a scenario names it, a game with the
add-on plays it, a game without refuses the scenario at the bad field."""

from __future__ import annotations

import copy

import pytest

from wargamekit import Game, ScriptedDice, hookimpl
from wargamekit.errors import ScenarioError
from wargamekit.geometry.locale import ApproachWidth
from wargamekit.plugins import plugin_manager
from wargamekit.testing import check_ruleset, play_random_game
from wargamekit_maneuver_locale import Combatant, ManeuverLocale, preview_assault
from wargamekit_maneuver_locale.arms import BUILTIN_ARMS, Arm, ArmError, ArmType, arm_types
from wargamekit_maneuver_locale.resolution import leading_problem

#: An add-on's arm: infantry that assaults (and defends) one better when it leads.
GRENADIERS = ArmType("grenadiers", "grenadiers (an add-on's elite infantry)", "G", "Gren", assault_bonus=1)


class Grenadiers:
    """An add-on: publishes one arm, nothing else."""

    @hookimpl
    def maneuver_locale_arms(self):
        return [GRENADIERS]


class Duplicate:
    @hookimpl
    def maneuver_locale_arms(self):
        return [ArmType("cavalry", "cavalry again", "K")]


def test_the_source_arms_are_data_the_rules_read():
    """The source's distinctions, as ArmType fields: only infantry and cavalry lead (Assaults);
    artillery fires and is removed in a retreat (Artillery Bombardment; Retreats); cavalry
    pursues, moves onto an approach after entering and retreats from the reserve freely
    (騎兵の追撃; 移動 — cavalry; Retreats). None has an assault bonus."""
    assert list(BUILTIN_ARMS) == ["infantry", "cavalry", "artillery"]
    assert [a.leads for a in BUILTIN_ARMS.values()] == [True, True, False]
    assert [a.gun for a in BUILTIN_ARMS.values()] == [False, False, True]
    assert [(a.pursues, a.enters_approach, a.reserve_retreat_free) for a in BUILTIN_ARMS.values()] == [
        (False, False, False), (True, True, True), (False, False, False)
    ]
    assert {a.assault_bonus for a in BUILTIN_ARMS.values()} == {0}
    assert repr(Arm.CAVALRY) == "Arm.CAVALRY" and repr(GRENADIERS) == "ArmType('grenadiers')"


def test_arm_types_adds_the_add_ons_arms_and_refuses_a_clash():
    assert list(arm_types(plugin_manager(plugins=[Grenadiers()]).hook)) == [
        "infantry", "cavalry", "artillery", "grenadiers"
    ]
    with pytest.raises(ArmError, match="'cavalry' is defined twice"):
        arm_types(plugin_manager(plugins=[Duplicate()]).hook)
    with pytest.raises(ArmError, match="one character"):
        ArmType("lancers", "lancers", "LN")


def narrow_assault(kit, arm, plugins=()):
    """A1 (``arm``, 3 steps) leads from C's approach against F1 (infantry 2) blocking E's
    narrow approach (terrain 1); France passes its defensive fire and leads F1."""
    pieces = [
        ("A1", "austria", arm, 3, "c", "e"),
        ("F1", "france", "infantry", 2, "e", "c"),
        ("F2", "france", "infantry", 1, "e"),
        ("F9", "france", "infantry", 1, "s"),
    ]
    data = kit.build(["c", "e", "s", "n"], [("c", "e", "narrow", 1, "wide", 0), ("e", "s"), ("n", "e")], pieces)
    pm = plugin_manager(plugins=list(plugins)) if plugins else None
    g = Game.new(ManeuverLocale(), data, seed=0, dice=ScriptedDice([]), options={"scenario_ids": True}, plugin_manager=pm)
    kit.act(g, "assault from C approach against the blocking approach of E (1 command)", ["A1"], "pass", ["F1"])
    return g


def test_an_added_arm_leads_with_its_own_bonus(kit):
    """Assaults — 判定 with the add-on's number: infantry 3 - terrain 1 - 2 = 0 is the
    defender's win (the winner loses 1, the loser 1 + 0); grenadiers 3 add their +1, so the
    result is +1, the attacker's: A1 loses 1 step, F1 (2 steps) 1 + 1 and is removed
    (損害適用). The game is diceless: no die is scripted, and none is rolled."""
    plain = narrow_assault(kit, "infantry")
    [result] = [e for e in plain.log if e.kind == "assault-result"]
    assert (result.data["result"], result.data["winner"]) == (0, "defender")
    assert plain.state.pieces["F1"].steps == 1
    g = narrow_assault(kit, "grenadiers", [Grenadiers()])
    assert g.state.pieces["A1"].arm is GRENADIERS
    [result] = [e for e in g.log if e.kind == "assault-result"]
    assert (result.data["result"], result.data["winner"]) == (1, "attacker")
    assert result.text.startswith("result 3 - terrain 1 - 2 +1 (arms) = +1")
    assert g.state.pieces["A1"].steps == 2 and "F1" not in g.state.pieces
    assert [e for e in g.log if e.kind == "reveal"][0].data["pieces"][0]["arm"] == "grenadiers"


def test_the_preview_and_leading_rules_read_the_arm():
    """The preview (odds command, bot) adds the leading arm's bonus, once per side (two leading
    pieces are of one arm); leading pieces may not mix the add-on's arm with infantry."""
    lead = [Combatant("A1", GRENADIERS, 3)]
    lines = preview_assault(lead, [Combatant("F1", Arm.INFANTRY, 2)], width=ApproachWidth.NARROW, terrain=1)
    assert [line.outcome.result for line in lines] == [3, 1]
    two = [Combatant("A1", GRENADIERS, 2), Combatant("A2", GRENADIERS, 2)]
    assert [line.outcome.result for line in preview_assault(two, [], width=ApproachWidth.WIDE, terrain=0)] == [5]
    mixed = [Combatant("A1", GRENADIERS, 2), Combatant("A2", Arm.INFANTRY, 2)]
    assert leading_problem(mixed, ApproachWidth.WIDE, attacker=True) == (
        "two leading pieces may not mix grenadiers and infantry"
    )
    gun = ArmType("horse_guns", "horse artillery", "H", leads=False, gun=True)
    assert leading_problem([Combatant("A1", gun, 2)], ApproachWidth.WIDE, attacker=True) == (
        "leading pieces are infantry or cavalry, not horse_guns"
    )


def _training_with_grenadiers(ruleset) -> dict:
    data = copy.deepcopy(ruleset.scenario_data("training"))
    assert data["pieces"][0]["id"] == "A1"
    data["pieces"][0]["arm"] = "grenadiers"
    return data


def test_a_scenario_with_an_added_arm_plays_to_the_end(ruleset):
    """The training scenario with A1 as grenadiers, with the add-on: random games end, replay,
    save and reload (with the add-on) byte-identically, and the views leak nothing
    (check_ruleset, the non-interference check included); A1's owner is told its arm."""
    data = _training_with_grenadiers(ruleset)
    pm = plugin_manager(plugins=[Grenadiers()])
    report = check_ruleset(ruleset, data, games=3, max_decisions=5000, reveals={"reveal", "move", "declare"}, plugin_manager=pm)
    assert report.games == 3 and report.non_interference_pairs > 0
    game = play_random_game(ruleset, data, seed=1, plugin_manager=pm)
    [told] = [e for e in game.log if e.kind == "handles" and e.audience == ("austria",)]
    assert "= A1 (grenadiers 3)" in told.text


def test_an_unknown_arm_is_refused_at_its_field(ruleset):
    """Without the add-on the arm is unknown: the game is refused with the path of the field;
    the source's arms are listed."""
    data = _training_with_grenadiers(ruleset)
    with pytest.raises(ScenarioError) as info:
        Game.new(ruleset, data)
    assert info.value.path == "$.pieces[0].arm"
    assert "unknown arm 'grenadiers'" in str(info.value) and "'cavalry'" in str(info.value)
    data["pieces"][0]["arm"] = "dragoons"
    with pytest.raises(ScenarioError, match="unknown arm 'dragoons'"):
        Game.new(ruleset, data, plugin_manager=plugin_manager(plugins=[Grenadiers()]))


def test_the_odds_command_knows_the_add_on_s_arms(monkeypatch):
    """``wargamekit odds maneuver_locale --addon NAME``: the add-on's arm is written by its
    letter (G3) and previewed with its bonus: 3 + 1 - terrain 1 against no defender or I2 gives
    +3 and +1, two attacker's wins; without the add-on G is no arm."""
    from click.testing import CliRunner

    from wargamekit_maneuver_locale import odds_cli

    asked = []

    def manager(addons):
        asked.append(addons)
        return plugin_manager(plugins=[Grenadiers()])

    monkeypatch.setattr(odds_cli, "plugin_manager", manager)
    args = ["--leading", "G3", "--defenders", "I2", "--width", "narrow", "--terrain", "1"]
    result = CliRunner().invoke(odds_cli.odds, [*args, "--addon", "grenadiers"])
    assert result.exit_code == 0, result.output
    assert asked == [["grenadiers"]]
    assert result.output.splitlines()[0] == "2 defender responses; the attacker wins under 2 of them"
    assert "result +3 -> attacker wins" in result.output and "result +1 -> attacker wins" in result.output
    plain = CliRunner().invoke(odds_cli.odds, args)
    assert plain.exit_code != 0 and "'G3': write a piece as I3, C2 or A1" in plain.output


def test_validate_checks_the_arms_against_the_add_ons_named(ruleset, tmp_path, monkeypatch):
    """``wargamekit validate FILE``: a misspelt arm is one error line with the file and the
    field; an add-on's arm is ok with ``--addon`` (the installed add-on is stood in for by the
    test's Grenadiers) and refused without it."""
    from importlib import resources

    from click.testing import CliRunner

    import wargamekit.cli as cli

    text = resources.files("wargamekit_maneuver_locale.scenarios").joinpath("training.toml").read_text("utf-8")
    assert text.index('id = "A1"') < text.index('arm = "infantry"')  # A1 is the first piece
    path = tmp_path / "grenadiers.toml"
    path.write_text('ruleset = "maneuver_locale"\n' + text.replace('arm = "infantry"', 'arm = "grenadiers"', 1))
    refused = CliRunner().invoke(cli.cli, ["validate", str(path)])
    assert refused.exit_code == 2
    assert refused.stderr.strip().startswith(f"error: {path}: $.pieces[0].arm: unknown arm 'grenadiers'")
    monkeypatch.setattr(cli, "plugin_manager", lambda addons=(): plugin_manager(plugins=[Grenadiers()] if addons else []))
    ok = CliRunner().invoke(cli.cli, ["validate", str(path), "--addon", "grenadiers"])
    assert ok.exit_code == 0 and ok.output.strip() == "ok", ok.output
    path.write_text(path.read_text("utf-8").replace('arm = "grenadiers"', 'arm = "infantyr"'))
    typo = CliRunner().invoke(cli.cli, ["validate", str(path), "--addon", "grenadiers"])
    assert typo.exit_code == 2 and "$.pieces[0].arm: unknown arm 'infantyr'" in typo.stderr
