"""What the terminal shows a person (issue 13, "Play at the terminal that a person can follow"):
reasons for what cannot succeed, what a shot needed, what a choice needs."""

from __future__ import annotations

from wargamekit import Game
from wargamekit_tank_solo.combat import why_not_fire
from wargamekit_tank_solo.maps import hex_label


def test_a_leap_that_cannot_fire_says_why(new_game, pick):
    """1-2 注2: still out of range after moving; the log says the range and the gun's reach."""
    game = new_game([("bt7", "0601", "S")], [("tiger", "0612", "N")], dice=[3])
    pick(game, "leap fire with BT-7 #1")
    pick(game, "leap toward Tiger I #2")
    pick(game, "forward to 0602")
    pick(game, "stops and fires")
    pick(game, "holds fire")
    (cancel,) = [e.text for e in game.log if e.kind == "leap-cancel"]
    assert cancel == ("BT-7 #1 cannot fire at Tiger I #2 from 0602: range 10 is beyond its main gun's 6; "
                      "it returns to 0601 and may name another target (leap fire, note 2)")
    assert hex_label(game.state.tank(1).hex) == "0601"


def test_why_not_fire_names_range_arc_and_sight(make_state):
    """The reason is the check that fails: range, then the turret's reach, then sight."""
    state = make_state([("A", "bt7", "0603", "S"), ("B", "tiger", "0612", "N")])
    firer, target = state.tank(1), state.tank(2)
    assert "range 9 is beyond" in why_not_fire(state, firer, target, "aimed")
    near = make_state([("A", "hetzer", "0603", "N"), ("B", "tiger", "0606", "N")])
    assert "cannot be turned to bear" in why_not_fire(near, near.tank(1), near.tank(2), "aimed")
    ok = make_state([("A", "pz4h", "0603", "S"), ("B", "tiger", "0606", "N")])
    assert why_not_fire(ok, ok.tank(1), ok.tank(2), "aimed") is None


def test_the_fire_log_says_what_was_needed(new_game, pick):
    """The shot's line names the roll, the range it needed and the damage against the armour."""
    game = new_game([("pz4h", "0603", "S")], [("tiger", "0607", "N")], dice=[3, 6, 6, 6, 6])
    pick(game, "aimed fire with Panzer IV H #1")
    pick(game, "at Tiger I #2")
    (shot,) = [e for e in game.log if e.kind == "fire"]
    assert "hit roll 6+6 = 12 +1 = 13, needed 4 (the range) -> hit; damage " in shot.text
    assert f"vs armour {game.state.tank(2).spec.armour} -> killed" in shot.text


def test_force_pick_shows_stats_and_why_the_budget_is_what_it_is():
    """The force pick lists each tank's movement, armour and guns, and the budget with its
    reason: the single-nation bonus, or none once nations mix."""
    game = Game.new("tank_solo", "default", seed=3)
    while game.pending.kind != "tank_solo.pick_tank":
        game.answer(0)
    first = game.pending.options[0].label
    assert "move " in first and "armour " in first and " range " in first and " attack " in first
    assert "(single-nation force: 200 + 27)" in first
    german = next(i for i, o in enumerate(game.pending.options) if o.data.get("model") == "pz38t")
    game.answer(german)
    while game.pending.side != "A" or game.pending.kind != "tank_solo.pick_tank":
        game.answer(0)
    soviet = next(o for o in game.pending.options if o.data.get("model") == "t34_76")
    assert "of 200 (nations mixed: no single-nation bonus)" in soviet.label
