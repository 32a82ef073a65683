"""Bots, odds command, terminal summary and SVG picture."""

from click.testing import CliRunner

from wargamekit import Game, RandomBot
from wargamekit.testing import check_prose_independence
from wargamekit_lnl import LnL
from wargamekit_lnl.bots import OddsBot


def test_bots_read_structure_not_prose():
    """With every prompt and label rewritten, the odds bot and the random bot answer the same."""
    assert check_prose_independence(LnL(), {"us": OddsBot, "german": RandomBot}, seeds=[1]) > 50
    check_prose_independence(LnL(), {"us": RandomBot, "german": OddsBot}, seeds=[2])


def test_odds_bot_against_itself_reads_structure_not_prose():
    """The same with the odds bot on both sides, and with vehicles (combined arms)."""
    assert check_prose_independence(LnL(), {"us": OddsBot, "german": OddsBot}, scenario="combined_arms",
                                    seeds=[3]) > 50


def test_odds_bot_beats_random_quick_check():
    """A quick check of the figure measured by ``wargamekit simulate`` (village, both sides; see
    docs/rulesets/lnl.md, "The bots")."""
    ruleset = LnL()
    wins = 0
    for seed in range(6):
        side = ruleset.sides[seed % 2]
        players = {s: OddsBot(seed) if s == side else RandomBot(seed + 10_000) for s in ruleset.sides}
        wins += Game.new(ruleset, seed=seed).play(players).winner == side
    assert wins >= 4


def test_odds_command_prints_exact_odds():
    """`wargamekit odds lnl fire|melee|rally` print exact probabilities."""
    cmd = LnL().odds_command()
    result = CliRunner().invoke(cmd, ["rally", "--morale", "5", "--leadership", "1"])
    assert result.exit_code == 0 and "rallies 5/12" in result.output  # 2D6 ≤ 6: 15/36
    result = CliRunner().invoke(cmd, ["melee", "--attack", "4", "--defence", "2"])
    assert "column 2, kill number 7: defenders eliminated 7/12" in result.output
    result = CliRunner().invoke(cmd, ["fire", "--fp", "4", "--terrain", "2"])
    rows = {line.rsplit(None, 2)[0].strip(): line.split()[-2] for line in result.output.splitlines()}
    assert sum(__import__("fractions").Fraction(v) for v in rows.values()) == 1


def test_summary_and_svg_show_units_markers_and_facing():
    """The terminal summary lists units by hex with states and markers; the SVG draws counters,
    vehicle facing and the markers."""
    game = Game.new(LnL(), "combined_arms", seed=3)
    game.play({"us": RandomBot(1), "german": RandomBot(2)})
    state = game.state
    text = LnL().summary(state)
    assert "Turn 8 of 8" in text and "Objectives:" in text
    svg = LnL().render_svg(state)
    assert svg.startswith("<?xml") or svg.startswith("<svg")
    assert "OBJ" in svg and any(u.id.split("-")[-1] in svg for u in state.alive())


def test_odds_command_sniper():
    """SMC 2.3 / D8 from the command line: a squad in woods (+2): casualty 1/36, shaken 5/36."""
    result = CliRunner().invoke(LnL().odds_command(), ["sniper", "--drm", "2"])
    assert result.exit_code == 0, result.output
    assert "reduced" in result.output and "1/36" in result.output and "5/36" in result.output
