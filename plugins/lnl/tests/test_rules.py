"""Forced-dice tests of the other sections: SET, RAL, OPS, ADM, MOV/CRL/STL/AST, MEL, LOS, SPT,
SMK, OPF, the hooks and bad input."""

import pytest

from wargamekit import Game, InvalidChoiceError, ScenarioError, ScriptedDice, hookimpl, plugin_manager
from wargamekit_lnl import LnL, fire, kinds, melee, movement, rules
from wargamekit_lnl.data import melee_column
from wargamekit_lnl.los import exposed, visible
from wargamekit_lnl.scenario import parse_hex as H
from wargamekit_lnl.state import stacking_ok
from wargamekit_lnl.testing import answer, context, scenario, unit


def two(*extra, terrain=None, **kw):
    units = [unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503"), *extra]
    return scenario(units, terrain=terrain or {}, **kw)


# -- SET ------------------------------------------------------------------------------------------
def test_set3_stacking_limits():
    """SET 3.1–3.2 (A1: per side): 3 squads, or 2 half-squads for one; 2 single-man counters."""
    ctx = context(two(unit("us-2", "us", "us_squad", "0103"), unit("us-3", "us", "us_squad", "0103"),
                      unit("us-h", "us", "us_half", "0203"), unit("us-l", "us", "leader_1", "0103"),
                      unit("us-m", "us", "medic", "0103")))
    s = ctx.state
    here = [s.units[i] for i in ("us-1", "us-2", "us-3", "us-l", "us-m")]
    assert stacking_ok(here)
    assert not stacking_ok([*here, s.units["us-h"]])
    with pytest.raises(ScenarioError, match="overstacks"):
        context(two(*[unit(f"us-{i}", "us", "us_squad", "0103") for i in range(2, 5)]))


def test_set1_bad_scenarios_name_the_field():
    """Scenario errors name the rule and the path; nothing is built."""
    with pytest.raises(ScenarioError, match="no counter type") as err:
        context(two(unit("us-x", "us", "tiger", "0103")))
    assert err.value.path == "$.units[2].type"
    with pytest.raises(ScenarioError, match="off the 10 x 6 map"):
        context(two(unit("us-x", "us", "us_squad", "1103")))
    with pytest.raises(ScenarioError, match="SET 4"):
        context(two(unit("us-x", "us", "us_squad", "0203", level=1)))
    with pytest.raises(ScenarioError, match="SW 1"):
        context(two(unit("us-x", "us", "us_half", "0203", weapons=["bar", "bar"])))


def test_a11_option_is_checked():
    with pytest.raises(InvalidChoiceError, match="A11"):
        Game.new(LnL(), two(), options={"unable": "maybe"}, dice=ScriptedDice([]))


# -- RAL / OPS / ADM through a game ----------------------------------------------------------------
def test_ral1_initiative_higher_wins_tie_keeps():
    """RAL 1: 1D6 each; the higher takes the initiative, a tie leaves it (scenario: german)."""
    game = Game.new(LnL(), two(initiative="german"), dice=ScriptedDice([3, 3]))
    assert game.state.initiative == "german" and game.pending.side == "german"
    game = Game.new(LnL(), two(initiative="german"), dice=ScriptedDice([5, 2]))
    assert game.state.initiative == "us" and game.pending.kind == kinds.ACTIVATE and game.pending.side == "us"


def test_ops1_three_consecutive_passes_end_the_phase():
    """OPS 1: passes counted over both players: us, german, us → administration, next turn."""
    game = Game.new(LnL(), two(), dice=ScriptedDice([4, 3, 2, 5]))
    for side in ("us", "german", "us"):
        assert game.pending.side == side
        answer(game, **{"pass": True})
    assert game.state.turn == 2 and game.state.initiative == "german" and game.pending.side == "german"


def test_ops_a_pass_does_not_bar_later_impulses():
    """OPS 1 (derived): us passes, german acts, and us may act again; the count restarts."""
    game = Game.new(LnL(), two(), dice=ScriptedDice([4, 3]))
    answer(game, **{"pass": True})
    answer(game, hex="0503")
    answer(game, action="move")
    answer(game, mode="normal")
    answer(game, stop=True)
    assert game.pending.side == "us" and game.pending.kind == kinds.ACTIVATE
    assert "move" in game.state.units["de-1"].markers


def test_ral2_rally_roll_with_leader_and_favourable_terrain():
    """RAL 2.1: 2D6 − leadership − 2 (favourable: woods) ≤ morale: 5 + 4 − 4 = 5 ≤ 5 rallies; 6 + 4 − 4 fails."""
    for faces, ok in (([5, 4], True), ([6, 4], False)):
        ctx = context(two(unit("us-l", "us", "leader_2", "0103"), terrain={"woods": ["0103"]}), dice=faces)
        u = ctx.state.units["us-1"]
        u.shaken = True
        helper = rules.may_rally(ctx.state, u, set())
        assert helper == "leader"
        rules.try_rally(ctx, u, helper, set())
        assert u.shaken is not ok


def test_ral2_who_may_rally_and_the_medic_extra_try():
    """RAL 2.2/HER 2.5 (a hero where no leader is), RAL 2.5 (a medic: one more try), D15 (one
    try per phase otherwise), A4 (no helper, no try)."""
    ctx = context(two(unit("us-m", "us", "medic", "0103"), unit("us-2", "us", "us_squad", "0203"),
                      unit("us-h", "us", "hero", "0203", skill="steady")), dice=[6, 6, 6, 6])
    s = ctx.state
    lone = s.units["de-1"]
    lone.shaken = True
    assert rules.may_rally(s, lone, set()) is None
    u2 = s.units["us-2"]
    u2.shaken = True
    assert rules.may_rally(s, u2, set()) == "hero"
    rules.try_rally(ctx, u2, "hero", set())
    assert u2.shaken and rules.may_rally(s, u2, set()) is None
    u1 = s.units["us-1"]
    u1.shaken = True
    used: set[str] = set()
    assert rules.may_rally(s, u1, used) == "us-m"
    rules.try_rally(ctx, u1, "us-m", used)
    assert rules.may_rally(s, u1, used) is None


def test_ral_rally_phase_offers_odds_heal_and_merge():
    """RAL 2 with the exact chance in the option; SMC 1.2 heal; RAL 3 merge with a GO leader."""
    data = two(unit("us-l", "us", "leader_1", "0103"), unit("us-m", "us", "medic", "0103"),
               unit("us-a", "us", "us_half", "0203"), unit("us-b", "us", "us_half", "0203"),
               unit("us-l2", "us", "leader_1", "0203"))
    ctx = context(data)
    ruleset = LnL()
    s = ctx.state
    s.units["us-1"].shaken = True
    s.units["us-l"].wounded = True
    gen = ruleset.rally_side(ctx, "us")
    decision = next(gen)
    options = {o.data["action"]: o for o in decision.options}
    assert decision.kind == kinds.RALLY and set(options) == {"done", "rally", "heal", "merge"}
    # 2D6 − 0 (the wounded leader: 1 − 1) ≤ 5: 10/36.
    assert tuple(options["rally"].data["p"]) == (5, 18)
    merge = next(o for o in decision.options if o.data["action"] == "merge")
    decision = gen.send(merge.value)
    assert [u.kind for u in s.alive("us") if u.hex == H("0203")].count("squad") == 1


def test_adm_markers_and_smoke_age():
    """ADM 1–3 (A14): action and spotted markers go; Smoke 2 removed, then Smoke 1 → Smoke 2."""
    ctx = context(two(), dice=[2])
    s = ctx.state
    assert rules.place_smoke(ctx, [s.units["us-1"]], H("0203"))  # SMK 1.2: 2 ≤ capability 2
    assert s.units["us-1"].markers == {"ops"}  # SMK 3
    s.smoke[H("0303")] = 2
    s.spotted.add((H("0503"), 0))
    rules.administration(ctx)
    assert s.smoke == {H("0203"): 2} and not s.spotted and not s.units["us-1"].markers
    rules.administration(ctx)
    assert s.smoke == {}


# -- MOV / CRL / STL / AST ------------------------------------------------------------------------
def test_mov21_forced_march_and_halving():
    """MOV 2.1 (+2 with a GO leader, not above his MP), MOV 1.1 (an SMC with an SW −2), STL 5 /
    AST 2 (half, rounded up, after the forced march: A16)."""
    ctx = context(two(unit("us-l", "us", "leader_2", "0103"), unit("us-s", "us", "scout", "0103"),
                      unit("us-c", "us", "leader_1", "0203", weapons=["bar"])))
    s = ctx.state
    sq, ldr = s.units["us-1"], s.units["us-l"]
    assert movement.allowance([sq], "normal") == 4
    assert movement.allowance([sq, ldr], "normal") == 5
    assert movement.allowance([sq, ldr], "assault") == 3
    assert movement.allowance([s.units["us-s"]], "stealth") == 3
    assert movement.allowance([s.units["us-c"]], "normal") == 3
    assert movement.modes_for([sq, ldr]) == ["normal", "crawl", "assault"]  # AST 1.1
    assert movement.modes_for([s.units["us-s"]]) == ["normal", "crawl", "stealth"]
    sq.shaken = True
    assert movement.modes_for([sq]) == ["normal"]


def test_mov1_costs_scout_and_wall():
    """MOV 1 / MOV 3 (D2): woods 2, building 2, a wall +1; MOV 1.2: with a scout woods cost 1."""
    here, there = H("0103"), H("0203")
    ctx = context(two(unit("us-s", "us", "scout", "0103"), terrain={
        "woods": ["0203"], "walls": [{"hex": "0103", "side": here.direction_to(there)}]}))
    s = ctx.state
    assert movement.step_cost(s, here, there, [s.units["us-1"]]) == 3
    assert movement.step_cost(s, here, there, [s.units["us-1"], s.units["us-s"]]) == 2


def test_mov4_minimum_move_and_its_exceptions():
    """MOV 4: one hex always, even beyond the MP left — not when shaken, not next to an enemy (A17)."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0803")],
                           terrain={"woods": ["0203", "0202", "0204", "0102", "0104"]}))
    s = ctx.state
    sq = s.units["us-1"]
    options = movement.steps(s, [sq], sq.place, 0, 1, "normal", 0)
    assert (H("0203"), 0, 1) in options
    sq.shaken = True
    assert not [o for o in movement.steps(s, [sq], sq.place, 0, 1, "normal", 0) if o[0] == H("0203")]
    sq.shaken = False
    s.units["de-1"].hex = H("0303")
    assert not [o for o in movement.steps(s, [sq], sq.place, 0, 1, "normal", 0) if o[0] == H("0203")]


def test_crl1_one_hex_with_all_mp_not_into_a_hex_costing_all():
    """CRL 1, CRL 1.3: a crawl enters one hex spending all MP, never a hex costing all of them."""
    ctx = context(two(terrain={"woods": ["0203"]}))
    s = ctx.state
    sq = s.units["us-1"]
    assert all(cost == 2 for _h, _l, cost in movement.steps(s, [sq], sq.place, 0, 2, "crawl", 0))
    assert H("0203") not in [h for h, _l, _c in movement.steps(s, [sq], sq.place, 0, 2, "crawl", 0)]
    assert movement.steps(s, [sq], sq.place, 0, 4, "crawl", 1) == []


def test_ast13_assault_never_enters_an_enemy_hex():
    ctx = context(two(unit("de-2", "german", "de_squad", "0203")))
    s = ctx.state
    sq = s.units["us-1"]
    assert H("0203") not in [h for h, _l, _c in movement.steps(s, [sq], sq.place, 0, 2, "assault", 0)]
    assert H("0203") in [h for h, _l, _c in movement.steps(s, [sq], sq.place, 0, 4, "normal", 0)]


def test_opf_a_mover_entering_a_hex_in_los_is_fired_at_and_stops_when_shaken():
    """OPF 1–5, MOV 9, MOV 2.3: us-1 enters open 0203; de-1 fires +1 vs a mover: 3 + 3 + 1 = 7
    against 1 + 0; 2 + 6 = 8 ≥ 8: a casualty, the shaken half-squad stops."""
    game = Game.new(LnL(), two(), dice=ScriptedDice([4, 3, 3, 1, 2, 1, 1]))
    answer(game, hex="0103")
    answer(game, action="move")
    answer(game, mode="normal")
    answer(game, hex="0203")
    assert game.pending.kind == kinds.OPPORTUNITY_FIRE and game.pending.side == "german"
    game.answer(1)
    s = game.state
    half = s.units["us-1/half"]
    assert half.hex == H("0203") and half.shaken
    shots = [e for e in game.log if e.kind == "fire"]
    assert [(e.data["attack"], e.data["defence"], e.data["opportunity"]) for e in shots] == [(7, 1, True)]
    # Both units have acted (move and fire markers): the phase ends; turn 2 begins (tie: us keeps it).
    assert s.turn == 2 and game.pending.side == "us" and game.pending.kind == kinds.ACTIVATE


def test_opf1c_units_that_moved_cannot_fire_and_stealth_is_not_fired_at():
    """OPF 1c: a unit with a move marker offers no opportunity fire; OPF 1a: stealth movers are
    never fired at (no window opens)."""
    game = Game.new(LnL(), two(unit("us-s", "us", "scout", "0105")), dice=ScriptedDice([4, 3]))
    game.state.units["de-1"].markers.add("move")
    answer(game, hex="0103")
    answer(game, action="move")
    answer(game, mode="normal")
    answer(game, hex="0203")
    assert game.pending.kind == kinds.MOVE_STEP
    game.state.units["de-1"].markers.clear()
    answer(game, stop=True)
    answer(game, **{"pass": True})
    answer(game, hex="0105")
    answer(game, action="move")
    answer(game, mode="stealth")
    answer(game, hex="0205")
    assert game.pending.kind == kinds.MOVE_STEP


# -- LOS / SPT ------------------------------------------------------------------------------------
def test_los_own_hexes_ignored_three_hindrances_block_woods_block():
    """LOS 2 (origin and target terrain do not count), LOS 3.1 (3 hindering = blocked), LOS 1 (woods block)."""
    ctx = context(two(terrain={"brush": ["0103", "0503", "0203", "0303"]}))
    s = ctx.state
    line = visible(s, H("0103"), H("0503"))
    assert line is not None and line.hindering == 2
    s.map.set_terrain(H("0403"), 1)
    assert visible(s, H("0103"), H("0503")) is None
    s.map.set_terrain(H("0403"), 0)
    s.map.set_terrain(H("0303"), 2)
    assert visible(s, H("0103"), H("0503")) is None


def test_spt_exposure():
    """SPT 1 open ground; woods hide; SPT 4 next to a GO enemy; SPT 2/6 a spotted marker; SPT 3 a fire marker."""
    ctx = context(two(terrain={"woods": ["0503", "0402"]}))
    s = ctx.state
    de = s.units["de-1"]
    assert exposed(s, s.units["us-1"]) and not exposed(s, de)
    s.units["us-1"].hex = H("0403")
    assert exposed(s, de)
    s.units["us-1"].shaken = True
    assert not exposed(s, de)
    s.spotted.add((H("0503"), 0))
    assert exposed(s, de)
    s.spotted.clear()
    de.markers.add("fire")
    assert exposed(s, de)


def test_spt7_spotting_check():
    """SPT 7.3–7.5, SMC 3.2: 1D6 + hindrances − leadership − 2 (scout) ≤ 2 in blocking terrain."""
    for face, ok in ((4, True), (5, False)):
        ctx = context(two(unit("us-s", "us", "scout", "0103"), terrain={"woods": ["0503"]}), dice=[face])
        s = ctx.state
        assert rules.spot(ctx, [s.units["us-1"], s.units["us-s"]], (H("0503"), 0)) is ok
        assert exposed(s, s.units["de-1"]) is ok and s.units["us-1"].markers == {"ops"}  # SPT 8


def test_ops3_a13_a_shaken_unit_s_only_action_is_to_move():
    """OPS 3 with A13: shaken infantry may move and nothing else — no fire, smoke or spot, though
    the same squad in Good Order has each (fire at an exposed enemy in the open; spot one in
    woods, where it is not exposed; smoke from its capability, SMK 1)."""
    for terrain, good_order in (({}, ["move", "fire", "smoke"]), ({"woods": ["0503"]}, ["move", "smoke", "spot"])):
        s = context(two(terrain=terrain)).state
        squad = s.units["us-1"]
        assert LnL().actions(s, [[squad]]) == good_order
        squad.shaken = True
        assert LnL().actions(s, [[squad]]) == ["move"]


# -- MEL ------------------------------------------------------------------------------------------
def test_mel5_to_7_melee_fp_and_columns():
    """MEL 5–6: 0 FP counts 1, melee SWs add (MEL 1.2); MEL 7: odds rounded up (A24); MEL 1.1 who fights."""
    ctx = context(two(unit("us-m", "us", "medic", "0103"), unit("us-x", "us", "us_squad", "0103", weapons=["satchel"]),
                      unit("us-l", "us", "leader_1", "0103"), unit("de-t", "german", "de_mg_team", "0503")))
    s = ctx.state
    assert melee.melee_fp(s.units["us-x"]) == 5 and melee.melee_fp(s.units["us-m"]) == 1
    assert not melee.can_melee(s.units["us-m"], attacking=False)
    assert not melee.can_melee(s.units["us-l"], attacking=True)
    assert melee.can_melee(s.units["de-t"], attacking=False) and not melee.can_melee(s.units["de-t"], attacking=True)
    assert (melee_column(7, 3), melee_column(3, 7)) == (3, -2)
    r = melee.MeleeRound(4, 4, 0, 1)
    assert (r.column, r.kill) == (2, 7)  # MEL 7.2: the hero moves 1:1 to 2:1


def test_mel8_kill_eliminates_defenders_and_sws_stay():
    """MEL 7–8, MEL 8.2: 2 + satchel 3 against 3 + LMG 2 → 1:1 column, kill 8; 2D6 = 8
    eliminates, the LMG stays in the hex."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0503", weapons=["satchel"]),
                            unit("de-2", "german", "de_squad", "0503", weapons=["lmg"])]), dice=[5, 3])
    s = ctx.state
    rules.fight_melee(ctx, "us", (H("0503"), 0), [s.units["us-1"]])
    assert not s.alive("german") and [w.type for w in s.loose[(H("0503"), 0)]] == ["lmg"]
    assert (H("0503"), 0) in s.melee_fought and (H("0503"), 0) not in s.melee


