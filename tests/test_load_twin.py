"""A load in the process that played the game: which live game it may start from.

A load of a save finds the live games of its ruleset, plugin manager, seed, scenario name and
options by a cheap key, and takes one (its checked scenario and its snapshots) only if the
save's scenario data is exactly that game's, as a save holds it: the same values of the same
types (``1``, ``1.0`` and ``True`` are three scenarios), keys sorted. A wrong twin would restart
the load from another game's snapshot, so each difference below must be refused — with a
ruleset whose log does not depend on its scenario, so that only the twin check stands between
the load and a game it is not.
"""

from __future__ import annotations

import json

import attrs
import numpy as np
import pytest
from rulesets import Tally

from wargamekit import Event, Game, RandomBot, SaveFile
from wargamekit import game as game_module

SCENARIO = {"name": "hill", "n": 1, "nested": {"a": [1, 2], "b": {"c": 0.5}}}


class DataTally(Tally):
    """Tally on a scenario of plain data (never read by its rules: its log is the same for any),
    counting how often a scenario is structured."""

    name = "data_tally"

    def __init__(self) -> None:
        super().__init__()
        self.structured = 0

    def scenario_data(self, name: str = "default") -> dict:
        return dict(SCENARIO)

    def load_scenario(self, data, *, source=None):
        self.structured += 1
        return dict(data)


def _played(ruleset, scenario=SCENARIO, seed=3) -> Game:
    game = Game.new(ruleset, json.loads(json.dumps(scenario)), seed=seed)
    game.play({side: RandomBot(i) for i, side in enumerate(ruleset.sides)})
    return game


@pytest.fixture
def live():
    game_module._LADDERS.clear()
    ruleset = DataTally()
    game = _played(ruleset)
    save = SaveFile.from_json(game.save().to_json())
    yield ruleset, game, save
    game_module._LADDERS.clear()


def _typed(data):
    """``data`` with every scalar's type beside it: what ``==`` alone does not compare."""
    if isinstance(data, dict):
        return [(key, _typed(value)) for key, value in data.items()]
    if isinstance(data, list):
        return [_typed(value) for value in data]
    return (type(data).__name__, data)


def test_the_save_of_a_live_game_takes_it_as_its_twin(live):
    ruleset, game, save = live
    structured, setups = ruleset.structured, ruleset.setups
    loaded = Game.load(save, rulesets={ruleset.name: ruleset})
    assert loaded.scenario_data is game.scenario_data
    assert (ruleset.structured, ruleset.setups) == (structured, setups)
    assert loaded._log_base is not None and loaded.log_text() == game.log_text()


def test_a_bundled_scenario_s_game_is_the_twin_of_its_save_whose_keys_are_sorted():
    """A bundled scenario's data comes in its file's order, a save's sorted: the same game."""
    game_module._LADDERS.clear()
    ruleset = DataTally()
    game = Game.new(ruleset, seed=4)  # the bundled "default": SCENARIO in its own order
    game.play({side: RandomBot(i) for i, side in enumerate(ruleset.sides)})
    assert list(game.scenario_data) != sorted(game.scenario_data)
    save = SaveFile.from_json(game.save().to_json())
    assert save.scenario_name == "default"
    loaded = Game.load(save, rulesets={ruleset.name: ruleset})
    assert loaded.scenario_data is game.scenario_data and loaded.log_text() == game.log_text()
    game_module._LADDERS.clear()


@pytest.mark.parametrize(
    "scenario",
    [
        {**SCENARIO, "n": True},  # 1 → True
        {**SCENARIO, "n": 1.0},  # 1 → 1.0
        {**SCENARIO, "nested": {"a": [True, 2], "b": {"c": 0.5}}},  # a nested 1 → True
        {**SCENARIO, "nested": {"a": [1, 2], "b": {"c": 0.25}}},  # one nested value
        {**SCENARIO, "nested": {"a": [1, 2], "b": {"c": 0.5, "d": None}}},  # one key more
    ],
    ids=["1-True", "1-1.0", "nested-1-True", "nested-value", "nested-key"],
)
def test_a_save_whose_scenario_differs_in_value_or_type_takes_no_twin(live, scenario):
    ruleset, game, save = live
    other = attrs.evolve(save, scenario=scenario)
    structured, setups = ruleset.structured, ruleset.setups
    loaded = Game.load(other, rulesets={ruleset.name: ruleset})
    # Structured and set up anew, replayed from the first answer: nothing of the live game's.
    assert (ruleset.structured, ruleset.setups) == (structured + 1, setups + 1)
    assert loaded.scenario_data is not game.scenario_data
    assert _typed(loaded.scenario_data) == _typed(scenario)
    assert loaded._log_base is None
    assert loaded.log_text() == game.log_text()  # the rules never read it: only the check refused


