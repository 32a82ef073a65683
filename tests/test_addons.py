"""Add-ons (issue 12): saves record them and the log digest; the host reports broken plugins by
name and leaves them out; observers get a read-only record of the game."""

from __future__ import annotations

import json
import sys
import types
from importlib import metadata

import attrs
import pytest
from click.testing import CliRunner
from rulesets import DiceRace

import wargamekit.cli as cli
import wargamekit.plugins as plugins
from wargamekit import Game, RandomBot, SaveError, SaveFile, hookimpl, plugin_manager
from wargamekit.errors import UnknownAddonError
from wargamekit.hookspecs import ObservedGame
from wargamekit.players import bot_seed
from wargamekit.plugins import addons_in_effect, rulesets_of
from wargamekit.saves import AddonRecord
from wargamekit_skirmish import Skirmish


class Marksman:
    """An add-on: +10 on every skirmish shot, through the ruleset's published hook."""

    @hookimpl
    def skirmish_fire_modifier(self, state, firer, target, shot):
        return 10


def bots(ruleset, seed):
    return {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(ruleset.sides)}


def played(seed: int, pm=None) -> Game:
    game = Game.new(Skirmish(), seed=seed, plugin_manager=pm)
    game.play(bots(Skirmish(), seed))
    return game


def roundtrip(save: SaveFile) -> SaveFile:
    return SaveFile.from_json(save.to_json())


# -- saves record the add-ons -----------------------------------------------------------------


def test_a_game_has_no_add_ons_unless_asked():
    """Game.new without a plugin manager, and the installed manager, run no add-on."""
    assert played(1).save().addons == []
    assert addons_in_effect(plugins.installed_plugin_manager()) == ()
    assert played(1, plugins.installed_plugin_manager()).save().addons == []


def test_save_records_the_add_on_and_reloads_byte_identically():
    """Ten skirmish games with an add-on, saved to JSON and loaded with it, replay to
    byte-identical logs (the issue measured 0 of 30 before)."""
    for seed in range(10):
        pm = plugin_manager(plugins=[Marksman()])
        game = played(seed, pm)
        save = roundtrip(game.save())
        (record,) = save.addons
        assert record.name.endswith("Marksman") and record.distribution is None
        loaded = Game.load(save, plugin_manager=plugin_manager(plugins=[Marksman()]))
        assert loaded.log_text() == game.log_text()


def test_loading_without_the_add_on_is_refused_naming_it():
    """A save played with an add-on is refused, naming it, by a game without it: by default
    (the add-on is not installed) and with a manager that lacks it."""
    save = roundtrip(played(3, plugin_manager(plugins=[Marksman()])).save())
    with pytest.raises(SaveError, match=r"\$\.addons: .*Marksman.*no add-on named"):
        Game.load(save)
    with pytest.raises(SaveError, match=r"played with add-on\(s\) '.*Marksman', which this game does not run with"):
        Game.load(save, plugin_manager=plugins.installed_plugin_manager())


def test_loading_with_an_extra_add_on_is_refused_naming_it():
    """A save played without add-ons is refused by a game that would run one."""
    save = roundtrip(played(3).save())
    with pytest.raises(SaveError, match=r"runs with add-on\(s\) '.*Marksman', which the save was not played with"):
        Game.load(save, plugin_manager=plugin_manager(plugins=[Marksman()]))


def test_another_version_of_the_add_on_is_refused_naming_both():
    """The recorded distribution and version must be the running one's."""
    save = played(3, plugin_manager(plugins=[Marksman()])).save()
    name = save.addons[0].name
    older = attrs.evolve(save, addons=[AddonRecord(name, "wargamekit-marksman", "0.9")])
    with pytest.raises(SaveError, match=r"add-on '.*Marksman' \(wargamekit-marksman 0.9\) wrote it; this game runs '.*Marksman'"):
        Game.load(older, plugin_manager=plugin_manager(plugins=[Marksman()]))


