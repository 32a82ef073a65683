"""§3.1 / §5 leader activation, momentum and seizes, with forced dice."""

from wargamekit import Game, ScriptedDice
from wargamekit.sequencing import TurnResult
from wargamekit_aig import Aig, kinds
from wargamekit_aig.activation import LeaderAction, PhaseRun, activation_sequence, give_skip, sync
from wargamekit_aig.odds_calc import momentum, momentum_odds, seize_odds


def _example_game(k, dice):
    leaders = [k.leader(n, "red", "0101", "oc" if n == "A" else "ordinary", initiative=2) for n in "ABCDE"]
    leaders += [k.leader(n, "blue", "1208", "oc" if n == "X" else "ordinary", initiative=2) for n in "XYZ"]
    data = k.scenario([k.unit("r", "red", "0201"), k.unit("b", "blue", "1108")], leaders)
    return Game.new(Aig(), data, dice=ScriptedDice(dice))


def _answer(k, game, want):
    game.answer(k.pick(game.pending, want))


def test_3_1_worked_example_A_X_B_Y_C_Z_D_E(k):
    """[3.1-4] the rulebook's example: 甲 rolls 7, 乙 2; they alternate A,X,B,Y,C,Z, then 甲 activates D, E."""
    game = _example_game(k, [7, 2])

    def order():
        return [e.data["leader"] for e in game.log if e.kind == "command-phase"]

    while len(order()) < 8:
        d = game.pending
        if d.kind == kinds.ACTIVATE:  # a side picks among its own tied leaders (a lone one is automatic)
            _answer(k, game, {"leader": sorted(o.data["leader"] for o in d.options)[0]})
        elif d.kind == kinds.COMMAND:
            _answer(k, game, {"mode": "stand by"})
        else:
            raise AssertionError(d.kind)
    order = order()
    assert order == ["A", "X", "B", "Y", "C", "Z", "D", "E"]


def test_3_1_tie_rolls_are_rerolled(k):
    """[3.1-2] a tied roll-off is rolled again: 4-4, then 1-6 → 乙 (blue) goes first."""
    game = _example_game(k, [4, 4, 1, 6])
    assert game.pending.kind == kinds.ACTIVATE and game.pending.side == "blue"


def test_5_1_junior_leaders_never_enter_the_queue(k):
    """[4.3.3-b] junior leaders take no part in the activation phase."""
    ls = [k.leader("R", "red", "0101", "oc"), k.leader("J", "red", "0201", "junior", superior="R", group_orders=0,
                                                    initiative=1), k.leader("B", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("r", "red", "0202"), k.unit("b", "blue", "1108")], ls))
    seq = activation_sequence(t.state, ("red", "blue"))
    assert set(seq.leaders) == {"R", "B"}


def test_5_3_momentum_rolls():
    """[5.3.2] d10 ≤ initiative succeeds; [5.3.3] a 9 forces a second roll: 0-1 chaos, 2-8 failure,
    9 the turn ends (Q17: a first 9 never succeeds)."""
    assert momentum(ScriptedDice([4]), 4) == "success"
    assert momentum(ScriptedDice([5]), 4) == "failure"
    assert momentum(ScriptedDice([9, 1]), 9) == "chaos"
    assert momentum(ScriptedDice([9, 5]), 9) == "failure"
    assert momentum(ScriptedDice([9, 9]), 4) == "turn ends"
    odds = momentum_odds(4)
    assert odds["success"] == 0.5 and odds["chaos"] * 50 == 1 and odds["turn ends"] * 100 == 1


def _duel(k, red_init=4, blue_init=6, dice=()):
    ls = [k.leader("R", "red", "0101", "oc", initiative=red_init, command="rc"),
          k.leader("R2", "red", "0102", initiative=7, command="rc"),
          k.leader("B", "blue", "1208", "oc", initiative=blue_init, command="bc"),
          k.leader("B1", "blue", "1207", initiative=1, command="bc")]
    t = k.Table(k.scenario([k.unit("r", "red", "0202", command="rc"), k.unit("b", "blue", "1108", command="bc")], ls),
              list(dice))
    seq = activation_sequence(t.state, ("red", "blue"))
    return t, LeaderAction(t.ctx, seq), seq


def test_5_3_momentum_gives_another_command_phase_and_at_most_three(k):
    """[5.3.2] success → another command phase; [5.1.2] at most three command phases per turn."""
    t, action, seq = _duel(k, dice=[0, 0])
    red = t.state.leaders["R"]
    stand = {"mode": "individual"}
    k.drive(action.activate(red, seized=False), [
        stand, {"order": "done"}, {"momentum": True}, {"pass": True},
        stand, {"order": "done"}, {"momentum": True}, {"pass": True},
        stand, {"order": "done"}])
    assert red.phases == 3 and red.finished and "R" in seq.activated


