"""Conformance, determinism and registration."""

from wargamekit import Game, RandomBot, installed_rulesets
from wargamekit.testing import check_ruleset
from wargamekit_lnl import LnL


def test_conformance_village():
    """check_ruleset passes on the infantry introduction scenario, every decision with a kind and
    every option with data; replays, saves and undo reproduce the log."""
    report = check_ruleset(LnL(), "default", games=4, structured=True)
    assert report.games == 4 and report.decisions > 100
    # LnL as implemented has no hidden information (every decision and roll is public): the
    # non-interference check runs (check_ruleset's default) and has no secret to fork.
    assert report.non_interference_pairs == 0


def test_conformance_with_the_other_a11_reading():
    """The scenario option unable="pass" (A11) also plays to the end."""
    check_ruleset(LnL(), "default", games=2, seed=50, options={"unable": "pass"}, structured=True, deep_checks=1)


def test_same_seed_same_log():
    """Determinism: same scenario, seed and answers give a byte-identical log."""

    def play() -> str:
        game = Game.new(LnL(), seed=7)
        game.play({"us": RandomBot(1), "german": RandomBot(2)})
        return game.log_text()

    assert play() == play()


def test_registered_through_its_entry_point():
    ruleset = installed_rulesets()["lnl"]
    assert isinstance(ruleset, LnL) and "bot" in ruleset.bots()


def test_conformance_combined_arms():
    """check_ruleset passes on the combined-arms scenario (vehicles on both sides)."""
    report = check_ruleset(LnL(), "combined_arms", games=3, seed=10, structured=True)
    assert report.decisions > 100


def test_checkpoints_each_turn_restart_to_the_same_log():
    """Checkpoints at the start of each turn (docs/design.md "Checkpoints"): the game keeps
    snapshots there, and an undo restarting from one gives the full replay's log."""
    game = Game.new(LnL(), seed=11)
    game.play({"us": RandomBot(1), "german": RandomBot(2)})
    assert game._snapshots, "no snapshot was taken at a checkpoint"
    forked = game.fork()
    forked.undo(40)
    full = game.replay()
    full.undo(40)
    assert forked.log_text() == full.log_text()
