"""The plugin host: entry points, the observer hook, and rulesets' own hookspecs."""

from __future__ import annotations

import types

import pluggy
import pytest
from rulesets import DiceRace

from wargamekit import Game, RandomBot, UnknownRulesetError, find_ruleset, hookimpl, plugin_manager
from wargamekit.plugins import installed_rulesets, rulesets_of


def plugin_with(*rulesets):
    module = types.SimpleNamespace()

    @hookimpl
    def wargamekit_rulesets():
        return list(rulesets)

    module.wargamekit_rulesets = wargamekit_rulesets
    return module


def test_rulesets_come_from_registered_plugins():
    """A plugin's wargamekit_rulesets hook registers its rulesets by name."""
    pm = plugin_manager(load_entry_points=False, plugins=[plugin_with(DiceRace())])
    assert list(rulesets_of(pm)) == ["dice_race"]


def test_duplicate_ruleset_names_are_refused():
    """Two plugins may not provide rulesets with the same name."""
    pm = pluggy.PluginManager("wargamekit")
    pm.add_hookspecs(__import__("wargamekit.hookspecs").hookspecs)
    pm.register(plugin_with(DiceRace()), name="race_one")
    pm.register(plugin_with(DiceRace()), name="race_two")
    with pytest.raises(ValueError, match="two plugins provide a ruleset named 'dice_race': 'race_one' and 'race_two'"):
        rulesets_of(pm)


def test_non_ruleset_registration_is_refused():
    """A hook returning something that is not a Ruleset is a clear error."""
    pm = plugin_manager(load_entry_points=False, plugins=[plugin_with("not a ruleset")])
    with pytest.raises(TypeError, match="not a Ruleset"):
        rulesets_of(pm)


def test_installed_rulesets_are_found_through_entry_points():
    """The bundled example plugin is found through the wargamekit entry-point group only."""
    names = installed_rulesets()
    assert "skirmish" in names
    assert find_ruleset("skirmish") is names["skirmish"]


def test_unknown_ruleset_lists_the_installed_ones():
    """Asking for a ruleset that is not installed names the ones that are."""
    with pytest.raises(UnknownRulesetError, match="no ruleset named 'chess' is installed"):
        find_ruleset("chess", {"dice_race": DiceRace()})


def test_observer_hook_sees_every_event_in_order():
    """wargamekit_event is called for every log entry, in log order."""
    seen = []

    class Observer:
        @hookimpl
        def wargamekit_event(self, game, event):
            seen.append(event)

    pm = plugin_manager(load_entry_points=False, plugins=[Observer()])
    race = DiceRace()
    game = Game.new(race, seed=3, plugin_manager=pm)
    game.play({side: RandomBot(i) for i, side in enumerate(race.sides)})
    assert seen == game.log


hookspec = pluggy.HookspecMarker("wargamekit")


class RaceHooks:
    """A ruleset's own hookspecs (published for add-on plugins)."""

    @hookspec
    def dice_race_bonus(self, side: str) -> int:
        """Extra points for ``side`` at the start."""


class BonusAddon:
    @hookimpl
    def dice_race_bonus(self, side):
        return 5 if side == "blue" else 0


class RaceWithHooks(DiceRace):
    name = "dice_race_hooks"

    def play(self, game):
        for side in self.sides:
            game.state.totals[side] += sum(game.hooks.dice_race_bonus(side=side))
        return (yield from super().play(game))


class PublishesHooks:
    @hookimpl
    def wargamekit_add_hookspecs(self, pluginmanager):
        pluginmanager.add_hookspecs(RaceHooks)


def test_ruleset_can_publish_hookspecs_for_addons():
    """A ruleset's own hookspec, registered via wargamekit_add_hookspecs, reaches add-ons."""
    pm = plugin_manager(load_entry_points=False, plugins=[PublishesHooks(), BonusAddon()])
    game = Game.new(RaceWithHooks(), seed=1, plugin_manager=pm)
    assert game.state.totals == {"red": 0, "blue": 5}


