"""The opening phase: force selection, first player, deployment and special rounds
(游戏开场阶段 1-3; 特殊规则 4)."""

from __future__ import annotations

import random

from wargamekit import Game, ScriptedDice
from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.maps import hex_label
from wargamekit_tank_solo.scenario import TankSoloScenario, budget_for, force_problem, legal_picks
from wargamekit_tank_solo.vehicles import all_vehicles

RULESET = TankSolo()


def test_roll_off_rerolls_ties_and_higher_picks_first():
    """1: both roll until one is higher; the higher roll picks first."""
    game = Game.new(RULESET, "default", dice=ScriptedDice([3, 3, 2, 5]))
    assert game.pending.side == "B" and game.pending.rule.startswith("开场阶段 1")
    assert any(e.kind == "pick-order" and e.data["first"] == "B" for e in game.log)


def test_picks_alternate_and_only_legal_tanks_are_offered():
    """1: the sides pick in turn; the options are the tanks that keep the force legal."""
    game = Game.new(RULESET, "default", dice=ScriptedDice([6, 1]))
    first = game.pending
    assert first.side == "A" and not any(label.startswith("finish") for label in first.labels)
    game.answer([o.value for o in first.options].index("maus"))
    assert game.pending.side == "B"


def test_force_limits():
    """1: at most 10 tanks, 2 heavy, 2 light, within 200 points."""
    s = TankSoloScenario()
    assert force_problem(["tiger", "is2"], s) is None
    assert "heavy" in force_problem(["tiger", "is2", "kv2"], s)
    assert "light" in force_problem(["bt7", "t26", "pz38t"], s)
    assert "10 tanks" in force_problem(["cv33"] * 2 + ["m4"] * 9, s)
    assert "budget" in force_problem(["maus", "jagdtiger", "panther", "m4"], s)


def test_single_nation_bonus_27_and_usa_28():
    """1: a single-nation force gets 27 more points, an all-US force 28 (7 x M4 + 1 Firefly = 228)."""
    s = TankSoloScenario()
    assert budget_for(["tiger", "panther"], s) == 227
    assert budget_for(["tiger", "t34_85"], s) == 200
    us = ["m4"] * 7 + ["firefly"]
    assert sum([28] * 7 + [32]) == 228 and budget_for(us, s) == 228 and force_problem(us, s) is None
    assert force_problem(["maus", "jagdtiger", "panther", "pz4h"], s) is None  # 80+70+40+28 = 218 <= 227
    assert force_problem(["maus", "jagdtiger", "panther", "t34_85"], s) is not None  # mixed: 222 > 200


def test_legal_picks_are_the_models_force_problem_allows():
    """1: the pick menu's models (legal_picks, counting the force once) are exactly those that
    keep the force legal by force_problem: the 10-tank, 2-heavy, 2-light and budget limits with
    the single-nation bonus (+27, all-US +28), over 300 random forces in three scenarios."""
    table = all_vehicles()
    keys = list(table)
    rng = random.Random(9)
    scenarios = [TankSoloScenario(), TankSoloScenario(budget=120, max_tanks=4, max_heavy=1),
                 TankSoloScenario(budget=300, max_light=0)]
    us = [k for k in keys if table[k].nation == "usa"]
    forces = [[], ["m4"] * 7 + ["firefly"], ["m4"] * 9, ["tiger", "is2"], ["bt7", "t26"]]
    forces += [rng.sample(us, rng.randint(1, 4)) for _ in range(20)]
    forces += [[rng.choice(keys) for _ in range(rng.randint(0, 9))] for _ in range(80)]
    for s in scenarios:
        for mine in forces:
            expected = [key for key in keys if force_problem([*mine, key], s, table) is None]
            assert legal_picks(mine, s, table) == expected, (mine, s)
    assert "m4" in legal_picks(["m4"] * 6 + ["firefly"], TankSoloScenario(), table)  # 228 with +28
    assert legal_picks(["m4"] * 6 + ["firefly", "pz4h"], TankSoloScenario(), table) == []  # mixed: over 200


def test_first_player_by_fewer_points(new_game):
    """2: the side that spent fewer points goes first."""
    game = new_game([("tiger", "0603", "S")], [("pz4h", "0607", "N")], dice=[3])
    assert game.state.first_player == "B" and game.state.active == "B"


