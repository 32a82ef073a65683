"""Exact odds before committing (Python and ``wargamekit odds mttt_rpg``), and the terminal summary."""

from click.testing import CliRunner

from wargamekit import Game
from wargamekit_mttt_rpg import MtttRpg, preview_attack


def test_preview_matches_the_attack_label_and_sums_to_one():
    """攻击: the preview's hit chance is the one shown in the action label; the distribution is exact."""
    game = Game.new(MtttRpg(), "duel", seed=0, options={"interrupts": False})
    odds = preview_attack(game.state, "akari", "kyo", "withering")
    assert sum(odds.damage.values()) == 1 and odds.damage[0] == 1 - odds.hit_chance
    label = next(label for label in game.pending.labels if label.startswith("withering attack on Kyo"))
    assert f"{float(odds.hit_chance):.0%}" in label


def test_charges_raise_the_odds():
    """充能: charging the attack raises the hit chance; charging the defense lowers it."""
    game = Game.new(MtttRpg(), "duel", seed=0)
    plain = preview_attack(game.state, "kyo", "akari", "withering", mode="dodge").hit_chance
    assert preview_attack(game.state, "kyo", "akari", "withering", mode="dodge", charge=3).hit_chance > plain
    assert (
        preview_attack(game.state, "kyo", "akari", "withering", mode="dodge", defense_charge=3).hit_chance
        < plain
    )


def test_odds_command_prints_exact_odds():
    """``wargamekit odds mttt_rpg``: hit chance and damage distribution of one attack."""
    command = MtttRpg().odds_command()
    result = CliRunner().invoke(
        command,
        [
            "--scene",
            "duel",
            "--attacker",
            "kyo",
            "--target",
            "akari",
            "--kind",
            "decisive",
            "--initiative",
            "15",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "decisive attack: hit 60.0%" in result.output and "8: 60.0%" in result.output
    bad = CliRunner().invoke(command, ["--scene", "duel", "--attacker", "ghost", "--target", "akari"])
    assert bad.exit_code != 0 and "no combatant 'ghost'" in bad.output


def test_crashed_target_decisive_has_no_protection():
    """先导崩溃: against a crashed target the preview drops the armour's protection."""
    from wargamekit_mttt_rpg.odds_cli import odds_text

    normal = odds_text(scene="duel", attacker="kyo", target="akari", kind="decisive", initiative=15)
    crashed = odds_text(
        scene="duel", attacker="kyo", target="akari", kind="decisive", initiative=15, target_initiative=0
    )
    # ceil((2 + 15) / 2) = 9, minus the dress's protection 1 unless crashed
    assert "0: 40.0%, 8: 60.0%" in normal and "0: 40.0%, 9: 60.0%" not in normal
    assert ", 9: " in crashed


def test_summary_shows_resources_and_ranges():
    """The terminal summary lists each combatant's resources and the range bands between sides."""
    game = Game.new(MtttRpg(), "default", seed=0)
    text = MtttRpg().summary(game.view("heroes").state)
    assert "Witch of Thorns: HP 12/12" in text and "chaos phases 2" in text
    assert "Thorn familiars: size 2, magnitude 9/9" in text
    assert "Akari: Witch of Thorns 3 (medium)" in text
    assert "Mio: not yet in the fight (joins in round 2)" in text and "CRASHED" not in text
    assert "[" not in text  # the terminal would read square brackets as markup
