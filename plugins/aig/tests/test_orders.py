"""§4 leaders and §5.2 the command phase, with forced dice."""

from wargamekit_aig import kinds, orders
from wargamekit_aig.scenario import parse_hex


def _army(k, *, foot_hex="0505", oc_hex="0101", oc_range=3, dice=(), units=None, extra_leaders=()):
    ls = [k.leader("OC", "red", oc_hex, "oc", command="guard", range=oc_range, initiative=5, group_orders=2),
          k.leader("Foot", "red", foot_hex, command="foot", range=2, initiative=3),
          k.leader("Blue OC", "blue", "1208", "oc"), *extra_leaders]
    units = units or [k.unit("f1", "red", "0505", command="foot"), k.unit("f2", "red", "0605", command="foot"),
                      k.unit("f3", "red", "1005", command="foot"), k.unit("g", "red", "0102", command="guard"),
                      k.unit("z", "blue", "1108")]
    t = k.Table(k.scenario(units, ls), list(dice))
    return t


def test_3_2_1_reactivation_costs_a_hit(k):
    """[3.2.1-3] a unit activated again in the same turn takes 1 cohesion hit before acting."""
    t = _army(k)
    f1 = t.state.units["f1"]
    for n in (1, 2):
        k.drive(orders.activate(t.ctx, f1, orders.Phase(t.state.leaders["Foot"], n)), [{"step": "stop"}])
    assert f1.hits == 1 and f1.activations == 2


def test_5_2_2_individual_orders_count_and_once_per_phase(k):
    """[4.1-1] as many individual orders as the initiative; [5.2.5-1] one order per unit per
    phase; [5.2.2.b] an order removes two hits."""
    t = _army(k)
    foot = t.state.leaders["Foot"]
    t.state.units["f2"].hits = 3
    phase = orders.Phase(foot, 1)
    first = next(orders.individual_orders(t.ctx, foot, foot.initiative, phase))
    assert first.kind == kinds.ORDER and first.context["left"] == 3
    assert {o.data.get("unit") for o in first.options} == {"f1", "f2", None}  # f3, g out of range 2
    k.drive(orders.individual_orders(t.ctx, foot, foot.initiative, phase), [
        {"order": "remove_hits", "unit": "f2"}, {"order": "activate", "unit": "f1"}, {"step": "stop"},
        {"order": "done"}])
    assert t.state.units["f2"].hits == 1
    third = next(orders.individual_orders(t.ctx, foot, 1, phase))
    assert {o.data.get("unit") for o in third.options} == {None}  # both already ordered this phase


def test_4_2_4_group_order_activates_the_command_within_twice_the_range(k):
    """[4.2.4-3] all of his command within 2 × range (f1, f2; not f3 five hexes off); [4.3.1-d]
    the OC in range makes it automatic and [4.3.2.a] keeps it so for the turn."""
    t = _army(k, oc_hex="0405", oc_range=3)
    foot = t.state.leaders["Foot"]
    phase = orders.Phase(foot, 1)
    assert {u.name for u in orders.group_eligible(t.state, foot, phase)} == {"f1", "f2"}
    k.drive(orders.group_orders(t.ctx, foot, phase), [
        {"group": "foot"}, {"unit": "f1"}, {"step": "stop"}, {"unit": "f2"}, {"step": "stop"}])
    assert foot.group_free and t.state.units["f1"].activations == 1


def test_4_3_2_b_group_order_check_fails_and_finishes(k):
    """[4.3.2-b] out of the OC's range: d10 ≤ initiative; 4 > 3 fails and ends the phase (§5.1.3.e)."""
    t = _army(k, dice=[4])
    foot = t.state.leaders["Foot"]
    phase = orders.Phase(foot, 1)
    k.drive(orders.group_orders(t.ctx, foot, phase), [{"group": "foot"}])
    assert phase.failed and t.state.units["f1"].activations == 0