@pytest.mark.parametrize(
    "scenario",
    [
        {"nested": {"b": {"c": 0.5}, "a": [1, 2]}, "n": 1, "name": "hill"},  # keys out of order
        {**SCENARIO, "nested": {"a": (1, 2), "b": {"c": 0.5}}},  # a tuple where the game had a list
    ],
    ids=["key-order", "tuple"],
)
def test_a_save_not_as_a_save_writes_it_is_not_lent_the_live_game_s_data(live, scenario):
    """A save's writer sorts the keys and writes lists; a save built otherwise is compared as it
    is, so it is structured anew rather than lent the live game's data (its replay may still
    restart from the live game's snapshots: written as a save, the two data are the same, as
    they were to the ladder's key before)."""
    ruleset, game, save = live
    assert _typed(scenario) != _typed(save.scenario)
    assert json.dumps(scenario, sort_keys=True) == json.dumps(save.scenario, sort_keys=True)
    structured = ruleset.structured
    loaded = Game.load(attrs.evolve(save, scenario=scenario), rulesets={ruleset.name: ruleset})
    assert ruleset.structured == structured + 1
    assert loaded.scenario_data is not game.scenario_data
    assert _typed(loaded.scenario_data) == _typed(scenario)
    assert loaded.log_text() == game.log_text()


def test_a_game_whose_data_differs_by_type_lends_no_snapshot_to_a_game_without_its_own(live):
    """``Game.new(..., snapshots=False)`` restarts from the snapshots of a live game of the same
    inputs; data equal by ``==`` but of other types is not the same inputs."""
    ruleset, game, _ = live
    other = Game.new(ruleset, {**SCENARIO, "n": True}, seed=game.seed, snapshots=False)
    for choice in game.choices:
        other.answer(choice)
    setups = ruleset.setups
    other.undo(1)
    assert ruleset.setups == setups + 1, "the undo restarted from the other game's snapshot"
    same = Game.new(ruleset, json.loads(json.dumps(SCENARIO)), seed=game.seed, snapshots=False)
    for choice in game.choices:
        same.answer(choice)
    setups = ruleset.setups
    same.undo(1)
    assert ruleset.setups == setups, "the undo replayed from the start"
    assert same.log_text() == other.log_text()


@pytest.mark.parametrize(
    ("field", "value"),
    [("seed", 4), ("scenario_name", "default"), ("options", {"cap": True})],
)
def test_a_save_with_another_seed_name_or_option_takes_no_twin(live, field, value):
    ruleset, game, save = live
    other = attrs.evolve(save, **{field: value})
    assert game_module._twin(
        ruleset, other.scenario, seed=other.seed, scenario_name=other.scenario_name, options=other.options,
        plugin_manager=None,
    ) is None
    assert game_module._twin(
        ruleset, save.scenario, seed=save.seed, scenario_name=save.scenario_name, options=save.options,
        plugin_manager=None,
    ) is game


@pytest.mark.parametrize("cap", [1, 0, "false", None])
def test_options_of_another_type_take_no_twin(live, cap):
    """``1`` is not ``True`` (the options are refused, or another key)."""
    ruleset, game, save = live
    assert game_module._twin(
        ruleset, save.scenario, seed=save.seed, scenario_name=save.scenario_name, options={"cap": cap},
        plugin_manager=None,
    ) is None


