"""Restarts at checkpoints (issue 9): each turn and each impulse of the operations phase (OPS 1)
opens with one, and a restart there gives the log a full replay gives."""

from __future__ import annotations

import pytest

from wargamekit import game as game_module
from wargamekit.testing import check_checkpoints, play_random_game
from wargamekit_lnl import LnL


@pytest.fixture
def every_checkpoint(monkeypatch):
    monkeypatch.setattr(game_module, "SNAPSHOT_SPACING", 0)  # a snapshot at every checkpoint
    monkeypatch.setattr(game_module, "SNAPSHOT_LIMIT", 10_000)


def test_checkpoints_open_each_turn_and_impulse(every_checkpoint):
    """SEQ 1 / OPS 1: "turn N" before the rally phase, then one before each impulse, numbered as
    the alternation numbers them; one impulse is one activation or one pass."""
    game = play_random_game(LnL(), "default", seed=3)
    labels = [label for _, label in game.checkpoints]
    impulses = [e for e in game.log if e.kind in ("activate", "pass")]
    assert labels[0] == "turn 1"
    assert len([label for label in labels if " impulse " in label]) == len(impulses)
    first_turn = labels[:labels.index("turn 2")]
    assert first_turn[1:] == [f"turn 1 impulse {n}" for n in range(1, len(first_turn))]


@pytest.mark.parametrize(("scenario", "options", "seed"), [("default", {}, 0), ("combined_arms", {}, 7),
                                                            ("default", {"unable": "pass"}, 7)])
def test_restarts_at_impulses_give_the_full_replays_log(every_checkpoint, scenario, options, seed):
    """A fork and an undo that restart at an impulse (the initiative, the impulse number, whose
    it is and the passes so far read back from the state) give the full replay's log (40 random
    positions: seed 0 restarts where passes were counted, and fails if they are not restored)."""
    game = play_random_game(LnL(), scenario, seed=seed, options=options)
    assert check_checkpoints(game, points=40) == 41
