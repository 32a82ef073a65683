"""The state's pickling form (issue 9): a snapshot pickles the units as rows of plain values
(``GameState.__reduce__``), and a load makes the same state again."""

from __future__ import annotations

import itertools

from attrs import astuple

from wargamekit import Game, RandomBot
from wargamekit._fastpickle import dumps_sharing, loads_sharing
from wargamekit.geometry import Hex
from wargamekit.players import bot_seed
from wargamekit_lnl import LnL
from wargamekit_lnl.state import Unit


def _games(scenario: str, seed: int, decisions: int, every: int):
    """The game at every ``every``-th of the first ``decisions`` decisions of a random-bot game."""
    game = Game.new(LnL(), scenario, seed=seed)
    bots = {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(LnL.sides)}
    for i in range(decisions):
        decision = game.pending
        if decision is None:
            return
        if i % every == 0:
            yield game
        game.answer(bots[decision.side].choose(decision, None))


def _positions():
    return itertools.chain(_games("default", 3, 300, 10), _games("combined_arms", 7, 300, 10))


def test_a_state_pickled_as_rows_of_units_comes_back_the_same():
    """Every field, every unit under its key with every field (its weapons and markers equal),
    its hex a Hex, the map shared as the game shares it; at every tenth decision of a game on
    each scenario (vehicles and loose weapons in the second)."""
    shared = LnL().shared_type_set
    checked = 0
    for game in _positions():
        state = game.state
        back = loads_sharing(*dumps_sharing(state, shared))
        assert back == state and back.map is state.map
        assert list(back.units) == list(state.units)
        for name, unit in state.units.items():
            again = back.units[name]
            assert again is not unit and astuple(again, recurse=False) == astuple(unit, recurse=False)
            assert type(again.hex) is Hex
        checked += 1
    assert checked == 60


def test_no_unit_is_held_outside_the_units_table():
    """The row form makes each unit again from its row, so a unit held anywhere else in what a
    snapshot pickles (the state, the interrupt stack's answered keys) would come back as a second,
    separate object. Pickled with units as shared objects, none is met outside the rows."""
    shared = LnL().shared_type_set | {Unit}
    for game in _positions():
        parts = (game.state, game.scenario, game.context.interrupts.answered)
        _, named = dumps_sharing(parts, shared)
        assert not [obj for obj in named if isinstance(obj, Unit)]