def test_a_scenario_marshal_refuses_takes_no_twin(live):
    """A mapping that is not a plain dict (or holds a subclass of a builtin) is never taken for
    the live game's data."""

    class Tagged(str):
        pass

    ruleset, game, save = live
    for scenario in ({**save.scenario, "name": Tagged("hill")},):
        assert game_module._twin(
            ruleset, scenario, seed=save.seed, scenario_name=save.scenario_name, options=save.options,
            plugin_manager=None,
        ) is None


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [(np.float64(0.0), np.int64(0)), (np.int64(0), np.uint64(0)), (bytes(8), bytearray(8)), (np.float64(0.0), bytes(8))],
)
def test_data_of_values_marshal_writes_as_raw_bytes_is_no_other_game_s(live, mine, theirs):
    """marshal writes anything with a buffer (a numpy scalar, bytes) as its raw bytes, so data
    holding ``np.float64(0.0)`` and data holding ``np.int64(0)`` had one form: a save of the
    one took the other as its twin, and a game without snapshots of its own restarted from the
    other's (found by session 29's review of a scenario memo keyed the same way). Such data has
    no form now: neither is taken for the other, and each game keeps its own data."""
    ruleset, game, _ = live
    first = _played(ruleset)  # (a plain game, so the key is listed)
    ours = Game.new(ruleset, {**SCENARIO, "bonus": mine}, seed=first.seed)
    for choice in first.choices:
        ours.answer(choice)
    assert ours._scenario_form() is None
    scenario = {**SCENARIO, "bonus": theirs}
    assert game_module._twin(
        ruleset, scenario, seed=ours.seed, scenario_name=None, options={}, plugin_manager=None,
    ) is None
    other = Game.new(ruleset, scenario, seed=ours.seed, snapshots=False)
    for choice in first.choices:
        other.answer(choice)
    assert not other._same_scenario(ours)
    setups = ruleset.setups
    other.undo(1)
    assert ruleset.setups == setups + 1, "the undo restarted from the other game's snapshot"
    assert type(other.scenario["bonus"]) is type(theirs) and other.scenario["bonus"] == theirs


# -- a save makes the ladder reach the present ------------------------------------------------


def _at(ruleset, answers: int, seed: int = 5, **kwargs) -> Game:
    """A game of ``ruleset`` after the first ``answers`` of a seeded random-bot game."""
    played = Game.new(ruleset, seed=seed)
    played.play({side: RandomBot(i) for i, side in enumerate(ruleset.sides)})
    game = Game.new(ruleset, seed=seed, **kwargs)
    for choice in played.choices[:answers]:
        game.answer(choice)
    return game


def _checkpoints_passed(game: Game) -> list[int]:
    """Every checkpoint the game passed (answers given there): its replay with none skipped."""
    every = game._unplayed_copy(snapshot_spacing=1)
    every._replay(list(game.choices))
    every._forget_ladder()
    return [position for position, _ in every.checkpoints]


def test_a_save_makes_the_ladder_reach_the_latest_checkpoint_and_a_load_restarts_there():
    game_module._LADDERS.clear()
    ruleset = Tally()
    game = _at(ruleset, 13)  # past a checkpoint the spaced ladder skipped
    passed = _checkpoints_passed(game)
    before = game.checkpoints
    assert before[-1][0] < passed[-1], "the ladder skipped the latest checkpoint (SNAPSHOT_SPACING)"
    text = game.save().to_json()
    assert game.checkpoints[: len(before)] == before
    assert [position for position, _ in game.checkpoints][-1] == passed[-1]
    loaded = Game.load(SaveFile.from_json(text), rulesets={ruleset.name: ruleset})
    assert loaded._log_base is not None and loaded._log_base.position == passed[-1]
    assert loaded.log_text() == game.log_text()
    game.undo(1)
    assert game.log_text() == _full(game).log_text()
    game_module._LADDERS.clear()


def _full(game: Game) -> Game:
    full = Game.new(game.ruleset, seed=game.seed, options=game.options)
    for choice in game.choices:
        full.answer(choice)
    return full


