"""The shortcuts taken for speed change nothing: games played with them and without them give
the same log, byte for byte (seeded random bots on every bundled scenario)."""

import pytest

from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game
from wargamekit_mttt_rpg import interrupt_phase

SCENARIOS = ("default", "duel", "battle")


def _logs(options=None, seeds=range(8)):
    ruleset = installed_rulesets()["mttt_rpg"]
    return [
        play_random_game(ruleset, scenario, seed=seed, options=options, check_invariants=False).log_text()
        for scenario in SCENARIOS
        for seed in seeds
    ]


@pytest.mark.parametrize("interrupts", [True, False])
def test_the_cheap_tests_of_the_interrupt_phase_never_hide_a_response(monkeypatch, interrupts):
    """插入阶段: a window whose stack is empty and where nobody may respond closes at once, and a
    poll builds only the responses of characters who may respond (``_may_respond``); building
    every character's offers at every window gives the same games."""
    options = {"interrupts": interrupts}
    fast = _logs(options)
    monkeypatch.setattr(interrupt_phase, "_may_respond", lambda *args: True)
    monkeypatch.setattr(interrupt_phase, "_nobody_responds", lambda ctx: False)
    assert _logs(options) == fast
