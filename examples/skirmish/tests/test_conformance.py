"""Conformance, determinism, the bot, and registration as a plugin."""

from fractions import Fraction

from click.testing import CliRunner

from wargamekit import Game, RandomBot, ScriptedDice, hookimpl, installed_rulesets, plugin_manager
from wargamekit.testing import check_prose_independence, check_ruleset
from wargamekit_skirmish import Skirmish
from wargamekit_skirmish.bots import GreedyBot, expected_steps
from wargamekit_skirmish.fire import Shot


def test_conformance_default_scenario():
    """wargamekit.testing.check_ruleset passes on the bundled scenario, every decision with a
    kind and every option with data, and no view depending on the other side's secrets (a
    move into sight is revealed by its "move" event)."""
    report = check_ruleset(Skirmish(), "default", games=6, structured=True, non_interference=True, reveals={"move"})
    assert report.games == 6 and report.decisions > 0


#: Every hex woods: units stay hidden until an enemy comes within 3 hexes (7. Concealment), so
#: their activations, moves, facings and fire are secret decisions the check can fork.
FOREST = {"title": "Forest", "width": 10, "height": 8, "turns": 3,
          "terrain": {"woods": [f"{c:02d}{r:02d}" for c in range(1, 11) for r in range(1, 9)]},
          "units": [{"name": "B1", "side": "blue", "hex": "0102"}, {"name": "B2", "side": "blue", "hex": "0107"},
                    {"name": "R1", "side": "red", "hex": "1002", "facing": 3},
                    {"name": "R2", "side": "red", "hex": "1007", "facing": 3}]}


def test_non_interference_with_hidden_units():
    """7. Concealment: while units are hidden in woods, no side's view depends on what the other
    side's hidden units do; the check has secrets to fork here (in the open default scenario
    every activation is soon seen, so its forks fall in groups of one)."""
    report = check_ruleset(Skirmish(), FOREST, games=3, structured=True, non_interference=True, reveals={"move"})
    assert report.non_interference_pairs > 0


def test_bots_read_structure_not_prose():
    """With every prompt and label rewritten, the greedy and random bots answer the same."""
    compared = check_prose_independence(Skirmish(), {"blue": GreedyBot, "red": GreedyBot}, seeds=range(2))
    assert compared > 50
    check_prose_independence(Skirmish(), {"blue": GreedyBot, "red": RandomBot}, seeds=[5])


def test_conformance_without_reaction_fire():
    """The conformance check also passes with the reaction-fire option off."""
    check_ruleset(Skirmish(), "default", games=3, seed=100, options={"reaction_fire": False}, structured=True,
                  reveals={"move"})


def test_same_seed_and_answers_give_a_byte_identical_log():
    """Determinism: the same scenario, seed and players give the same log, byte for byte."""

    def play():
        game = Game.new(Skirmish(), seed=42)
        game.play({"blue": GreedyBot(1), "red": RandomBot(2)})
        return game.log_text()

    assert play() == play()


def test_greedy_bot_beats_random():
    """The greedy bot wins clearly against the random bot (quick check; `wargamekit simulate skirmish --players greedy,random --alternate --games 300` measures more)."""
    ruleset = Skirmish()
    wins = 0
    for seed in range(10):
        bot_side = ruleset.sides[seed % 2]
        players = {s: GreedyBot(seed) if s == bot_side else RandomBot(seed) for s in ruleset.sides}
        wins += Game.new(ruleset, seed=seed).play(players).winner == bot_side
    assert wins >= 8


def test_bot_uses_exact_odds():
    """The bot's expected damage is the exact expectation: 18/36 hits + 2 * 3/36 kills."""
    assert expected_steps(Shot(2, 2)) == float(Fraction(18 + 6, 36))


def test_registered_through_its_entry_point():
    """The ruleset is found by name through the wargamekit entry point, with a bot under "bot"."""
    ruleset = installed_rulesets()["skirmish"]
    assert isinstance(ruleset, Skirmish) and "bot" in ruleset.bots()


class Marksman:
    """An add-on plugin: +10 on every shot, through the ruleset's own hookspec."""

    @hookimpl
    def skirmish_fire_modifier(self, state, firer, target, shot):
        return 10


def test_add_on_plugin_modifies_fire_through_published_hookspec():
    """wargamekit_add_hookspecs publishes skirmish_fire_modifier; an add-on's result is added to 5.2."""
    pm = plugin_manager(plugins=[Marksman()])
    data = {"title": "t", "width": 6, "height": 4, "units": [
        {"name": "A", "side": "blue", "hex": "0102"}, {"name": "B", "side": "red", "hex": "0402", "facing": 3}]}
    game = Game.new(Skirmish(), data, options={"reaction_fire": False}, dice=ScriptedDice([1, 2]),
                    plugin_manager=pm)
    for label in ("A", "0102", "south-east", "B"):
        game.answer(_index(game.pending.labels, label))
    # 2d6 = 3, modifier 2 - 1 + 10: 14 kills (without the add-on, 4 would miss).
    assert not game.state.units["B"].alive and game.outcome.winner == "blue"
    assert "(modifier +11)" in game.log_text()


def test_odds_command_prints_exact_odds():
    """`wargamekit odds skirmish` prints the exact distribution of a shot."""
    result = CliRunner().invoke(Skirmish().odds_command(), ["--firepower", "2", "--range", "2"])
    assert result.exit_code == 0
    rows = {line.split()[0]: line.split()[1] for line in result.output.splitlines()[1:]}
    assert rows == {"MISS": "5/12", "HIT": "1/2", "KILL": "1/12"}


def _index(labels: list[str], label: str) -> int:
    """The option labelled ``label``; a fire target's label goes on with its range and odds
    ("B (range 3, …)"), so a target is found by its name."""
    return next(i for i, text in enumerate(labels) if text == label or text.startswith(label + " ("))