def test_5_3_3_command_chaos_finishes_the_whole_side(k):
    """[5.3.3] 9 then 0-1: the leader is finished and no leader of his side may act this turn."""
    t, action, seq = _duel(k, dice=[9, 0])
    k.drive(action.activate(t.state.leaders["R"], seized=False),
          [{"mode": "individual"}, {"order": "done"}, {"momentum": True}])
    assert {"R", "R2"} <= seq.activated and "B" not in seq.activated
    assert t.state.chaos == ["red"]


def test_5_3_3_nine_after_nine_ends_the_turn(k):
    """[5.3.3] 9 then 9: straight to the rally phase (the activation reports the end)."""
    t, action, seq = _duel(k, dice=[9, 9])
    ended = k.drive(action.activate(t.state.leaders["R"], seized=False),
                  [{"mode": "individual"}, {"order": "done"}, {"momentum": True}])
    assert ended is True


def test_5_4_2_1_passive_side_seizes_a_successful_momentum(k):
    """[5.4.2.1] after a successful momentum the passive leader seizes on d10 ≤ 6: the momentum
    leader is finished, the seizer takes a command phase and, skipped (§5.4.4), no momentum.
    [5.4.5] the seizer may not stand by: "done" is offered only once a unit moved to another hex."""
    t, action, seq = _duel(k, dice=[3, 6])
    k.drive(action.activate(t.state.leaders["R"], seized=False), [
        {"mode": "individual"}, {"order": "done"}, {"momentum": True}, {"seizer": "B"},
        {"mode": "individual"}, {"order": "activate", "unit": "b"}, {"step": "move", "hex": "1008"},
        {"step": "stop"}, {"order": "done"}])
    r, b = t.state.leaders["R"], t.state.leaders["B"]
    assert r.finished and r.phases == 1 and b.phases == 1 and b.finished
    assert not any(e.kind == "momentum" and e.data["leader"] == "B" for e in t.ctx.log)


def test_5_4_2_1_failed_passive_seize_finishes_the_seizer(k):
    """[5.4.2.1] failure (7 > 6): the seizer is finished; the momentum leader goes on."""
    t, action, seq = _duel(k, dice=[3, 7])
    k.drive(action.activate(t.state.leaders["R"], seized=False), [
        {"mode": "individual"}, {"order": "done"}, {"momentum": True}, {"seizer": "B"},
        {"mode": "individual"}, {"order": "done"}, {"momentum": False}])
    assert t.state.leaders["B"].finished and "B" in seq.activated and t.state.leaders["R"].phases == 2


def test_5_4_1_queue_jump_and_the_seize_of_a_seize(k):
    """[5.4.1] R2 (7) jumps R's (4) slot on a 5; [5.4.2.2] B (8) seizes that seize on a 2: R2 is
    finished, B acts; R is still due; [5.4.4] R2's attempt skipped every inactive leader ≤ 7 (so
    only a passive leader above 7 could answer it)."""
    t, action, seq = _duel(k, blue_init=8, dice=[5, 2])
    turn = seq.next_turn(t.ctx.dice)
    assert turn.candidates == ("B1",)  # blue's initiative-1 leader is due first
    seq.end_turn(turn, TurnResult(actor="B1"))
    turn = seq.next_turn(t.ctx.dice)
    assert turn.candidates == ("R",)
    result = k.drive(action.take_turn(turn), [
        {"seizer": "R2"}, {"seizer": "B"}, {"mode": "individual"}, {"order": "activate", "unit": "b"},
        {"step": "move", "hex": "1008"}, {"step": "stop"}, {"order": "done"}])
    seq.end_turn(turn, result)
    s = t.state.leaders
    assert result.actor == "B" and s["R2"].finished and s["B"].finished and not s["R"].finished
    assert s["R"].skip and "R" not in seq.activated


def test_5_4_1_failed_queue_jump_and_the_due_leader_acts(k):
    """[5.4.1] failure (8 > 7): the seizer is finished, the due leader takes his activation."""
    t, action, seq = _duel(k, dice=[8])
    t.state.leaders["B1"].finished = True
    seq.finish("B1")
    turn = seq.next_turn(t.ctx.dice)
    result = k.drive(action.take_turn(turn), [
        {"seizer": "R2"}, {"mode": "individual"}, {"order": "done"}])
    assert result.actor == "R" and t.state.leaders["R2"].finished
    # skipped (§5.4.4), R may not try momentum: no momentum decision was asked.


