"""Strategic warfare (战术对决): the opposed roll, thresholds and the six tactics."""

from wargamekit import ScriptedDice
from wargamekit_mttt_rpg import movement
from wargamekit_mttt_rpg.battle_groups import group_rout_pool
from wargamekit_mttt_rpg.defense import defense_profile
from wargamekit_mttt_rpg.warfare import TACTICS, resolve_warfare, strategic_warfare


def test_thresholds():
    """潜在战术: each tactic's threshold."""
    assert {k: t.threshold for k, t in TACTICS.items()} == {
        "back_to_the_sea": 1,
        "strategic_placement": 1,
        "demoralized": 2,
        "fortifications": 2,
        "ambush": 3,
        "pincer": 3,
    }


def test_more_successes_below_the_threshold_gives_nothing():
    """战术对决: winning the roll without reaching the tactic's threshold brings no advantage."""
    out = resolve_warfare(ScriptedDice([8, 2, 3, 1]), 2, "ambush", 2, "pincer")
    assert (out.winner, out.tactic, out.a_successes, out.b_successes) == ("a", None, 1, 0)


def test_threshold_counts_only_the_successes_beyond_the_opponent():
    """潜在战术: "阈值成功" are threshold successes — the winner's successes beyond the loser's: 4 vs 2
    wins the roll by 2, short of Ambush's 3 (no tactic); 5 vs 2 (a 10 counts twice) carries it out."""
    short = resolve_warfare(ScriptedDice([7, 8, 9, 9] + [7, 7, 1]), 4, "ambush", 3, "pincer")
    assert (short.winner, short.tactic, short.a_successes, short.b_successes) == ("a", None, 4, 2)
    done = resolve_warfare(ScriptedDice([7, 8, 9, 10] + [7, 7, 1]), 4, "ambush", 3, "pincer")
    assert (done.winner, done.tactic, done.a_successes, done.b_successes) == ("a", "ambush", 5, 2)


def test_tie_gives_nothing():
    """战术对决: equal successes: nobody wins the maneuver."""
    assert resolve_warfare(ScriptedDice([7, 7]), 1, "pincer", 1, "pincer").winner is None


def battle(make, tactic_faces, answers):
    h = make(
        make.scenario(
            make.unit_entry("rin", "heroes", sheet="marshal", leader_of=["militia"]),
            make.unit_entry("militia", "heroes", group="town_militia"),
            make.unit_entry("gen", "foes", sheet="warlord", leader_of=["dolls"]),
            make.unit_entry("dolls", "foes", group="doll_legion"),
            band=1,
            warfare={"heroes": "rin", "foes": "gen"},
        ),
        tactic_faces,
        interrupts=False,
        phase="preparation",
    )
    h.run(strategic_warfare(h, {"heroes": "rin", "foes": "gen"}), answers)
    for u in h.state:
        u.initiative = 10
        h.state.track.set(u.id, 10)
    return h


# Rin: intelligence 16 -> 3 dots + war 4 = 7 dice; Gen: 15 -> 2 + war 3 = 5 dice
WIN_THREE = [10, 8, 1, 1, 1, 1, 1] + [1, 1, 1, 1, 1]


def test_fortifications_keep_the_enemy_at_long_distance_on_difficult_ground(make):
    """防御工事: the enemy starts at long distance and the ground is difficult for it (1 initiative a move)."""
    h = battle(make, WIN_THREE, ["Fortifications", "Pincer"])
    assert (h.state.tactic, h.state.tactic_winner) == ("fortifications", "heroes")
    assert h.state.distance("rin", "gen") == 4 and h.state.distance("militia", "dolls") == 4
    assert h.state.distance("rin", "militia") == 1
    h.run(movement.move(h, h.unit("gen"), h.unit("rin"), -1))
    assert h.unit("gen").initiative == 9
    h.run(movement.move(h, h.unit("rin"), h.unit("gen"), +1))
    assert h.unit("rin").initiative == 10


def test_pincer_gives_a_permanent_onslaught_penalty(make):
    """夹击: the enemy suffers −1 onslaught all battle long."""
    h = battle(make, WIN_THREE, ["Pincer", "Ambush"])
    gen, rin = h.unit("gen"), h.unit("rin")
    before = defense_profile(h.state, rin, gen, "passive", ranged=False).value
    assert defense_profile(h.state, gen, rin, "passive", ranged=False).value == 15 + 2 + 1 - 1
    assert before == 15 + 2 + 1


def test_ambush_then_surprise(make):
    """伏击: round 1 attacks are ambushes (defense 0), rounds 2–4 surprise attacks (−2)."""
    h = battle(make, WIN_THREE, ["Ambush", "Pincer"])
    gen, rin = h.unit("gen"), h.unit("rin")
    assert defense_profile(h.state, gen, rin, "passive", ranged=False).value == 0
    h.state.round = 2
    assert defense_profile(h.state, gen, rin, "passive", ranged=False).value == 15 + 2 + 1 - 2
    h.state.round = 5
    assert defense_profile(h.state, gen, rin, "passive", ranged=False).value == 15 + 2 + 1


def test_ambushed_characters_must_ready_their_weapons(make):
    """伏击 + 拔出/预备武器: a weapon is drawn on entering a fight "unless ambushed": the ambushed
    side's characters start empty-handed and must ready a weapon (−2 initiative)."""
    from wargamekit_mttt_rpg.combat_actions import legal_actions

    h = battle(make, WIN_THREE, ["Ambush", "Pincer"])
    gen, rin = h.unit("gen"), h.unit("rin")
    assert gen.weapon == "" and rin.weapon != "" and h.unit("dolls").weapon != ""
    kinds = [a.kind for a in legal_actions(h, gen)]
    assert "attack" not in kinds and "ready" in kinds


def test_demoralized_costs_a_die_on_rout_checks(make):
    """士气低落: −1 on the enemy's rout checks and order actions."""
    h = battle(make, [10, 1, 1, 1, 1, 1, 1] + [1] * 5, ["Demoralized", "Pincer"])
    assert h.state.tactic == "demoralized"
    assert group_rout_pool(h.state, h.unit("dolls")) == 1 + 0 - 1
    assert group_rout_pool(h.state, h.unit("militia")) == 4 + 0


def test_back_to_the_sea_forbids_withdrawal(make):
    """逼入绝路: the enemy cannot withdraw (nor rally easily; slaughter bites harder)."""
    h = battle(make, [8] + [1] * 6 + [1] * 5, ["Back to the Sea", "Pincer"])
    gen = h.unit("gen")
    for u in h.state:
        if u.side == "heroes":
            h.state.set_distance(gen.id, u.id, 7)
    assert h.state.tactic == "back_to_the_sea" and not movement.can_withdraw(h.state, gen)
    assert movement.can_withdraw(h.state, h.unit("rin")) is False  # the dolls are still close to Rin


def test_strategic_placement_has_no_fixed_effect(make):
    """战术布置: no fixed advantage: nothing changes mechanically."""
    h = battle(make, [8] + [1] * 6 + [1] * 5, ["Strategic Placement", "Pincer"])
    assert h.state.tactic == "strategic_placement" and h.state.distance("rin", "gen") == 1
