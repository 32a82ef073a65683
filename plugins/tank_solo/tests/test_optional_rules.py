"""Optional rules: veteran gunner, hybrid drive, unreliable engines, forced spotting,
ammunition shortage (特殊规则 8-12); special-round kills and the veteran gunner (4)."""

from __future__ import annotations

import pytest

from wargamekit.errors import ScenarioError
from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.combat import can_fire_now, hit_modifier
from wargamekit_tank_solo.maps import label_hex
from wargamekit_tank_solo.movement import Step
from wargamekit_tank_solo.optional_rules import engine_roll_due
from wargamekit_tank_solo.turn import _defensive_target_hex
from wargamekit_tank_solo.vehicles import free_point_cap, vehicle

TWO_TIGERS = [("tiger", "0612", "S"), ("tiger", "0812", "S")]


def test_veteran_gunner_bonus_all_fire_or_per_fire_type(make_state):
    """8: +1 to hit per kill in every fire form; the high-fidelity variant per fire form."""
    state = make_state([("A", "pz4h", "0603", "S"), ("B", "tiger", "0607", "N")], options={"veteran_gunner": True})
    firer, target = state.tank(1), state.tank(2)
    firer.veteran, firer.veteran_by_fire = 2, {"aimed": 2}
    assert hit_modifier(state, firer, target, "advance") == -1 + 2
    state.options = {"veteran_gunner": True, "veteran_gunner_per_fire_type": True}
    assert hit_modifier(state, firer, target, "advance") == -1
    assert hit_modifier(state, firer, target, "aimed") == 1 + 2
    state.options = {}
    assert hit_modifier(state, firer, target, "aimed") == 1


def test_target_hit_modifiers_accumulate_without_bound(make_state):
    """9 被命中点修正: the target's modifiers add to the firer's roll with no limit."""
    state = make_state([("A", "pz4h", "0603", "S"), ("B", "tiger", "0607", "N")])
    state.tank(2).lit = 9
    assert hit_modifier(state, state.tank(1), state.tank(2), "leap") == -3 + 9


def test_kills_with_special_rounds_do_not_make_veterans(new_game, pick):
    """4 / 8: a kill with a special round scores but does not count for the veteran gunner."""
    game = new_game([("pz4h", "0603", "S", ["hesh", "fin"])], [("tiger", "0607", "N"), ("tiger", "0807", "N")],
                    dice=[3, 6, 6, 6], options={"veteran_gunner": True})
    pick(game, "aimed fire with Panzer IV H #1")
    pick(game, "at Tiger I #2")
    pick(game, "HESH")
    assert not game.state.tank(2).alive and game.state.score["A"] == 4
    assert game.state.tank(1).veteran == 0 and game.state.tank(1).specials == ["fin"]


def test_standard_kill_makes_a_veteran(new_game, pick):
    """8: a kill with a standard round gives +1 to hit from then on."""
    game = new_game([("pz4h", "0603", "S", ["hesh", "fin"])], [("tiger", "0607", "N"), ("tiger", "0807", "N")],
                    dice=[3, 6, 6, 6, 6], options={"veteran_gunner": True})
    pick(game, "aimed fire with Panzer IV H #1")
    pick(game, "at Tiger I #2")
    pick(game, "standard round")
    tank = game.state.tank(1)
    assert tank.veteran == 1 and tank.veteran_by_fire == {"aimed": 1}


def test_hybrid_drive_free_point_cap():
    """9: Tiger (P) and Ferdinand may take 2 free points with hybrid drive; otherwise heavy = 1."""
    assert free_point_cap(vehicle("tiger_p"), hybrid_drive=True) == 2
    assert free_point_cap(vehicle("ferdinand"), hybrid_drive=True) == 2
    assert free_point_cap(vehicle("tiger_p"), hybrid_drive=False) == 1
    assert free_point_cap(vehicle("tiger"), hybrid_drive=True) == 1
    assert [free_point_cap(vehicle(k), hybrid_drive=False) for k in ("bt7", "t34_85", "is2")] == [3, 1, 1]


def test_engine_roll_schedules():
    """10-2 / 10-3: the Maus rolls before every turn's maintenance phase, the opponent's turns
    included (每回合); Tiger II, Jagdtiger and IS-2 only before their own side's second turn and
    every second one after (己方第二次先手回合); others never."""
    assert all(engine_roll_due("maus", n, own_side=own) for n in range(1, 6) for own in (True, False))
    for model in ("tiger2", "jagdtiger", "is2"):
        assert [engine_roll_due(model, n, own_side=True) for n in range(1, 7)] == [False, True] * 3
        assert not any(engine_roll_due(model, n, own_side=False) for n in range(1, 7))
    assert not any(engine_roll_due("tiger", n, own_side=True) for n in range(1, 6))


def _rolls(game):
    return [(e.data["purpose"], e.data["faces"]) for e in game.log if e.kind == "roll"]


