"""SMC 2 — the sniper: placement at any time (a response window), its 2D6 attack on one unit
(the provisional table D8), its limits (SMC 2.2, RAL 2.7), with forced dice."""

import pytest

from wargamekit import Game, ScenarioError, ScriptedDice
from wargamekit_lnl import LnL, fire, kinds, rules, sniper, vehicles
from wargamekit_lnl.scenario import parse_hex as H
from wargamekit_lnl.state import Unit
from wargamekit_lnl.testing import answer, context, scenario, unit


@pytest.mark.parametrize(("faces", "kind", "shaken", "drm", "result"), [
    ([1, 2], "squad", False, 0, "reduced"),      # 3 ≤ 4: a casualty reduces a squad
    ([2, 2], "squad", False, 0, "reduced"),      # 4 ≤ 4
    ([3, 3], "squad", False, 0, "shaken"),       # 6 ≤ 6
    ([3, 4], "squad", False, 0, "no effect"),    # 7 > 6
    ([1, 2], "squad", False, 2, "shaken"),       # woods: 3 + 2 = 5
    ([3, 3], "squad", True, 0, "reduced"),       # D4: a shaken unit's shaken result is a casualty
    ([1, 1], "leader", False, 0, "wounded"),     # a single-man counter is wounded
    ([1, 3], "half", False, 0, "eliminated"),    # a half-squad's casualty eliminates it
])
def test_smc23_sniper_table(faces, kind, shaken, drm, result):
    """SMC 2.3 with the provisional table (D8): 2D6 + DRM ≤ 4 casualty, ≤ 6 shaken, else nothing."""
    shot = sniper.SniperShot(drm, 4, 6, fire.Target(kind, 5, shaken=shaken))
    assert sniper.snipe(ScriptedDice(faces), shot) == result


def test_smc23_exact_odds():
    """Against a squad in the open: casualty 6/36, shaken 9/36."""
    odds = sniper.snipe_odds(sniper.SniperShot(0, 4, 6, fire.Target("squad", 5)))
    assert odds == {"reduced": pytest.approx(6 / 36), "shaken": pytest.approx(9 / 36),
                    "no effect": pytest.approx(21 / 36)}
    assert sum(odds.values()) == 1


def village(**kw):
    return scenario([unit("us-1", "us", "us_squad", "0103"), unit("us-2", "us", "us_squad", "0403"),
                     unit("de-1", "german", "de_squad", "0805")], snipers={"german": 1}, **kw)


def test_smc21_placed_at_an_impulse_start_then_fires_at_once():
    """SMC 2.1–2.3: at the start of the US impulse the German side may place its sniper (a
    response window, lnl.sniper) on any place of a hex with no enemy units (chosen as a map
    column, then a place in it); it fires at once at one exposed unit: 2D6 1 + 2 + open ground
    0 = 3 ≤ 4 reduces us-1; it gets a fire marker."""
    game = Game.new(LnL(), village(), dice=ScriptedDice([4, 3, 1, 2]))
    d = game.pending
    assert d.kind == kinds.SNIPER and d.side == "german" and d.context["timing"] == "impulse start"
    game.answer(next(i for i, o in enumerate(d.options) if not o.data.get("pass")))
    d = game.pending
    assert d.kind == kinds.SNIPER_COLUMN and [o.data["column"] for o in d.options] == [f"{c:02}" for c in range(1, 11)]
    answer(game, column="04")
    d = game.pending
    assert d.kind == kinds.SNIPER_PLACE
    places = [(o.data["hex"], o.data["level"]) for o in d.options]
    assert ("0403", 0) not in places and ("0404", 0) in places and len(places) == 5  # SMC 2.1: no enemy there
    answer(game, hex="0404", level=0)
    d = game.pending
    assert d.kind == kinds.SNIPER_TARGET and d.options[0].data == {"hold": True}
    assert {o.data.get("unit") for o in d.options[1:]} == {"us-1", "us-2"}
    answer(game, unit="us-1")
    s = game.state
    snp = next(u for u in s.alive("german") if u.kind == "sniper")
    assert snp.hex == H("0404") and "fire" in snp.markers and s.snipers == {"german": 0}
    assert not s.units["us-1"].alive and s.units["us-1/half"].shaken
    assert game.pending.kind == kinds.ACTIVATE and game.pending.side == "us"  # no second sniper to place


def test_smc22_sniper_is_activated_alone_to_snipe_and_rally_only_when_shaken():
    """SMC 2.2 (never moves: its only action is to snipe), RAL 2.7 (shaken: no fire, only a rally,
    which it may try on its own); SMC 2.5: it cannot melee."""
    ctx = context(village(), dice=[1, 2])
    s = ctx.state
    s.snipers.clear()
    snp = Unit("german-sniper-9", "german", "sniper", H("0303"))
    s.units[snp.id] = snp
    ruleset = LnL()
    assert snp in ruleset.ready(s, "german")
    assert [u.id for u, _shot in ruleset.sniper_targets(s, snp)] == ["us-1", "us-2"]
    # Its activation is an option of its own (lnl.activate, data "sniper"); then one target, 2D6.
    gen = ruleset.impulse(ctx, "german")
    d = next(gen)
    option = next(o for o in d.options if o.data.get("sniper") == snp.id)
    assert d.kind == kinds.ACTIVATE and option.data["hex"] == "0303"
    d = gen.send(option.value)
    assert d.kind == kinds.SNIPER_TARGET and not any(o.data.get("hold") for o in d.options)
    with pytest.raises(StopIteration):
        gen.send(next(o.value for o in d.options if o.data["unit"] == "us-2"))
    assert s.units["us-2/half"].shaken and "fire" in snp.markers and snp not in ruleset.ready(s, "german")
    snp.markers.clear()
    snp.shaken = True
    assert snp not in ruleset.ready(s, "german") and ruleset.sniper_targets(s, snp) == []
    assert rules.may_rally(s, snp, set()) == "self"
    assert not rules.melee.can_melee(snp, attacking=False)


def test_smc21_no_sniper_at_set_up_and_the_table_is_checked():
    with pytest.raises(ScenarioError, match="SMC 2.1") as err:
        context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-s", "german", "sniper", "0503")]))
    assert err.value.path == "$.units[1].type"
    with pytest.raises(ScenarioError, match="D8"):
        context(village(sniper_table={"casualty": 7, "shaken": 6}))
    with pytest.raises(ScenarioError, match="SMC 2.1"):
        context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")],
                         snipers={"us": -1}))


def test_smc24_terrain_doubled_against_heavy_weapons_but_not_against_an_enemy_sniper():
    """SMC 2.4: a sniper in woods (+2) defends at +4 against small arms and HE (A30: capped at 4),
    but at +2 against an enemy sniper's shot."""
    ctx = context(scenario([unit("us-t", "us", "sherman", "0103", facing=1), unit("us-1", "us", "us_squad", "0203"),
                            unit("de-1", "german", "de_squad", "0906")], terrain={"woods": ["0503"]}))
    s = ctx.state
    de = Unit("german-sniper-8", "german", "sniper", H("0503"))
    us = Unit("us-sniper-9", "us", "sniper", H("0303"))
    s.units[de.id], s.units[us.id] = de, us
    de.markers.add("fire")  # exposed (SPT 3)
    assert vehicles.he_attack(s, s.units["us-t"], de.place).defence == 4
    assert fire.plan_fire(s, [s.units["us-1"]], de.place).defence == 4
    assert sniper.shot_at(s, us, de, 4, 6).drm == 2
