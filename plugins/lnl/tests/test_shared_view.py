"""What a bot that promised only to read its view (``reads_view_only``) is handed in LnL: the
live state's units and markers (open information: SET 1–4 hide nothing) in a frame carrying a
read-only copy of the map (set up once, SET 2; the live map's layers stay writable)."""

from __future__ import annotations

import pytest

from wargamekit import Game, RandomBot
from wargamekit.testing import check_read_only_views
from wargamekit_lnl import LnL
from wargamekit_lnl.data import BRUSH, OPEN

RULESET = LnL()


def _layers(hexmap):
    return (hexmap.terrain, hexmap.elevation, hexmap.hexsides)


def test_the_shared_view_shares_the_units_and_hands_the_map_read_only():
    """The shared view shows what the view shows, shares the live units, and its map (the
    view's read-only copy, one per game) refuses a write; the live map is untouched."""
    state = Game.new(RULESET, "default", seed=0).state
    seen = RULESET.shared_view(state, "German")
    assert seen is not state and seen.units is state.units and seen.map is not state.map
    assert seen.map is RULESET.view(state, "German").map  # one read-only copy per game
    assert not any(layer.flags.writeable for layer in _layers(seen.map))
    assert all(layer.flags.writeable for layer in _layers(state.map))
    assert repr(seen) == repr(RULESET.view(state, "German"))
    with pytest.raises(ValueError, match="read-only"):
        seen.map.terrain[0, 0] = BRUSH


class Vandal(RandomBot):
    """Breaks the promise inside the map the game shares with every view: makes a layer
    writable again (numpy lets the array's owner) and changes a hex's terrain (open ground and
    brush swapped), once a game."""

    reads_view_only = True
    done = False

    def choose(self, decision, view):
        terrain = view.state.map.terrain
        if not Vandal.done:
            terrain.flags.writeable = True
            terrain[0, 0] = BRUSH if terrain[0, 0] != BRUSH else OPEN
            terrain.flags.writeable = False
            Vandal.done = True  # one write a game, whichever side reads first
        return super().choose(decision, view)


def test_a_bot_that_writes_inside_the_map_is_caught():
    """The read-only check pictures the map again at each game's end: a write there fails."""
    Vandal.done = False
    with pytest.raises(AssertionError, match=r"^lnl: a bot 'vandal' that promised to read its view only "
                                             r"\(reads_view_only\) changed a part the game shares with every "
                                             r"view \(seed 0\): a HexMap changed$"):
        check_read_only_views(RULESET, "default", players={"vandal": Vandal})
