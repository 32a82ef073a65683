"""Artillery Bombardment: declare at the end of a turn, fire at the start of the next."""

from __future__ import annotations

import pytest

from wargamekit import IllegalChoiceError
from wargamekit_maneuver_locale import rules

END = "end the turn"


def game(kit, france, terrain=0, gun_at="e", austria=()):
    edges = [("c", "e", "wide", terrain, "wide", 0), ("e", "s")]
    pieces = [("A4", "austria", "artillery", 2, "c", gun_at), ("A1", "austria", "infantry", 2, "c"), *austria, *france]
    return kit.start(kit.build(["c", "e", "s"], edges, pieces, turns=3))


def to_next_austrian_turn(kit, g, declare=("A4 (C approach facing E)",)):
    kit.act(g, END, list(declare))  # Austria ends and declares
    while g.pending.side == "france":  # France does nothing
        rule = g.pending.rule
        if rule == rules.COMMAND:
            kit.act(g, END)
        elif rule == rules.COMPULSORY:
            kit.act(g, kit.labels(g)[-1])  # back to the reserve
        else:
            kit.act(g, [])


def test_declaring_turns_the_gun_face_up(kit):
    """Artillery Bombardment: guns declaring at the end of the turn are turned face-up."""
    g = game(kit, [("F1", "france", "infantry", 3, "e")])
    kit.act(g, END, ["A4 (C approach facing E)"])
    a4 = g.state.pieces["A4"]
    assert a4.face_up and a4.declared
    assert any(e.kind == "reveal" and e.audience is None for e in g.log)


def test_fires_at_next_turn_start_on_the_facing_approach_first(kit):
    """Artillery Bombardment: the corresponding approach is the first target; terrain applies;
    the target loses the gun's steps."""
    g = game(kit, [("F1", "france", "infantry", 3, "e", "c"), ("F2", "france", "infantry", 2, "e")], terrain=1)
    to_next_austrian_turn(kit, g)
    assert g.pending.prompt == "A4 artillery 2 may bombard E: fire?"
    kit.act(g, True)
    st = g.state
    assert st.pieces["F1"].steps == 2 and st.pieces["F2"].steps == 2  # 2 - terrain 1 = 1 step


def test_reserve_is_the_target_when_the_approach_is_empty(kit):
    """Artillery Bombardment: no piece on the corresponding approach -> the reserve."""
    # A9 in s keeps F1 facing the enemy (no compulsory return)
    g = game(
        kit,
        [("F1", "france", "infantry", 3, "e", "s"), ("F2", "france", "infantry", 3, "e")],
        austria=[("A9", "austria", "infantry", 1, "s")],
    )
    to_next_austrian_turn(kit, g)
    kit.act(g, True)
    assert g.state.pieces["F2"].steps == 1 and g.state.pieces["F1"].steps == 3


def test_other_approach_when_no_reserve(kit):
    """Artillery Bombardment: no reserve either -> another approach."""
    g = game(kit, [("F1", "france", "infantry", 3, "e", "s")], austria=[("A9", "austria", "infantry", 1, "s")])
    to_next_austrian_turn(kit, g)
    kit.act(g, True)
    assert g.state.pieces["F1"].steps == 1 and g.state.pieces["F1"].approach == "s"


def test_fired_gun_cannot_move_or_declare(kit):
    """Artillery Bombardment: a gun that fires may not move, nor declare that turn."""
    g = game(kit, [("F1", "france", "infantry", 3, "e")])
    to_next_austrian_turn(kit, g)
    kit.act(g, True)
    st = g.state
    assert st.pieces["A4"].moved
    assert not any("approach facing E back" in lab for lab in kit.labels(g))
    kit.act(g, END)
    with pytest.raises(IllegalChoiceError, match="A4 fired this turn and may not declare"):
        kit.act(g, ["A4 artillery 2 (C approach facing E)"])  # face-up since it declared
    assert not st.pieces["A4"].declared


def test_moved_gun_may_still_declare(kit):
    """Artillery Bombardment: a gun that moved may still declare."""
    g = game(kit, [("F1", "france", "infantry", 3, "e")], gun_at="")
    kit.act(g, "move from C reserve onto the approach facing E (1 command)", ["A4"], END, ["A4 (C approach facing E)"])
    a4 = g.state.pieces["A4"]
    assert a4.declared and a4.approach == "e" and a4.last_declared == 1


def test_only_guns_declare(kit):
    """Artillery Bombardment: only artillery declares (infantry refused, naming the rule)."""
    g = game(kit, [("F1", "france", "infantry", 3, "e")])
    kit.act(g, "move from C reserve onto the approach facing E (1 command)", ["A1"], END)
    with pytest.raises(IllegalChoiceError, match="Artillery Bombardment.*A1 is not artillery"):
        kit.act(g, ["A1 (C approach facing E)"])


def test_fired_gun_stays_when_its_target_empties(kit):
    """Artillery Bombardment: a gun that fired may not move — not even by the compulsory return
    (移動 — 先のlocaleに敵が存在しない場合) when its fire emptied the locale ahead."""
    g = game(kit, [("F1", "france", "infantry", 2, "e"), ("F9", "france", "infantry", 2, "s")])
    to_next_austrian_turn(kit, g)
    kit.act(g, True)
    st = g.state
    assert "F1" not in st.pieces  # 2 steps of fire, terrain 0
    assert g.pending.rule == rules.COMMAND  # no compulsory question: A4 stays put
    assert (st.pieces["A4"].locale, st.pieces["A4"].approach) == ("c", "e")
