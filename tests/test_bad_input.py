"""Bad input from issue 13's list, at the command line and in Python: each gives one ``error:``
line and exit status 2 at the CLI, a specific :class:`WargamekitError` in Python, and changes
nothing (no output file is written, nothing is half-loaded)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from wargamekit import Game, SaveError, ScenarioError, WargamekitError, cli
from wargamekit.errors import InvalidChoiceError
from wargamekit.saves import SaveFile

SKIRMISH_TOML = '''ruleset = "skirmish"
title = "Café crossing"
width = 6
height = 4
turns = 1

[[units]]
name = "A"
side = "blue"
hex = "0102"

[[units]]
name = "B"
side = "red"
hex = "0402"
facing = 3
'''


def run(*args: str) -> Result:
    return CliRunner().invoke(cli.cli, list(args))


def assert_bad_input(result: Result, *fragments: str) -> str:
    """Exit status 2, exactly one ``error:`` line on stderr, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def skirmish_save(tmp_path) -> str:
    """The text of a finished skirmish save whose scenario has a non-ASCII title."""
    scenario = tmp_path / "cafe.toml"
    scenario.write_text(SKIRMISH_TOML, encoding="utf-8")
    save = tmp_path / "cafe.json"
    assert run("play", "skirmish", "--scenario", str(scenario), "--seed", "2", "--quiet", "--save", str(save)).exit_code == 0
    text = save.read_text(encoding="utf-8")
    assert "Café" in text
    return text


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_saves_that_are_not_utf8_are_refused_by_replay_resume_and_load(tmp_path, skirmish_save, encoding):
    """A save re-encoded as Latin-1 or UTF-16: replay and resume say it is not UTF-8 (no
    UnicodeDecodeError), write nothing, and Game.load raises SaveError."""
    bad = tmp_path / f"save-{encoding}.json"
    bad.write_bytes(skirmish_save.encode(encoding))
    assert_bad_input(run("replay", str(bad)), str(bad), "UTF-8")
    out = tmp_path / "out.json"
    assert_bad_input(run("resume", str(bad), "--save", str(out)), "UTF-8")
    assert not out.exists()
    with pytest.raises(SaveError, match="UTF-8"):
        Game.load(bad)


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_scenarios_that_are_not_utf8_are_refused_by_play_and_validate(tmp_path, encoding):
    """play --scenario and validate on a Latin-1 or UTF-16 scenario: one error line, exit 2,
    no save written."""
    bad = tmp_path / f"scenario-{encoding}.toml"
    bad.write_bytes(SKIRMISH_TOML.encode(encoding))
    out = tmp_path / "out.json"
    assert_bad_input(run("play", "skirmish", "--scenario", str(bad), "--save", str(out)), "UTF-8")
    assert not out.exists()
    assert_bad_input(run("validate", str(bad), "--ruleset", "skirmish"), "UTF-8")
    from wargamekit import find_ruleset

    with pytest.raises(ScenarioError, match="UTF-8"):
        find_ruleset("skirmish").load_scenario_file(bad)


