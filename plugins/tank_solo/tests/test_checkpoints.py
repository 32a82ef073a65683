"""Restarts at checkpoints (issue 9): each turn (回合), combat step, mover, step of a move and leap
target opens with one, and a restart there gives the log a full replay gives; the view a bot reads
is detached from the game.
"""

from __future__ import annotations

import copy

import pytest

from wargamekit import Game
from wargamekit import game as game_module
from wargamekit.players import bot_seed
from wargamekit.testing import check_checkpoints, play_random_game
from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.maps import hex_label

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
    labels = [label for _, label in game.checkpoints if not label.startswith("opening: ")]  # those: below
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


def test_a_restart_inside_a_leap_fire_goes_on_with_it(monkeypatch, new_game, pick):
    """作战阶段 1-2 注2: the leap under way (its start, the targets tried, the target named) and
    its move are state, with a checkpoint before each target is named and each step; a fork
    there is the game itself, back to the start and all."""
    monkeypatch.setattr(game_module, "SNAPSHOT_SPACING", 0)  # a snapshot at every checkpoint
    game = new_game([("bt7", "0601", "S")], [("tiger", "0612", "N")], dice=[3])
    pick(game, "leap fire with BT-7 #1")
    pick(game, "leap toward Tiger I #2")
    pick(game, "forward to 0602")
    assert [label for _, label in game.checkpoints][-4:] == [
        "turn 1 fire selection", "turn 1 leap fire of #1, target 1", "turn 1 #1 step 0", "turn 1 #1 step 1"]
    assert game.state.leap.target == 2 and game.state.moving.budget.remaining == 4  # 5 MP, one step
    forked = game.fork()
    assert forked.checkpoints[-1] == game.checkpoints[-1]
    assert (forked.state.leap, forked.state.moving) == (game.state.leap, game.state.moving)
    for played in (game, forked):
        pick(played, "stops and fires")
        pick(played, "holds fire")
        assert hex_label(played.state.tank(1).hex) == "0601"  # back to the start (注2)
        assert (played.state.leap, played.state.moving) == (None, None)
        assert played.state.tank(1).tried == ["leap"]
    assert forked.log_text() == game.log_text()