def test_mel13_no_melee_capable_defender_is_wiped_out():
    ctx = context(two())
    s = ctx.state
    s.units["de-1"].shaken = True
    s.units["us-1"].hex = H("0503")
    rules.fight_melee(ctx, "us", (H("0503"), 0), [s.units["us-1"]])
    assert not s.units["de-1"].alive and ctx.dice.remaining == []


def test_mel9_roles_swap_and_the_hex_locks():
    """MEL 9 (A25): both survive the attack and the swapped attack → melee marker; no fire into it (FIR 1.3)."""
    ctx = context(two(), dice=[1, 1, 1, 1])
    s = ctx.state
    s.units["us-1"].hex = H("0503")
    rules.fight_melee(ctx, "us", (H("0503"), 0), [s.units["us-1"]])
    assert (H("0503"), 0) in s.melee and s.units["us-1"].alive and s.units["de-1"].alive


def test_mov7_withdraw_from_melee():
    """MOV 7.1–7.2: a passed morale check leaves the melee hex; with nobody left the marker goes."""
    ctx = context(two(), dice=[2, 2])
    s = ctx.state
    s.units["us-1"].hex = H("0503")
    s.melee.add((H("0503"), 0))
    gen = LnL().withdraw(ctx, [s.units["us-1"]])
    decision = next(gen)
    assert decision.kind == kinds.WITHDRAW_HEX
    target = next(o for o in decision.options if o.data["hex"] == "0403")
    decision = gen.send(target.value)  # 2 + 2 ≤ 5: withdraws
    assert s.units["us-1"].hex == H("0403") and (H("0503"), 0) not in s.melee
    assert decision.kind == kinds.OPPORTUNITY_FIRE and decision.side == "german"  # MOV 7.2


