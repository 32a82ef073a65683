"""Assaults: leading pieces, defensive fire, result, losses, pursuit and aftermath."""

from __future__ import annotations

import pytest

from wargamekit import IllegalChoiceError
from wargamekit.geometry.locale import ApproachWidth
from wargamekit_maneuver_locale import rules
from wargamekit_maneuver_locale.assault import defensive_guns
from wargamekit_maneuver_locale.resolution import Combatant, leading_problem, resolve_assault
from wargamekit_maneuver_locale.scenario import Arm

ASSAULT = "assault from C approach against the blocking approach of E (1 command)"
FIRE = "defensive artillery fire"


def game(kit, pieces, width="wide", terrain=0):
    edges = [("c", "e", width, terrain, "wide", 0), ("e", "s"), ("n", "e")]
    # F9 waits in s, so the game goes on when the defenders of e are gone
    return kit.start(kit.build(["c", "e", "s", "n"], edges, [*pieces, ("F9", "france", "infantry", 1, "s")]))


# -- pure resolution ---------------------------------------------------------------------------
def test_result_is_attack_minus_terrain_minus_defence():
    """Assaults — 判定: result = attacker's leading steps − terrain − defender's leading steps."""
    r = resolve_assault([Combatant("a", Arm.INFANTRY, 3)], [Combatant("d", Arm.INFANTRY, 2)], terrain=1)
    assert (r.result, r.winner) == (0, "defender")
    r = resolve_assault([Combatant("a", Arm.INFANTRY, 3), Combatant("b", Arm.INFANTRY, 2)], [], terrain=1)
    assert (r.result, r.winner) == (4, "attacker")


def test_losses_winner_one_loser_one_plus_result():
    """Assaults — 損害適用: winner loses 1 step, loser 1 + |result|."""
    r = resolve_assault([Combatant("a", Arm.CAVALRY, 2)], [Combatant("d", Arm.INFANTRY, 3)], terrain=2)
    assert (r.result, r.attacker_losses, r.defender_losses) == (-3, 4, 1)
    r = resolve_assault([Combatant("a", Arm.INFANTRY, 4)], [], terrain=0)
    assert (r.result, r.attacker_losses, r.defender_losses) == (4, 1, 5)


@pytest.mark.parametrize(
    ("chosen", "width", "attacker", "problem"),
    [
        ((("I", 3), ("I", 2)), "narrow", True, "at most 1 leading piece(s) on a narrow approach"),
        ((("I", 3), ("C", 2)), "wide", True, "two leading pieces may not mix infantry and cavalry"),
        ((("I", 1), ("I", 1)), "wide", True, "at least one leading piece must have 2 or more steps"),
        ((("A", 2),), "wide", True, "leading pieces are infantry or cavalry, not artillery"),
        ((), "wide", True, "the attacker must choose leading pieces"),
        ((), "narrow", False, None),
        ((("I", 1),), "narrow", False, None),
        ((("C", 3), ("C", 1)), "wide", True, None),
    ],
)
def test_leading_piece_rules(chosen, width, attacker, problem):
    """Assaults — leading pieces: 1 narrow / 2 wide, infantry or cavalry, no mixing, one of 2+ steps
    (attacker); the defender may choose none."""
    arms = {"I": Arm.INFANTRY, "C": Arm.CAVALRY, "A": Arm.ARTILLERY}
    pieces = [Combatant(f"p{i}", arms[a], s) for i, (a, s) in enumerate(chosen)]
    assert leading_problem(pieces, ApproachWidth(width), attacker=attacker) == problem


