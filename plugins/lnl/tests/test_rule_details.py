"""Forced-dice tests for rules whose outcome the other test files reached only as a code path:
RAL 2.6, RAL 4–5, CRL, STL, AST, MEL 1.4, MEL 8.1, FIR 1.4, FPR 1.3, FPR 6.4, OPF 1b, OPF 4,
HWI 1.3, VMV 1.3, VMV 2, ADM 2. Each test cites the rule it shows."""

import attrs
import pytest

from wargamekit import Choose
from wargamekit.interrupts import TimingPoint
from wargamekit_lnl import LnL, fire, kinds, melee, movement, rules, vehicles
from wargamekit_lnl.data import COUNTERS
from wargamekit_lnl.los import exposed, hex_exposed
from wargamekit_lnl.scenario import hex_label
from wargamekit_lnl.scenario import parse_hex as H
from wargamekit_lnl.state import Weapon
from wargamekit_lnl.testing import context, scenario, unit


def drive(gen, *answers):
    """Run a rule procedure, answering each decision with the option whose data holds ``answers[i]``
    (a decision with one option answers itself). Returns the decisions asked."""
    asked = []
    try:
        decision = next(gen)
        for wanted in answers:
            asked.append(decision)
            assert isinstance(decision, Choose), decision
            option = next((o for o in decision.options if all(o.data.get(k) == v for k, v in wanted.items())), None)
            assert option is not None, f"{decision.kind}: no option with {wanted}: {[dict(o.data) for o in decision.options]}"
            decision = gen.send(option.value)
        raise AssertionError(f"still asking {decision.kind}: {[dict(o.data) for o in decision.options]}")
    except StopIteration:
        return asked


@pytest.fixture
def extra_type():
    """Add a counter type for one test (where the bundled data has none that shows the rule)."""
    added = []

    def add(name, base, **changes):
        spec = COUNTERS.units[base]
        if "vehicle" in changes and isinstance(changes["vehicle"], dict):
            changes["vehicle"] = attrs.evolve(spec.vehicle, **changes["vehicle"])
        COUNTERS.units[name] = attrs.evolve(spec, **changes)
        added.append(name)

    yield add
    for name in added:
        del COUNTERS.units[name]


# -- RAL ------------------------------------------------------------------------------------------
def test_ral26_a_medic_rallied_heals_at_once():
    """RAL 2.6: the shaken medic rallies with the help of a Good Order but wounded leader (2D6 1 + 1
    − leadership 2 − 1 (LDR 3) ≤ 6) and may heal that leader in the same rally phase (SMC 1.2: the
    wounded marker goes)."""
    ctx = context(scenario([unit("us-m", "us", "medic", "0203"), unit("us-w", "us", "leader_2", "0203"),
                            unit("de-1", "german", "de_squad", "0903")]), dice=[1, 1])
    s = ctx.state
    s.units["us-m"].shaken = True
    s.units["us-w"].wounded = True
    asked = drive(LnL().rally_side(ctx, "us"), {"action": "rally", "unit": "us-m"},
                  {"action": "heal", "medic": "us-m", "unit": "us-w"}, {"action": "done"})
    assert not any(o.data["action"] == "heal" for o in asked[0].options)  # shaken: no healing yet
    assert s.units["us-m"].good_order and not s.units["us-w"].wounded


def test_ral4_a_loose_sw_is_picked_up_and_ral5_jams_clear_without_an_enemy_in_the_hex():
    """RAL 4: a Good Order unit picks up a loose SW in its hex; RAL 5 (U8): a Good Order unit
    with no enemy in its hex clears its jammed SW at the start of its rally, one with an enemy
    in the hex keeps it jammed, and so does a shaken unit; a unit's every jammed SW is cleared,
    not only its first SW."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0203", weapons=["bar"]),
                            unit("us-2", "us", "us_squad", "0503", weapons=["bar"]),
                            unit("us-3", "us", "us_squad", "0703", weapons=["bar"]),
                            unit("us-4", "us", "us_squad", "0803", weapons=["bar", "bar"]),
                            unit("de-1", "german", "de_squad", "0503")]))
    s = ctx.state
    for uid in ("us-1", "us-2", "us-3"):
        s.units[uid].weapons[0].jammed = True
    s.units["us-4"].weapons[1].jammed = True
    s.units["us-3"].shaken = True
    s.loose[(H("0203"), 0)] = [Weapon("lmg-9", "lmg")]
    drive(LnL().rally_side(ctx, "us"), {"action": "pickup", "unit": "us-1", "weapon": "lmg-9"}, {"action": "done"},
          {"action": "done"})
    assert [w.id for w in s.units["us-1"].weapons] == ["bar-1", "lmg-9"] and not s.loose
    assert not s.units["us-1"].weapons[0].jammed and s.units["us-2"].weapons[0].jammed
    assert s.units["us-3"].weapons[0].jammed and not s.units["us-4"].weapons[1].jammed


# -- CRL / OPF 1b -----------------------------------------------------------------------------------
def test_crl1_crawl_into_open_ground_in_enemy_los_is_spotted_and_opf1b_fires_only_if_exposed_before():
    """CRL 1.1: crawling into open ground in the enemy's LOS places a spotted marker. OPF 1b:
    the crawler was exposed before it moved (open ground), so the enemy is offered opportunity
    fire; CRL 2: it ends with a crawl marker."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")]))
    s = ctx.state
    asked = drive(LnL().move(ctx, [s.units["us-1"]]), {"mode": "crawl"}, {"hex": "0203"}, {"pass": True})
    assert [d.kind for d in asked] == [kinds.MOVE_MODE, kinds.MOVE_STEP, kinds.OPPORTUNITY_FIRE]
    assert (H("0203"), 0) in s.spotted and s.units["us-1"].markers == {"crawl"}


