"""The core conformance check on every bundled scenario and with every optional rule on."""

from __future__ import annotations

import pytest

from wargamekit.testing import check_ruleset
from wargamekit_tank_solo import TankSolo

RULESET = TankSolo()
ALL_ON = {name: True for name in RULESET.options()}
#: 开场阶段 3: the face-down markers show which tank carries a round (so how many a side loads);
#: only the kind is secret.
REVEALS = {"marker", "loaded"}


@pytest.mark.parametrize("scenario", RULESET.scenario_names())
def test_conformance_default_options(scenario):
    """Random games end, keep the invariants, replay, save/load and undo exactly; every decision
    has a kind and every option data that tells it apart; no side's view depends on the other
    side's secret loadout (non-interference, where the scenario lets the sides load rounds)."""
    report = check_ruleset(RULESET, scenario, games=3, options={"surrender": False}, structured=True,
                           non_interference=True, reveals=REVEALS)
    assert report.games == 3 and sum(report.winners.values()) == 3
    secret_loading = RULESET.load_scenario(RULESET.scenario_data(scenario)).special_rounds > 0
    assert (report.non_interference_pairs > 0) == secret_loading


@pytest.mark.parametrize("scenario", ["default", "duel"])
def test_conformance_every_optional_rule_on(scenario):
    """The same with veteran gunner (both variants), hybrid drive, unreliable engines, forced
    spotting and ammunition shortage all on."""
    report = check_ruleset(RULESET, scenario, games=3, options={**ALL_ON, "surrender": False}, structured=True,
                           non_interference=True, reveals=REVEALS)
    assert report.games == 3


def test_conformance_with_surrender_allowed():
    """Random players may surrender; games still end cleanly."""
    assert check_ruleset(RULESET, "duel", games=3, options=ALL_ON, structured=True, non_interference=True,
                         reveals=REVEALS).games == 3
