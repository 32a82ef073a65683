"""The game driver: decisions, the log, saves, undo/fork by replay, and bad input."""

from __future__ import annotations

import json

import attrs
import pytest
from rulesets import DiceRace

from wargamekit import (
    Game,
    GameOverError,
    IllegalChoiceError,
    InvalidChoiceError,
    NotYourTurnError,
    RandomBot,
    SaveError,
    SaveFile,
    ScenarioError,
    ScriptedDice,
    ScriptedPlayer,
)

RACE = DiceRace()


def finished_game(seed: int = 4) -> Game:
    game = Game.new(RACE, seed=seed)
    game.play({side: RandomBot(seed + i) for i, side in enumerate(RACE.sides)})
    return game


def test_first_decision_is_pending_after_new():
    """A new game runs to its first decision."""
    game = Game.new(RACE, seed=1)
    assert game.pending is not None
    assert game.pending.side == "red"
    assert game.pending.rule == "R1"


def test_scripted_dice_give_exact_outcome():
    """With forced dice and answers the outcome is exactly determined."""
    # secrets 1, 1; red rolls 6, blue banks; continue; red rolls 6 -> 12 reaches the target.
    game = Game.new(RACE, dice=ScriptedDice([1, 1, 6, 6]))
    outcome = game.play({"red": ScriptedPlayer(["roll", True, "roll"]), "blue": ScriptedPlayer(["bank"])})
    assert outcome.winner == "red"
    assert outcome.scores == {"red": 12, "blue": 0}
    assert outcome.reason == "R2: reached the target"


def test_same_seed_and_choices_give_byte_identical_log():
    """Determinism: same scenario, seed and choices give the same log bytes."""
    a = finished_game(7)
    b = Game.new(RACE, seed=7)
    for choice in a.choices:
        b.answer(choice)
    assert a.log_text().encode() == b.log_text().encode()
    assert a.outcome == b.outcome


def test_illegal_choice_names_rule_and_leaves_game_unchanged():
    """A choice the ruleset rejects raises an error naming the rule; the game is as before."""
    game = Game.new(RACE, seed=3, options={"offer_cheat": True})
    game.answer(0)
    before_log, before_choices = game.log_text(), list(game.choices)
    before_state = (dict(game.state.totals), game.state.round)
    with pytest.raises(IllegalChoiceError, match=r"\[R1\]: cheating is never allowed") as err:
        game.answer(2)
    assert err.value.rule == "R1"
    assert game.log_text() == before_log
    assert game.choices == before_choices
    assert (dict(game.state.totals), game.state.round) == before_state


def test_unreadable_answers_are_refused_before_anything_changes():
    """Out-of-range and wrong-type answers are refused without touching the log."""
    game = Game.new(RACE, seed=3)
    before = game.log_text()
    with pytest.raises(InvalidChoiceError, match="is not one of 0..1"):
        game.answer(5)
    with pytest.raises(InvalidChoiceError, match="expected an option index"):
        game.answer("roll")
    assert game.log_text() == before


def test_wrong_side_is_refused():
    """Answering for the side not being asked is refused."""
    game = Game.new(RACE, seed=3)
    with pytest.raises(NotYourTurnError, match="'red' is asked, not 'blue'"):
        game.answer(0, side="blue")


def test_answer_after_game_over_is_refused():
    """A finished game refuses more answers."""
    game = finished_game()
    with pytest.raises(GameOverError):
        game.answer(0)


def test_unknown_option_is_refused():
    """An optional rule the ruleset does not have is refused, listing the ones it has."""
    with pytest.raises(InvalidChoiceError, match="no option 'turbo'"):
        Game.new(RACE, options={"turbo": True})


def test_options_change_the_game():
    """An option switched on is seen by the ruleset (doubles doubles every roll)."""
    game = Game.new(RACE, dice=ScriptedDice([1, 1, 5]), options={"doubles": True})
    game.answer(0)
    assert game.state.totals["red"] == 10