def test_crl1_a_hidden_crawler_is_not_fired_at_and_in_cover_stays_unspotted():
    """OPF 1b: a crawler that was not exposed before its move (in brush, no enemy next to it) is
    not offered to opportunity fire; CRL 1.1: crawling into brush places no spotted marker, and a
    crawl marker does not expose (SPT 3)."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")],
                           terrain={"brush": ["0103", "0203"]}))
    s = ctx.state
    assert not exposed(s, s.units["us-1"])
    asked = drive(LnL().move(ctx, [s.units["us-1"]]), {"mode": "crawl"}, {"hex": "0203"})
    assert [d.kind for d in asked] == [kinds.MOVE_MODE, kinds.MOVE_STEP]
    assert not s.spotted and s.units["us-1"].markers == {"crawl"}
    assert not hex_exposed(s, (H("0203"), 0), "us")


# -- STL ------------------------------------------------------------------------------------------
def test_stl2_stealth_may_enter_a_melee_and_stl6_leaves_a_stealth_marker():
    """STL 2: a stealth mover may enter an enemy hex (a melee); STL 6: after a stealth move the
    unit has a stealth marker; STL 1.1: into brush it is not spotted and no opportunity fire is
    offered (OPF 1a)."""
    ctx = context(scenario([unit("us-s", "us", "scout", "0403"), unit("de-1", "german", "de_squad", "0503")],
                           terrain={"brush": ["0404"]}))
    s = ctx.state
    scout = s.units["us-s"]
    total = movement.allowance([scout], "stealth")
    assert (H("0503"), 0, 1) in movement.steps(s, [scout], scout.place, 0, total, "stealth", 0)
    asked = drive(LnL().move(ctx, [scout]), {"mode": "stealth"}, {"hex": "0404"}, {"stop": True})
    assert all(d.kind != kinds.OPPORTUNITY_FIRE for d in asked)
    assert scout.markers == {"stealth"} and not s.spotted


# -- AST ------------------------------------------------------------------------------------------
def test_ast12_assault_never_into_a_hex_costing_all_its_mp():
    """AST 1.2 (A18): assault halves the squad's 4 MP to 2; a building (2 MP) would cost all of
    it and is not offered; open ground (1) is; a normal move may enter the building."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0203"), unit("de-1", "german", "de_squad", "0903")],
                           terrain={"buildings": ["0303"]}))
    s = ctx.state
    sq = s.units["us-1"]
    total = movement.allowance([sq], "assault")
    assert total == 2
    assault = {(h, c) for h, _l, c in movement.steps(s, [sq], sq.place, 0, total, "assault", 0)}
    assert (H("0303"), 2) not in assault and len(assault) == 5 and all(c == 1 for _h, c in assault)
    assert (H("0303"), 0, 2) in movement.steps(s, [sq], sq.place, 0, 4, "normal", 0)