def test_first_player_by_fewer_tanks_then_die(new_game):
    """2: equal points: fewer tanks first; equal again: a die, 1-3 A, 4-6 B."""
    game = new_game([("t34_85", "0603", "S")], [("pz38t", "0607", "N"), ("pz3j", "0807", "N")], dice=[3])
    assert game.state.first_player == "A"
    for face, first in ((2, "A"), (4, "B")):
        game = new_game([("t34_85", "0603", "S")], [("t34_85", "0607", "N")], dice=[face, 3])
        assert game.state.first_player == first


def _deploying_game():
    data = {"map": "pravda", "forces": {"A": [{"model": "pz4h"}], "B": [{"model": "tiger"}]}}
    return Game.new(RULESET, data, dice=ScriptedDice([]))


def test_first_player_chooses_north_or_south_and_deploys_in_zone(pick):
    """2-3: the first player picks its end; tanks deploy only inside their zone; turrets start
    facing with the hull (6 vii)."""
    game = _deploying_game()
    assert game.pending.side == "A" and game.pending.labels == ["north", "south"]
    pick(game, "south")
    rows = {int(label[-2:]) for label in (o.label.rsplit(" ", 1)[1] for o in game.pending.options)}
    assert rows == {11, 12}
    pick(game, "deploy Panzer IV H #1 at 0611")
    assert game.pending.labels[0] == "face N"
    pick(game, "face NE")
    tank = game.state.tank(1)
    assert hex_label(tank.hex) == "0611" and tank.hull == tank.turret == 1
    assert game.pending.side == "B" and "north zone" in game.pending.prompt


def _to_loading(pick):
    game = _deploying_game()
    pick(game, "north")
    pick(game, "at 0601")
    pick(game, "face S")
    pick(game, "at 0612")
    pick(game, "face N")
    return game


def test_special_rounds_need_two_kinds_and_one_fin(pick):
    """开场阶段 3 and 4-2: up to three rounds, at least two kinds, at most one fin-stabilised round."""
    game = _to_loading(pick)
    assert game.pending.side == "A" and any(label.startswith("finish") for label in game.pending.labels)
    pick(game, "load HESH")
    pick(game, "load HESH")
    labels = game.pending.labels
    assert not any(label.startswith("finish") or "HESH" in label for label in labels)
    pick(game, "load fin-stabilised")
    assert game.state.tank(1).specials == ["hesh", "hesh", "fin"]
    # B: after one fin round, no second fin is offered
    pick(game, "load fin-stabilised")
    assert not any("fin-stabilised" in label for label in game.pending.labels)


def test_special_rounds_are_hidden_from_the_opponent(pick):
    """开场阶段 3: the rounds are placed face down: the opponent's view shows only how many."""
    game = _to_loading(pick)
    pick(game, "load HESH")
    pick(game, "load fin-stabilised")
    pick(game, "finish")
    b_view = RULESET.view(game.state, "B")
    assert b_view.tank(1).specials == ["hidden", "hidden"]
    assert RULESET.view(game.state, "A").tank(1).specials == ["hesh", "fin"]
    loads = [e for e in game.log if e.kind == "load"]
    assert loads and all(e.audience == ("A",) for e in loads)
    assert not any(e.kind == "load" for e in game.view("B").log)


def test_special_round_loadout_is_hidden_from_the_opponent_log():
    """开场阶段 3: the special rounds are loaded in secret — the other side's log never names them."""
    from wargamekit.testing import play_random_game
    from wargamekit_tank_solo.ruleset import TankSolo
    from wargamekit_tank_solo.special_rounds import KIND_NAMES

    game = play_random_game(TankSolo(), seed=3, options={"surrender": False})
    for side, other in (("A", "B"), ("B", "A")):
        secret = [e for e in game.log if e.audience == (side,) and e.kind in ("choice", "load")]
        assert any(e.kind == "choice" and "load" in e.text for e in secret)
        other_log = game.view(other).log
        assert not any(e in other_log for e in secret)
        # The loading choices (a round fired later is revealed, 特殊规则 4, and may be named).
        loads = [e for e in other_log if e.kind == "choice" and e.data["side"] == side and "load special round" in e.text]
        assert not any(name in e.text for e in loads for name in KIND_NAMES.values())
