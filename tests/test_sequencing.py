"""Sequencers, checked against the rulebooks' own examples."""

from __future__ import annotations

import pytest

from wargamekit import ScriptedDice
from wargamekit.sequencing import (
    AlternatingImpulses,
    InitiativeTrack,
    LeaderActivation,
    PhaseCycle,
    PlayerTurns,
    Sequencer,
)


def test_every_sequencer_follows_the_protocol():
    """All presets implement next_turn()."""
    sequencers = [
        PhaseCycle(["a"], last_turn=1),
        PlayerTurns(("x", "y")),
        AlternatingImpulses(("x", "y"), can_act=lambda s: True),
        InitiativeTrack({"a": 1}),
        LeaderActivation({"A": ("x", 1)}, ("x", "y")),
    ]
    assert all(isinstance(s, Sequencer) for s in sequencers)


def test_phase_cycle_repeats_phases_and_steps_until_last_turn():
    """Tank game turn: maintenance phase, then the combat phase's four fire/move steps."""
    cycle = PhaseCycle(
        {"maintenance": [], "combat": ["aimed fire", "leap fire", "movement", "advance fire"]},
        last_turn=10,
    )
    steps = list(cycle)
    assert len(steps) == 50
    assert str(steps[0]) == "turn 1 / maintenance"
    assert str(steps[3]) == "turn 1 / combat / movement"
    assert str(steps[-1]) == "turn 10 / combat / advance fire"


def test_phase_cycle_end_if_stops_before_a_turn():
    """end_if is asked before each new turn."""
    cycle = PhaseCycle(["only"], end_if=lambda turn: turn > 3)
    assert [s.turn for s in cycle] == [1, 2, 3]
    assert cycle.next_turn() is None


def test_player_turns_first_and_second_player():
    """First/second player turns, fixed or alternating the first player."""
    fixed = PlayerTurns(("first", "second"))
    assert [fixed.next_turn().actors for _ in range(4)] == [("first",), ("second",)] * 2
    alternating = PlayerTurns(("n", "s"), alternate=True)
    assert [alternating.next_turn().actors[0] for _ in range(4)] == ["n", "s", "s", "n"]


def test_impulses_end_after_three_consecutive_passes():
    """LnL operations phase: three consecutive passes end the phase."""
    impulses = AlternatingImpulses(("axis", "allies"), can_act=lambda side: True, pass_limit=3)
    order = []
    for passed in [False, True, True, False, True, True, True]:
        turn = impulses.next_turn()
        order.append(turn.actors[0])
        impulses.record(turn.actors[0], passed=passed)
    assert impulses.next_turn() is None
    assert order == ["axis", "allies", "axis", "allies", "axis", "allies", "axis"]


def test_impulses_skip_a_side_that_cannot_act_and_end_when_nobody_can():
    """LnL: when all of one side's units have acted, the other side continues alone."""
    left = {"axis": 1, "allies": 3}
    impulses = AlternatingImpulses(("axis", "allies"), can_act=lambda side: left[side] > 0)
    order = []
    while (turn := impulses.next_turn()) is not None:
        side = turn.actors[0]
        order.append(side)
        left[side] -= 1
        impulses.record(side, passed=False)
    assert order == ["axis", "allies", "allies", "allies"]


def test_impulses_refuse_out_of_order_records():
    """Recording an impulse for the wrong side is a programming error."""
    impulses = AlternatingImpulses(("a", "b"), can_act=lambda s: True)
    impulses.next_turn()
    with pytest.raises(RuntimeError):
        impulses.record("b", passed=False)
    with pytest.raises(RuntimeError):
        impulses.next_turn()


def test_initiative_track_high_to_low_with_simultaneous_ties():
    """MTTT 先导度: high to low; equal values act simultaneously."""
    track = InitiativeTrack({"Mami": 12, "Kyoko": 7, "Witch": 12, "Familiar": 3})
    turns = []
    while (turn := track.next_turn()) is not None:
        turns.append((turn.actors, turn.number))
    assert turns == [(("Mami", "Witch"), 12), (("Kyoko",), 7), (("Familiar",), 3)]


def test_rising_past_the_tick_acts_at_the_next_tick_and_never_loses_the_turn():
    """MTTT 先导度变动和同步动作: a risen character acts at the next tick, once per round."""
    track = InitiativeTrack({"Sayaka": 10, "Homura": 6, "Witch": 4})
    assert track.next_turn().actors == ("Sayaka",)
    track.set("Witch", 20)  # the witch gains a lot of initiative before her turn
    turn = track.next_turn()
    assert turn.actors == ("Witch",) and turn.number == 10
    track.set("Sayaka", 30)  # already acted: no second action this round
    assert track.next_turn().actors == ("Homura",)
    assert track.next_turn() is None
    track.new_round()
    assert track.next_turn().actors == ("Sayaka",)