def test_4_3_1_c_cross_command_raw_zero_and_failure(k):
    """[4.3.1-c] the OC's group order to another command: raw 0 succeeds and frees that command
    from the roll; otherwise d10 + 1 ≤ initiative (Q9); 5 + 1 > 5 fails: the units are barred
    this turn and the OC is finished."""
    t = _army(k, oc_hex="0405", dice=[0])
    oc = t.state.leaders["OC"]
    phase = orders.Phase(oc, 1)
    units = orders.group_eligible(t.state, oc, phase, "foot")
    assert k.drive(orders.cross_command(t.ctx, oc, "foot", units, phase), []) is True
    assert oc.cross_free == ["foot"]
    t2 = _army(k, oc_hex="0405", dice=[5])
    oc2 = t2.state.leaders["OC"]
    phase2 = orders.Phase(oc2, 1)
    units2 = orders.group_eligible(t2.state, oc2, phase2, "foot")
    assert k.drive(orders.cross_command(t2.ctx, oc2, "foot", units2, phase2), []) is False
    assert phase2.failed and all(u.banned for u in units2)


def test_4_2_6_leader_in_melee_and_the_oc_exception(k):
    """[4.2.6-1] a non-OC leader in melee issues no orders; [4.3.1-a] the OC may, moving himself
    for 2 orders."""
    units = [k.unit("f1", "red", "0505", command="foot"), k.unit("g", "red", "0102", command="guard"),
             k.unit("z", "blue", "0605"), k.unit("y", "blue", "0202", facing=2)]
    t = _army(k, units=units, oc_hex="0102")
    foot, oc = t.state.leaders["Foot"], t.state.leaders["OC"]
    phase = k.drive(orders.command_phase(t.ctx, foot), [])  # one mode only: asked of nobody
    assert phase.mode == "stand by"
    d = next(orders.command_phase(t.ctx, oc))
    assert {o.data["mode"] for o in d.options} == {"individual", "stand by"}
    gen = orders.individual_orders(t.ctx, oc, 5, orders.Phase(oc, 9), self_cost=2)
    first = next(gen)
    assert {"order": "move_self", "cost": 2} in [dict(o.data) for o in first.options]


def test_4_3_3_junior_relays_orders(k):
    """[4.3.3-d] a junior given an order activates his stacked unit and issues his own initiative's
    worth of orders."""
    jr = k.leader("Jr", "red", "0605", "junior", command="foot", superior="Foot", initiative=1, group_orders=0,
                  range=2)
    t = _army(k, extra_leaders=[jr])
    foot = t.state.leaders["Foot"]
    phase = orders.Phase(foot, 1)
    k.drive(orders.individual_orders(t.ctx, foot, 1, phase), [
        {"order": "relay", "leader": "Jr"}, {"step": "stop"}, {"order": "activate", "unit": "f1"}, {"step": "stop"}])
    assert t.state.units["f2"].activations == 1 and t.state.units["f1"].activations == 1


def test_4_3_1_e_promotion(k):
    """[4.3.1-e] the OC promotes a junior whose superior fell: group orders 1, finished (§4.4.3)."""
    jr = k.leader("Jr", "red", "0605", "junior", command="foot", superior="Foot", initiative=1, group_orders=0,
                  range=2)
    t = _army(k, oc_hex="0405", oc_range=4, extra_leaders=[jr])
    t.state.leaders["Foot"].alive = False
    oc = t.state.leaders["OC"]
    k.drive(orders.individual_orders(t.ctx, oc, 1, orders.Phase(oc, 1)), [{"order": "promote", "leader": "Jr"}])
    j = t.state.leaders["Jr"]
    assert j.rank == "ordinary" and j.group_orders == 1 and j.finished and j.command == "foot"


def test_4_4_2_evasion_from_infantry_and_capture_by_cavalry(k):
    """[4.4.2-a] an unstacked leader approached by infantry goes to the nearest friendly unit;
    [4.4.2-b] approached by LC with MA ≥ 8: d10 + 1 ≤ initiative, else he is lost (3 + 1 > 3)."""
    lone = k.leader("Lone", "blue", "0805", initiative=3, command="bc")
    ls = [k.leader("Red OC", "red", "0101", "oc"), k.leader("Blue OC", "blue", "1208", "oc"), lone]
    units = [k.unit("a", "red", "0605"), k.unit("c", "red", "0603", "LC", ma=9), k.unit("z", "blue", "1005"),
             k.unit("y", "blue", "1108")]
    t = k.Table(k.scenario(units, ls))
    phase = orders.Phase(t.state.leaders["Red OC"], 1)
    k.drive(orders.activate(t.ctx, t.state.units["a"], phase), [
        {"step": "move", "hex": "0705"}, {"leader": "Lone"}, {"step": "stop"}])
    assert t.state.leaders["Lone"].hex == parse_hex("1005")
    t.state.leaders["Lone"].hex = parse_hex("0805")
    t.state.units["a"].hex = parse_hex("0605")
    t.state.units["c"].hex = parse_hex("0604")
    t.dice(3)
    k.drive(orders.activate(t.ctx, t.state.units["c"], orders.Phase(t.state.leaders["Red OC"], 2)), [
        {"step": "move", "hex": "0705"}, {"leader": "Lone"}, {"step": "stop"}])
    assert not t.state.leaders["Lone"].alive and t.state.rout_points["blue"] == 5


