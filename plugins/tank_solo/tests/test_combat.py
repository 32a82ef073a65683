"""The combat phase in play: aimed, leap, defensive and advance fire, wrecks, rate of fire,
multi-turret guns (作战阶段 1-3; 标准规则修改部分 5; 特殊规则 5, 7)."""

from __future__ import annotations

import pytest

from wargamekit_tank_solo.maps import hex_label


def fires(game):
    return [e.data for e in game.log if e.kind == "fire"]


def test_aimed_fire_german_plus_one(new_game, pick):
    """1-1 注1: German aimed fire adds 1 to the hit roll (3 + 1 >= range 4 hits)."""
    game = new_game([("pz4h", "0603", "S")], [("tiger", "0607", "N")], dice=[3, 1, 2, 6, 6])
    pick(game, "aimed fire with Panzer IV H #1")
    pick(game, "fires main gun at Tiger I #2")
    assert fires(game)[0]["hit_total"] == 4 and fires(game)[0]["effect"] == "killed"
    assert game.outcome.winner == "A" and "no tanks left" in game.outcome.reason


def test_aimed_fire_without_bonus_misses_and_marks_tank(new_game, pick):
    """1-1: other nations aim at -0; a tank that fired is done for the turn (射击标记)."""
    game = new_game([("t34_85", "0603", "S"), ("t34_76", "0103", "S")], [("tiger", "0607", "N"), ("pz4h", "1407", "N")],
                    dice=[3, 1, 2])
    pick(game, "aimed fire with T-34/85 #1")
    pick(game, "fires main gun at Tiger I #3")
    assert fires(game)[0]["hit_total"] == 3 and fires(game)[0]["effect"] == "miss"
    pick(game, "leave the turret")
    assert not any("#1" in label for label in game.pending.labels)
    pick(game, "go on to the movement phase")
    assert [label for label in game.pending.labels if label.startswith("move")] == [
        "move T-34/76 #2 (0103 hull S turret S, 4 MP)"
    ]


def test_leap_fire_minus_three_and_no_defensive_fire(new_game, pick):
    """1-2: move up to the basic points, then fire at -3; the enemy cannot fire defensively."""
    game = new_game([("t34_85", "0601", "S")], [("tiger", "0612", "N")], dice=[3, 6, 6, 6, 6])
    pick(game, "leap fire with T-34/85 #1")
    pick(game, "leap toward Tiger I #2")
    pick(game, "forward to 0602")
    assert game.pending.side == "A"  # the Tiger (range 10) had it in arc: no defensive fire offered
    pick(game, "forward to 0603")
    pick(game, "stops and fires")
    pick(game, "fires main gun at Tiger I #2")
    shot = fires(game)[0]
    assert (shot["fire"], shot["range"], shot["hit_total"]) == ("leap", 9, 9)
    assert game.outcome.winner == "A"


def test_us_leap_fire_minus_two(new_game, pick):
    """1-2 注1: US leap fire is at -2 (10 - 2 = 8 hits at range 8)."""
    game = new_game([("m4", "0601", "S")], [("tiger", "0612", "N")], dice=[3, 5, 5, 1, 1])
    pick(game, "leap fire with M4 Sherman #1")
    pick(game, "leap toward Tiger I #2")
    for label in ("0602", "0603", "0604"):
        pick(game, f"forward to {label}")
    pick(game, "stops and fires")
    pick(game, "fires main gun")
    assert fires(game)[0]["hit_total"] == 8 and fires(game)[0]["effect"] == "no effect"


def test_leap_fire_out_of_range_returns_to_start(new_game, pick):
    """1-2 注2: still out of range after moving: back to the start, and name another target."""
    game = new_game([("bt7", "0601", "S")], [("tiger", "0612", "N")], dice=[3])
    pick(game, "leap fire with BT-7 #1")
    pick(game, "leap toward Tiger I #2")
    pick(game, "forward to 0602")
    pick(game, "stops and fires")
    assert not any("fires" in label for label in game.pending.labels)
    pick(game, "holds fire")
    assert hex_label(game.state.tank(1).hex) == "0601"
    assert any(e.kind == "leap-cancel" for e in game.log)
    # no other target to name: leap fire is over (注3); with nothing in range, no aimed fire either
    assert game.pending.labels == ["go on to the movement phase", "surrender: side A concedes the game"]
    assert game.state.tank(1).tried == ["leap"] and not game.state.tank(1).fired


