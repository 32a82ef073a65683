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



def crossroads():
    """Crossroads (combined arms) at set-up: the Shermans and the US platoon at the west edge."""
    return Game.new(LnL(), "combined_arms", seed=0).state


def test_a_stack_holding_every_rallier_counts_the_units_it_would_strand():
    """FPR 4 / RAL 2: one hit checks every unit in the hex; if the stack holds the side's only
    leader and hero and both break, the squads broken with them have no one to rally them.
    The German LMG squad's attack on 0706 costs a stack with the leader and the hero more than
    the damage itself, and nothing more once a Good Order leader stands elsewhere."""
    from wargamekit_lnl import fire
    from wargamekit_lnl.bots import stranding_worth

    state = crossroads()
    target = (parse_hex("0706"), 0)
    stack = [state.units[i] for i in ("us-1", "us-2", "us-3", "us-ldr", "us-hero")]
    for u in stack:
        u.hex = target[0]
    german = [state.units[i] for i in ("de-1", "de-ldr")]
    attack = fire.plan_fire(state, german, target, opportunity=True, moving=True)
    assert attack is not None
    with_all = stranding_worth(attack, state, stack)
    assert with_all > 0.0
    # The squads alone (the hero kept back elsewhere, Good Order): nothing is stranded.
    state.units["us-hero"].hex = parse_hex("0505")
    assert stranding_worth(attack, state, stack[:4]) == 0.0
    # No ralliers in the hex at all: their breaking is the damage itself (threat_worth).
    assert stranding_worth(attack, state, stack[:3]) == 0.0
    assert stranding_worth(None, state, stack) == 0.0


def test_the_hero_is_kept_back_when_a_stack_holds_every_rallier():
    """RAL 2, HER 2.5 (a hero rallies only where no leader is): a stack with the side's leader
    and hero may leave the hero behind as a reserve; with a rallier elsewhere, no reserve."""
    state = crossroads()
    bot = OddsBot(0)
    stack = [state.units[i] for i in ("us-1", "us-2", "us-ldr", "us-hero")]
    for u in stack:
        u.hex = parse_hex("0505")
    assert bot.reserve(state, stack) is state.units["us-hero"]
    assert bot.reserve(state, stack[:3]) is None  # the hero, Good Order elsewhere, is the reserve
    state.units["us-hero"].shaken = True
    assert bot.reserve(state, stack[:3]) is None  # one Good Order rallier: nothing to keep back


def test_a_vehicle_plans_its_turns_and_steps_to_the_objective():
    """VMV 1: a Sherman at 0504 facing away from the open objective 0904 late in the game
    turns and drives on, by the plan over hexes and facings (the greedy step stopped there:
    every single turn first looked worse). Following the plan brings it nearer 0904."""
    from attrs import evolve

    from wargamekit_lnl import vehicles

    state = crossroads()
    bot = OddsBot(0)
    state.turn = 5
    tank = state.units["us-t1"]
    tank.hex, tank.facing, tank.turret = parse_hex("0504"), 0, 0
    goal = parse_hex("0904")
    start = tank.hex.distance(goal)
    left = vehicles.mp_of(tank)
    v = tank
    while (step := bot.plan_vehicle_move(state, v, left)) is not None:
        name, direction = step
        if name in ("left", "right"):
            v, left = evolve(v, facing=direction, turret=direction), left - 1
        else:
            to = v.hex.neighbour(direction)
            cost = int(vehicles.vehicle_step_cost(state, v.hex, to, v)) * (2 if name == "reverse" else 1)
            v, left = evolve(v, hex=to), left - cost
        assert left >= 0
        state.units[v.id] = v
    assert v.hex.distance(goal) < start