def test_bad_scenario_data_is_rejected_with_path():
    """Inline scenario data with a bad field is rejected naming the field."""
    with pytest.raises(ScenarioError, match=r"\$\.target: invalid value for type, expected int"):
        Game.new(RACE, {"target": "twelve", "max_rounds": 3})
    with pytest.raises(ScenarioError, match="extra fields"):
        Game.new(RACE, {"target": 12, "max_rounds": 3, "colour": "red"})


def test_save_load_round_trip_replays_identically(tmp_path):
    """A save written to disk loads back to the same log and outcome."""
    game = finished_game(9)
    path = tmp_path / "race.json"
    path.write_text(game.save().to_json(), encoding="utf-8")
    loaded = Game.load(path, rulesets={"dice_race": RACE})
    assert loaded.log_text() == game.log_text()
    assert loaded.outcome == game.outcome


def test_save_of_game_in_progress_resumes():
    """A save taken mid-game resumes at the same pending decision."""
    game = Game.new(RACE, seed=2)
    game.answer(0)
    game.answer(1)
    loaded = Game.load(game.save(), rulesets={"dice_race": RACE})
    assert loaded.pending == game.pending
    assert loaded.log_text() == game.log_text()


def _save_dict(game: Game) -> dict:
    return json.loads(game.save().to_json())


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(ruleset="chess"), "needs ruleset 'chess', which is not installed"),
        (lambda d: d.update(ruleset_version="9.9"), "written by dice_race 9.9; the installed version is 1.0"),
        (lambda d: d["choices"].append(7), r"\$\.choices\[\d+\] does not replay"),
        (lambda d: d.update(seed="x"), r"\$\.seed: invalid value for type, expected int"),
        (lambda d: d.pop("choices"), r"\$\.choices: required field missing"),
        (lambda d: d.update(format=99), "unsupported save format 99"),
    ],
)
def test_bad_saves_are_rejected(mutate, message):
    """Malformed saves, missing rulesets, other versions and non-replaying choices are refused."""
    game = Game.new(RACE, seed=2)
    game.answer(0)
    data = _save_dict(game)
    mutate(data)
    with pytest.raises(SaveError, match=message):
        Game.load(SaveFile.from_json(json.dumps(data)), rulesets={"dice_race": RACE})


def test_save_that_is_not_json_is_rejected(tmp_path):
    """A file that is not JSON is refused with its path."""
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(SaveError, match="broken.json: not JSON"):
        Game.load(path, rulesets={"dice_race": RACE})


def test_save_with_choices_past_the_end_is_rejected():
    """Extra choices after the game ended are refused."""
    game = finished_game(9)
    data = _save_dict(game)
    data["choices"].append(0)
    with pytest.raises(SaveError, match="ended before this choice"):
        Game.load(SaveFile.from_json(json.dumps(data)), rulesets={"dice_race": RACE})


def test_undo_takes_back_answers_by_replay():
    """undo(n) restores exactly the position before the last n answers."""
    game = Game.new(RACE, seed=5)
    game.answer(0)
    snapshot = (game.log_text(), dict(game.state.totals), game.pending)
    game.answer(0)
    game.answer(True)
    game.undo(2)
    assert (game.log_text(), dict(game.state.totals), game.pending) == snapshot
    with pytest.raises(ValueError):
        game.undo(5)


def test_fork_is_independent():
    """A fork continues separately from the original."""
    game = Game.new(RACE, seed=5)
    game.answer(0)
    fork = game.fork()
    fork.answer(1)
    assert len(fork.choices) == 2 and len(game.choices) == 1
    assert fork.log_text().startswith(game.log_text())


def test_game_with_scripted_dice_cannot_be_saved():
    """A custom dice service is not a seed, so such a game refuses to save."""
    game = Game.new(RACE, dice=ScriptedDice([1, 1]))
    with pytest.raises(SaveError, match="custom dice"):
        game.save()


