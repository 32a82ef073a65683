"""Scenario files: TOML parsed and structured into attrs classes, rejected with a path."""

from __future__ import annotations

import pytest
from attrs import frozen

from wargamekit import ScenarioError
from wargamekit.scenario import read_toml_file, read_toml_text, structure


@frozen
class Unit:
    name: str
    hex: str
    strength: int = 1


@frozen
class Side:
    name: str
    units: list[Unit]


@frozen
class Battle:
    title: str
    turns: int
    sides: list[Side]
    fog: bool = False


GOOD = """
title = "Ford crossing"
turns = 8
[[sides]]
name = "north"
units = [{name = "Guard", hex = "0304", strength = 3}]
[[sides]]
name = "south"
units = [{name = "Line", hex = "0708"}]
"""


def test_good_scenario_structures_into_attrs_classes():
    """A valid TOML scenario becomes the declared attrs classes, defaults applied."""
    battle = structure(read_toml_text(GOOD), Battle)
    assert battle.sides[0].units[0] == Unit("Guard", "0304", 3)
    assert battle.sides[1].units[0].strength == 1
    assert battle.fog is False


def test_equal_strings_of_a_scenario_are_one_object_so_a_pickle_writes_each_once():
    """The parse makes one string per occurrence; structured, equal strings are one (interned)
    object, so a snapshot's pickle writes each value once and refers back to it after. A value
    is never changed, and a ``str`` subclass (which ``sys.intern`` refuses) is kept as given."""
    import enum
    import pickle
    from sys import intern

    import attrs

    text = GOOD.replace('"0708"', '"0304"').replace('"Line"', '"Guard"')
    parsed = read_toml_text(text)
    assert parsed["sides"][0]["units"][0]["hex"] is not parsed["sides"][1]["units"][0]["hex"]
    battle = structure(parsed, Battle)
    first, second = battle.sides[0].units[0], battle.sides[1].units[0]
    assert (first.name, first.hex) == (second.name, second.hex) == ("Guard", "0304")
    assert first.name is second.name and first.hex is second.hex
    assert pickle.dumps(battle).count(b"0304") == 1
    # every string structured is the interned one, and the values are the parse's
    strings = [battle.title, *(s.name for s in battle.sides), *(f for s in battle.sides for u in s.units for f in (u.name, u.hex))]
    assert all(value is intern(value) for value in strings)
    assert attrs.asdict(battle) == {**parsed, "fog": False, "sides": [
        {**side, "units": [{"strength": 1, **unit} for unit in side["units"]]} for side in parsed["sides"]]}

    class Colour(enum.StrEnum):
        RED = "red"

    kept = structure({"name": Colour.RED, "hex": "0101"}, Unit)
    assert kept.name is Colour.RED


@pytest.mark.parametrize(
    ("edit", "path", "message"),
    [
        (("strength = 3", 'strength = "three"'), "$.sides[0].units[0].strength", "expected int"),
        (('hex = "0708"', "hex = 708"), "$.sides[1].units[0].hex", "expected str"),
        (("turns = 8", "turns = 8\nweather = 'rain'"), "$", "extra fields"),
        (("turns = 8", ""), "$.turns", "required field missing"),
        (("turns = 8", "turns = 8.5"), "$.turns", "expected int"),
    ],
)
def test_bad_fields_are_rejected_with_their_path(edit, path, message):
    """Wrong types, unknown keys and missing fields name the path to the bad field."""
    text = GOOD.replace(*edit)
    with pytest.raises(ScenarioError) as err:
        structure(read_toml_text(text), Battle, source="ford.toml")
    assert err.value.path == path
    assert message in str(err.value)
    assert str(err.value).startswith(f"ford.toml: {path}: ")


def test_toml_syntax_errors_are_scenario_errors():
    """A TOML syntax error is reported as a ScenarioError."""
    with pytest.raises(ScenarioError, match="not valid TOML"):
        read_toml_text("title = ", source="x.toml")


def test_missing_file_is_a_scenario_error(tmp_path):
    """An unreadable file is reported with its path, not a traceback."""
    with pytest.raises(ScenarioError, match="cannot read the file"):
        read_toml_file(tmp_path / "nope.toml")


def test_booleans_are_not_numbers():
    """TOML true is not accepted where an int is expected (no silent coercion)."""
    with pytest.raises(ScenarioError, match=r"\$\.turns"):
        structure({"title": "x", "turns": True, "sides": []}, Battle)


