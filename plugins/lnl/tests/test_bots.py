"""The odds bot's judgements (``wargamekit_lnl.bots``), each on a position set up by hand."""

from wargamekit import Game
from wargamekit_lnl import LnL
from wargamekit_lnl.bots import OddsBot
from wargamekit_lnl.scenario import parse_hex


def village():
    """The village at set-up: the German squads and MG in the buildings, the US at the west edge."""
    return Game.new(LnL(), seed=0).state


def test_fire_risk_counts_only_enemies_with_a_line_of_sight():
    """OPF 1 / LOS: entering the woods at 0402 (no German can see it) invites no fire; the open
    hex 0404 in the buildings' line of sight invites more than the woods at 0403 (+2, FPR 3)."""
    state = village()
    bot = OddsBot(0)
    squad = state.units["us-1"]
    hidden, woods, open_ = ((parse_hex(h), 0) for h in ("0402", "0403", "0404"))
    assert bot.opportunity_risk(state, [squad], hidden) == 0.0
    assert 0.0 < bot.opportunity_risk(state, [squad], woods) < bot.opportunity_risk(state, [squad], open_)
    # SPT 1 / SPT 3: unmarked in the woods the squad is not exposed; after a move it is.
    assert bot.exposure_risk(state, [squad], woods, False) == 0.0
    assert bot.exposure_risk(state, [squad], woods, True) > 0.0


def test_a_leader_stays_with_shaken_units_and_the_others_move_on():
    """RAL 2: only a Good Order leader (or hero) in the hex lets shaken units rally, so the bot
    leaves the leader with them and moves the Good Order squads on."""
    state = village()
    bot = OddsBot(0)
    squad, other, leader = (state.units[i] for i in ("us-1", "us-2", "us-ldr1"))
    other.shaken = True
    assert bot.movers_for(state, [squad, other, leader]) == [squad]
    # Without a Good Order helper, the shaken unit is the one to move (to a leader).
    leader.shaken = True
    assert bot.movers_for(state, [other, leader]) == [other, leader]


def test_a_free_leader_goes_to_shaken_units_that_have_no_one():
    """RAL 2: shaken units alone at 0107 (their leader gone) draw a Good Order leader from
    elsewhere: the leader at 0104 is the rescuer, and 0107 is worth most to it."""
    state = village()
    bot = OddsBot(0)
    state.units["us-ldr2"].alive = False
    for i in ("us-3", "us-4"):
        state.units[i].shaken = True
    here = [state.units[i] for i in ("us-1", "us-2", "us-ldr1")]
    assert bot.rescuers(state, here) == [state.units["us-ldr1"]]
    leader = [state.units["us-ldr1"]]
    at_them = bot.place_value(state, leader, (parse_hex("0107"), 0), "rescue")
    assert at_them > bot.place_value(state, leader, (parse_hex("0105"), 0), "rescue") \
        > bot.place_value(state, leader, (parse_hex("0104"), 0), "rescue")


def test_a_held_objective_is_kept_only_while_an_enemy_could_take_it():
    """Victory (provisional): a hex stays held when left empty until a Good Order enemy enters
    it alone, so the first Good Order unit on it stays only while such an enemy is within reach."""
    state = village()
    bot = OddsBot(0)
    squad = state.units["us-1"]
    squad.hex = parse_hex("0704")
    for u in state.alive("german"):
        if u.hex == squad.hex:
            u.alive = False
    state.control[squad.hex] = "us"
    assert bot.holding(state, squad)
    for u in state.alive("german"):
        u.shaken = True  # no Good Order German is left to walk in
    assert not bot.holding(state, squad)


def test_the_move_plan_takes_an_empty_objective_in_reach():
    """The plan (over ``movement.steps``) walks a Good Order squad next to an empty objective
    into it: the German squad at 0704 is gone, so the US squad at 0604 enters 0704."""
    state = village()
    bot = OddsBot(0)
    for u in state.alive("german"):
        u.alive = u.hex == parse_hex("1003") or u.kind == "team"
    squad = state.units["us-1"]
    squad.hex = parse_hex("0604")
    score, first = bot.plan_move(state, [squad], "normal", 4)
    assert first == (parse_hex("0704"), 0) and score > 0


def test_the_kinds_of_0_3_get_real_answers():
    """lnl 0.3's decisions go to the bot's judgement, not the random fallback: SMC 2.3 aims the
    sniper at a leader; MOV 8 faces the MG team toward the most enemies (HWF 2's front arc);
    VMV 3.5 holds rather than counter-attack an overrunning vehicle."""
    from attrs import evolve

    from wargamekit_lnl import fire

    state = village()
    bot = OddsBot(0)
    assert bot._counter_attack([{"attack": True}, {"attack": False}]) == 1
    leader, squad = state.units["us-ldr1"], state.units["us-1"]
    values = [bot._sniper_target_value(state, d) for d in ({"hold": True}, {"unit": squad.id}, {"unit": leader.id})]
    assert values == sorted(values) and values[0] < values[1] < values[2]
    team = state.units["de-mg"]
    us = state.alive("us")
    best = max(range(6), key=lambda f: bot._facing_value(state, team, f))
    counts = [sum(fire.in_arc(evolve(team, facing=f), u.hex) for u in us) for f in range(6)]
    assert counts[best] == max(counts) > 0
    assert team.facing == state.units["de-mg"].facing  # judging a facing changed nothing