# -- OPS 2.1 --------------------------------------------------------------------------------------
def test_ops21_leader_chain():
    """OPS 2.1 / LDR 1: a GO leader reaches the adjacent hexes; a GO leader there chains on."""
    ctx = context(scenario([unit("us-l", "us", "leader_1", "0103"), unit("us-l2", "us", "leader_1", "0203"),
                            unit("us-1", "us", "us_squad", "0303"), unit("de-1", "german", "de_squad", "0903")]))
    s = ctx.state
    ruleset = LnL()
    both = ruleset.reach_places(s, "us", (H("0103"), 0), [s.units["us-l"], s.units["us-l2"]])
    alone = ruleset.reach_places(s, "us", (H("0103"), 0), [s.units["us-l"]])
    assert (H("0303"), 0) in both and (H("0303"), 0) not in alone
    s.units["us-l2"].shaken = True
    assert (H("0303"), 0) not in ruleset.reach_places(s, "us", (H("0103"), 0), [s.units["us-l"], s.units["us-l2"]])


# -- hooks ----------------------------------------------------------------------------------------
class Veterans:
    @hookimpl
    def lnl_fire_modifier(self, state, firers, place):
        return 5

    @hookimpl
    def lnl_damage_check_modifier(self, state, unit):
        return -10

    @hookimpl
    def lnl_melee_modifier(self, state, attackers, defenders):
        return 12


