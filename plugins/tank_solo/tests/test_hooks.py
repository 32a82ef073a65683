"""The hooks tank_solo publishes (docs/rulesets/tank_solo.md, "Hooks"): add-ons change the hit
and damage checks and add special rounds as data, seen alike by play, the fire menus' odds,
the bots and ``wargamekit odds tank_solo``."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner

from wargamekit import Game, ScriptedDice, hookimpl
from wargamekit.plugins import plugin_manager
from wargamekit_tank_solo import TankSolo, hit_and_kill
from wargamekit_tank_solo.fire import Shot, resolve_shot, shot_odds, with_addons
from wargamekit_tank_solo.shot_odds import odds_command
from wargamekit_tank_solo.special_rounds import SpecialRound, SpecialRoundError, loadout_problem, round_kinds

RULESET = TankSolo()


class Modifiers:
    """An add-on: ``hit`` to every hit roll, ``kill`` to every damage check; it notes the calls."""

    def __init__(self, hit: int | None = None, kill: int | None = None) -> None:
        self.hit, self.kill, self.calls = hit, kill, []

    @hookimpl
    def tank_solo_hit_modifier(self, shot, fire, firer, target):
        self.calls.append((fire, None if firer is None else firer.name, None if target is None else target.name))
        return self.hit

    @hookimpl
    def tank_solo_kill_modifier(self, shot):
        return self.kill


class Tracer:
    """An add-on round as data: +2 to hit, one per team."""

    @hookimpl
    def tank_solo_special_rounds(self):
        return [SpecialRound("tracer", "tracer round", per_team=1, hit_modifier=2)]


def duel(plugins=(), dice=()):
    """The Panzer IV H (A, attack 7) four hexes from a Tiger I (B, armour 14)."""
    data = {"map": "pravda", "forces": {"A": [{"model": "pz4h", "hex": "0603", "facing": "S"}],
                                        "B": [{"model": "tiger", "hex": "0607", "facing": "N"}]}}
    pm = plugin_manager(plugins=list(plugins)) if plugins else None
    return Game.new(RULESET, data, dice=ScriptedDice(list(dice)), plugin_manager=pm)


def fire_once(game, pick):
    pick(game, "aimed fire with Panzer IV H #1")
    pick(game, "fires main gun at Tiger I #2")
    return [e.data for e in game.log if e.kind == "fire"][0]


def test_kill_modifier_turns_a_near_miss_into_a_kill(pick):
    """作战阶段 (damage check): 3+3 + attack 7 = 13 < armour 14 does nothing; an add-on's +1
    damage modifier makes it 14, a kill."""
    dice = [3, 1, 2, 3, 3]  # first player A; hit 1+2 +1 (German aimed) = 4 >= range 4; damage 3+3
    assert fire_once(duel(dice=dice), pick)["effect"] == "no effect"
    shot = fire_once(duel([Modifiers(kill=1)], dice=dice), pick)
    assert (shot["damage_total"], shot["effect"]) == (14, "killed")


def test_hit_modifier_is_added_and_sees_the_tanks_and_the_fire(pick):
    """作战阶段 1-1: the same 4 to hit misses at range 4 with an add-on's -1."""
    add_on = Modifiers(hit=-1)
    shot = fire_once(duel([add_on], dice=[3, 1, 2]), pick)
    assert (shot["hit_total"], shot["effect"]) == (3, "miss")
    assert ("aimed", "Panzer IV H #1", "Tiger I #2") in add_on.calls


def test_the_fire_menu_odds_count_the_add_on(pick):
    """The menu's odds are those of the shot the rules resolve: +1 damage shows in the kill %."""
    plain, modified = duel(dice=[3]), duel([Modifiers(kill=1)], dice=[3])
    pick(plain, "aimed fire with Panzer IV H #1")
    pick(modified, "aimed fire with Panzer IV H #1")
    label = [x for x in plain.pending.labels if "fires" in x][0]
    label2 = [x for x in modified.pending.labels if "fires" in x][0]
    # hit: 2d6 + 1 >= 4 is 35/36; kill: that times 2d6 >= 7 (21/36), or >= 6 with +1 (26/36)
    assert "hit 97%, kill 57%" in label and "hit 97%, kill 70%" in label2


def test_bots_see_the_add_on_through_view_hooks():
    """A bot's exact odds read ``view.hooks``: the same game with the add-on hands it the hooks."""
    game = duel([Modifiers(kill=1)], dice=[3])
    assert game.view("A").hooks is game.hooks and game.hooks is not None
    assert duel(dice=[3]).view("A").hooks is None


def test_odds_helpers_take_the_hooks():
    """hit_and_kill and with_addons add the modifiers (tanks and state None in a preview)."""
    add_on = Modifiers(hit=-1, kill=1)
    hooks = plugin_manager(plugins=[add_on]).hook
    plain = hit_and_kill("aimed", 4, "germany", attack=7, armour=14)
    modified = hit_and_kill("aimed", 4, "germany", attack=7, armour=14, hooks=hooks)
    assert modified == shot_odds(Shot(range=4, hit_modifier=0, attack=7, armour=14, damage_modifier=1))
    assert modified.hit < plain.hit and ("aimed", None, None) in add_on.calls
    assert with_addons(Shot(4, 1, 7, 14), "aimed", None) == Shot(4, 1, 7, 14)


