"""The speed shortcuts (issue 9) give the answers they stand for.

The memo of lines of sight, the "is there any target" tests of the action menu (and
``fire.in_reach``, what they test instead of planning the attack), the impulse alternation's
``can_act`` and the sniper's ``has_target`` are checked against the full
computations they replace, written here as the rules were before the shortcuts, at every
decision of seeded random games on both bundled scenarios.
"""

import itertools
from collections import Counter

import numpy as np
import pytest

from wargamekit import Game, ScenarioError, odds
from wargamekit.geometry import HexMap, HexsideFacing, hex_line, in_fire_arc
from wargamekit.players import RandomBot, bot_seed
from wargamekit_lnl import LnL, fire, kinds, los, movement, rules, sniper, vehicles
from wargamekit_lnl.data import BRUSH, BUILDING, FRONT_ARC, LEVEL_COST, TERRAIN, WALL, WOODS
from wargamekit_lnl.los import HINDRANCES_THAT_BLOCK, exposed, hex_exposed, sight, visible
from wargamekit_lnl.scenario import LAYOUT, SIDES
from wargamekit_lnl.scenario import parse_hex as H
from wargamekit_lnl.state import Unit, single_men, squad_equivalents, stacking_ok
from wargamekit_lnl.testing import context, scenario, unit


def _fire_targets(state, firers):
    """FIR 1 as ``targets_for`` wrote it before ``has_target``: every exposed enemy place first."""
    enemy = rules.other(firers[0].side)
    places = sorted({u.place for u in state.alive(enemy) if exposed(state, u)}, key=lambda p: (p[0].q, p[0].r, p[1]))
    return [p for p in places if p not in state.melee and fire.plan_fire(state, firers, p) is not None]


def _spot_targets(state, units):
    """SPT 7 as ``spot_targets`` wrote it before the generator."""
    if any(u.markers for u in units):
        return []
    enemy = rules.other(units[0].side)
    places = sorted({u.place for u in state.alive(enemy) if not exposed(state, u)}, key=lambda p: (p[0].q, p[0].r, p[1]))
    return [p for p in places if rules.spot_drm(state, units, p) is not None]


def _line(state, a, b):
    """LOS 1 / LOS 3.1 worked out afresh (no memo)."""
    if a == b:
        return (True, 0)
    line = sight(state, a, b)
    return (line.clear and line.hindering < HINDRANCES_THAT_BLOCK, line.hindering)


def test_shortcuts_agree_with_the_full_answers_in_random_games():
    ruleset = LnL()
    seen: Counter[str] = Counter()

    def check(game, decision):
        state = game.state
        if len(game.choices) % 4 == 0:  # lines between every two units' hexes (every 4th decision: time)
            hexes = sorted({u.hex for u in state.alive()}, key=lambda h: (h.q, h.r))
            for a in hexes:
                for b in hexes:
                    line = visible(state, a, b)
                    assert (line is not None, line.hindering if line is not None else _line(state, a, b)[1]) \
                        == _line(state, a, b)
                    seen["line seen" if line is not None else "line blocked"] += 1
        table = state.sniper_table
        for side in SIDES:
            ready = ruleset.ready(state, side)
            assert ruleset.can_act(state, side) == bool(ready)
            seen[f"can act {bool(ready)}"] += 1
            for u in state.alive(side):
                if u.kind == "sniper":
                    full = sniper.targets(state, u, table.casualty, table.shaken)
                    assert sniper.has_target(state, u, table.casualty, table.shaken) == bool(full)
                    seen[f"sniper target {bool(full)}"] += 1
            for place in sorted({u.place for u in ready}, key=lambda p: (p[0].q, p[0].r, p[1])):
                group = [u for u in ready if u.place == place]
                if all(fire.can_fire(u) for u in group):
                    for enemy in {u.place for u in state.alive(rules.other(side))}:
                        reach = fire.in_reach(state, group, enemy)
                        assert (reach is None) == (fire.plan_fire(state, group, enemy) is None)
                        seen[f"in reach {reach is not None}"] += 1
                    full = _fire_targets(state, group)
                    assert rules.targets_for(state, group, [group]) == full
                    assert rules.has_target(state, group, [group]) == bool(full)
                    seen[f"fire target {bool(full)}"] += 1
                full = _spot_targets(state, group)
                assert ruleset.spot_targets(state, group) == full
                seen[f"spot target {bool(full)}"] += 1

    for name in ruleset.scenario_names():
        for seed in range(2):
            game = Game.new(ruleset, name, seed=seed)
            game.play({s: RandomBot(bot_seed(seed, i)) for i, s in enumerate(ruleset.sides)}, before_ask=check)
    # Both answers of every test came up (the comparison is not vacuous; a sniper without a
    # target: the next test).
    assert seen["sniper target True"]
    for what in ("line", "can act", "in reach", "fire target", "spot target"):
        both = [k for k in seen if k.startswith(what)]
        assert len(both) == 2, (what, seen)


def test_sniper_has_target_is_whether_it_has_targets():
    """SMC 2.2: a target must be exposed (SPT 3: a fire marker exposes the hex) and in LOS."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")],
                           terrain={"woods": ["0503"]}))
    s = ctx.state
    shooter = Unit("us-sniper-1", "us", "sniper", H("0101"))
    s.units[shooter.id] = shooter
    table = s.sniper_table
    assert sniper.targets(s, shooter, table.casualty, table.shaken) == []
    assert not sniper.has_target(s, shooter, table.casualty, table.shaken)
    s.units["de-1"].markers.add("fire")
    assert [u.id for u, _shot in sniper.targets(s, shooter, table.casualty, table.shaken)] == ["de-1"]
    assert sniper.has_target(s, shooter, table.casualty, table.shaken)
    shooter.shaken = True  # RAL 2.7: a shaken sniper does not fire
    assert not sniper.has_target(s, shooter, table.casualty, table.shaken)


def test_los_memo_sees_every_change_to_the_map_and_the_smoke():
    """LOS 1, LOS 3.3, D13: the memo follows the terrain (a setter), the elevation layer written
    directly (no invalidation needed for it in the core) and smoke placed and cleared."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")],
                           terrain={"woods": ["0303"]}))
    s = ctx.state
    a, b = H("0103"), H("0503")
    assert visible(s, a, b) is None  # LOS 1: woods between block
    s.map.elevation[s.map.offset(a)] = 1  # LOS 3.3: from a hill the woods are seen over
    line = visible(s, a, b)
    assert line is not None and line.hindering == 0
    s.map.set_terrain(H("0303"), 0)
    s.map.elevation[s.map.offset(a)] = 0
    assert visible(s, a, b) is not None
    s.smoke[H("0303")] = 1  # D13: smoke hinders
    line = visible(s, a, b)
    assert line is not None and line.hindering == 1
    del s.smoke[H("0303")]
    line = visible(s, a, b)
    assert line is not None and line.hindering == 0


def test_steady_map_blocks_answer_as_the_checked_memos():
    """LOS 1: a ``steady_map`` block (the action menu, the opportunity-fire poll, the sniper's
    test) looks the map's memos up once at its start: it answers as the checked look-up does, a
    change made between two blocks is seen by the next, a query about another map (or nested
    blocks of two maps) reads that map's own memos, and an error leaves no block open."""
    from wargamekit_lnl import los

    def make(woods):
        return context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")],
                                terrain={"woods": woods})).state

    s, t = make(["0303"]), make([])
    a, b = H("0103"), H("0503")
    with los.steady_map(s.map):
        assert visible(s, a, b) is None  # LOS 1: the woods between block
        assert visible(t, a, b) is not None  # another map: its own memos, checked as usual
        with los.steady_map(t.map):
            assert visible(t, a, b) is not None and visible(s, a, b) is None
        assert visible(s, a, b) is None
    s.map.set_terrain(H("0303"), 0)  # between two blocks: the next block sees it
    with los.steady_map(s.map):
        line = visible(s, a, b)
        assert line is not None and line.hindering == 0
    assert visible(s, a, b) is not None
    with pytest.raises(RuntimeError), los.steady_map(s.map):
        raise RuntimeError("a query failed")
    assert los._STEADY == []
    # and the block does look up once: inside it, queries of its map check the layers no more
    checked = []
    real = los._held_checked
    los._held_checked = lambda m: checked.append(m) or real(m)
    try:
        with los.steady_map(s.map):
            for _ in range(3):
                visible(s, a, b)
        inside = len(checked)
        visible(s, a, b)
    finally:
        los._held_checked = real
    assert inside == 1 and len(checked) == 2