# Side A: the Maus (1 MP, 80 points) and a Panther (4 MP, 40); side B: two Tigers (3 + 3 MP, 96
# points), so B, with fewer points spent, takes the first turn (开场阶段 2). With the Maus the
# movement total is 11, half 5.5 rounded up is 6 (free points 3 to 6); without it 10, half 5.
MAUS_SIDE = [("maus", "0603", "S"), ("panther", "0803", "S")]
ENGINES = {"hybrid_drive": True, "unreliable_engines": True, "surrender": False}


def test_maus_engine_fails_in_the_opponents_turn(new_game, pick):
    """10-2 鼠式坦克: "每回合【整备阶段】之前投骰子 / 投到1的情况下,本回合该车不能进行移动" — the
    Maus rolls before every turn's maintenance phase, the opponent's too; a 1 in the opponent's
    turn leaves it out of that turn's free-point total (一、整备阶段: 存活并可以移动)."""
    game = new_game(MAUS_SIDE, TWO_TIGERS, dice=[1, 5], options=ENGINES)
    assert game.state.active == "B" and game.state.own_turns == {"A": 0, "B": 1}
    assert _rolls(game) == [("unreliable engine of Maus #1 (不可靠的发动机)", [1]),
                            ("free action points (3-5, 自由行动点)", [5])]
    assert game.state.tank(1).engine_dead_until == 1
    assert any(e.kind == "engine" and "(the opponent's turn)" in e.text for e in game.log)


def test_maus_engine_working_in_the_opponents_turn_counts(new_game, pick):
    """10-2: any other face has no effect — the Maus counts in the opponent's free-point total;
    and it rolls again before its own side's turn (每回合), where a 1 stops it."""
    game = new_game(MAUS_SIDE, TWO_TIGERS, dice=[2, 6, 1, 4], options=ENGINES)
    assert _rolls(game) == [("unreliable engine of Maus #1 (不可靠的发动机)", [2]),
                            ("free action points (3-6, 自由行动点)", [6])]
    assert game.state.tank(1).engine_dead_until == -1
    pick(game, "go on to the movement phase")
    pick(game, "end the movement phase")
    pick(game, "end side B's turn")
    assert game.state.active == "A"
    assert _rolls(game)[2:] == [("unreliable engine of Maus #1 (不可靠的发动机)", [1]),
                                ("free action points (3-5, 自由行动点)", [4])]
    pick(game, "go on to the movement phase")
    movers = [label for label in game.pending.labels if label.startswith("move ")]
    assert len(movers) == 1 and movers[0].startswith("move Panther #2")  # the Maus cannot move


def test_maus_engine_failure_stops_it_this_turn(new_game, pick):
    """10-2: a 1 before the maintenance phase: no movement this turn (and no movement points
    counted for the free points)."""
    game = new_game([("maus", "0603", "S")], TWO_TIGERS, dice=[1, 3],
                    options={"hybrid_drive": True, "unreliable_engines": True})
    assert game.state.free_pool == 3  # (3 + 3) / 2: the Maus is left out
    assert not any(label.startswith("leap fire") for label in game.pending.labels)
    pick(game, "go on to the movement phase")
    assert game.pending.rule.startswith("作战阶段 3")  # nobody could move


def test_tiger_p_engine_roll_after_free_points(new_game, pick):
    """10-1: a Tiger (P) that used free points rolls a d6; on a 1 it cannot move next turn."""
    game = new_game([("tiger_p", "0603", "S")], TWO_TIGERS, dice=[4, 1],
                    options={"hybrid_drive": True, "unreliable_engines": True})
    pick(game, "go on to the movement phase")
    pick(game, "move Tiger (P) #1")
    assert game.pending.high == 2
    game.answer(1)
    for _ in range(3):
        pick(game, "turn Tiger (P) #1 left in place")
    pick(game, "ends its move")
    assert game.state.tank(1).engine_dead_until == 3


def test_unreliable_engines_need_hybrid_drive(new_game):
    """10: the rule must be used together with hybrid drive."""
    with pytest.raises(ScenarioError, match="hybrid drive"):
        new_game([("tiger_p", "0603", "S")], TWO_TIGERS, options={"unreliable_engines": True})


def test_forced_spotting_lights_up_idle_tanks_and_moving_clears_it(new_game, pick):
    """11: +1 to be hit after a combat phase without changing position; -1 per two hexes moved."""
    game = new_game([("t34_85", "0603", "S")], [("tiger", "1412", "N")], dice=[3, 3, 3],
                    options={"forced_spotting": True})
    pick(game, "go on to the movement phase")
    pick(game, "end the movement phase")
    pick(game, "end side A's turn")
    assert game.state.tank(1).lit == 1
    pick(game, "go on to the movement phase")
    pick(game, "end the movement phase")
    pick(game, "end side B's turn")
    assert game.state.tank(2).lit == 1
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    pick(game, "forward to 0604")
    assert game.state.tank(1).lit == 1
    pick(game, "forward to 0605")
    assert game.state.tank(1).lit == 0