def test_published_hooks_change_fire_damage_and_melee():
    """wargamekit_add_hookspecs publishes lnl_fire_modifier, lnl_damage_check_modifier and
    lnl_melee_modifier; an add-on's results are added."""
    pm = plugin_manager(plugins=[Veterans()])
    ctx = context(two(), dice=[1, 6, 6, 1, 1])
    ctx.hooks = pm.hook
    s = ctx.state
    # 1 + 2 + 5 = 8 > 6: a hit only with the hook; 6 + 2 − 10 = −2: nothing.
    assert rules.fire_at(ctx, [s.units["us-1"]], (H("0503"), 0)) == [] and not s.units["de-1"].shaken
    assert "hit" in ctx.log[-2].text
    s.units["us-1"].hex = H("0503")
    rules.fight_melee(ctx, "us", (H("0503"), 0), [s.units["us-1"]])  # 2 + 12 ≥ 8
    assert not s.units["de-1"].alive


def test_modes_and_fire_penalties_of_movement():
    """HER 2.1 (heroes assault), STL 4 (A19: leaders never stealth), CRL 1.2 (weapon teams never
    crawl); STL 5 / SMC 3.3 (−2 FP after stealth, not for scouts); AST 2.2 (−2 after assault);
    OPF 1d (ops-complete −1 inherent)."""
    ctx = context(two(unit("us-h", "us", "hero", "0203", skill="steady"), unit("us-l", "us", "leader_1", "0203"),
                      unit("us-s", "us", "scout", "0104"), unit("de-t", "german", "de_mg_team", "0605"),
                      unit("us-m", "us", "medic", "0105")))
    s = ctx.state
    assert "assault" in movement.modes_for([s.units["us-h"]])
    assert "stealth" not in movement.modes_for([s.units["us-l"]])
    assert "crawl" not in movement.modes_for([s.units["de-t"]])
    target = H("0403")
    sq, scout = s.units["us-1"], s.units["us-s"]
    assert fire.firepower([sq], target) == (2, False)
    sq.markers.add("stealth")
    assert fire.firepower([sq], target) == (0, False)
    sq.markers = {"assault"}
    assert fire.firepower([sq], target) == (0, False)
    scout.markers.add("stealth")
    assert fire.firepower([scout], target) == (1, False)
    sq.markers = {"ops"}
    assert fire.firepower([sq], target, opportunity=True) == (1, False)