def test_the_map_checked_last_is_still_checked_and_maps_alternating_read_their_own_memos():
    """LOS 1: the slot of the map checked last (issue 9, session 30) spares the look-up by id,
    not the check of its layers: a layer written directly is seen at the next query, whether the
    map is the one in the slot or was pushed out of it by another map's query; maps queried in
    turn each answer from their own memos."""
    from wargamekit_lnl import los

    def make(woods):
        return context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")],
                                terrain={"woods": woods})).state

    s, t = make(["0303"]), make([])
    a, b = H("0103"), H("0503")
    for _ in range(2):  # in turn: each map out of the slot, then in it again
        assert visible(s, a, b) is None  # LOS 1: the woods between block
        assert visible(t, a, b) is not None
    assert los._LAST[0][0] is t.map
    t.map.set_terrain(H("0303"), WOODS)  # the map in the slot: woods now block its line too
    assert visible(t, a, b) is None
    s.map.elevation[s.map.offset(a)] = 1  # the map out of the slot, its layer written directly
    line = visible(s, a, b)  # LOS 3.3: from a hill the woods are seen over
    assert line is not None and line.hindering == 0 and los._LAST[0][0] is s.map
    s.map.elevation[s.map.offset(a)] = 0  # and again, the map in the slot
    assert visible(s, a, b) is None

# -- the second round of shortcuts (issue 9, session 19) -------------------------------------------
def _play_every_scenario(ruleset, seed, check):
    """One seeded random-bot game on each bundled scenario, ``check`` called before every decision."""
    for name in ruleset.scenario_names():
        game = Game.new(ruleset, name, seed=seed)
        game.play({s: RandomBot(bot_seed(seed, i)) for i, s in enumerate(ruleset.sides)}, before_ask=check)


def _exposed_full(state, u):
    """SPT 1–5 as ``exposed`` wrote it before the one pass: the hex's exposure, then adjacency."""
    if u.vehicle or hex_exposed(state, u.place, u.side):
        return True
    return any(e.alive and e.side != u.side and e.good_order and e.hex.distance(u.hex) <= 1
               for e in state.units.values())


def _control_full(state):
    """The objective control ``update_control`` leaves, worked out as it was written before the
    one pass, on a copy of the control map."""
    control = dict(state.control)
    for h in state.objectives:
        sides = {u.side for u in state.in_hex(h)}
        if len(sides) == 1:
            side = sides.pop()
            if any(u.good_order for u in state.in_hex(h, side)):
                control[h] = side
    return control


def test_objective_control_in_each_case_agrees_with_the_per_objective_form():
    """Objective control (provisional victory): a hex held by both sides, one held only by
    shaken units, one with a Good Order unit beside a shaken friend, one taken by a unit above
    a unit in its column, one whose only unit is dead and one empty, against the per-objective
    form and the expected answer (round 14's pass scans the units in the objectives' columns)."""
    ctx = context(scenario([
        unit("us-1", "us", "us_squad", "0503"), unit("de-1", "german", "de_squad", "0503"),
        unit("de-2", "german", "de_squad", "0705"),
        unit("us-2", "us", "us_squad", "0304"), unit("us-3", "us", "us_squad", "0304"),
        unit("de-3", "german", "de_squad", "0902"), unit("us-4", "us", "us_squad", "0903"),
        unit("de-4", "german", "de_squad", "0106"),
    ], objectives=["0503", "0705", "0304", "0903", "0106", "0201"],
        control={"german": ["0503", "0903"], "us": ["0705"]}))
    state = ctx.state
    state.units["de-2"].shaken = state.units["us-2"].shaken = True
    state.units["de-4"].alive = False
    expected = dict(state.control)
    expected[H("0304")] = "us"
    expected[H("0903")] = "us"
    assert _control_full(state) == expected
    rules.update_control(state)
    assert state.control == expected and list(state.control) == list(expected)


def test_second_shortcuts_agree_with_the_full_answers_in_random_games():
    """The step menu's memoized costs (MOV 1, MOV 1.2, D2), the places next to a hex (LDR 1),
    exposure in one pass (SPT 1–5) and objective control in one pass give the full answers at
    every decision of seeded random games on both bundled scenarios."""
    ruleset = LnL()
    seen: Counter[str] = Counter()

    def check(game, decision):
        state = game.state
        hexes = sorted({u.hex for u in state.alive()}, key=lambda h: (h.q, h.r))
        for h in hexes:
            for level in range(state.levels(h)):
                for scout in (False, True):
                    movers = [Unit("x", "us", "scout" if scout else "us_squad", h)]
                    full = tuple((n, 0, movement.step_cost(state, h, n, movers)) for n in state.map.neighbours(h))
                    if state.terrain(h) == BUILDING:
                        full += ((h, 1 - level, LEVEL_COST),)
                    assert movement._entries(state, h, level, scout) == full
                    # the step menu's keys of each entry and the columns it reads units in
                    listed, keyed, keys, columns = movement._entry_table(state, h, level, scout)
                    assert listed == full and keyed == tuple((n, lvl, c, (n.q, n.r, lvl)) for n, lvl, c in full)
                    assert keys == {(n.q, n.r, lvl) for n, lvl, _c in full} and columns == {n.q for n, _l, _c in full}
                    seen[f"steps {level}"] += 1
            near = tuple((n, level) for n in state.map.neighbours(h) for level in range(state.levels(n)))
            assert LnL._places_next_to(state, h) == near
        for u in state.alive():
            full = _exposed_full(state, u)
            assert exposed(state, u) == full
            seen[f"exposed {full}"] += 1
        control = _control_full(state)
        rules.update_control(state)
        assert state.control == control and list(state.control) == list(control)  # same keys, same order
        seen["control"] += 1

    for name in ruleset.scenario_names():
        for seed in range(2):
            game = Game.new(ruleset, name, seed=seed)
            game.play({s: RandomBot(bot_seed(seed, i)) for i, s in enumerate(ruleset.sides)}, before_ask=check)
    assert seen["exposed True"] and seen["exposed False"] and seen["steps 0"] and seen["steps 1"] and seen["control"], seen


