"""Movement steps and their costs (标准规则修改部分 3 移动规则改良; 5 残骸位置; 特殊规则 9)."""

from __future__ import annotations

from wargamekit_tank_solo.maps import label_hex
from wargamekit_tank_solo.movement import MoveBudget, step_options


def _kinds(steps):
    return {(s.kind, s.to and s.to.to_label(base=1), s.cost) for s in steps}


def test_forward_costs_one_and_river_two(make_state):
    """3: a forward move into clear terrain costs 1; entering a river costs 2."""
    state = make_state([("A", "t34_85", "0606", "N"), ("A", "t34_85", "0105", "S")])
    clear = step_options(state, state.tank(1), MoveBudget(4, False, False))
    river = step_options(state, state.tank(2), MoveBudget(4, False, False))
    assert ("forward", "0605", 1) in _kinds(clear)
    assert ("forward", "0106", 2) in _kinds(river)


def test_forest_and_mountain_cannot_be_entered(make_state):
    """3: tanks cannot enter mountain (山地) or forest (森林) hexes."""
    state = make_state([("A", "t34_85", "0709", "N"), ("A", "t34_85", "0307", "S")])
    for tank in state.tanks:
        assert not any(s.kind == "forward" for s in step_options(state, tank, MoveBudget(4, False, False)))


def test_occupied_hex_cannot_be_entered(make_state):
    """特殊规则 2: one tank or wreck per hex."""
    state = make_state([("A", "t34_85", "0606", "N"), ("B", "tiger", "0605", "S")])
    assert not any(s.kind == "forward" for s in step_options(state, state.tank(1), MoveBudget(4, False, False)))


def test_reverse_costs_two_and_needs_two_points(make_state):
    """3: reversing one hex costs 2 points and is not allowed with fewer than 2 left."""
    state = make_state([("A", "t34_85", "0606", "N")])
    tank = state.tank(1)
    assert ("reverse", "0607", 2) in _kinds(step_options(state, tank, MoveBudget(2, False, False)))
    assert not any(s.kind == "reverse" for s in step_options(state, tank, MoveBudget(1, False, False)))


def test_turn_in_place_costs_one_point(make_state):
    """3: turning the hull 60 degrees in place costs 1 point."""
    state = make_state([("A", "tiger", "0606", "N")])
    turns = [s for s in step_options(state, state.tank(1), MoveBudget(1, False, False)) if s.kind == "turn"]
    assert sorted(s.hull for s in turns) == [1, 3] and all(s.cost == 1 for s in turns)
    assert not any(s.kind == "turn" for s in step_options(state, state.tank(1), MoveBudget(0, False, False)))


def test_medium_pays_for_turn_after_last_forward_light_does_not(make_state):
    """3: after their last forward move medium and heavy tanks need 1 point to turn; light tanks do not."""
    state = make_state([("A", "t34_85", "0606", "N"), ("A", "bt7", "0806", "N")])
    after = MoveBudget(0, False, False, free_turn=True)
    medium = step_options(state, state.tank(1), after)
    light = step_options(state, state.tank(2), after)
    assert not any(s.kind in ("turn", "free turn") for s in medium)
    assert sum(s.kind == "free turn" for s in light) == 2


def test_medium_free_turn_between_forward_moves(make_state):
    """3 (前进外加前进后转动 = 1 point): a turn between two forward moves costs nothing; if no
    forward move follows, the turn costs 1 after all."""
    state = make_state([("A", "t34_85", "0606", "N")])
    tank = state.tank(1)
    budget = MoveBudget(2, False, False).after("forward", 1, "medium", hybrid=False)
    free = [s for s in step_options(state, tank, budget) if s.kind == "free turn"]
    assert len(free) == 2
    budget = budget.after("free turn", 0, "medium", hybrid=False)
    assert budget.debt == 1
    assert budget.after("forward", 1, "medium", hybrid=False).remaining == 0  # debt cancelled
    stop = step_options(state, tank, budget)[-1]
    assert (stop.kind, stop.cost) == ("stop", 1)  # no forward move followed: pay the point


def test_clearing_wrecks_costs_by_class_and_not_in_leap_fire(make_state):
    """5: light/medium tanks pay 2 to enter and clear a wreck, heavy tanks 1; not during leap fire;
    never by reversing."""
    state = make_state([("A", "t34_85", "0606", "N"), ("A", "tiger", "0806", "N")], wrecks=["0605", "0805", "0607"])
    medium = step_options(state, state.tank(1), MoveBudget(3, False, False))
    heavy = step_options(state, state.tank(2), MoveBudget(3, False, False))
    assert [(s.cost, s.clears_wreck) for s in medium if s.kind == "forward"] == [(2, True)]
    assert [(s.cost, s.clears_wreck) for s in heavy if s.kind == "forward"] == [(1, True)]
    assert not any(s.kind == "reverse" for s in medium)  # 0607 holds a wreck
    assert not any(s.kind == "forward" for s in step_options(state, state.tank(1), MoveBudget(3, False, True)))


def test_free_points_must_all_be_spent(make_state):
    """7 / 2-1 注1: with free points given, stopping is not allowed while points remain."""
    state = make_state([("A", "t34_85", "0606", "N")])
    steps = step_options(state, state.tank(1), MoveBudget(3, True, False))
    assert all(s.kind != "stop" for s in steps)
    assert step_options(state, state.tank(1), MoveBudget(0, True, False))[-1].kind == "stop"


def test_hybrid_drive_free_turn_after_reverse(make_state):
    """特殊规则 9: a Tiger (P) gets a free 60-degree turn after its last move (here a reverse)."""
    state = make_state([("A", "tiger_p", "0606", "N")])
    budget = MoveBudget(2, False, False).after("reverse", 2, "heavy", hybrid=True)
    assert budget.free_turn and budget.remaining == 0
    assert sum(s.kind == "free turn" for s in step_options(state, state.tank(1), budget, hybrid=True)) == 2
    plain = MoveBudget(2, False, False).after("reverse", 2, "heavy", hybrid=False)
    assert not plain.free_turn
    assert label_hex("0606").neighbour(5) == label_hex("0607")


def test_hybrid_free_turn_after_reverse_only_if_it_is_the_last_move(make_state):
    """特殊规则 9: the hybrid drive's free turn comes after the *last* move; a turn after a
    reverse followed by more movement costs 1 as usual (3: turning costs 1 except after a forward move)."""
    state = make_state([("A", "tiger_p", "0606", "N")])
    tank = state.tank(1)
    budget = MoveBudget(4, False, False).after("reverse", 2, "heavy", hybrid=True)
    budget = budget.after("free turn", 0, "heavy", hybrid=True)
    steps = step_options(state, tank, budget, hybrid=True)
    forward = [s for s in steps if s.kind == "forward"]
    assert [s.cost for s in forward] == [2]  # 1 to move + 1 for the turn that was not the last
    assert (steps[-1].kind, steps[-1].cost) == ("stop", 0)  # stopping: the turn was after the last move
    assert all(s.cost == 2 for s in steps if s.kind == "turn")
