"""移動 — cavalry (騎兵): onto an approach right after entering a locale."""

from __future__ import annotations

import pytest

from wargamekit import IllegalChoiceError

EDGES = [("w", "c"), ("c", "e")]


def game(kit):
    pieces = [
        ("A1", "austria", "infantry", 3, "w"),
        ("A2", "austria", "cavalry", 2, "w"),
        ("F1", "france", "infantry", 2, "e"),
    ]
    g = kit.start(kit.build(["w", "c", "e"], EDGES, pieces))
    return kit.act(g, "move from W reserve to C (1 command)", ["A1", "A2"])


def test_cavalry_moves_onto_an_approach_after_entering(kit):
    """cavalry: right after entering a locale, cavalry may move onto an approach (no extra command)."""
    g = game(kit)
    assert kit.labels(g) == ["A1", "A2"]
    kit.act(g, ["A2"])
    st = g.state
    assert (st.pieces["A2"].locale, st.pieces["A2"].approach) == ("c", "e")
    assert st.pieces["A1"].in_reserve and st.commands == 2


def test_infantry_may_not(kit):
    """cavalry: only cavalry may do so — infantry is refused with the rule named, nothing changes."""
    g = game(kit)
    with pytest.raises(IllegalChoiceError, match="cavalry"):
        g.answer([0])
    assert g.state.pieces["A1"].in_reserve and g.pending.rule.startswith("移動 — cavalry")
