"""The speed shortcuts (issue 9) answer exactly what the plain rule computations answer: checked at
every decision of seeded random games on both bundled scenarios, and on hand-built positions."""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from attrs import astuple

from wargamekit import Data, Game, RandomBot
from wargamekit._fastpickle import dumps_sharing, loads_sharing
from wargamekit.context import RulesContext
from wargamekit.decisions import LazyOptions, freeze_data
from wargamekit.geometry import Hex
from wargamekit.interrupts import InterruptStack
from wargamekit.players import bot_seed
from wargamekit.state_rows import HexRows
from wargamekit_aig import Aig, kinds
from wargamekit_aig import activation as activation_module
from wargamekit_aig import command as command_module
from wargamekit_aig import missile as missile_module
from wargamekit_aig import orders as orders_module
from wargamekit_aig import scenario as scenario_module
from wargamekit_aig import state as state_module
from wargamekit_aig.command import (
    _blocked,
    _leader_blocked,
    command_cells,
    command_distances,
    in_melee,
    in_range,
    leader_can_move,
    leader_destinations,
    leader_in_range,
    leader_ma,
    leader_moves,
)
from wargamekit_aig.orders import front_steps
from wargamekit_aig.scenario import hex_label, parse_hex
from wargamekit_aig.state import Unit, position_id, position_key


def _positions(scenario: str, seed: int, decisions: int, every: int = 3):
    """The game state at every ``every``-th of the first ``decisions`` decisions of a random-bot game."""
    game = Game.new(Aig(), scenario, seed=seed)
    bots = {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(Aig.sides)}
    for i in range(decisions):
        decision = game.pending
        if decision is None:
            return
        if i % every == 0:
            yield game.state
        game.answer(bots[decision.side].choose(decision, None))


def _fresh_command_range(state, leader, reach: int) -> dict[Hex, float]:
    """§4.2.2 by the map's own search, remembered nowhere."""
    return state.map.reachable(leader.hex, reach, "command", blocked=_blocked(state, leader.side) - {leader.hex})


@pytest.mark.parametrize(("scenario", "seed"), [("training", 3), ("battle", 5)])
def test_who_stands_in_a_command_range_is_who_the_fresh_search_reaches(scenario, seed):
    """The orders ask who stands in range by bits (``command_bits`` and ``command_bit_of``, no
    set of coordinates made): for every unit and leader, the same answer as membership in the
    map's own search run afresh, at every third decision, for each leader's range and twice it."""
    checked = 0
    for state in _positions(scenario, seed, 300):
        for ld in state.live_leaders():
            near, far = (_fresh_command_range(state, ld, reach) for reach in (ld.range, 2 * ld.range))
            for u in state.live_units():
                assert in_range(state, ld, u) == (u.hex in near)
                assert in_range(state, ld, u, twice=True) == (u.hex in far)
                checked += u.hex in near
            for other in state.live_leaders():
                assert leader_in_range(state, ld, other) == (other.hex in near)
    assert checked > 100


def test_the_command_bits_are_those_of_the_map_asked_when_maps_alternate():
    """``_command_graph`` answers the last map's graph without its table look-up: the bit of
    each hex (``command_bit_of``, read at every order) is that of its index on the map asked,
    ``1 << i`` of ``m.hexes()``, and who stands in range is the map's own search, at every
    third decision of two games on different maps asked in turn (a shortcut that answered the
    other map's graph would fail here)."""
    checked = 0
    for pair in zip(_positions("training", 3, 150), _positions("battle", 5, 150), strict=False):
        assert pair[0].map is not pair[1].map
        for state in pair:
            m = state.map
            assert command_module.command_bit_of(m) == {(h.q, h.r): 1 << i for i, h in enumerate(m.hexes())}
            ld = max(state.live_leaders(), key=lambda x: x.range)
            near = _fresh_command_range(state, ld, ld.range)
            for u in state.live_units():
                assert in_range(state, ld, u) == (u.hex in near)
            checked += 1
    assert checked > 60


@pytest.mark.parametrize(("scenario", "seed"), [("training", 3), ("battle", 5)])
def test_remembered_searches_equal_fresh_ones(scenario, seed):
    """§4.2.2 command range (and its hexes' coordinates, ``command_cells``, counted in hexes as
    bits of map indices by ``command._count_range``, the blocked hexes' bits kept by side and
    position, the question keyed by those within the unblocked range) and §4.2.5 leader movement
    read from the per-map cache are the map's own search run afresh, at every third decision (the
    cache never answers for a changed position, and the count finds the search's hexes)."""
    checked = 0
    for state in _positions(scenario, seed, 300):
        for ld in state.live_leaders():
            for reach in (ld.range, 2 * ld.range):
                fresh = _fresh_command_range(state, ld, reach)
                assert dict(command_distances(state, ld, reach)) == fresh
                assert command_cells(state, ld, reach) == {(h.q, h.r) for h in fresh}
            moves = state.map.reachable(ld.hex, leader_ma(state, ld), "leader", blocked=_leader_blocked(state, ld))
            assert leader_destinations(state, ld) == moves
            for mp in (3, 5.5):  # a part of his MA (§4.3.2-c: what he has left of his move)
                moves = state.map.reachable(ld.hex, mp, "leader", blocked=_leader_blocked(state, ld))
                assert dict(leader_moves(state, ld, mp)[0]) == moves
                assert all(c <= mp for c in moves.values())
            checked += 1
    assert checked > 200


