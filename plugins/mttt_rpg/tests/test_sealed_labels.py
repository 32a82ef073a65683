"""战斗行动 / 攻击: the odds in an attack's label (a lazy label, ``combat_actions._attack_label``)
are made from the scene when read; the answer seals the action menu, so a label read after it
is never made from the scene as it is later (the coverage row "exact odds before committing")."""

import re

import pytest

from wargamekit import Game, RandomBot, StaleOptionError
from wargamekit_mttt_rpg import MtttRpg, combat_actions, kinds


def _menu_with_two_attacks() -> tuple[Game, list[int]]:
    """A duel played by random bots to an action menu offering two attacks or more, and their
    indices (their data read, their labels not)."""
    for seed in range(20):
        game = Game.new(MtttRpg(), "duel", seed=seed, options={"interrupts": False})
        bot = RandomBot(seed)
        while game.pending is not None:
            decision = game.pending
            if decision.kind == kinds.ACTION:
                attacks = [i for i, option in enumerate(decision.options) if option.data["action"] == "attack"]
                if len(attacks) >= 2:
                    return game, attacks
            game.answer(bot.choose(decision, game.view(decision.side)))
    raise AssertionError("no duel offered two attacks")


def test_an_attack_label_read_after_the_answer_raises_and_read_while_pending_is_the_eager_text():
    game, (first, second, *_) = _menu_with_two_attacks()
    decision = game.pending
    unit = game.state.unit(decision.context["unit"])
    eager = {a.target + a.kind_of_attack: a.text for a in combat_actions.legal_actions(game.context, unit) if a.kind == "attack"}
    option = decision.options[first]
    label = option.label  # read while pending: the text an eager menu gives (its odds made now)
    assert label == eager[option.data["target"] + option.data["attack"]]
    assert re.search(r"\(\d+% vs passive defense", label)
    others = [i for i, o in enumerate(decision.options) if o.data["action"] not in ("attack", "aim")]
    game.answer(others[0] if others else first)
    for _ in range(6):  # play on: the scene moves on
        if game.pending is None:
            break
        game.answer(RandomBot(1).choose(game.pending, game.view(game.pending.side)))
    assert decision.options[first].label == label  # made before the answer: the same for ever
    with pytest.raises(StaleOptionError, match=rf"^{re.escape(decision.prompt)} \[{re.escape(decision.rule)}\]: "
                       rf"option {second}'s label .* was made lazily and not read before the decision was answered"):
        decision.options[second].label  # noqa: B018 - the read is what raises
