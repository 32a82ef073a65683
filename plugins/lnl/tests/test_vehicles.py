"""HWF / HWI / HWV / VEH / VMV / IVV / SAV — heavy weapons and vehicles, with forced dice."""

from fractions import Fraction

import pytest

from wargamekit import Game, ScriptedDice, odds
from wargamekit_lnl import LnL, fire, kinds, rules, vehicles
from wargamekit_lnl.scenario import hex_label
from wargamekit_lnl.scenario import parse_hex as H
from wargamekit_lnl.state import stacking_ok
from wargamekit_lnl.testing import answer, context, scenario, unit
from wargamekit_lnl.vehicles import GunShot, Penetration, penetrate, to_hit


def armour_duel(**kw):
    return scenario([unit("us-t", "us", "sherman", "0103", facing=1), unit("de-t", "german", "pz4", "0503", facing=4),
                     unit("de-1", "german", "de_squad", "0504")], **kw)


@pytest.mark.parametrize(("faces", "drm", "hit"), [([1, 1], 9, True), ([6, 6], -9, False), ([4, 4], 0, True),
                                                  ([4, 4], 1, False)])
def test_hwf33_to_hit(faces, drm, hit):
    """HWF 3.3: 2D6 + DRM ≤ number (8) hits; a 2 always hits, a 12 always misses."""
    assert to_hit(ScriptedDice(faces), GunShot(8, drm)) is hit


@pytest.mark.parametrize(("faces", "result"), [
    ([1, 6], "failed"),            # HWV 1.3c
    ([6, 1], "destroyed"),         # HWV 1.3d
    ([4, 1], "destroyed"),         # hull: 4 + 5 = 9 > 1 + 4
    ([3, 4, 3, 3], "shaken"),      # turret (odd, > 2): 3 + 5 = 8 = 4 + 4; morale 6 ≥ 6 → shaken (HWV 3.1)
    ([3, 4, 5, 3], "abandoned"),   # 8 = 8; morale 8 > 6 → abandoned (HWV 3.2)
    ([2, 6, 3, 3], "no effect"),   # hull: 7 < 10; 6 − 3 ≤ 6 → no effect (HWV 4.3)
    ([2, 6, 6, 4], "shaken"),      # 10 − 3 = 7 > 6 → shaken (HWV 4.2)
    ([2, 3, 6, 6], "abandoned"),   # hull: 2 + 5 = 7 = 3 + 4; morale 12 > 6 → abandoned
])
def test_hwv_penetration(faces, result):
    """HWV 1–4 with hull 4, turret 4, penetration 5, morale 6."""
    assert penetrate(ScriptedDice(faces), Penetration(5, 4, 4, False, 6)) == result


def test_hwv44_a_twelve_shakes_and_unarmoured_locations_and_red_h():
    """HWV 4.4: 2D6 = 12 shakes; HWV 1.1: an unarmoured location is destroyed; HWV 1.2: red H vs red armour −4."""
    assert penetrate(ScriptedDice([2, 6, 6, 6]), Penetration(5, 4, 4, False, 20)) == "shaken"
    assert penetrate(ScriptedDice([3, 6]), Penetration(0, 9, -1)) == "destroyed"
    # Red H against red armour: 4 + 5 − 4 = 5 < 2 + 4; morale 1 + 1 − 1 ≤ 6: no effect (9 > 6 without it).
    assert penetrate(ScriptedDice([4, 2, 1, 1]), Penetration(5, 4, 4, True, 6)) == "no effect"


def test_hwv13a_hit_location_by_facing():
    """HWV 1.3a (D12): armour of the side facing the firer; a boundary goes to the attacker."""
    ctx = context(armour_duel())
    s = ctx.state
    tank = s.units["de-t"]
    front = tank.hex.neighbour(tank.facing)
    rear = tank.hex.neighbour((tank.facing + 3) % 6)
    assert vehicles.armour_facing(tank, front) == (5, 3)
    assert vehicles.armour_facing(tank, rear) == (1, 2)


def test_hwi1_he_against_infantry():
    """HWI 1: 1D6 + HE (+1 vs a move marker), no leadership; HWI 2: 1D6 + terrain; HWI 3 damage checks."""
    ctx = context(armour_duel(terrain={"woods": ["0504"]}))
    s = ctx.state
    attack = vehicles.he_attack(s, s.units["us-t"], (H("0504"), 0))
    assert (attack.fp, attack.drm, attack.defence) == (4, 0, 2)
    s.units["de-1"].markers.add("move")
    assert vehicles.he_attack(s, s.units["us-t"], (H("0504"), 0)).fp == 5