def test_step_cost_memo_sees_a_change_to_the_map():
    """MOV 1 / D2: the memoized step costs follow the terrain and the walls when the map changes,
    and a hex made a building offers its other level from either (SET 2)."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0806")]))
    s = ctx.state
    here, there = H("0103"), H("0203")
    direction = here.direction_to(there)
    cost = dict((n, c) for n, _level, c in movement._entries(s, here, 0, False))
    assert cost[there] == 1  # open ground
    s.map.set_terrain(there, WOODS)
    assert dict((n, c) for n, _level, c in movement._entries(s, here, 0, False))[there] == 2
    assert dict((n, c) for n, _level, c in movement._entries(s, here, 0, True))[there] == 1  # MOV 1.2: a scout
    s.map.set_hexside(here, direction, WALL)
    assert dict((n, c) for n, _level, c in movement._entries(s, here, 0, False))[there] == 3  # D2: +1 for the wall
    assert movement._entries(s, here, 0, False)[-1][0] != here
    s.map.set_terrain(here, BUILDING)  # SET 2: a building's other level is a step of its own
    assert movement._entries(s, here, 0, False)[-1] == (here, 1, LEVEL_COST)
    assert movement._entries(s, here, 1, False)[-1] == (here, 0, LEVEL_COST)
    _listed, keyed, keys, columns = movement._entry_table(s, here, 0, False)  # the step menu's keys follow
    assert keyed[-1] == (here, 1, LEVEL_COST, (here.q, here.r, 1)) and (here.q, here.r, 1) in keys
    assert columns == {here.q, here.q + 1}  # (0103 is on the map's first column)


def test_fire_odds_shared_by_attacks_with_the_same_net_modifier():
    """FPR 1–6: attacks whose FP + DRM − terrain is the same have the same exact odds, which are
    those of the whole procedure (one_target) for each of them."""
    target = fire.Target("squad", 6, hero_possible=True)
    attacks = [fire.Attack(4, 0, 1, 1), fire.Attack(2, 1, 0, 1), fire.Attack(6, -1, 2, 1, jam=True)]
    for attack in attacks:
        assert fire.full_odds(attack, target) == odds.distribution(fire.one_target, attack, target)
    assert fire.full_odds(fire.Attack(4, 0, 1, 0), target) != fire.full_odds(attacks[0], target)  # leadership counts


# -- the third round (issue 9, session 20) -------------------------------------------------------
@pytest.mark.parametrize("lines_kept", [None, 7])
def test_los_memo_keyed_by_the_smoke_on_the_line_agrees_with_fresh_lines(monkeypatch, lines_kept):
    """LOS 1–3, D13, A34: the memo keeps a line's answer by the smoke in the hexes between on
    either tie-breaking line only; under many smoke layouts (placed in turn on a map with woods,
    brush, a building and a hill) every line agrees with a fresh walk — also when the memo of
    the hexes between is bounded to a few lines and starts again as it fills."""
    import random

    from wargamekit_lnl import los

    if lines_kept is not None:
        monkeypatch.setattr(los, "_BETWEEN_KEPT", lines_kept)

    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0806")],
                           terrain={"woods": ["0303", "0604"], "brush": ["0403", "0502", "0705"],
                                    "buildings": ["0505"], "hills": ["0206"]}))
    s = ctx.state
    rng = random.Random(20)
    hexes = sorted(s.map.hexes(), key=lambda h: (h.q, h.r))
    pairs = [(rng.choice(hexes), rng.choice(hexes)) for _ in range(300)]
    seen: Counter[str] = Counter()
    for _layout in range(12):
        s.smoke = {h: rng.choice((1, 2)) for h in rng.sample(hexes, rng.randint(0, 6))}
        for a, b in pairs:
            line = visible(s, a, b)
            assert (line is not None, line.hindering if line is not None else _line(s, a, b)[1]) == _line(s, a, b)
            seen["seen" if line is not None else "blocked"] += 1
            seen["smoke between" if any(h in s.smoke for h in sight(s, a, b).between) else "no smoke"] += 1
    assert len(seen) == 4, seen  # both answers, lines with and without smoke between


def test_vehicle_and_action_shortcuts_agree_with_the_full_answers_in_random_games():
    """VEH 4–5, FIR 1, SPT 7: ``has_vehicle_target`` is whether ``vehicle_targets`` finds any
    target; the fire and spot tests with the enemy by place and an exposure memo shared are the
    tests without them — at every decision of seeded random games on both scenarios."""
    from wargamekit_lnl import vehicles

    ruleset = LnL()
    seen: Counter[str] = Counter()

    def check(game, decision):
        state = game.state
        for side in SIDES:
            for v in state.alive(side):
                if v.vehicle:
                    full = any(vehicles.vehicle_targets(state, v))
                    assert vehicles.has_vehicle_target(state, v) == full
                    seen[f"vehicle target {full}"] += 1
            ready = ruleset.ready(state, side)
            for place in sorted({u.place for u in ready}, key=lambda p: (p[0].q, p[0].r, p[1])):
                group = [u for u in ready if u.place == place and not u.vehicle]
                if not group:
                    continue
                enemies = rules.enemies_by_place(state, rules.other(side))
                exposure: dict[str, bool] = {}
                shared = rules.has_target(state, group, [group], enemies, exposure)
                assert shared == rules.has_target(state, group, [group])
                spot = next(ruleset._spot_targets(state, group, enemies, exposure), None)
                assert spot == next(iter(_spot_targets(state, group)), None)
                seen[f"shared fire {shared}"] += 1
                seen[f"shared spot {spot is not None}"] += 1

    _play_every_scenario(ruleset, 5, check)
    for what in ("vehicle target", "shared fire", "shared spot"):
        assert len([k for k in seen if k.startswith(what)]) == 2, (what, seen)


def test_damage_check_odds_keyed_by_one_offset_are_the_whole_procedures():
    """FPR 4–6, D4, RAL 2.1: the damage checks' odds are memoized by the die's offset against
    morale (difference − leadership + hooks − morale) and the target's other fields; for targets
    of every kind, state, morale and hook, and attacks with and without leadership, they are the
    exact odds of the whole procedure (one_target, forced dice enumerated by odds.distribution),
    and different offsets differ. The rally chances, memoized, are the rally roll's."""
    seen = set()
    cases = [("squad", 5, False, False, True, 0), ("squad", 7, True, False, False, -1), ("half", 5, False, False, False, 1),
             ("leader", 6, False, True, False, 0), ("leader", 7, True, False, False, 0), ("team", 6, False, False, False, -1)]
    for i, case in enumerate(cases):
        target = fire.Target(*case)
        for attack in (fire.Attack(3, 0, 1, i % 2), fire.Attack(5, 1, 2, 2)):
            full = fire.full_odds(attack, target)
            assert full == odds.distribution(fire.one_target, attack, target)
            seen.add(tuple(sorted(full.items())))
    assert len(seen) > 8  # the memo is not one answer for all
    s = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")])).state
    u = s.units["us-1"]
    u.shaken = True
    assert rules.rally_odds(s, u) == odds.probability(rules.rally_roll, u.morale, rules.rally_drm(s, u))


# -- the fourth round of shortcuts (issue 9, session 21) --------------------------------------------
def _steps_full(state, movers, at, spent, total, mode, moved):
    """MOV 4–5, A17, AST 1.2–1.3, CRL 1, MEL 1.5 / MEL 4, IVV 1, SET 3 as ``movement.steps``
    wrote it before the movers' stacking was counted once: who stands at each candidate place
    read with ``state.at``, stacking tested on the whole list of friends and movers."""
    side = movers[0].side
    here, level = at
    left = total - spent
    if mode == "crawl" and moved > 0:
        return []
    candidates = [(n, 0, movement.step_cost(state, here, n, movers)) for n in state.map.neighbours(here)]
    if state.terrain(here) == BUILDING:
        candidates.append((here, 1 - level, LEVEL_COST))
    out = []
    for h, lvl, cost in candidates:
        there = state.at((h, lvl), rules.other(side))
        if any(v.vehicle for v in there):
            continue
        if there and (mode in ("assault", "crawl") or ((h, lvl) in state.melee_fought and (h, lvl) not in state.melee)
                      or not any(movement.can_attack(u) for u in movers)):
            continue
        if mode in ("assault", "crawl") and cost >= total:
            continue
        friends = [u for u in state.at((h, lvl), side) if all(u is not m for m in movers)]
        if not stacking_ok([*friends, *movers], state.wrecks.get(h, 0)):
            continue
        if cost <= left:
            out.append((h, lvl, cost))
        elif moved == 0 and spent == 0 and total >= 1 and mode != "crawl" and not there \
                and all(u.good_order for u in movers) and not movement._adjacent_enemy(state, h, side):
            out.append((h, lvl, left))
    return [(h, lvl, left) for h, lvl, _c in out] if mode == "crawl" else out


def _reach_full(state, start, chosen):
    """OPS 2.1, LDR 1 (A2) as ``reach_places`` wrote it before the leaders' places were read once."""
    reached, frontier = {start}, [start]
    while frontier:
        place = frontier.pop()
        if any(u.kind == "leader" and u.good_order and u.place == place for u in chosen):
            for n in state.map.neighbours(place[0]):
                for level in range(state.levels(n)):
                    if (n, level) not in reached:
                        reached.add((n, level))
                        frontier.append((n, level))
    return reached


def _placements_full(state, side, shooter):
    """SMC 2.1 as ``sniper.placements`` wrote it before the map's places were memoized: every
    hex of the map, every level, the stacking limits tested with ``state.at``."""
    out = []
    for h in state.map.hexes():
        if state.in_hex(h, rules.other(side)):
            continue
        for level in range(state.levels(h)):
            here = state.at((h, level), side)
            if single_men([*here, shooter]) <= 2 and squad_equivalents(here) <= 3:
                out.append((h, level))
    return out


def test_fourth_shortcuts_agree_with_the_full_answers_in_random_games():
    """The step menu with the movers' stacking counted once (MOV, SET 3), the leaders' reach read
    once (OPS 2.1, LDR 1) and a sniper's placements from the memoized places of the map (SMC 2.1)
    give the full answers at every decision of seeded random games on both bundled scenarios,
    for every ready group, every way of moving and several spent and total MP."""
    ruleset = LnL()
    seen: Counter[str] = Counter()

    def check(game, decision):
        state = game.state
        for side in SIDES:
            ready = [u for u in ruleset.ready(state, side) if u.kind != "sniper"]
            for place in sorted({u.place for u in ready}, key=lambda p: (p[0].q, p[0].r, p[1])):
                group = [u for u in ready if u.place == place]
                for mode in movement.modes_for(group):
                    for spent, total, moved in ((0, 4, 0), (0, 1, 0), (2, 4, 1), (0, 2, 0)):
                        full = _steps_full(state, group, place, spent, total, mode, moved)
                        assert movement.steps(state, group, place, spent, total, mode, moved) == full
                        seen[f"steps {bool(full)}"] += 1
                reach = ruleset.reach_places(state, side, place, ready)
                assert reach == _reach_full(state, place, ready)
                seen[f"reach {len(reach) > 1}"] += 1
            shooter = Unit("x-sniper", side, "sniper", state.map.hexes()[0])
            assert sniper.placements(state, side, shooter) == _placements_full(state, side, shooter)
            seen["placements"] += 1
        assert list(sniper.map_places(state)) == [(h, level) for h in state.map.hexes() for level in range(state.levels(h))]

    _play_every_scenario(ruleset, 3, check)
    for what in ("steps", "reach"):
        assert len([k for k in seen if k.startswith(what)]) == 2, (what, seen)
    assert seen["placements"], seen


def _exposed_full(state, u):
    """SPT 1–5 as ``exposed`` wrote it before round 8: the hex's markers, then adjacency."""
    if u.vehicle:
        return True
    if hex_exposed(state, u.place, u.side):
        return True
    return any(e.side != u.side and not e.shaken and e.hex.distance(u.hex) <= 1 for e in state.alive())


