"""Both exact-odds bots beat the random bot (quick check; `wargamekit simulate tank_solo` measures more, see docs/rulesets/tank_solo.md)."""

from __future__ import annotations

import pytest

from wargamekit import Game, RandomBot
from wargamekit.players import bot_seed
from wargamekit_tank_solo import TankSolo, kinds
from wargamekit_tank_solo.bot_common import STATELESS_KINDS, common_answer, stateless_answer
from wargamekit_tank_solo.bots import HeuristicBot
from wargamekit_tank_solo.cautious_bot import CautiousBot

RULESET = TankSolo()


@pytest.mark.parametrize("bot", [HeuristicBot, CautiousBot], ids=["heuristic", "cautious"])
def test_bot_beats_random(bot):
    """Over 20 seeded duel games, alternating sides, the bot wins at least 16."""
    wins = 0
    for seed in range(20):
        bot_side, other = ("A", "B") if seed % 2 == 0 else ("B", "A")
        game = Game.new(RULESET, "duel", seed=seed, options={"surrender": False})
        outcome = game.play({bot_side: bot(seed), other: RandomBot(seed)})
        wins += outcome.winner == bot_side
    assert wins >= 16


def test_bots_are_registered():
    """The CLI's ``bot`` (and ``heuristic``) is the heuristic bot; ``cautious`` is the cautious bot."""
    bots = RULESET.bots()
    assert bots["bot"] is HeuristicBot and bots["heuristic"] is HeuristicBot
    assert bots["cautious"] is CautiousBot


@pytest.mark.parametrize("bot", [HeuristicBot, CautiousBot], ids=["heuristic", "cautious"])
def test_bots_read_the_state_only_where_they_need_it(bot):
    """The kinds of ``STATELESS_KINDS`` are answered from the decision alone (no view is built
    for them: a view is most of such a decision's cost), the same as with the state at hand."""
    reads: dict[str, int] = {}

    class Counting:
        def __init__(self, view):
            self.view = view

        def __getattr__(self, name):
            if name == "state":
                reads[self.view.decision.kind] = reads.get(self.view.decision.kind, 0) + 1
            return getattr(self.view, name)

    game = Game.new(RULESET, None, seed=3)
    players = {side: bot(bot_seed(3, i)) for i, side in enumerate(RULESET.sides)}
    asked: set[str] = set()
    while game.pending is not None:
        decision = game.pending
        asked.add(decision.kind)
        view = game.view(decision.side)
        answer = players[decision.side].choose(decision, Counting(view))
        if decision.kind in STATELESS_KINDS:  # the answer given with the state read is the same
            assert common_answer(view.state, decision, bot(0).rng) == stateless_answer(decision, bot(0).rng)
        game.answer(answer)
    assert {kinds.PICK_TANK, kinds.DEPLOY_FACING, kinds.NEXT_MOVER, kinds.FREE_POINTS} <= asked
    assert not set(reads) & STATELESS_KINDS
    assert kinds.MOVE_STEP in reads and kinds.DEPLOY_HEX in reads
