"""Sequencers, checked against the rulebooks' own examples (AIG §3.1 and §5, LnL OPS 1)."""

from __future__ import annotations

import pytest

from wargamekit import ScriptedDice
from wargamekit.dice import SeededDice
from wargamekit.sequencing import (
    AlternatingImpulses,
    InitiativeTrack,
    LeaderActivation,
    PhaseCycle,
    PlayerTurns,
    Sequencer,
    Turn,
    TurnResult,
    by_phase,
    play_turns,
)

DICE = SeededDice(0)


def run(procedure):
    """Drive a procedure that asks no decisions; return its result."""
    try:
        next(procedure)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("the procedure asked a decision")


def test_every_sequencer_follows_the_protocol():
    """All presets implement next_turn(dice) and end_turn(turn, result)."""
    sequencers = [
        PhaseCycle(["a"], last_turn=1),
        PlayerTurns(("x", "y")),
        AlternatingImpulses(("x", "y"), can_act=lambda s: True),
        InitiativeTrack({"a": 1}),
        LeaderActivation({"A": ("x", 1)}, ("x", "y")),
    ]
    assert all(isinstance(s, Sequencer) for s in sequencers)


def test_play_turns_is_the_loop_and_a_turn_can_end_the_sequence():
    """play_turns runs each turn's procedure and stops on TurnResult(end=True) or end_if."""
    seen = []

    def take(turn):
        seen.append(turn.label)
        return TurnResult(end=turn.number == 2 and turn.actor == "y")
        yield

    results = run(play_turns(PlayerTurns(("x", "y")), DICE, take))
    assert seen == ["turn 1: x", "turn 1: y", "turn 2: x", "turn 2: y"]
    assert results[-1].end
    seen.clear()
    run(play_turns(PlayerTurns(("x", "y")), DICE, take, end_if=lambda: len(seen) == 3))
    assert seen == ["turn 1: x", "turn 1: y", "turn 2: x"]


def test_by_phase_dispatches_on_phase_and_step():
    """by_phase picks the procedure for "phase/step", else for "phase"; a missing one is named."""
    calls = []

    def handler(name):
        def proc(turn):
            calls.append((name, turn.number))
            return None
            yield

        return proc

    cycle = PhaseCycle({"rally": [], "operations": ["fire", "move"]}, last_turn=1)
    run(play_turns(cycle, DICE, by_phase({"rally": handler("r"), "operations/fire": handler("f"),
                                           "operations": handler("o")})))
    assert calls == [("r", 1), ("f", 1), ("o", 1)]
    with pytest.raises(KeyError, match="no procedure for phase 'rally'"):
        run(play_turns(PhaseCycle(["rally"], last_turn=1), DICE, by_phase({})))


def test_phase_cycle_repeats_phases_and_steps_until_last_turn():
    """PhaseCycle yields each step of each phase, turn after turn."""
    cycle = PhaseCycle({"a": [], "b": ["x", "y"]}, last_turn=2)
    assert [(t.number, t.phase, t.step) for t in cycle] == [
        (1, "a", None), (1, "b", "x"), (1, "b", "y"), (2, "a", None), (2, "b", "x"), (2, "b", "y"),
    ]


def test_phase_cycle_end_if_stops_before_a_turn_and_names_actors():
    """end_if is asked before each game turn; actors(turn, phase) says who acts in a phase."""
    cycle = PhaseCycle(["north", "south"], end_if=lambda n: n > 1, actors=lambda n, phase: (phase,))
    assert [t.actors for t in cycle] == [("north",), ("south",)]
    assert cycle.next_turn() is None


def test_phase_cycle_turn_ending_the_sequence_skips_the_rest_of_the_turn():
    """A phase that ends the sequence ends the game turn's remaining phases too."""
    cycle = PhaseCycle(["a", "b", "c"], last_turn=3)
    first = cycle.next_turn()
    cycle.end_turn(first, TurnResult(end=True))
    assert cycle.next_turn().label == "turn 2 / a"


