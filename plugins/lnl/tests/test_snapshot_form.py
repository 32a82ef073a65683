"""The state's pickling form (issue 9): a snapshot pickles the units as rows of plain values
(``GameState.__reduce__``), and a load makes the same state again."""

from __future__ import annotations

import pytest
from attrs import astuple

from wargamekit import Game, RandomBot
from wargamekit._fastpickle import dumps_sharing, loads_sharing
from wargamekit.geometry import Hex
from wargamekit.players import bot_seed
from wargamekit_lnl import LnL
from wargamekit_lnl.state import Unit


def _check_snapshot_form(game: Game) -> None:
    state, shared = game.state, LnL().shared_type_set
    back = loads_sharing(*dumps_sharing(state, shared))
    assert back == state and back.map is state.map
    assert list(back.units) == list(state.units)
    for unit, again in zip(state.units.values(), back.units.values(), strict=True):
        assert again is not unit and astuple(again, recurse=False) == astuple(unit, recurse=False)
        assert type(again.hex) is Hex
    # A row is made into a new unit, so a unit held anywhere else in what a snapshot pickles would
    # come back as a second, separate object: with units as shared objects, none may be named.
    _, named = dumps_sharing((state, game.scenario, game.context.interrupts.answered), shared | {Unit})
    assert not [obj for obj in named if isinstance(obj, Unit)]


@pytest.mark.parametrize(("scenario", "seed"), [("default", 3), ("combined_arms", 7)])
def test_a_snapshot_makes_the_same_state_again_with_its_units_from_rows(scenario, seed):
    """After every tenth answer of a random-bot game (vehicles and loose weapons on
    ``combined_arms``): the state comes back equal, the map shared as the game shares it, every
    unit under its key as a new object with every field equal (its weapons and markers) and a
    Hex; and the pickle meets no unit as an object (none held outside ``state.units``)."""
    game = Game.new(LnL(), scenario, seed=seed)
    players = {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(LnL.sides)}
    checked = []

    def every_tenth(g: Game) -> None:
        if len(g.choices) % 10 == 0:
            _check_snapshot_form(g)
            checked.append(len(g.choices))

    game.play(players, after_answer=every_tenth)
    assert len(checked) > 15