def test_player_view_hides_secret_events():
    """A side's view shows its own secret and not the other side's."""
    game = Game.new(RACE, seed=1)
    red = game.view("red")
    texts = [e.text for e in red.log]
    assert any(t.startswith("red holds") for t in texts)
    assert not any(t.startswith("blue holds") for t in texts)
    assert not any("secret number of blue" in t for t in texts)
    assert red.state["secret"]["blue"] is None
    assert red.state["secret"]["red"] == game.state.secret["red"]


def test_view_is_a_copy():
    """Changing a view changes nothing in the game."""
    game = Game.new(RACE, seed=1)
    view = game.view("red").state
    view["totals"]["red"] = 99
    assert game.state.totals["red"] == 0


def test_endless_games_are_detected():
    """play() stops a game that asks more than max_decisions."""
    game = Game.new(RACE, {"target": 1000, "max_rounds": 500}, seed=1)
    red, blue = ScriptedPlayer([1, True, 1, True]), ScriptedPlayer([1, 1])
    with pytest.raises(RuntimeError, match="more than 5 decisions"):
        game.play({"red": red, "blue": blue}, max_decisions=5)


def test_missing_player_is_refused():
    """Every side needs a player."""
    with pytest.raises(ValueError, match="no player for side"):
        Game.new(RACE).play({"red": RandomBot()})


def test_secret_decisions_are_logged_only_for_the_chooser():
    """A decision marked secret is logged with the chooser as its only audience."""
    from rulesets import NoScenario

    from wargamekit import Choose, Outcome

    class Hidden(NoScenario):
        name = "hidden"
        sides = ("a", "b")

        def play(self, game):
            yield Choose.of("a", "Load which special round?", ["HESH", "fin"], secret=True)
            yield Choose.of("b", "Ready?", ["yes"])
            return Outcome(None, "done")

    game = Game.new(Hidden())
    game.answer(0)
    assert any("HESH" in e.text for e in game.view("a").log)
    assert not any("HESH" in e.text for e in game.view("b").log)


def test_ruleset_failing_on_an_answer_leaves_the_game_as_before():
    """Not only IllegalChoiceError: any error the ruleset raises on an answer (here the dice
    script running out) rebuilds the game to before the answer, so it can go on."""
    from wargamekit.dice import DiceScriptError

    game = Game.new(RACE, dice=ScriptedDice([1, 1]))
    before = (game.log_text(), list(game.choices), game.state.totals.copy(), game.pending)
    with pytest.raises(DiceScriptError):
        game.answer(0)  # red rolls: no face left in the script
    assert (game.log_text(), list(game.choices), game.state.totals.copy(), game.pending) == before
    game.answer(1)  # banking rolls nothing: the procedure is alive
    assert game.pending.side == "blue"


@pytest.mark.parametrize("seed", [-1, 1.5, True, "3"])
def test_bad_seed_is_refused(seed):
    """A seed numpy cannot use is refused with a clear error, not a numpy traceback."""
    with pytest.raises(InvalidChoiceError, match="seed must be a whole number 0 or more"):
        Game.new(RACE, seed=seed)


def test_numpy_seed_and_options_save_as_plain_json():
    """numpy scalars given as seed or option values are saved as plain JSON numbers/bools."""
    np = pytest.importorskip("numpy")
    game = Game.new(RACE, seed=np.int64(5), options={"doubles": np.bool_(True)})
    data = json.loads(game.save().to_json())
    assert data["seed"] == 5 and data["options"]["doubles"] is True
    assert Game.load(game.save(), rulesets={RACE.name: RACE}).log_text() == game.log_text()


def test_option_of_the_wrong_kind_is_refused():
    """A true/false rule given "yes" is refused, naming the option (it would pass as truthy)."""
    with pytest.raises(InvalidChoiceError, match="option 'doubles': expected bool"):
        Game.new(RACE, options={"doubles": "yes"})


