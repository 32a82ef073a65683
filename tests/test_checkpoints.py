"""Checkpoints: restarts from snapshots give the log a full replay gives, and misuse is loud."""

from __future__ import annotations

import pytest
from attrs import define, field
from rulesets import Tally, TallyState

from wargamekit import (
    Choose,
    Game,
    IllegalChoiceError,
    InvalidChoiceError,
    Outcome,
    RandomBot,
    Response,
    Ruleset,
    SaveFile,
    hookimpl,
    plugin_manager,
)
from wargamekit import game as game_module
from wargamekit.errors import CheckpointError
from wargamekit.testing import check_checkpoints, check_ruleset, play_random_game


class LocalCounter(Tally):
    """Broken on purpose: the turn count lives in a local variable, so a restart at "turn 4"
    counts from 1 again and logs "Turn 1" where a full replay logs "Turn 4"."""

    name = "local_counter"

    def play(self, ctx):
        state = ctx.state
        counted = 0
        while state.turn < self.turns:
            yield ctx.checkpoint(f"turn {state.turn + 1}")
            state.turn += 1
            counted += 1
            ctx.event("turn", f"Turn {counted}", turn=counted)
            for side in self.sides:
                state.tally[side] += yield Choose.of(side, "Add?", [1, 2], kind="tally.add",
                                                      data=lambda v: {"add": v})
        return Outcome(winner=None, reason="ten turns")


class EventBeforeCheckpoint(Tally):
    """Broken on purpose: announces the game before its first checkpoint on every run, so a
    restart logs it again."""

    name = "event_before"

    def play(self, ctx):
        ctx.event("start", "The game begins")
        return (yield from super().play(ctx))


def _played(ruleset: Ruleset, seed: int = 1, **kwargs) -> Game:
    game = Game.new(ruleset, seed=seed, **kwargs)
    game.play({side: RandomBot(i) for i, side in enumerate(ruleset.sides)})
    return game


def _full_replay(game: Game) -> Game:
    full = Game.new(game.ruleset, seed=game.seed, options=game.options)
    for choice in game.choices:
        full.answer(choice)
    return full


def test_snapshots_at_checkpoints_are_spaced_and_labelled():
    game = _played(Tally())
    assert game.checkpoints[0] == (0, "turn 1")
    positions = [p for p, _ in game.checkpoints]
    assert all(b - a >= game_module.SNAPSHOT_SPACING for a, b in zip(positions, positions[1:], strict=False))
    # 2 answers a turn (and a bonus answer): a snapshot every 4th-5th turn, never a turn skipped
    assert [label for _, label in game.checkpoints][:2] == ["turn 1", "turn 5"]


def test_undo_and_fork_restart_at_the_latest_snapshot_and_match_a_full_replay():
    ruleset = Tally()
    game = _played(ruleset)
    setups = ruleset.setups
    text = game.log_text()
    forked = game.fork()
    assert forked.log_text() == text
    forked.undo(3)
    assert ruleset.setups == setups, "a fork or an undo past the first snapshot never calls setup()"
    assert forked.log_text() == _full_replay(forked).log_text()
    assert forked.pending is not None and forked.choices == game.choices[:-3]
    assert game.log_text() == text, "the original is untouched"


def test_a_game_without_snapshots_keeps_none_and_logs_what_a_game_with_them_logs():
    """``Game.new(..., snapshots=False)`` (a balance study's games): no snapshot at any
    checkpoint, in the game or its forks; undo, fork and replay start from the first answer
    (setup() runs again) and give the logs a game with snapshots gives."""
    ruleset = Tally()
    dropped = _played(ruleset, seed=7, snapshots=False)
    assert dropped.checkpoints == ()
    setups = ruleset.setups
    forked = dropped.fork()
    forked.undo(3)
    assert ruleset.setups == setups + 2, "no snapshot: the fork and the undo replay from setup()"
    assert forked.checkpoints == ()
    kept = _played(ruleset, seed=7)
    assert kept.checkpoints
    assert dropped.log_text() == kept.log_text() and dropped.choices == kept.choices
    kept_fork = kept.fork()
    kept_fork.undo(3)
    assert forked.log_text() == kept_fork.log_text() == _full_replay(forked).log_text()


