"""Structured decisions (issue 8): every decision says what it is — a kind, a context, option
data — and the heuristic bot reads that structure, never the prose. The turn runs through the
core sequencers, its phase recorded in the state."""

from __future__ import annotations

import json

import pytest

from wargamekit import Game, RandomBot
from wargamekit.testing import check_prose_independence
from wargamekit_maneuver_locale import kinds
from wargamekit_maneuver_locale.bots import HeuristicBot

EDGES = [("w", "c"), ("c", "e"), ("e", "s")]


def test_bot_reads_structure_not_prose(ruleset):
    """With every prompt, label and rule citation rewritten, the heuristic bot answers the
    same, against itself and against the random bot."""
    compared = check_prose_independence(
        ruleset, {"austria": HeuristicBot, "france": HeuristicBot}, scenario="training", seeds=range(2)
    )
    assert compared > 100
    check_prose_independence(ruleset, {"austria": HeuristicBot, "france": RandomBot}, scenario="default", seeds=[3])
    check_prose_independence(ruleset, {"austria": RandomBot, "france": HeuristicBot}, scenario="training", seeds=[5])


def test_action_menu_and_group_data(kit):
    """移動 — command: the action menu's options are actions as data; the group's pieces are
    ids and positions."""
    g = kit.start(kit.build(["w", "c", "e"], EDGES[:2], [
        ("A1", "austria", "infantry", 3, "w"), ("A2", "austria", "cavalry", 2, "w"),
        ("F1", "france", "infantry", 2, "e"),
    ], commands=(3, 3)))
    d = g.pending
    assert d.kind == kinds.ACTION
    assert dict(d.context) == {"turn": 1, "side": "austria", "phase": "commands", "commands": 3}
    assert [json.loads(json.dumps(o.data)) for o in d.options] == [
        {"action": "group", "move": "locale", "locale": "w", "sources": [""], "target": "c"},
        {"action": "end"},
    ]
    kit.act(g, "move from W reserve to C (1 command)")
    d = g.pending
    assert d.kind == kinds.GROUP and d.context["limit"] == 2 and d.context["target"] == "c"
    assert [dict(o.data) for o in d.options] == [
        {"piece": "A1", "locale": "w", "approach": ""},
        {"piece": "A2", "locale": "w", "approach": ""},
    ]


def test_block_window_offers_data(kit):
    """Maneuver Attacks: the defender's window passes or blocks; both options are data."""
    g = kit.start(kit.build(["w", "c", "e", "s"], EDGES, [
        ("A1", "austria", "infantry", 3, "c"), ("F1", "france", "infantry", 2, "e"),
    ]))
    kit.act(g, "maneuver attack from C reserve into E (1 command; may be blocked)", ["A1"])
    d = g.pending
    assert d.kind == kinds.BLOCK and d.side == "france"
    assert [o.data for o in d.options] == [
        {"pass": True},
        {"respond": {"response": "block", "locale": "e", "facing": "c"}},
    ]
    kit.act(g, "block the approach of E facing C")
    assert g.pending.kind == kinds.BLOCK_PIECES and dict(g.pending.context) == {"locale": "e", "facing": "c"}


def test_phases_of_the_player_turn_are_recorded(kit):
    """Provisional turn sequence: bombardment fire, commands, declarations, recorded in the
    state as the phase cycle runs them."""
    g = kit.start(kit.build(["c", "e", "s"], [("c", "e"), ("e", "s")], [
        ("A4", "austria", "artillery", 2, "c", "e"), ("A1", "austria", "infantry", 2, "c"),
        ("F1", "france", "infantry", 3, "e"),
    ]))
    seen = [(g.state.phase, g.pending.kind)]
    kit.act(g, "end the turn")
    seen.append((g.state.phase, g.pending.kind))
    kit.act(g, ["A4 (C approach facing E)"])
    seen.append((g.state.phase, g.pending.kind, g.pending.side))
    kit.act(g, "end the turn")  # France: no approach pieces, no declarations
    seen.append((g.state.phase, g.pending.kind, dict(g.pending.context)))
    assert seen == [
        ("commands", kinds.ACTION),
        ("declarations", kinds.DECLARE),
        ("commands", kinds.ACTION, "france"),
        ("bombardment", kinds.BOMBARD, {"piece": "A4", "locale": "c", "target": "e"}),
    ]


@pytest.mark.parametrize("scenario", ["default", "training"])
def test_decision_data_never_names_an_arm_or_strength(ruleset, scenario):
    """Hidden information: no decision's context or option data carries a piece's arm or
    steps (piece options are id and position only), so nothing hidden can leak through it."""
    arms = {"infantry", "cavalry", "artillery"}
    asked: list[str] = []

    def check(game, decision):
        asked.append(decision.kind)
        blobs = [decision.context, *(o.data for o in getattr(decision, "options", ()))]
        for blob in blobs:
            text = json.dumps(blob)
            assert not any(arm in text for arm in arms), (decision.kind, text)
            assert not {"arm", "steps", "strength"} & set(_keys(blob)), (decision.kind, text)
        for o in getattr(decision, "options", ()):
            if "piece" in o.data and decision.kind not in (kinds.ROAD_MOVE,):
                assert set(o.data) == {"piece", "locale", "approach"}, (decision.kind, o.data)

    for seed in range(3):
        game = Game.new(ruleset, scenario, seed=seed)
        game.play({"austria": RandomBot(seed), "france": HeuristicBot(seed)}, before_ask=check)
    assert {kinds.ACTION, kinds.GROUP, kinds.STEP_LOSS, kinds.LEADING} <= set(asked)


def _keys(blob):
    if isinstance(blob, dict):
        for k, v in blob.items():
            yield k
            yield from _keys(v)
    elif isinstance(blob, (list, tuple)):
        for v in blob:
            yield from _keys(v)
