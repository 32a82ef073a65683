"""The hooks mttt_rpg publishes (docs/rulesets/mttt_rpg.md, "Hooks"): attack and defense
modifiers from an add-on, seen by the attack in play, the menus' odds, preview_attack and the bot."""

from __future__ import annotations

from wargamekit import Game, hookimpl
from wargamekit.plugins import plugin_manager
from wargamekit_mttt_rpg import MtttRpg
from wargamekit_mttt_rpg.attack_flow import attack
from wargamekit_mttt_rpg.defense import attack_profile, defense_profile
from wargamekit_mttt_rpg.odds import preview_attack


class Blessing:
    """An add-on: ``accuracy`` to every attack of ``unit``, ``defense`` to its defense."""

    def __init__(self, unit: str, accuracy: int | None = None, defense: int | None = None) -> None:
        self.unit, self.accuracy, self.defense, self.modes = unit, accuracy, defense, []

    @hookimpl
    def mttt_rpg_attack_modifier(self, attacker):
        return self.accuracy if attacker.id == self.unit else None

    @hookimpl
    def mttt_rpg_defense_modifier(self, target, mode):
        self.modes.append(mode)
        return self.defense if target.id == self.unit else None


def setup(make, faces, add_on=None):
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), band=0), faces,
             interrupts=False)
    for u in h.state:
        u.initiative = 10
        h.state.track.set(u.id, 10)
    if add_on is not None:
        h.hooks = plugin_manager(plugins=[add_on]).hook
    return h


def test_defense_modifier_turns_a_hit_into_a_miss(make):
    """命中检定 vs 被动防御: Kyo's d20 9 + 9 = 18 meets Akari's passive 18 (a hit, ties to the
    attacker); with an add-on's +1 to Akari's defense, 18 < 19 misses and rolls no damage."""
    h = setup(make, [9, 3, 3])
    h.run(attack(h, h.unit("kyo"), h.unit("akari"), "withering", []), ["passive defense"])
    assert any(t == "Kyo 18 vs Akari's defense 18: hit" for t in h.texts())
    add_on = Blessing("akari", defense=1)
    h = setup(make, [9], add_on)
    h.run(attack(h, h.unit("kyo"), h.unit("akari"), "withering", []), ["passive defense"])
    assert any(t == "Kyo 18 vs Akari's defense 19: miss" for t in h.texts())
    assert h.dice.position == 1 and h.unit("akari").initiative == 10
    assert "passive" in add_on.modes


def test_attack_modifier_turns_a_miss_into_a_hit(make):
    """命中检定: d20 8 + 9 = 17 misses Akari's 18; an add-on's +1 accuracy for Kyo makes 18, a hit."""
    h = setup(make, [8])
    h.run(attack(h, h.unit("kyo"), h.unit("akari"), "withering", []), ["passive defense"])
    assert any(t == "Kyo 17 vs Akari's defense 18: miss" for t in h.texts())
    h = setup(make, [8, 3, 3], Blessing("kyo", accuracy=1))
    h.run(attack(h, h.unit("kyo"), h.unit("akari"), "withering", []), ["passive defense"])
    assert any(t == "Kyo 18 vs Akari's defense 18: hit" for t in h.texts())


def test_profiles_odds_and_bot_see_the_add_on():
    """The pure profiles and preview_attack take the hooks; a game hands them to bots as view.hooks."""
    pm = plugin_manager(plugins=[Blessing("kyo", accuracy=2, defense=3)])
    game = Game.new(MtttRpg(), "duel", seed=3, plugin_manager=pm)
    scene = game.state
    kyo, akari = scene.unit("kyo"), scene.unit("akari")
    assert attack_profile(scene, kyo, akari, hooks=pm.hook).accuracy == attack_profile(scene, kyo, akari).accuracy + 2
    plain = defense_profile(scene, kyo, akari, "passive", ranged=False)
    assert defense_profile(scene, kyo, akari, "passive", ranged=False, hooks=pm.hook).value == plain.value + 3
    assert (preview_attack(scene, "kyo", "akari", "withering", hooks=pm.hook).hit_chance
            > preview_attack(scene, "kyo", "akari", "withering").hit_chance)
    assert game.view("heroes").hooks is game.hooks is not None


def test_odds_command_counts_an_addon(monkeypatch):
    """``wargamekit odds mttt_rpg --addon NAME``: the named add-on's modifiers change the odds
    (the installed add-on is stood in for by the test's Blessing)."""
    from wargamekit_mttt_rpg import odds_cli

    asked = []

    def manager(addons):
        asked.append(addons)
        return plugin_manager(plugins=[Blessing("kyo", accuracy=5)])

    monkeypatch.setattr(odds_cli, "plugin_manager", manager)
    plain = odds_cli.odds_text(scene="duel", attacker="kyo", target="akari")
    blessed = odds_cli.odds_text(scene="duel", attacker="kyo", target="akari", addons=("blessing",))
    assert asked == [["blessing"]] and plain != blessed
    hit = [float(line.split("hit ")[1].split("%")[0]) for text in (plain, blessed) for line in text.splitlines()
           if "hit " in line]
    assert hit[1] == hit[0] + 25.0  # +5 on a d20
