"""§6 movement, §7 facing, ZOI and disorder, with forced dice. Flat-top hexes: from 0504 (facing
corner 0, east) the front hexes are 0604 and 0603; corner 3 faces west."""

from wargamekit.geometry import Arc
from wargamekit_aig import Aig, facing, orders
from wargamekit_aig.command import in_range
from wargamekit_aig.scenario import parse_hex


def _moves(options):
    return sorted(o["hex"] for o in options if o["step"] == "move")


def _setup(k, units, dice=(), **map_extra):
    t = k.Table(k.scenario(units, **map_extra), list(dice))
    phase = orders.Phase(t.state.leaders["Red OC"], 1)
    return t, phase


def test_6_3_only_front_hexes_may_be_entered(k):
    """[6.3-1] an active move enters an adjacent hex in front: 0604 or 0603 (Q27: either)."""
    t, _ = _setup(k, [k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")])
    a = t.state.units["a"]
    assert _moves(orders.step_options(t.state, a, 0, can_fire=False, disengaged=False)) == ["0603", "0604"]


def test_6_2_terrain_costs_and_6_6_blocking(k):
    """[6.2-1] woods cost MI 2 (D2); [6.6-2] infantry may not enter a friendly hex; [6.6-1] nor a
    non-routed enemy's."""
    t, _ = _setup(k, [k.unit("a", "red", "0504"), k.unit("f", "red", "0603"), k.unit("z", "blue", "1108")],
                  woods=["0604"])
    opts = orders.step_options(t.state, t.state.units["a"], 0, can_fire=False, disengaged=False)
    assert [(o["hex"], o["cost"]) for o in opts if o["step"] == "move"] == [("0604", 2.0)]
    t.state.units["z"].hex = k_hex("0604")
    opts = orders.step_options(t.state, t.state.units["a"], 0, can_fire=False, disengaged=False)
    assert _moves(opts) == []


def k_hex(label):
    from wargamekit_aig.scenario import parse_hex

    return parse_hex(label)


def test_6_3_1_turning_costs_one_mp(k):
    """[6.3.1-1] a facing change costs 1 MP and may point anywhere; [6.3.2-1] turns and moves mix."""
    t, phase = _setup(k, [k.unit("a", "red", "0504", ma=2), k.unit("z", "blue", "1108")])
    a = t.state.units["a"]
    k.drive(orders.activate(t.ctx, a, phase), [{"step": "turn", "facing": 2}, {"step": "move", "hex": "0503"}])
    assert a.facing == 2 and a.hex == k_hex("0503")


def test_6_6_3_heavy_cavalry_through_friendly_infantry(k):
    """[6.6-3] HC passes friendly infantry: +1 MP and 1 hit to itself, 2 hits to the infantry."""
    t, phase = _setup(k, [k.unit("h", "red", "0504", "HC", ma=8), k.unit("i", "red", "0604"),
                          k.unit("z", "blue", "1108")])
    k.drive(orders.activate(t.ctx, t.state.units["h"], phase),
            [{"step": "pass", "hex": "0705", "cost": 3.0}, {"step": "stop"}])
    h, i = t.state.units["h"], t.state.units["i"]
    assert h.hex == k_hex("0705") and h.hits == 1 and i.hits == 2


def test_8_4_entering_a_routed_enemy_eliminates_it(k):
    """[8.4-1] a non-routed unit may move into a routed enemy's hex, eliminating it."""
    t, phase = _setup(k, [k.unit("a", "red", "0504"), k.unit("z", "blue", "0604")])
    z = t.state.units["z"]
    z.routed = True
    k.drive(orders.activate(t.ctx, t.state.units["a"], phase), [{"step": "move", "hex": "0604"}, {"step": "stop"}])
    assert z.eliminated and t.state.rout_points["blue"] == 5


def test_6_3_3_emergency_turn_routs_on_a_failed_check(k):
    """[6.3.3-1] a unit fired upon this activation that turns takes a morale check (d10 ≤ cohesion,
    Q29): 6 > 5 routs it at once."""
    t, phase = _setup(k, [k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")], dice=[6])
    a = t.state.units["a"]
    a.fired_upon = True
    k.drive(orders.turn(t.ctx, a, 2), [])
    assert a.routed and a.facing == 0


def test_6_3_3_emergency_turn_passes(k):
    """[6.3.3-1] a check of 5 ≤ 5 passes: the unit turns."""
    t, _ = _setup(k, [k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")], dice=[5])
    a = t.state.units["a"]
    a.fired_upon = True
    k.drive(orders.turn(t.ctx, a, 2), [])
    assert not a.routed and a.facing == 2


def test_6_3_4_turning_in_melee(k):
    """[6.3-1, 6.3.4-1] an engaged unit may only turn in melee: 2 hits, then a morale check; a
    failure (4 > 5-2) eliminates it instead of routing it."""
    t, phase = _setup(k, [k.unit("a", "red", "0504"), k.unit("z", "blue", "0604")], dice=[4])
    a = t.state.units["a"]
    opts = orders.step_options(t.state, a, 0, can_fire=False, disengaged=False)
    assert {o["step"] for o in opts} >= {"melee_turn"} and "turn" not in {o["step"] for o in opts}
    k.drive(orders.turn(t.ctx, a, 2, in_melee=True), [])
    assert a.eliminated


def test_6_3_4_turning_in_melee_survives(k):
    """[6.3.4-1] 3 ≤ 5-2 passes: two hits and the new facing."""
    t, _ = _setup(k, [k.unit("a", "red", "0504"), k.unit("z", "blue", "0604")], dice=[3])
    a = t.state.units["a"]
    k.drive(orders.turn(t.ctx, a, 2, in_melee=True), [])
    assert a.hits == 2 and a.facing == 2 and not a.eliminated


def test_7_1_vertex_facing_arcs(k):
    """[7.1-1] facing corner 0: the two hexsides beside it front, the opposite two rear, the rest flank."""
    t, _ = _setup(k, [k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")])
    a = t.state.units["a"]
    arcs = [facing.arc(a, a.hex.neighbour(d)) for d in range(6)]
    assert arcs == [Arc.FRONT, Arc.FRONT, Arc.FLANK, Arc.REAR, Arc.REAR, Arc.FLANK]


def test_7_3_1_disordered_cavalry_is_all_front_and_moves_6(k):
    """[7.3.1-1] all six hexsides are front; [7.3.2-1] MA 6; [7.3.1-4] it may not fire."""
    t, _ = _setup(k, [k.unit("c", "red", "0504", "LC", ma=9, missile="A"), k.unit("z", "blue", "1108")])
    c = t.state.units["c"]
    c.disordered = True
    assert all(facing.arc(c, c.hex.neighbour(d)) == Arc.FRONT for d in range(6))
    assert len(facing.front_hexes(t.state, c)) == 6 and orders.unit_ma(c) == 6
    from wargamekit_aig.missile import can_fire

    assert can_fire(c) == "disordered cavalry may not fire (§7.3.1)"


def test_7_3_2_disengaging_disordered_cavalry(k):
    """[7.3.2-2] engaged only with infantry: 2 hits, then a morale check; 2 ≤ 6-2 passes and the
    unit moves on with 6 MP."""
    t, phase = _setup(k, [k.unit("c", "red", "0504", "HC", tq=6, ma=8), k.unit("z", "blue", "0604")], dice=[2])
    c = t.state.units["c"]
    c.disordered = True
    opts = orders.step_options(t.state, c, 0, can_fire=False, disengaged=False)
    assert {"step": "disengage"} in opts
    k.drive(orders.activate(t.ctx, c, phase), [{"step": "disengage"}, {"step": "move", "hex": "0404"},
                                                {"step": "stop"}])
    assert c.hits == 2 and c.hex == k_hex("0404")


def test_d7_zoi_is_the_front_not_across_a_river(k):
    """D7 (provisional): a unit's ZOI is its two front hexes; a river hexside cuts it."""
    t, _ = _setup(k, [k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")], rivers=["0504/0"])
    a = t.state.units["a"]
    assert [str(h) for h in facing.zoi(t.state, a)] == [str(k_hex("0603"))]


def test_4_2_2_command_range_is_blocked_by_enemy_zoi_and_units(k):
    """[4.2.2-1] a path of ≤ range hexes not through enemy units, enemy ZOI or impassable terrain:
    0504 → 0704 is 2 hexes; an enemy in 0604 facing corner 2 (its ZOI on 0603) forces the path
    round through 0505-0605-0705: 4 hexes."""
    ls = [k.leader("Red OC", "red", "0504", "oc", range=2), k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0704"), k.unit("z", "blue", "1108")], ls))
    oc, a = t.state.leaders["Red OC"], t.state.units["a"]
    assert in_range(t.state, oc, a)
    t.state.units["z"].hex, t.state.units["z"].facing = k_hex("0604"), 2
    oc.range = 3
    assert not in_range(t.state, oc, a)
    oc.range = 4
    assert in_range(t.state, oc, a)
    t2 = k.Table(k.scenario([k.unit("a", "red", "0704"), k.unit("z", "blue", "1108")], ls,
                            impassable=["0603", "0604", "0605"]))
    assert not in_range(t2.state, t2.state.leaders["Red OC"], t2.state.units["a"])


def test_6_6_3_a_pass_ends_if_the_passed_unit_routs_into_the_hex_beyond(k):
    """[6.6-3] the passed infantry (TQ 2) routs from its 2 hits and its rout move, away from z,
    stops in the hex beyond it (0704 impassable, w behind): the HC's pass ends where it began
    (D16: one unit per hex)."""
    t, phase = _setup(k, [k.unit("h", "red", "0504", "HC", ma=8), k.unit("i", "red", "0604", tq=2),
                          k.unit("w", "red", "0805"), k.unit("z", "blue", "0204", facing=0)],
                      dice=[9, 9, 9, 9], impassable=["0704"])
    h, i = t.state.units["h"], t.state.units["i"]
    k.drive(orders.activate(t.ctx, h, phase), [{"step": "pass", "through": "i"}])
    assert i.routed and i.hex == parse_hex("0705") and h.hex == parse_hex("0504") and h.hits == 1
    Aig().check_invariants(t.state)