def test_a_ruleset_changing_its_scenario_does_not_change_replays():
    """Undo, fork and the rebuild after a rejected choice start from the scenario as loaded,
    even if the ruleset changed its scenario object while playing; so does a caller's dict."""
    from attrs import define

    from wargamekit import Choose, Outcome, Ruleset

    @define
    class Camp:
        supplies: list[int]

    class Forage(Ruleset):
        name = "forage"
        sides = ("a",)
        scenario_type = Camp

        def setup(self, scenario, options):
            return None

        def play(self, game):
            for _ in range(3):
                yield Choose.of("a", "forage?", ["yes"])
                game.scenario.supplies.append(1)  # a careless ruleset
                game.event("supplies", f"{len(game.scenario.supplies)} supplies")
            return Outcome("a", "done")

    data = {"supplies": [1]}
    game = Game.new(Forage(), data)
    data["supplies"].append(99)
    game.answer(0)
    game.answer(0)
    text = game.log_text()
    assert game.fork().log_text() == text
    game.undo(1)
    game.answer(0)
    assert game.log_text() == text
    assert game.save().scenario == {"supplies": [1]}


def test_save_of_another_format_names_the_format():
    """A save written in another format says so, not that its fields are unknown."""
    data = json.loads(finished_game().save().to_json())
    data["format"] = 1  # the format before decisions carried kinds
    data["new_field"] = "x"
    with pytest.raises(SaveError, match=r"g.json: \$.format: unsupported save format 1"):
        SaveFile.from_json(json.dumps(data), source="g.json")


def test_numpy_values_in_events_and_hand_built_saves_are_plain_json():
    """Event data and a hand-built save holding numpy scalars/arrays serialise as plain JSON;
    data that is not JSON names the event."""
    np = pytest.importorskip("numpy")
    game = Game.new(RACE, seed=1)
    event = game.context.event("move", "A01 moves", hex=np.array([3, 4]), cost=np.int64(2), fast=np.bool_(True))
    assert event.data == {"hex": [3, 4], "cost": 2, "fast": True}
    with pytest.raises(TypeError, match="event 'move' \\(A01 moves\\): object .* is not JSON data"):
        game.context.event("move", "A01 moves", unit=object())
    hand_built = attrs.evolve(game.save(), seed=np.int64(1), choices=[np.int64(0)])
    assert json.loads(hand_built.to_json())["choices"] == [0]


def test_one_side_given_as_a_string_is_that_side():
    """audience="red" (and dice.secret("red")) means the side red, not the sides r, e, d."""
    game = Game.new(RACE, seed=1)
    event = game.context.event("note", "for red only", audience="red")
    assert event.audience == ("red",) and event.visible_to("red") and not event.visible_to("blue")
    with game.dice.secret("red"):
        game.dice.d6("secret roll")
    assert game.log[-1].audience == ("red",)


def test_undo_that_does_not_replay_leaves_the_game_as_before():
    """If a replay fails (a ruleset that does not replay the same way), undo raises and the
    game keeps its position instead of being left half-rebuilt."""
    from rulesets import NoScenario

    from wargamekit import Choose, Outcome

    runs = []

    class Fickle(NoScenario):
        name = "fickle"
        sides = ("a",)

        def setup(self, scenario, options):
            runs.append(1)
            return {"moves": 0}

        def play(self, game):
            for _ in range(5):
                # on a replay there are fewer options: a ruleset bug the core must survive
                yield Choose.of("a", "go?", ["a", "b", "c"] if len(runs) == 1 else ["a"])
                game.state["moves"] += 1
            return Outcome("a", "done")

    game = Game.new(Fickle())
    game.answer(2)
    game.answer(2)
    before = (game.log_text(), list(game.choices), dict(game.state), game.pending)
    with pytest.raises(InvalidChoiceError):
        game.undo(1)
    assert (game.log_text(), list(game.choices), dict(game.state), game.pending) == before
    game.answer(1)
    assert game.state["moves"] == 3


