"""The rules finished in version 0.3, with forced dice: banner capture (§8.3.1, D12), a leader's
move in several legs (§4.3.2-c), the emergency turn of a charged unit (§6.3.3.b, reading
R-charge) and dismounting (§2.2.1, D15, provisional)."""

from wargamekit import Game, ScriptedDice
from wargamekit_aig import Aig, orders, rout
from wargamekit_aig.facing import front_hexes
from wargamekit_aig.scenario import parse_hex


# -- §8.3.1 / D12: banner capture -----------------------------------------------------------------
def test_8_3_1_an_enemy_unit_overrunning_the_carrier_captures_the_banner(k):
    """[8.3.1-1] (D12, provisional) the blue OC carries the banner alone in 0604; red a enters his
    hex (he has no friendly unit to evade to, §4.4.2.c) and takes the banner; blue's routed units
    within 3 hexes of it are then eliminated, not rallied."""
    ls = [k.leader("Red OC", "red", "0101", "oc"), k.leader("Blue OC", "blue", "0604", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "0901")], ls))
    phase = orders.Phase(t.state.leaders["Red OC"], 1)
    k.drive(orders.activate(t.ctx, t.state.units["a"], phase), [{"step": "move", "hex": "0604"}, {"step": "stop"}])
    banner = t.state.banners["blue"]
    assert not t.state.leaders["Blue OC"].alive
    assert banner.captured and banner.carrier == "a" and t.state.banner_hex("blue") == parse_hex("0604")
    z = t.state.units["z"]
    z.routed, z.hits, z.hex = True, 5, parse_hex("0804")
    k.drive(rout.banner_check(t.ctx, z), [])
    assert z.eliminated


def test_d12_a_carrier_caught_evading_cavalry_loses_the_banner_to_it(k):
    """[4.4.2-b] + D12: the blue OC (initiative 3) alone, approached by LC with MA 9, rolls 3 + 1 > 3:
    he is lost and the LC captures his banner."""
    ls = [k.leader("Red OC", "red", "0101", "oc"), k.leader("Blue OC", "blue", "0803", "oc", initiative=3)]
    t = k.Table(k.scenario([k.unit("c", "red", "0604", "LC", ma=9), k.unit("z", "blue", "1005")], ls), [3])
    phase = orders.Phase(t.state.leaders["Red OC"], 1)
    k.drive(orders.activate(t.ctx, t.state.units["c"], phase), [
        {"step": "move", "hex": "0704"}, {"leader": "Blue OC"}, {"step": "stop"}])
    assert t.state.banners["blue"].captured and t.state.banners["blue"].carrier == "c"