def test_special_round_as_data_is_offered_priced_and_fired():
    """特殊规则 4: an add-on's round joins the three of the rulebook; its +2 to hit is counted
    in resolution and odds; its per-team limit is a loadout rule (开场阶段 3)."""
    hooks = plugin_manager(plugins=[Tracer()]).hook
    assert list(round_kinds(hooks)) == ["overloaded", "fin", "hesh", "tracer"]
    assert loadout_problem(["tracer", "tracer"], 3, round_kinds(hooks)) == "at most 1 tracer round per team"
    assert loadout_problem(["tracer", "hesh"], 3, round_kinds(hooks)) is None
    assert "unknown special round 'tracer'" in loadout_problem(["tracer", "hesh"])
    shot = with_addons(Shot(range=7, hit_modifier=0, attack=7, armour=14, special="tracer"), "aimed", hooks)
    assert shot.hit_modifier == 2
    assert resolve_shot(ScriptedDice([2, 3, 4, 4]), shot).effect == "killed"  # 5+2 >= 7; 8+7 >= 14
    assert hit_and_kill("aimed", 7, "italy", attack=7, armour=14, special="tracer", hooks=hooks).hit == Fraction(30, 36)  # 2d6 >= 5
    with pytest.raises(ValueError, match="unknown special round 'tracer'"):
        hit_and_kill("aimed", 7, "italy", attack=7, armour=14, special="tracer")


def test_loading_offers_the_add_on_round(pick):
    """开场阶段 3: the loading menu lists the add-on's round; after one, no second (per_team 1)."""
    data = {"map": "pravda", "forces": {"A": [{"model": "pz4h"}], "B": [{"model": "tiger"}]}}
    game = Game.new(RULESET, data, dice=ScriptedDice([]), plugin_manager=plugin_manager(plugins=[Tracer()]))
    for label in ("north", "at 0601", "face S", "at 0612", "face N"):
        pick(game, label)
    pick(game, "load tracer round")
    assert not any("tracer" in label for label in game.pending.labels)
    assert game.state.tank(1).specials == ["tracer"]


def test_a_round_reusing_a_key_is_refused():
    """Two rounds under one key would make saves and menus ambiguous."""

    class Clash:
        @hookimpl
        def tank_solo_special_rounds(self):
            return [SpecialRound("hesh", "another HESH")]

    with pytest.raises(SpecialRoundError, match="'hesh' is defined twice"):
        round_kinds(plugin_manager(plugins=[Clash()]).hook)


def test_odds_command_unknown_addon_and_round():
    """``wargamekit odds tank_solo`` refuses an add-on round it was not given the add-on for."""
    result = CliRunner().invoke(odds_command(), ["--range", "5", "--attack", "7", "--armour", "14", "--special", "tracer"])
    assert result.exit_code != 0 and "unknown special round 'tracer'" in result.output


class Prototype:
    """An add-on vehicle: a heavy German prototype with armour 20 and a 12-attack gun."""

    @hookimpl
    def tank_solo_vehicles(self):
        from wargamekit_tank_solo.vehicles import Gun, VehicleModel

        return [VehicleModel(key="e100", name="E-100", source_name="E-100", nation="germany",
                             vehicle_class="heavy", movement=2, armour=20, price=60, turret_rotations=1,
                             guns=(Gun("main gun", "turret", 10, 12),))]


def test_vehicle_as_data_is_offered_picked_and_used():
    """标准规则修改部分 1 / 开场阶段 1: an add-on's model is offered in force selection under the
    same limits, and the tank picked carries its figures (armour 20 in the damage check)."""
    from wargamekit_tank_solo.vehicles import VehicleError, vehicle_table

    pm = plugin_manager(plugins=[Prototype()])
    assert "e100" in vehicle_table(pm.hook) and "e100" not in vehicle_table()
    data = {"map": "pravda", "forces": {"B": [{"model": "tiger"}]}}
    game = Game.new(RULESET, data, dice=ScriptedDice([6, 1]), plugin_manager=pm)  # A picks first
    assert game.pending.side == "A"
    models = [o.data.get("model") for o in game.pending.options]
    assert "e100" in models
    game.answer(models.index("e100"))
    tank = game.state.tank(2)
    assert (tank.model, tank.name, tank.spec.armour, tank.custom.price) == ("e100", "E-100 #2", 20, 60)
    assert game.view("B").state.tank(2).spec.armour == 20  # the figures are public, in every view

    class Clash:
        @hookimpl
        def tank_solo_vehicles(self):
            from wargamekit_tank_solo.vehicles import vehicle

            return [vehicle("tiger")]

    with pytest.raises(VehicleError, match="'tiger' is defined twice"):
        vehicle_table(plugin_manager(plugins=[Clash()]).hook)