def test_a_broken_plugin_is_reported_and_the_others_still_load(monkeypatch):
    """One plugin failing to import is reported by name; the rest load."""
    from importlib import metadata

    import wargamekit.plugins as plugins

    good = metadata.EntryPoint("dice_race", "rulesets_plugin_for_tests", "wargamekit")
    bad = metadata.EntryPoint("broken", "no_such_module_anywhere", "wargamekit")
    module = types.ModuleType("rulesets_plugin_for_tests")
    module.wargamekit_rulesets = plugin_with(DiceRace()).wargamekit_rulesets
    monkeypatch.setitem(__import__("sys").modules, "rulesets_plugin_for_tests", module)
    monkeypatch.setattr(plugins.metadata, "entry_points", lambda group: [bad, good])
    monkeypatch.setattr(plugins, "_load_errors", [])  # restored afterwards for the other tests
    pm = plugin_manager()
    assert list(rulesets_of(pm)) == ["dice_race"]
    (error,) = plugins.plugin_load_errors()
    assert error.name == "broken"
    assert "ModuleNotFoundError" in error.error
    with pytest.raises(UnknownRulesetError, match="plugin 'broken' .* is left out: ModuleNotFoundError"):
        find_ruleset("broken", rulesets_of(pm))


def test_observers_are_not_told_twice_after_undo_or_a_rejected_choice():
    """Undo and the rebuild after an illegal choice replay silently for observers."""
    from wargamekit import IllegalChoiceError

    seen = []

    class Observer:
        @hookimpl
        def wargamekit_event(self, game, event):
            seen.append(event)

    pm = plugin_manager(load_entry_points=False, plugins=[Observer()])
    game = Game.new(DiceRace(), seed=3, options={"offer_cheat": True}, plugin_manager=pm)
    game.answer(0)
    before = list(seen)
    with pytest.raises(IllegalChoiceError):
        game.answer(2)
    assert seen == before
    game.undo(1)
    assert seen == before
    undone_length = len(game.log)
    game.answer(0)
    assert seen == before + game.log[undone_length:]


def test_a_plugin_with_an_invalid_hook_is_reported_and_the_others_still_load(monkeypatch):
    """A plugin whose hook takes arguments the hookspec does not have is reported, not fatal."""
    from importlib import metadata

    import wargamekit.plugins as plugins

    good = types.ModuleType("rulesets_plugin_for_tests")
    good.wargamekit_rulesets = plugin_with(DiceRace()).wargamekit_rulesets
    bad = types.ModuleType("invalid_hook_plugin_for_tests")

    @hookimpl
    def wargamekit_rulesets(colour):
        return []

    bad.wargamekit_rulesets = wargamekit_rulesets
    monkeypatch.setitem(__import__("sys").modules, good.__name__, good)
    monkeypatch.setitem(__import__("sys").modules, bad.__name__, bad)
    entries = [
        metadata.EntryPoint("bad", bad.__name__, "wargamekit"),
        metadata.EntryPoint("dice_race", good.__name__, "wargamekit"),
    ]
    monkeypatch.setattr(plugins.metadata, "entry_points", lambda group: entries)
    monkeypatch.setattr(plugins, "_load_errors", [])
    pm = plugin_manager()
    assert list(rulesets_of(pm)) == ["dice_race"]
    (error,) = plugins.plugin_load_errors()
    assert error.name == "bad" and "PluginValidationError" in error.error


def test_loading_a_save_is_a_silent_replay():
    """Game.load tells observers nothing: neither the saved events again, nor the events of a
    save that is then rejected; the loaded game's new events are told as usual."""
    from wargamekit import SaveError, SaveFile

    seen = []

    class Observer:
        @hookimpl
        def wargamekit_event(self, game, event):
            seen.append(event.kind)

    pm = plugin_manager(load_entry_points=False, plugins=[Observer()])
    rulesets = {"dice_race": DiceRace()}
    game = Game.new(DiceRace(), seed=3)
    game.answer(0)
    save = game.save()
    loaded = Game.load(save, rulesets=rulesets, plugin_manager=pm)
    assert seen == []
    loaded.answer(1)
    assert seen and seen[0] == "choice"
    seen.clear()
    bad = SaveFile(**{**{a.name: getattr(save, a.name) for a in save.__attrs_attrs__}, "choices": [0, 7]})
    with pytest.raises(SaveError, match=r"\$.choices\[1\]"):
        Game.load(bad, rulesets=rulesets, plugin_manager=pm)
    assert seen == []