# -- the procedure -----------------------------------------------------------------------------
def test_defender_wins_on_zero_and_attackers_fall_back(kit):
    """Assaults — 判定/後処理: result 0 is a defender's win; the attackers return to the reserve."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 3, "c", "e"),
            ("A2", "austria", "infantry", 2, "c", "e"),
            ("F1", "france", "infantry", 2, "e", "c"),
            ("F2", "france", "infantry", 1, "e"),
        ],
        width="narrow",
        terrain=1,
    )
    kit.act(g, ASSAULT)
    assert kit.labels(g) == ["A1", "A2"] and g.pending.upper == 1  # narrow: 1 leading piece
    kit.act(g, ["A1"], "pass", ["F1"])
    st = g.state
    assert st.pieces["A1"].steps == 2  # loser: 1 + |0| = 1 step, from the leading piece
    assert st.pieces["F1"].steps == 1  # winner: 1 step
    assert st.pieces["A1"].in_reserve and st.pieces["A2"].in_reserve
    assert st.pieces["F1"].approach == "c" and st.commands == 2


def test_attacker_wins_enemy_chooses_among_leading_and_locale_retreats(kit):
    """Assaults — 損害適用/後処理: the enemy picks among several leading pieces; on a win the whole
    defending locale retreats and the attackers enter its reserve."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 3, "c", "e"),
            ("A2", "austria", "infantry", 2, "c", "e"),
            ("F1", "france", "infantry", 2, "e", "c"),
            ("F2", "france", "infantry", 1, "e"),
            ("F3", "france", "cavalry", 2, "e"),
        ],
    )
    kit.act(g, ASSAULT, ["A1", "A2"], "pass", ["F1"])
    # result 5 - 0 - 2 = 3: the attacker loses 1 step, chosen by France among the two leaders
    assert g.pending.side == "france" and g.pending.rule.startswith("Assaults — 損害適用")
    kit.act(g, "A2 infantry 2", "S")  # then France retreats F3 to s (n is also open)
    st = g.state
    assert st.pieces["A2"].steps == 1
    assert "F1" not in st.pieces  # 4 losses: F1's 2 steps; no other piece on the approach
    assert "F2" not in st.pieces  # Retreats: reserve infantry loses 1 step as a group
    assert (st.pieces["F3"].locale, st.pieces["F3"].steps) == ("s", 2)  # reserve cavalry: no loss
    assert {st.pieces["A1"].locale, st.pieces["A2"].locale} == {"e"}
    assert st.control["e"] == "austria"


def test_assault_won_locale_closed_to_non_participants(kit):
    """Assaults — 後処理: pieces that did not take part may not enter the locale that turn."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 3, "c", "e"),
            ("A9", "austria", "infantry", 2, "n"),
            ("F1", "france", "infantry", 1, "e", "c"),
        ],
    )
    assert "maneuver attack from N reserve into E (1 command; may be blocked)" in kit.labels(g)
    kit.act(g, ASSAULT, ["A1"], "pass", [])
    assert g.state.won_by_assault == {"e": ["A1"]}
    assert not any("N reserve to E" in lab for lab in kit.labels(g))


def test_assault_won_locale_closed_to_road_moves(kit):
    """Assaults — 後処理: a piece that did not take part may not enter the won locale that turn,
    nor pass through it, by road either."""
    from wargamekit_maneuver_locale.movement import road_moves

    edges = [("c", "e"), ("e", "s"), ("n", "e"), ("e", "x")]
    g = kit.start(kit.build(["c", "e", "s", "n", "x"], edges, [
        ("A1", "austria", "infantry", 3, "c", "e"), ("A9", "austria", "infantry", 2, "n"),
        ("F1", "france", "infantry", 1, "e", "c"), ("F9", "france", "infantry", 1, "s"),
    ], roads=[("primary", ["n", "e", "x"])]))
    kit.act(g, ASSAULT, ["A1"], "pass", [], [])  # F1 is eliminated; A1 stays in the reserve
    st = g.state
    assert st.pieces["A1"].locale == "e" and st.won_by_assault == {"e": ["A1"]}
    assert road_moves(st, "austria") == {}
    assert not any(lab.startswith("road move") for lab in kit.labels(g))
    st.won_by_assault = {}  # the same position without the rule: A9 could go by road
    assert [m.path for m in road_moves(st, "austria")["A9"]] == [("n", "e"), ("n", "e", "x")]


def test_further_losses_chosen_by_owner(kit):
    """Assaults — 損害適用: when the leading pieces are gone, the owner picks the other pieces."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 2, "c", "e"),
            ("A2", "austria", "infantry", 2, "c", "e"),
            ("A3", "austria", "infantry", 2, "c", "e"),
            ("F1", "france", "infantry", 3, "e", "c"),
            ("F2", "france", "infantry", 3, "e", "c"),
        ],
        width="narrow",
        terrain=1,
    )
    kit.act(g, ASSAULT, ["A1"], "pass", ["F1"])
    # result 2 - 1 - 3 = -2: the attacker loses 3 — A1's 2 steps, then 1 more chosen by Austria
    assert "A1" not in g.state.pieces
    assert g.pending.side == "austria" and kit.labels(g) == ["A2", "A3"]
    kit.act(g, "A3")
    assert g.state.pieces["A3"].steps == 1 and g.state.pieces["A2"].steps == 2