@pytest.mark.parametrize(("scenario", "seed"), [("training", 3), ("battle", 5)])
def test_a_leader_move_menu_is_by_mp_then_by_label(scenario, seed):
    """§4.2.5's menu order (``leader_moves``: a stable sort by MP of the search's hexes, which
    come in map index order, rather than by their labels) is MP, then printed label, at every
    third decision of a game; and the coordinates sort every hex of the map as its label does."""
    ties = 0
    for state in _positions(scenario, seed, 300):
        for ld in state.live_leaders():
            for mp in (3, None):
                moves, order = leader_moves(state, ld, mp)
                assert list(order) == sorted(moves, key=lambda h: (moves[h], hex_label(h)))
                ties += len(order) - len(set(moves.values()))
    assert ties > 100  # hexes of equal MP, which the label orders
    m = state.map
    hexes = [m.hex_at(col, row) for col in range(m.width) for row in range(m.height)]
    assert sorted(hexes, key=lambda h: (h.q, h.r)) == sorted(hexes, key=hex_label)


@pytest.mark.parametrize(("scenario", "seed"), [("training", 1), ("battle", 2)])
def test_leader_can_move_is_whether_he_has_a_destination(scenario, seed):
    """The neighbour test that offers "move yourself" / "move on" (§4.2.5, §4.3.2-c) says yes
    exactly when the full search finds a hex besides his own, for every MP left."""
    seen = set()
    for state in _positions(scenario, seed, 300):
        for ld in state.live_leaders():
            for mp in (0.5, 1, 1.5, 2, 3, None):  # 0.5: no step costs so little
                can = leader_can_move(state, ld, mp)
                assert can == (len(leader_destinations(state, ld, mp)) > 1)
                seen.add(can)
    assert seen == {True, False}


def test_answers_remembered_by_the_position_equal_fresh_ones():
    """§4.2.6 in melee, §4.2.5 may he move and §4.2.2 / §4.2.4 command range, as the individual and
    group orders ask them (remembered by the position key) are the plain computations, at every
    third decision of two games (one with leaders in melee); and a unit's front steps carry the
    direction of each (§6.3)."""
    seen = set()
    for state in itertools.chain(_positions("training", 2, 300), _positions("battle", 3, 300)):
        position = position_key(state)
        for ld in state.live_leaders():
            assert in_melee(state, ld, position=position) == in_melee(state, ld)
            for mp in (0.5, 1, 2, None):  # 0.5: no step costs so little
                assert leader_can_move(state, ld, mp, position=position) == leader_can_move(state, ld, mp)
            for reach in (ld.range, 2 * ld.range):
                assert command_cells(state, ld, reach, position=position) == command_cells(state, ld, reach)
            seen.add(in_melee(state, ld))
        for u in state.live_units():
            assert [(h, d) for h, _, d in front_steps(state, u)] == [(h, u.hex.direction_to(h)) for h, _, _ in front_steps(state, u)]
    assert seen == {True, False}


def test_a_command_range_asked_in_a_new_position_is_the_fresh_search():
    """§4.2.2: a new position in which nothing near the leader moved (a unit far away turns)
    reads his command range kept by its search's question (``command._RANGES``: the same
    objects, no set of coordinates built again); an enemy unit set down in his range then
    gives the new range. Each is the map's own search run afresh, on both scenarios."""
    kept = changed = 0
    for scenario, seed in (("training", 3), ("battle", 5)):
        state = list(_positions(scenario, seed, 60, every=20))[-1]
        for ld in state.live_leaders():
            before = command_distances(state, ld), command_cells(state, ld)
            far = [u for u in state.live_units() if u.hex.distance(ld.hex) > ld.range + 3]
            if far:
                far[0].facing = (far[0].facing + 1) % 6  # a new position: a new position_id
                assert command_distances(state, ld) is before[0] and command_cells(state, ld) is before[1]
                assert dict(before[0]) == _fresh_command_range(state, ld, ld.range)
                far[0].facing = (far[0].facing - 1) % 6
                kept += 1
            enemy = next(u for u in state.live_units() if u.side != ld.side)
            into = next((h for h, d in before[0].items() if 0 < d < ld.range and state.unit_at(h) is None), None)
            if into is not None:
                home, enemy.hex = enemy.hex, into
                fresh = _fresh_command_range(state, ld, ld.range)
                assert dict(command_distances(state, ld)) == fresh != dict(before[0])
                assert command_cells(state, ld) == {(h.q, h.r) for h in fresh}
                enemy.hex = home
                changed += 1
    assert kept > 4 and changed > 4


