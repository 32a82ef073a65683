"""§3.2.2 the melee segment and the provisional shock system (§10–§12 empty, D8), forced dice."""

from wargamekit import ScriptedDice
from wargamekit.geometry import Arc
from wargamekit_aig import Aig, melee, orders
from wargamekit_aig.odds_calc import shock_odds

VALUES = (("CT", 5), ("HC", 4), ("HI", 4), ("LC", 2), ("LI", 1), ("MI", 3))


def test_shock_table_and_columns():
    """D8 (provisional): d10 + column; HI vs MI is +1; rear +2 (D25), the defender's charisma −."""
    assert melee.Shock("HI", "MI", VALUES).column == 1
    assert melee.Shock("HI", "MI", VALUES, Arc.REAR, defender_leader=2).column == 1
    assert melee.resolve_shock(ScriptedDice([4]), melee.Shock("HI", "MI", VALUES)) == (1, 2)
    assert melee.resolve_shock(ScriptedDice([0]), melee.Shock("LI", "CT", VALUES)) == (3, 0)
    assert sum(shock_odds(melee.Shock("HI", "MI", VALUES)).values()) == 1


def _fight(k, dice, red=None, blue=None, leaders=None):
    t = k.Table(k.scenario([k.unit("a", "red", "0404", **(red or {})), k.unit("z", "blue", "0604", **(blue or {}))],
                           leaders), list(dice))
    return t, orders.Phase(t.state.leaders["Red OC"], 1)


def test_3_2_2_segment_order_a_to_e(k):
    """[3.2.2-1] a unit that moved into contact takes the pre-melee check (b: 6 > 5 → 1 hit,
    provisional), then the leader-casualty checks (c), the shock (d: 3 + 0 → 1/1), and the rout
    check (e). The moved unit carries no "Melee – No Check" marker (a)."""
    t, phase = _fight(k, [6, 3])
    a, z = t.state.units["a"], t.state.units["z"]
    k.drive(orders.activate(t.ctx, a, phase), [{"step": "move", "hex": "0504"}, {"step": "stop"}])
    k.drive(orders.melee_segment(t.ctx, phase), [{"target": "z"}])
    assert a.hits == 2 and z.hits == 1


def test_3_2_2_a_unmoved_unit_needs_no_check_and_cavalry_disorders(k):
    """[3.2.2-1 a] activated without moving: no pre-melee check; [7.3-2] cavalry in a melee is
    disordered afterwards (Q36 reading); the only die is the shock's (5 + 1 → 1/2)."""
    t, phase = _fight(k, [5], red={"type": "HC", "tq": 6, "ma": 8})
    a, z = t.state.units["a"], t.state.units["z"]
    a.hex = z.hex.neighbour(3)
    k.drive(orders.activate(t.ctx, a, phase), [{"step": "stop"}])
    k.drive(orders.melee_segment(t.ctx, phase), [{"target": "z"}])
    assert a.disordered and (a.hits, z.hits) == (1, 2)


def test_3_2_2_c_leader_casualty(k):
    """[3.2.2-1 c] (D21, provisional) a leader stacked with a unit in melee falls on a raw 0."""
    ls = [k.leader("Red OC", "red", "0504", "oc"), k.leader("Blue OC", "blue", "1208", "oc")]
    t, phase = _fight(k, [0, 5], leaders=ls)
    a = t.state.units["a"]
    a.hex = t.state.units["z"].hex.neighbour(3)
    k.drive(orders.activate(t.ctx, a, phase), [{"step": "stop"}])
    k.drive(orders.melee_segment(t.ctx, phase), [{"target": "z"}])
    # D12 (provisional): he carried the banner and fell fighting z, so z captures it (§8.3.1).
    banner = t.state.banners["red"]
    assert not t.state.leaders["Red OC"].alive and banner.captured and banner.carrier == "z"


def test_3_2_2_e_rout_check_after_the_shock(k):
    """[3.2.2-1 e] a defender whose hits reach its TQ routs after the shock (9 + 1 → 0/3), then
    makes its rout move (and here a failed banner rally near its banner: 9 > 2)."""
    t, phase = _fight(k, [9, 9, 9], blue={"tq": 3})
    a, z = t.state.units["a"], t.state.units["z"]
    a.hex = z.hex.neighbour(3)
    a.type = "HI"
    k.drive(orders.activate(t.ctx, a, phase), [{"step": "stop"}])
    k.drive(orders.melee_segment(t.ctx, phase), [{"target": "z"}])
    assert [e.data["unit"] for e in t.events("rout")] == ["z"] and z.hits == 3


def test_3_2_2_e_both_sides_rout_together_and_the_invariants_hold_between(k):
    """[3.2.2-1 e] the rout check covers every unit of the segment at once: with TQ 1 on both sides
    a 3 + 0 (1/1) routs attacker and defender; while a rout move asks its way, the other unit
    already carries its Rout marker (§8.1: hits ≥ TQ is rout). Each flees the nearest enemy not
    routed (D26): a from y, z from the unmoved red b."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504", tq=1), k.unit("b", "red", "0108", facing=3),
                            k.unit("z", "blue", "0604", tq=1), k.unit("y", "blue", "0502", facing=0)]),
                [3, 9, 9, 9, 9])
    phase = orders.Phase(t.state.leaders["Red OC"], 1)
    a = t.state.units["a"]
    k.drive(orders.activate(t.ctx, a, phase), [{"step": "stop"}])
    gen = orders.melee_segment(t.ctx, phase)
    decision = next(gen)
    answer = decision.options[k.pick(decision, {"target": "z"})].value
    seen = 0
    try:
        while True:
            decision = gen.send(answer)
            Aig().check_invariants(t.state)
            seen += 1
            answer = decision.options[0].value
    except StopIteration:
        pass
    assert seen >= 1 and [e.data["unit"] for e in t.events("rout")] == ["a", "z"]