def test_smoke_and_no_fire_into_melee():
    """SMK 2 (A15: −1 into smoke), FIR 1.3 (no fire at a melee hex)."""
    ctx = context(two())
    s = ctx.state
    clear = fire.plan_fire(s, [s.units["us-1"]], (H("0503"), 0))
    s.smoke[H("0503")] = 1
    smoky = fire.plan_fire(s, [s.units["us-1"]], (H("0503"), 0))
    assert clear is not None and smoky is not None and smoky.drm == clear.drm - 1
    ctx2 = context(two())
    s2 = ctx2.state
    assert rules.targets_for(s2, [s2.units["us-1"]], [[s2.units["us-1"]]]) == [(H("0503"), 0)]
    s2.melee.add((H("0503"), 0))
    assert rules.targets_for(s2, [s2.units["us-1"]], [[s2.units["us-1"]]]) == []


# -- MEL 1.5 reinforcement moves (U11 reading) ------------------------------------------------------
def locked_melee(*extra, fought=False):
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0303"), unit("de-1", "german", "de_squad", "0303"),
                            unit("us-2", "us", "us_squad", "0203"), *extra]), dice=[3, 4])
    s = ctx.state
    s.melee.add((H("0303"), 0))
    if fought:
        s.melee_fought.add((H("0303"), 0))
    return ctx