def test_d12_a_carrier_lost_without_an_enemy_unit_hands_the_banner_on(k):
    """D12: lost to no enemy unit, the carrier's banner passes to the highest surviving leader."""
    ls = [k.leader("Red OC", "red", "0101", "oc"), k.leader("Red 2", "red", "0201"),
          k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")], ls))
    rout.kill_leader(t.ctx, t.state.leaders["Red OC"], "test")
    assert not t.state.banners["red"].captured and t.state.banners["red"].carrier == "Red 2"


def test_d12_a_captured_banner_is_lost_with_its_captor(k):
    """D12: when the unit holding a captured banner is eliminated, the banner is gone; the side's
    routed units then disperse in the rally phase (§8.2, no banner to run to)."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")]))
    banner = t.state.banners["blue"]
    banner.captured, banner.carrier = True, "a"
    rout.eliminate(t.ctx, t.state.units["a"], "test")
    assert "blue" not in t.state.banners and t.state.banner_hex("blue") is None


# -- §4.3.2-c: the leader's move in several legs ------------------------------------------------------
def test_4_3_2_c_a_leader_moves_orders_and_moves_on_within_his_ma(k):
    """[4.3.2-c] one self-order (§4.2.5) gives him his MA (8 without the banner, §4.1) for the
    whole command phase: he moves 3 hexes, orders a unit now in his range, then moves on with the
    5 MP left — for no further order; the MP spent never exceed his MA."""
    ls = [k.leader("Red OC", "red", "0101", "oc"), k.leader("Red 2", "red", "0104", range=1, initiative=2),
          k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")], ls))
    leader = t.state.leaders["Red 2"]
    gen = orders.individual_orders(t.ctx, leader, 2, orders.Phase(leader, 1))
    k.drive(gen, [
        {"order": "move_self", "cost": 1}, {"hex": "0404", "cost": 3},
        {"order": "activate", "unit": "a"}, {"step": "stop"},
        {"order": "move_on", "mp": 5}, {"hex": "0904", "cost": 5}])
    assert leader.hex == parse_hex("0904")


def test_4_3_2_c_move_on_offers_only_the_mp_left(k):
    """[4.3.2-c] after a 6-MP leg the second leg reaches 2 hexes at most, and staying put is not a
    leg; a leader who has not ordered himself has no "move on"."""
    ls = [k.leader("Red OC", "red", "0101", "oc"), k.leader("Red 2", "red", "0104", range=1, initiative=3),
          k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0508"), k.unit("z", "blue", "1108")], ls))
    leader = t.state.leaders["Red 2"]
    gen = orders.individual_orders(t.ctx, leader, 3, orders.Phase(leader, 1))
    first = next(gen)
    assert not any(o.data["order"] == "move_on" for o in first.options)
    move = gen.send(first.options[k.pick(first, {"order": "move_self"})].value)
    nxt = gen.send(move.options[k.pick(move, {"hex": "0704", "cost": 6})].value)
    assert {"order": "move_on", "cost": 0, "mp": 2} in [dict(o.data) for o in nxt.options]
    leg = gen.send(nxt.options[k.pick(nxt, {"order": "move_on"})].value)
    costs = [o.data["cost"] for o in leg.options]
    assert max(costs) == 2 and 0 not in costs


# -- §6.3.3.b: the emergency turn of a charged unit ----------------------------------------------------
def _charge(k, dice, options=None):
    """Red a (0504, facing east) charges into 0604; blue z (0705, facing east) has it in its rear."""
    data = k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "0705", facing=0)])
    game = Game.new(Aig(), data, seed=0, options=options)
    ctx = game.context
    ctx.dice = ScriptedDice(dice)
    return ctx, orders.Phase(ctx.state.leaders["Red OC"], 1)


def test_6_3_3_b_a_charged_unit_turns_to_face_the_charge(k):
    """[6.3.3-1] b: z, charged from its rear, makes an emergency turn: a morale check 5 ≤ 5 passes
    and z now has a in its front."""
    ctx, phase = _charge(k, [5])
    a, z = ctx.state.units["a"], ctx.state.units["z"]
    k.drive(orders.activate(ctx, a, phase), [{"step": "move", "hex": "0604"}, {"unit": "z"}, {"step": "stop"}])
    assert not z.routed and a.hex in front_hexes(ctx.state, z)


def test_6_3_3_b_a_failed_emergency_turn_routs(k):
    """[6.3.3-1] b: a check of 6 > 5 routs z whatever its cohesion (no hits on it), with its rout move;
    it does not turn."""
    ctx, phase = _charge(k, [6, 0])  # the 0: z's banner rally once its rout move ends near its banner
    a, z = ctx.state.units["a"], ctx.state.units["z"]
    k.drive(orders.activate(ctx, a, phase), [{"step": "move", "hex": "0604"}, {"unit": "z"}, {"step": "stop"}])
    routs = [e for e in ctx.log if e.kind == "rout"]
    assert [e.data["unit"] for e in routs] == ["z"] and z.hex != parse_hex("0705") and z.facing == 0


def test_6_3_3_b_option_off_no_turn_is_offered(k):
    """Option ``charged_turn`` off (the other reading): the charge opens no window."""
    ctx, phase = _charge(k, [], {"charged_turn": False})
    k.drive(orders.activate(ctx, ctx.state.units["a"], phase), [{"step": "move", "hex": "0604"}, {"step": "stop"}])
    assert ctx.state.units["z"].facing == 0


def test_6_3_1_an_engaged_unit_makes_no_emergency_turn(k):
    """§6.3.1 "只有当部队未属于接战状态的时候才可以进行转向": z, already engaged with y, is not offered a
    turn against a's charge."""
    data = k.scenario([k.unit("a", "red", "0504"), k.unit("y", "red", "0805", facing=3),
                       k.unit("z", "blue", "0705", facing=0)])
    t = k.Table(data)
    phase = orders.Phase(t.state.leaders["Red OC"], 1)
    k.drive(orders.activate(t.ctx, t.state.units["a"], phase), [{"step": "move", "hex": "0604"}, {"step": "stop"}])
    assert t.state.units["z"].facing == 0


# -- §2.2.1 / D15: dismounting (provisional) -------------------------------------------------------
def test_2_2_1_d15_a_cavalry_unit_with_a_back_side_dismounts(k):
    """[2.2.1-1] (D15, provisional): LC with an LI back side dismounts as its whole action: it turns
    to its back (type LI, MA 6); once dismounted it has no back side left."""
    t = k.Table(k.scenario([k.unit("c", "red", "0504", "LC", ma=9, back_type="LI", back_ma=6),
                            k.unit("z", "blue", "1108")]))
    phase = orders.Phase(t.state.leaders["Red OC"], 1)
    c = t.state.units["c"]
    k.drive(orders.activate(t.ctx, c, phase), [{"step": "dismount", "type": "LI"}])
    assert (c.type, c.ma, c.back_type) == ("LI", 6, "") and phase.acted


def test_2_2_1_d15_no_dismounting_after_moving_or_without_a_back(k):
    """D15: not once the unit has spent MP, and never for a counter without a back side."""
    t = k.Table(k.scenario([k.unit("c", "red", "0504", "LC", ma=9, back_type="LI", back_ma=6),
                            k.unit("d", "red", "0502", "HC", ma=8), k.unit("z", "blue", "1108")]))
    c, d = t.state.units["c"], t.state.units["d"]
    assert not any(o["step"] == "dismount" for o in orders.step_options(t.state, c, 1, can_fire=False,
                                                                         disengaged=False))
    assert not any(o["step"] == "dismount" for o in orders.step_options(t.state, d, 0, can_fire=False,
                                                                         disengaged=False))


# -- §3.2.1 / §4.4.2 / §5.2.4.e / D11: orderly withdrawal (provisional) ------------------------------
def _approach(k, z_ma, leaders=None):
    """Red MI a (MA 6) moves from 0504 into 0604, next to blue z in 0705, which faces it."""
    ls = leaders or [k.leader("Red OC", "red", "0101", "oc"), k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "0705", "LC", ma=z_ma)], ls))
    z = t.state.units["z"]
    z.facing = orders.facing_toward(z, parse_hex("0604"))[0]
    return t, orders.Phase(t.state.leaders["Red OC"], 1)