@pytest.mark.parametrize(
    ("width", "terrain", "a1_steps", "limit", "f4_after"), [("wide", 0, 3, 2, 2), ("narrow", 1, 4, 1, 3)]
)
def test_cavalry_pursuit(kit, width, terrain, a1_steps, limit, f4_after):
    """Assaults — 騎兵の追撃: the winning attacker's unused cavalry (up to 1 narrow / 2 wide) pursues
    a defender without cavalry: the pursued lose the cavalry's steps less their terrain; each
    pursuer loses 1 step."""
    g = game(kit, [
        ("A1", "austria", "infantry", a1_steps, "c", "e"), ("A3", "austria", "cavalry", 2, "c", "e"),
        ("F1", "france", "infantry", 2, "e", "c"), ("F4", "france", "infantry", 4, "e", "c"),
    ], width=width, terrain=terrain)
    kit.act(g, ASSAULT, ["A1"], "pass", ["F1"])
    # result a1 - terrain - 2 = 1: A1 loses 1, F1 loses 2 (eliminated); F4 is untouched
    assert "F1" not in g.state.pieces and g.state.pieces["F4"].steps == 4
    assert g.pending.rule.startswith("Assaults — 騎兵の追撃") and g.pending.max_count == limit
    kit.act(g, ["A3"], "S")
    st = g.state
    assert st.pieces["A3"].steps == 1  # the pursuer loses 1 step
    assert st.pieces["F4"].steps == f4_after  # 2 cavalry steps less the pursued side's terrain
    assert st.pieces["F4"].locale == "s"  # then it retreats from the attacked approach without loss


def test_only_cavalry_may_pursue(kit):
    """Assaults — 騎兵の追撃: choosing infantry to pursue is refused naming the rule; nothing changes."""
    g = game(kit, [
        ("A1", "austria", "infantry", 3, "c", "e"), ("A2", "austria", "infantry", 2, "c", "e"),
        ("A3", "austria", "cavalry", 2, "c", "e"), ("F1", "france", "infantry", 2, "e", "c"),
        ("F4", "france", "infantry", 4, "e", "c"),
    ])
    kit.act(g, ASSAULT, ["A1"], "pass", ["F1"])  # +1: F1 is eliminated, F4 is left to pursue
    assert g.pending.rule == rules.PURSUIT
    before = g.log_text()
    with pytest.raises(IllegalChoiceError, match="騎兵の追撃.*only cavalry"):
        kit.act(g, ["A2"])
    assert g.log_text() == before and g.pending.rule == rules.PURSUIT
    assert g.state.pieces["A2"].steps == 2 and not g.state.pieces["A2"].face_up


def test_no_pursuit_of_a_side_with_cavalry(kit):
    """Assaults — 騎兵の追撃: no pursuit when the defender (防御側) has cavalry."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 3, "c", "e"),
            ("A3", "austria", "cavalry", 2, "c", "e"),
            ("F1", "france", "infantry", 2, "e", "c"),
            ("F4", "france", "cavalry", 3, "e", "c"),
        ],
    )
    kit.act(g, ASSAULT, ["A1"], "pass", ["F1"], ["A3"])
    assert g.state.pieces["A3"].steps == 2 and g.state.pieces["F4"].steps == 3
    assert any(e.kind == "pursuit" and e.text.startswith("no pursuit") for e in g.log)


def test_defender_never_pursues(kit):
    """Assaults — 騎兵の追撃: the condition is that the defender (防御側) has no cavalry, so a
    defender that wins with unused cavalry does not pursue an attacker without cavalry."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 2, "c", "e"),
            ("A2", "austria", "infantry", 2, "c", "e"),
            ("F1", "france", "infantry", 3, "e", "c"),
            ("F4", "france", "cavalry", 3, "e", "c"),
        ],
    )
    kit.act(g, ASSAULT, ["A1"], "pass", ["F1"])
    # result 2 - 0 - 3 = -1: A1 loses 2 (eliminated), F1 loses 1; no pursuit question follows
    st = g.state
    assert "A1" not in st.pieces and st.pieces["F1"].steps == 2
    assert st.pieces["A2"].steps == 2 and st.pieces["A2"].in_reserve
    assert st.pieces["F4"].steps == 3 and not st.pieces["F4"].face_up
    assert not any(e.kind == "pursuit" for e in g.log) and g.pending.rule != rules.PURSUIT