def test_deeply_nested_save_is_refused(tmp_path):
    """100,000 nested "[": replay and resume refuse it (no RecursionError); so does Game.load."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    assert_bad_input(run("replay", str(deep)), str(deep))
    assert_bad_input(run("resume", str(deep)), str(deep))
    with pytest.raises(SaveError):
        Game.load(deep)


def test_load_refuses_what_is_not_a_save():
    """Game.load(5) is a SaveError, not a TypeError."""
    with pytest.raises(SaveError, match="expected a SaveFile or a save file's path"):
        Game.load(5)  # type: ignore[arg-type]


def test_savefile_built_with_another_format_is_refused(skirmish_save):
    """A SaveFile built in code with another format cannot be made (so it never loads): a
    SaveError, as reading a file with that format is."""
    import attrs

    data = json.loads(skirmish_save)
    data["format"] = 2
    with pytest.raises(SaveError, match="format 2"):
        SaveFile.from_json(json.dumps(data))
    with pytest.raises(SaveError, match=r"\$.format: unsupported save format 2"):
        attrs.evolve(SaveFile.from_json(skirmish_save), format=2)


def test_save_naming_an_unknown_bundled_scenario_is_refused(tmp_path):
    """scenario_name "nosuch": replay exits 2 naming the field; Game.load raises SaveError."""
    save = tmp_path / "s.json"
    assert run("play", "skirmish", "--seed", "1", "--quiet", "--save", str(save)).exit_code == 0
    data = json.loads(save.read_text())
    data["scenario_name"] = "nosuch"
    save.write_text(json.dumps(data), encoding="utf-8")
    assert_bad_input(run("replay", str(save)), "$.scenario_name", "nosuch")
    with pytest.raises(SaveError, match="nosuch"):
        Game.load(save)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["tank_solo", "--attack", "8", "--armour", "12", "--range", "999"], "range 999"),
        (["tank_solo", "--attack", "-100", "--armour", "12", "--range", "3"], "attack -100"),
        (["tank_solo", "--attack", "8", "--armour", "12", "--range", "3", "--modifier", "1000"], "--modifier"),
        (["maneuver_locale", "--leading", "I3", "--defenders", "I2", "--terrain", "-50"], "--terrain"),
        (["skirmish", "--range", "-5"], "--range"),
        (["skirmish", "--range", "100"], "--range"),
        (["skirmish", "--firepower", "1000"], "--firepower"),
        (["skirmish", "--firepower", "-1000"], "--firepower"),
        (["skirmish", "--hindrance", "7"], "--hindrance"),
    ],
)
def test_odds_arguments_outside_the_rules_bounds_are_refused(args, fragment):
    """Each odds command checks its numbers against the bounds the rules themselves use."""
    assert_bad_input(run("odds", *args), fragment)


def test_odds_bounds_are_the_rules_own():
    """The bounds are read from the rule code (not copied): the longest gun in the vehicle
    table, the scenario's least terrain effect, the skirmish unit values; the Python functions
    refuse the same values with a WargamekitError."""
    from wargamekit_maneuver_locale.odds_cli import parse_pieces
    from wargamekit_maneuver_locale.resolution import preview_assault
    from wargamekit_maneuver_locale.scenario import MIN_TERRAIN
    from wargamekit_skirmish.fire import BLOCKING_WOODS, Shot
    from wargamekit_skirmish.scenario import MAX_RANGE
    from wargamekit_tank_solo.shot_odds import hit_and_kill
    from wargamekit_tank_solo.vehicles import all_vehicles, table_bounds

    longest = max(g.range for m in all_vehicles().values() for g in m.guns)
    assert table_bounds().max_range == longest
    assert run("odds", "tank_solo", "--attack", "8", "--armour", "12", "--range", str(longest)).exit_code == 0
    assert_bad_input(run("odds", "tank_solo", "--attack", "8", "--armour", "12", "--range", str(longest + 1)))
    with pytest.raises(InvalidChoiceError, match="range 999"):
        hit_and_kill("aimed", 999, "germany", attack=8, armour=12)
    with pytest.raises(WargamekitError, match="terrain -1"):
        from wargamekit.geometry.locale import ApproachWidth

        preview_assault(parse_pieces("I3", "a"), [], width=ApproachWidth.WIDE, terrain=MIN_TERRAIN - 1)
    assert run("odds", "skirmish", "--range", str(MAX_RANGE), "--hindrance", str(BLOCKING_WOODS - 1)).exit_code == 0
    with pytest.raises(InvalidChoiceError, match="range 0"):
        Shot(firepower=2, range=0)


def test_validate_refuses_negative_skirmish_firepower(tmp_path):
    """validate (and play) refuse a unit with firepower -3, naming the field."""
    path = tmp_path / "neg.toml"
    path.write_text(SKIRMISH_TOML.replace('hex = "0102"', 'hex = "0102"\nfirepower = -3'), encoding="utf-8")
    assert_bad_input(run("validate", str(path)), "$.units[0].firepower", "-3")
    assert_bad_input(run("play", "skirmish", "--scenario", str(path)), "$.units[0].firepower")


def test_nothing_is_written_for_a_bad_odds_or_save(tmp_path: Path):
    """A refused resume writes no SVG either."""
    svg = tmp_path / "x.svg"
    missing = tmp_path / "missing.json"
    assert_bad_input(run("resume", str(missing), "--svg", str(svg)))
    assert not svg.exists()


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--scene", "nosuch", "--attacker", "kyo", "--target", "akari"], ["--scene", "nosuch"]),
        (["--attacker", "bystanders", "--target", "witch"], ["Bystander", "cannot attack"]),
        (["--scene", "duel", "--attacker", "akari", "--target", "akari"], ["cannot attack herself"]),
        (["--scene", "duel", "--attacker", "kyo", "--target", "akari", "--charge", "-5"], ["charge -5"]),
        (["--scene", "duel", "--attacker", "kyo", "--target", "akari", "--charge", "1000"], ["charge 1000"]),
        (["--scene", "duel", "--attacker", "kyo", "--target", "akari", "--defense-charge", "99"], ["charge 99"]),
    ],
)
def test_mttt_odds_refuses_what_no_attack_can_be(args, fragments):
    """odds mttt_rpg: an unknown scene, an attacker with no weapon, attacking oneself, a charge
    beyond what the unit's order pool holds: one error line each."""
    assert_bad_input(run("odds", "mttt_rpg", *args), *fragments)


def test_mttt_charge_bound_is_the_rules_own():
    """The charge bound is the unit's order pool, the same bound the game's charge question
    never exceeds; preview_attack raises a WargamekitError for what the CLI refuses."""
    from wargamekit_mttt_rpg.defense import charge_limit
    from wargamekit_mttt_rpg.odds import preview_attack

    game = Game.new("mttt_rpg", "duel", seed=0)
    kyo = game.state.unit("kyo")
    limit = charge_limit(kyo)
    assert limit == kyo.sheet.order_pool
    preview_attack(game.state, "kyo", "akari", "withering", charge=limit)
    with pytest.raises(InvalidChoiceError, match=f"can charge 0 to {limit}"):
        preview_attack(game.state, "kyo", "akari", "withering", charge=limit + 1)
    with pytest.raises(InvalidChoiceError, match="no such combatant"):
        preview_attack(game.state, "nobody", "akari", "withering")


def test_validate_refuses_a_combatant_who_never_joins(tmp_path):
    """mttt_rpg joins_round = 99 (past the round limit): validate names the field."""
    from importlib import resources

    text = (resources.files("wargamekit_mttt_rpg.scenarios") / "duel.toml").read_text("utf-8")
    late = text.replace('id = "kyo"\n', 'id = "kyo"\njoins_round = 99\n')
    assert late != text
    path = tmp_path / "late.toml"
    path.write_text('ruleset = "mttt_rpg"\n' + late, encoding="utf-8")
    assert_bad_input(run("validate", str(path)), "joins_round", "99", "round limit")
    ok = tmp_path / "ok.toml"
    ok.write_text('ruleset = "mttt_rpg"\n' + text.replace('id = "kyo"\n', 'id = "kyo"\njoins_round = 10\n'),
                  encoding="utf-8")
    assert run("validate", str(ok)).exit_code == 0