def test_veh5_gun_and_mg_fire_together_and_he_reduces():
    """VEH 5, HWF 3, HWI: the gun hits (3 + 3 ≤ 8 at range 3), HE 6 + 4 against 1 + 0: the damage
    check 4 + 9 reduces the squad; then the hull MG (FP 2; the top MG is silent when buttoned,
    VEH 1) fires at the same hex: 6 + 2 against 1 + 0, the shaken half-squad's check 2 + 7 >
    morale: eliminated."""
    ctx = context(scenario([unit("us-t", "us", "sherman", "0103", facing=1), unit("de-1", "german", "de_squad", "0403")]),
                  dice=[3, 3, 6, 1, 4, 6, 1, 2])
    s = ctx.state
    assert vehicles.mg_fp(s.units["us-t"], H("0403")) == 2
    LnL().vehicle_shoot(ctx, s.units["us-t"], (H("0403"), 0))
    assert not s.units["de-1"].alive and not s.units["de-1/half"].alive
    assert "fire" in s.units["us-t"].markers and ctx.dice.remaining == []


def test_vmv_forward_turn_reverse_and_overrun_costs():
    """VMV 1.1 (forward only; a turn costs 1 MP), VMV 1.2 (reverse at double cost), VMV 3.2 (an
    overrun needs the hex's cost + 4 MP): the Sherman faces 0303, where a German squad stands;
    behind it is brush (2, doubled)."""
    data = scenario([unit("us-t", "us", "sherman", "0203", facing=1), unit("de-1", "german", "de_squad", "0303"),
                     unit("de-2", "german", "de_squad", "0905")], terrain={"brush": ["0104"]})
    game = Game.new(LnL(), data, dice=ScriptedDice([4, 3]))
    answer(game, hex="0203")
    answer(game, action="move")
    answer(game, mode="normal")
    d = game.pending
    assert d.kind == kinds.VEHICLE_STEP
    steps = {o.data.get("step"): o.data.get("cost") for o in d.options if not o.data.get("stop")}
    assert steps == {"forward": 5, "reverse": 4, "left": 1, "right": 1}
    answer(game, step="left")
    assert game.state.units["us-t"].facing == 0 and game.pending.context["mp_left"] == 5


def test_vmv_turning_then_moving_spends_mp_and_shaken_halves():
    """VEH 3: a shaken vehicle has half MP (6 → 3)."""
    ctx = context(armour_duel())
    tank = ctx.state.units["us-t"]
    assert vehicles.mp_of(tank) == 6
    tank.shaken = True
    assert vehicles.mp_of(tank) == 3


def test_vmv4_escape_and_hwv2_crew_state_and_ivv5():
    """VMV 4: a destroyed vehicle's crew escapes on a 1, shaken on an odd die (HWV 2); a vehicle
    destroyed in melee loses its crew (IVV 5); a wreck counts for stacking (SET 3.3)."""
    ctx = context(armour_duel(), dice=[1, 2])
    s = ctx.state
    rules.vehicle_lost(ctx, s.units["de-t"], vehicles.DESTROYED)
    crew = s.units["de-t/crew"]
    assert crew.kind == "crew" and not crew.shaken and s.wrecks == {H("0503"): 1}
    ctx2 = context(armour_duel(), dice=[])
    rules.vehicle_lost(ctx2, ctx2.state.units["de-t"], vehicles.DESTROYED, melee_kill=True)
    assert "de-t/crew" not in ctx2.state.units
    tank = ctx.state.units["us-t"]
    assert stacking_ok([tank], 1) and not stacking_ok([tank], 2)


def test_ivv_anti_tank_melee():
    """IVV 2–4: morale check (2D6 ≤ 5), then 1D6 + FP 2 + leadership 2 + satchel 3 > 1D6 + lowest
    armour 1: 1 + 7 = 8 > 6 + 1 → destroyed, the crew dies (IVV 5); leadership helps one unit only."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0403", weapons=["satchel"]),
                            unit("us-l", "us", "leader_2", "0403"),
                            unit("de-t", "german", "pz4", "0503", facing=4)]), dice=[2, 2, 1, 6])
    s = ctx.state
    gen = LnL().anti_tank(ctx, [s.units["us-1"], s.units["us-l"]])
    with pytest.raises(StopIteration):
        next(gen)  # one vehicle: asks nobody
    assert not s.units["de-t"].alive and "de-t/crew" not in s.units
    assert vehicles.at_value(s.units["us-1"], 2) == 7


def test_sav_small_arms_only_hurt_unarmoured_vehicles():
    """SAV 2.4 (buttoned armour: no effect), SAV 3 (unarmoured: 1D6 + FP vs 1D6 + terrain + 0,
    then the vehicle's damage check: 6 + 4 − 1... )."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0403", weapons=["bar"]),
                            unit("de-t", "german", "pz4", "0503", facing=4),
                            unit("de-h", "german", "halftrack", "0504", facing=4)]), dice=[6, 1, 4])
    s = ctx.state
    rules.fire_at(ctx, [s.units["us-1"]], (H("0503"), 0))
    assert s.units["de-t"].alive and not s.units["de-t"].shaken and ctx.dice.remaining == [6, 1, 4]
    rules.fire_at(ctx, [s.units["us-1"]], (H("0504"), 0))
    # 6 + 4 = 10 against 1 + 0: damage check 4 + 9 = 13 ≥ morale 5 + 3 → abandoned: a wreck.
    assert not s.units["de-h"].alive and s.wrecks == {H("0504"): 1}