def test_no_pursuit_after_a_lost_assault(kit):
    """Assaults — 騎兵の追撃 (reading): an attacker that loses does not pursue, even with unused
    cavalry against a defence without cavalry."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 2, "c", "e"),
            ("A3", "austria", "cavalry", 3, "c", "e"),
            ("F1", "france", "infantry", 3, "e", "c"),
        ],
    )
    kit.act(g, ASSAULT, ["A1"], "pass", ["F1"])
    st = g.state
    assert "A1" not in st.pieces and st.pieces["F1"].steps == 2
    assert st.pieces["A3"].steps == 3 and st.pieces["A3"].in_reserve
    assert not any(e.kind == "pursuit" for e in g.log) and g.pending.rule != rules.PURSUIT


def test_illegal_leading_choice_is_refused_and_changes_nothing(kit):
    """Assaults — leading pieces: mixing arms is refused naming the rule; the state is unchanged."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 3, "c", "e"),
            ("A3", "austria", "cavalry", 2, "c", "e"),
            ("F1", "france", "infantry", 2, "e", "c"),
        ],
    )
    kit.act(g, ASSAULT)
    before = g.log_text()
    with pytest.raises(IllegalChoiceError, match="Assaults — leading pieces.*mix"):
        g.answer([0, 1])
    assert g.log_text() == before and not g.state.pieces["A1"].face_up


def test_defensive_fire_hits_leading_pieces_before_the_result(kit):
    """Assaults — 防御砲撃: the defender's gun fires; its steps come off the leading pieces first."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 3, "c", "e"),
            ("A2", "austria", "infantry", 2, "c", "e"),
            ("F1", "france", "infantry", 2, "e", "c"),
            ("F5", "france", "artillery", 2, "e", "c"),
        ],
        width="narrow",
    )
    kit.act(g, ASSAULT, ["A1"])
    assert kit.labels(g) == ["pass", FIRE]
    kit.act(g, FIRE, ["F5"])
    assert g.state.pieces["A1"].steps == 1 and g.state.pieces["F5"].face_up
    kit.act(g, ["F1"])
    # result 1 - 0 - 2 = -1: the attacker loses 2 — A1's last step, then A2 (the only other)
    st = g.state
    assert "A1" not in st.pieces and st.pieces["A2"].steps == 1
    assert st.pieces["F5"].last_fired == st.player_turn


def test_defensive_fire_not_after_firing_or_declaring_last_turn(kit):
    """Assaults — 防御砲撃: a gun that fired or declared in the previous turn may not fire."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 3, "c", "e"),
            ("F1", "france", "infantry", 2, "e", "c"),
            ("F5", "france", "artillery", 2, "e", "c"),
            ("F6", "france", "artillery", 1, "e", "c"),
        ],
    )
    st = g.state
    assert [p.id for p in defensive_guns(st, "e", "c")] == ["F5", "F6"]
    st.pieces["F5"].last_declared = st.player_turn - 1
    st.pieces["F6"].last_fired = st.player_turn - 1
    assert defensive_guns(st, "e", "c") == []
    st.pieces["F5"].last_declared = st.player_turn - 2  # two turns ago: allowed again
    st.pieces["F6"].last_fired = st.player_turn - 2
    assert [p.id for p in defensive_guns(st, "e", "c")] == ["F5", "F6"]


def test_no_assault_without_a_two_step_piece(kit):
    """Assaults — leading pieces: with no infantry/cavalry of 2+ steps no assault is offered."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 1, "c", "e"),
            ("A2", "austria", "artillery", 3, "c", "e"),
            ("F1", "france", "infantry", 2, "e", "c"),
        ],
    )
    assert ASSAULT not in kit.labels(g)


def test_all_winners_enter_even_beyond_capacity(kit):
    """Assaults — 後処理: every piece that took part (攻撃に参加した全てのpiece) moves into the won
    locale's reserve, even beyond its (provisional) capacity."""
    edges = [("c", "e"), ("e", "s")]
    g = kit.start(kit.build(["c", "e", "s"], edges, [
        ("A1", "austria", "infantry", 3, "c", "e"), ("A2", "austria", "infantry", 3, "c", "e"),
        ("A3", "austria", "infantry", 2, "c", "e"),
        ("F1", "france", "infantry", 1, "e", "c"), ("F9", "france", "infantry", 1, "s"),
    ], capacities={"e": 2}))
    kit.act(g, ASSAULT, ["A1", "A2"], "pass", [], "A2 infantry 3")  # France puts the 1 loss on A2
    st = g.state
    assert [st.pieces[i].locale for i in ("A1", "A2", "A3")] == ["e", "e", "e"]
    assert all(st.pieces[i].in_reserve for i in ("A1", "A2", "A3")) and st.pieces["A2"].steps == 2
    assert st.room("e") == -1
    g.ruleset.check_invariants(st)


