"""Scenario files: the bundled default loads; bad fields are rejected with their path."""

import pytest

from wargamekit import Game, ScenarioError
from wargamekit_skirmish import Skirmish


def data():
    return Skirmish().scenario_data("default")


def test_default_scenario_loads():
    """The bundled Hill 112 scenario has a 10x8 map, 6 turns and four units a side."""
    s = Skirmish().load_scenario(data())
    assert (s.width, s.height, s.turns) == (10, 8, 6)
    assert sorted(u.side for u in s.units) == ["blue"] * 4 + ["red"] * 4


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["units"][2].update(hex=304), "$.units[2].hex"),  # wrong type (cattrs)
        (lambda d: d["units"][1].update(speed=4), "$.units[1]"),  # unknown key
        (lambda d: d["units"][2].update(hex="1109"), "$.units[2].hex"),  # off the map
        (lambda d: d["units"][2].update(hex="34"), "$.units[2].hex"),  # not a label
        (lambda d: d["units"][3].update(side="green"), "$.units[3].side"),
        (lambda d: d["units"][3].update(facing=6), "$.units[3].facing"),
        (lambda d: d["units"][1].update(hex=d["units"][0]["hex"]), "$.units[1].hex"),  # one unit per hex
        (lambda d: d["units"][1].update(name=d["units"][0]["name"]), "$.units[1].name"),
        (lambda d: d["terrain"]["woods"].append("0099"), "$.terrain.woods[8]"),
        (lambda d: d.update(first="nobody"), "$.first"),
    ],
)
def test_bad_scenario_is_rejected_with_the_path(change, path):
    """A bad field raises ScenarioError naming its path."""
    raw = data()
    change(raw)
    with pytest.raises(ScenarioError) as info:
        Skirmish().load_scenario(raw, source="bad.toml")
    assert info.value.path.startswith(path)
    assert str(info.value).startswith("bad.toml: " + path)


def test_bad_scenario_file_starts_no_game(tmp_path):
    """Game.new refuses a bad scenario before anything happens."""
    raw = data()
    raw["turns"] = 0
    with pytest.raises(ScenarioError, match=r"\$\.turns"):
        Game.new(Skirmish(), raw)
