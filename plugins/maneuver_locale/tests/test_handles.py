"""Hidden information: face-down pieces are called by handles that do not map to the scenario's
order of battle (issue 12: "all 9 face-down French pieces were identified")."""

from __future__ import annotations

import pytest

from wargamekit import Game
from wargamekit_maneuver_locale import ManeuverLocale


def identify(view, data) -> dict[str, tuple[str, int]]:
    """The attack of issue 12: read the enemy's face-down pieces in a side's view and look
    each one up by its id in the scenario data the view's ruleset hands out."""
    order_of_battle = {p["id"]: (p["arm"], p["steps"]) for p in data["pieces"]}
    return {
        pid: order_of_battle[pid]
        for pid, p in view.state.pieces.items()
        if p.side != view.side and p.arm is None and pid in order_of_battle
    }


def test_the_attack_of_issue_12_identified_every_face_down_piece_of_an_open_game(ruleset):
    """The attack works where the pieces keep their scenario ids (the open game of the option
    ``scenario_ids``, as every game was before handles): all 10 French pieces are identified."""
    game = Game.new(ruleset, "default", seed=1, options={"scenario_ids": True})
    view = game.view("austria")
    found = identify(view, view.ruleset.scenario_data("default"))
    assert len(found) == 10 and found["F03"] == ("artillery", 2)


@pytest.mark.parametrize("seed", range(4))
def test_the_attack_of_issue_12_now_identifies_nothing(ruleset, seed):
    """With handles (the default), no face-down piece in Austria's view bears an id of the
    scenario, so the look-up finds nothing; the view holds no identity either."""
    game = Game.new(ruleset, "default", seed=seed)
    view = game.view("austria")
    assert identify(view, view.ruleset.scenario_data("default")) == {}
    french = [p for p in view.state.pieces.values() if p.side == "france"]
    assert len(french) == 10 and all(p.origin == "" and p.arm is None and p.steps is None for p in french)
    assert sorted(p.id for p in french) == sorted(f"F-{n}" for n in range(1, 11))


def test_a_handle_says_nothing_of_which_piece_of_its_starting_position_it_is(ruleset):
    """The handles of a starting position shared by several pieces are dealt by a secret
    shuffle: over seeds, the first handle at Alessandria (A01-A06: infantry 3, 3, 2, 2,
    cavalry 3, artillery 2) is each of several, while France's view of the Austrian set-up
    is the same."""
    behind: set[str] = set()
    views = set()
    for seed in range(12):
        game = Game.new(ruleset, "default", seed=seed)
        alessandria = [p for p in game.state.at("alessandria") if p.side == "austria"]
        behind.add(alessandria[0].origin)
        seen = ruleset.view(game.state, "france")
        views.add(tuple((p.id, p.locale, p.approach, p.arm, p.origin) for p in seen.of("austria")))
    assert len(behind) >= 4 and behind <= {f"A0{n}" for n in range(1, 7)}
    assert len(views) == 1


@pytest.mark.parametrize("scenario", ["default", "training"])
def test_no_face_down_piece_is_known_from_the_set_up(ruleset, scenario):
    """Issue 12's singleton leak: a piece alone at its starting position was known from the
    public scenario (default: five French pieces and one Austrian gun). Now each side's view
    of the other's set-up is the same over seeds, and behind every enemy handle stand pieces
    of at least two arms or strengths, so the view does not determine any face-down piece —
    the source reveals a piece only when the rules turn it face-up (Assaults: 表にする)."""
    for side in ruleset.sides:
        enemy = ruleset.sides[1 - ruleset.sides.index(side)]
        views = set()
        behind: dict[str, set[tuple[str, int]]] = {}
        for seed in range(30):
            game = Game.new(ruleset, scenario, seed=seed)
            seen = ruleset.view(game.state, side)
            views.add(tuple((p.id, p.locale, p.approach, p.arm, p.steps, p.origin) for p in seen.of(enemy)))
            for p in game.state.of(enemy):
                behind.setdefault(p.id, set()).add((p.arm.key, p.steps))
        assert len(views) == 1, f"{side}'s view of the set-up depends on {enemy}'s deal"
        known = {handle: faces for handle, faces in behind.items() if len(faces) < 2}
        assert not known, f"{side} knows {enemy}'s face-down pieces from the set-up: {known}"