def test_5_2_1_banner_rally_order(k):
    """§5.2.1 banner rally (D12, provisional): routed units in range try d10 − 1 ≤ ⌈TQ/2⌉."""
    t = _army(k, oc_hex="0405", dice=[3, 9])
    f1, f2 = t.state.units["f1"], t.state.units["f2"]
    f1.routed, f1.hits, f2.routed, f2.hits = True, 5, True, 5
    k.drive(orders.banner_rally_order(t.ctx, t.state.leaders["OC"]), [])
    assert not f1.routed and f2.routed and not f2.eliminated


def test_5_2_1_a_banner_rally_is_offered_with_a_routed_unit_of_his_side_in_play(k):
    """§5.2.1: the command phase offers a banner rally only while a unit of the leader's side is
    routed and in play: not for a routed enemy, nor a routed unit eliminated since."""
    t = _army(k)
    oc = t.state.leaders["OC"]

    def offers_banner() -> bool:
        menu = next(orders.command_phase(t.ctx, oc))
        return "banner" in [o.data["mode"] for o in menu.options]

    assert not offers_banner()
    t.state.units["z"].routed = True  # blue's
    assert not offers_banner()
    f3 = t.state.units["f3"]
    f3.routed = True
    assert offers_banner()
    f3.eliminated = True
    assert not offers_banner()


def test_5_2_4_c_d_leaders_ride_with_group_activated_units(k):
    """[5.2.4.c] the group-ordering leader may go with his stacked unit; [5.2.4.d] a lower leader
    stacked with an activated unit goes with it; [4.3.1-b] the OC's group order needs no roll."""
    jr = k.leader("Jr", "red", "0505", "junior", command="guard", superior="OC", initiative=1, group_orders=0)
    units = [k.unit("g1", "red", "0405", command="guard"), k.unit("g2", "red", "0505", command="guard"),
             k.unit("z", "blue", "1108")]
    t = _army(k, units=units, oc_hex="0405", extra_leaders=[jr])
    oc = t.state.leaders["OC"]
    assert orders.group_check(t.state, oc) is None
    phase = orders.Phase(oc, 1)
    k.drive(orders.group_orders(t.ctx, oc, phase), [
        {"group": "guard"}, {"unit": "g1", "with_leader": True}, {"step": "move", "hex": "0506"}, {"step": "stop"},
        {"unit": "g2"}, {"step": "move", "hex": "0605"}, {"step": "stop"}])
    assert oc.hex == parse_hex("0506") and t.state.leaders["Jr"].hex == parse_hex("0605")


def test_4_3_2_a_no_check_kept_for_the_turn(k):
    """[4.3.2-a] once he has issued a group order without a check, he keeps that for the turn."""
    t = _army(k)
    foot = t.state.leaders["Foot"]
    assert orders.group_check(t.state, foot) == 3
    foot.group_free = True
    assert orders.group_check(t.state, foot) is None


def test_5_4_5_a_seizer_must_melee(k):
    """[5.4.5-1] after a successful seize every unit that can melee must: with no "no melee"
    option the only target is taken without asking, and the shock is rolled (4 → 1/1)."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "0604")]), [4])
    phase = orders.Phase(t.state.leaders["Red OC"], 1, seized=True)
    k.drive(orders.activate(t.ctx, t.state.units["a"], phase), [{"step": "stop"}])
    k.drive(orders.melee_segment(t.ctx, phase), [])
    assert [e.data["defender"] for e in t.events("melee")] == ["z"]
