"""Determinism and bad answers: same inputs give the same log; an illegal answer changes nothing."""

from __future__ import annotations

import pytest

from wargamekit import Game, RandomBot
from wargamekit.errors import IllegalChoiceError, InvalidChoiceError
from wargamekit_tank_solo import TankSolo

RULESET = TankSolo()


def _play(seed: int) -> Game:
    game = Game.new(RULESET, "default", seed=seed, options={"surrender": False, "forced_spotting": True})
    game.play({"A": RandomBot(seed), "B": RandomBot(seed + 1)})
    return game


def test_same_seed_and_answers_give_identical_log():
    """Scenario + seed + answers reproduce the game byte for byte."""
    first = _play(11)
    again = Game.new(RULESET, "default", seed=11, options={"surrender": False, "forced_spotting": True})
    for answer in first.choices:
        again.answer(answer)
    assert again.log_text() == first.log_text()
    assert _play(11).log_text() == first.log_text()


def test_free_points_over_the_cap_are_refused_and_change_nothing(new_game, pick):
    """7: a medium tank may take at most 1 free point; the refusal cites the rule, state unchanged."""
    game = new_game([("t34_85", "0603", "S")], [("tiger", "0612", "S")], dice=[3])
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    before = game.log_text()
    with pytest.raises(IllegalChoiceError, match="自由行动点"):
        game.answer(2)
    assert game.log_text() == before and game.state.free_pool == 3


def test_unreadable_answer_is_refused(new_game):
    """An answer that is not an option index is refused before anything changes."""
    game = new_game([("t34_85", "0603", "S")], [("tiger", "0612", "S")], dice=[3])
    with pytest.raises(InvalidChoiceError):
        game.answer(99)
    assert game.pending.rule.startswith("作战阶段 1")