def test_mel15_a_locked_melee_takes_reinforcements_even_after_its_melee_this_turn():
    """MEL 1.5: a hex under a melee marker may be entered (a reinforcement move), also when its
    melee was fought this turn (MEL 4 bars only a new melee elsewhere in that hex's turn)."""
    for fought in (False, True):
        ctx = locked_melee(fought=fought)
        s = ctx.state
        options = movement.steps(s, [s.units["us-2"]], (H("0203"), 0), 0, 4, "normal", 0)
        assert (H("0303"), 0, 1) in options
    ctx = locked_melee()
    s = ctx.state
    s.melee.clear()
    s.melee_fought.add((H("0303"), 0))  # a decided melee this turn: the hex takes no new one
    assert all(h != H("0303") for h, _l, _c in movement.steps(s, [s.units["us-2"]], (H("0203"), 0), 0, 4, "normal", 0))


def test_mel15_reinforcements_fight_at_once_if_the_hex_has_not_fought_this_turn():
    """MEL 1.5 (U11): us-2 joins us-1; all the side's units in the hex attack (A26): melee FP
    2 + 2 = 4 against 3, odds 2:1 → kill number 7 (D5); 2D6 3 + 4 = 7 eliminates de-1 and the
    marker goes."""
    ctx = locked_melee()
    s = ctx.state
    s.units["us-2"].hex = H("0303")
    rules.reinforce_melee(ctx, "us", (H("0303"), 0), [s.units["us-2"]])
    assert not s.units["de-1"].alive and (H("0303"), 0) not in s.melee and ctx.dice.remaining == []