def _defence_setup(new_game, dice, *, hesh=False, **extra):
    churchill = ("churchill", "0610", "N", ["hesh", "fin"]) if hesh else ("churchill", "0610", "N")
    return new_game(
        [("t34_85", "0605", "S"), ("t34_76", "0105", "S")],
        [churchill, ("matilda", "1410", "N")],
        dice=dice, **extra,
    )


def test_defensive_fire_uk_minus_one_wreck_at_start_hex(new_game, pick):
    """2-2 (UK -1) and 5 i: fire at the step's starting hex; the wreck stays there."""
    game = _defence_setup(new_game, [3, 6, 2, 6, 6])
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)  # no free points
    pick(game, "forward to 0606")
    assert game.pending.side == "B"
    pick(game, "defensive fire: Churchill #3 fires main gun at T-34/85 #1 in 0605")
    shot = fires(game)[0]
    assert (shot["fire"], shot["range"], shot["hit_total"], shot["effect"]) == ("defensive", 5, 7, "killed")
    assert [hex_label(h) for h in game.state.wrecks] == ["0605"]
    assert not game.state.tank(1).alive


def test_defensive_fire_locks_firer_until_its_movement_ends(new_game, pick):
    """2-2: the firer may not fire defensively again, nor move or fire until its side's next
    movement phase ends, but may then advance fire."""
    game = _defence_setup(new_game, [3, 1, 1, 3])
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    pick(game, "forward to 0606")
    pick(game, "defensive fire: Churchill #3")
    assert fires(game)[0]["effect"] == "miss"
    assert game.pending.side == "A"  # the Matilda is out of range; the window closed
    assert hex_label(game.state.tank(1).hex) == "0606"
    pick(game, "forward to 0607")  # 0606 is in the Churchill's arc and range, but it has fired:
    assert game.pending.side == "A" and hex_label(game.state.tank(1).hex) == "0607"  # no defensive fire
    pick(game, "ends its move" if any("ends its move" in x for x in game.pending.labels) else "stop T-34/85 #1")
    pick(game, "end the movement phase")
    pick(game, "end side A's turn")
    assert game.state.active == "B"
    assert not any("Churchill" in label for label in game.pending.labels)  # no aimed/leap fire
    pick(game, "go on to the movement phase")
    assert not any("Churchill" in label for label in game.pending.labels)  # no movement
    pick(game, "end the movement phase")
    assert any("advance fire with Churchill #3" in label for label in game.pending.labels)


def test_no_defensive_fire_against_turning_in_place(new_game, pick):
    """2-2: turning in place is not moving; no defensive fire."""
    game = _defence_setup(new_game, [3])
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    pick(game, "turn T-34/85 #1 left in place")
    assert game.pending.side == "A"


def test_defensive_fire_only_from_step_start(new_game, pick):
    """2-2 注1: the step's starting hex must be in range; the hex it moves into does not count."""
    game = new_game([("t34_85", "0601", "S")], [("churchill", "0610", "N")], dice=[3])
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    pick(game, "forward to 0602")  # from 0601: range 9 > 8
    assert game.pending.side == "A"
    pick(game, "forward to 0603")  # from 0602: range 8
    assert game.pending.side == "B"
    assert "in 0602" in game.pending.labels[1]


def test_clearing_wreck_under_fire_leaves_wreck_in_new_hex(new_game, pick):
    """5 iii: a tank destroyed while clearing a wreck counts as in the new hex; its wreck lies there."""
    game = _defence_setup(new_game, [3, 6, 2, 6, 6], wrecks=["0606"])
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    pick(game, "clear the wreck in 0606")
    pick(game, "defensive fire: Churchill #3 fires main gun at T-34/85 #1 in 0606")
    assert fires(game)[0]["range"] == 4
    assert [hex_label(h) for h in game.state.wrecks] == ["0606"]
    assert hex_label(game.state.tank(1).hex) == "0606" and not game.state.tank(1).alive


