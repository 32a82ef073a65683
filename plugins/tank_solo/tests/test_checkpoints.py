"""Restarts at checkpoints (issue 9): each turn (回合), combat step and mover opens with one, and a
restart there gives the log a full replay gives; the view a bot reads is detached from the game.
"""

from __future__ import annotations

import pytest

from wargamekit import Game
from wargamekit import game as game_module
from wargamekit.players import bot_seed
from wargamekit.testing import check_checkpoints
from wargamekit_tank_solo import TankSolo

RULESET = TankSolo()
ALL_ON = {name: True for name in RULESET.options()} | {"surrender": False}


def _bot_game(seed: int, options: dict | None = None) -> Game:
    game = Game.new(RULESET, None, seed=seed, options=options or {})
    bots = RULESET.bots()
    game.play({side: bots["bot"](bot_seed(seed, i)) for i, side in enumerate(RULESET.sides)})
    return game


def test_checkpoints_open_each_turn_phase_and_mover(monkeypatch):
    """阶段顺序: a checkpoint before the maintenance phase of each turn, before fire selection
    (作战阶段 1) and advance fire (3), and before each pick of the next mover (2-1)."""
    monkeypatch.setattr(game_module, "SNAPSHOT_SPACING", 0)  # a snapshot at every checkpoint
    monkeypatch.setattr(game_module, "SNAPSHOT_LIMIT", 10_000)
    game = _bot_game(4)
    labels = [label for _, label in game.checkpoints]
    assert labels[0] == "turn 1"
    last = max(e.data["turn"] for e in game.log if e.kind == "turn")
    assert last > 2
    for turn in range(1, last):  # the last turn may end the game in the middle
        mine = labels[labels.index(f"turn {turn}"):labels.index(f"turn {turn + 1}")]
        assert mine[:3] == [f"turn {turn}", f"turn {turn} fire selection", f"turn {turn} movement 0"]
        assert mine[-1] == f"turn {turn} advance fire"
        movers = [int(label.split()[-1]) for label in mine if " movement " in label]
        assert movers == list(range(len(movers)))


@pytest.mark.parametrize("options", [None, ALL_ON], ids=["default", "all optional rules"])
def test_a_restart_at_each_turn_plays_on_to_the_same_game(options):
    """A fork at every snapshot, given the remaining answers, is the game itself, byte for byte
    (with every optional rule on too: markers, ammunition shortage and engine turns are state)."""
    game = _bot_game(4, options)
    assert check_checkpoints(game, points=6) >= 6
    for position, label in game.checkpoints:
        forked = game.replay(game.choices[:position])
        assert forked.checkpoints[-1] == (position, label)
        for choice in game.choices[position:]:
            forked.answer(choice)
        assert forked.log_text() == game.log_text(), label


def test_the_view_is_detached_and_hides_only_the_opponent_s_rounds():
    """开场阶段 3 (rounds face down); changing a view changes nothing in the game."""
    game = _bot_game(1)
    state = game.state
    before = game.save().to_json(), RULESET.summary(state)
    mine = next(t for t in state.tanks if t.side == "A")
    seen = RULESET.view(state, "B")
    assert seen.tank(mine.id).specials == ["hidden"] * len(mine.specials)
    assert RULESET.view(state, "A").tank(mine.id).specials == mine.specials
    assert RULESET.view(state, None).tank(mine.id).specials == mine.specials
    for tank in seen.tanks:
        tank.hex, tank.specials[:], tank.tried[:], tank.path_this_turn[:] = None, [], ["x"], []
        tank.veteran_by_fire["aimed"] = 9
    seen.wrecks.clear()
    seen.score["A"] = 99
    seen.options.clear()
    seen.scenario.zones["A"] = "south"
    seen.scenario.wrecks.append("0101")
    assert (game.save().to_json(), RULESET.summary(state)) == before
    assert RULESET.view(state, "B").scenario.zones == state.scenario.zones