def test_position_numbers_stand_for_one_position_each(monkeypatch):
    """The number the rules' caches are keyed by (``position_id``) is the same for the same
    position key and differs when a unit moves or turns; emptying the table of numbers when it is
    full never gives an old number to another position (no cache could answer for the wrong one),
    and the answers asked by number are the plain computations (§4.2.5, §4.2.6)."""
    monkeypatch.setattr(state_module, "_POSITION_IDS_KEPT", 3)
    given: dict[int, tuple] = {}
    for state in itertools.chain(_positions("training", 4, 120, every=5), _positions("battle", 6, 60, every=5)):
        number, key = position_id(state), position_key(state)
        assert given.setdefault(number, key) == key  # a number never stands for two positions
        assert position_id(state) == number  # asked again: the same
        for ld in state.live_leaders():
            assert in_melee(state, ld, position=number) == in_melee(state, ld)
            assert leader_can_move(state, ld, position=number) == leader_can_move(state, ld)
        unit = state.live_units()[0]
        unit.facing = (unit.facing + 1) % 6
        assert position_id(state) != number  # a turn is a new position
        unit.facing = (unit.facing - 1) % 6
    assert len(given) > 3  # the table was emptied on the way


def test_the_units_around_a_hex_are_the_unit_in_each_neighbour():
    """``units_around`` (one pass over the units, the direction read from a 3×3 table of offsets)
    is ``unit_at`` asked of each of the six neighbours, in direction order, for every hex of the
    map and a hex just off each corner of it, at every twentieth decision of a game per
    scenario (eliminated units left out, units at the map's edges included)."""
    checked = 0
    for state in itertools.chain(_positions("training", 7, 400, every=20), _positions("battle", 8, 400, every=20)):
        hexes = state.map.hexes()
        for h in [*hexes, *(Hex(c.q + dq, c.r + dr) for c in (hexes[0], hexes[-1]) for dq, dr in ((-1, 0), (1, 0)))]:
            expected = [(d, u) for d in range(6) if (u := state.unit_at(h.neighbour(d))) is not None]
            assert state.units_around(h) == expected
            checked += bool(expected)
    assert checked > 1000


def _position_answers(state) -> list[Any]:
    """What the caches keyed by the position number hold, worked out from the state for every
    leader in play: §4.2.6 in melee, §4.2.5 may he move and where to, §4.2.2 / §4.2.4 command
    range. ``in_melee`` and ``leader_can_move`` without ``position=`` read no cache; the searches
    are read past theirs by a position no one has used (``object()``): asked without it they look
    themselves up by ``position_id(state)``, which an edit that keeps the number leaves as it was,
    and would return the remembered answer whatever the edit changed."""
    return [(in_melee(state, ld), leader_can_move(state, ld), dict(leader_moves(state, ld, position=object())[0]),
             command_cells(state, ld, ld.range, position=object()),
             command_cells(state, ld, 2 * ld.range, position=object()))
            for ld in state.live_leaders()]


def test_a_position_number_leaves_out_only_what_no_answer_reads(monkeypatch):
    """The position key holds an eliminated unit as ``True`` and a unit's type only while it is
    disordered: an edit of an eliminated unit's hex, or of the type of a unit in good order (foot
    to horse and back), keeps the number and changes no answer remembered by it; the same type
    edit of a disordered unit (§7.3.1: disordered cavalry fronts every side) gives a new number."""
    monkeypatch.setattr(state_module, "_POSITION_IDS_KEPT", 1 << 20)  # no number forgotten on the way
    kept = renumbered = 0
    for state in itertools.chain(_positions("training", 4, 400, every=10), _positions("battle", 6, 400, every=10)):
        number, answers = position_id(state), _position_answers(state)
        for unit in state.units.values():
            was = unit.hex, unit.type, unit.disordered
            if unit.eliminated:
                unit.hex = state.live_leaders()[0].hex.neighbour(unit.facing)  # next to a leader
            else:
                unit.type = "HC" if unit.infantry else "HI"
            unit.disordered = False
            if unit.eliminated or not was[2]:
                assert position_id(state) == number
                assert _position_answers(state) == answers
                kept += 1
            unit.disordered = True
            if not unit.eliminated:
                assert position_id(state) != number
                before = position_id(state)
                unit.type = was[1]
                assert position_id(state) != before  # the type of a disordered unit is in the key
                renumbered += 1
            unit.hex, unit.type, unit.disordered = was
        assert position_id(state) == number
    assert kept > 300 and renumbered > 300