def test_validator_reasons_reach_the_message():
    """A field validator's own reason is kept in the error, with the path."""
    from attrs import field, validators

    @frozen
    class Group:
        drill: str = field(validator=validators.in_(["poor", "average", "elite"]))

    with pytest.raises(ScenarioError) as err:
        structure([{"drill": "poor"}, {"drill": "superb"}], list[Group])
    assert err.value.path == "$[1]"  # attrs validators run in __init__: the class is the path
    assert "'drill' must be in ['poor', 'average', 'elite'] (got 'superb')" in str(err.value)


@pytest.mark.parametrize(
    ("data", "path", "got"),
    [
        ([1, 2], "$", "list"),
        ({"title": "t", "turns": 1, "sides": [3]}, "$.sides[0]", "int"),
        ({"title": "t", "turns": 1, "sides": [{"name": "n", "units": ["Guard"]}]}, "$.sides[0].units[0]", "str"),
    ],
)
def test_a_value_where_a_table_belongs_names_the_path(data, path, got):
    """A list or a number where a table belongs says so, not "'list' object has no attribute"."""
    with pytest.raises(ScenarioError) as info:
        structure(data, Battle, source="f.toml")
    assert str(info.value) == f"f.toml: {path}: expected a table (an object), got {got}"


def test_validate_and_load_scenario_file_read_the_same_files(tmp_path):
    """Issue 8: a file naming its ruleset with a top-level `ruleset` key is understood by
    Ruleset.load_scenario_file itself (not only by the CLI), and one for another ruleset is
    refused with the path to the key, by both."""
    from click.testing import CliRunner

    from wargamekit.cli import cli
    from wargamekit.errors import ScenarioError
    from wargamekit_skirmish import Skirmish

    good = tmp_path / "mine.toml"
    good.write_text('ruleset = "skirmish"\ntitle = "t"\nwidth = 6\nheight = 4\n'
                    '[[units]]\nname = "A"\nside = "blue"\nhex = "0102"\n'
                    '[[units]]\nname = "B"\nside = "red"\nhex = "0402"\n', encoding="utf-8")
    assert Skirmish().load_scenario_file(good).title == "t"
    assert CliRunner().invoke(cli, ["validate", str(good)]).output.strip() == "ok"
    other = tmp_path / "other.toml"
    other.write_text(good.read_text(encoding="utf-8").replace('"skirmish"', '"tank_solo"', 1), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"\$\.ruleset: the scenario is for ruleset 'tank_solo', not 'skirmish'"):
        Skirmish().load_scenario_file(other)
    result = CliRunner().invoke(cli, ["validate", "--ruleset", "skirmish", str(other)])
    assert result.exit_code == 2 and "the scenario is for ruleset 'tank_solo'" in result.output


def test_a_cached_toml_parse_hands_out_detached_copies():
    text = 'name = "x"\n[[units]]\nname = "Guard"\nhexes = [1, 2]\n'
    first = read_toml_text(text, cache=True)
    first["units"][0]["hexes"].append(3)
    first["name"] = "changed"
    assert read_toml_text(text, cache=True) == read_toml_text(text) == {
        "name": "x", "units": [{"name": "Guard", "hexes": [1, 2]}]}


def test_copy_data_detaches_what_deepcopy_would():
    import copy

    from wargamekit.scenario import copy_data

    inner = {"set": {1, 2}}
    data = {"a": [1, {"b": [2.5, None, True]}], "odd": inner, "t": (1, [2])}
    copied = copy_data(data)
    assert copied == copy.deepcopy(data) == data
    assert copied["a"][1] is not data["a"][1] and copied["odd"]["set"] is not inner["set"]
    assert copied["t"][1] is not data["t"][1]
    assert list(copied) == list(data), "the order of keys is kept"


def test_a_bundled_scenario_is_read_once_and_handed_out_as_fresh_copies():
    from wargamekit.errors import UnknownScenarioError
    from wargamekit.plugins import installed_rulesets

    ruleset = installed_rulesets()["skirmish"]
    first = ruleset.scenario_data("default")
    first.clear()
    again = ruleset.scenario_data("default")
    assert again and again == ruleset.scenario_data("default") and again is not ruleset.scenario_data("default")
    for bad in ("no such scenario", ["default"], 3):
        with pytest.raises(UnknownScenarioError):
            ruleset.scenario_data(bad)