def test_player_turns_first_and_second_player():
    """The first player acts first each turn; with alternation the lead changes hands."""
    fixed = PlayerTurns(("first", "second"))
    assert [fixed.next_turn().actors for _ in range(4)] == [("first",), ("second",)] * 2
    alternating = PlayerTurns(("n", "s"), alternate=True)
    assert [alternating.next_turn().actor for _ in range(4)] == ["n", "s", "s", "n"]


def test_player_turns_last_turn_and_first_by_play():
    """last_turn ends the sequence honestly; first(turn) lets play decide who leads."""
    turns = PlayerTurns(("a", "b"), last_turn=2, first=lambda n: "b" if n == 2 else "a")
    assert [t.label for t in iter(turns.next_turn, None)] == ["turn 1: a", "turn 1: b", "turn 2: b", "turn 2: a"]
    with pytest.raises(ValueError, match="first\\(1\\) gave 'c'"):
        PlayerTurns(("a", "b"), first=lambda n: "c").next_turn()


def test_impulses_end_after_three_consecutive_passes():
    """LnL OPS 1: three consecutive passes counted over both players end the phase."""
    impulses = AlternatingImpulses(("p1", "p2"), can_act=lambda s: True)
    script = [False, True, True, False, True, True, True]
    sides = []
    for passed in script:
        turn = impulses.next_turn()
        sides.append(turn.actor)
        impulses.end_turn(turn, TurnResult(passed=passed))
    assert impulses.next_turn() is None
    assert sides == ["p1", "p2", "p1", "p2", "p1", "p2", "p1"]


def test_impulses_skip_a_side_that_cannot_act_and_end_when_nobody_can():
    """A side with nothing left is skipped; the phase ends when no side can act."""
    left = {"a": 1, "b": 3}

    def take(turn):
        left[turn.actor] -= 1
        return None
        yield

    impulses = AlternatingImpulses(("a", "b"), can_act=lambda s: left[s] > 0)
    results = run(play_turns(impulses, DICE, take))
    assert len(results) == 4 and left == {"a": 0, "b": 0}


def test_impulses_forced_pass_reading():
    """With unable="pass" (the other reading of LnL A11), a side that cannot act passes."""
    impulses = AlternatingImpulses(("a", "b"), can_act=lambda s: s == "b", unable="pass")
    turn = impulses.next_turn()
    assert turn.actor == "b" and impulses.consecutive_passes == 1
    impulses.end_turn(turn, TurnResult(passed=True))
    # a: forced pass (3rd consecutive with b's and its own earlier one)
    assert impulses.next_turn() is None
    with pytest.raises(ValueError, match="'skip' or 'pass'"):
        AlternatingImpulses(("a",), can_act=lambda s: True, unable="wait")


def test_initiative_track_high_to_low_with_simultaneous_ties():
    """MTTT: highest first; equal values act together."""
    track = InitiativeTrack({"A": 5, "B": 9, "C": 5})
    turns = [t.actors for t in iter(track.next_turn, None)]
    assert turns == [("B",), ("A", "C")]


def test_rising_past_the_tick_acts_at_the_next_tick_and_never_loses_the_turn():
    """MTTT 先导度变动: a value raised above the current tick acts straight away."""
    track = InitiativeTrack({"Sayaka": 10, "Homura": 6, "Kyoko": 8})
    assert track.next_turn().actors == ("Sayaka",)
    track.set("Homura", 20)
    turn = track.next_turn()
    assert turn.actors == ("Homura",) and turn.number == 10
    assert track.next_turn().actors == ("Kyoko",)
    assert track.next_turn() is None
    track.new_round()
    assert track.next_turn().actors == ("Homura",)


def test_joining_mid_fight_prepared_or_unprepared():
    """A participant who joins unprepared first acts next round."""
    track = InitiativeTrack({"A": 5})
    track.next_turn()
    track.add("Prepared", 3)
    track.add("Unprepared", 4, acts_this_round=False)
    assert track.next_turn().actors == ("Prepared",)
    assert track.next_turn() is None
    track.new_round()
    assert [track.next_turn().actor for _ in range(3)] == ["A", "Unprepared", "Prepared"]