def test_ast23_assault_fire_in_the_impulse_and_ast3_markers():
    """AST 2.3: after its assault move the squad fires in the same impulse (lnl.assault_fire), its
    FP 2 − 2 (AST 2.2) = 0: 1D6 6 + 0 against 1 + 0 hits; de-1's check 2 + 5 = 7 > 5 shakes it.
    AST 3: an assault marker and a fire marker."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")]),
                  dice=[6, 1, 2])
    s = ctx.state
    asked = drive(LnL().move(ctx, [s.units["us-1"]]), {"mode": "assault"}, {"hex": "0203"}, {"pass": True},
                  {"stop": True}, {"hex": "0503"})
    assert asked[-1].kind == kinds.ASSAULT_FIRE and any(o.data.get("hold") for o in asked[-1].options)
    assert s.units["de-1"].shaken and s.units["us-1"].markers == {"assault", "fire"} and ctx.dice.remaining == []


def test_ast23_an_assault_marked_unit_may_opportunity_fire_later():
    """AST 2.3 / A22: an assault marker does not bar opportunity fire (OPF 1c lists move, fire,
    crawl and stealth); a move marker does."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0303")]))
    s = ctx.state
    us, de = s.units["us-1"], s.units["de-1"]
    offers = LnL()._opportunity(ctx, [de], de.place)
    us.markers = {"assault"}
    assert [list(r.data["firers"]) for r in offers("us", TimingPoint("t", None, 0))] == [["us-1"]]
    us.markers = {"move"}
    assert offers("us", TimingPoint("t", None, 0)) == []


# -- MEL ------------------------------------------------------------------------------------------
def test_mel14_only_the_same_level_melees():
    """MEL 1.4: entering a building's ground level while the enemy holds only its upper level
    starts no melee: the upper level is untouched; entering that level would."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0203"), unit("de-1", "german", "de_squad", "0303", level=1)],
                           terrain={"buildings": ["0303"]}))
    s = ctx.state
    us = s.units["us-1"]
    us.hex = H("0303")
    rules.fight_melee(ctx, "us", (H("0303"), 0), [us])
    assert s.units["de-1"].alive and us.alive and ctx.dice.remaining == []
    assert (H("0303"), 1, 1) in movement.steps(s, [us], us.place, 0, 4, "normal", 0)  # climbing is an entry


def test_mel81_minus_one_per_attacking_zero_fp_counter(extra_type):
    """MEL 8.1 (A24: the attacker's own 0-FP counters): a 0-FP squad counts 1 in melee FP (MEL 5)
    and gives −1: 1 against 3 is 1:3 (kill 12); 2D6 6 + 6 − 1 = 11 fails where 12 would kill."""
    extra_type("zero_squad", "us_squad", fp=0)
    ctx = context(scenario([unit("us-0", "us", "zero_squad", "0303"), unit("de-1", "german", "de_squad", "0303")]),
                  dice=[6, 6])
    s = ctx.state
    round_ = melee.plan_round([s.units["us-0"]], [s.units["de-1"]], 0)
    assert (round_.attack, round_.defence, round_.drm, round_.kill) == (1, 3, -1, 12)
    assert melee.resolve_round(ctx.dice, round_) is False


# -- FIR / FPR ------------------------------------------------------------------------------------
def test_fir14_each_level_is_judged_on_its_own():
    """FIR 1.4: a spotted marker on a building's upper level exposes that level only; the ground
    level (in a building, no marker, no adjacent enemy) cannot be fired at."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503"),
                            unit("de-2", "german", "de_squad", "0503", level=1)], terrain={"buildings": ["0503"]}))
    s = ctx.state
    s.spotted.add((H("0503"), 1))
    assert not exposed(s, s.units["de-1"]) and exposed(s, s.units["de-2"])
    assert rules.targets_for(s, [s.units["us-1"]], [[s.units["us-1"]]]) == [(H("0503"), 1)]