def test_an_installed_add_on_is_recorded_with_its_distribution_and_reloaded_by_default(monkeypatch):
    """An add-on installed by entry point is recorded by entry-point name, distribution and
    version; Game.load (and `wargamekit resume`) find it again by that name."""
    module = types.ModuleType("marksman_addon_for_tests")
    module.skirmish_fire_modifier = Marksman().skirmish_fire_modifier
    monkeypatch.setitem(sys.modules, module.__name__, module)
    dist = types.SimpleNamespace(name="wargamekit-marksman", version="1.2")
    entry = metadata.EntryPoint("marksman", module.__name__, "wargamekit")
    entries = [
        metadata.EntryPoint("skirmish", "wargamekit_skirmish.plugin", "wargamekit"),
        types.SimpleNamespace(name="marksman", value=entry.value, load=entry.load, dist=dist),
    ]
    monkeypatch.setattr(plugins.metadata, "entry_points", lambda group: entries)
    game = played(4, plugin_manager(addons=["marksman"]))
    save = roundtrip(game.save())
    assert save.addons == [AddonRecord("marksman", "wargamekit-marksman", "1.2")]
    assert Game.load(save).log_text() == game.log_text()
    with pytest.raises(UnknownAddonError, match="no add-on named 'marksmen' is installed .*marksman"):
        plugin_manager(addons=["marksmen"])
    with pytest.raises(UnknownAddonError, match="'skirmish' provides rulesets; it is not an add-on"):
        plugin_manager(addons=["skirmish"])


def test_observers_are_not_add_ons():
    """An observer (core hooks only) cannot change a game, so saves do not record it."""

    class Observer:
        @hookimpl
        def wargamekit_event(self, game, event):
            pass

    assert addons_in_effect(plugin_manager(plugins=[Observer()])) == ()


# -- the log digest ---------------------------------------------------------------------------


def race_save() -> SaveFile:
    game = Game.new(DiceRace(), seed=5)
    for answer in (0, 0, True, 0):
        game.answer(answer)
    return roundtrip(game.save())


RACES = {"dice_race": DiceRace()}


def test_the_save_records_the_digest_of_its_log():
    """The digest is the SHA-256 of the log's JSON lines; an honest save loads."""
    save = race_save()
    assert save.log_digest.startswith("sha256:") and len(save.log_digest) == 7 + 64
    assert Game.load(save, rulesets=RACES).save() == save


def test_a_tampered_seed_is_refused():
    """Another seed: every answer still replays, but the dice (and so the log) differ."""
    tampered = attrs.evolve(race_save(), seed=6)
    with pytest.raises(SaveError, match=r"\$\.log_digest: the save's choices replay to another log"):
        Game.load(tampered, rulesets=RACES)


def test_a_tampered_answer_is_refused():
    """Another legal answer (bank instead of roll) replays to another log."""
    save = race_save()
    tampered = attrs.evolve(save, choices=[1, *save.choices[1:]])
    with pytest.raises(SaveError, match="replay to another log"):
        Game.load(tampered, rulesets=RACES)


def test_a_changed_ruleset_of_the_same_version_is_refused():
    """A ruleset changed without a new version (here: its roll rule doubles) is caught."""

    class Changed(DiceRace):
        def setup(self, scenario, options):  # red now starts with a point
            state = super().setup(scenario, options)
            state.totals["red"] = 1
            return state

    with pytest.raises(SaveError, match="ruleset dice_race 1.0 or an add-on is not what wrote it"):
        Game.load(race_save(), rulesets={"dice_race": Changed()})


def test_a_missing_add_on_is_caught_by_the_digest_too():
    """Even with its record removed, a save played with an add-on does not load without it."""
    game = Game.new(Skirmish(), seed=2, plugin_manager=plugin_manager(plugins=[Marksman()]))
    players = bots(Skirmish(), 2)
    while not any(e.kind == "fire" for e in game.log):  # stop at the first shot the add-on changed
        game.answer(players[game.pending.side].choose(game.pending, game.view(game.pending.side)))
    unrecorded = attrs.evolve(game.save(), addons=[])
    with pytest.raises(SaveError, match="replay to another log"):
        Game.load(unrecorded)


def test_a_save_of_another_format_is_refused():
    """Format 2 saves (no add-ons, no digest) are refused by format, not by missing fields."""
    data = json.loads(race_save().to_json())
    data["format"] = 2
    with pytest.raises(SaveError, match=r"\$\.format: unsupported save format 2 \(this wargamekit reads format 3\)"):
        SaveFile.from_json(json.dumps(data))


# -- a robust host ----------------------------------------------------------------------------


class Misspelt:
    """An add-on whose hook name is misspelt: it would never be called."""

    @hookimpl
    def skirmish_fire_modifer(self, state, firer, target, shot):
        return 10


class WrongArgument:
    """An add-on whose hook takes an argument the ruleset's hookspec does not have."""

    @hookimpl
    def skirmish_fire_modifier(self, state, shooter):
        return 10