def test_a_state_pickled_as_rows_of_units_comes_back_the_same():
    """A snapshot's pickle (the units as rows of plain values, ``GameState.__reduce__``) makes the
    same state again: every field, every unit under its key with every field, its hex a Hex, the
    map shared as the game shares it; at every tenth decision of a game on each scenario."""
    shared = Aig().shared_type_set
    checked = 0
    for state in itertools.chain(_positions("training", 7, 300, every=10), _positions("battle", 8, 300, every=10)):
        back = loads_sharing(*dumps_sharing(state, shared))
        assert back == state and back.map is state.map
        assert list(back.units) == list(state.units)
        for name, unit in state.units.items():
            again = back.units[name]
            assert again is not unit and astuple(again, recurse=False) == astuple(unit, recurse=False)
            assert type(again.hex) is Hex
        checked += 1
    assert checked == 60


def test_a_units_row_read_by_plain_reads_is_the_attrgetters_row():
    """The snapshot's unit rows are read by the core's function of plain attribute reads
    (``HexRows``, through ``_fastpickle.attribute_reader``), not an attrgetter: the same row,
    value for value and of the same types, for every unit at every tenth decision of a game on
    each scenario, and for a unit with no field at its default."""
    names = [a.name for a in attrs.fields(Unit)]
    at = names.index("hex")
    getter = operator.attrgetter(*names[:at], "hex.q", "hex.r", *names[at + 1:])
    rows = HexRows(Unit)
    assert not isinstance(rows.row, operator.attrgetter)
    checked = 0
    for state in itertools.chain(_positions("training", 7, 300, every=10), _positions("battle", 8, 300, every=10)):
        for unit in state.units.values():
            mine, theirs = rows.row(unit), getter(unit)
            assert mine == theirs and list(map(type, mine)) == list(map(type, theirs))
            checked += 1
    assert checked > 1000
    odd = Unit("n", "blue", "LC", "c", 7, 9, Hex(-3, 4), 5, "A", True, True, True, 2, True, True, True, 3, 1, 4,
               True, True, True, True, True, "LI", 5)
    assert rows.row(odd) == getter(odd) and len(rows.row(odd)) == len(names) + 1


def test_4_4_1_a_leader_hemmed_in_by_enemy_zoi_may_not_move(k):
    """[4.4.1-1]: every neighbour is an enemy unit or in enemy ZOI with no friend there, so the
    leader has no move (and is not offered one); a friendly unit beside him opens one hex."""
    ls = [k.leader("Red OC", "red", "0604", "oc"), k.leader("Blue OC", "blue", "1208", "oc")]
    # 0604's neighbours 0705, 0704, 0603, 0504, 0505, 0605 are each in the front (ZOI) of one of these.
    enemies = [k.unit("e1", "blue", "0602", facing=4), k.unit("e2", "blue", "0803", facing=3),
               k.unit("e3", "blue", "0805", facing=3), k.unit("e4", "blue", "0606", facing=1),
               k.unit("e5", "blue", "0405", facing=0), k.unit("e6", "blue", "0403", facing=0)]
    t = k.Table(k.scenario([k.unit("a", "red", "1101"), *enemies], ls))
    oc = t.state.leaders["Red OC"]
    assert len(leader_destinations(t.state, oc)) == 1
    assert not leader_can_move(t.state, oc)
    t.state.units["a"].hex = parse_hex("0704")
    assert leader_can_move(t.state, oc)
    assert parse_hex("0704") in leader_destinations(t.state, oc)


def test_views_share_one_read_only_copy_of_the_tables():
    """The view (Ruleset.view contract): the scenario's tables as they are, read-only, one copy per
    game; changing a view's unit changes nothing in the game."""
    game = Game.new(Aig(), "training", seed=0)
    seen, again = Aig().view(game.state, "red"), Aig().view(game.state, "blue")
    assert dict(seen.tables.weapons) == game.state.tables.weapons
    assert dict(seen.tables.shock_value) == game.state.tables.shock_value
    assert seen.tables is again.tables
    with pytest.raises(TypeError):
        seen.tables.weapons["bow"] = None  # type: ignore[index]
    name = next(iter(seen.units))
    seen.units[name].hits += 3
    assert game.state.units[name].hits == again.units[name].hits == 0


def _random_game(scenario: str, seed: int) -> Game:
    game = Game.new(Aig(), scenario, seed=seed)
    game.play({side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(Aig.sides)})
    return game


@pytest.mark.parametrize(("scenario", "seed"), [("training", 5), ("battle", 4)])
def test_a_step_menu_after_a_turn_equals_one_built_afresh(monkeypatch, scenario, seed):
    """§6.3 / §6.3.1 / §9.1: a unit step's menu built with the units around it kept from the last
    step's menu (after a turn, which moves nobody) or handed back by the step into its hex
    (``orders.enter``, when no window opened) is the menu built from a fresh look at its
    neighbours, at every step menu of a seeded game; and both were kept many times."""
    fresh_menu = orders_module.step_options
    kept = Counter()
    last_hex = {}

    def checked(state, unit, spent, **kwargs):
        menu = fresh_menu(state, unit, spent, **kwargs)
        if kwargs.get("around") is not None:
            assert kwargs["around"] == state.units_around(unit.hex)
            assert menu == fresh_menu(state, unit, spent, **{**kwargs, "around": None})
            kept["moved" if last_hex.get(unit.name) != unit.hex else "turned"] += 1
        last_hex[unit.name] = unit.hex
        return menu

    monkeypatch.setattr(orders_module, "step_options", checked)
    _random_game(scenario, seed)
    assert kept["turned"] > 50 and kept["moved"] > 20


