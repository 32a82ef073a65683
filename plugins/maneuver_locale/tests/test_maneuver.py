"""Maneuver Attacks and blocking (a response window on the core interrupt stack)."""

from __future__ import annotations

EDGES = [("w", "c"), ("c", "e"), ("e", "s")]
ATTACK = "maneuver attack from C reserve into E (1 command; may be blocked)"


def game(kit, defenders):
    pieces = [("A1", "austria", "infantry", 3, "c"), ("A2", "austria", "cavalry", 2, "w"), *defenders]
    return kit.start(kit.build(["w", "c", "e", "s"], EDGES, pieces))


def test_blocked_when_from_reserve_and_defender_chooses_to_block(kit):
    """Maneuver Attacks: from the reserve, defender with a reserve, choosing to block -> blocked."""
    g = game(kit, [("F1", "france", "infantry", 2, "e")])
    kit.act(g, ATTACK, ["A1"])
    assert g.pending.side == "france"
    assert kit.labels(g) == ["pass", "block the approach of E facing C"]
    kit.act(g, "block the approach of E facing C", ["F1"])
    st = g.state
    assert (st.pieces["F1"].locale, st.pieces["F1"].approach) == ("e", "c")
    # provisional: the blocked attackers stop on their own approach facing the defender
    assert (st.pieces["A1"].locale, st.pieces["A1"].approach) == ("c", "e")
    assert [e.kind for e in g.log if e.kind.startswith("stack")] == ["stack-push", "stack-resolve"]


def test_defender_declines_to_block_attack_succeeds(kit):
    """Maneuver Attacks: if the defender does not choose to block, the attack succeeds."""
    g = game(kit, [("F1", "france", "infantry", 2, "e")])
    kit.act(g, ATTACK, ["A1"], "pass")
    st = g.state
    assert st.pieces["A1"].locale == "e" and st.pieces["A1"].in_reserve
    # Retreats: the reserve's infantry group loses 1 step and leaves (only s is open)
    assert (st.pieces["F1"].locale, st.pieces["F1"].steps) == ("s", 1)


def test_no_reserve_no_block(kit):
    """Maneuver Attacks: a defender with no pieces in reserve cannot block."""
    g = game(kit, [("F1", "france", "infantry", 2, "e", "s")])
    kit.act(g, ATTACK, ["A1"])
    assert g.state.pieces["A1"].locale == "e"
    assert not any(e.kind == "stack-push" for e in g.log)


def test_from_an_approach_cannot_be_blocked(kit):
    """Maneuver Attacks: an attacker coming from an approach is never blocked."""
    g = kit.start(
        kit.build(
            ["w", "c", "e", "s"],
            EDGES,
            [
                ("A1", "austria", "infantry", 3, "c", "e"),
                ("F1", "france", "infantry", 2, "e"),
            ],
        )
    )
    kit.act(g, "maneuver attack from C approach facing E into E (1 command; cannot be blocked)", ["A1"])
    assert g.state.pieces["A1"].locale == "e"
    assert g.state.pieces["F1"].locale == "s"


def test_block_choice_is_the_defending_players(kit):
    """Maneuver Attacks: the block decision is asked of the defending side, citing the rule."""
    g = game(kit, [("F1", "france", "infantry", 2, "e"), ("F2", "france", "cavalry", 2, "e")])
    kit.act(g, ATTACK, ["A1"], "block the approach of E facing C")
    assert g.pending.side == "france" and g.pending.rule.startswith("Maneuver Attacks")
    kit.act(g, ["F2"])
    assert g.state.pieces["F2"].approach == "c" and g.state.pieces["F1"].in_reserve