def test_joining_mid_fight_prepared_or_unprepared():
    """MTTT: a prepared newcomer acts this round at her value; an unprepared one next round."""
    track = InitiativeTrack({"A": 10})
    track.next_turn()
    track.add("Prepared", 8)
    track.add("Unprepared", 9, acts_this_round=False)
    assert track.next_turn().actors == ("Prepared",)
    assert track.next_turn() is None
    track.new_round()
    assert [track.next_turn().actors[0] for _ in range(3)] == ["A", "Unprepared", "Prepared"]


def test_reversal_refreshes_a_turn():
    """MTTT 先导逆转: refresh() gives another turn this round."""
    track = InitiativeTrack({"A": 5, "B": 3})
    track.next_turn()
    track.next_turn()
    track.refresh("A")
    assert track.next_turn().actors == ("A",)


def test_aig_3_1_worked_example():
    """AIG 3.1 example: A-E (甲) and X-Z (乙) at value 2; 甲 wins the roll 7 to 2;
    A,X,B,Y,C,Z alternate, then 甲 activates D and E; higher values follow."""
    leaders = {n: ("jia", 2) for n in "ABCDE"} | {n: ("yi", 2) for n in "XYZ"} | {"K": ("yi", 3)}
    activation = LeaderActivation(leaders, ("jia", "yi"))
    dice = ScriptedDice([7, 2])
    order = []
    while (turn := activation.next_turn(dice)) is not None:
        side = turn.actors[0]
        # each player picks its leaders alphabetically, as in the example
        chosen = sorted(activation.candidates)[0]
        assert leaders[chosen][0] == side
        order.append(chosen)
        activation.activate(chosen)
    assert "".join(order) == "AXBYCZDEK"
    assert [r.purpose for r in dice.rolls] == [
        "AIG 3.1 activation roll-off (jia)",
        "AIG 3.1 activation roll-off (yi)",
    ]


def test_aig_3_1_roll_off_ties_are_rerolled():
    """AIG 3.1: 平手重投 — a tied roll-off is rolled again."""
    activation = LeaderActivation({"A": ("jia", 1), "X": ("yi", 1)}, ("jia", "yi"))
    dice = ScriptedDice([4, 4, 1, 8])
    assert activation.next_turn(dice).actors == ("yi",)
    assert len(dice.rolls) == 4


def test_aig_lowest_value_first_without_roll_when_one_side():
    """AIG 3.1: a lone lowest leader activates without a roll."""
    activation = LeaderActivation({"A": ("jia", 3), "X": ("yi", 1)}, ("jia", "yi"))
    turn = activation.next_turn()
    assert turn.actors == ("yi",) and activation.candidates == ("X",)


def test_aig_5_4_failed_seize_keeps_the_seized_turn():
    """AIG 5.4.1: a failed seize flips the seizer; the side still activates a candidate, and
    the alternation goes on as if nothing had happened."""
    leaders = {"A": ("jia", 2), "B": ("jia", 2), "X": ("yi", 2), "S": ("jia", 6)}
    activation = LeaderActivation(leaders, ("jia", "yi"))
    assert activation.next_turn(ScriptedDice([7, 2])).actors == ("jia",)
    activation.activate("S")  # the seize by S failed: S is flipped
    assert activation.candidates == ("A", "B")
    activation.activate("B")
    assert activation.next_turn().actors == ("yi",)


def test_aig_5_4_successful_seize_takes_the_turn():
    """AIG 5.4.1: a successful seizer acts in the turn's place; the seized leader acts later."""
    leaders = {"A": ("jia", 2), "X": ("yi", 2), "S": ("jia", 6)}
    activation = LeaderActivation(leaders, ("jia", "yi"))
    activation.next_turn(ScriptedDice([7, 2]))
    activation.activate("S", takes_turn=True)
    order = []
    while (turn := activation.next_turn()) is not None:
        order.append((turn.actors[0], activation.candidates))
        activation.activate(activation.candidates[0])
    assert order == [("yi", ("X",)), ("jia", ("A",))]


def test_aig_leader_activated_twice_is_refused():
    """A leader already activated this round cannot be activated again (a ruleset bug)."""
    activation = LeaderActivation({"A": ("jia", 1)}, ("jia",))
    activation.next_turn()
    activation.activate("A")
    with pytest.raises(ValueError, match="'A' was already activated"):
        activation.activate("A")
    with pytest.raises(KeyError, match="no leader 'Q'"):
        activation.activate("Q")


def test_phase_cycle_without_phases_and_player_turns_without_sides_are_refused():
    """An empty phase cycle would loop forever; turns without sides cannot be taken."""
    with pytest.raises(ValueError, match="at least one phase"):
        PhaseCycle([])
    with pytest.raises(ValueError, match="at least one side"):
        PlayerTurns(())


def test_aig_leaders_read_from_toml_as_lists():
    """Leaders given as [side, value] lists (as TOML and JSON give them) activate normally."""
    activation = LeaderActivation({"A": ["jia", 2], "X": ["yi", 1]}, ["jia", "yi"])
    assert activation.next_turn().actors == ("yi",)
    activation.activate("X")
    assert activation.next_turn().actors == ("jia",) and activation.candidates == ("A",)
