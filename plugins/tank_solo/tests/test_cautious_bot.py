"""The cautious bot: cover, incoming threat and a kill-chance threshold (exact odds), and legal
answers over whole games (its win rate against random is checked in test_bots.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from wargamekit import Choose, Game, Option
from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.bots import HeuristicBot
from wargamekit_tank_solo.cautious_bot import (
    SHOT_THRESHOLD,
    CautiousBot,
    defensive_risk,
    defensive_risk_at,
    incoming_threat,
)
from wargamekit_tank_solo.combat import FireAt, fire_label, shot_for
from wargamekit_tank_solo.fire import shot_odds
from wargamekit_tank_solo.kinds import FIRE_SELECTION, FIRE_TARGET, MOVE_STEP, fire_data, step_data
from wargamekit_tank_solo.maps import hex_label, label_hex
from wargamekit_tank_solo.movement import MoveBudget, step_options

RULESET = TankSolo()
MOVE_RULE = "标准规则修改部分 3 移动规则改良"


def _move_menu(state, tank):
    """The movement decision the game asks for ``tank`` with 3 MP (as turn.move_tank builds it)."""
    steps = step_options(state, tank, MoveBudget(remaining=3, must_spend=False, leap=False))
    options = tuple(Option(s, s.label, data=step_data(s)) for s in steps)
    return Choose(side=tank.side, prompt=f"Move {tank.name} ({tank.where()}, 3 MP left)", options=options,
                  rule=MOVE_RULE, kind=MOVE_STEP, context={"tank": tank.id, "leap": False})


def _answer(bot, state, decision):
    return decision.options[bot.choose(decision, SimpleNamespace(state=state))].value


def test_steps_behind_a_wreck_rather_than_into_the_open(make_state):
    """标准规则修改部分 4 ii (wrecks block sight): a Panzer 38(t) in a Tiger's reach backs into
    the wreck's shadow; forward (toward the Tiger) or staying put the Tiger's next shot kills it
    for sure, and its own gun cannot hurt the Tiger. The heuristic bot drives forward instead."""
    state = make_state([("A", "pz38t", "0610", "NE"), ("B", "tiger", "0910", "SE")], wrecks=["0711"])
    tank = state.tank(1)
    assert incoming_threat(state, tank, label_hex("0710")) == {2: 1.0}
    assert incoming_threat(state, tank, label_hex("0511")) == {}  # the wreck in 0711 hides it
    decision = _move_menu(state, tank)
    step = _answer(CautiousBot(0), state, decision)
    assert (step.kind, hex_label(step.to)) == ("reverse", "0511")
    assert _answer(HeuristicBot(0), state, decision).kind == "forward"


def test_steps_out_of_an_immobile_tank_destroyers_arc(make_state):
    """标准规则修改部分 2 (the arc is the gun's): an immobilised Jagdpanther (hull gun facing N)
    can only fire into its arc; the Panzer 38(t) reverses out of it rather than driving along it."""
    state = make_state([("A", "pz38t", "0510", "NE"), ("B", "jagdpanther", "0910", "N")])
    destroyer = state.tank(2)
    destroyer.immobilised = True
    tank = state.tank(1)
    assert incoming_threat(state, tank, label_hex("0609"))[2] > 0.5  # forward: in the arc
    assert incoming_threat(state, tank, label_hex("0410")) == {}  # reverse: out of the arc
    decision = _move_menu(state, tank)
    step = _answer(CautiousBot(0), state, decision)
    assert (step.kind, hex_label(step.to)) == ("reverse", "0410")
    assert _answer(HeuristicBot(0), state, decision).kind == "forward"


def test_a_mobile_tank_destroyer_threatens_outside_its_arc_by_advance_fire(make_state):
    """作战阶段 3: a Jagdpanther that can move turns its hull and fires advance fire (-1) at a
    hex outside its arc; the threat is that shot's exact kill chance."""
    state = make_state([("A", "pz38t", "0410", "NE"), ("B", "jagdpanther", "0910", "N")])
    tank, destroyer = state.tank(1), state.tank(2)
    expected = float(shot_odds(shot_for(state, destroyer, 0, tank, "advance", target_hex=label_hex("0410"))).kill)
    assert incoming_threat(state, tank, label_hex("0410")) == {2: expected}


def test_threat_of_locked_disarmed_and_ammunition_short_enemies(make_state):
    """2-2 (a tank locked by its own defensive fire may only use advance fire next turn), 5 HESH
    (a destroyed weapon) and 特殊规则 12 (no fire while short of ammunition): the threat is the
    advance-fire chance, nothing, and nothing."""
    state = make_state([("A", "t34_85", "0510", "SE"), ("B", "tiger", "0810", "NW")])
    tank, tiger = state.tank(1), state.tank(2)
    at = tank.hex
    aimed = float(shot_odds(shot_for(state, tiger, 0, tank, "aimed")).kill)
    advance = float(shot_odds(shot_for(state, tiger, 0, tank, "advance")).kill)
    assert incoming_threat(state, tank, at) == {2: aimed}
    tiger.defensive_lock = True
    assert incoming_threat(state, tank, at) == {2: advance} and advance < aimed
    tiger.defensive_lock = False
    tiger.ammo_short_from, tiger.ammo_short_until = state.turn, state.turn + 2
    assert incoming_threat(state, tank, at) == {}
    tiger.ammo_short_from, tiger.ammo_short_until = -1, -1
    tiger.weapon_destroyed = True
    assert incoming_threat(state, tank, at) == {}


def test_defensive_risk_uses_the_defenders_present_gun_facing(make_state):
    """2-2: a defender may not turn its turret, so leaving a hex outside every enemy gun's arc
    risks nothing, while leaving one inside a Tiger's arc risks its defensive shot (-2)."""
    state = make_state([("A", "t34_85", "0510", "S"), ("B", "tiger", "0810", "NW")])
    tank, tiger = state.tank(1), state.tank(2)
    step = next(s for s in step_options(state, tank, MoveBudget(remaining=3, must_spend=False, leap=False))
                if s.kind == "forward")
    expected = float(shot_odds(shot_for(state, tiger, 0, tank, "defensive")).kill)
    assert defensive_risk(state, tank, step) == pytest.approx(expected) and expected > 0
    tiger.turret = (tiger.turret + 3) % 6  # the Tiger's turret now faces away
    assert defensive_risk(state, tank, step) == 0.0


def test_every_step_into_a_hex_risks_the_defensive_fire_at_its_start(make_state):
    """2-2 (the mover is fired at in the hex it leaves; 5 iii: in the hex entered when it
    clears a wreck): the bot weighs the risk once per hex fired at, and each step's risk is
    that hex's; turning in place risks no defensive fire."""
    state = make_state([("A", "t34_85", "0510", "S"), ("B", "tiger", "0810", "NW")], wrecks=["0511"])
    tank = state.tank(1)
    steps = step_options(state, tank, MoveBudget(remaining=3, must_spend=False, leap=False))
    into = [s for s in steps if s.to is not None]
    assert {s.clears_wreck for s in into} == {True, False}
    for s in into:
        where = s.to if s.clears_wreck else tank.hex
        assert defensive_risk(state, tank, s) == defensive_risk_at(state, tank, where)
    assert defensive_risk_at(state, tank, tank.hex) > 0
    assert all(defensive_risk(state, tank, s) == 0.0 for s in steps if s.to is None)
    bot, risks = CautiousBot(0), {}
    values = [bot.step_value(state, tank, s, places={}, risks=risks) for s in steps]
    assert set(risks) <= {tank.hex, label_hex("0511")}
    assert values == [bot.step_value(state, tank, s) for s in steps]


def _fire_menu(state, firer, target, fire, rule):
    option = FireAt(0, target.id)
    return Choose(side=firer.side, prompt=f"{fire} fire with {firer.name} ({firer.where()})",
                  options=(Option(option, fire_label(state, firer, option, fire), data=fire_data(0, target.id)),
                           Option(None, f"{firer.name} holds fire", data={"action": "hold"})), rule=rule,
                  kind=FIRE_TARGET, context={"tank": firer.id, "fire": fire})


def test_holds_fire_below_its_kill_threshold(make_state):
    """作战阶段 3 前进射击: a Panzer 38(t)'s shot at a Tiger (kill chance under the threshold)
    is not fired; the heuristic bot fires it. A Tiger's shot at the Panzer 38(t) is fired."""
    state = make_state([("A", "pz38t", "0610", "SE"), ("B", "tiger", "0910", "NW")])
    light, tiger = state.tank(1), state.tank(2)
    weak = _fire_menu(state, light, tiger, "advance", "作战阶段 3 前进射击")
    assert 0 < float(shot_odds(shot_for(state, light, 0, tiger, "advance")).kill) < SHOT_THRESHOLD
    assert _answer(CautiousBot(0), state, weak) is None
    assert _answer(HeuristicBot(0), state, weak) == FireAt(0, 2)
    strong = _fire_menu(state, tiger, light, "advance", "作战阶段 3 前进射击")
    assert _answer(CautiousBot(0), state, strong) == FireAt(0, 1)


def test_fire_selection_skips_aimed_fire_below_its_threshold(make_state):
    """作战阶段 1-1 精准射击: with only a poor aimed shot the bot goes on to the movement phase."""
    state = make_state([("A", "pz38t", "0610", "SE"), ("B", "tiger", "0910", "NW")])
    decision = Choose(side="A", prompt="Turn 1, side A: fire selection", rule="作战阶段 1 先手方射击选择",
                      options=(Option(("aimed", 1), "aimed fire with Panzer 38(t) #1", data={"action": "aimed", "tank": 1}),
                               Option(("movement", 0), "go on to the movement phase", data={"action": "movement"})),
                      kind=FIRE_SELECTION, context={"turn": 1, "side": "A"})
    assert _answer(CautiousBot(0), state, decision) == ("movement", 0)


@pytest.mark.parametrize(("scenario", "all_options", "seed"),
                         [("duel", False, 0), ("default", True, 1), ("saunders", True, 2)])
def test_cautious_answers_are_legal_over_whole_games(scenario, all_options, seed):
    """Conformance-style: two cautious bots play a whole game; every answer is accepted, the
    invariants hold after each, and the game replays to the same log."""
    options = {name: name != "surrender" for name in RULESET.options()} if all_options else {"surrender": False}
    game = Game.new(RULESET, scenario, seed=seed, options=options)
    outcome = game.play({"A": CautiousBot(seed), "B": CautiousBot(seed + 1)}, max_decisions=5000,
                        after_answer=lambda g: RULESET.check_invariants(g.state))
    assert outcome.reason and game.pending is None
    assert game.replay().log_text() == game.log_text()
