"""Retreats: where a defeated locale may go and what each group loses."""

from __future__ import annotations

from wargamekit_maneuver_locale.retreats import retreat_destinations

ASSAULT = "assault from C approach against the blocking approach of E (1 command)"
EDGES = [("c", "e"), ("e", "s"), ("e", "n"), ("e", "f")]


def test_retreat_losses_by_group_and_destinations(kit):
    """Retreats: not into an enemy locale, the attacking locale or a full one; artillery removed;
    the attacked approach without loss; another approach's group −1; reserve infantry −1 as a
    group; reserve cavalry no loss."""
    g = kit.start(
        kit.build(
            ["c", "e", "s", "n", "f"],
            EDGES,
            [
                ("A1", "austria", "infantry", 3, "c", "e"),
                ("A9", "austria", "infantry", 2, "n"),
                ("F4", "france", "infantry", 5, "e", "c"),
                ("F5", "france", "infantry", 2, "e", "s"),
                ("F1", "france", "infantry", 2, "e"),
                ("F2", "france", "cavalry", 2, "e"),
                ("F3", "france", "artillery", 1, "e"),
                ("F8", "france", "infantry", 1, "f"),
            ],
            capacities={"f": 1},
        )
    )
    st = g.state
    assert retreat_destinations(st, "e", "c", "france", 1) == ["s"]
    kit.act(g, ASSAULT, ["A1"], "pass", [])
    # result 3 - 0 - 0 = 3: F4 (the only piece on the approach) takes the 4 losses
    assert "F3" not in st.pieces  # artillery is removed
    assert (st.pieces["F4"].steps, st.pieces["F4"].locale) == (1, "s")  # attacked approach: no loss
    assert (st.pieces["F5"].steps, st.pieces["F5"].locale) == (1, "s")  # other approach: -1
    assert (st.pieces["F1"].steps, st.pieces["F1"].locale) == (1, "s")  # reserve infantry: -1
    assert (st.pieces["F2"].steps, st.pieces["F2"].locale) == (2, "s")  # reserve cavalry: none
    assert st.pieces["A1"].locale == "e"


def test_approach_group_loses_one_step_in_all(kit):
    """Retreats: "他のapproachのpieceは、各グループ毎に1ステップロス" — a group on another approach
    loses 1 step in all, not 1 per piece (the owner chooses the piece)."""
    g = kit.start(
        kit.build(
            ["c", "e", "s"],
            [("c", "e"), ("e", "s")],
            [
                ("A1", "austria", "infantry", 3, "c"),
                ("F1", "france", "infantry", 2, "e", "s"),
                ("F2", "france", "infantry", 3, "e", "s"),
                ("F9", "france", "infantry", 3, "s"),
            ],
        )
    )
    kit.act(g, "maneuver attack from C reserve into E (1 command; may be blocked)", ["A1"])
    # no reserve in e: no block; the approach group facing s loses 1 step in all, France picks
    assert g.pending.side == "france" and g.pending.rule == "Retreats"
    kit.act(g, "F2")
    st = g.state
    assert (st.pieces["F1"].steps, st.pieces["F2"].steps) == (2, 2)
    assert st.pieces["F1"].locale == st.pieces["F2"].locale == "s"


def test_reserve_group_loses_one_step_in_all(kit):
    """Retreats: "reserveの騎兵以外のpieceは、グループで1ステップロス" — the reserve's non-cavalry
    pieces lose 1 step in all (the owner chooses the piece); its cavalry loses nothing."""
    g = kit.start(
        kit.build(
            ["c", "e", "s"],
            [("c", "e"), ("e", "s")],
            [
                ("A1", "austria", "infantry", 3, "c"),
                ("F1", "france", "infantry", 2, "e"),
                ("F2", "france", "infantry", 3, "e"),
                ("F3", "france", "cavalry", 2, "e"),
                ("F9", "france", "infantry", 3, "s"),
            ],
        )
    )
    kit.act(g, "maneuver attack from C reserve into E (1 command; may be blocked)", ["A1"], "pass")
    assert g.pending.side == "france" and g.pending.rule == "Retreats"
    assert kit.labels(g) == ["F1", "F2"]  # the cavalry is not among the candidates
    kit.act(g, "F2")
    st = g.state
    assert [(st.pieces[i].locale, st.pieces[i].steps) for i in ("F1", "F2", "F3")] == [("s", 2), ("s", 2), ("s", 2)]


def test_no_destination_removes_the_group(kit):
    """Retreats (provisional): a group with no legal locale to retreat into is removed."""
    g = kit.start(
        kit.build(
            ["c", "e", "n"],
            [("c", "e"), ("e", "n")],
            [
                ("A1", "austria", "infantry", 3, "c"),
                ("A2", "austria", "infantry", 3, "n"),
                ("F1", "france", "cavalry", 2, "e", "n"),
            ],
        )
    )
    kit.act(g, "maneuver attack from C reserve into E (1 command; may be blocked)", ["A1"])
    # c is the attacking locale and n holds the enemy: F1 (after its 1-step loss) is removed
    assert "F1" not in g.state.pieces
    assert g.over and g.outcome.winner == "austria"