@pytest.mark.parametrize("name", ["tank_solo", "mttt_rpg"])
def test_a_random_game_without_snapshots_logs_what_one_with_them_logs(name):
    """``play_random_game(..., snapshots=False)`` (what ``tools/speed/games.py`` plays to count
    the snapshots' share) takes none and plays the same game."""
    from wargamekit.plugins import installed_rulesets

    ruleset = installed_rulesets()[name]
    kept = play_random_game(ruleset, seed=3)
    dropped = play_random_game(ruleset, seed=3, snapshots=False)
    assert kept.checkpoints and dropped.checkpoints == ()
    assert dropped.log_text() == kept.log_text() and dropped.choices == kept.choices


def test_a_game_without_snapshots_restarts_from_those_of_a_game_of_its_inputs():
    """As a load does, a restart of a game that keeps none starts from the snapshots of a live
    game of the same inputs in the process (``snapshots=False`` takes none; it refuses none)."""
    ruleset = Tally()
    kept = _played(ruleset, seed=8)
    dropped = _played(ruleset, seed=8, snapshots=False)
    setups = ruleset.setups
    dropped.undo(3)
    assert ruleset.setups == setups, "restarted from the kept game's snapshot"
    assert dropped.log_text() == _full_replay(dropped).log_text()
    # it holds the snapshots it restarted from (shared, immutable), none of its own
    assert dropped.checkpoints and dropped.checkpoints == kept.checkpoints[: len(dropped.checkpoints)]


def test_check_checkpoints_checks_a_game_without_snapshots_as_played_with_them():
    """``check_checkpoints`` on a game that took none compares the restarts of the same game
    played with snapshots (it would otherwise find none and pass having checked nothing)."""
    dropped = _played(Tally(), seed=9, snapshots=False)
    assert dropped.checkpoints == ()
    assert check_checkpoints(dropped) == check_checkpoints(_played(Tally(), seed=9)) > 0
    broken = _played(LocalCounter(), seed=9, snapshots=False)
    with pytest.raises(AssertionError, match="turn 5"):
        check_checkpoints(broken)


def test_a_save_with_a_cache_of_a_game_without_snapshots_stores_them(tmp_path):
    """A save given a snapshot cache replays a game that took no snapshots once, to take them:
    the entry is written, and a load in a fresh process would start from it."""
    from wargamekit.snapshot_cache import SnapshotCache

    cache = SnapshotCache(tmp_path / "cache")
    ruleset = Tally()
    dropped = _played(ruleset, seed=10, snapshots=False)
    save = dropped.save(snapshots=cache)
    assert cache.stats.written == 1 and len(cache.entries()) == 1
    game_module._LADDERS.clear()  # as in a fresh process: no game of these inputs
    fresh = SnapshotCache(tmp_path / "cache")
    loaded = Game.load(save, rulesets={"tally": ruleset}, snapshots=fresh)
    assert fresh.stats.hits == 1 and fresh.stats.last_position > 0
    assert loaded.log_text() == dropped.log_text()


@pytest.mark.parametrize("bad", [0, 1, None, "no"])
def test_snapshots_must_be_true_or_false(bad):
    ruleset = Tally()
    with pytest.raises(InvalidChoiceError, match=r"^snapshots: expected True or False, got "):
        Game.new(ruleset, snapshots=bad)
    assert ruleset.setups == 0, "refused before anything was set up"


def test_the_answered_keys_of_the_interrupt_stack_survive_a_restart():
    game = _played(Tally(), seed=4)
    offered = [e for e in game.log if e.kind == "stack-push"]
    assert len(offered) <= 1
    assert check_checkpoints(game, points=6) >= 6