def test_game_new_takes_a_ruleset_name_and_names_unknown_things_by_cause():
    """Issue 8: Game.new("tank_solo") works; an unknown ruleset or scenario is an
    UnknownRulesetError / UnknownScenarioError (both LookupErrors and WargamekitErrors), not a
    bare LookupError or AttributeError; a non-ruleset is a TypeError naming what was given."""
    from wargamekit.errors import UnknownRulesetError, UnknownScenarioError

    game = Game.new("skirmish", seed=3)
    assert game.ruleset.name == "skirmish" and game.pending is not None
    with pytest.raises(UnknownRulesetError, match="no ruleset named 'chess'"):
        Game.new("chess")
    with pytest.raises(UnknownScenarioError, match="has no scenario 'nosuch'") as err:
        Game.new("skirmish", "nosuch")
    assert isinstance(err.value, LookupError)
    with pytest.raises(TypeError, match="expected a Ruleset or an installed ruleset's name, got 42"):
        Game.new(42)


def test_every_deliberate_error_is_a_wargamekit_error():
    """Issue 8: errors by cause, all WargamekitError, with their builtin bases."""
    import wargamekit.errors as errors

    for name in errors.__all__:
        cls = getattr(errors, name)
        assert issubclass(cls, errors.WargamekitError), name
    assert issubclass(errors.UnknownScenarioError, LookupError)
    assert issubclass(errors.BranchLimitError, RuntimeError)
    assert issubclass(errors.IllegalChoiceError, ValueError)
    from wargamekit.dice import DiceScriptError
    from wargamekit.geometry import HexLabelError, OffMapError
    from wargamekit.odds import BranchLimitError

    assert DiceScriptError is errors.DiceScriptError and BranchLimitError is errors.BranchLimitError
    assert HexLabelError is errors.HexLabelError and OffMapError is errors.OffMapError


def test_play_until_stops_before_a_decision_and_can_go_on():
    """Game.play(until=...) stops with the decision still pending (the scripts that draw a
    position mid-game use it instead of a loop of their own); playing on reaches the same end."""
    players = {side: RandomBot(seed=i) for i, side in enumerate(RACE.sides)}
    whole = Game.new(RACE, seed=4)
    whole.play({side: RandomBot(seed=i) for i, side in enumerate(RACE.sides)})
    game = Game.new(RACE, seed=4)
    assert game.play(players, until=lambda g: len(g.choices) >= 3) is None
    assert len(game.choices) == 3 and game.pending is not None
    game.play(players)
    assert game.log_text() == whole.log_text()


def test_a_save_naming_a_scenario_the_ruleset_does_not_bundle_is_refused_every_time(monkeypatch):
    """A load checks that the scenario a save names is bundled (its data is in the save, but the
    name must mean something); the names found are remembered, so a load does not copy the
    scenario's data again to check it. An unknown name is refused before and after a good one,
    and nothing else is remembered."""
    from wargamekit import game as game_module
    from wargamekit_skirmish import Skirmish

    skirmish = Skirmish()
    monkeypatch.setattr(game_module, "_KNOWN_SCENARIOS", __import__("weakref").WeakKeyDictionary())
    game = Game.new(skirmish, seed=3)
    game.answer(0)
    data = _save_dict(game)
    assert data["scenario_name"] == "default"
    asked = []
    real = Skirmish.scenario_data
    monkeypatch.setattr(Skirmish, "scenario_data", lambda self, name="default": asked.append(name) or real(self, name))
    for name in ("nosuch", "default", "default", "nosuch"):
        data["scenario_name"] = name
        save = SaveFile.from_json(json.dumps(data))
        if name == "nosuch":
            with pytest.raises(SaveError, match=r"\$\.scenario_name: .*no scenario 'nosuch'"):
                Game.load(save, rulesets={"skirmish": skirmish})
        else:
            assert Game.load(save, rulesets={"skirmish": skirmish}).log_text() == game.log_text()
    assert asked == ["nosuch", "default", "nosuch"]  # the second load of "default": not asked again
    assert game_module._KNOWN_SCENARIOS[skirmish] == {"default"}
