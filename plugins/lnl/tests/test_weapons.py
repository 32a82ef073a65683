"""SW 3 — support weapons dropped, destroyed, exchanged, picked up and captured (RAL 4), with
forced dice."""

import pytest

from wargamekit import Choose, Game, InvalidChoiceError, ScriptedDice
from wargamekit_lnl import LnL, fire, kinds, movement, rules
from wargamekit_lnl.scenario import parse_hex as H
from wargamekit_lnl.testing import answer, context, scenario, unit


def drive(gen, *answers):
    """Run a rule procedure, answering each decision with the option whose data holds ``answers[i]``."""
    asked = []
    try:
        decision = next(gen)
        for wanted in answers:
            asked.append(decision)
            assert isinstance(decision, Choose)
            option = next(o for o in decision.options if all(o.data.get(k) == v for k, v in wanted.items()))
            decision = gen.send(option.value)
        raise AssertionError(f"still asking {decision.kind}")
    except StopIteration:
        return asked


def squads(**kw):
    return scenario([unit("us-1", "us", "us_squad", "0203", weapons=["bar"]),
                     unit("us-2", "us", "us_squad", "0203", weapons=["satchel"]),
                     unit("us-3", "us", "us_half", "0203"),
                     unit("us-4", "us", "us_squad", "0303", weapons=["bar"]),
                     unit("de-1", "german", "de_squad", "0503")], **kw)


def test_ral4_sw31_rally_phase_drop_destroy_and_exchange():
    """SW 3.1 / RAL 4 (A5: RAL 4's broader list): Good Order units drop (loose in the hex), destroy
    (gone) or exchange SWs in their hex; each SW once a phase; a shaken unit handles none."""
    ctx = context(squads())
    s = ctx.state
    s.units["us-4"].shaken = True
    asked = drive(LnL().weapon_handling(ctx, "us"),
                  {"action": "exchange", "unit": "us-1", "weapon": "bar-1", "to": "us-3"},
                  {"action": "drop", "unit": "us-2", "weapon": "satchel-2"},
                  {"action": "done"})
    assert asked[0].kind == kinds.WEAPONS and asked[0].context["side"] == "us"
    first = [dict(o.data) for o in asked[0].options]
    assert {"action": "destroy", "unit": "us-1", "weapon": "bar-1"} in first
    assert {"action": "exchange", "unit": "us-1", "weapon": "bar-1", "to": "us-2", "back": "satchel-2"} in first
    assert not any(d.get("unit") == "us-4" for d in first)  # shaken: no handling (RAL 4)
    assert not any(d.get("weapon") == "bar-1" for d in (dict(o.data) for o in asked[1].options))  # once a phase
    assert [w.id for w in s.units["us-3"].weapons] == ["bar-1"] and not s.units["us-1"].weapons
    assert [w.id for w in s.loose[(H("0203"), 0)]] == ["satchel-2"] and not s.units["us-2"].weapons
    ctx2 = context(squads())
    drive(LnL().weapon_handling(ctx2, "us"), {"action": "destroy", "unit": "us-4", "weapon": "bar-3"},
          {"action": "done"})
    assert not ctx2.state.units["us-4"].weapons and not ctx2.state.loose


def test_sw_handling_errors_name_the_rule_and_change_nothing():
    ctx = context(squads())
    s = ctx.state
    with pytest.raises(InvalidChoiceError, match="SW: us-3 carries no SW"):
        rules.drop_weapon(ctx, s.units["us-3"], "bar-1")
    rules.exchange_weapons(ctx, s.units["us-1"], "bar-1", s.units["us-3"], None)
    with pytest.raises(InvalidChoiceError, match="SW 1: us-3 cannot carry"):
        rules.exchange_weapons(ctx, s.units["us-2"], "satchel-2", s.units["us-3"], None)
    assert [w.id for w in s.units["us-2"].weapons] == ["satchel-2"]
    with pytest.raises(InvalidChoiceError, match="RAL 4"):
        rules.exchange_weapons(ctx, s.units["us-4"], "bar-3", s.units["us-3"], None)
    with pytest.raises(InvalidChoiceError, match="SW 3.2: no loose SW"):
        rules.pick_up(ctx, s.units["us-3"], "lmg-9")
    assert [w.id for w in s.units["us-3"].weapons] == ["bar-1"] and [w.id for w in s.units["us-4"].weapons] == ["bar-3"]


