"""A scenario of a shared type is never written to by play (issue 9, session 29's review).

A ruleset that names its scenario type in ``Ruleset.shared_types`` promises that a loaded
scenario never changes: every restart and fork of a game, every twin game a load finds, and
aig's and maneuver_locale's scenario memos hold the one object, so a rule that appended to one
of its lists would change every other game holding it. The scenario classes are frozen, but
their list and dict fields can still be written; nothing else checks that no rule does.
"""

from __future__ import annotations

import attrs
import pytest

from wargamekit import Game, Ruleset
from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game

SHARED = [
    (name, scenario)
    for name, ruleset in sorted(installed_rulesets().items())
    if ruleset.scenario_type is not None and ruleset.scenario_type in ruleset.shared_type_set
    for scenario in ruleset.scenario_names()
]


def _as_loaded(game: Game) -> bool:
    """Whether the game's scenario is still what its data structures to (the ruleset's base
    ``load_scenario``: cattrs alone, past any memo a plugin keeps, which would hand back the
    very object being checked)."""
    return bool(Ruleset.load_scenario(game.ruleset, game.scenario_data, source=game.scenario_name) == game.scenario)


def test_every_bundled_shared_scenario_type_is_checked():
    assert {name for name, _ in SHARED} >= {"aig", "lnl", "maneuver_locale", "mttt_rpg"}


@pytest.mark.parametrize(("name", "scenario"), SHARED)
def test_a_played_game_leaves_its_shared_scenario_as_loaded(name, scenario):
    ruleset = installed_rulesets()[name]
    for seed in (0, 1):
        game = play_random_game(ruleset, scenario, seed=seed, check_invariants=False)
        assert game.outcome is not None
        assert _as_loaded(game), f"{name} {scenario} seed {seed}: play wrote into its shared scenario"
        game.undo(3)  # a restart holds the same object
        assert _as_loaded(game)


def test_the_check_sees_a_write_into_a_shared_scenario():
    """The check can fail: an entry appended to one of the scenario's lists is seen."""
    ruleset = installed_rulesets()["lnl"]
    game = Game.new(ruleset, seed=0)
    listed = next(f.name for f in attrs.fields(type(game.scenario))
                  if isinstance(getattr(game.scenario, f.name), list) and getattr(game.scenario, f.name))
    entries = getattr(game.scenario, listed)
    entries.append(entries[0])
    try:
        assert not _as_loaded(game)
    finally:
        entries.pop()  # (the object may be shared with other tests' games)
    assert _as_loaded(game)
