"""Restarts at checkpoints (issue 9): each game turn (§3) and each command phase (§3.2, §5.2)
opens with one, and a restart there gives the log a full replay gives."""

from __future__ import annotations

import pytest

from wargamekit import game as game_module
from wargamekit.testing import check_checkpoints, play_random_game
from wargamekit_aig import Aig


@pytest.fixture
def every_checkpoint(monkeypatch):
    monkeypatch.setattr(game_module, "SNAPSHOT_SPACING", 0)  # a snapshot at every checkpoint
    monkeypatch.setattr(game_module, "SNAPSHOT_LIMIT", 10_000)


def test_checkpoints_open_each_turn_and_command_phase(every_checkpoint):
    """§3: "turn N" before the leader action phase; §5.1.2: one before each command phase of an
    activation, named by the turn, the leader and the phase number (also before the check that
    ends the activation)."""
    game = play_random_game(Aig(), "training", seed=2)
    labels = set(label for _, label in game.checkpoints)
    turn = 0
    phases = 0
    for event in game.log:
        if event.kind == "turn" and "turn" in event.data and event.text.startswith("Turn"):
            turn = event.data["turn"]
            assert f"turn {turn}" in labels
        if event.kind == "command-phase":
            phases += 1
            assert f"turn {turn} {event.data['leader']} command phase {event.data['phase']}" in labels
    assert phases > 10


@pytest.mark.parametrize("seed", [1, 4])
def test_restarts_at_command_phases_give_the_full_replays_log(every_checkpoint, seed):
    """A fork and an undo that restart at a command phase (the activation sequence and the
    activation under way read back from the state) give the full replay's log."""
    game = play_random_game(Aig(), "training", seed=seed)
    assert check_checkpoints(game, points=8) == 9