def test_a_rejected_answer_rebuilds_from_a_snapshot_and_leaves_the_game_as_it_was():
    ruleset = Tally()
    game = Game.new(ruleset, seed=2, options={"cap": True})
    while game.state.tally["a"] < 15 or game.pending.side != "a" or game.pending.kind != "tally.add":
        game.answer(1 if game.pending.kind == "tally.add" else 0)
    text, setups = game.log_text(), ruleset.setups
    with pytest.raises(IllegalChoiceError, match="tally cap"):
        game.answer(1)
    assert game.log_text() == text
    assert ruleset.setups == setups
    game.answer(0)
    assert game.log_text() == _full_replay(game).log_text()


def test_load_in_the_same_process_starts_from_the_last_game_s_snapshots():
    ruleset = Tally()
    game = _played(ruleset)
    save = SaveFile.from_json(game.save().to_json())
    setups = ruleset.setups
    loaded = Game.load(save, rulesets={ruleset.name: ruleset})
    assert ruleset.setups == setups
    assert loaded.log_text() == game.log_text()
    assert loaded.outcome == game.outcome


def test_load_with_no_game_of_those_inputs_in_the_process_replays_from_the_start():
    ruleset = Tally()
    game = _played(ruleset)
    save = SaveFile.from_json(game.save().to_json())
    text = game.log_text()
    del game
    game_module._LADDERS.clear()
    setups = ruleset.setups
    loaded = Game.load(save, rulesets={ruleset.name: ruleset})
    assert ruleset.setups == setups + 1
    assert loaded.log_text() == text


def test_observers_hear_nothing_from_a_restart():
    heard = []

    class Observer:
        @hookimpl
        def wargamekit_event(self, game, event):
            heard.append(event)

    pm = plugin_manager(load_entry_points=False, plugins=[Observer()])
    game = _played(Tally(), plugin_manager=pm)
    assert heard == game.log
    told = len(heard)
    game.undo(5)
    game.fork()
    assert len(heard) == told
    game.answer(game.choices and 0)
    assert heard[told:] == game.log[len(game.log) - (len(heard) - told):]


def test_a_state_pickle_refuses_is_copied_the_slow_way():
    ruleset = Tally()
    game = Game.new(ruleset, seed=3)
    game.state.note = lambda: "not picklable"
    for _ in range(12):
        game.answer(0)
    assert game._snapshots[-1].pickled is False
    forked = game.fork()
    assert forked.log_text() == game.log_text()
    assert forked.state.note() == "not picklable"


@define(eq=False)
class Board:
    """A static part of the state (never changed in play)."""

    cells: list[int] = field(factory=lambda: list(range(100)))


@define
class BoardState(TallyState):
    board: Board = field(factory=Board)


class SharedBoard(Tally):
    """Tally with a static board in its state, declared a shared type."""

    name = "shared_board"
    shared_types = (Board,)

    def setup(self, scenario, options):
        self.setups += 1
        return BoardState(tally={"a": 0, "b": 0})


def test_a_restart_shares_the_ruleset_s_shared_types_and_copies_the_rest():
    """``Ruleset.shared_types``: snapshots keep the static board by reference (every restart
    holds the game's own board) and copy the rest; the logs are those of a full replay."""
    game = _played(SharedBoard())
    assert all(snap.shared == (game.state.board,) for snap in game._snapshots)
    forked = game.fork()
    forked.undo(3)
    assert forked.state.board is game.state.board
    assert forked.state is not game.state and forked.state.tally is not game.state.tally
    assert forked.log_text() == _full_replay(forked).log_text()
    assert check_checkpoints(game, points=4) >= 4
    plain = _played(Tally())
    assert all(snap.shared == () for snap in plain._snapshots), "nothing is shared unless declared"


def test_a_ruleset_without_checkpoints_replays_from_the_start_as_before():
    from rulesets import DiceRace

    game = play_random_game(DiceRace(), seed=2)
    assert game.checkpoints == ()
    assert game.fork().log_text() == game.log_text()


