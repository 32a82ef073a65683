"""§8 rout and elimination, §3.4 the rally phase and §13 (provisional) victory, with forced dice."""

from wargamekit_aig import Aig, rally, rout
from wargamekit_aig.scenario import parse_hex


def test_8_1_hits_reaching_tq_rout_and_move_away(k):
    """[8.1-1] hits ≥ TQ → rout; [8.1.1-1] the rout move goes directly away from the nearest enemy."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504", tq=2), k.unit("z", "blue", "0604")]))
    a = t.state.units["a"]
    k.drive(rout.apply_hits(t.ctx, a, 2, "test"), [])
    assert a.routed and a.hex.distance(parse_hex("0604")) >= 3


def test_8_1_2_a_surrounded_unit_is_eliminated(k):
    """[8.1.2-2/3] with no way but toward impassable terrain or the enemy, the routed unit is eliminated."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504", tq=2), k.unit("z", "blue", "0604")],
                           impassable=["0603", "0503", "0403", "0404", "0505"]))
    a = t.state.units["a"]
    k.drive(rout.apply_hits(t.ctx, a, 2, "test"), [])
    assert a.eliminated and t.state.rout_points["red"] == 2


def test_8_1_2_routing_into_enemy_zoi_eliminates(k):
    """[8.1.2-1] a routed unit entering enemy ZOI is eliminated: the only way away from z runs into
    y's ZOI (y faces east onto 0403/0404)."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504", tq=2), k.unit("z", "blue", "0604"),
                            k.unit("y", "blue", "0303", facing=0)],
                           impassable=["0603", "0503", "0505"]))
    a = t.state.units["a"]
    k.drive(rout.apply_hits(t.ctx, a, 2, "test"), [])
    assert a.eliminated


def test_8_3_banner_rally_with_a_commander_near(k):
    """[8.3-1] within 3 hexes of the banner: d10 ≤ ⌈TQ/2⌉ rallies; [8.3.2-1] −1 in a commander's
    range: TQ 5 needs 3, a 4 − 1 rallies; D12 the unit keeps ⌈TQ/2⌉ cohesion."""
    ls = [k.leader("Red OC", "red", "0503", "oc", range=3), k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")], ls), [4])
    a = t.state.units["a"]
    a.routed, a.hits = True, 5
    k.drive(rout.banner_check(t.ctx, a), [])
    assert not a.routed and a.cohesion == 3


def test_8_3_failed_banner_rally_disperses(k):
    """[8.3-1] out of any commander's range (range 0), a 4 > 3 disperses the unit."""
    ls = [k.leader("Red OC", "red", "0503", "oc", range=0), k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")], ls), [4])
    a = t.state.units["a"]
    a.routed, a.hits = True, 5
    k.drive(rout.banner_check(t.ctx, a), [])
    assert a.eliminated


def test_8_3_1_captured_banner_eliminates(k):
    """[8.3.1-1] a routed unit within 3 hexes of its banner in enemy hands is eliminated."""
    t = k.Table(k.scenario([k.unit("a", "red", "0103"), k.unit("z", "blue", "0102")]))
    b = t.state.banners["red"]
    b.captured, b.carrier = True, "z"
    a = t.state.units["a"]
    a.routed, a.hits = True, 5
    k.drive(rout.banner_check(t.ctx, a), [])
    assert a.eliminated


def test_8_2_rally_phase_rout_move_toward_the_banner(k):
    """[8.2-1] in the rally phase a routed unit moves 3 hexes toward its banner, terrain ignored
    (woods in the way), then rallies if within 3 (a 0 rallies)."""
    t = k.Table(k.scenario([k.unit("a", "red", "0801"), k.unit("z", "blue", "1208")], woods=["0701", "0601"]), [0])
    a = t.state.units["a"]
    a.routed, a.hits = True, 5
    t.state.leaders["Red OC"].hex = parse_hex("0201")
    k.drive(rally.step_b(t.ctx), [])
    assert a.hex == parse_hex("0501") and not a.routed


def test_8_2_1_running_into_a_river_eliminates(k):
    """[8.2.1-1] a routed unit whose way to the banner crosses a river is eliminated."""
    t = k.Table(k.scenario([k.unit("a", "red", "0301"), k.unit("z", "blue", "1208")], rivers=["0301/3", "0301/4",
                                                                                           "0301/2", "0301/5"]))
    a = t.state.units["a"]
    a.routed, a.hits = True, 5
    t.state.leaders["Red OC"].hex = parse_hex("0101")
    k.drive(rally.step_b(t.ctx), [])
    assert a.eliminated


def test_3_4_rally_phase_steps(k):
    """[3.4-a] disorder removed; [3.4-c] reload out of enemy ZOI (D5); [3.4-e] leaders flipped back."""
    t = k.Table(k.scenario([k.unit("c", "red", "0504", "LC", ma=9, missile="A"), k.unit("z", "blue", "1108")]))
    c = t.state.units["c"]
    c.disordered, c.ammo = True, 1
    t.state.leaders["Red OC"].finished = True
    for step in (rally.step_a, rally.step_c, rally.step_e):
        k.drive(step(t.ctx), [])
    assert not c.disordered and c.ammo == 5 and not t.state.leaders["Red OC"].finished


def test_13_withdrawal_and_turn_cap(k):
    """D17 (provisional): a side at its withdrawal level loses; at the turn cap the lower share wins."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")]))
    s = t.state
    s.rout_points["blue"] = 50
    assert rally.step_d(t.ctx, ("red", "blue")).winner == "red"
    s.rout_points["blue"], s.rout_points["red"], s.turn = 10, 5, 3
    assert rally.step_d(t.ctx, ("red", "blue")).winner == "red"
    s.rout_points["red"] = 10
    assert rally.step_d(t.ctx, ("red", "blue")).winner is None


def test_d26_a_rout_move_does_not_enter_a_lone_enemy_leaders_hex(k):
    """D26: a routed unit enters no hex holding a unit or an enemy leader (one counter of each
    side per hex, D16). Of the three hexes away from z, red units hold 0503 and 0403 and the lone
    blue OC 0404: a stays where it is, routed, and nobody shares a hex with an enemy."""
    ls = [k.leader("Red OC", "red", "0101", "oc"), k.leader("Blue OC", "blue", "0404", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0504", tq=2), k.unit("b", "red", "0503"),
                            k.unit("c", "red", "0403"), k.unit("z", "blue", "0604")], ls))
    a = t.state.units["a"]
    k.drive(rout.apply_hits(t.ctx, a, 2, "test"), [])
    assert a.routed and a.hex == parse_hex("0504")
    Aig().check_invariants(t.state)