def test_break_chance_is_the_exact_chance_of_any_damage_check_result():
    """FPR 4–5: for one mover, the chance an attack breaks it is one less the exact chance of
    "no effect" (``fire.outcome_odds``); for two squads, at least one broken is likelier still."""
    from fractions import Fraction

    from wargamekit_lnl import fire
    from wargamekit_lnl.bots import break_chance

    state = crossroads()
    place = (parse_hex("0706"), 0)
    squad, other = state.units["us-1"], state.units["us-3"]
    squad.hex = place[0]
    attack = fire.plan_fire(state, [state.units[i] for i in ("de-1", "de-ldr")], place, opportunity=True, moving=True)
    assert attack is not None
    alone = fire.outcome_odds(attack, fire.Target.of(state, squad))
    assert abs(break_chance(attack, state, [squad]) - float(1 - alone.get(fire.NO_EFFECT, Fraction(0)))) < 1e-12
    other.hex = place[0]
    assert 1.0 > break_chance(attack, state, [squad, other]) > break_chance(attack, state, [squad]) > 0.0
    assert break_chance(None, state, [squad]) == 0.0


def test_a_stack_does_not_walk_on_through_a_killing_zone():
    """MOV 2.3: a mover made shaken stops, so a place beyond hexes the German LMG squad at 0805
    covers is worth its gain only at the chance of getting there. The whole platoon at 0605
    (the LMG squad and the 0906 group waiting, OPF 1c) steps back out of sight to 0505
    rather than on to the buildings; entering 0706 would stop it more often than not."""
    state = crossroads()
    bot = OddsBot(0)
    stack = [state.units[i] for i in ("us-1", "us-2", "us-3", "us-ldr", "us-hero")]
    for u in stack:
        u.hex = parse_hex("0605")
    assert bot.stop_chance(state, stack, (parse_hex("0706"), 0)) > 0.5
    assert bot.stop_chance(state, stack, (parse_hex("0505"), 0)) == 0.0
    _score, first = bot.plan_move(state, stack, "normal", 4)
    assert first == (parse_hex("0505"), 0)


def test_a_waiting_vehicle_can_stop_a_move_too():
    """OPF 1 / VEH 4: the half-track at 1106 (no marker: it may opportunity-fire) covers 0907
    with its MGs, so entering 0907 may stop a squad there; far out of its reach, at 0105, not;
    once it has moved, only the German squads next door may still stop the squad at 0907."""
    from wargamekit_lnl.bots import OPPORTUNITY_CHANCE

    state = crossroads()
    bot = OddsBot(0)
    squad, halftrack = state.units["us-1"], state.units["de-ht"]
    near, far = (parse_hex("0907"), 0), (parse_hex("0105"), 0)
    assert bot.vehicle_break_chance(state, halftrack, near, [squad]) > 0.5
    assert bot.vehicle_break_chance(state, halftrack, far, [squad]) == 0.0
    before = bot.stop_chance(state, [squad], near)
    assert before >= OPPORTUNITY_CHANCE * bot.vehicle_break_chance(state, halftrack, near, [squad])
    halftrack.markers.add("move")  # OPF 1c: marked, it no longer fires at movers
    bot.memo.clear()
    assert bot.stop_chance(state, [squad], near) < before  # the German squads at 0906 still can


def test_the_weapons_are_kept_and_a_leader_hands_its_sw_to_a_squad():
    """RAL 4 / SW 3.1: the bot never drops or destroys an SW; MOV 1.1 and SW 2.1–2.3: a leader
    carrying one (2 MP less for it and the stack it leads, half FP) hands it to a squad."""
    from wargamekit_lnl.state import Weapon

    state = crossroads()
    bot = OddsBot(0)
    options = [{"action": "done"}, {"action": "drop", "unit": "us-1", "weapon": "bar-1"},
               {"action": "destroy", "unit": "us-1", "weapon": "bar-1"},
               {"action": "exchange", "unit": "us-1", "weapon": "bar-1", "to": "us-3"},
               {"action": "exchange", "unit": "us-1", "weapon": "bar-1", "to": "us-ldr"}]
    values = [bot._weapons_value(state, d) for d in options]
    assert max(range(len(options)), key=values.__getitem__) == 0  # done
    leader = state.units["us-ldr"]
    leader.weapons.append(Weapon("bar-9", "bar"))
    options.append({"action": "exchange", "unit": "us-ldr", "weapon": "bar-9", "to": "us-2"})
    values = [bot._weapons_value(state, d) for d in options]
    assert max(range(len(options)), key=values.__getitem__) == len(options) - 1