def test_check_ruleset_compares_restarts_with_full_replays():
    report = check_ruleset(Tally(), games=4, deep_checks=2)
    assert report.restarts >= 2 * 4


def test_a_local_counter_kept_across_checkpoints_is_caught_with_the_checkpoint_named():
    with pytest.raises(AssertionError) as caught:
        check_ruleset(LocalCounter(), games=1, deep_checks=1)
    message = str(caught.value)
    assert "restarting at checkpoint 'turn " in message
    assert "full replay:" in message and "local variable" in message


def test_a_restart_that_logs_before_its_checkpoint_is_refused_and_the_game_is_unchanged():
    game = _played(EventBeforeCheckpoint())
    text = game.log_text()
    with pytest.raises(CheckpointError, match=r"restarted at checkpoint 'turn \d+'.*logged 'The game begins'"):
        game.undo(1)
    assert game.log_text() == text and game.over
    with pytest.raises(AssertionError, match="logged 'The game begins'"):
        check_checkpoints(game)


def test_a_restart_that_reaches_another_checkpoint_first_is_refused():
    class WrongLabel(Tally):
        name = "wrong_label"

        def play(self, ctx):
            if ctx.state.turn:
                yield ctx.checkpoint("somewhere else")
            return (yield from super().play(ctx))

    game = _played(WrongLabel())
    with pytest.raises(CheckpointError, match="yielded Checkpoint\\(label='somewhere else'\\) first"):
        game.fork()


def test_a_checkpoint_needs_a_label_and_an_empty_interrupt_stack():
    class Bad(Tally):
        name = "bad_checkpoint"

        def __init__(self, label="", inside_window=False):
            super().__init__()
            self.label, self.inside_window = label, inside_window

        def play(self, ctx):
            if self.inside_window:
                ctx.interrupts.items.append(Response("stuck", "a", resolve=lambda: None))
            yield ctx.checkpoint(self.label)
            return Outcome(winner=None, reason="none")

    with pytest.raises(CheckpointError, match="non-empty label"):
        Game.new(Bad(""), seed=0)
    with pytest.raises(CheckpointError, match="inside a response window"):
        Game.new(Bad("turn 1", inside_window=True), seed=0)


def test_a_checkpoint_inside_a_secret_roll_block_is_refused():
    class Secret(Tally):
        name = "secret_checkpoint"

        def play(self, ctx):
            with ctx.dice.secret("a"):
                yield ctx.checkpoint("turn 1")
            return Outcome(winner=None, reason="none")

    with pytest.raises(CheckpointError, match=r"inside a dice.secret\(\) block"):
        Game.new(Secret(), seed=0)


def test_a_restart_gives_the_dice_the_record_of_rolls_a_full_replay_gives():
    game = _played(Tally(), seed=5)
    forked = game.replay(game.choices[:-3])
    assert forked.dice.rolls == _full_replay(forked).dice.rolls
    assert len(forked.dice.rolls) > 0


def test_the_ladder_stays_bounded_and_dense_near_the_present():
    class Long(Tally):
        name = "long_tally"
        turns = 400

        def play(self, ctx):
            state = ctx.state
            while state.turn < self.turns:
                yield ctx.checkpoint(f"turn {state.turn + 1}")
                state.turn += 1
                for side in self.sides:
                    state.tally[side] += yield Choose.of(side, "Add?", [1, 2], kind="tally.add",
                                                          data=lambda v: {"add": v})
            return Outcome(winner=None, reason="done")

    game = _played(Long())
    positions = [p for p, _ in game.checkpoints]
    assert len(positions) <= game_module.SNAPSHOT_LIMIT
    assert positions[0] == 0
    assert len(game.choices) - positions[-1] <= game_module.SNAPSHOT_SPACING
    forked = game.replay(game.choices[:500])
    assert forked.log_text() == _full_replay(forked).log_text()