def test_forced_spotting_defensive_fire_after_the_move(make_state):
    """11: a lit tank may be fired at in the hex it moves into, if the enemy sees it there."""
    state = make_state([("A", "t34_85", "0601", "S"), ("B", "churchill", "0610", "N")],
                       options={"forced_spotting": True})
    mover, defender = state.tank(1), state.tank(2)
    step = Step("forward", label_hex("0602"), 5, 1)
    assert _defensive_target_hex(state, defender, 0, mover, step) is None  # from 0601: out of range
    mover.lit = 1
    assert _defensive_target_hex(state, defender, 0, mover, step) == label_hex("0602")


def test_ammunition_shortage_silences_the_next_two_turns(new_game, pick):
    """12: after a natural 12 the firer cannot fire in the next two turns, then recovers."""
    game = new_game([("t34_85", "0603", "S")], [("tiger", "0607", "N")], dice=[3, 6, 6, 1, 1],
                    options={"ammunition_shortage": True})
    pick(game, "aimed fire with T-34/85 #1")
    pick(game, "fires main gun")
    tank = game.state.tank(1)
    assert [tank.ammo_short(turn) for turn in (1, 2, 3, 4)] == [False, True, True, False]
    game.state.turn = 3
    assert not can_fire_now(game.state, tank)


def test_options_listed_with_defaults():
    """The optional rules are switchable; all are off by default, surrender is allowed."""
    options = TankSolo().options()
    assert options["surrender"] is True
    assert not any(v for k, v in options.items() if k != "surrender")


def test_tiger_p_engine_not_rolled_when_free_points_were_never_used(new_game, pick):
    """10-1: the roll follows free points *used*; a Tiger (P) immobilised (HESH) on its first
    step never used its free point, so no engine roll."""
    game = new_game([("tiger_p", "0605", "S"), ("type89", "0105", "S")],
                    [("churchill", "0610", "N", ["hesh", "fin"]), ("matilda", "1410", "N")],
                    dice=[3, 6, 2, 1], options={"hybrid_drive": True, "unreliable_engines": True})
    pick(game, "go on to the movement phase")
    pick(game, "move Tiger (P) #1")
    game.answer(1)
    pick(game, "forward to 0606")
    pick(game, "defensive fire: Churchill #3")
    pick(game, "HESH")
    assert game.state.tank(1).immobilised and game.state.free_pool == 2
    assert not any(e.kind == "roll" and "engine" in e.data["purpose"] for e in game.log)
    assert game.state.tank(1).engine_dead_until == -1


def test_ammunition_shortage_after_defensive_fire(new_game, pick):
    """12 (defensive fire trigger): a natural 12 in defensive fire; the next turn (its own) the
    tank may not fire at all — not even the advance fire the 2-2 lock allows — and the turn
    after (the opponent's) no defensive fire; then it recovers."""
    game = new_game([("t34_85", "0605", "S"), ("t34_76", "0105", "S")],
                    [("churchill", "0610", "N"), ("matilda", "1410", "N")],
                    dice=[3, 6, 6, 1, 1, 3], options={"ammunition_shortage": True, "surrender": False})
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    pick(game, "forward to 0606")
    pick(game, "defensive fire: Churchill #3")
    churchill = game.state.tank(3)
    assert [churchill.ammo_short(turn) for turn in (1, 2, 3, 4)] == [False, True, True, False]
    pick(game, "stop T-34/85 #1")
    pick(game, "end the movement phase")
    pick(game, "end side A's turn")
    assert game.state.active == "B"
    pick(game, "go on to the movement phase")
    pick(game, "end the movement phase")
    assert game.pending.prompt == "Turn 2, side B: advance fire"
    assert not any("Churchill" in label for label in game.pending.labels)  # locked tanks may advance fire, not this one


def test_forced_spotting_defensive_fire_ignores_the_reduction_the_step_earns(new_game, pick):
    """11 强制点亮: "若此次移动完成后会达成被命中值-1的效果,【防御射击】时会无视这个效果,仍然按之前的
    被命中值进行命中判定" — defensive fire at the step that earns the −1 still uses the +1."""
    game = new_game([("t34_85", "0603", "S")], [("churchill", "0610", "N")], dice=[3, 3, 3, 2, 3, 1, 1],
                    options={"forced_spotting": True, "surrender": False})
    for side in "AB":  # both sides stay put for a turn: both are lit (+1)
        pick(game, "go on to the movement phase")
        pick(game, "end the movement phase")
        pick(game, f"end side {side}'s turn")
    t34 = game.state.tank(1)
    assert t34.lit == 1
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    pick(game, "forward to 0604")
    pick(game, "pass")
    pick(game, "forward to 0605")  # the second distinct hex: this step earns the -1
    pick(game, "defensive fire: Churchill #2")
    # fired at in 0605 (range 5): modifier -1 (UK defensive fire) +1 (lit, as before this step) = +0,
    # so 2 + 3 = 5 hits and the damage is rolled; with the -1 the step earns it would be 4, a miss
    assert [purpose for purpose, _ in _rolls(game)[3:]] == [
        "hit check (range 5, modifier +0)", "damage check (attack 7 vs armour 12)",
    ]
    assert t34.alive and t34.lit == 0  # 1 + 1 + 7 = 9 < 12: not destroyed; then the -1 applies
