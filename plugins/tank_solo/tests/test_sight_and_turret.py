"""Line of sight, scouting, fire arcs and turret rotation (标准规则修改部分 2, 4, 6; 特殊规则 6)."""

from __future__ import annotations

from wargamekit_tank_solo.combat import rotation_options, valid_targets
from wargamekit_tank_solo.maps import label_hex
from wargamekit_tank_solo.sight import can_see


def test_forest_and_mountain_block_sight():
    """4 ii: forest and mountain hexes between firer and target block the line of sight."""
    assert not can_see("pravda", [], label_hex("0705"), label_hex("0710"))  # 0707, 0708 forest
    assert not can_see("pravda", [], label_hex("0307"), label_hex("0310"))  # 0308, 0309 mountain
    assert can_see("pravda", [], label_hex("0601"), label_hex("0612"))


def test_wrecks_block_sight():
    """4 ii: wrecks block the line of sight."""
    assert not can_see("pravda", [label_hex("0605")], label_hex("0603"), label_hex("0607"))


def test_scouting_sees_through_forest_and_wrecks_not_mountains():
    """特殊规则 6: in leap fire a light tank sees through forest and wrecks, never mountains."""
    assert can_see("pravda", [label_hex("0706")], label_hex("0705"), label_hex("0710"), scouting=True)
    assert not can_see("pravda", [], label_hex("0307"), label_hex("0310"), scouting=True)


def test_scouting_only_in_leap_fire_against_medium_and_heavy(make_state):
    """特殊规则 6: only leap fire, and never against light tanks."""
    state = make_state([("A", "bt7", "0705", "S"), ("B", "t34_85", "0710", "N"), ("B", "t26", "0711", "N")])
    bt7 = state.tank(1)
    assert [t.target for t in valid_targets(state, bt7, "leap")] == [2]
    assert valid_targets(state, bt7, "aimed") == []
    big = make_state([("A", "t34_85", "0705", "S"), ("B", "tiger", "0710", "N")])
    assert valid_targets(big, big.tank(1), "leap") == []  # medium firers have no scouting


def test_fire_arc_follows_the_turret_not_the_hull(make_state):
    """2: the front fire arc is based on the gun's facing; a turretless gun faces with the hull."""
    state = make_state([("A", "t34_85", "0603", "N"), ("A", "hetzer", "0803", "N"), ("B", "tiger", "0607", "N"),
                        ("B", "tiger", "0807", "N")])
    t34, hetzer = state.tank(1), state.tank(2)
    assert valid_targets(state, t34, "aimed") == []
    t34.turret = 5  # turret to the south, hull still north
    assert [t.target for t in valid_targets(state, t34, "aimed")] == [3, 4]
    assert valid_targets(state, hetzer, "aimed") == [] and rotation_options(hetzer) == []


def test_range_counts_target_hex_not_firer_hex(make_state):
    """4 命中判定 i: the range excludes the firer's hex and includes the target's; beyond the
    gun's range there is no shot."""
    state = make_state([("A", "bt7", "0601", "S"), ("B", "tiger", "0607", "N"), ("B", "tiger", "0808", "N")])
    assert [t.target for t in valid_targets(state, state.tank(1), "aimed")] == [2]  # 6 hexes: BT-7 range 6
    state.tank(2).hex = label_hex("0608")
    assert valid_targets(state, state.tank(1), "aimed") == []


def test_turret_rotations_limited_per_turn(make_state):
    """6 iii, vi: one rotation is 60 degrees; no more than the tank's rotations per turn."""
    state = make_state([("A", "tiger", "0603", "S")])
    tiger = state.tank(1)
    assert len(rotation_options(tiger)) == 2
    tiger.rotations_used = 1
    assert rotation_options(tiger) == []


def test_unused_rotations_are_lost_and_reset(new_game, pick):
    """6 vi: rotations are not carried over: every turn starts with the full allowance."""
    game = new_game([("t34_85", "0603", "N")], [("tiger", "0612", "N")], dice=[3, 3])
    pick(game, "aimed fire with T-34/85 #1")
    pick(game, "turret left")
    assert game.state.tank(1).rotations_left() == 1
    pick(game, "holds fire")
    pick(game, "go on to the movement phase")
    pick(game, "end the movement phase")
    pick(game, "end side A's turn")
    assert game.state.turn == 2 and game.state.tank(1).rotations_left() == 2
