"""Restarts at checkpoints (issue 9): each game turn (§3) and each command phase (§3.2, §5.2)
opens with one, and a restart there gives the log a full replay gives."""

from __future__ import annotations

import pytest

from wargamekit import Decision, Game
from wargamekit import game as game_module
from wargamekit.players import RandomBot, bot_seed
from wargamekit.testing import check_checkpoints, play_random_game
from wargamekit_aig import Aig


@pytest.fixture
def every_checkpoint(monkeypatch):
    monkeypatch.setattr(game_module, "SNAPSHOT_SPACING", 0)  # a snapshot at every checkpoint
    monkeypatch.setattr(game_module, "SNAPSHOT_LIMIT", 10_000)


def test_checkpoints_open_each_turn_and_command_phase(every_checkpoint):
    """§3: "turn N" before the leader action phase; §5.1.2: one before each command phase of an
    activation, named by the turn, the leader and the phase number (also before the check that
    ends the activation)."""
    game = play_random_game(Aig(), "training", seed=2)
    labels = set(label for _, label in game.checkpoints)
    turn = 0
    phases = 0
    for event in game.log:
        if event.kind == "turn" and "turn" in event.data and event.text.startswith("Turn"):
            turn = event.data["turn"]
            assert f"turn {turn}" in labels
        if event.kind == "command-phase":
            phases += 1
            assert f"turn {turn} {event.data['leader']} command phase {event.data['phase']}" in labels
    assert phases > 10


@pytest.mark.parametrize("seed", [1, 4])
def test_restarts_at_command_phases_give_the_full_replays_log(every_checkpoint, seed):
    """A fork and an undo that restart at a command phase (the activation sequence and the
    activation under way read back from the state) give the full replay's log."""
    game = play_random_game(Aig(), "training", seed=seed)
    assert check_checkpoints(game, points=8) == 9


def test_each_individual_order_has_a_restart_point(every_checkpoint):
    """§5.2.2: a leader's individual orders are given one at a time; before each of his own
    (not a relay's, §4.3.3) there is a restart point named by the phase and the order's number,
    the orders left, who has moved and his MP left being in the state (the phase in
    ``state.underway``)."""
    game = Game.new(Aig(), "training", seed=2)
    asked: list[tuple[int, str]] = []  # (answers given, leader) of each of a leader's own orders

    def note(g: Game, decision: Decision) -> None:
        if decision.kind == "aig.order" and not decision.context["relay"]:
            asked.append((len(g.choices), decision.context["leader"]))

    game.play({side: RandomBot(bot_seed(2, i)) for i, side in enumerate(game.ruleset.sides)}, before_ask=note)
    orders = [(position, label) for position, label in game.checkpoints if " order " in label]
    assert len(asked) > 20
    # one right before each order asked (the last of a phase's may be "done"), naming its leader;
    # one more where the loop finds nothing left to offer and the orders end unasked
    at = dict(orders)
    for position, leader in asked:
        assert position in at, f"no restart point before the order at answer {position}"
        assert at[position].startswith("turn ") and f" {leader} command phase " in at[position]
        assert at[position].split(" order ")[1].isdigit()
    assert any(label.endswith(" order 1") for _, label in orders)
    assert any(not label.endswith(" order 1") for _, label in orders)


@pytest.mark.parametrize("seed", [2, 5])
def test_restarts_between_individual_orders_give_the_full_replays_log(every_checkpoint, seed):
    """A replay that restarts at each checkpoint between two individual orders (the orders left,
    who has moved and the leader's MP left read back from the state) gives the full replay's
    log, and played on to the end the whole game's."""
    game = play_random_game(Aig(), "training", seed=seed)
    choices, text = list(game.choices), game.log_text()
    at: dict[int, list[str]] = {}
    for position, label in game.checkpoints:
        at.setdefault(position, []).append(label)
    # the order checkpoints that are the only restart point at their answer (a phase's first
    # order shares it with the phase's own)
    points = [position for position, labels in at.items() if len(labels) == 1 and " order " in labels[0]]
    assert len(points) > 5
    for position in points:
        start = game._start_point(choices[:position])
        assert start is not None and start[0].label == at[position][0]
        restarted = game.replay(choices[:position])
        for choice in choices[position:]:
            restarted.answer(choice)
        assert restarted.log_text() == text, f"restart at {start[0].label!r}"