def test_advance_fire_minus_one_soviet_zero(new_game, pick):
    """3: advance fire at -1; Soviet tanks at -0."""
    for model, name, total in (("t34_85", "T-34/85 #1", 4), ("pz4h", "Panzer IV H #1", 3)):
        game = new_game([(model, "0603", "S")], [("tiger", "0607", "N")], dice=[3, 2, 2, 1, 1])
        pick(game, "go on to the movement phase")
        pick(game, "end the movement phase")
        pick(game, f"advance fire with {name}")
        pick(game, "fires main gun")
        assert fires(game)[0]["hit_total"] == total


def test_light_tank_second_round(new_game, pick):
    """特殊规则 5: a light tank that fails to destroy a medium or heavy tank may fire again."""
    game = new_game([("bt7", "0603", "S")], [("t34_85", "0607", "N")], dice=[3, 6, 6, 1, 1, 6, 5, 6, 6])
    pick(game, "aimed fire with BT-7 #1")
    pick(game, "fires main gun at T-34/85 #2")
    assert game.pending.form == "yesno"
    game.answer(True)
    assert [f["effect"] for f in fires(game)] == ["no effect", "killed"]


def test_no_second_round_after_ammunition_shortage(new_game, pick):
    """特殊规则 5 注1: a natural 12 with the ammunition shortage rule forbids the second round."""
    game = new_game([("bt7", "0603", "S")], [("t34_85", "0607", "N")], dice=[3, 6, 6, 1, 1],
                    options={"ammunition_shortage": True})
    pick(game, "aimed fire with BT-7 #1")
    pick(game, "fires main gun at T-34/85 #2")
    assert game.pending.form == "choose" and "has fired" in game.pending.prompt


def test_multi_turret_vehicle_uses_one_gun_per_turn(new_game, pick):
    """特殊规则 7: the gun is declared before firing; only that gun may fire this turn."""
    game = new_game([("m3", "0603", "S")], [("tiger", "0607", "N")], dice=[3, 1, 1])
    pick(game, "aimed fire with M3 Lee #1")
    assert sum("fires" in label for label in game.pending.labels) == 2
    pick(game, "fires 37mm turret gun")
    tank = game.state.tank(1)
    assert tank.gun_this_turn == 1
    from wargamekit_tank_solo.combat import valid_targets

    assert {t.gun for t in valid_targets(game.state, tank, "advance")} == {1}


@pytest.mark.parametrize(
    ("wrecks", "step", "stays_in"),
    [([], "forward to 0606", "0605"), (["0606"], "clear the wreck in 0606", "0606")],
    ids=["plain step: start hex (5 i)", "clearing a wreck: new hex (5 iii)"],
)
def test_hesh_immobilises_a_moving_tank_where_it_was_hit(new_game, pick, wrecks, step, stays_in):
    """4-3: HESH 1-2 immobilises for good; the moving tank stays in the hex it was fired at —
    the step's start, or the new hex when clearing a wreck (5 iii: the wreck is then cleared)."""
    game = _defence_setup(new_game, [3, 6, 2, 1], hesh=True, wrecks=wrecks)
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    pick(game, step)
    pick(game, f"defensive fire: Churchill #3 fires main gun at T-34/85 #1 in {stays_in}")
    pick(game, "HESH")
    tank = game.state.tank(1)
    assert tank.immobilised and tank.alive and hex_label(tank.hex) == stays_in
    assert game.state.wrecks == []
    assert game.pending.prompt.startswith("Turn 1, side A: which tank moves next?")
    assert game.state.tank(3).specials == ["fin"]