@pytest.mark.parametrize(("scenario", "seed"), [("training", 5), ("battle", 4)])
def test_targets_from_kept_reach_equal_every_shot_tried(monkeypatch, scenario, seed):
    """§9.1 / D3: the targets a unit step's menu offers, read from the enemies in range and in
    sight kept from the last menu while the unit only turned (``missile.in_reach``), are every
    enemy :func:`~wargamekit_aig.missile.shot_at` finds a shot at, with that shot, at every step
    menu of a seeded game; and the kept list was read again many times."""
    plain_targets = missile_module.targets
    calls = kept = 0
    last: object = None

    def checked(state, unit, reach=None):
        nonlocal calls, kept, last
        got = plain_targets(state, unit, reach)
        tried = {e.name: shot for e in state.live_units() if (shot := missile_module.shot_at(state, unit, e))}
        assert got == tried
        assert list(got) == list(tried)  # in scenario order (the menu's order)
        assert plain_targets(state, unit) == got  # asked alone (as the bot does)
        if reach is not None:
            assert reach == missile_module.in_reach(state, unit)
            kept += reach is last
            last = reach
        calls += 1
        return got

    monkeypatch.setattr(missile_module, "targets", checked)
    _random_game(scenario, seed)
    assert calls > 50 and kept > 10


def test_a_volleys_range_by_its_box_test_is_the_maps_distance():
    """D3: ``missile._in_range`` (a box test on the axial deltas before the distance) finds an
    enemy at every hex within the weapon's reach with its table's number for that distance, and
    none beyond it nor in the firer's own hex: one enemy moved to every hex of the map, for up
    to three missile units on three states of a game on each scenario (the box's edges
    included: a unit at the reach along each axis)."""
    checked = 0
    for scenario, seed in (("default", 2), ("training", 3), ("battle", 4)):
        for state in _positions(scenario, seed, 300, every=100):
            firers = [u for u in state.live_units() if u.missile][:3]
            for firer in firers:
                table = state.tables.weapons[firer.missile].hit
                enemy = next(u for u in state.live_units() if u.side != firer.side)
                was = enemy.hex
                for h in state.map.hexes():
                    enemy.hex = h
                    d = firer.hex.distance(h)
                    got = [n for e, n in missile_module._in_range(state, firer) if e is enemy]
                    assert got == ([table[d - 1]] if 0 < d <= len(table) else []), (firer.name, h)
                    checked += bool(got)
                enemy.hex = was
    assert checked > 100


@pytest.mark.parametrize(("scenario", "seed"), [("training", 6), ("battle", 7)])
def test_seize_windows_left_unopened_would_have_offered_nothing(monkeypatch, scenario, seed):
    """§5.4.1 / §5.4.2: a seize window is not opened when no leader may seize; opening every one
    of them gives the same game (the same answers and the same log: an empty window asks and logs
    nothing), and some were left unopened."""
    opened = []
    window = InterruptStack.window

    def counted(self, timing, *args, **kwargs):
        opened.append(timing)
        return window(self, timing, *args, **kwargs)

    monkeypatch.setattr(InterruptStack, "window", counted)
    short = _random_game(scenario, seed)
    skipping = len(opened)
    monkeypatch.setattr(activation_module, "_window_needed", lambda ctx, seizers: True)
    opened.clear()
    every = _random_game(scenario, seed)
    assert every.choices == short.choices and every.log_text() == short.log_text()
    assert len(opened) > skipping


def test_group_checks_and_leader_moves_asked_by_the_position_equal_fresh_ones():
    """§4.3.1.d / §4.3.2.a whether a group order needs a check, and §4.2.5 / §4.4.1 a leader's
    destinations in menu order, asked by the position's number (as the group and individual
    orders pass the number of their menu on) are the answers asked without it, at every third
    decision of two games."""
    needs = set()
    for state in itertools.chain(_positions("training", 8, 300), _positions("battle", 9, 300)):
        number = position_id(state)
        for ld in state.live_leaders():
            need = orders_module.group_check(state, ld, position=number)
            assert need == orders_module.group_check(state, ld)
            needs.add(need is None)
            for mp in (1, 3, None):
                assert leader_moves(state, ld, mp, position=number) == leader_moves(state, ld, mp)
    assert needs == {True, False}