def test_sw32_drop_in_operations_then_pick_up_for_two_mp():
    """SW 3.2: a Good Order squad drops its BAR (no MP, no marker); later it moves, picks the BAR
    up for 2 MP (4 → 2 MP left, no opportunity fire: it enters no hex) and moves on."""
    data = scenario([unit("us-1", "us", "us_squad", "0203", weapons=["bar"]),
                     unit("de-1", "german", "de_squad", "0909")], width=10, height=10)
    game = Game.new(LnL(), data, dice=ScriptedDice([4, 3]))
    answer(game, action="done")  # RAL 4: keep it for now
    answer(game, hex="0203")
    assert "drop" in [o.data["action"] for o in game.pending.options]
    answer(game, action="drop")  # the only SW: dropped without another question
    s = game.state
    assert not s.units["us-1"].weapons and [w.id for w in s.loose[(H("0203"), 0)]] == ["bar-1"]
    assert not s.units["us-1"].markers
    answer(game, **{"pass": True})  # german
    answer(game, hex="0203")
    answer(game, action="move")
    answer(game, mode="normal")
    answer(game, pickup="bar-1", unit="us-1", cost=2)
    assert [w.id for w in s.units["us-1"].weapons] == ["bar-1"] and not s.loose
    assert game.pending.kind == kinds.MOVE_STEP and game.pending.context["mp_left"] == 2
    answer(game, hex="0303")
    assert s.units["us-1"].hex == H("0303") and game.pending.context["mp_left"] == 1


def captured_fire(dice):
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103", weapons=["lmg"]),
                            unit("de-1", "german", "de_squad", "0503")]), dice=dice)
    s = ctx.state
    rules.fire_at(ctx, [s.units["us-1"]], (H("0503"), 0))
    return ctx, s.units["us-1"]


def test_sw33_a_captured_sw_that_puts_no_enemy_into_a_damage_check_is_discarded():
    """SW 3.3 (A9: discarded = removed from play): the US squad fires a captured LMG (FP 2 + 2):
    1 + 4 against 6 + 0 misses, so the LMG is gone — not loose in the hex."""
    ctx, u = captured_fire([1, 6])
    assert not u.weapons and not ctx.state.loose and [e.kind for e in ctx.log][-1] == "discard"


def test_sw33_a_captured_sw_that_causes_damage_checks_is_kept():
    """SW 3.3: 6 + 4 against 1 + 0 hits; de-1's damage check 2 + 9 reduces it; the LMG stays."""
    ctx, u = captured_fire([6, 1, 2])
    assert [w.type for w in u.weapons] == ["lmg"] and not ctx.state.units["de-1"].alive


# -- MOV 1.3 tripods, RAL 5 SW state ------------------------------------------------------------------
def tripod(**kw):
    return scenario([unit("us-1", "us", "us_squad", "0103"),
                     unit("de-1", "german", "de_squad", "0503", weapons=["mg42_tripod"])], initiative="german", **kw)


def test_mov13_a_set_up_tripod_mg_fires_but_holds_its_carrier():
    """MOV 1.3: set up, the tripod MG adds its FP (squad 3 + MG 3 = 6, SW 2.1) and the squad
    cannot move a hex (its move stops where it stands); stowed (RAL 5, in the rally phase) the
    squad moves but the MG does not fire (FP 3)."""
    game = Game.new(LnL(), tripod(), dice=ScriptedDice([3, 4]))
    s = game.state
    de = s.units["de-1"]
    assert fire.firepower([de], H("0103")) == (6, True)
    d = game.pending
    assert d.kind == kinds.WEAPONS and {"action": "stow", "unit": "de-1", "weapon": "mg42_tripod-1"} in [
        dict(o.data) for o in d.options]
    answer(game, action="done")
    answer(game, hex="0503")
    answer(game, action="move")
    answer(game, mode="normal")  # the only step left is to stop: asked of nobody
    assert de.hex == H("0503") and "move" in de.markers
    ctx = context(tripod())
    de = ctx.state.units["de-1"]
    drive(LnL().weapon_handling(ctx, "german"), {"action": "stow", "unit": "de-1"}, {"action": "done"})
    assert de.weapons[0].stowed and not de.set_up and fire.firepower([de], H("0103")) == (3, False)
    assert movement.steps(ctx.state, [de], de.place, 0, 4, "normal", 0)  # stowed, it moves
    drive(LnL().weapon_handling(ctx, "german"), {"action": "setup", "unit": "de-1"}, {"action": "done"})
    assert de.set_up