def test_the_skirmish_restarts_at_its_game_turns_and_impulses():
    from wargamekit_skirmish import Skirmish

    game = play_random_game(Skirmish(), seed=3)
    labels = [label for _, label in game.checkpoints]
    assert labels[:2] == ["turn 1", "turn 1 impulse 3"]
    assert "turn 2" in labels and "turn 3" in labels
    assert check_checkpoints(game, points=12) >= 12
    # a restart at every snapshot, played on to the end, is the game itself
    for position, label in game.checkpoints:
        forked = game.replay(game.choices[:position])
        assert forked.checkpoints[-1] == (position, label)
        for choice in game.choices[position:]:
            forked.answer(choice)
        assert forked.log_text() == game.log_text(), label


def test_a_save_whose_choice_does_not_replay_names_it_when_the_load_starts_from_a_snapshot():
    import attrs

    from wargamekit import SaveError

    ruleset = Tally()
    game = _played(ruleset)
    save = SaveFile.from_json(game.save().to_json())
    bad = list(save.choices)
    bad[15] = 7
    broken = attrs.evolve(save, choices=bad)
    setups = ruleset.setups
    with pytest.raises(SaveError, match=r"\$\.choices\[15\] does not replay"):
        Game.load(broken, rulesets={ruleset.name: ruleset})
    assert ruleset.setups == setups, "the load started from the played game's snapshot"


class CountingTally(Tally):
    """Tally counting how often its scenario is structured."""

    name = "counting_tally"

    def __init__(self) -> None:
        super().__init__()
        self.structured = 0

    def load_scenario(self, data, *, source=None):
        self.structured += 1
        return super().load_scenario(data, source=source)


def test_a_load_of_a_live_game_s_save_reuses_its_checked_scenario_and_its_snapshots():
    ruleset = CountingTally()
    game = _played(ruleset)
    save = SaveFile.from_json(game.save().to_json())
    structured, setups = ruleset.structured, ruleset.setups
    loaded = Game.load(save, rulesets={ruleset.name: ruleset})
    assert (ruleset.structured, ruleset.setups) == (structured, setups)
    assert loaded.log_text() == game.log_text()
    game_module._LADDERS.clear()
    Game.load(save, rulesets={ruleset.name: ruleset})
    assert (ruleset.structured, ruleset.setups) == (structured + 1, setups + 1)


def test_a_loaded_game_dropped_does_not_hide_the_game_still_played():
    import gc

    ruleset = Tally()
    game = _played(ruleset)
    save = SaveFile.from_json(game.save().to_json())
    rulesets = {ruleset.name: ruleset}
    Game.load(save, rulesets=rulesets)  # registers itself, then is dropped
    gc.collect()
    setups = ruleset.setups
    assert Game.load(save, rulesets=rulesets).log_text() == game.log_text()
    assert ruleset.setups == setups, "the load started from the played game's snapshot"


def test_a_load_from_a_snapshot_checks_the_digest_of_the_whole_log():
    import attrs

    from wargamekit import SaveError
    from wargamekit.saves import log_digest

    ruleset = Tally()
    game = _played(ruleset)
    save = SaveFile.from_json(game.save().to_json())
    rulesets = {ruleset.name: ruleset}
    loaded = Game.load(save, rulesets=rulesets)
    assert loaded._log_base is not None, "the load started from a snapshot"
    assert loaded._log_digest() == log_digest(loaded.log_lines()) == save.log_digest
    # The last answer changed to the other legal one: the choices replay, to another log.
    other = attrs.evolve(save, choices=[*save.choices[:-1], 1 - save.choices[-1]])
    setups = ruleset.setups
    with pytest.raises(SaveError, match=r"\$\.log_digest: the save's choices replay to another log"):
        Game.load(other, rulesets=rulesets)
    assert ruleset.setups == setups, "the refused load started from a snapshot too"
    wrong = attrs.evolve(save, log_digest="sha256:" + "0" * 64)
    with pytest.raises(SaveError, match=r"\$\.log_digest"):
        Game.load(wrong, rulesets=rulesets)