def test_remembered_lines_of_fire_equal_the_maps_own(monkeypatch):
    """D3: whether a volley's line is clear, with the hexes between read from the per-map table
    of lines (``missile._clear``), is the map's own line of sight with the units between looked
    up afresh, for every pair of live units within 6 hexes at every third decision of a game on
    each scenario; lines blocked by the terrain, by a unit and clear ones all met, and most read
    again from the table."""
    monkeypatch.setattr(missile_module, "_LINES", state_module.PerMap())
    seen, asked, maps = set(), 0, set()
    for state in itertools.chain(_positions("training", 10, 300), _positions("battle", 11, 300)):
        maps.add(state.map)
        units = state.live_units()
        for a, b in itertools.product(units, units):
            if not 1 <= a.hex.distance(b.hex) <= 6:
                continue
            los = state.map.line_of_sight(a.hex, b.hex, edge="better")
            by_unit = los.clear and any(state.unit_at(h) is not None for h in los.between)
            assert missile_module._clear(state, a.hex, b.hex) == (los.clear and not by_unit)
            seen.add("clear" if los.clear and not by_unit else "unit" if by_unit else "terrain")
            asked += 1
    assert seen == {"clear", "unit", "terrain"}
    assert asked > 5 * sum(len(missile_module._LINES.table(m)) for m in maps)



@pytest.mark.parametrize(("scenario", "seed"), [("training", 12), ("battle", 9)])
def test_moves_with_no_enemy_next_to_them_would_open_no_window(monkeypatch, scenario, seed):
    """D4 / §6.3.3.b / D11 / §4.4.2: a step into a hex with no enemy unit or leader next to it
    skips the reaction-fire, charge, withdrawal and evasion windows (``orders.enemy_next_to``);
    asking all four after every step gives the same game (the same answers and the same log),
    and some steps were spared them, some not."""
    asked = []
    plain = orders_module.enemy_next_to

    def counted(state, unit, around=None):
        near = plain(state, unit, around)
        asked.append(near)
        return near

    monkeypatch.setattr(orders_module, "enemy_next_to", counted)
    short = _random_game(scenario, seed)
    assert set(asked) == {True, False}
    monkeypatch.setattr(orders_module, "enemy_next_to", lambda state, unit, around=None: True)
    every = _random_game(scenario, seed)
    assert every.choices == short.choices and every.log_text() == short.log_text()


@pytest.mark.parametrize(("scenario", "seed"), [("training", 2), ("battle", 6)])
def test_contexts_handed_as_data_are_what_the_core_would_freeze(scenario, seed):
    """The command, order, unit step, group order, leader move and leader activation menus hand
    the core their contexts already as ``Data``, which the core takes unchecked: each must hold
    plain scalars only (what ``freeze_data`` would have made of the same dict), at every such
    decision of a seeded game."""
    game = Game.new(Aig(), scenario, seed=seed)
    bots = {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(Aig.sides)}
    seen = Counter()
    while (decision := game.pending) is not None:
        if decision.kind in (kinds.COMMAND, kinds.ORDER, kinds.UNIT_STEP, kinds.GROUP_NEXT, kinds.LEADER_MOVE,
                             kinds.ACTIVATE):
            context = decision.context
            assert type(context) is Data
            assert all(type(key) is str and type(value) in (str, int, float, bool) for key, value in context.items())
            assert freeze_data(dict(context)) == context
            seen[decision.kind] += 1
        game.answer(bots[decision.side].choose(decision, None))
    assert min(seen.values()) > 2 and len(seen) >= 5


@pytest.mark.parametrize(("scenario", "seed"), [("training", 3), ("battle", 5)])
def test_group_orders_offer_and_activate_what_group_eligible_finds(monkeypatch, scenario, seed):
    """§4.2.4 / §5.2.3 / §4.3.1.c: a group order menu, its units sorted by command in one pass
    when it is built, offers the leader's own command when ``group_eligible`` finds units for it
    and, for the OC, each other command it finds units for (sorted); and the order picked
    activates ``group_eligible``'s units of that command, at every group order of a seeded game
    (the battle's OC gives cross-command orders too)."""
    plain_cross = orders_module.cross_command
    crossing: list[str] = []

    def cross(ctx, oc, command, units, phase):
        assert units == orders_module.group_eligible(ctx.state, oc, phase, command)
        understood = yield from plain_cross(ctx, oc, command, units, phase)
        if understood:  # run_group comes next, with these units
            crossing.append(command)
        return understood

    monkeypatch.setattr(orders_module, "cross_command", cross)
    plain_run = orders_module.run_group
    activated = Counter()

    def run(ctx, leader, units, phase):
        command = crossing.pop() if crossing else None
        assert units == orders_module.group_eligible(ctx.state, leader, phase, command)
        activated["cross" if command else "own"] += 1
        return (yield from plain_run(ctx, leader, units, phase))

    monkeypatch.setattr(orders_module, "run_group", run)
    game = Game.new(Aig(), scenario, seed=seed)
    bots = {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(Aig.sides)}
    menus = 0
    while (decision := game.pending) is not None:
        if decision.kind == kinds.GROUP_NEXT and decision.context["step"] == "order":
            state = game.state
            leader = state.leaders[decision.context["leader"]]
            phase = orders_module.Phase(leader, decision.context["phase"])
            offered = [o.data for o in decision.options][:-1]  # the last is "done"
            expected = [{"group": leader.command}] if orders_module.group_eligible(state, leader, phase) else []
            if leader.oc:
                others = sorted({u.command for u in state.live_units(leader.side) if not leader.activates(u)})
                expected += [{"group": c, "cross": True} for c in others
                             if orders_module.group_eligible(state, leader, phase, c)]
            assert offered == expected
            menus += 1
        game.answer(bots[decision.side].choose(decision, None))
    assert menus > 5 and activated["own"] > 3
    if scenario == "battle":
        assert activated["cross"] > 0