def test_ral5_state_change_errors_name_the_rule():
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0503", weapons=["bar"]),
                            unit("de-1", "german", "de_squad", "0503", weapons=["mg42_tripod"]),
                            unit("de-2", "german", "de_squad", "0703", weapons=["mg42_tripod"])]))
    s = ctx.state
    with pytest.raises(InvalidChoiceError, match="RAL 5: BAR has no state"):
        rules.change_state(ctx, s.units["us-1"], "bar-1", stowed=True)
    with pytest.raises(InvalidChoiceError, match="no enemy in its hex"):
        rules.change_state(ctx, s.units["de-1"], "mg42_tripod-2", stowed=True)
    s.units["de-2"].shaken = True
    with pytest.raises(InvalidChoiceError, match="RAL 5: de-2 must be a Good Order"):
        rules.change_state(ctx, s.units["de-2"], "mg42_tripod-3", stowed=True)
    assert not any(w.stowed for u in s.alive() for w in u.weapons)


def test_mov8_a_team_faces_anew_after_moving_and_hwf2_fires_only_in_its_arc():
    """HWF 2 (D12): the MG team facing hexside 3 (west) can fire at us-1 to its west, facing 0
    it cannot; MOV 8: after it moves, its owner chooses its facing (lnl.team_facing)."""
    data = scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-mg", "german", "de_mg_team", "0603", facing=3)],
                    initiative="german")
    ctx = context(data)
    s = ctx.state
    team = s.units["de-mg"]
    assert fire.plan_fire(s, [team], (H("0103"), 0)) is not None
    team.facing = 0
    assert fire.plan_fire(s, [team], (H("0103"), 0)) is None and not rules.targets_for(s, [team], [[team]])
    game = Game.new(LnL(), data, dice=ScriptedDice([3, 4]))
    answer(game, hex="0603")
    answer(game, action="move")
    d = game.pending
    assert d.kind == kinds.MOVE_STEP
    game.answer(next(i for i, o in enumerate(d.options) if o.data.get("hex") == "0703"))
    while game.pending.kind == kinds.OPPORTUNITY_FIRE:
        answer(game, **{"pass": True})
    answer(game, stop=True)
    d = game.pending
    assert d.kind == kinds.TEAM_FACING and d.context["unit"] == "de-mg" and d.context["hex"] == "0703"
    answer(game, facing=4)
    assert game.state.units["de-mg"].facing == 4 and game.state.units["de-mg"].hex == H("0703")


def test_mov8_a_team_that_withdraws_from_melee_faces_anew():
    """MOV 7 then MOV 8: the MG team passes its withdrawal morale check (2D6 1 + 1 ≤ 5), enters
    0403 and chooses its facing there; then the squad left behind may opportunity fire (MOV 7.2)."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0303"), unit("de-mg", "german", "de_mg_team", "0303")]),
                  dice=[1, 1])
    s = ctx.state
    s.melee.add((H("0303"), 0))
    team = s.units["de-mg"]
    gen = LnL().withdraw(ctx, [team])
    d = next(gen)
    assert d.kind == kinds.WITHDRAW_HEX
    d = gen.send(next(o.value for o in d.options if o.data["hex"] == "0403"))
    assert d.kind == kinds.TEAM_FACING and d.context["hex"] == "0403"
    d = gen.send(next(o.value for o in d.options if o.data["facing"] == 2))
    assert d.kind == kinds.OPPORTUNITY_FIRE
    with pytest.raises(StopIteration):
        gen.send(next(o.value for o in d.options if o.data.get("pass")))
    assert team.hex == H("0403") and team.facing == 2 and (H("0303"), 0) not in s.melee
