"""The APCR add-on: installed by entry point, changes tank_solo only through its hooks, and its
games save, reload byte-identically with it and are refused without it (issue 12)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner

from wargamekit import Game, RandomBot, ScriptedDice
from wargamekit.cli import cli
from wargamekit.errors import SaveError
from wargamekit.players import bot_seed
from wargamekit.plugins import addons_in_effect, installed_addons, plugin_manager
from wargamekit.saves import SaveFile
from wargamekit_tank_apcr import APCR
from wargamekit_tank_solo import TankSolo, hit_and_kill
from wargamekit_tank_solo.fire import Shot, resolve_shot, with_addons

RULESET = TankSolo()
DUEL = {"map": "pravda", "forces": {"A": [{"model": "pz4h"}], "B": [{"model": "tiger"}]}}


def pick(game: Game, text: str) -> None:
    labels = game.pending.labels
    found = [i for i, label in enumerate(labels) if label == text] or [
        i for i, label in enumerate(labels) if text in label
    ]
    assert len(found) == 1, f"{text!r} in {labels}"
    game.answer(found[0])


def range_nine(dice, *, addon: bool = True, load: str | None = "APCR") -> Game:
    """Panzer IV H (attack 7) in 0602 facing S, Tiger I (armour 14) in 0611 facing N: range 9."""
    pm = plugin_manager(addons=["tank_apcr"]) if addon else None
    game = Game.new(RULESET, DUEL, dice=ScriptedDice(dice), plugin_manager=pm)
    for label in ("north", "at 0602", "face S", "at 0611", "face N"):
        pick(game, label)
    if load:
        pick(game, f"load {load}")
    pick(game, "finish")  # A
    pick(game, "finish")  # B
    pick(game, "aimed fire with Panzer IV H #1")
    pick(game, "fires main gun at Tiger I #2")
    return game


def the_shot(game: Game) -> dict:
    return [e.data for e in game.log if e.kind == "fire"][0]


def test_installed_by_entry_point_and_listed():
    """The distribution declares ``tank_apcr`` in the ``wargamekit`` group; ``wargamekit
    rulesets`` lists it as an add-on; it is not in a game unless asked for."""
    found = {a.name: a for a in installed_addons()}
    assert found["tank_apcr"].distribution == "wargamekit-tank-apcr"
    assert found["tank_apcr"].target == "wargamekit_tank_apcr.plugin"
    result = CliRunner().invoke(cli, ["rulesets"])
    assert result.exit_code == 0 and "add-on tank_apcr" in result.output and "wargamekit-tank-apcr" in result.output
    assert "warning" not in result.output
    pm = plugin_manager(addons=["tank_apcr"])
    assert [a.name for a in addons_in_effect(pm)] == ["tank_apcr"] and not pm.load_errors and not pm.warnings
    assert addons_in_effect(plugin_manager()) == ()


def test_apcr_hits_where_a_standard_round_misses_and_kills_at_long_range():
    """Forced dice 4+3 at range 9 (German aimed +1): the standard round's 8 misses; the APCR's
    +1 makes 9, a hit; its damage at range 9 is 4+4 + 7 - 1 = 14 against armour 14, a kill."""
    free_points = 3  # the maintenance phase's d[3-3]
    standard = range_nine([free_points, 4, 3], load="HESH")
    pick(standard, "standard round")
    assert (the_shot(standard)["hit_total"], the_shot(standard)["effect"]) == (8, "miss")
    game = range_nine([free_points, 4, 3, 4, 4])
    assert game.pending.labels == ["standard round (hit 42%, kill 24%)", "APCR round (硬芯穿甲弹) (hit 58%, kill 24%)"]
    pick(game, "APCR round")
    shot = the_shot(game)
    assert (shot["special"], shot["hit_total"], shot["damage_total"], shot["effect"]) == ("apcr", 9, 14, "killed")
    assert game.outcome.winner == "A"


def test_apcr_damage_by_range_through_the_hooks():
    """The kill modifier hook: +3 at range 2 (with close range's +1: 2+2 + 1 + 7 + 3 = 15 >= 14);
    the same dice with a standard round do nothing (12)."""
    hooks = plugin_manager(addons=["tank_apcr"]).hook
    apcr = with_addons(Shot(range=2, hit_modifier=0, attack=7, armour=14, special="apcr"), "aimed", hooks)
    assert (apcr.hit_modifier, apcr.damage_modifier) == (1, 3)
    assert resolve_shot(ScriptedDice([1, 1, 2, 2]), apcr).damage_total == 15
    plain = with_addons(Shot(range=2, hit_modifier=0, attack=7, armour=14), "aimed", hooks)
    assert resolve_shot(ScriptedDice([1, 1, 2, 2]), plain).effect == "no effect"
    assert with_addons(Shot(range=5, hit_modifier=0, attack=7, armour=14, special="apcr"), "aimed", hooks).damage_modifier == 1
    # exact odds: hit 2d6 + 1 >= 2 always; kill 2d6 + 1 + 7 + 3 >= 14, i.e. 2d6 >= 3
    odds = hit_and_kill("aimed", 2, "italy", attack=7, armour=14, special="apcr", hooks=hooks)
    assert (odds.hit, odds.kill) == (Fraction(1), Fraction(35, 36))


def test_one_apcr_per_team():
    """The round's own limit, applied by tank_solo's loadout rule: after one, no second."""
    game = Game.new(RULESET, DUEL, dice=ScriptedDice([]), plugin_manager=plugin_manager(addons=["tank_apcr"]))
    for label in ("north", "at 0602", "face S", "at 0611", "face N"):
        pick(game, label)
    pick(game, "load APCR")
    assert not any("APCR" in label for label in game.pending.labels)
    assert APCR.per_team == 1


def test_odds_command_with_the_addon():
    """``wargamekit odds tank_solo --addon tank_apcr --special apcr`` prices the round."""
    args = ["odds", "tank_solo", "--addon", "tank_apcr", "--special", "apcr", "--range", "2", "--attack", "7",
            "--armour", "14", "--nation", "italy"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "kill" in result.output and "97.22%" in result.output


def _played(seed: int) -> Game:
    game = Game.new(RULESET, "default", seed=seed, options={"surrender": False},
                    plugin_manager=plugin_manager(addons=["tank_apcr"]))
    game.play({side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(RULESET.sides)})
    return game


def test_saves_record_the_addon_and_reload_byte_identically(tmp_path):
    """A save names the add-on and its version; loading it the documented way (the recorded
    add-ons) replays to the same log, byte for byte."""
    for seed in (1, 2):
        game = _played(seed)
        assert any(e.kind == "load" and e.data["special"] == "apcr" for e in game.log)  # the add-on was in play
        path = tmp_path / f"apcr-{seed}.json"
        path.write_text(game.save().to_json(), encoding="utf-8")
        saved = SaveFile.read(path)
        assert [(a.name, a.distribution, a.version) for a in saved.addons] == [("tank_apcr", "wargamekit-tank-apcr", "0.1.0")]
        loaded = Game.load(path)
        assert loaded.log_text() == game.log_text() and loaded.outcome == game.outcome
        assert loaded.save().to_json() == saved.to_json()


def test_a_save_made_with_apcr_is_refused_without_it(tmp_path, monkeypatch):
    """Loaded with no add-ons, or where the add-on is not installed, the save is refused with a
    message naming it (never replayed by the rulebook's rules)."""
    path = tmp_path / "apcr.json"
    path.write_text(_played(1).save().to_json(), encoding="utf-8")
    with pytest.raises(SaveError, match=r"played with add-on\(s\) 'tank_apcr' \(wargamekit-tank-apcr 0.1.0\), which this game does not run with"):
        Game.load(path, plugin_manager=None)
    import wargamekit.plugins as plugins

    everything = plugins.installed_plugins
    monkeypatch.setattr(plugins, "installed_plugins", lambda: [p for p in everything() if p.name != "tank_apcr"])
    with pytest.raises(SaveError, match=r"\$\.addons: .*tank_apcr.*no add-on named 'tank_apcr' is installed"):
        Game.load(path)
