"""§9 missile fire and §7.3 cavalry fired upon, with forced dice. Red fires east from 0504 at a
blue unit in 0704 (range 2) facing west (its front, D25)."""

from wargamekit import ScriptedDice
from wargamekit_aig import missile, orders
from wargamekit_aig.odds_calc import missile_odds


def _t(k, red=None, blue=None, dice=()):
    red = red or {}
    blue = blue or {}
    t = k.Table(k.scenario([k.unit("a", "red", "0504", **red), k.unit("z", "blue", "0704", **blue)]), list(dice))
    return t, orders.Phase(t.state.leaders["Red OC"], 1)


def test_9_1_1_hit_iff_modified_roll_at_most_the_number():
    """[9.1.1-2] hit iff d10 ≤ the number; [2.3-2] the d10 reads 0–9, so number 4 hits 5 times in 10."""
    assert missile.resolve_missile(ScriptedDice([4]), missile.Shot(4)).hit
    assert not missile.resolve_missile(ScriptedDice([5]), missile.Shot(4)).hit
    assert missile_odds(missile.Shot(4))[True] * 10 == 5
    assert missile_odds(missile.Shot(9))[True] == 1


def test_9_1_ordered_volley_one_hit_and_ammunition(k):
    """[9.1.1-3] a hit is exactly one cohesion hit; a volley uses one of the weapon's volleys (D5);
    self bow at range 2 needs 4 (D3); [9.1-1] a non-"s" unit's fire ends its action (§6.4)."""
    t, phase = _t(k, red={"missile": "B"}, dice=[4])
    a, z = t.state.units["a"], t.state.units["z"]
    shot = missile.shot_at(t.state, a, z)
    assert shot is not None and shot.number == 4
    k.drive(orders.activate(t.ctx, a, phase), [{"step": "fire", "target": "z"}])
    assert z.hits == 1 and a.ammo == 4 and a.fired


def test_6_4_skirmishers_fire_and_move_once_per_activation(k):
    """[6.4-1] an "s" unit may fire and then move; [9.1-1] but fire only once per activation."""
    t, phase = _t(k, red={"missile": "J", "skirmish": True, "type": "LI"}, blue={"type": "HI"}, dice=[9])
    a = t.state.units["a"]
    k.drive(orders.activate(t.ctx, a, phase), [
        {"step": "fire", "target": "z"}, {"step": "move", "hex": "0603"}, {"step": "stop"}])
    opts = orders.step_options(t.state, a, 1, can_fire=not a.fired, disengaged=False)
    assert a.hex.to_label(t.state.map.layout, base=1) == "0603" and not any(o["step"] == "fire" for o in opts)


def test_9_2_return_fire_once_and_never_answered(k):
    """[9.2-1] an "R" target still in normal state fires back at the firer (5 misses the volley,
    then 2 hits back); the return volley draws no return fire though the firer has R too."""
    t, phase = _t(k, red={"missile": "B", "return_fire": True}, blue={"missile": "B", "return_fire": True},
                  dice=[5, 2])
    a, z = t.state.units["a"], t.state.units["z"]
    k.drive(orders.fire(t.ctx, a, z, "ordered"), [{"firer": "z", "target": "a"}])
    assert z.hits == 0 and a.hits == 1 and z.ammo == 4
    assert [e.data["how"] for e in t.events("fire")] == ["ordered", "return"]


def test_9_2_no_return_fire_from_a_routed_target(k):
    """[9.2-1] "still in normal state": a target routed by the volley does not fire back (Q42)."""
    t, phase = _t(k, red={"missile": "B"}, blue={"missile": "B", "return_fire": True, "tq": 1}, dice=[0])
    a, z = t.state.units["a"], t.state.units["z"]
    k.drive(orders.fire(t.ctx, a, z, "ordered"), [])
    assert z.routed and a.hits == 0


def test_7_3_cavalry_fired_upon_takes_a_morale_check(k):
    """[7.3-3] cavalry fired upon checks morale (d10 ≤ cohesion after the volley): 9 misses, then
    7 > 6 disorders the HC; D3 an armoured CT would be one harder to hit."""
    t, phase = _t(k, red={"missile": "B"}, blue={"type": "HC", "tq": 6}, dice=[9, 7])
    a, z = t.state.units["a"], t.state.units["z"]
    k.drive(orders.fire(t.ctx, a, z, "ordered"), [])
    assert z.disordered and z.hits == 0
    assert missile.shot_at(t.state, a, z).number == 5  # §7.3.1 disordered cavalry: one column easier


def test_d25_flank_fire_is_easier(k):
    """D25 (provisional): a volley into the target's flank is one better."""
    t, _ = _t(k, red={"missile": "B"}, blue={"facing": 2})
    assert missile.shot_at(t.state, t.state.units["a"], t.state.units["z"]).number == 5


def test_9_3_reaction_fire_provisional(k):
    """§9.3 empty (D4, provisional): a blue missile unit may fire at a red unit entering its ZOI."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "0705", missile="J")]), [3])
    phase = orders.Phase(t.state.leaders["Red OC"], 1)
    a = t.state.units["a"]
    k.drive(orders.activate(t.ctx, a, phase), [{"step": "move", "hex": "0604"}, {"firer": "z"}, {"step": "stop"}])
    assert a.hits == 1 and a.fired_upon
