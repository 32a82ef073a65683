"""A scenario of a shared type is structured once per process for equal data (game._load_scenario):
the same scenario, the same games, and any other data, type or failure loaded as before."""

from __future__ import annotations

import pytest
from rulesets import DiceRace, RaceScenario

from wargamekit import Game, RandomBot
from wargamekit import game as game_module
from wargamekit.errors import ScenarioError


class CountingRace(DiceRace):
    """DiceRace counting how often its scenario is structured; its scenario a shared type or not."""

    name = "counting_race"

    def __init__(self, *, shared: bool = True) -> None:
        self.loads = 0
        self.shared_types = (RaceScenario,) if shared else ()

    def load_scenario(self, data, *, source=None):
        self.loads += 1
        return super().load_scenario(data, source=source)


def _log(game: Game) -> str:
    game.play({side: RandomBot(i) for i, side in enumerate(game.ruleset.sides)})
    return game.log_text()


def test_equal_data_of_a_shared_scenario_type_is_structured_once_and_plays_the_same():
    ruleset = CountingRace()
    first, second = Game.new(ruleset, seed=4), Game.new(ruleset, seed=4)
    assert ruleset.loads == 1
    assert second.scenario is first.scenario
    assert _log(second) == _log(first) == _log(Game.new(CountingRace(shared=False), seed=4))
    # data given as a mapping is the same data from another source (which an error would name)
    Game.new(ruleset, {"target": 12, "max_rounds": 30})
    Game.new(ruleset, {"target": 12, "max_rounds": 30})
    assert ruleset.loads == 2


@pytest.mark.parametrize("other", [
    {"max_rounds": 30, "target": 12},  # the same items in another order
    {"target": 13, "max_rounds": 30},
])
def test_data_that_is_not_the_same_is_structured_anew(other):
    ruleset = CountingRace()
    Game.new(ruleset, {"target": 12, "max_rounds": 30})
    loaded = Game.new(ruleset, other).scenario
    assert ruleset.loads == 2
    assert loaded == ruleset.load_scenario(other)


def test_a_scenario_of_another_type_a_failure_or_data_marshal_refuses_is_loaded_every_time():
    unshared = CountingRace(shared=False)
    games = [Game.new(unshared, seed=1) for _ in range(2)]
    assert unshared.loads == 2 and games[0].scenario is not games[1].scenario
    ruleset = CountingRace()
    for _ in range(2):
        with pytest.raises(ScenarioError):
            Game.new(ruleset, {"target": "twelve", "max_rounds": 30})
    assert ruleset.loads == 2
    bad_key = {"target": 12, "max_rounds": 30, "notes": {StrKey("a"): 1}}
    for _ in range(2):
        with pytest.raises(ScenarioError):  # marshal refuses it, and so does the structuring
            Game.new(ruleset, bad_key)
    assert ruleset.loads == 4


class StrKey(str):
    """A ``str`` subclass: marshal refuses it."""


def test_the_memo_keeps_a_bounded_number_of_scenarios_per_ruleset():
    ruleset = CountingRace()
    for target in range(game_module._LOADED_KEPT + 3):
        Game.new(ruleset, {"target": target + 1, "max_rounds": 30})
    assert 0 < len(game_module._LOADED[ruleset]) <= game_module._LOADED_KEPT