def test_a_misspelt_hook_is_reported_by_plugin_and_hook():
    """check_pending semantics, after every ruleset published its hookspecs: one warning
    naming the plugin and the hook; the plugin stays (its other hooks work)."""
    pm = plugin_manager(plugins=[Misspelt(), Marksman()])
    (warning,) = pm.warnings
    assert warning.name.endswith("Misspelt") and warning.hook == "skirmish_fire_modifer"
    assert "matches no hookspec" in str(warning) and "misspelt" in str(warning)
    assert "skirmish" in rulesets_of(pm)


def test_a_hook_with_a_wrong_argument_is_left_out_and_the_rest_still_works():
    """The wrong signature is caught against the ruleset's published hookspec (even though the
    add-on is registered before the spec exists); the plugin is left out, named, and the
    others (the skirmish, the good add-on) still work."""
    pm = plugin_manager(plugins=[WrongArgument(), Marksman()])
    (error,) = pm.load_errors
    assert error.name.endswith("WrongArgument") and "PluginValidationError" in error.error
    assert "shooter" in error.error or "argument" in error.error
    assert "is left out" in str(error)
    assert [a.name.split(".")[-1] for a in addons_in_effect(pm)] == ["Marksman"]
    assert "(modifier +" in played(2, pm).log_text()


def test_a_ruleset_hook_implemented_before_its_spec_is_checked_when_published():
    """A ruleset plugin implementing a hook with a wrong argument before it publishes the spec:
    left out when the spec arrives, not a crash of every command."""

    class BadRulesetPlugin:
        @hookimpl
        def wargamekit_rulesets(self):
            return [DiceRace()]

        @hookimpl
        def wargamekit_add_hookspecs(self, pluginmanager):
            from wargamekit_skirmish import hookspecs

            pluginmanager.add_hookspecs(hookspecs)

        @hookimpl
        def skirmish_fire_modifier(self, colour):
            return 1

    pm = plugin_manager(load_entry_points=False, plugins=[BadRulesetPlugin()])
    (error,) = pm.load_errors
    assert error.name.endswith("BadRulesetPlugin")
    assert rulesets_of(pm) == {}


@pytest.fixture
def broken_entry_points(monkeypatch):
    """The real skirmish entry point plus two installed add-ons: one misspelt, one with a wrong
    argument (entry points in this process, not installed packages)."""
    misspelt = types.ModuleType("misspelt_addon_for_tests")
    misspelt.skirmish_fire_modifer = Misspelt().skirmish_fire_modifer
    wrong = types.ModuleType("wrong_addon_for_tests")
    wrong.skirmish_fire_modifier = WrongArgument().skirmish_fire_modifier
    for module in (misspelt, wrong):
        monkeypatch.setitem(sys.modules, module.__name__, module)
    entries = [
        metadata.EntryPoint("skirmish", "wargamekit_skirmish.plugin", "wargamekit"),
        metadata.EntryPoint("misspelt", misspelt.__name__, "wargamekit"),
        metadata.EntryPoint("wrong", wrong.__name__, "wargamekit"),
    ]
    monkeypatch.setattr(plugins.metadata, "entry_points", lambda group: entries)
    monkeypatch.setattr(plugins, "_installed", None)
    monkeypatch.setattr(plugins, "_installed_pm", None)