def test_veh3_vehicles_self_rally_with_minus_two():
    ctx = context(armour_duel(), dice=[4, 4])
    tank = ctx.state.units["us-t"]
    tank.shaken = True
    assert rules.may_rally(ctx.state, tank, set()) == "self"
    rules.try_rally(ctx, tank, "self", set())  # 8 − 2 ≤ 6
    assert tank.good_order


def test_heavy_weapon_exact_odds():
    """The odds beside a vehicle's targets: exact, summing to 1, and equal to the whole procedure's."""
    shot, hit = GunShot(7, 1), Penetration(5, 4, 3, False, 6)
    dist = vehicles.gun_vs_vehicle_odds(shot, hit)
    assert sum(dist.values()) == 1 and dist["miss"] == 1 - odds.probability(to_hit, shot)
    attack, target = fire.Attack(4, 0, 2), fire.Target("squad", 5)
    composed = vehicles.gun_vs_infantry_odds(shot, attack, target)
    full = odds.distribution(vehicles.gun_vs_infantry, shot, attack, target)
    merged: dict[str, Fraction] = {}
    for (res, _hero), p in full.items():
        merged[res] = merged.get(res, Fraction(0)) + p
    assert composed == merged


def test_vmv3_overrun_then_no_fire_into_its_own_hex():
    """VMV 3.3–3.4: 1D6 + HE 4 + MGs 6 + 2 + commander 1 against 1D6: 1 + 13 − 6 = 8, a damage
    check for every defender (A54): 3 + 8 ≥ 5 + 3 → reduced. Afterwards the vehicle shares the hex and neither its
    gun nor its MGs fire into it."""
    ctx = context(scenario([unit("us-t", "us", "sherman", "0203", facing=1), unit("de-1", "german", "de_squad", "0303")]),
                  dice=[1, 6, 3])
    s = ctx.state
    tank = s.units["us-t"]
    tank.hex = H("0303")
    LnL().overrun(ctx, tank, (H("0303"), 0))
    assert not s.units["de-1"].alive and s.units["de-1/half"].shaken
    assert vehicles.vehicle_targets(s, tank) == ([], [])
    assert vehicles.mg_fp(tank, H("0303")) == 0 and vehicles.gun_shot(s, tank, H("0303")) is None


def test_ral24_tank_commander_rallies_only_his_own_tank():
    """RAL 2.4 (U16): the Sherman's commander (leadership 1) helps his own tank's rally on top of
    VEH 3's −2: 2D6 9 − 2 − 1 = 6 ≤ morale 6 rallies (without him 7 > 6 would fail); he is not a
    leader counter, so a shaken squad beside the tank has no one to rally it."""
    ctx = context(scenario([unit("us-t", "us", "sherman", "0103", facing=1), unit("us-1", "us", "us_squad", "0103"),
                            unit("de-1", "german", "de_squad", "0503")]), dice=[4, 5])
    s = ctx.state
    tank, squad = s.units["us-t"], s.units["us-1"]
    tank.shaken = squad.shaken = True
    assert rules.rally_drm(s, tank) == 3 and rules.may_rally(s, squad, set()) is None
    rules.try_rally(ctx, tank, "self", set())
    assert tank.good_order and ctx.dice.remaining == []


def test_vmv33_overrun_adds_the_commanders_leadership():
    """VMV 3.3: the overrun value counts the commander's leadership: 1D6 1 + HE 3 + MG 2 + 2 +
    commander 1 = 9 against 1D6 5: difference 4; the squad's damage check 1 + 4 = 5 ≤ morale 5:
    no effect (the die of 1 gives no hero on an even 1D6)."""
    ctx = context(scenario([unit("de-t", "german", "pz4", "0203", facing=1), unit("us-1", "us", "us_squad", "0303")]),
                  dice=[1, 5, 1, 2])
    s = ctx.state
    tank = s.units["de-t"]
    tank.hex = H("0303")
    LnL().overrun(ctx, tank, (H("0303"), 0))
    assert s.units["us-1"].good_order and ctx.dice.remaining == []
    events = [e for e in ctx.log if e.kind == "overrun"]
    assert events[-1].data["difference"] == 4


