"""Full-game simulation: every installed ruleset, random bots, one game per round.

Run: ``uv run pytest benchmarks/test_bench_games.py -p no:cacheprovider --benchmark-enable``

``ours`` plays a whole seeded game with random bots through :class:`wargamekit.Game` (checks,
log, views). The baseline, measured in the same run, is replaying the same recorded answers
(``Game.replay``) — what a save/load, undo or fork costs. ``decisions`` and
``decisions_per_s`` are recorded in extra_info.
"""

import pytest

from wargamekit import Game
from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game

RULESETS = sorted(installed_rulesets())


@pytest.mark.parametrize("name", RULESETS)
def test_full_game(compare, benchmark, name):
    """One random-bot game of ``name`` on its default scenario, against a replay of it."""
    ruleset = installed_rulesets()[name]
    reference = play_random_game(ruleset, seed=1, check_invariants=False)

    def ours() -> Game:
        return play_random_game(ruleset, seed=1, check_invariants=False)

    game = compare(ours, {"replay_of_answers": reference.replay}, rounds=3, ours_rounds=3)
    assert game.log_text() == reference.log_text()
    benchmark.extra_info["decisions"] = len(reference.choices)
    benchmark.extra_info["decisions_per_s"] = len(reference.choices) / benchmark.extra_info["ours_median_s"]
