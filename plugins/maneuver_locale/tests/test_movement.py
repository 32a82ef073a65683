"""移動 (movement): commands, reserve moves, approach moves and the compulsory move."""

from __future__ import annotations

import pytest

from wargamekit import IllegalChoiceError
from wargamekit_maneuver_locale import rules

# w - c - e, and n above c. Austria in w, France in e.
EDGES = [("w", "c"), ("c", "e"), ("c", "n")]


def base(kit, extra=(), **kw):
    pieces = [
        ("A1", "austria", "infantry", 3, "w"),
        ("A2", "austria", "cavalry", 2, "w"),
        ("F1", "france", "infantry", 2, "e"),
        *extra,
    ]
    return kit.start(kit.build(["w", "c", "e", "n"], EDGES, pieces, **kw))


def test_reserve_to_adjacent_locale_costs_one_command_per_group(kit):
    """移動 — command / reserveの場合: a group moving together to an adjacent locale costs 1 command."""
    g = base(kit)
    assert "move from W reserve to C (1 command)" in kit.labels(g)
    kit.act(g, "move from W reserve to C (1 command)", ["A1", "A2"])
    st = g.state
    assert [st.pieces[i].locale for i in ("A1", "A2")] == ["c", "c"]
    assert st.commands == 2 and st.pieces["A1"].moved


def test_no_approach_move_without_enemy_ahead(kit):
    """移動 — reserveの場合: onto an approach only when the locale ahead holds the enemy."""
    g = base(kit)
    assert not any("onto the approach" in lab for lab in kit.labels(g))
    assert not any("maneuver attack" in lab for lab in kit.labels(g))


def test_reserve_onto_approach_facing_enemy_and_maneuver_attack_offered(kit):
    """移動 — reserveの場合: onto the approach facing an enemy locale (1) and into it (maneuver attack, 1)."""
    g = base(kit, extra=[("A3", "austria", "infantry", 2, "c")])
    opts = kit.labels(g)
    assert "move from C reserve onto the approach facing E (1 command)" in opts
    assert "maneuver attack from C reserve into E (1 command; may be blocked)" in opts
    kit.act(g, "move from C reserve onto the approach facing E (1 command)", ["A3"])
    assert g.state.pieces["A3"].approach == "e" and g.state.commands == 2


def test_reserve_onto_approach_the_enemy_blocks(kit):
    """移動 — reserveの場合: onto an approach the enemy blocks (1); no maneuver attack through it."""
    g = base(kit, extra=[("A3", "austria", "infantry", 2, "c"), ("F2", "france", "infantry", 2, "e", "c")])
    opts = kit.labels(g)
    assert "move from C reserve onto the approach facing E (1 command)" in opts
    assert not any(lab.startswith("maneuver attack from C reserve") for lab in opts)


def test_blocked_approach_back_to_reserve(kit):
    """移動 — approachの場合: back to the reserve when the enemy blocks (1 command)."""
    g = base(kit, extra=[("A3", "austria", "infantry", 2, "c", "e"), ("F2", "france", "infantry", 2, "e", "c")])
    kit.act(g, "move from C approach facing E back to the reserve (1 command)", ["A3"])
    assert g.state.pieces["A3"].in_reserve and g.state.commands == 2


def test_unblocked_approach_maneuver_attack_cannot_be_blocked(kit):
    """移動 — approachの場合: into the locale ahead when not blocked — a maneuver attack (1)."""
    g = base(kit, extra=[("A3", "austria", "infantry", 2, "c", "e")])
    label = "maneuver attack from C approach facing E into E (1 command; cannot be blocked)"
    kit.act(g, label, ["A3"])
    # France has a reserve in e, but the attacker came from an approach: no blocking window
    assert not any(e.kind == "stack-push" for e in g.log)
    assert g.state.pieces["A3"].locale == "e"


def test_compulsory_return_costs_nothing_and_marks_moved(kit):
    """移動 — 先のlocaleに敵が存在しない場合: return to the reserve, marked as moved (0 commands)."""
    g = base(kit, extra=[("A3", "austria", "infantry", 2, "c", "n")])
    assert kit.labels(g) == [
        "move on from C into N (1 command)",
        "return to the C reserve, marked as moved (0 commands)",
    ]
    kit.act(g, "return to the C reserve, marked as moved (0 commands)")
    a3 = g.state.pieces["A3"]
    assert a3.in_reserve and a3.moved and g.state.commands == 3


def test_compulsory_move_on_costs_one_command(kit):
    """移動 — 先のlocaleに敵が存在しない場合: or move on into the locale ahead (1 command)."""
    g = base(kit, extra=[("A3", "austria", "infantry", 2, "c", "n")])
    kit.act(g, "move on from C into N (1 command)")
    assert g.state.pieces["A3"].locale == "n" and g.state.commands == 2


def test_compulsory_without_commands_only_returns(kit):
    """移動 — compulsory: with no command left the group can only return to the reserve."""
    g = base(kit, extra=[("A3", "austria", "infantry", 2, "c", "n")], commands=(0, 3))
    # the only option is taken without asking; the action menu is next
    assert g.state.pieces["A3"].in_reserve and g.state.pieces["A3"].moved
    assert kit.labels(g) == ["end the turn"]


