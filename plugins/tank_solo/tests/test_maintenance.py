"""The maintenance phase: free action points (一、整备阶段 自由行动点计算)."""

from __future__ import annotations

from wargamekit_tank_solo.turn import free_point_range


def test_free_points_from_three_to_half_the_movement_rounded_half_up(make_state):
    """The roll runs from 3 to half the movement points of both sides' living mobile tanks,
    rounded half up (四舍五入): 4 + 5 = 9 -> 4.5 -> 5."""
    state = make_state([("A", "t34_85", "0603", "S"), ("B", "bt7", "0607", "N")])
    assert free_point_range(state) == (3, 5)


def test_free_points_leave_out_dead_and_immobile_tanks(make_state):
    """Only living tanks that can move count: destroyed, HESH-immobilised and engine-failed tanks do not."""
    state = make_state([("A", "t34_85", "0603", "S"), ("A", "t34_85", "0803", "S"), ("B", "bt7", "0607", "N"),
                        ("B", "tiger", "0807", "N"), ("B", "is2", "1007", "N")])
    assert free_point_range(state) == (3, 10)  # 4 + 4 + 5 + 3 + 3 = 19 -> 9.5 -> 10
    state.tank(1).alive = False
    state.tank(2).immobilised = True
    state.tank(4).engine_dead_until = state.turn
    assert free_point_range(state) == (3, 4)  # 5 + 3 = 8 -> 4


def test_free_points_leave_out_tanks_locked_by_defensive_fire(make_state):
    """一、整备阶段 with 2-2: a tank that fired defensively may not move this turn, so (our
    reading of 可以移动) its movement points are not counted: 4 + 4 + 5 = 13 -> 7, without #2 9 -> 5."""
    state = make_state([("A", "t34_85", "0603", "S"), ("A", "t34_85", "0803", "S"), ("B", "bt7", "0607", "N")])
    assert free_point_range(state) == (3, 7)
    state.tank(2).defensive_lock = True
    assert free_point_range(state) == (3, 5)


def test_free_points_when_half_is_below_three(make_state):
    """Provisional: with half the total below 3, the roll is that half (not from the source)."""
    state = make_state([("A", "maus", "0603", "S"), ("B", "churchill", "0607", "N")])
    assert free_point_range(state) == (2, 2)  # 1 + 2 = 3 -> 1.5 -> 2


def test_free_points_are_rolled_each_turn(new_game):
    """The pool is drawn with the random-number generator at the start of each turn."""
    game = new_game([("t34_85", "0603", "S")], [("bt7", "0607", "N")], dice=[5])
    rolls = [e for e in game.log if e.kind == "roll"]
    assert rolls[-1].data["dice"] == "d[3-5]" and game.state.free_pool == 5
