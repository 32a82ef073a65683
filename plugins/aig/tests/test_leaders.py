"""§4 leaders: movement allowance, ZOI, riding with units, orders out of melee; §5.2.2.c rally."""

from wargamekit_aig import orders
from wargamekit_aig.command import leader_destinations, leader_ma
from wargamekit_aig.scenario import parse_hex


def test_4_1_leader_movement_allowance(k):
    """[4.1-5] 6 MP carrying the banner, 8 without."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")]))
    oc = t.state.leaders["Red OC"]
    assert leader_ma(t.state, oc) == 6
    t.state.banners["red"].carrier = "nobody"
    assert leader_ma(t.state, oc) == 8


def test_4_4_1_a_leader_alone_may_not_enter_enemy_zoi(k):
    """[4.4.1-1] never into enemy ZOI alone; [4.4.1-2] stacked with a friendly unit he may."""
    ls = [k.leader("Red OC", "red", "0504", "oc"), k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0705"), k.unit("z", "blue", "0804")], ls))
    reach = leader_destinations(t.state, t.state.leaders["Red OC"])
    assert parse_hex("0704") not in reach  # z faces west: its ZOI is 0704 and 0705
    assert parse_hex("0705") in reach  # a friendly unit stands there


def test_5_2_4_b_the_leader_moves_with_the_unit_he_orders(k):
    """[5.2.4.b] ordering the unit he is stacked with, the leader may go with it."""
    ls = [k.leader("Red OC", "red", "0504", "oc"), k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")], ls))
    oc = t.state.leaders["Red OC"]
    k.drive(orders.individual_orders(t.ctx, oc, 1, orders.Phase(oc, 1)), [
        {"order": "activate", "unit": "a", "with_leader": True}, {"step": "move", "hex": "0604"}, {"step": "stop"}])
    assert oc.hex == parse_hex("0604") == t.state.units["a"].hex


def test_4_2_6_the_oc_orders_a_leader_out_of_melee_for_two_orders(k):
    """[4.2.1-3] / [4.2.6-2] a higher commander may order a leader in melee to move: 2 orders."""
    ls = [k.leader("Red OC", "red", "0304", "oc", range=4), k.leader("Foot", "red", "0504"),
          k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "0604")], ls))
    oc = t.state.leaders["Red OC"]
    first = next(orders.individual_orders(t.ctx, oc, 2, orders.Phase(oc, 1)))
    assert {"order": "move_leader", "leader": "Foot", "cost": 2} in [dict(o.data) for o in first.options]
    first = next(orders.individual_orders(t.ctx, oc, 1, orders.Phase(oc, 1)))
    assert not any(o.data.get("order") == "move_leader" for o in first.options)


def test_5_2_2_c_rally_order(k):
    """[5.2.2.c] (D13, provisional) an order tries to rally a routed unit: d10 ≤ ⌈TQ/2⌉ (3 ≤ 3)."""
    t = k.Table(k.scenario([k.unit("a", "red", "0201"), k.unit("z", "blue", "1108")]), [3])
    a = t.state.units["a"]
    a.routed, a.hits = True, 5
    k.drive(orders.rally_routed(t.ctx, t.state.leaders["Red OC"], a), [])
    assert not a.routed and a.cohesion == 3


def test_8_4_2_zoi_passing_over_a_routed_unit_does_not_eliminate_it(k):
    """[8.4-2] a routed enemy merely in the mover's ZOI survives."""
    t = k.Table(k.scenario([k.unit("a", "red", "0404"), k.unit("z", "blue", "0604")]))
    z = t.state.units["z"]
    z.routed = True
    k.drive(orders.activate(t.ctx, t.state.units["a"], orders.Phase(t.state.leaders["Red OC"], 1)),
            [{"step": "move", "hex": "0504"}, {"step": "stop"}])
    assert not z.eliminated and z.hex == parse_hex("0604")


def test_7_3_1_3_disordered_cavalry_attacks_only_if_already_engaged(k):
    """[7.3.1-3] disordered cavalry that moved into contact may not melee (no melee decision)."""
    t = k.Table(k.scenario([k.unit("c", "red", "0404", "HC", ma=8), k.unit("z", "blue", "0604")]))
    c = t.state.units["c"]
    c.disordered = True
    phase = orders.Phase(t.state.leaders["Red OC"], 1)
    k.drive(orders.activate(t.ctx, c, phase), [{"step": "move", "hex": "0504"}, {"step": "stop"}])
    k.drive(orders.melee_segment(t.ctx, phase), [])
    assert t.state.units["z"].hits == 0


def test_2_2_1_trained_missile_units_hit_more_often(k):
    """[2.2.1-5] the "specially trained" shape (D22, provisional +1)."""
    from wargamekit_aig import missile

    t = k.Table(k.scenario([k.unit("a", "red", "0504", missile="B", trained=True), k.unit("z", "blue", "0704")]))
    assert missile.shot_at(t.state, t.state.units["a"], t.state.units["z"]).number == 5
