"""Conformance, determinism, the bots, the hooks and registration as a plugin."""

from click.testing import CliRunner

from wargamekit import Game, RandomBot, hookimpl, installed_rulesets, plugin_manager
from wargamekit.testing import check_prose_independence, check_ruleset
from wargamekit_aig import Aig
from wargamekit_aig.bots import HeuristicBot


def test_conformance_training():
    """check_ruleset passes on the training battle, every decision with a kind and option data."""
    report = check_ruleset(Aig(), "training", games=3, structured=True, deep_checks=1)
    assert report.games == 3 and report.decisions > 0
    # AIG has no hidden information (every decision and roll is public): the non-interference
    # check runs (check_ruleset's default) and has no secret to fork.
    assert report.non_interference_pairs == 0


def test_bots_read_structure_not_prose():
    """With every prompt and label rewritten, the heuristic and random bots answer the same."""
    compared = check_prose_independence(Aig(), {"red": HeuristicBot, "blue": HeuristicBot}, seeds=[0])
    assert compared > 50
    check_prose_independence(Aig(), {"red": HeuristicBot, "blue": RandomBot}, seeds=[1])


def test_same_seed_and_answers_give_a_byte_identical_log():
    """Determinism: the same scenario, seed and players give the same log, byte for byte."""

    def play():
        game = Game.new(Aig(), "training", seed=7)
        game.play({"red": HeuristicBot(1), "blue": RandomBot(2)})
        return game.log_text()

    assert play() == play()


def test_registered_through_its_entry_point():
    """The ruleset is found by name through the wargamekit entry point, with a bot under "bot"."""
    ruleset = installed_rulesets()["aig"]
    assert isinstance(ruleset, Aig) and "bot" in ruleset.bots()
    assert set(ruleset.scenario_names()) >= {"training", "default"}


def test_odds_command_prints_exact_odds():
    """`wargamekit odds aig` prints exact odds: a volley needing 4 hits on 0-4, 5 faces of 10."""
    result = CliRunner().invoke(Aig().odds_command(), ["--what", "missile", "--number", "4"])
    assert result.exit_code == 0 and "hit 1/2 (50.0%)" in result.output
    result = CliRunner().invoke(Aig().odds_command(), ["--what", "momentum", "--initiative", "4"])
    assert "success: 1/2" in result.output and "chaos: 1/50" in result.output


def test_conformance_battle():
    """check_ruleset passes on the full battle too (one game: it is a long one)."""
    report = check_ruleset(Aig(), "battle", games=1, structured=True, deep_checks=1)
    assert report.games == 1 and report.decisions > 100


class Marksmen:
    """An add-on: +3 on every volley and +2 columns on every shock, through the published hooks."""

    @hookimpl
    def aig_missile_modifier(self, state, firer, target, shot):
        return 3

    @hookimpl
    def aig_shock_modifier(self, state, attacker, defender, shock):
        return 2


def test_add_on_plugin_modifies_fire_and_shock_through_published_hookspecs(k):
    """wargamekit_add_hookspecs publishes aig_missile_modifier and aig_shock_modifier; ctx.hooks
    calls them: a self bow at range 2 needs 4, +3 → 7, so a 6 hits; HI vs MI column +1, +2 → +3."""
    from wargamekit import ScriptedDice
    from wargamekit_aig import orders

    data = k.scenario([k.unit("a", "red", "0504", missile="B"), k.unit("z", "blue", "0704"),
                       k.unit("h", "red", "0806", "HI"), k.unit("m", "blue", "0906")])
    game = Game.new(Aig(), data, seed=0, plugin_manager=plugin_manager(plugins=[Marksmen()]))
    ctx = game.context
    ctx.dice = ScriptedDice([6, 3])
    phase = orders.Phase(ctx.state.leaders["Red OC"], 1)
    k.drive(orders.fire(ctx, ctx.state.units["a"], ctx.state.units["z"], "ordered"), [])
    assert ctx.state.units["z"].hits == 1
    k.drive(orders.activate(ctx, ctx.state.units["h"], phase), [{"step": "stop"}])
    k.drive(orders.melee_segment(ctx, phase), [{"target": "m"}])
    # 3 + column 3 = 6 → attacker 1, defender 2 (without the add-on: 4 → 1/1).
    assert ctx.state.units["m"].hits == 2