def test_a_save_replays_only_when_a_checkpoint_was_passed_since_the_ladder_s_last_snapshot(monkeypatch):
    """A save replays to the latest checkpoint only when the spaced ladder skipped one since its
    last snapshot: a second save with no answer between, and saves after answers that pass no
    checkpoint, replay nothing (an autosave after every answer pays a replay per checkpoint
    skipped, not per save); after each save the ladder ends at the latest checkpoint passed."""
    ruleset = Tally()
    played = Game.new(ruleset, seed=5)
    played.play({side: RandomBot(i) for i, side in enumerate(ruleset.sides)})
    full = Game.new(ruleset, seed=5)
    full._snapshot_spacing = 1  # every checkpoint of the game, from the first
    for choice in played.choices:
        full.answer(choice)
    every = [position for position, _ in full.checkpoints]
    full._forget_ladder()
    game = _at(ruleset, 13)
    first = game.save()
    replays: list[int] = []
    original = Game._replay
    monkeypatch.setattr(Game, "_replay", lambda self, *a, **k: replays.append(1) or original(self, *a, **k))
    assert game.save() == first
    assert replays == []
    saves = 0
    for choice in played.choices[13:]:
        game.answer(choice)
        if game.pending is None:
            break
        latest = max(position for position in every if position <= len(game.choices))
        live_last = game.checkpoints[-1][0]
        before = len(replays)
        game.save()
        saves += 1
        assert (len(replays) > before) == (latest > live_last), "a replay exactly when the ladder skipped one"
        assert game.checkpoints[-1][0] == latest, "the ladder reaches the latest checkpoint passed"
    assert 0 < len(replays) < saves
    game_module._LADDERS.clear()


def test_a_save_leaves_a_game_without_snapshots_without():
    ruleset = Tally()
    game = _at(ruleset, 13, snapshots=False)
    save = game.save()
    assert game.checkpoints == ()
    assert Game.load(save, rulesets={ruleset.name: ruleset}).log_text() == game.log_text()
    game_module._LADDERS.clear()


def test_the_first_load_of_a_save_hashes_only_the_log_since_its_restart(monkeypatch):
    """The save hashed the whole log once and kept the hash at each snapshot on the way (and at
    those its ladder gained): the load goes on from it over the lines since."""
    from wargamekit.events import Event
    from wargamekit.saves import log_hasher

    game_module._LADDERS.clear()
    ruleset = Tally()
    game = _at(ruleset, 29, seed=6)
    text = game.save().to_json()
    for snap in game._snapshots[1:]:  # every hash kept is the hash of that snapshot's lines (the first: none)
        assert snap._digest[0].hexdigest() == log_hasher(e.to_json() for e in snap.events[: snap.n_events]).hexdigest()
    lines = []
    original = Event.to_json
    monkeypatch.setattr(Event, "to_json", lambda self: lines.append(1) or original(self))
    loaded = Game.load(SaveFile.from_json(text), rulesets={ruleset.name: ruleset})
    monkeypatch.undo()
    assert len(lines) == len(loaded.log) - loaded._log_base.n_events
    assert loaded.log_text() == game.log_text()
    game_module._LADDERS.clear()


def test_an_unhashable_scenario_name_takes_no_twin(live):
    ruleset, game, save = live
    assert game_module._twin(
        ruleset, save.scenario, seed=save.seed, scenario_name=["hill"], options=save.options, plugin_manager=None,
    ) is None


# -- the digest of the lines since the snapshot, by comparison with the saved game's ----------


@pytest.mark.parametrize(
    ("other", "same"),
    [
        (Event("move", "A moves", {"n": 1, "to": [1, 2]}), True),
        (Event("move", "A moves", {"n": True, "to": [1, 2]}), False),  # == would say equal
        (Event("move", "A moves", {"n": 1.0, "to": [1, 2]}), False),
        (Event("move", "A moves", {"n": 1, "to": [1, True]}), False),
        (Event("move", "A moves", {"to": [1, 2], "n": 1}), True),  # an event keeps its data's keys sorted
        (Event("move", "A moved", {"n": 1, "to": [1, 2]}), False),
        (Event("step", "A moves", {"n": 1, "to": [1, 2]}), False),
        (Event("move", "A moves", {"n": 1, "to": [1, 2]}, audience=("a",)), False),
    ],
)
def test_same_line_is_sure_only_of_the_same_json_line(other, same):
    event = Event("move", "A moves", {"n": 1, "to": [1, 2]})
    assert game_module._same_line(event, other) is same
    if same:
        assert event.to_json() == other.to_json()


