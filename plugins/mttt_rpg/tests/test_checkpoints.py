"""Restart points (issue 9): a checkpoint at each round and at each turn (阶段2：行动轮)."""

from __future__ import annotations

import re

import pytest

import wargamekit.game as game_module
from wargamekit.testing import check_checkpoints, play_random_game
from wargamekit_mttt_rpg import MtttRpg

RULESET = MtttRpg()
TURN = re.compile(r"round (\d+), tick (-?\d+): (\w+)'s turn")


@pytest.fixture
def every_checkpoint(monkeypatch):
    """Keep a snapshot at every checkpoint (none skipped for spacing, none thinned)."""
    monkeypatch.setattr(game_module, "SNAPSHOT_SPACING", 1)
    monkeypatch.setattr(game_module, "SNAPSHOT_LIMIT", 10**6)


def test_each_turn_opens_with_a_checkpoint(every_checkpoint):
    """Every turn taken (the log's "turn" events) has its checkpoint, labelled with the round,
    the tick and the unit, unless an earlier checkpoint holds the same position."""
    game = play_random_game(RULESET, "duel", seed=3)
    labels = [label for _, label in game.checkpoints]
    turns = [e.data for e in game.log if e.kind == "turn"]
    assert any(TURN.fullmatch(label) for label in labels)
    for label in labels:
        m = TURN.fullmatch(label)
        if m:
            assert {"round": int(m[1]), "tick": int(m[2]), "unit": m[3]} in turns
    assert len(labels) == len(set(game.checkpoints))


def test_a_restart_at_the_second_turn_of_a_tick_plays_on_from_the_scene_alone(every_checkpoint):
    """先导度变动和同步动作: actors tied on a tick act in the order settled when the tick came
    (kept in the scene, ``scene.waiting``). A restart at the second one's turn goes on with her,
    not with a tick drawn again from the track; its log is the full replay's, byte for byte."""
    for seed in range(60):
        game = play_random_game(RULESET, "default", seed=seed)
        found = [
            (p, label)
            for (q, before), (p, label) in zip(game.checkpoints, game.checkpoints[1:], strict=False)
            if (a := TURN.fullmatch(before)) and (b := TURN.fullmatch(label))
            and a.group(1, 2) == b.group(1, 2) and a[3] != b[3] and p > q
        ]
        if found:
            break
    else:
        pytest.fail("no game of 60 seeds has two turns at one tick with an answer between them")
    position, label = found[0]
    restarted = game.fork()
    restarted.undo(len(game.choices) - position)  # replays from the snapshot at that turn
    assert restarted.checkpoints[-1] == (position, label)
    assert restarted.log_lines() == game.log_lines()[: len(restarted.log)]
    for choice in game.choices[position:]:
        restarted.answer(choice)
    assert restarted.log_text() == game.log_text()


@pytest.mark.parametrize("scene", ["duel", "default", "battle"])
def test_restarts_at_random_checkpoints_give_the_full_replays_log(scene, every_checkpoint):
    """The core's check: restarts at random positions (each from the latest checkpoint before
    it, a turn's or a round's) give the log a replay from the start gives."""
    for seed in range(3):
        game = play_random_game(RULESET, scene, seed=seed)
        assert check_checkpoints(game, points=8) > 0
