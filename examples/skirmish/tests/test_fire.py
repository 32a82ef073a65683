"""5. Fire: resolution with forced dice, exact odds, and who may shoot whom."""

from fractions import Fraction

import pytest

from wargamekit import ScriptedDice, odds
from wargamekit.geometry import Arc
from wargamekit_skirmish.fire import Effect, Shot, resolve_fire, shot_at, targets, visible
from wargamekit_skirmish.ruleset import Skirmish
from wargamekit_skirmish.scenario import parse_hex
from wargamekit_skirmish.state import HILL, WOODS, SkirmishState, Unit, initial_state


def two_unit_state(firer_hex="0303", target_hex="0603", facing=0, target_facing=3) -> SkirmishState:
    scenario = Skirmish().load_scenario({
        "title": "test", "turns": 2,
        "units": [{"name": "A", "side": "blue", "hex": firer_hex, "facing": facing},
                  {"name": "B", "side": "red", "hex": target_hex, "facing": target_facing}],
    })
    return initial_state(scenario)


@pytest.mark.parametrize(
    ("faces", "shot", "effect"),
    [
        ([4, 3], Shot(2, 3), Effect.HIT),  # 7 + 2 - 1 = 8: hit
        ([4, 2], Shot(2, 3), Effect.MISS),  # 6 + 1 = 7: miss
        ([5, 5], Shot(2, 1), Effect.KILL),  # 10 + 2 = 12: kill
        ([1, 1], Shot(9, 1), Effect.MISS),  # a natural 2 always misses
        ([6, 6], Shot(0, 6, hindrance=1, cover=1), Effect.KILL),  # a natural 12 always kills
        ([4, 4], Shot(2, 2, hindrance=1, cover=1, arc=Arc.REAR), Effect.HIT),  # 8 + 2 - 1 - 1 - 1 + 2 = 9
        ([4, 4], Shot(2, 2, snap=True), Effect.HIT),  # 8 + 2 - 1 - 1 = 8
        ([4, 3], Shot(2, 2, snap=True), Effect.MISS),  # 7 + 0 = 7
    ],
)
def test_fire_table_5_2(faces, shot, effect):
    """5.2: 2d6 + modifier, 12+ kills, 8+ hits; natural 2 misses, natural 12 kills."""
    dice = ScriptedDice(faces)
    assert resolve_fire(dice, shot) is effect
    assert dice.remaining == []


def test_exact_odds_of_a_shot():
    """5.2 odds: with modifier +1, a hit needs 7..10 and a kill 11+ (or a natural 12)."""
    dist = odds.distribution(resolve_fire, Shot(firepower=2, range=2))
    assert dist == {Effect.MISS: Fraction(15, 36), Effect.HIT: Fraction(18, 36), Effect.KILL: Fraction(3, 36)}


def test_modifiers_5_2():
    """5.2 modifier: firepower, -1 per 2 hexes range, woods between, cover, flank/rear, snap, extras."""
    assert Shot(3, 5, hindrance=1, cover=1, arc=Arc.FLANK, snap=True, extra=2).modifier == 3 - 2 - 1 - 1 + 1 - 1 + 2


def test_shot_needs_front_arc_range_and_los_5_1():
    """5.1: the target must be in the firer's front half, within range and in line of sight."""
    state = two_unit_state()
    a, b = state.units["A"], state.units["B"]
    assert shot_at(state, a, b) == Shot(2, 3, 0, 0, Arc.FRONT)  # B faces north-west, toward A
    a.facing = 3  # now facing away (north-west): B is behind
    assert shot_at(state, a, b) is None
    a.facing = 0
    a.max_range = 2
    assert shot_at(state, a, b) is None


def test_hills_block_and_woods_hinder_1():
    """1. A hill between blocks; one woods hex between hinders (-1); two woods hexes block."""
    state = two_unit_state()
    a, b = state.units["A"], state.units["B"]
    between = state.map.line_of_sight(a.hex, b.hex).between
    state.map.set_terrain(between[0], WOODS)
    assert shot_at(state, a, b).hindrance == 1
    state.map.set_terrain(between[1], WOODS)
    assert shot_at(state, a, b) is None
    state.map.set_terrain(between[0], 0)
    state.map.set_terrain(between[1], HILL)
    assert shot_at(state, a, b) is None


def test_target_in_woods_has_cover_and_flank_shots_are_easier():
    """5.2: a target in woods gets -1 cover; a shot into its flank +1, its rear +2."""
    state = two_unit_state(target_facing=0)  # B faces away from A: A is in B's rear
    state.map.set_terrain(state.units["B"].hex, WOODS)
    shot = shot_at(state, state.units["A"], state.units["B"])
    assert (shot.cover, shot.arc) == (1, Arc.REAR)


def test_damaged_unit_fires_with_one_less_2():
    """2. A unit reduced to one step fires with firepower -1."""
    state = two_unit_state()
    state.units["A"].steps = 1
    assert shot_at(state, state.units["A"], state.units["B"]).firepower == 1


def test_concealment_7():
    """7. A unit in woods is hidden unless an enemy within 3 hexes sees it; hidden units are no targets."""
    state = two_unit_state(firer_hex="0203", target_hex="0603")
    state.map.set_terrain(parse_hex("0603"), WOODS)
    b = state.units["B"]
    assert not visible(state, b, "blue")
    assert targets(state, state.units["A"]) == {}
    state.units["A"].hex = parse_hex("0303")  # 3 hexes away, clear line: seen
    assert visible(state, b, "blue")
    assert "B" in targets(state, state.units["A"])


def test_units_are_units():
    """2. Units start at 2 steps and are alive until 0."""
    u = Unit("x", "blue", parse_hex("0101"), 0, 4, 2, 5)
    assert u.alive and u.steps == 2
    u.steps = 0
    assert not u.alive