def test_a_load_s_digest_by_comparison_is_the_digest_of_its_own_lines():
    """The load restarting at a snapshot of the saved game compares its events since with that
    game's instead of writing them; any event not the same — here one whose data differs from
    the saved game's only by type (``6.0`` for ``6``), which ``==`` misses — is written and hashed."""
    from wargamekit.saves import log_digest

    ruleset = Tally()
    for answers in range(9, 30):  # where the latest checkpoint passed is the game's own snapshot
        game_module._LADDERS.clear()
        game = _at(ruleset, answers, seed=6)
        save = SaveFile.from_json(game.save().to_json())
        loaded = Game.load(save, rulesets={ruleset.name: ruleset})
        base = loaded._log_base
        if base is not None and base.events is game.log and len(game.log) > base.n_events:
            break
    assert base._saved and base._saved[0][0] == len(loaded.log) > base.n_events
    assert loaded._log_digest() == save.log_digest == log_digest(loaded.log_lines())
    last = loaded.log[-1]
    key = next(key for key, value in last.data.items() if type(value) is int)
    typed = {**last.data, key: float(last.data[key])}  # 6 -> 6.0: equal by ==, another line
    assert typed == last.data and game_module._marshal_form(typed) != game_module._marshal_form(last.data)
    loaded.context._events[-1] = Event(last.kind, last.text, typed, audience=last.audience)
    assert loaded._log_digest() == log_digest(loaded.log_lines()) != save.log_digest
    game_module._LADDERS.clear()


def test_a_save_loaded_as_it_is_takes_its_game_as_its_twin():
    """``Game.load(game.save())``, the save not written to JSON: its scenario's keys are sorted
    as its JSON's are, so it finds the live game as a parsed save does (a bundled scenario's
    data comes in its file's order)."""
    game_module._LADDERS.clear()
    ruleset = DataTally()
    game = Game.new(ruleset, seed=4)
    game.play({side: RandomBot(i) for i, side in enumerate(ruleset.sides)})
    assert list(game.scenario_data) != sorted(game.scenario_data)
    save = game.save()
    assert list(save.scenario) == sorted(save.scenario)
    structured = ruleset.structured
    loaded = Game.load(save, rulesets={ruleset.name: ruleset})
    assert loaded.scenario_data is game.scenario_data and ruleset.structured == structured
    assert loaded.log_text() == game.log_text()
    game_module._LADDERS.clear()


@pytest.mark.parametrize(
    "scenario",
    [
        {**SCENARIO, "nested": {"a": (1, 2), "b": {"c": 0.5}}},  # a tuple: the save's parse has a list
        {**SCENARIO, "nested": {1: [1, 2], 2: {"c": 0.5}}},  # int keys: the parse has "1" and "2"
        {**SCENARIO, "n": np.float64(1.0)},  # numpy's float: the parse has a float
        {**SCENARIO, "n": np.int64(1)},  # numpy's int: the parse has an int
    ],
    ids=["tuple", "int-key", "numpy-float", "numpy-int"],
)
def test_a_live_game_of_data_json_changes_is_no_save_s_twin(scenario):
    """A live game whose data a save's JSON would give back changed (a tuple, an int key, a
    numpy scalar) lends no load its data: the load structures what the save holds, as a fresh
    process would."""
    game_module._LADDERS.clear()
    ruleset = DataTally()
    game = Game.new(ruleset, scenario, seed=3)
    game.play({side: RandomBot(i) for i, side in enumerate(ruleset.sides)})
    save = SaveFile.from_json(game.save().to_json())
    structured = ruleset.structured
    loaded = Game.load(save, rulesets={ruleset.name: ruleset})
    assert loaded.scenario_data is not game.scenario_data and ruleset.structured == structured + 1
    assert _typed(loaded.scenario_data) == _typed(save.scenario)
    assert loaded.log_text() == game.log_text()  # the rules never read it
    game_module._LADDERS.clear()


def test_a_save_s_replay_copy_is_not_listed_and_evicts_no_live_game():
    """The copy a save replays for its snapshots is no game a load may start from: it is never
    listed among the live games of its inputs, so saving one of the four kept there leaves all
    four (the copy used to take a place and push the oldest out)."""
    game_module._LADDERS.clear()
    ruleset = Tally()
    choices = _at(ruleset, 13).choices
    game_module._LADDERS.clear()
    games = [Game.new(ruleset, seed=5) for _ in range(game_module._LADDER_GAMES)]
    for game in games:
        for choice in choices:
            game.answer(choice)
    key = games[0]._key()
    assert {id(g) for g in game_module._ladder_games(key)} == {id(g) for g in games}
    games[0].save()
    assert {id(g) for g in game_module._ladder_games(key)} == {id(g) for g in games}
    game_module._LADDERS.clear()