def test_reversal_refreshes_a_turn():
    """MTTT 先导逆转: a refreshed participant acts again this round."""
    track = InitiativeTrack({"A": 5, "B": 3})
    track.next_turn()
    track.next_turn()
    track.refresh("A")
    assert track.next_turn().actors == ("A",)


def activate_all(activation, dice, pick=lambda turn: sorted(turn.candidates)[0]):
    order = []

    def take(turn):
        chosen = pick(turn)
        order.append(chosen)
        return TurnResult(actor=chosen)
        yield

    run(play_turns(activation, dice, take))
    return order


def test_aig_3_1_worked_example():
    """AIG 3.1 example: A-E (甲) and X-Z (乙) at value 2; 甲 wins the roll 7 to 2;
    A,X,B,Y,C,Z alternate, then 甲 activates D and E; higher values follow."""
    leaders = {n: ("jia", 2) for n in "ABCDE"} | {n: ("yi", 2) for n in "XYZ"} | {"K": ("yi", 3)}
    activation = LeaderActivation(leaders, ("jia", "yi"), roll="AIG 3.1 activation roll-off")
    dice = ScriptedDice([7, 2])
    assert "".join(activate_all(activation, dice)) == "AXBYCZDEK"
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
    """AIG 3.1: a lone lowest leader activates without a roll (and needs no actor reported)."""
    activation = LeaderActivation({"A": ("jia", 3), "X": ("yi", 1)}, ("jia", "yi"))
    dice = ScriptedDice([])
    turn = activation.next_turn(dice)
    assert turn.actors == ("yi",) and turn.candidates == ("X",)
    activation.end_turn(turn, TurnResult())
    assert activation.activated == {"X"}


def test_aig_5_4_1_failed_seize_keeps_the_seized_turn():
    """AIG 5.4.1: a failed seize flips the seizer; the side still activates a candidate, and
    the alternation goes on as if nothing had happened."""
    leaders = {"A": ("jia", 2), "B": ("jia", 2), "X": ("yi", 2), "S": ("jia", 6)}
    activation = LeaderActivation(leaders, ("jia", "yi"))
    turn = activation.next_turn(ScriptedDice([7, 2]))
    assert turn.actors == ("jia",)
    activation.finish("S")  # the seize by S failed: S is flipped
    activation.end_turn(turn, TurnResult(actor="B"))
    assert activation.next_turn(DICE).actors == ("yi",)
    assert activation.activated == {"S", "B"}


def test_aig_5_4_1_successful_seize_takes_the_turn():
    """AIG 5.4.1: a successful seizer acts in the turn's place; the seized leader acts later."""
    leaders = {"A": ("jia", 2), "X": ("yi", 2), "S": ("jia", 6)}
    activation = LeaderActivation(leaders, ("jia", "yi"))
    turn = activation.next_turn(ScriptedDice([7, 2]))
    activation.end_turn(turn, TurnResult(actor="S"))
    order = []
    while (turn := activation.next_turn(DICE)) is not None:
        order.append((turn.actor, turn.candidates))
        activation.end_turn(turn, TurnResult(actor=turn.candidates[0]))
    assert order == [("yi", ("X",)), ("jia", ("A",))]


def test_aig_5_3_3_command_chaos_and_turn_cut_short():
    """AIG 5.3.3: 0-1 → none of that side's leaders activate for the rest of the turn; 9 → the
    turn goes straight to the rally phase."""
    leaders = {"A": ("jia", 1), "B": ("jia", 3), "X": ("yi", 2), "Y": ("yi", 4)}
    activation = LeaderActivation(leaders, ("jia", "yi"))
    turn = activation.next_turn(DICE)
    activation.end_turn(turn, TurnResult(actor="A"))
    activation.finish_side("jia")  # A's momentum rolled 9 then 0: command chaos
    assert activate_all(activation, DICE) == ["X", "Y"]
    activation.new_round()
    turn = activation.next_turn(DICE)
    activation.end_turn(turn, TurnResult(actor="A", end=True))  # 9 then 9
    assert activation.next_turn(DICE) is None