def _edit_while_pending(edit_and_answer: Callable[[Game, Any], bool | None], what: str) -> None:
    """Play seeded random-bot games of both bundled scenarios until three checks ran: at every
    pending decision, ``edit_and_answer(game, decision)`` may edit the state directly and answer
    it (returning whether it checked the outcome, and the game is left), or return ``None``."""
    checked = 0
    for scenario, seed in itertools.product(("training", "battle"), range(40)):
        game = Game.new(Aig(), scenario, seed=seed)
        bots = {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(Aig.sides)}
        while (decision := game.pending) is not None:
            done = edit_and_answer(game, decision)
            if done is not None:
                checked += done
                break
            game.answer(bots[decision.side].choose(decision, None))
        if checked >= 3:
            return
    pytest.fail(f"only {checked} {what} after an edit")


def test_a_unit_banned_while_the_group_order_menu_is_pending_is_not_activated():
    """The state may be edited directly between the group order menu and its answer (the design's
    rule): the order activates the units eligible when it is answered, not those the menu saw."""

    def ban_one(game: Game, decision: Any) -> bool | None:
        if decision.kind != kinds.GROUP_NEXT or decision.context["step"] != "order":
            return None
        state = game.state
        leader = state.leaders[decision.context["leader"]]
        own = orders_module.group_eligible(state, leader, orders_module.Phase(leader, decision.context["phase"]))
        index = next((i for i, o in enumerate(decision.options) if o.data == {"group": leader.command}), None)
        if index is None or len(own) < 2:
            return None
        own[0].banned = True  # the direct edit, while the menu is pending
        logged = len(game.log)
        game.answer(index)
        group = [e for e in game.log[logged:] if e.kind == "group"]
        if not group:  # the order's check failed: nothing activated
            return False
        assert own[0].name not in group[0].data["units"]
        assert own[1].name in group[0].data["units"]
        return True

    _edit_while_pending(ban_one, "group orders given")


def test_a_leader_move_picked_after_an_edit_offers_the_moves_of_the_edited_position():
    """The state may be edited directly while the individual order menu is pending (the design's
    rule): a leader move picked there offers the moves of the position as answered, not of the
    one the menu saw (here an enemy unit moved next to the leader before the answer)."""

    def move_an_enemy(game: Game, decision: Any) -> bool | None:
        if decision.kind != kinds.ORDER:
            return None
        index = next((i for i, o in enumerate(decision.options) if o.data.get("order") == "move_self"), None)
        if index is None:
            return None
        state = game.state
        leader = next(ld for ld in state.live_leaders(decision.side) if ld.name in decision.prompt)
        before = command_module.leader_moves(state, leader)[1]
        free = [h for h in before if h != leader.hex and state.unit_at(h) is None]
        if not free:
            return None
        enemy = next(u for u in state.units.values() if u.side != leader.side and u.alive)
        enemy.hex = free[0]  # the direct edit, while the menu is pending
        game.answer(index)
        menu = game.pending
        assert menu.kind == kinds.LEADER_MOVE
        after = command_module.leader_moves(state, leader)[1]
        assert after != before  # the edit changed what he may reach
        assert [o.value for o in menu.options] == list(after)
        return True

    _edit_while_pending(move_an_enemy, "leader moves picked")


@pytest.mark.parametrize("scenario", ["training", "battle"])
def test_a_remembered_label_parse_is_the_inverse_of_hex_label(scenario):
    """``scenario.label_hex`` (a move answer's hex, from its label) names the hex ``hex_label``
    printed, on every hex of both bundled maps."""
    hexes = list(Game.new(Aig(), scenario, seed=0).state.map.hexes())
    assert len(hexes) > 100
    for h in hexes:
        assert scenario_module.label_hex(hex_label(h)) == h


