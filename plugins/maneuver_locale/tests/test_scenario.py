"""Scenario data: the bundled scenarios and the rejection of bad files with the path."""

from __future__ import annotations

import copy

import pytest

from wargamekit import Game, ScenarioError
from wargamekit.geometry.locale import ApproachWidth, RoadClass


def test_bundled_scenarios(ruleset):
    """Scenario data: a full scenario and a training one are bundled."""
    assert ruleset.scenario_names() == ["default", "training"]


def test_default_map_has_everything_the_rules_use(ruleset):
    """Scenario data: 12+ locales, roads of both classes, both approach widths, terrain effects."""
    state = Game.new(ruleset, "default").state
    b = state.board
    assert len(b.locale_ids()) >= 12
    classes = {c for a, z in b.map.graph.edges for c in b.road_classes(a, z)}
    assert classes == {RoadClass.PRIMARY, RoadClass.SECONDARY}
    approaches = [ap for loc in b.locale_ids() for ap in b.map.approaches_into(loc)]
    assert {ap.width for ap in approaches} == {ApproachWidth.NARROW, ApproachWidth.WIDE}
    assert {ap.terrain_effect for ap in approaches} >= {0, 1, 2}
    assert {p.arm.value for p in state.pieces.values()} == {"infantry", "cavalry", "artillery"}
    assert state.turn_limit == 10 and b.objectives


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["pieces"][0].update(locale="nowhere"), "$.pieces[0].locale"),
        (lambda d: d["pieces"][0].update(steps="3"), "$.pieces[0].steps"),
        (lambda d: d["pieces"][0].update(arm="dragoons"), "$.pieces[0].arm"),
        (lambda d: d["pieces"][0].update(colour="red"), "$.pieces[0]"),
        (lambda d: d["approaches"].pop(0), "$.approaches"),
        (lambda d: d["approaches"][0].update(width="medium"), "$.approaches[0].width"),
        (lambda d: d["roads"][0]["locales"].append("tortona"), "$.roads[0].locales[6]"),
        (lambda d: d["commands"].pop("france"), "$.commands"),
        (lambda d: d.update(turns=0), "$.turns"),
        (lambda d: d["locales"][0].update(capacity=-1), "$.locales[0].capacity"),
        (lambda d: d["pieces"][1].update(id="A01"), "$.pieces[1].id"),
        (lambda d: d["pieces"][0].update(approach="tortona"), "$.pieces[0].approach"),
    ],
)
def test_bad_scenario_names_the_path(ruleset, change, path):
    """Scenario data: a bad field is rejected with a ScenarioError naming its path."""
    data = copy.deepcopy(ruleset.scenario_data("default"))
    change(data)
    with pytest.raises(ScenarioError) as info:
        Game.new(ruleset, data)
    assert info.value.path.startswith(path), str(info.value)


def test_over_full_locale_rejected(ruleset):
    """Provisional capacity: a locale may not start with more pieces than it holds."""
    data = copy.deepcopy(ruleset.scenario_data("training"))
    data["locales"][2]["capacity"] = 1
    data["pieces"].append({"id": "A9", "side": "austria", "arm": "infantry", "steps": 1, "locale": "bridge"})
    with pytest.raises(ScenarioError, match=r"\$\.locales\[2\]\.capacity"):
        Game.new(ruleset, data)


def test_scenario_file_error_names_the_file(ruleset, tmp_path):
    """Scenario data: a file with a bad field names the file and the path."""
    path = tmp_path / "bad.toml"
    path.write_text('title = "x"\nsides = ["austria", "france"]\nturns = "many"\n', encoding="utf-8")
    with pytest.raises(ScenarioError, match="bad.toml"):
        ruleset.load_scenario_file(path)


def test_games_on_the_same_map_share_one_board_and_other_maps_get_their_own(ruleset):
    """A board never changes, so it is built once per map (with its distance table) and the
    games on that map share it; a scenario with another map gets another board."""
    one, two = Game.new(ruleset, seed=1), Game.new(ruleset, seed=2)
    assert one.state.board is two.state.board
    training = Game.new(ruleset, "training", seed=1)
    assert training.state.board is not one.state.board


@pytest.mark.parametrize("value", [10.0, True, "10"])
def test_data_loaded_before_is_kept_but_equal_data_of_another_type_is_still_refused(ruleset, value):
    """Scenario data: the same data loaded again gives the same (never changed) scenario, kept
    rather than structured again; data that only compares equal to it (``turns = 10.0`` or
    ``true`` where it was ``10``) is structured and refused as before, naming its path."""
    data = copy.deepcopy(ruleset.scenario_data("default"))
    first = ruleset.load_scenario(data)
    assert ruleset.load_scenario(copy.deepcopy(data)) is first
    data["turns"] = value
    with pytest.raises(ScenarioError) as info:
        ruleset.load_scenario(data)
    assert info.value.path == "$.turns", str(info.value)


def test_data_of_numpy_values_is_not_taken_for_data_of_other_numpy_values(ruleset):
    """The memo's key names each value's type: ``np.float64(0.0)`` and ``np.int64(0)`` have the
    same raw bytes, which marshal wrote for both, so the second load took the first's scenario;
    it is refused as its own (a locale's ``x`` is a float, and ``np.int64`` is no ``int``)."""
    import numpy as np

    data = copy.deepcopy(ruleset.scenario_data("default"))
    data["locales"][0]["x"] = np.float64(0.0)
    first = ruleset.load_scenario(data)
    assert first.locales[0].x == 0.0
    data["locales"][0]["x"] = np.int64(0)
    with pytest.raises(ScenarioError) as info:
        ruleset.load_scenario(data)
    assert info.value.path == "$.locales[0].x", str(info.value)
