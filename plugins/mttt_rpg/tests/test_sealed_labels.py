"""战斗行动 / 攻击: the odds in an attack's label (``combat_actions._attack_label``) are made from
the scene with the attack's action, which the action menu makes from its key only when it is read,
while the decision is pending. The action is a plain value: read after the answer it is the one
offered, never made again from a later scene; one not made by the answer is sealed with the menu
(the coverage row "exact odds before committing")."""

import re

import numpy as np
import pytest

from wargamekit import Game, RandomBot, StaleOptionError
from wargamekit_mttt_rpg import MtttRpg, combat_actions, kinds


def _menu_with_two_attacks() -> tuple[Game, list[int]]:
    """A duel played by random bots to an action menu offering two attacks or more, and their
    indices (found in the eager list of actions: nothing of the menu is read)."""
    for seed in range(20):
        game = Game.new(MtttRpg(), "duel", seed=seed, options={"interrupts": False})
        bot = RandomBot(seed)
        while game.pending is not None:
            decision = game.pending
            if decision.kind == kinds.ACTION:
                unit = game.state.unit(decision.context["unit"])
                actions = combat_actions.legal_actions(game.context, unit)
                attacks = [i for i, action in enumerate(actions) if action.kind == "attack"]
                if len(attacks) >= 2:
                    return game, attacks
            game.answer(bot.choose(decision, game.view(decision.side)))
    raise AssertionError("no duel offered two attacks")


def test_an_attack_read_while_pending_keeps_its_odds_and_one_not_read_is_sealed():
    game, (first, second, *_) = _menu_with_two_attacks()
    decision = game.pending
    unit = game.state.unit(decision.context["unit"])
    eager = [action.text for action in combat_actions.legal_actions(game.context, unit)]
    action = decision.value_of(first)  # read while pending: made now, its odds with it
    label = action.text
    assert label == action.label == eager[first] and re.search(r"\(\d+% vs passive defense", label)
    others = [i for i, text in enumerate(eager) if not text.startswith(("withering", "decisive", "aim", "slaughter"))]
    game.answer(others[0] if others else first)
    for _ in range(6):  # play on: the scene moves on
        if game.pending is None:
            break
        game.answer(RandomBot(1).choose(game.pending, game.view(game.pending.side)))
    assert decision.value_of(first) is action and action.text == label  # a plain value: the same for ever
    with pytest.raises(StaleOptionError, match=rf"^{re.escape(decision.prompt)} \[{re.escape(decision.rule)}\]: "
                       rf"option {second}'s value .* is lazy and was not made before the decision was answered"):
        decision.value_of(second)


def test_the_chosen_action_read_from_its_decision_after_the_answer_is_the_one_offered():
    """The reviewer's case: a random game keeps each chosen attack's decision, the action's text
    read while pending; read again from the decision once the game is over, it is the text
    offered (it was made again from the live scene, showing the odds of a later one)."""
    held = []
    for seed in range(6):
        game = Game.new(MtttRpg(), seed=seed)
        rng = np.random.default_rng(seed)
        while game.pending is not None:
            decision = game.pending
            answer = decision.random_answer(rng)
            if decision.kind == kinds.ACTION:
                action = decision.value_of(answer)
                if action.kind == "attack" and action.target is not None:
                    held.append((decision, answer, action.text))
            game.answer(answer)
    assert len(held) > 20
    assert [decision.value_of(answer).text for decision, answer, _ in held] == [text for _, _, text in held]