def test_turret_may_turn_during_movement(new_game, pick):
    """6 iii: the turret may turn at any time in the combat phase, also while the tank moves."""
    game = new_game([("t34_85", "0603", "S")], [("tiger", "1412", "S")], dice=[3])
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    pick(game, "turret left to SE")
    assert game.state.tank(1).turret == 0 and game.state.tank(1).hull == 5


def test_free_points_must_be_used_even_after_defensive_fire(new_game, pick):
    """2-1 注1 / 注2: a tank given free points must use them all; fired at and not destroyed,
    it goes on moving and still may not stop early."""
    game = _defence_setup(new_game, [3, 1, 1])
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(1)
    assert game.state.free_pool == 2
    pick(game, "forward to 0606")
    pick(game, "defensive fire: Churchill #3")
    assert fires(game)[0]["effect"] == "miss"
    assert game.pending.side == "A" and hex_label(game.state.tank(1).hex) == "0606"
    assert "4 MP left" in game.pending.prompt
    assert not any(label.startswith(("stop", "T-34/85 #1 ends")) for label in game.pending.labels)


def test_no_defensive_fire_at_a_tank_that_has_finished_moving(new_game, pick):
    """2-2: once a tank's move ends and the next tank moves, the first can no longer be fired at
    (only the moving tank, only from the starting hex of its step)."""
    game = _defence_setup(new_game, [3])
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    pick(game, "forward to 0606")
    assert game.pending.side == "B"
    pick(game, "pass")
    pick(game, "stop T-34/85 #1")
    pick(game, "move T-34/76 #2")
    game.answer(0)
    pick(game, "forward to 0106")
    # the Churchill still has T-34/85 #1 in arc and range, but no window opens for it
    assert game.pending.side == "A" and not any("defensive" in label for label in game.pending.labels)


def test_leap_fire_uses_basic_points_only(new_game, pick):
    """1-2: the leap moves at most the tank's basic movement points; free points cannot be used
    (no allotment is asked and the pool is untouched)."""
    game = new_game([("t34_85", "0601", "S")], [("tiger", "0612", "N")], dice=[3])
    pick(game, "leap fire with T-34/85 #1 (0601 hull S turret S, up to 4 MP then fire)")
    pick(game, "leap toward Tiger I #2")
    for label in ("0602", "0603", "0604", "0605"):
        pick(game, f"forward to {label}")
    assert "0 MP left" in game.pending.prompt
    assert not any(label.startswith(("move", "reverse", "turn")) for label in game.pending.labels)
    assert game.state.free_pool == 3


def test_defensive_firer_cannot_turn_its_turret(new_game, pick):
    """2-2: the defensive firer may not turn its turret: a mover outside its gun's present arc
    cannot be fired at, though one rotation would bring it to bear."""
    game = _defence_setup(new_game, [3])
    game.state.tank(3).turret = 0  # Churchill turret SE: the T-34/85 to the north is out of arc; NE would see it
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)
    from wargamekit_tank_solo.combat import turns_to_bear

    churchill, t34 = game.state.tank(3), game.state.tank(1)
    assert turns_to_bear(game.state, churchill, 0, churchill.hex, t34.hex) == 1  # a turn would do
    pick(game, "forward to 0606")
    assert game.pending.side == "A"


def test_hesh_immobilised_tank_may_still_fire(make_state):
    """4-3 注3: "碎甲弹效果导致对方战车无法移动的回合,对方战车仍拥有射击的能力" — a tank that HESH
    immobilised cannot move but may still fire; one whose weapon HESH destroyed may not fire."""
    from wargamekit_tank_solo.combat import can_fire_now, could_fire
    from wargamekit_tank_solo.turn import can_move_now

    state = make_state([("A", "pz4h", "0603", "S"), ("B", "tiger", "0607", "N")])
    tank = state.tank(1)
    tank.immobilised = True
    assert not can_move_now(state, tank)
    assert can_fire_now(state, tank) and could_fire(state, tank, "aimed")
    tank.immobilised, tank.weapon_destroyed = False, True
    assert can_move_now(state, tank) and not can_fire_now(state, tank)