def test_pursuit_of_the_locale_after_the_approach_is_wiped_out(kit):
    """Assaults — 騎兵の追撃: "防御側に騎兵が無い場合、追撃可能" / "騎兵のステップ数だけ非追撃側はステップロス"
    are worded by side: when the losses wipe out the blocking approach, the defending locale
    still holds pieces, so the attacker may pursue and they lose the cavalry's steps."""
    g = game(kit, [
        ("A1", "austria", "infantry", 3, "c", "e"), ("A3", "austria", "cavalry", 2, "c", "e"),
        ("F1", "france", "infantry", 1, "e", "c"), ("F2", "france", "infantry", 4, "e"),
    ])
    kit.act(g, ASSAULT, ["A1"], "pass", ["F1"])
    # result 3 - 0 - 1 = +2: A1 loses 1; France loses 3, but the approach held only F1 (1 step)
    st = g.state
    assert "F1" not in st.pieces and st.pieces["A1"].steps == 2 and st.pieces["F2"].steps == 4
    assert g.pending.rule == rules.PURSUIT and kit.labels(g) == ["A3"]
    kit.act(g, ["A3"])
    assert any(e.kind == "pursuit" and e.data.get("losses") == 2 for e in g.log)
    assert st.pieces["A3"].steps == 1  # the pursuer loses 1 step
    # F2 lost the 2 cavalry steps (terrain 0), then 1 more retreating as the reserve's group
    kit.act(g, "S")
    assert (st.pieces["F2"].locale, st.pieces["F2"].steps) == ("s", 1)


@pytest.mark.parametrize("where", ["", "n"], ids=["in the reserve", "on another approach"])
def test_cavalry_anywhere_in_the_defending_locale_stops_pursuit(kit, where):
    """Assaults — 騎兵の追撃: "防御側に騎兵が無い場合" — the defending side's cavalry stops the
    pursuit wherever it stands in the defending locale, not only on the blocking approach."""
    g = game(kit, [
        ("A1", "austria", "infantry", 3, "c", "e"), ("A3", "austria", "cavalry", 2, "c", "e"),
        ("F1", "france", "infantry", 2, "e", "c"), ("F4", "france", "infantry", 4, "e", "c"),
        ("F5", "france", "cavalry", 2, "e", where),
    ])
    kit.act(g, ASSAULT, ["A1"], "pass", ["F1"])  # +1: F1 loses 2 and is gone; F4 is untouched
    kit.act(g, ["A3"])  # asked all the same: the attacker cannot see the face-down F5
    st = g.state
    assert any(e.kind == "pursuit" and e.text == "no pursuit: france has cavalry in E" for e in g.log)
    assert st.pieces["A3"].steps == 2 and st.pieces["F4"].steps == 4 and st.pieces["F5"].steps == 2


def test_pieces_that_moved_may_assault(kit):
    """Assaults: "approachから敵のブロックしているapproachに対して攻撃を行う" — the source keeps no
    piece out of an assault for having moved: a piece that moved onto the approach this turn
    (1 command) takes part in an assault from it (1 command more)."""
    g = game(kit, [("A1", "austria", "infantry", 3, "c"), ("F1", "france", "infantry", 1, "e", "c")])
    kit.act(g, "move from C reserve onto the approach facing E (1 command)", ["A1"])
    assert g.state.pieces["A1"].moved and ASSAULT in kit.labels(g)
    kit.act(g, ASSAULT, ["A1"], "pass", [])
    st = g.state
    assert "F1" not in st.pieces and st.pieces["A1"].locale == "e" and st.commands == 1


def test_a_gun_that_fired_stays_out_of_the_assault(kit):
    """Assaults / Artillery Bombardment: "砲撃を行った砲兵は移動できない" — a gun on the approach
    that fired this turn does not take part, so it does not follow the attackers in."""
    g = game(kit, [
        ("A1", "austria", "infantry", 3, "c", "e"), ("A2", "austria", "artillery", 2, "c", "e"),
        ("F1", "france", "infantry", 1, "e", "c"),
    ])
    st = g.state
    st.pieces["A2"].last_fired = st.player_turn  # as if it had bombarded at the start of the turn
    kit.act(g, ASSAULT, ["A1"], "pass", [])
    assert (st.pieces["A1"].locale, st.pieces["A1"].approach) == ("e", "")
    assert (st.pieces["A2"].locale, st.pieces["A2"].approach) == ("c", "e")