def test_a_set_up_area_keeps_each_position_s_count(ruleset):
    """The deal fills the area's positions with as many pieces as the scenario puts there:
    France's rear area (San Giuliano 2, Frugarolo 1, Tortona 1) over seeds."""
    for seed in range(6):
        game = Game.new(ruleset, "default", seed=seed)
        counts = {loc: len(game.state.at(loc)) for loc in ("sanjuliano", "frugarolo", "tortona")}
        assert counts == {"sanjuliano": 2, "frugarolo": 1, "tortona": 1}
        rear = sorted(p.origin for loc in counts for p in game.state.at(loc))
        assert rear == ["F07", "F08", "F09", "F10"]


def test_a_set_up_area_holds_one_side(ruleset):
    """Scenario data: an area naming pieces of both sides is refused at the field."""
    import copy

    from wargamekit.errors import ScenarioError

    data = copy.deepcopy(ruleset.scenario_data("default"))
    data["pieces"][0]["setup_area"] = "front"
    with pytest.raises(ScenarioError) as info:
        Game.new(ruleset, data)
    assert info.value.path == "$.pieces[12].setup_area"  # F01, the first French piece


def test_the_owner_knows_its_handles_the_opponent_does_not(ruleset):
    """The shuffle's rolls and the list of handles are logged for their side only; a side's
    own pieces carry their identity in its view."""
    game = Game.new(ruleset, "default", seed=5)
    for side in ruleset.sides:
        enemy = game.state.enemy(side)
        own = [e for e in game.log if e.kind in ("roll", "handles") and e.audience == (side,)]
        assert own and all(not e.visible_to(enemy) for e in own)
        handles = next(e for e in own if e.kind == "handles").data["handles"]
        assert handles == {p.id: p.origin for p in game.state.of(side)}
        view = game.view(side).state
        assert all(view.pieces[h].origin == origin for h, origin in handles.items())
    text = game.log_text("austria")
    assert not any(p.origin in text for p in game.state.of("france"))


def test_turning_a_piece_face_up_reveals_its_identity(kit, ruleset):
    """Assaults — leading pieces are revealed: the ``reveal`` event names the handle's
    scenario id, arm and steps, and the opponent's view then shows them."""
    data = kit.build(
        ["c", "e", "s"],
        [("c", "e"), ("e", "s")],
        [
            ("A1", "austria", "infantry", 3, "c", "e"),
            ("A2", "austria", "cavalry", 2, "c", "e"),
            ("F1", "france", "infantry", 2, "e", "c"),
            ("F9", "france", "infantry", 2, "s"),
        ],
    )
    g = kit.start(data, handles=True)  # the shuffle keeps the scenario order: A-1 is A1, A-2 is A2
    assert sorted(g.state.pieces) == ["A-1", "A-2", "F-1", "F-2"]
    assert ruleset.view(g.state, "france").pieces["A-1"].origin == ""
    kit.act(g, "assault from C approach against the blocking approach of E (1 command)", ["A-1"])
    reveal = next(e for e in g.log if e.kind == "reveal")
    assert reveal.audience is None
    assert reveal.data["pieces"] == [{"id": "A-1", "origin": "A1", "arm": "infantry", "steps": 3}]
    seen = ruleset.view(g.state, "france").pieces
    assert (seen["A-1"].origin, seen["A-1"].steps) == ("A1", 3)
    assert (seen["A-2"].origin, seen["A-2"].arm) == ("", None)


def test_a_save_replays_the_secret_shuffle_exactly(ruleset):
    """Determinism: the handles come from the seeded dice, so a reloaded save has the same."""
    game = Game.new(ruleset, "default", seed=9)
    again = Game.load(game.save(), rulesets={ruleset.name: ruleset})
    assert {h: p.origin for h, p in again.state.pieces.items()} == {h: p.origin for h, p in game.state.pieces.items()}


def test_handles_need_distinct_prefixes():
    """Handles: a side's initial, or its whole name when two sides share an initial."""
    from wargamekit_maneuver_locale.handles import handle_prefixes

    assert handle_prefixes(("austria", "france")) == {"austria": "A", "france": "F"}
    assert handle_prefixes(("france", "flanders")) == {"france": "france", "flanders": "flanders"}
    assert ManeuverLocale().options() == {"scenario_ids": False}
