"""Scenario files, the conformance check (interrupts on and off) and determinism."""

import pytest

from wargamekit import Game, ScenarioError
from wargamekit.testing import check_ruleset, play_random_game
from wargamekit_mttt_rpg import MtttRpg

RULESET = MtttRpg()


@pytest.mark.parametrize("scene", ["default", "duel", "battle"])
@pytest.mark.parametrize("interrupts", [True, False])
def test_conformance(scene, interrupts):
    """The core conformance check passes on every scene, with the interrupt phase on and off;
    every decision has a kind and every option distinct data; the non-interference check runs
    (the scene has no hidden information: every decision and roll is public, so it has no
    secret to fork)."""
    report = check_ruleset(RULESET, scene, games=4, options={"interrupts": interrupts}, deep_checks=2, structured=True,
                           non_interference=True)
    assert report.games == 4 and report.decisions > 0
    assert report.non_interference_pairs == 0


def test_same_seed_and_answers_give_the_same_log():
    """Determinism: same scenario, seed and answers give a byte-identical log."""
    first = play_random_game(RULESET, "default", seed=11)
    again = Game.new(RULESET, "default", seed=11)
    for answer in first.choices:
        again.answer(answer)
    assert again.log_text() == first.log_text()


def bad(**changes):
    data = RULESET.scenario_data("duel")
    data = {**data, "units": [dict(u) for u in data["units"]]}
    for path, value in changes.items():
        if path.startswith("unit1."):
            data["units"][1][path[6:]] = value
        else:
            data[path] = value
    return data


@pytest.mark.parametrize(
    ("changes", "path", "message"),
    [
        ({"unit1.sheet": "nobody"}, "$.units[1].sheet", "unknown character sheet"),
        ({"unit1.side": "neutral"}, "$.units[1].side", "side must be one of"),
        ({"unit1.weapon": "ribbon_bow"}, "$.units[1].weapon", "not one of the sheet's weapons"),
        ({"unit1.hex": 3}, "$.units[1]", "extra fields found (hex)"),
        ({"round_limit": "ten"}, "$.round_limit", "expected int"),
        ({"distances": [{"a": "akari", "b": "ghost", "band": 2}]}, "$.distances[0].b", "unknown unit"),
        ({"unit1.cover": "bush"}, "$.units[1].cover", "cover must be one of"),
    ],
)
def test_bad_scenarios_name_the_path(changes, path, message):
    """A bad scenario file is refused with a ScenarioError naming the bad field."""
    with pytest.raises(ScenarioError) as info:
        Game.new(RULESET, bad(**changes))
    assert path in str(info.value) and message in str(info.value)


def test_illegal_decisive_attack_while_crashed_is_refused_naming_the_rule():
    """先导崩溃: a decisive attack in crash is never offered, and the action itself refuses it."""
    from wargamekit import IllegalChoiceError
    from wargamekit_mttt_rpg.combat_actions import Action, perform

    game = Game.new(RULESET, "duel", seed=2, options={"interrupts": False})
    akari = game.state.unit("akari")
    akari.initiative = 0
    game.state.track.set("akari", 0)
    before = game.log_text()
    with pytest.raises(IllegalChoiceError) as info:
        next(perform(game.context, akari, Action("attack", "kyo", "decisive"), []))
    assert "先导崩溃" in str(info.value) and game.log_text() == before


def _data():
    from wargamekit_mttt_rpg.sheets import _read

    return {
        "weapons": _read("weapons.toml"),
        "armour": _read("armour.toml"),
        "characters": _read("characters.toml"),
        "groups": _read("battle_groups.toml"),
    }


@pytest.mark.parametrize(
    ("section", "key", "field", "value", "path", "message"),
    [
        ("weapons", "knife", "dice", "two", "$.weapons['knife'].dice", "expected int"),
        ("characters", "akari", "armour", "plate", "$.characters['akari'].armour", "unknown armour"),
        ("characters", "akari", "weapons", ["ribbon_bow", "club"], "$.characters['akari'].weapons[1]", "unknown weapon"),
        ("groups", "thorn_familiars", "member", "ghost", "$.groups['thorn_familiars'].member", "unknown member"),
        ("groups", "thorn_familiars", "drill", "superb", "$.groups['thorn_familiars']", "invalid value"),
    ],
)
def test_bad_character_and_group_data_name_the_path(section, key, field, value, path, message):
    """Data files (characters, weapons, battle groups): a bad value is a ScenarioError naming its path."""
    from wargamekit_mttt_rpg.sheets import build_library

    data = _data()
    data[section][key] = {**data[section][key], field: value}
    with pytest.raises(ScenarioError) as info:
        build_library(data, "test:data")
    assert path in str(info.value) and message in str(info.value)
    build_library(_data(), "test:data")  # the bundled data itself is sound