def test_5_4_odds():
    """Exact odds of a seize: d10 ≤ initiative, so initiative 6 succeeds 7 times in 10."""
    assert seize_odds(6) * 10 == 7 and seize_odds(0) * 10 == 1


def test_give_skip_marks_both_sides(k):
    """[5.4.4] both sides' inactive leaders with initiative ≤ the seizer's get skip; finished ones not."""
    t, action, seq = _duel(k)
    t.state.leaders["B1"].finished = True
    give_skip(t.ctx, t.state.leaders["B"])
    skip = {n for n, ld in t.state.leaders.items() if ld.skip}
    assert skip == {"R", "B"}


def test_5_4_3_one_queue_jump_attempt_per_activation(k):
    """[5.4.3-1] after R2's failed attempt (9 > 7) R3 may not try again for the same activation."""
    ls = [k.leader("R", "red", "0101", "oc", initiative=4, command="rc"),
          k.leader("R2", "red", "0102", initiative=7, command="rc"),
          k.leader("R3", "red", "0103", initiative=8, command="rc"),
          k.leader("B", "blue", "1208", "oc", initiative=9, command="bc")]
    t = k.Table(k.scenario([k.unit("r", "red", "0202", command="rc"), k.unit("b", "blue", "1108", command="bc")],
                           ls), [9])
    seq = activation_sequence(t.state, ("red", "blue"))
    action = LeaderAction(t.ctx, seq)
    turn = seq.next_turn(t.ctx.dice)
    result = k.drive(action.take_turn(turn), [{"seizer": "R2"}, {"mode": "individual"}, {"order": "done"}])
    assert result.actor == "R" and t.state.leaders["R2"].finished and not t.state.leaders["R3"].finished


def test_sync_keeps_the_sequencer_and_the_leaders_in_step(k):
    """sync, every case: a leader due stays as he is; a fallen one and one flipped finished are
    finished in the sequencer; a leader promoted in the field joins finished (§4.4.3), a junior
    never (§4.3.3); every finished leader loses his skip status (§5.4.4)."""
    ls = [k.leader("R", "red", "0101", "oc"), k.leader("S", "red", "0102"), k.leader("T", "red", "0103"),
          k.leader("J", "red", "0201", "junior", superior="R", group_orders=0, initiative=1),
          k.leader("P", "red", "0301", "junior", superior="R", group_orders=0, initiative=1),
          k.leader("B", "blue", "1208", "oc"), k.leader("C", "blue", "1207")]
    t = k.Table(k.scenario([k.unit("r", "red", "0202"), k.unit("b", "blue", "1108")], ls))
    state = t.state
    seq = activation_sequence(state, ("red", "blue"))
    seq.finish("C")
    state.leaders["S"].alive = False
    state.leaders["T"].finished = True
    state.leaders["P"].rank = "ordinary"  # promoted in the field (§4.3.1.e)
    for name in "RSTJPBC":
        state.leaders[name].skip = True
    sync(state, seq)
    assert seq.remaining() == ["R", "B"]
    assert seq.activated == {"S", "T", "P", "C"} and set(seq.leaders) == {"R", "S", "T", "P", "B", "C"}
    assert {n for n, ld in state.leaders.items() if ld.finished} == {"S", "T", "P", "C"}
    assert {n for n, ld in state.leaders.items() if ld.skip} == {"R", "J", "B"}


def test_a_phase_run_takes_a_phase_as_its_turn_would(k):
    """PhaseRun.take_phase (the game's loop) answers as next_turn (play_turns) does: one phase,
    another only after a successful momentum, none for a leader finished or fallen."""
    t = k.Table(k.scenario([k.unit("r", "red", "0202"), k.unit("b", "blue", "1108")]))
    leader = t.state.leaders["Red OC"]
    for result, edit in ((TurnResult(), None), (TurnResult(passed=True), None), (TurnResult(), "finished"),
                         (TurnResult(), "fallen")):
        by_turn, by_take = PhaseRun(leader), PhaseRun(leader)
        if edit == "finished":
            leader.finished = True
        elif edit == "fallen":
            leader.finished, leader.alive = False, False
        turn = by_turn.next_turn()
        assert by_take.take_phase() is (turn is not None)
        assert by_take.take_phase() is False and by_turn.next_turn() is None  # until end_turn
        if turn is not None:
            by_turn.end_turn(turn, result)
            by_take.end_turn(None, result)
            assert by_take.take_phase() is (by_turn.next_turn() is not None) is not result.passed