def test_d11_a_faster_unit_withdraws_one_hex_keeping_its_facing(k):
    """[3.2.1-2] (D11, provisional): LC z (MA 9) approached by MI a (MA 6) steps back one hex,
    away from a, facing unchanged, for no order and no MP; a's melee finds nobody in front."""
    t, phase = _approach(k, 9)
    z = t.state.units["z"]
    corner = z.facing
    k.drive(orders.activate(t.ctx, t.state.units["a"], phase), [
        {"step": "move", "hex": "0604"}, {"unit": "z"}, {"step": "stop"}])
    assert z.hex.distance(parse_hex("0604")) == 2 and z.facing == corner
    assert [e.data["unit"] for e in t.events("withdraw")] == ["z"]


def test_4_4_2_1_a_stacked_leader_withdraws_with_his_unit(k):
    """[4.4.2-1], [5.2.4.e] (with D11): the blue leader stacked with z goes with it."""
    ls = [k.leader("Red OC", "red", "0101", "oc"), k.leader("Blue OC", "blue", "0705", "oc")]
    t, phase = _approach(k, 9, ls)
    k.drive(orders.activate(t.ctx, t.state.units["a"], phase), [
        {"step": "move", "hex": "0604"}, {"unit": "z", "leaders": True}, {"step": "stop"}])
    assert t.state.leaders["Blue OC"].hex == t.state.units["z"].hex != parse_hex("0705")


def test_d11_no_withdrawal_from_an_enemy_as_fast(k):
    """D11: with MA 6 against MA 6 z may not withdraw: no window opens."""
    t, phase = _approach(k, 6)
    k.drive(orders.activate(t.ctx, t.state.units["a"], phase), [{"step": "move", "hex": "0604"}, {"step": "stop"}])
    assert t.state.units["z"].hex == parse_hex("0705")


def test_2_4_disordered_cavalry_charges_nobody(k):
    """§2.4 "在这种状态下骑兵不能…发起冲锋": a disordered cavalry unit moving next to z is no charge,
    so z is offered no emergency turn (reading R-charge)."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504", "HC", ma=8), k.unit("z", "blue", "0705", facing=0)]))
    a = t.state.units["a"]
    a.disordered = True
    k.drive(orders.activate(t.ctx, a, orders.Phase(t.state.leaders["Red OC"], 1)),
            [{"step": "move", "hex": "0604"}, {"step": "stop"}])
    assert t.state.units["z"].facing == 0 and a.hex.distance(t.state.units["z"].hex) == 1