def test_rulesets_command_lists_and_warns_one_line_per_plugin(broken_entry_points):
    """`wargamekit rulesets` still lists the rulesets, and says one line per broken plugin."""
    result = CliRunner().invoke(cli.cli, ["rulesets"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("skirmish")
    assert "add-on misspelt" in result.stdout and "add-on wrong" not in result.stdout
    warnings = result.stderr.splitlines()
    assert len(warnings) == 2, warnings
    assert any("plugin 'wrong' (wrong_addon_for_tests) is left out: PluginValidationError" in w for w in warnings)
    assert any("plugin 'misspelt': hook 'skirmish_fire_modifer' matches no hookspec" in w for w in warnings)


def test_play_still_works_and_refuses_a_broken_add_on_by_name(broken_entry_points):
    """`play` runs without the add-ons (none asked); asking for the broken one is one error
    line naming it; the misspelt one runs with a warning."""
    runner = CliRunner()
    plain = runner.invoke(cli.cli, ["play", "skirmish", "--seed", "1", "--quiet"])
    assert plain.exit_code == 0 and plain.stdout.startswith("result: ") and plain.stderr == ""
    broken = runner.invoke(cli.cli, ["play", "skirmish", "--seed", "1", "--quiet", "--addon", "wrong"])
    assert broken.exit_code == 2
    assert broken.stderr.splitlines() == [broken.stderr.strip()]
    assert broken.stderr.startswith("error: plugin 'wrong' (wrong_addon_for_tests) is left out: PluginValidationError")
    misspelt = runner.invoke(cli.cli, ["play", "skirmish", "--seed", "1", "--quiet", "--addon", "misspelt"])
    assert misspelt.exit_code == 0
    assert misspelt.stderr.startswith("warning: plugin 'misspelt': hook 'skirmish_fire_modifer'")


def test_resume_loads_the_saves_add_ons_and_refuses_when_missing(broken_entry_points, tmp_path, monkeypatch):
    """A save played with `--addon` records it; `replay` loads it again by name; without it
    installed the command says which add-on is missing."""
    save = tmp_path / "game.json"
    runner = CliRunner()
    played_ = runner.invoke(cli.cli, ["play", "skirmish", "--seed", "2", "--quiet", "--addon", "misspelt", "--save", str(save)])
    assert played_.exit_code == 0, played_.output
    # A misspelt hook never runs, so the add-on changes nothing: it implements no published hook.
    assert json.loads(save.read_text())["addons"] == []
    marksman = types.ModuleType("marksman_entry_for_tests")
    marksman.skirmish_fire_modifier = Marksman().skirmish_fire_modifier
    monkeypatch.setitem(sys.modules, marksman.__name__, marksman)
    entries = [*plugins.metadata.entry_points(group="wargamekit"), metadata.EntryPoint("marksman", marksman.__name__, "wargamekit")]
    monkeypatch.setattr(plugins.metadata, "entry_points", lambda group: entries)
    assert runner.invoke(cli.cli, ["play", "skirmish", "--seed", "2", "--quiet", "--addon", "marksman", "--save", str(save)]).exit_code == 0
    assert [a["name"] for a in json.loads(save.read_text())["addons"]] == ["marksman"]
    assert runner.invoke(cli.cli, ["replay", str(save), "--quiet"]).exit_code == 0
    monkeypatch.setattr(plugins.metadata, "entry_points", lambda group: entries[:-1])
    missing = runner.invoke(cli.cli, ["replay", str(save), "--quiet"])
    assert missing.exit_code == 2
    assert "the save was played with add-on(s) 'marksman'" in missing.stderr
    assert "no add-on named 'marksman' is installed" in missing.stderr


# -- observers get a read-only record ---------------------------------------------------------


def test_an_observer_gets_a_read_only_record_not_the_game():
    """The observer is told values: a frozen record whose log is a tuple of copies. Changing a
    copy's data changes nothing in the game, and the record has no path to the game."""
    told: list[tuple[ObservedGame, object]] = []

    class Meddler:
        @hookimpl
        def wargamekit_event(self, game, event):
            told.append((game, event))
            event.data["meddled"] = True  # a copy: the game's log is untouched

    pm = plugin_manager(load_entry_points=False, plugins=[Meddler()])
    game = Game.new(DiceRace(), seed=3, plugin_manager=pm)
    game.play(bots(DiceRace(), 3))
    assert len(told) == len(game.log)
    record, event = told[-1]
    assert isinstance(record, ObservedGame) and record.log[-1] is event
    assert record.log == tuple(game.log) and record.ruleset == "dice_race" and record.seed == 3
    assert all(not isinstance(getattr(record, a.name), Game) for a in attrs.fields(ObservedGame))
    assert not any("meddled" in e.data for e in game.log)
    assert Game.load(game.save(), rulesets=RACES).log_text() == game.log_text()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        record.log = ()  # type: ignore[misc]
    # Each record is the log up to its own event.
    assert [len(r.log) for r, _ in told] == list(range(1, len(game.log) + 1))
    assert record.visible_log("red") == tuple(e for e in game.log if e.visible_to("red"))


def test_observer_records_follow_undo():
    """After an undo the next record is the rebuilt log, not the old one."""
    told: list[ObservedGame] = []

    class Observer:
        @hookimpl
        def wargamekit_event(self, game, event):
            told.append(game)

    game = Game.new(DiceRace(), seed=3, plugin_manager=plugin_manager(load_entry_points=False, plugins=[Observer()]))
    game.answer(0)
    game.answer(1)
    game.undo(1)
    game.answer(0)
    assert told[-1].log == tuple(game.log)


def test_play_with_an_add_on_that_is_not_installed_is_one_error_line(broken_entry_points):
    """`--addon` with a name no entry point has: one error line listing the installed add-ons."""
    result = CliRunner().invoke(cli.cli, ["play", "skirmish", "--seed", "1", "--quiet", "--addon", "marksmen"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: no add-on named 'marksmen' is installed (installed add-ons: misspelt, wrong)"
    )