def test_fpr13_the_firers_own_movement_penalty_decides_the_attack():
    """FPR 1.3 (A28: the firer's own movement, STL 5's −2): a squad with a stealth marker fires
    FP 2 − 2 = 0: 1D6 3 + 0 against 3 + 0 is no hit (FPR 4: strictly greater); without the
    marker 3 + 2 > 3 would hit."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")]),
                  dice=[3, 3])
    s = ctx.state
    s.units["us-1"].markers.add("stealth")
    assert rules.fire_at(ctx, [s.units["us-1"]], (H("0503"), 0)) == []
    assert s.units["de-1"].good_order and ctx.dice.remaining == []


def test_fpr64_a_hero_with_no_room_enters_the_first_free_hex_clockwise():
    """FPR 6.4: two single-man counters already fill the hex (SET 3.2), the hex at hexside 0 holds
    an enemy, so the hero goes to the hex at hexside 1; the skill card is drawn (index 0: brawler)."""
    place = H("0303")
    side0, side1 = place.neighbour(0), place.neighbour(1)
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0303"), unit("us-l", "us", "leader_1", "0303"),
                            unit("us-m", "us", "medic", "0303"), unit("de-1", "german", "de_squad", hex_label(side0))]),
                  dice=[0])
    hero = rules.create_hero(ctx, "us", (place, 0))
    assert hero is not None and hero.hex == side1 and hero.skill == "brawler" and hero.good_order


# -- OPF 4 ----------------------------------------------------------------------------------------
def test_opf4_a_zero_fp_unit_counts_minus_one_and_ops_complete_one_more(extra_type):
    """OPF 4 (A42): in opportunity fire a 0-FP unit counts −1; with an ops-complete marker −1 more
    (OPF 1d); in its own fire it counts 0."""
    extra_type("zero_squad", "us_squad", fp=0)
    ctx = context(scenario([unit("us-0", "us", "zero_squad", "0103"), unit("de-1", "german", "de_squad", "0403")]))
    s = ctx.state
    u = s.units["us-0"]
    assert fire.firepower([u], H("0403")) == (0, False)
    assert fire.firepower([u], H("0403"), opportunity=True) == (-1, False)
    u.markers.add("ops")
    assert fire.firepower([u], H("0403"), opportunity=True) == (-2, False)


# -- HWI / VMV ------------------------------------------------------------------------------------
def test_hwi13_a_red_h_gun_has_minus_one_he(extra_type):
    """HWI 1.3: a red-H gun's HE attack is −1 (Sherman HE 4 → 3)."""
    extra_type("red_sherman", "sherman", vehicle={"red_h": True})
    ctx = context(scenario([unit("us-t", "us", "red_sherman", "0103", facing=1), unit("de-1", "german", "de_squad", "0403")]))
    s = ctx.state
    assert vehicles.he_attack(s, s.units["us-t"], (H("0403"), 0)).fp == 3


def vehicle_ctx(*extra, dice=()):
    return context(scenario([unit("us-t", "us", "sherman", "0203", facing=1), *extra]), dice=dice)


def test_vmv13_never_into_an_enemy_vehicle_hex_and_vmv23_no_overrun_in_an_assault():
    """VMV 1.3: the hex ahead holds a Panzer IV: no forward step. VMV 2.3: with infantry ahead an
    assault offers no forward step (no overrun), a normal move offers it at cost + 4 (VMV 3.2)."""
    ctx = vehicle_ctx(unit("de-t", "german", "pz4", "0303", facing=4))
    asked = drive(LnL().vehicle_move(ctx, ctx.state.units["us-t"]), {"mode": "normal"}, {"stop": True})
    assert "forward" not in {o.data.get("step") for o in asked[1].options}
    for mode, steps, after in (("assault", {None, "reverse", "left", "right"}, [{"hold": True}]),
                               ("normal", {None, "forward", "reverse", "left", "right"}, [])):
        ctx = vehicle_ctx(unit("de-1", "german", "de_squad", "0303"))
        asked = drive(LnL().vehicle_move(ctx, ctx.state.units["us-t"]), {"mode": mode}, {"stop": True}, *after)
        assert {o.data.get("step") for o in asked[1].options} == steps
    assert {o.data.get("cost") for o in asked[1].options if o.data.get("step") == "forward"} == {5}


def test_vmv21_22_a_vehicle_assault_halves_mp_and_fires_at_plus_two_to_hit_and_minus_two_fp():
    """VMV 2.1–2.2: an assault move has half the MP (6 → 3); the gun then fires at +2 to hit
    (2D6 4 + 3 + 2 = 9 > 8 misses at range 3) and the MGs at FP 2 − 2 = 0 (6 + 0 against 1 + 0
    hits; de-1's check 2 + 5 = 7 shakes it)."""
    ctx = vehicle_ctx(unit("de-1", "german", "de_squad", "0503"), dice=[4, 3, 6, 1, 2])
    s = ctx.state
    tank = s.units["us-t"]
    assert vehicles.gun_shot(s, tank, H("0503"), assault=True).drm == vehicles.gun_shot(s, tank, H("0503")).drm + 2
    asked = drive(LnL().vehicle_move(ctx, tank), {"mode": "assault"}, {"stop": True}, {"hex": "0503"})
    assert asked[1].context["mp_left"] == 3 and asked[2].kind == kinds.VEHICLE_TARGET and asked[2].context["assault"]
    assert s.units["de-1"].shaken and tank.markers == {"assault", "fire"} and ctx.dice.remaining == []


# -- ADM 2 ----------------------------------------------------------------------------------------
def test_adm2_decided_melees_lose_their_marker_undecided_keep_it():
    """ADM 2: a melee hex where one side is gone loses its marker; one where both remain keeps it."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0303"), unit("de-1", "german", "de_squad", "0303"),
                            unit("us-2", "us", "us_squad", "0505")]))
    s = ctx.state
    s.melee = {(H("0303"), 0), (H("0505"), 0)}
    rules.administration(ctx)
    assert s.melee == {(H("0303"), 0)}