def test_moved_piece_cannot_move_again(kit):
    """移動: a piece moves once per player turn (provisional reading of 移動済み)."""
    g = base(kit)
    kit.act(g, "move from W reserve to C (1 command)", ["A1", "A2"])
    assert not any(lab.startswith("move from C") for lab in kit.labels(g))


def test_group_limited_by_capacity(kit):
    """Provisional capacity (scenario data): a group may not overfill the locale it enters."""
    g = base(kit, capacities={"c": 1})
    kit.act(g, "move from W reserve to C (1 command)")
    with pytest.raises(IllegalChoiceError, match="choose between 1 and 1"):
        g.answer([0, 1])
    assert g.state.pieces["A1"].locale == "w"  # unchanged


def test_no_commands_no_moves(kit):
    """移動 — command: with no commands left only the end of the turn is offered."""
    g = base(kit, commands=(0, 3))
    assert kit.labels(g) == ["end the turn"]


MIXED = "maneuver attack from C reserve and approach facing E into E (1 command; may be blocked if reserve pieces go)"
A3_AHEAD, A4_RESERVE = "A3 (C approach facing E)", "A4 (C reserve)"  # public labels, with positions


def test_reserve_and_approach_pieces_move_as_one_group(kit):
    """移動 — command: "同じlocaleから同じlocaleへ同時に移動するグループ1つにつき、1 command" — the
    reserve's pieces and those on the approach facing the locale entered are one group: one
    maneuver attack, one command. A piece on another approach (A6, facing N) has no move into E."""
    g = base(kit, extra=[("A3", "austria", "infantry", 2, "c", "e"), ("A4", "austria", "infantry", 2, "c"),
                         ("A6", "austria", "infantry", 2, "c", "n"), ("F9", "france", "infantry", 1, "n")])
    opts = kit.labels(g)
    assert [lab for lab in opts if lab.startswith("maneuver attack from C") and "into E (" in lab] == [MIXED]
    kit.act(g, MIXED)
    # the pick shows where each piece stands
    assert [o.label for o in g.pending.options] == [
        "A4 infantry 2, face-down (C reserve)", "A3 infantry 2, face-down (C approach facing E)",
    ]
    kit.act(g, [A3_AHEAD, A4_RESERVE], "pass")  # France could block (the group came partly from the reserve)
    st = g.state
    assert [(st.pieces[i].locale, st.pieces[i].approach) for i in ("A3", "A4")] == [("e", ""), ("e", "")]
    assert st.commands == 2 and "F1" not in st.pieces  # F1 retreats with a step lost, nowhere to go


def test_a_group_with_reserve_pieces_may_be_blocked(kit):
    """Maneuver Attacks (reading): a group mixing reserve and approach pieces came from the
    reserve (攻撃側がreserveから移動してきた), so the defender may block it; the attackers stop on
    their approach."""
    g = base(kit, extra=[("A3", "austria", "infantry", 2, "c", "e"), ("A4", "austria", "infantry", 2, "c")])
    kit.act(g, MIXED, [A3_AHEAD, A4_RESERVE], "block the approach of E facing C", ["F1"])
    st = g.state
    assert [(st.pieces[i].locale, st.pieces[i].approach) for i in ("A3", "A4")] == [("c", "e"), ("c", "e")]
    assert st.pieces["F1"].approach == "c" and st.commands == 2


def test_approach_pieces_alone_cannot_be_blocked(kit):
    """Maneuver Attacks: from the same menu entry, the approach's pieces alone did not come from
    the reserve, so no blocking window opens."""
    g = base(kit, extra=[("A3", "austria", "infantry", 2, "c", "e"), ("A4", "austria", "infantry", 2, "c"),
                         ("F9", "france", "infantry", 1, "n")])  # F9 keeps the game going
    kit.act(g, MIXED, [A3_AHEAD])
    st = g.state
    assert (st.pieces["A3"].locale, st.pieces["A4"].locale) == ("e", "c") and st.commands == 2
    assert g.pending.side == "austria" and g.pending.rule == rules.COMMAND  # France was never asked


def test_compulsory_move_on_takes_reserve_pieces_along(kit):
    """移動 — 先のlocaleに敵が存在しない場合 / command: moving on into the locale ahead (1 command)
    is a move from one locale to another, so the reserve's pieces may go along for the same
    command, as many as the locale ahead has room for."""
    g = base(
        kit,
        extra=[("A3", "austria", "infantry", 2, "c", "n"), ("A4", "austria", "infantry", 2, "c"),
               ("A5", "austria", "cavalry", 1, "c")],
        capacities={"n": 2},
    )
    kit.act(g, "move on from C into N (1 command)")
    assert kit.labels(g) == ["A4", "A5"] and (g.pending.min_count, g.pending.upper) == (0, 1)
    before = g.log_text()
    with pytest.raises(IllegalChoiceError, match="先のlocaleに敵が存在しない場合.*between 0 and 1, not 2"):
        kit.act(g, ["A4", "A5"])  # n has room for one more piece only
    assert g.log_text() == before and g.state.pieces["A3"].locale == "c" and g.state.commands == 3
    kit.act(g, ["A5"])
    st = g.state
    assert [st.pieces[i].locale for i in ("A3", "A4", "A5")] == ["n", "c", "n"]
    assert st.commands == 2 and st.pieces["A5"].moved and not st.pieces["A4"].moved