def test_mel15_reinforcements_after_this_turns_melee_wait_locked():
    """MEL 1.5 with MEL 4: the hex has fought this turn, so the reinforcements join the locked
    units and nothing is rolled; the hex stays under its melee marker."""
    ctx = locked_melee(fought=True)
    s = ctx.state
    s.units["us-2"].hex = H("0303")
    rules.reinforce_melee(ctx, "us", (H("0303"), 0), [s.units["us-2"]])
    assert s.units["de-1"].alive and (H("0303"), 0) in s.melee and ctx.dice.remaining == [3, 4]
    assert [e.kind for e in ctx.log][-1] == "reinforce"


# -- LOS 3.3 elevation (U9 reading) -----------------------------------------------------------------
def test_los33_elevation_sees_over_lower_terrain_and_a_crest_blocks():
    """LOS 3.3: woods at 0303 block 0103 → 0503 on level ground; from a hill at 0103 (elevation 1)
    the woods are seen over, but not woods next to the lower end (0403); woods lower than both
    ends of a hill-to-hill line are seen over; a hill between two low hexes is a crest and blocks
    even though its terrain is open."""
    ctx = context(two(terrain={"woods": ["0303"]}))
    s = ctx.state
    assert visible(s, H("0103"), H("0503")) is None
    ctx = context(two(terrain={"woods": ["0303"], "hills": ["0103"]}))
    s = ctx.state
    assert s.elevation(H("0103")) == 1 and s.elevation(H("0303")) == 0
    line = visible(s, H("0103"), H("0503"))
    assert line is not None and line.hindering == 0
    assert visible(s, H("0503"), H("0103")) is not None  # LOS is the same both ways
    s.map.set_terrain(H("0403"), 2)  # woods next to the lower end still screen it
    assert visible(s, H("0103"), H("0503")) is None
    ctx = context(two(terrain={"woods": ["0303"], "hills": ["0103", "0503"]}))
    assert visible(ctx.state, H("0103"), H("0503")) is not None
    ctx = context(two(terrain={"hills": ["0303"]}))
    assert visible(ctx.state, H("0103"), H("0503")) is None
    assert visible(ctx.state, H("0103"), H("0303")) is not None  # the hill itself is seen
    with pytest.raises(ScenarioError, match="off the 10 x 6 map"):
        context(two(terrain={"hills": ["1103"]}))
