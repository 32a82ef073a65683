"""The core conformance check on every bundled scenario and with every optional rule on."""

from __future__ import annotations

import pytest

from wargamekit.testing import check_ruleset
from wargamekit_tank_solo import TankSolo

RULESET = TankSolo()
ALL_ON = {name: True for name in RULESET.options()}


@pytest.mark.parametrize("scenario", RULESET.scenario_names())
def test_conformance_default_options(scenario):
    """Random games end, keep the invariants, replay, save/load and undo exactly; every decision
    has a kind and every option data that tells it apart."""
    report = check_ruleset(RULESET, scenario, games=3, options={"surrender": False}, structured=True)
    assert report.games == 3 and sum(report.winners.values()) == 3


@pytest.mark.parametrize("scenario", ["default", "duel"])
def test_conformance_every_optional_rule_on(scenario):
    """The same with veteran gunner (both variants), hybrid drive, unreliable engines, forced
    spotting and ammunition shortage all on."""
    report = check_ruleset(RULESET, scenario, games=3, options={**ALL_ON, "surrender": False}, structured=True)
    assert report.games == 3


def test_conformance_with_surrender_allowed():
    """Random players may surrender; games still end cleanly."""
    assert check_ruleset(RULESET, "duel", games=3, options=ALL_ON, structured=True).games == 3