def test_eighth_shortcuts_agree_with_the_full_answers_in_random_games():
    """Round 8's rewritten scans — exposure (SPT 1–5), who stands at a place or in a hex, the
    enemy by place, the end test, the heroes counted (HER 3), who may fire (FIR 2), the vehicles
    next to a unit (IVV 1) and who is ready (OPS 1) — give the answers of the forms they replace
    at every decision of seeded random games on both bundled scenarios."""
    ruleset = LnL()
    seen: Counter[str] = Counter()

    def check(game, decision):
        state = game.state
        alive = [u for u in state.units.values() if u.alive]
        for u in state.units.values():
            if u.alive:
                full = _exposed_full(state, u)
                assert exposed(state, u) == full
                seen[f"exposed {full}"] += 1
            assert fire.can_fire(u) == (u.good_order and u.kind not in ("medic", "sniper", "vehicle"))
            for side in (None, *SIDES):
                at = [x for x in alive if x.place == u.place and (side is None or x.side == side)]
                assert state.at(u.place, side) == at
                assert state.in_hex(u.hex, side) == [x for x in alive if x.hex == u.hex and (side is None or x.side == side)]
                seen[f"at {bool(at)}"] += 1
            if not u.vehicle:
                assert vehicles.adjacent_vehicles(state, [u]) == \
                    [v for v in alive if v.vehicle and v.side != u.side and v.hex.distance(u.hex) <= 1]
        for side in SIDES:
            places = sorted({u.place for u in alive if u.side == side}, key=lambda p: (p[0].q, p[0].r, p[1]))
            assert rules.enemies_by_place(state, side) == \
                [(p, [u for u in alive if u.side == side and u.place == p]) for p in places]
            assert fire.heroes(state, side) == sum(1 for u in alive if u.side == side and u.kind == "hero")
            ready = [u for u in ruleset.ready(state, side) if u.kind != "sniper"]
            assert ready == [u for u in alive if u.side == side and u.kind != "sniper" and not u.acted
                             and u.place not in state.melee_fought]
        present = {u.side for u in alive}
        gone = [s for s in SIDES if s not in present]
        end = ruleset.sudden_death(state)
        assert (end is None) == (not gone)
        assert end is None or end.winner == rules.other(gone[0])

    _play_every_scenario(ruleset, 5, check)
    assert seen["exposed True"] and seen["exposed False"], seen
    assert seen["at True"] and seen["at False"], seen


def test_sudden_death_names_the_side_with_no_units_left():
    """The end test's early exit: either side gone, and both gone (the first side of SIDES named)."""
    ruleset = LnL()
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")]))
    s = ctx.state
    assert ruleset.sudden_death(s) is None
    for gone, winner in (("de-1", "us"), ("us-1", "german")):
        for u in s.units.values():
            u.alive = u.id != gone
        assert ruleset.sudden_death(s).winner == winner
    for u in s.units.values():
        u.alive = False
    assert ruleset.sudden_death(s).winner == rules.other(SIDES[0])


def test_exposure_by_adjacency_and_markers_in_cover():
    """SPT 3–4 in cover, where only they expose (the random games above seldom separate them):
    a Good Order enemy next door exposes, a shaken one or one two hexes off does not; a move
    marker exposes its own place only."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0303"), unit("us-2", "us", "us_squad", "0503"),
                            unit("de-1", "german", "de_squad", "0304")],
                           terrain={"woods": ["0303", "0304", "0503", "0504", "0505"]}))
    s = ctx.state
    us1, us2, de1 = s.units["us-1"], s.units["us-2"], s.units["de-1"]
    assert exposed(s, us1) and not exposed(s, us2)  # de-1 next to us-1 only
    for u in (us1, us2):
        assert exposed(s, u) == _exposed_full(s, u)
    de1.shaken = True
    assert not exposed(s, us1) and not _exposed_full(s, us1)
    de1.hex = H("0505")
    de1.shaken = False
    assert not exposed(s, us1)
    us2.markers.add("move")  # SPT 3: exposes us-2's own place, not de-1's two hexes off
    assert exposed(s, us2) and _exposed_full(s, us2)
    assert not exposed(s, de1) and not _exposed_full(s, de1)


def test_front_arc_memo_is_the_geometry_s_arc():
    """Round 9: ``fire.in_arc``, memoized by coordinates and facing, is the geometry's front arc
    (HWF 2) for every facing and every hex within four of the team, its own hex never in it;
    a team turned or moved is answered for where it faces now."""
    team = Unit("de-mg", "german", "de_mg_team", H("0505"))
    for facing in range(6):
        team.facing = facing
        for target in team.hex.disk(4):
            expected = target != team.hex and in_fire_arc(team.hex, HexsideFacing(facing), target, FRONT_ARC)
            assert fire.in_arc(team, target) == expected
    team.hex, team.facing = H("0303"), 0
    ahead = [h for h in team.hex.disk(3) if h != team.hex and in_fire_arc(team.hex, HexsideFacing(0), h, FRONT_ARC)]
    assert ahead and all(fire.in_arc(team, h) for h in ahead)
    team.facing = 3  # turned about: only the boundary lines stay in its (180-degree) arc
    behind = [fire.in_arc(team, h) for h in ahead]
    assert behind == [in_fire_arc(team.hex, HexsideFacing(3), h, FRONT_ARC) for h in ahead] and not all(behind)


def _built_map(s):
    """SET 2's map as ``initial_state`` built it before round 9: label by label, on a new map."""
    m = HexMap(s.width, s.height, TERRAIN, LAYOUT)
    for code, labels in ((BRUSH, s.terrain.brush), (WOODS, s.terrain.woods), (BUILDING, s.terrain.buildings)):
        for label in labels:
            m.set_terrain(H(label), code)
    for label in s.terrain.hills:
        m.elevation[m.offset(H(label))] = 1
    for wall in s.terrain.walls:
        m.set_hexside(H(wall.hex), wall.side, WALL)
    return m


def test_scenario_maps_built_once_are_new_maps_with_the_scenario_s_layers():
    """Round 9: each game's map is made from layers built once per terrain — equal to the map
    built label by label for every bundled scenario and a terrain of hills and walls, its own
    (a write to one game's map reaches neither the next game's nor the kept layers), with the
    ruleset's terrain table; another terrain gets its own layers."""
    ruleset = LnL()
    walled = ruleset.load_scenario(scenario([unit("us-1", "us", "us_squad", "0103"),
                                             unit("de-1", "german", "de_squad", "0503")],
                                            terrain={"woods": ["0303"], "hills": ["0404", "0405"],
                                                     "walls": [{"hex": "0504", "side": 2}]}))
    scenarios = [ruleset.load_scenario(ruleset.scenario_data(name)) for name in ruleset.scenario_names()] + [walled]
    for s in scenarios:
        first = ruleset.setup(s, {}).map
        built = _built_map(s)
        for layer in ("terrain", "elevation", "hexsides"):
            assert np.array_equal(getattr(first, layer), getattr(built, layer))
        assert first.table is TERRAIN and first.layout is LAYOUT
        first.terrain[:] = WOODS
        first.elevation[:] = 3
        first.set_hexside(first.hex_at(0, 0), 2, WALL)
        second = ruleset.setup(s, {}).map
        assert second is not first
        for layer in ("terrain", "elevation", "hexsides"):
            assert np.array_equal(getattr(second, layer), getattr(built, layer))
    assert ruleset.setup(walled, {}).elevation(H("0404")) == 1  # the hill, after a game wrote 3 there