@pytest.mark.parametrize(("scenario", "seed"), [("training", 0), ("battle", 1)])
def test_no_menu_is_made_for_a_lone_due_leader_or_a_lone_stop(monkeypatch, scenario, seed):
    """A lone candidate of an activation turn and a step menu of "stop" alone are answered
    without a menu (ctx.ask would answer a one-option menu unasked, recording nothing): no such
    menu reaches ctx.ask in a seeded game, while menus of those kinds with a choice still do."""
    asked: Counter[tuple[str, bool]] = Counter()
    plain_ask = RulesContext.ask

    def counting_ask(decision: Any) -> Any:
        if decision.kind in (kinds.ACTIVATE, kinds.UNIT_STEP):
            options = decision.options
            asked[decision.kind, (len(options._values) if type(options) is LazyOptions else len(options)) == 1] += 1
        return plain_ask(decision)

    monkeypatch.setattr(RulesContext, "ask", staticmethod(counting_ask))
    _random_game(scenario, seed)
    assert asked[kinds.ACTIVATE, True] == asked[kinds.UNIT_STEP, True] == 0
    assert asked[kinds.UNIT_STEP, False] > 0


@pytest.mark.parametrize(("scenario", "seed"), [("training", 2), ("battle", 3)])
def test_the_commonest_events_give_their_data_in_sorted_key_order(monkeypatch, scenario, seed):
    """A unit's turn, move and cohesion hits (~180 events a game) name their data's keywords in
    sorted order, the order the log keeps: the core takes the dict Python packed as it is,
    where it would build it again sorted (~2,300 instructions an event). Checked as the rules
    call ``event`` in a seeded game (the log itself is the same either way)."""
    given: Counter[tuple[str, bool]] = Counter()
    plain_event = RulesContext.event

    def spying_event(ctx: Any, kind: str, text: str, /, **data: Any) -> Any:
        keys = [key for key in data if key != "audience"]
        given[kind, keys == sorted(keys)] += 1
        return plain_event(ctx, kind, text, **data)

    monkeypatch.setattr(RulesContext, "event", spying_event)
    _random_game(scenario, seed)
    for kind in ("turn", "move", "hits"):
        assert given[kind, True] > 0 and given[kind, False] == 0, kind


def test_a_command_graph_refuses_a_terrain_chart_whose_command_step_is_not_one_hex():
    """§4.2.2 counts command range in hexes (D2: a command step costs 1, or may not be taken),
    and the count over map indices relies on it: a chart giving a command step any other finite
    cost is refused, naming D2, rather than counted as if it cost 1; impassable terrain is no
    step, and woods (2 MP to enter) is one hex."""
    from wargamekit.geometry import HexMap, TerrainTable, TerrainType
    from wargamekit_aig.scenario import LAYOUT

    def chart(woods_command: float) -> tuple[HexMap, Hex, Hex, Hex]:
        table = TerrainTable((TerrainType(0, "clear", 1), TerrainType(1, "woods", 2, {"command": woods_command}),
                              TerrainType(2, "impassable", float("inf"))))
        m = HexMap(3, 3, table, LAYOUT)
        centre = m.hex_at(1, 1)
        woods, wall = m.neighbours(centre)[:2]
        m.set_terrain(woods, 1)
        m.set_terrain(wall, 2)
        return m, centre, woods, wall

    m, centre, woods, wall = chart(1)
    graph = command_module._command_graph(m)
    start = graph.index_of[(centre.q, centre.r)]
    one_step = command_module._cells(m, graph, command_module._count_range(graph, start, 1, 0))
    assert one_step == {(h.q, h.r) for h in [centre, *m.neighbours(centre)] if h != wall}
    assert (woods.q, woods.r) in one_step
    assert one_step == frozenset(
        (h.q, h.r) for h in m.reachable(centre, 1, "command"))
    with pytest.raises(ValueError, match=r"a command step costs 1 or may not be taken \(D2\), not 2"):
        command_module._command_graph(chart(2)[0])


@pytest.mark.parametrize(("scenario", "seed"), [("training", 5), ("battle", 4)])
def test_a_volleys_hit_chance_by_its_number_is_the_shots_own_odds(scenario, seed):
    """§9.1.1: the hit chance a fire option's label shows, remembered by the shot's modified
    number (``orders._hit_p``), is the chance in the exact odds of the shot itself
    (``missile_odds``, which also rolls a cavalry target's morale check): for every shot any unit
    could take at any enemy, whatever its front, at every seventh decision of a seeded game, and
    for shots of every modifier by hand."""
    from wargamekit_aig.odds_calc import missile_odds

    shots = {
        missile_module.Shot(base, trained, arc, armoured, False, False, check, cohesion, extra)
        for base in range(-1, 11) for trained, armoured, extra in ((False, False, 0), (True, True, 1), (True, False, -2))
        for arc in missile_module.ARC_SHIFT for check, cohesion in ((False, 9), (True, 3), (True, 8))
    }
    met = set()  # the shots met in play
    for state in _positions(scenario, seed, 3000, every=7):
        for firer in state.live_units():
            for target in state.live_units():
                shot = missile_module.shot_at(state, firer, target, check_arc=False)
                if shot is not None:
                    met.add(shot)
                    met.add(attrs.evolve(shot, cover=not shot.cover, disordered_cavalry=not shot.disordered_cavalry))
    assert len(met) > 10
    shots |= met
    for shot in shots:
        assert orders_module._hit_p(shot) == float(missile_odds(shot)[True]), shot
