"""Decisions say what they are: kinds, contexts and option data (issue 8); the bots read only
those, so rewording every prompt and label changes none of their answers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wargamekit import Game, RandomBot
from wargamekit.testing import check_prose_independence
from wargamekit_tank_solo import TankSolo, kinds
from wargamekit_tank_solo.bots import HeuristicBot
from wargamekit_tank_solo.cautious_bot import CautiousBot

RULESET = TankSolo()
ALL_ON = {name: name != "surrender" for name in RULESET.options()}
DOCS = Path(__file__).parents[3] / "docs" / "rulesets" / "tank_solo.md"


@pytest.mark.parametrize("bot", [HeuristicBot, CautiousBot], ids=["heuristic", "cautious"])
def test_bots_read_structure_not_prose(bot):
    """With every prompt, rule citation and label upper-cased and reversed, each bot gives the
    same answers and the games the same outcomes: against itself through a whole opening (force
    selection, deployment, loading), and against the random bot with every optional rule on."""
    compared = check_prose_independence(RULESET, {"A": bot, "B": bot}, scenario="default", seeds=range(2),
                                        options={"surrender": False})
    compared += check_prose_independence(RULESET, {"A": bot, "B": RandomBot}, scenario="duel", seeds=range(2),
                                         options=ALL_ON)
    assert compared > 500


def test_every_kind_asked_is_declared_and_documented():
    """Every decision random games ask has a kind from kinds.KINDS, and the docs page's
    "Decision kinds" table lists exactly those kinds."""
    asked: set[str] = set()
    for seed in range(4):
        game = Game.new(RULESET, "default", seed=seed, options={**ALL_ON, "surrender": seed == 3})
        game.play({"A": RandomBot(seed), "B": RandomBot(seed + 1)},
                  before_ask=lambda _game, decision: asked.add(decision.kind))
    assert asked <= set(kinds.KINDS) and len(asked) >= 12
    table = DOCS.read_text("utf-8").split("### Decision kinds", 1)[1].split("\n#", 1)[0]
    assert set(re.findall(r"^\| `(tank_solo\.[a-z_]+)`", table, re.MULTILINE)) == set(kinds.KINDS)


def test_second_round_says_who_fires_at_whom(new_game, pick):
    """特殊规则 5: the light tank's second-round question names the firer, its gun, the target
    and the form of fire in its context (forced dice: the first round hits without effect)."""
    game = new_game([("bt7", "0603", "S")], [("t34_85", "0607", "N")], dice=[3, 6, 6, 1, 1])
    pick(game, "aimed fire with BT-7 #1")
    fire_menu = game.pending
    assert fire_menu.kind == kinds.FIRE_TARGET and dict(fire_menu.context) == {"tank": 1, "fire": "aimed", "turn": 1}
    assert {"action": "fire", "gun": 0, "target": 2} in [o.data for o in fire_menu.options]
    pick(game, "fires main gun at T-34/85 #2")
    assert game.pending.kind == kinds.SECOND_ROUND
    assert dict(game.pending.context) == {"tank": 1, "gun": 0, "target": 2, "fire": "aimed", "hex": "0607", "turn": 1}


def test_defensive_fire_offers_carry_the_shot(new_game, pick):
    """2-2: a defensive-fire offer's data names the defender, its gun, the moving tank and the
    hex it is fired at (the step's starting hex); passing is ``{"pass": True}``."""
    game = new_game([("t34_85", "0604", "S")], [("churchill", "0610", "N")], dice=[3])
    pick(game, "go on to the movement phase")
    pick(game, "move T-34/85 #1")
    game.answer(0)  # no free points
    move = game.pending
    assert move.kind == kinds.MOVE_STEP and move.context["tank"] == 1 and move.context["leap"] is False
    pick(game, "forward to 0605")
    window = game.pending
    assert window.kind == kinds.DEFENSIVE_FIRE and window.side == "B"
    assert [dict(o.data) for o in window.options] == [
        {"pass": True}, {"respond": {"tank": 2, "gun": 0, "target": 1, "hex": "0604"}}]