def test_labels_checked_once_per_map_size_are_checked_on_another_size():
    """Round 9: a label found on a map of one size is not taken as on a smaller map."""
    ruleset = LnL()
    units = [unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0906")]
    ruleset.load_scenario(scenario(units, width=12, height=10))
    ruleset.load_scenario(scenario(units, width=12, height=10))
    with pytest.raises(ScenarioError, match=r"\$\.units\[1\]\.hex.*off the 8 x 6 map"):
        ruleset.load_scenario(scenario(units, width=8, height=6))
    with pytest.raises(ScenarioError, match=r"\$\.objectives\[0\].*off the 8 x 6 map"):
        ruleset.load_scenario(scenario(units[:1] + [unit("de-1", "german", "de_squad", "0503")], width=8, height=6,
                                       objectives=["0906"]))


def test_ninth_shortcuts_agree_with_the_full_answers_in_random_games():
    """Round 9's rewritten reads — the best leadership of a group (LDR 2.3–2.4: leaders only
    read), the team's front arc (HWF 2, memoized) — give the answers of the forms they replace
    at every decision of seeded random games on both bundled scenarios."""
    ruleset = LnL()
    seen: Counter[str] = Counter()

    def check(game, decision):
        state = game.state
        for u in (alive := state.alive()):
            here = state.at(u.place)
            best = fire.leadership_at(here)
            assert best == max((x.leadership for x in here), default=0)
            seen[f"leadership {best > 0}"] += 1
            if u.spec.arrow:
                for e in alive:
                    faced = e.hex != u.hex and in_fire_arc(u.hex, HexsideFacing(u.facing), e.hex, FRONT_ARC)
                    assert fire.in_arc(u, e.hex) == faced
                    seen[f"arc {faced}"] += 1

    _play_every_scenario(ruleset, 9, check)
    assert seen["leadership True"] and seen["leadership False"], seen
    assert seen["arc True"] and seen["arc False"], seen


def test_set_up_hexes_named_alike_are_one_object():
    """Round 9: at set-up a label gives one Hex object — units stacked in a hex, the objectives
    and the control table share it (dict and set keys then match by identity, not attrs'
    __eq__) — and the state is the one the labels describe."""
    ruleset = LnL()
    sc = ruleset.load_scenario(scenario([unit("us-1", "us", "us_squad", "0503"), unit("us-2", "us", "us_squad", "0503"),
                                         unit("de-1", "german", "de_squad", "0805")],
                                        objectives=["0503", "0805"], control={"german": ["0805"]}))
    s = ruleset.setup(sc, {})
    us1, us2, de1 = s.units["us-1"], s.units["us-2"], s.units["de-1"]
    assert us1.hex is us2.hex is s.objectives[0] and us1.hex == H("0503")
    assert de1.hex is s.objectives[1] and next(iter(s.control)) is de1.hex and s.control == {H("0805"): "german"}


def test_eleventh_shortcuts_agree_with_the_full_answers_in_random_games():
    """Round 11: the rally menu's helpers (RAL 2.2–2.5) read from the side's units by place, as
    the menu reads them once, give the answers of ``state.at``, a medic used or not; a sniper's
    line to a target (SMC 2.2), its LOS asked before exposure, is the line of the order before
    (exposure first) — at every decision of seeded random games on both bundled scenarios (every
    unit taken as the shooter, for its place and range)."""
    ruleset = LnL()
    seen: Counter[str] = Counter()

    def check(game, decision):
        state = game.state
        for shooter in state.alive():
            for u in state.alive():
                line = sniper._line_to(state, shooter, u)
                if u.vehicle or u.side == shooter.side or u.place in state.melee \
                        or shooter.hex.distance(u.hex) > shooter.spec.range or not exposed(state, u):
                    assert line is None
                else:
                    assert line == visible(state, shooter.hex, u.hex)
                seen[f"line {line is not None}"] += 1
        for side in SIDES:
            by_place: dict = {}
            for u in state.alive(side):
                by_place.setdefault(u.place, []).append(u)
            medics = {u.id for u in state.alive(side) if u.kind == "medic"}
            for u in state.alive(side):
                for used in (set(), medics):
                    helper = rules.may_rally(state, u, used, by_place)
                    assert helper == rules.may_rally(state, u, used)
                    seen[f"rally {helper is not None}"] += u.shaken

    _play_every_scenario(ruleset, 11, check)
    assert seen["rally True"] and seen["rally False"] and seen["line True"] and seen["line False"], seen


def _range_band_full(u, distance):
    """FIR 1.2 as ``fire.reach`` wrote it through the counters' properties."""
    rng = max([u.spec.range, *(w.spec.range for w in u.weapons if w.usable)])
    if distance <= rng:
        return 1
    if u.spec.boxed and distance <= 2 * rng:
        return 2
    return None


def _infantry_actions_full(ruleset, state, groups):
    """OPS 3's action menu of infantry out of melee as it was written before round 12: every test
    asked, the fire and spot tests without a shared enemy table or exposure memo."""
    units = [u for g in groups for u in g]
    out = ["move"]
    if all(fire.can_fire(u) for u in units) and rules.has_target(state, units, groups):
        out.append("fire")
    if all(u.good_order and u.spec.smoke > 0 for u in units) and len(groups) == 1:
        out.append("smoke")
    if all(u.good_order for u in units) and len(groups) == 1 and _spot_targets(state, units):
        out.append("spot")
    if len(groups) == 1 and any(vehicles.can_at_melee(u) for u in units) and vehicles.adjacent_vehicles(state, units):
        out.append("anti-tank")
    if len(groups) == 1 and ruleset.droppers(units):
        out.append("drop")
    return out


def test_twelfth_shortcuts_agree_with_the_full_answers_in_random_games():
    """Round 12: a firer's range band (FIR 1.2, ``fire.reach``, the counters read inline) is the
    band read through the properties, every weapon counted only while usable (jammed or stowed,
    SW 3.4, MOV 1.3, not); a place exposed by its terrain or markers (SPT 1–3,
    ``los.place_exposed``, which the spot test asks first) leaves no unit there unexposed; the
    action menu (OPS 3), which reads the enemy only for Good Order units, offers what every test
    asked gives, for each place's ready infantry and for two places' together — at every
    decision of seeded random games on both bundled scenarios, each weapon also tried jammed
    and stowed."""
    ruleset = LnL()
    seen: Counter[str] = Counter()

    def check(game, decision):
        state = game.state
        for side in SIDES:
            ready = [u for u in ruleset.ready(state, side) if u.kind != "sniper" and not u.vehicle]
            places = sorted({u.place for u in ready}, key=lambda p: (p[0].q, p[0].r, p[1]))
            groups = [[u for u in ready if u.place == p] for p in places if p not in state.melee]
            for chosen in [[g] for g in groups] + ([groups[:2]] if len(groups) > 1 else []):
                menu = ruleset.actions(state, chosen)
                assert menu == _infantry_actions_full(ruleset, state, chosen)
                seen[f"actions {'fire' in menu} {'spot' in menu} {all(u.good_order for g in chosen for u in g)}"] += 1
        for u in state.alive():
            for w in u.weapons:
                for jammed, stowed in ((False, False), (True, False), (False, True)):
                    was = w.jammed, w.stowed
                    w.jammed, w.stowed = jammed, stowed
                    for d in range(0, 2 * max([u.spec.range, *(x.spec.range for x in u.weapons)]) + 2):
                        band = fire.reach(u, d)
                        assert band == _range_band_full(u, d)
                        seen[f"band {band}"] += 1
                    w.jammed, w.stowed = was
            if los.place_exposed(state, u.place):
                assert exposed(state, u)
                seen["place exposed"] += 1
            else:
                seen[f"place not exposed, unit {exposed(state, u)}"] += 1

    _play_every_scenario(ruleset, 12, check)
    assert seen["band 1"] and seen["band 2"] and seen["band None"] and seen["place exposed"], seen
    assert seen["place not exposed, unit False"] and seen["place not exposed, unit True"], seen
    assert seen["actions True False True"] and seen["actions False True True"] and seen["actions False False False"], seen


def _units_legal_full(ruleset, state, side, start, values):
    """The units menu's constraint (OPS 2.1, LDR 1, VMV 1.4, FIR 2) as written before round 13:
    the leaders' reach asked of every choice."""
    chosen = [state.units[v] for v in values]
    if not any(u.place == start for u in chosen):
        return "activate at least one unit of the chosen hex"
    tanks = [u for u in chosen if u.vehicle]
    if len(tanks) > 1:
        return "a vehicle is activated on its own (FIR 2, OPS 3.2a)"
    if tanks and any(u.place != tanks[0].place for u in chosen):
        return "infantry moving with a vehicle is activated in its hex (VMV 1.4)"
    allowed = ruleset.reach_places(state, side, start, chosen)
    if any(u.place not in allowed for u in chosen):
        return "units of other hexes join only through an activated Good Order leader (LDR 1, OPS 2.1)"
    return None


def test_units_menu_constraint_agrees_with_the_leaders_reach_asked_of_every_choice():
    """Round 13: the units menu's constraint (OPS 2.1, LDR 1) asks the leaders' reach only when a
    chosen unit stands outside the activated place — every subset of up to three of its options
    gets the answer of the constraint that always asked it, at every units menu of seeded random
    games on both bundled scenarios."""
    ruleset = LnL()
    seen: Counter[str] = Counter()

    def check(game, decision):
        if decision.kind != kinds.UNITS:
            return
        state = game.state
        start = (H(decision.context["hex"]), decision.context["level"])
        values = [o.value for o in decision.options]
        for size in (1, 2, 3):
            for chosen in itertools.combinations(values, size):
                answer = decision.constraint(chosen)
                assert answer == _units_legal_full(ruleset, state, decision.side, start, chosen)
                away = any(state.units[v].place != start for v in chosen)
                seen[f"away {away} legal {answer is None}"] += 1

    for seed in range(4):
        _play_every_scenario(ruleset, seed, check)
    assert seen["away True legal True"] and seen["away True legal False"] and seen["away False legal True"], seen


# -- round 16 (issue 9, session 31): what a game of a new seed costs ------------------------------
def test_smoked_classes_kept_by_the_smoke_on_the_line_answer_as_fresh_walks():
    """LOS 1–3, D13: a line walked for the memo reads the map's classes with the smoke on the
    line merged, kept read-only by that smoke (the core keeps such an array's table by
    identity): smoke off the line reads the smokeless classes, each layout its own, one met
    again its kept array — and the terrain layer written directly (no setter, no invalidation)
    is read at the next walk. Every answer is a fresh walk's (:func:`los.sight`)."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0806")],
                           terrain={"woods": ["0604"], "brush": ["0403"]}))
    s = ctx.state
    a, b = H("0103"), H("0703")
    between = H("0303")  # on the line a–b (0403's brush too), off the line 0806–0604
    kept = los._held(s.map)[1].setdefault("classes", {})

    def walk(a, b):
        line = visible(s, a, b)
        fresh = sight(s, a, b)
        assert (line is not None, line.hindering if line else None) == \
            (fresh.clear and fresh.hindering < HINDRANCES_THAT_BLOCK, fresh.hindering if line else None)
        return line

    assert walk(a, b).hindering == 1
    smokeless = kept[frozenset()]
    assert not smokeless.flags.writeable
    s.smoke[H("0806")] = 1  # off every line asked below: the smokeless classes again
    assert walk(H("0806"), H("0103")) is not None and set(kept) == {frozenset()}
    s.smoke[between] = 1
    assert walk(a, b).hindering == 2  # D13: the smoke hinders
    smoked = kept[frozenset({between})]
    assert smoked[s.map.offset(between)] == 1 and smokeless[s.map.offset(between)] == 0
    del s.smoke[between]
    assert walk(H("0203"), b).hindering == 1 and kept[frozenset()] is smokeless  # met again: kept
    s.map.terrain[s.map.offset(between)] = WOODS  # written directly: new contents, new memos
    assert walk(a, b) is None  # LOS 1: the woods block
    s.smoke[between] = 1
    assert walk(H("0203"), H("0603")) is None


def test_fire_odds_summed_in_integer_weights_are_the_fraction_sums_in_order():
    """FPR 1–6: a new attack's odds are composed as integer weights over one denominator, from
    damage checks enumerated on plain faces: for targets of every kind and state and a range of
    net modifiers and offsets, they are the Fraction sums of the checks' lazy enumerations,
    item for item in the same order (an option's label lists them in it)."""
    from fractions import Fraction

    def composed(net, shift, target):
        out = {}
        for diff, p in fire._difference_odds(net).items():
            if diff <= 0:
                out[(fire.NO_EFFECT, False)] = out.get((fire.NO_EFFECT, False), Fraction(0)) + p
                continue
            for key, q in odds.distribution(fire.damage_check, diff - shift, 0, target).items():
                out[key] = out.get(key, Fraction(0)) + p * q
        return out

    seen = set()
    for kind, shaken, wounded, hero in itertools.product(("squad", "half", "leader"), *[(False, True)] * 3):
        target = fire.Target(kind, 0, shaken, wounded, hero)
        for net, shift in itertools.product(range(-7, 10, 4), range(-8, 9, 4)):
            full = fire._full_odds_of(net, shift, target)
            assert list(full.items()) == list(composed(net, shift, target).items())
            seen.add(tuple(full.items()))
    assert len(seen) > 50


# -- round 17 (session 32): what a new seed still meets ---------------------------------------------
def test_snipe_odds_on_plain_faces_are_the_lazy_enumeration_in_order():
    """SMC 2.3, D8: a sniper shot's odds, enumerated on plain faces, are those of the lazy
    enumeration item for item in the same order (the shot's option label lists them in it), for
    targets of every kind and state, every DRM the table can meet and both thresholds moved."""
    seen = set()
    for kind, shaken, wounded in itertools.product(("squad", "half", "team", "leader"), (False, True), (False, True)):
        target = fire.Target(kind, 6, shaken, wounded, kind in ("squad", "half"))
        for drm, casualty, shaken_at in itertools.product(range(-1, 9), (3, 4), (6, 7)):
            shot = sniper.SniperShot(drm, casualty, shaken_at, target)
            plain = sniper.snipe_odds(shot)
            assert list(plain.items()) == list(odds.distribution(sniper.snipe, shot).items())
            seen.add(tuple(plain))
    assert len(seen) > 5  # no effect only, casualties, shaken results: the table's outcomes vary


def test_entry_side_by_the_ends_difference_is_the_line_s_last_step():
    """D2: the hexside a line enters the target hex by, memoized by the ends' difference alone,
    is the side towards the line's last hex before the target, for every pair of hexes of a map
    (lines along hexsides among them) — wherever on the map the pair lies."""
    m = HexMap(12, 10, TERRAIN, LAYOUT)
    hexes = m.hexes()
    sides = Counter()
    for origin in hexes:
        for target in hexes:
            if target != origin:
                side = fire._entry_side(target.q - origin.q, target.r - origin.r)
                assert side == target.direction_to(hex_line(origin, target)[-2])
                sides[side] += 1
    assert len(sides) == 6


def test_smoke_near_the_line_holds_all_smoke_between():
    """LOS 2, D13, A34: the coordinate test in :func:`visible` that spares most smoky lines the
    look-up of their hexes between keeps every hex between on either tie-breaking line: with
    smoke on every hex of a map, each line (from every third hex to every hex) hinders as a
    fresh walk's (a hex between left out of the memo's key would be walked without its smoke)."""
    m = HexMap(12, 10, TERRAIN, LAYOUT)
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0806")]))
    s = ctx.state
    s.map = m
    hexes = m.hexes()
    s.smoke = dict.fromkeys(hexes, 1)
    seen: Counter[str] = Counter()
    for a, b in itertools.product(hexes[::3], hexes):
        line = visible(s, a, b)
        plain = _line(s, a, b)
        assert (line is not None, line.hindering if line is not None else plain[1]) == plain
        seen["seen" if line is not None else "blocked"] += 1
    assert seen["seen"] and seen["blocked"], seen


def test_visible_with_its_look_ups_written_out_is_a_fresh_walk_in_random_games():
    """Round lnl23: :func:`visible` (the steady block's memos read inline, the smoke near the
    line tested inline, the line looked up once) answers as LOS 1–3 worked out afresh, in a
    ``steady_map`` block and out of one, for every pair of the live units' hexes, at every fourth
    decision of seeded random games on both scenarios — smoke on the map or not, on the line or
    not."""
    seen: Counter[str] = Counter()

    def check(game, decision):
        if len(game.choices) % 4:
            return
        state = game.state
        hexes = sorted({u.hex for u in state.alive()}, key=lambda h: (h.q, h.r))
        pairs = [(a, b) for a in hexes for b in hexes]
        with los.steady_map(state.map):
            inside = [visible(state, a, b) for a, b in pairs]
        for (a, b), line in zip(pairs, inside, strict=True):
            plain = _line(state, a, b)
            assert (line is not None, line.hindering if line is not None else plain[1]) == plain
            assert visible(state, a, b) == line
            seen["seen" if line is not None else "blocked"] += 1
            if a != b and state.smoke:
                on_line = any(h in state.smoke for h in sight(state, a, b).between)
                seen["smoke on the line" if on_line else "smoke off the line"] += 1
            else:
                seen["no smoke"] += 1

    for seed in range(2):
        _play_every_scenario(LnL(), seed, check)
    assert len(seen) == 5, seen


def test_relief_kept_by_the_map_contents_answers_as_fresh_walks():
    """LOS 3.3: the walks of :func:`visible` read whether the map has hills, and the crest above
    each height, from a memo of the map's contents: with hills of two heights every line is a
    fresh walk's; the elevation written directly — the hills levelled, then one raised again —
    is read at the next query, each answer again a fresh walk's (:func:`los.sight`)."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0806")],
                           terrain={"woods": ["0303", "0604"], "brush": ["0403"], "hills": ["0404", "0405", "0504"]}))
    s = ctx.state
    s.map.elevation[s.map.offset(H("0404"))] = 2
    hexes = s.map.hexes()

    def every_line():
        answers = Counter()
        for a, b in itertools.product(hexes[::2], hexes):
            line = visible(s, a, b)
            assert (line is not None, line.hindering if line is not None else None) == \
                (_line(s, a, b)[0], _line(s, a, b)[1] if line is not None else None)
            answers[line is not None] += 1
        return answers

    hilly = every_line()
    assert los._held(s.map)[1]["relief"]["hills"] is True
    s.map.elevation[:] = 0  # written directly: levelled
    level = every_line()
    assert los._held(s.map)[1]["relief"] == {"hills": False} and level != hilly
    s.map.elevation[s.map.offset(H("0404"))] = 1  # one hill again
    assert every_line() not in (level, hilly)


def _waiting_full(state, side):
    """OPF 1c as the poll read it before round 19: each place's units of ``side`` that may fire
    small arms, waiting and out of melee, and the waiting vehicles, through the units' properties."""
    groups, waiting = {}, []
    for u in state.alive(side):
        if fire.can_fire(u):
            if not u.markers & {"move", "fire", "crawl", "stealth"} and u.place not in state.melee:
                groups.setdefault((u.hex.q, u.hex.r, u.level), []).append(u.id)
        elif u.vehicle and u.good_order and not u.markers & {"move", "fire"}:
            waiting.append(u.id)
    return groups, waiting


def test_waiting_to_fire_and_the_mov_6_test_in_one_pass_agree_with_the_plain_rules_in_random_games():
    """Round 19: the pass that finds a side's units waiting to opportunity-fire (OPF 1c) answers
    MOV 6's test too (an enemy at the place entered: ``None``, no poll) — at every decision of
    seeded random games on both bundled scenarios, for each side and every place of a live unit
    and next to one: ``None`` exactly when ``state.at`` finds a unit of the side there, else the
    waiting groups and vehicles of the plain form; with no place, always the plain form."""
    from wargamekit_lnl.ruleset import _waiting_to_fire

    seen: Counter[str] = Counter()

    def found(state, side, place=None):
        got = _waiting_to_fire(state, side, place)
        return None if got is None else ({k: [u.id for u in v] for k, v in got[0].items()}, [u.id for u in got[1]])

    def check(game, decision):
        state = game.state
        places = {u.place for u in state.alive()}
        places |= {(n, 0) for h, _level in list(places) for n in state.map.neighbours(h)}
        for side in SIDES:
            full = _waiting_full(state, side)
            assert found(state, side) == full
            for place in places:
                there = bool(state.at(place, side))
                assert found(state, side, place) == (None if there else full)
                seen[f"enemy there {there}"] += 1
            seen[f"groups {bool(full[0])}"] += 1
            seen[f"vehicles {bool(full[1])}"] += 1

    _play_every_scenario(LnL(), 19, check)
    assert all(seen[f"{what} {b}"] for what in ("enemy there", "groups", "vehicles") for b in (True, False)), seen
    # No melee hex outlives its impulse in random games: a set position with one, and the kinds
    # that never fire small arms, shaken units, markers, two levels and vehicles.
    ctx = context(scenario([unit("de-1", "german", "de_squad", "0303"), unit("de-2", "german", "de_squad", "0503"),
                            unit("de-3", "german", "medic", "0503"), unit("de-5", "german", "leader_1", "0503"), unit("de-6", "german", "de_mg_team", "0204"),
                            unit("de-7", "german", "pz4", "0805"), unit("de-8", "german", "pz4", "0806"),
                            unit("de-9", "german", "de_half", "0806"), unit("de-10", "german", "de_squad", "0503"),
                            unit("us-1", "us", "us_squad", "0303")], terrain={"buildings": ["0503"]}))
    state = ctx.state
    state.units["de-4"] = Unit("de-4", "german", "sniper", H("0604"))  # (placed in play, SMC 2.1)
    state.melee.add((H("0303"), 0))
    state.units["de-5"].level = 1
    state.units["de-6"].shaken = True
    state.units["de-8"].markers.add("move")
    state.units["de-9"].markers.add("ops")  # OPF 1d: ops-complete units may fire
    state.units["de-10"].markers.add("crawl")
    expected = ({(H("0503").q, H("0503").r, 0): ["de-2"], (H("0503").q, H("0503").r, 1): ["de-5"],
                 (H("0806").q, H("0806").r, 0): ["de-9"]}, ["de-7"])
    assert _waiting_full(state, "german") == expected == found(state, "german") == found(state, "german", (H("0303"), 1))
    assert found(state, "german", (H("0303"), 0)) is None and found(state, "german", (H("0503"), 1)) is None
    state.units["de-1"].alive = False
    assert found(state, "german", (H("0303"), 0)) == expected


def test_fire_menus_labels_planned_when_read_are_the_attacks_planned_when_asked():
    """Round 19: the fire (FIR 1, FPR) and assault fire (AST 2.3) menus plan each target's attacks
    when its label is read, not when the menu is asked: read while the decision is pending, every
    label is the one of the attacks planned plainly for each group of the firers (``fire_odds``:
    the firers grouped by place, in place order) — at every such decision of seeded random games
    on both bundled scenarios, more than one group and more than one firer among them."""
    seen: Counter[str] = Counter()

    def check(game, decision):
        if decision.kind not in (kinds.FIRE_TARGET, kinds.ASSAULT_FIRE):
            return
        state = game.state
        units = [state.units[i] for i in decision.context["units"]]
        places = sorted({u.place for u in units}, key=lambda p: (p[0].q, p[0].r, p[1]))
        groups = [[u for u in units if u.place == p] for p in places]
        for option in decision.options:
            if option.value is None:
                assert option.label == "hold fire"
                continue
            rows = [rules.fire_odds(state, g, option.value) for g in groups]
            assert option.label == f"{rules.where(option.value)}: " + " | ".join(rules.odds_text(r) for r in rows)
            seen[decision.kind] += 1
            seen[f"groups {len(groups) > 1}"] += 1
            seen[f"firers {len(units) > 1}"] += 1

    for seed in range(12):
        _play_every_scenario(LnL(), seed, check)
    assert seen[kinds.FIRE_TARGET] and seen[kinds.ASSAULT_FIRE], seen
    assert seen["groups False"] and seen["firers True"] and seen["firers False"], seen
    # Groups of two places (a leader's chain, LDR 1) are seldom activated to fire by random bots:
    # a set position, each group's odds after the place.
    from wargamekit_lnl.ruleset import _fire_label

    ctx = context(scenario([unit("us-1", "us", "us_squad", "0303"), unit("us-2", "us", "leader_1", "0303"),
                            unit("us-3", "us", "us_half", "0304"), unit("de-1", "german", "de_squad", "0505"),
                            unit("de-2", "german", "de_half", "0505")]))
    state = ctx.state
    groups = [[state.units["us-1"], state.units["us-2"]], [state.units["us-3"]]]
    state.units["us-3"].markers.add("ops")  # (an ordinary attack, not opportunity fire's −1, OPF 1d)
    target = state.units["de-1"].place
    rows = [rules.odds_text(rules.fire_odds(state, g, target)) for g in groups]
    assert rows[0] != rows[1]
    assert _fire_label(state, groups, target) == f"{rules.where(target)}: {rows[0]} | {rows[1]}"


def test_sniper_menus_shots_made_when_read_are_the_plain_shots():
    """Round 19: the sniper's target menu (SMC 2.2–2.3) finds its targets' lines when asked and
    makes each target's shot when its label is read (or it is chosen): read while the decision is
    pending, the targets are the exposed enemy infantry in range and LOS out of melee, and every
    label is the one of the shot worked out plainly (the terrain DRM of the target's place, +1 per
    hindering hex between, D3, and the target's damage-check view) — at every such decision of
    seeded random games on both bundled scenarios."""
    from wargamekit_lnl.data import HINDRANCE_DRM

    seen: Counter[str] = Counter()

    def check(game, decision):
        if decision.kind != kinds.SNIPER_TARGET:
            return
        state = game.state
        shooter, table = state.units[decision.context["unit"]], state.sniper_table
        victims = [u for u in state.alive() if not u.vehicle and u.side != shooter.side and u.place not in state.melee
                   and shooter.hex.distance(u.hex) <= shooter.spec.range
                   and visible(state, shooter.hex, u.hex) is not None and exposed(state, u)]
        assert [o.value for o in decision.options if o.value is not None] == [u.id for u in victims]
        for option, u in zip([o for o in decision.options if o.value is not None], victims, strict=True):
            drm = fire.terrain_drm(state, shooter.hex, u.place) + HINDRANCE_DRM * visible(state, shooter.hex, u.hex).hindering
            dist = sniper.snipe_odds(sniper.SniperShot(drm, table.casualty, table.shaken, fire.Target.of(state, u)))
            bad = ", ".join(f"{r} {float(p):.0%}" for r, p in dist.items() if r != fire.NO_EFFECT and p)
            assert option.label == f"{u.id} at {rules.where(u.place)}: {bad or 'no effect'}"
            seen[f"hindered {drm > fire.terrain_drm(state, shooter.hex, u.place)}"] += 1

    for seed in range(4):
        _play_every_scenario(LnL(), seed, check)
    assert seen["hindered True"] and seen["hindered False"], seen
    # The chosen target's shot is its own, its label read or not (a set game, as test_sniper's
    # SMC 2.1 test, us-2 in woods: DRM +2): every label read while pending, then us-1 chosen:
    # 1 + 2 + 0 = 3 ≤ 4 reduces it (us-2's shot, 5, would only shake it).
    from wargamekit import ScriptedDice
    from wargamekit_lnl.testing import answer

    for read in (True, False):
        game = Game.new(LnL(), scenario([unit("us-1", "us", "us_squad", "0103"), unit("us-2", "us", "us_squad", "0403"),
                                         unit("de-1", "german", "de_squad", "0805")], snipers={"german": 1},
                                        terrain={"woods": ["0403"]}), dice=ScriptedDice([4, 3, 1, 2]))
        game.answer(next(i for i, o in enumerate(game.pending.options) if not o.data.get("pass")))
        answer(game, column="04")
        answer(game, hex="0404", level=0)
        d = game.pending
        assert d.kind == kinds.SNIPER_TARGET and [o.value for o in d.options] == [None, "us-1", "us-2"]
        if read:
            assert [o.label.split(":")[0] for o in d.options] == ["hold fire", "us-1 at 0103", "us-2 at 0403"]
        answer(game, unit="us-1")
        assert not game.state.units["us-1"].alive and "us-1/half" in game.state.units  # (reduced, not shaken)


def test_sniper_has_target_written_out_is_the_plain_rule_from_every_hex_of_random_games():
    """``sniper.has_target`` (round lnl20: the vehicle data and Hex.distance read inline) against
    SMC 2.2 written plainly, for a sniper of each side set in every hex of the map, at every
    third decision of seeded random games on both scenarios (enemies at every distance, in and
    out of the sniper's range, in melee hexes, vehicles)."""
    seen: Counter[str] = Counter()

    def check(game, decision):
        if len(game.choices) % 3:
            return
        state = game.state
        table = state.sniper_table
        for side in SIDES:
            for h in state.map.hexes():
                shooter = Unit(f"{side}-probe", side, "sniper", h)
                rng = shooter.spec.range
                plain = [u for u in state.alive() if u.side != side and not u.vehicle and u.place not in state.melee
                         and h.distance(u.hex) <= rng and visible(state, h, u.hex) is not None and exposed(state, u)]
                assert sniper.has_target(state, shooter, table.casualty, table.shaken) == bool(plain)
                if plain:
                    seen[f"target at the range's edge {all(h.distance(u.hex) == rng for u in plain)}"] += 1
                else:
                    seen["no target"] += 1
                    # (a target but for its range, or its melee: what the written-out tests drop)
                    seen["out of range or in melee"] += any(
                        u.side != side and not u.vehicle and visible(state, h, u.hex) is not None and exposed(state, u)
                        for u in state.alive())

    for seed in range(2):
        _play_every_scenario(LnL(), seed, check)
    assert seen["target at the range's edge True"] and seen["target at the range's edge False"], seen
    assert seen["no target"] and seen["out of range or in melee"], seen
    # A set position: the one enemy in sight locked in a melee (FIR 1.3), then out of it.
    state = context(scenario([unit("us-1", "us", "us_squad", "0503"), unit("de-1", "german", "de_squad", "0303")])).state
    shooter, table = Unit("german-probe", "german", "sniper", H("0103")), state.sniper_table
    state.melee.add(state.units["us-1"].place)
    assert not sniper.has_target(state, shooter, table.casualty, table.shaken)
    state.melee.clear()
    assert sniper.has_target(state, shooter, table.casualty, table.shaken)


def _spot_targets_unmarked(state, units):
    """SPT 7.1–7.2 written plainly, the units' markers not read (the caller's test): the places
    of enemy units not exposed that the units have a spotting DRM for (a LOS)."""
    enemy = rules.other(units[0].side)
    places = sorted({u.place for u in state.alive(enemy) if not exposed(state, u)}, key=lambda p: (p[0].q, p[0].r, p[1]))
    return [p for p in places if rules.spot_drm(state, units, p) is not None]


def test_fire_and_spot_in_one_pass_is_the_two_plain_tests_in_random_games():
    """Round lnl21: ``rules.fire_and_spot`` (the action menu's fire and spot tests of one group
    in one pass) against FIR 1 (every exposed enemy place out of melee the group can plan fire
    at) and SPT 7.1–7.2 (every place with an enemy not exposed in LOS) written plainly, for the
    units of every place of each side as one group, each test asked or not, at every second
    decision of seeded random games on both scenarios."""
    seen: Counter[str] = Counter()

    def check(game, decision):
        if len(game.choices) % 2:
            return
        state = game.state
        for side in SIDES:
            enemies = rules.enemies_by_place(state, rules.other(side))
            by_place: dict = {}
            for u in state.alive(side):
                if not u.vehicle:
                    by_place.setdefault(u.place, []).append(u)
            for group in by_place.values():
                fire_plain = bool(_fire_targets(state, group))
                spot_plain = bool(_spot_targets_unmarked(state, group))
                for fire_asked, spot_asked in itertools.product((True, False), repeat=2):
                    got = rules.fire_and_spot(state, group, enemies, {}, fire_asked, spot_asked)
                    assert got == (fire_asked and fire_plain, spot_asked and spot_plain)
                seen[f"fire {fire_plain} spot {spot_plain}"] += 1
                seen["fire at an open place only"] += fire_plain and all(
                    los.place_exposed(state, p) for p in _fire_targets(state, group))

    for seed in range(3):
        _play_every_scenario(LnL(), seed, check)
    for key in ("fire True spot True", "fire True spot False", "fire False spot True", "fire False spot False",
                "fire at an open place only"):
        assert seen[key], seen
    # A set position (random games met no enemy place in melee): the one target locked in a
    # melee (FIR 1.3; a melee place is exposed, so no spot target either), then out of it.
    state = context(scenario([unit("us-1", "us", "us_squad", "0503"), unit("de-1", "german", "de_squad", "0303")])).state
    group, place = [state.units["de-1"]], state.units["us-1"].place
    enemies = rules.enemies_by_place(state, "us")
    assert _fire_targets(state, group) == [place]
    state.melee.add(place)
    assert rules.fire_and_spot(state, group, enemies, {}, True, True) == (False, False)
    state.melee.clear()
    assert rules.fire_and_spot(state, group, enemies, {}, True, True) == (True, False)


# -- round lnl22 (issue 9, session 36) -------------------------------------------------------------
def _in_reach_plain(state, firers, place):
    """FIR 1.1–1.2 and HWF 2 written plainly: every team's front arc holds the place (the
    geometry's arc), every firer has it in range (``fire.reach`` at ``Hex.distance``), and the
    LOS from the first firer, else ``None``."""
    target = place[0]
    for u in firers:
        if u.spec.arrow and (target == u.hex or not in_fire_arc(u.hex, HexsideFacing(u.facing), target, FRONT_ARC)):
            return None
    if any(fire.reach(u, u.hex.distance(target)) is None for u in firers):
        return None
    return visible(state, firers[0].hex, target)


def test_open_ground_memo_and_in_reach_written_out_are_the_plain_rules_in_random_games():
    """Round lnl22: ``los.open_ground`` (the map's open hexes, kept by the map's memo) is SPT 1
    read from each hex's terrain; ``place_exposed`` given it answers as without it, for every hex
    at both levels; and ``fire.in_reach`` (one loop, the arc and distance written out) is FIR 1
    written plainly, for every place's units of each side, and each side's units together, at
    every enemy place and every hex of the map, every third decision of seeded random games on
    both scenarios."""
    seen: Counter[str] = Counter()

    def check(game, decision):
        if len(game.choices) % 3:
            return
        state = game.state
        hexes = state.map.hexes()
        open_hexes = los.open_ground(state)
        assert open_hexes == {(h.q, h.r) for h in hexes if rules.effects(state.terrain(h)).open}
        for h in hexes:
            for level in (0, 1):
                exposed_plain = los.place_exposed(state, (h, level))
                assert los.place_exposed(state, (h, level), open_hexes) == exposed_plain
                seen[f"exposed {exposed_plain}"] += 1
        for side in SIDES:
            by_place: dict = {}
            for u in state.alive(side):
                if not u.vehicle:
                    by_place.setdefault(u.place, []).append(u)
            groups = [*by_place.values(), [u for g in by_place.values() for u in g]]
            places = {u.place for u in state.alive(rules.other(side))} | {(h, 0) for h in hexes[::7]}
            for group in groups:
                if not group:
                    continue
                for p in places:
                    plain = _in_reach_plain(state, group, p)
                    assert fire.in_reach(state, group, p) == plain
                    seen["in reach" if plain is not None else "out of reach"] += 1
                    seen["a team out of arc"] += any(
                        u.spec.arrow and not fire.in_arc(u, p[0]) for u in group)

    for seed in range(2):
        _play_every_scenario(LnL(), seed, check)
    for key in ("exposed True", "exposed False", "in reach", "out of reach", "a team out of arc"):
        assert seen[key], seen