def test_aig_leaders_added_removed_and_refused_twice():
    """Promoted leaders join, killed ones leave; finishing a leader twice, an unknown leader or
    reporting no actor among several candidates is a ruleset bug, refused."""
    activation = LeaderActivation({"A": ("jia", 1), "B": ("jia", 1)}, ("jia",))
    turn = activation.next_turn(DICE)
    with pytest.raises(ValueError, match="report which of"):
        activation.end_turn(turn, TurnResult())
    activation.end_turn(turn, TurnResult(actor="A"))
    with pytest.raises(ValueError, match="'A' is already finished"):
        activation.finish("A")
    with pytest.raises(KeyError, match="no leader 'Q'"):
        activation.finish("Q")
    activation.remove("B")
    activation.add("J", "jia", 5)
    assert activate_all(activation, DICE) == ["J"]


def test_aig_turn_must_be_ended_before_the_next():
    """Asking for the next activation before ending the pending one is refused."""
    activation = LeaderActivation({"A": ("jia", 1), "B": ("jia", 2)}, ("jia",))
    turn = activation.next_turn(DICE)
    with pytest.raises(RuntimeError, match="end_turn\\(\\) the pending turn"):
        activation.next_turn(DICE)
    with pytest.raises(RuntimeError, match="not the pending turn"):
        activation.end_turn(Turn(actors=("jia",), label="stale"), TurnResult())
    activation.end_turn(turn, TurnResult())


def test_phase_cycle_without_phases_and_player_turns_without_sides_are_refused():
    """An empty phase cycle would loop forever; turns without sides cannot be taken."""
    with pytest.raises(ValueError, match="at least one phase"):
        PhaseCycle([])
    with pytest.raises(ValueError, match="at least one side"):
        PlayerTurns(())
    with pytest.raises(ValueError, match="has 2 actors, not one"):
        _ = Turn(actors=("a", "b")).actor


def test_aig_leaders_read_from_toml_as_lists():
    """Leaders given as [side, value] lists (as TOML and JSON give them) activate normally."""
    activation = LeaderActivation({"A": ["jia", 2], "X": ["yi", 1]}, ["jia", "yi"])
    assert activate_all(activation, DICE) == ["X", "A"]


# --- the hot sequencers' fast paths (issue 9, round window6) against the plain forms ---------


def test_a_turn_built_through_its_slots_is_the_turn_attrs_builds():
    """The sequencers build turns with ``_turn`` (past attrs' ``__init__``): the same turn."""
    from wargamekit.sequencing import _turn

    for args in [(("north",), "turn 1: north", 1), ((), "turn 2 / combat", 2, "combat", "aimed"),
                 (("jia",), "leader value 3: jia", 3, None, None, ("A", "B"))]:
        fast, plain = _turn(*args), Turn(*args)
        assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    with pytest.raises(AttributeError):
        fast.label = "changed"  # frozen all the same


class _SortedTrack(InitiativeTrack):
    """The track as it was before round window6: each turn sorts the participants yet to act."""

    def next_turn(self, dice=None):
        waiting = self.pending()
        if not waiting:
            return None
        best = self.values[waiting[0]]
        tick = best if self.tick is None else min(self.tick, best)
        actors = tuple(w for w in waiting if self.values[w] == best)
        self.tick = tick
        self.acted.update(actors)
        return Turn(actors=actors, label=f"tick {tick}", number=tick)


@pytest.mark.parametrize("seed", range(40))
def test_initiative_track_turns_are_those_of_sorting_who_is_pending(seed):
    """``InitiativeTrack.next_turn`` finds the highest value in one pass: the turns, ticks and
    who has acted are those of sorting ``pending()``, as values rise, fall, tie, join and leave."""
    import random

    rng = random.Random(seed)
    names = [f"u{i}" for i in range(6)]
    start = {name: rng.randint(1, 6) for name in names[:4]}
    fast, slow = InitiativeTrack(start), _SortedTrack(start)
    for _ in range(60):
        move, who, value = rng.random(), rng.choice(names), rng.randint(0, 7)
        for track in (fast, slow):
            if move < 0.5:
                track.next_turn()
            elif move < 0.7:
                track.set(who, value)
            elif move < 0.8:
                track.add(who, value, acts_this_round=value % 2 == 0)
            elif move < 0.87:
                track.remove(who)
            elif move < 0.95:
                track.refresh(who)
            else:
                track.new_round()
        assert (fast.tick, fast.acted, fast.values) == (slow.tick, slow.acted, slow.values)
    assert list(iter(fast.next_turn, None)) == list(iter(slow.next_turn, None))