def test_vmv35_infantry_surviving_an_overrun_counter_attacks():
    """VMV 3.5: the half-track (MG 4 + 2, no commander) overruns a US squad: 1 + 6 against 6,
    difference 1; the damage check 1 + 1 ≤ 5 leaves it in Good Order (the die of 1: no hero on an
    even 1D6). The squad counter-attacks at once (IVV 2–4): morale 2 + 2 ≤ 5, then 1D6 1 + FP 2 +
    satchel 3 = 6 > 1D6 4 + lowest armour 0: the half-track is destroyed and its crew dies (IVV 5)."""
    data = scenario([unit("de-h", "german", "halftrack", "0203", facing=1),
                     unit("us-1", "us", "us_squad", "0303", weapons=["satchel"]),
                     unit("us-2", "us", "us_squad", "0106")])
    game = Game.new(LnL(), data, dice=ScriptedDice([3, 4, 1, 6, 1, 2, 2, 2, 1, 4]))
    assert game.pending.kind == kinds.WEAPONS  # RAL 4: the squad could drop its satchel charge
    answer(game, action="done")
    answer(game, hex="0203")
    answer(game, action="move")
    answer(game, mode="normal")
    answer(game, step="forward")
    d = game.pending
    assert d.kind == kinds.COUNTER_ATTACK and d.side == "us"
    assert d.context["vehicle"] == "de-h" and list(d.context["units"]) == ["us-1"]
    answer(game, attack=True)
    s = game.state
    assert not s.units["de-h"].alive and "de-h/crew" not in s.units and s.wrecks == {H("0303"): 1}
    assert s.units["us-1"].good_order and "ops" in s.units["us-1"].markers


def test_vmv35_holding_leaves_the_vehicle_alone():
    """VMV 3.5 is a choice: holding rolls nothing and the vehicle stays in the hex."""
    data = scenario([unit("de-h", "german", "halftrack", "0203", facing=1),
                     unit("us-1", "us", "us_squad", "0303", weapons=["satchel"]),
                     unit("us-2", "us", "us_squad", "0106")])
    game = Game.new(LnL(), data, dice=ScriptedDice([3, 4, 1, 6, 1, 2]))
    for key, value in (("action", "done"), ("hex", "0203"), ("action", "move"), ("mode", "normal"), ("step", "forward"), ("attack", False)):
        answer(game, **{key: value})
    s = game.state
    assert s.units["de-h"].alive and s.units["de-h"].hex == H("0303") and not s.units["us-1"].markers


def test_vmv14_infantry_moves_with_its_vehicle_into_the_same_hexes():
    """VMV 1.4 (U14 reading): the Sherman and the squad in its hex are activated together and
    move together, each paying its own MP: into brush (tank 2, squad 2), brush again (4 and 4);
    the squad's 4 MP are spent, so the tank (2 MP left) may only turn or stop. Infantry of
    another hex cannot join; two vehicles are never activated together."""
    first = H("0203").neighbour(0)
    second = first.neighbour(0)
    data = scenario([unit("us-t", "us", "sherman", "0203", facing=0), unit("us-1", "us", "us_squad", "0203"),
                     unit("us-l", "us", "leader_1", "0203"), unit("us-2", "us", "us_squad", "0103"),
                     unit("de-1", "german", "de_squad", "1001")],
                    terrain={"brush": [hex_label(first), hex_label(second)]})
    game = Game.new(LnL(), data, dice=ScriptedDice([4, 3]))
    answer(game, hex="0203")
    d = game.pending
    assert d.kind == kinds.UNITS
    assert "VMV 1.4" in d.constraint(("us-t", "us-1", "us-l", "us-2"))  # the leader reaches 0103, the tank does not
    assert "on its own" not in (d.constraint(("us-t", "us-1")) or "")
    game.answer([i for i, o in enumerate(d.options) if o.data["unit"] in ("us-t", "us-1")])
    d = game.pending  # only "move" (asked of nobody), only a normal move: the steps
    assert d.kind == kinds.VEHICLE_STEP and list(d.context["escort"]) == ["us-1"]
    answer(game, step="forward")
    answer(game, step="forward")
    s = game.state
    assert s.units["us-1"].hex == s.units["us-t"].hex == second
    d = game.pending
    assert d.context["mp_left"] == 2 and {o.data.get("step") for o in d.options} == {None, "left", "right"}
    answer(game, stop=True)
    assert "move" in s.units["us-1"].markers and "move" in s.units["us-t"].markers
