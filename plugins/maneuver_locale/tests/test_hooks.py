"""The hook maneuver_locale publishes (docs/rulesets/maneuver_locale.md, "Hooks"): an add-on's
assault modifier changes the result in play, in the preview and for the bot."""

from __future__ import annotations

from wargamekit import Game, ScriptedDice, hookimpl
from wargamekit.geometry.locale import ApproachWidth
from wargamekit.plugins import plugin_manager
from wargamekit_maneuver_locale import Combatant, ManeuverLocale, preview_assault, resolve_assault
from wargamekit_maneuver_locale.assault import assault_preview
from wargamekit_maneuver_locale.resolution import assault_modifier
from wargamekit_maneuver_locale.scenario import Arm

ASSAULT = "assault from C approach against the blocking approach of E (1 command)"


class Elan:
    """An add-on: the attacker's infantry assaults with élan, +1 to the result; it notes its calls."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    @hookimpl
    def maneuver_locale_assault_modifier(self, attacker_leading, defender_leading, terrain):
        self.calls.append((tuple(c.steps for c in attacker_leading), tuple(c.steps for c in defender_leading), terrain))
        return 1 if all(c.arm is Arm.INFANTRY for c in attacker_leading) else None


def narrow_assault(kit, plugins=()):
    pieces = [
        ("A1", "austria", "infantry", 3, "c", "e"),
        ("A2", "austria", "infantry", 2, "c", "e"),
        ("F1", "france", "infantry", 2, "e", "c"),
        ("F2", "france", "infantry", 1, "e"),
        ("F9", "france", "infantry", 1, "s"),
    ]
    data = kit.build(["c", "e", "s", "n"], [("c", "e", "narrow", 1, "wide", 0), ("e", "s"), ("n", "e")], pieces)
    pm = plugin_manager(plugins=list(plugins)) if plugins else None
    g = Game.new(ManeuverLocale(), data, seed=0, dice=ScriptedDice([]), plugin_manager=pm)
    kit.act(g, ASSAULT, ["A1"], "pass", ["F1"])
    return g


def test_an_add_on_turns_a_drawn_assault_into_a_win(kit):
    """Assaults — 判定: 3 - terrain 1 - 2 = 0 is the defender's win; with the add-on's +1 the
    result is +1, the attacker's: the winner loses 1 step, the loser 1 + 1 (損害適用)."""
    plain = narrow_assault(kit)
    assert [e.data["result"] for e in plain.log if e.kind == "assault-result"] == [0]
    assert plain.state.pieces["A1"].steps == 2 and plain.state.pieces["F1"].steps == 1
    add_on = Elan()
    g = narrow_assault(kit, [add_on])
    result = [e for e in g.log if e.kind == "assault-result"][0]
    assert (result.data["result"], result.data["winner"]) == (1, "attacker")
    assert "+1 (add-ons)" in result.text
    assert g.state.pieces["A1"].steps == 2  # the winner loses 1
    assert "F1" not in g.state.pieces  # 2 steps, loses 1 + 1
    assert add_on.calls == [((3,), (2,), 1)]


def test_the_preview_counts_the_add_on():
    """The preview (the odds command's and the bot's) adds the same modifier."""
    hooks = plugin_manager(plugins=[Elan()]).hook
    lead, dfn = [Combatant("A1", Arm.INFANTRY, 3)], [Combatant("F1", Arm.INFANTRY, 2)]
    plain = preview_assault(lead, dfn, width=ApproachWidth.NARROW, terrain=1)
    with_elan = preview_assault(lead, dfn, width=ApproachWidth.NARROW, terrain=1, hooks=hooks)
    assert [line.outcome.result for line in plain] == [2, 0]
    assert [line.outcome.result for line in with_elan] == [3, 1]
    assert [line.outcome.winner for line in with_elan] == ["attacker", "attacker"]
    assert resolve_assault(lead, dfn, terrain=1, modifier=assault_modifier(hooks, lead, dfn, 1)).result == 1
    assert assault_modifier(None, lead, dfn, 1) == 0


def test_bot_previews_through_view_hooks(kit):
    """A bot's preview reads ``view.hooks``: the game's add-ons."""
    data = kit.build(["c", "e"], [("c", "e", "narrow", 1, "wide", 0)],
                     [("A1", "austria", "infantry", 3, "c", "e"), ("F1", "france", "infantry", 2, "e", "c")])
    g = Game.new(ManeuverLocale(), data, seed=0, dice=ScriptedDice([]), plugin_manager=plugin_manager(plugins=[Elan()]))
    view = g.view("austria")
    lines = assault_preview(view.state, "c", "e", ["A1"], hooks=view.hooks)
    assert [line.outcome.result for line in lines] == [3, 1]