class _TurningActivation(LeaderActivation):
    """The activation as it was before round window6: the side order turned one step at a time."""

    def next_turn(self, dice):
        left = self.remaining()
        if not left:
            return None
        if self._level is None or not any(self.leaders[n][1] == self._level for n in left):
            self._start_level_by_steps(dice)
        level = self._level
        for _ in range(len(self._order)):
            side = self._order[0]
            self._order = self._order[1:] + [side]
            mine = tuple(n for n in left if self.leaders[n] == (side, level))
            if mine:
                self._pending = Turn(
                    actors=(side,), label=f"leader value {level}: {side}", number=level or 0, candidates=mine
                )
                return self._pending
        self._level = None
        return self.next_turn(dice)

    def _start_level_by_steps(self, dice):
        # (the form before round window6, kept whole: the reference shares none of the new code)
        left = self.remaining()
        self._level = min(self.leaders[n][1] for n in left)
        at_level = [n for n in left if self.leaders[n][1] == self._level]
        contenders = [s for s in self.sides if any(self.leaders[n][0] == s for n in at_level)]
        self._order = contenders
        if len(contenders) > 1:
            while True:  # ties are re-rolled
                rolls = {s: dice.d10(f"{self.roll} ({s})") for s in contenders}
                top = max(rolls.values())
                winners = [s for s in contenders if rolls[s] == top]
                if len(winners) == 1:
                    break
            self._order = [winners[0]] + [s for s in contenders if s != winners[0]]


@pytest.mark.parametrize("seed", range(40))
def test_leader_activation_turns_are_those_of_turning_the_order_step_by_step(seed):
    """``LeaderActivation.next_turn`` turns the side order once per turn: the turns, rolls and
    state are those of the step-by-step form, with seizes, leaders finished out of turn, whole
    sides finished, leaders added and removed, and rounds cut short."""
    import random

    rng = random.Random(seed)
    sides = ("jia", "yi", "bing")[: rng.randint(2, 3)]
    leaders = {f"L{i}": (rng.choice(sides), rng.randint(1, 4)) for i in range(rng.randint(3, 9))}
    fast, slow = LeaderActivation(leaders, sides), _TurningActivation(leaders, sides)
    fast_dice, slow_dice = SeededDice(seed), SeededDice(seed)
    for _ in range(3):  # rounds
        while (turn := fast.next_turn(fast_dice)) is not None:
            assert turn == slow.next_turn(slow_dice)
            move = rng.random()
            left = fast.remaining()
            others = [n for n in left if n not in turn.candidates]
            for activation in (fast, slow):
                if move < 0.1 and others:
                    activation.finish(others[0])  # a failed seizer
                elif move < 0.15:
                    activation.finish_side(sides[-1])  # command chaos
                elif move < 0.2:
                    activation.add(f"N{len(activation.leaders)}", sides[0], 2, finished=move < 0.17)
            seizer = others[-1] if 0.2 <= move < 0.3 and others else None
            actor = seizer or turn.candidates[int(move * 100) % len(turn.candidates)]
            result = TurnResult(actor=actor, end=move > 0.97)
            if actor in fast.activated:
                result = TurnResult(actor=turn.candidates[0], end=result.end)
            fast.end_turn(turn, result)
            slow.end_turn(turn, result)
            if 0.3 <= move < 0.35 and left:
                fast.remove(left[0])
                slow.remove(left[0])
            assert (fast.activated, fast._order, fast._level) == (slow.activated, slow._order, slow._level)
        assert slow.next_turn(slow_dice) is None
        fast.new_round()
        slow.new_round()
    assert fast_dice.rolls == slow_dice.rolls