@pytest.mark.parametrize(("seed", "options"), [(8, None), (3, ALL_ON)], ids=["default", "all optional rules"])
def test_a_restart_at_each_step_of_a_move_or_leap_plays_on_to_the_same_game(monkeypatch, seed, options):
    """2-1 (moves, under defensive fire 2-2) and 1-2 (leaps): a checkpoint before each step and
    each leap target named. A fork at them (some 15 of each game), given the remaining answers, is the game itself,
    byte for byte, in a random-bot game (random bots leap; every optional rule on too: engine
    checks after a move, forced spotting)."""
    monkeypatch.setattr(game_module, "SNAPSHOT_SPACING", 0)
    monkeypatch.setattr(game_module, "SNAPSHOT_LIMIT", 10_000)
    game = play_random_game(RULESET, seed=seed, options=options, check_invariants=False)
    last = {position: label for position, label in game.checkpoints}  # the latest at each position
    inside = [(p, label) for p, label in last.items() if " step " in label or "leap fire of" in label]
    assert any(" step " in label for _, label in inside) and any("leap fire of" in label for _, label in inside)
    for position, label in inside[:: max(1, len(inside) // 15)]:  # some 15 of them, spread over the game
        forked = game.replay(game.choices[:position])
        assert forked.checkpoints[-1] == (position, label)
        for choice in game.choices[position:]:
            forked.answer(choice)
        assert forked.log_text() == game.log_text(), label


# -- the opening (游戏开场阶段): half of a short game's decisions ----------------------------------
#: the opening's decisions that a checkpoint opens, and the start of its label
_OPENING_LABELS = {"tank_solo.pick_tank": " picks tank ", "tank_solo.deploy_hex": "opening: deploy #",
                   "tank_solo.load_special": " loads round "}


def _opening_game(monkeypatch, seed: int, options: dict | None = None) -> tuple[Game, list]:
    """A random-bot game with a snapshot at every checkpoint, and its decisions, position by
    position (copies taken while pending, every option made: an answered decision is sealed)."""
    monkeypatch.setattr(game_module, "SNAPSHOT_SPACING", 0)
    monkeypatch.setattr(game_module, "SNAPSHOT_LIMIT", 10_000)
    game = play_random_game(RULESET, seed=seed, options=options, check_invariants=False)
    reference = Game.new(RULESET, None, seed=seed, options=options or {})
    pending = []
    for choice in game.choices:
        pending.append(copy.copy(reference.pending))
        reference.answer(choice)
    return game, pending


@pytest.mark.parametrize("seed", [4, 8])
def test_checkpoints_open_each_pick_deployment_and_round_loaded(monkeypatch, seed):
    """开场阶段 1 and 3: a checkpoint before each pick of the force selection (调配军力), each tank's
    deployment (行军布阵) and each special round loaded, named for it; none in the first player's
    roll or before the zone is chosen."""
    game, pending = _opening_game(monkeypatch, seed)
    opening = [(position, label) for position, label in game.checkpoints if label.startswith("opening: ")]
    first_turn = game.checkpoints[[label for _, label in game.checkpoints].index("turn 1")][0]
    assert opening and all(position < first_turn for position, _ in opening)
    asked = [(p, d) for p, d in enumerate(pending[:first_turn]) if d.kind in _OPENING_LABELS]
    assert {d.kind for _, d in asked} == set(_OPENING_LABELS)
    for position, decision in asked:
        here = [label for p, label in opening if p == position]
        assert here and _OPENING_LABELS[decision.kind] in here[-1], (position, decision.prompt, here)
        if decision.kind == "tank_solo.deploy_hex":
            assert here[-1] == f"opening: deploy #{decision.context['tank']}"
        else:
            assert here[-1].startswith(f"opening: {decision.context['side']} ")
    # every checkpoint of the opening stands before one of those decisions, or before a pick the
    # side finds it cannot make (no tank fits the budget: it has finished, and the game goes on)
    for position, label in opening:
        if pending[position].kind not in _OPENING_LABELS:
            assert " picks tank " in label, (position, label, pending[position].kind)


@pytest.mark.parametrize(("seed", "options"), [(8, None), (3, ALL_ON)], ids=["default", "all optional rules"])
def test_a_restart_at_each_opening_checkpoint_plays_on_to_the_same_game(monkeypatch, seed, options):
    """A fork at every checkpoint of the opening asks the very decision the game asked there
    (prompt, options and context: the picks so far, the sides finished, the rounds loaded in
    their order) and, given the remaining answers, is the game itself, byte for byte."""
    game, pending = _opening_game(monkeypatch, seed, options)
    opening = [(p, label) for p, label in game.checkpoints if label.startswith("opening: ")]
    assert len(opening) > 10
    for position, label in opening:
        forked = game.replay(game.choices[:position])
        assert forked.checkpoints[-1][0] == position and forked.checkpoints[-1][1].startswith("opening: ")
        assert forked._log_base is not None and forked._log_base.label == forked.checkpoints[-1][1], label
        assert forked.pending == pending[position], label
        for choice in game.choices[position:]:
            forked.answer(choice)
        assert forked.log_text() == game.log_text(), label


def test_a_restart_while_a_side_loads_keeps_its_rounds_secret(monkeypatch):
    """开场阶段 3 (背面放置): a restart between two rounds a side loads goes on with the rounds it
    loaded, in order; the other side's view shows as many face-down markers, not their kinds."""
    game, pending = _opening_game(monkeypatch, 4)
    position, label = next((p, label) for p, label in game.checkpoints if label.endswith("loads round 2"))
    forked = game.replay(game.choices[:position])
    loading = forked.state.opening
    side = label.split()[1]
    assert loading is not None and loading.side == side and len(loading.loaded) == 1
    assert loading.loaded == pending[position].context["loaded"]
    other = "B" if side == "A" else "A"
    assert RULESET.view(forked.state, side).opening == loading
    assert RULESET.view(forked.state, other).opening.loaded == ("hidden",)
    assert RULESET.view(forked.state, None).opening == loading
