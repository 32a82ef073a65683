"""Lazy option labels (issue 9): an option's label may be a zero-argument callable, made on its
first read, so a bot that never reads labels never pays for them; to every reader the option is
as if built with the text."""

from __future__ import annotations

import copy
import io
import pickle

import attrs
import pytest
from attrs import define, frozen
from rich.console import Console

from wargamekit import (
    Choose,
    ChooseSubset,
    Game,
    InvalidChoiceError,
    Outcome,
    RandomBot,
    Ruleset,
    ScriptedDice,
    ScriptedPlayer,
)
from wargamekit.decisions import Option
from wargamekit.players import TerminalPlayer
from wargamekit.testing import check_prose_independence, check_ruleset, rewrite_prose


@frozen
class RangeScenario:
    targets: tuple[str, ...] = ("crow", "fox", "boar")
    shots: int = 4


@define
class RangeState:
    hits: dict[str, int]
    shots: int = 0


#: Every call of a lazy label, in order: what the tests count.
MADE: list[str] = []


class ShootingRange(Ruleset):
    """Two sides take turns to pick a target and roll a d6 to hit it (5+). Each option's label
    carries the chance to hit, as an opportunity-fire offer would; with the option ``lazy`` it
    is a lazy label that records its calls in :data:`MADE`."""

    name = "shooting_range"
    version = "1.0"
    description = "A two-player dice game whose option labels may be lazy (core tests)."
    sides = ("red", "blue")
    scenario_type = RangeScenario

    def scenario_data(self, name: str = "default") -> dict:
        if name != "default":
            raise LookupError(name)
        return {"targets": ["crow", "fox", "boar"], "shots": 4}

    def setup(self, scenario, options):
        return RangeState(hits={side: 0 for side in self.sides})

    def options(self):
        return {"lazy": True}

    def view(self, state, side):
        return {"hits": dict(state.hits), "shots": state.shots}

    def play(self, game):
        state = game.state
        while state.shots < game.scenario.shots:
            for side in self.sides:
                state.shots += 1

                def label(target: str, side: str = side) -> str:
                    # The label reads the state as it is while the decision is pending.
                    MADE.append(target)
                    return f"{side} fires at the {target} (hit on 5+: 33%, {state.hits[side]} hits so far)"

                options = [
                    Option(target, (lambda t=target: label(t)) if game.options["lazy"] else label(target),
                           data={"target": target})
                    for target in game.scenario.targets
                ]
                target = yield Choose(side=side, prompt="Fire at?", rule="R1", kind="shooting_range.target",
                                      options=options)
                if game.dice.d6(f"{side} fires at the {target}") >= 5:
                    state.hits[side] += 1
                    game.event("hit", f"{side} hits the {target}", side=side)
        best = max(state.hits.values())
        winners = [side for side in self.sides if state.hits[side] == best]
        return Outcome(winners[0] if len(winners) == 1 else None, "R2: most hits", dict(state.hits))


RANGE = ShootingRange()


def _random_game(seed: int, lazy: bool) -> Game:
    game = Game.new(RANGE, seed=seed, options={"lazy": lazy})
    game.play({side: RandomBot(seed * 10 + i) for i, side in enumerate(RANGE.sides)})
    return game


def test_a_bot_never_makes_a_lazy_label_and_the_log_makes_only_the_chosen_one():
    """A random bot answers from the options' count alone: of the 3 labels offered at each of
    the 4 decisions only the chosen one is made, once, when the game logs the choice."""
    MADE.clear()
    game = _random_game(3, lazy=True)
    assert len(game.choices) == 4
    chosen = [RANGE.scenario_data()["targets"][answer] for answer in game.choices]
    assert MADE == chosen


def test_lazy_labels_leave_the_log_byte_identical():
    """Same seed and answers, labels eager or lazy: the same log bytes, the same outcome."""
    for seed in range(20):
        eager, lazy = _random_game(seed, lazy=False), _random_game(seed, lazy=True)
        assert lazy.choices == eager.choices
        assert lazy.log_text().encode() == eager.log_text().encode()
        assert lazy.outcome == eager.outcome


def test_a_lazy_label_is_made_once_when_read_and_is_a_str():
    MADE.clear()
    game = Game.new(RANGE, dice=ScriptedDice([5, 1, 1, 1]))
    options = game.pending.options
    assert MADE == []
    assert options[1].label == "red fires at the fox (hit on 5+: 33%, 0 hits so far)"
    assert type(options[1].label) is str and type(options[1]) is Option
    assert MADE == ["fox"]
    assert game.pending.labels[1] == options[1].label and MADE == ["fox", "crow", "boar"]


def test_scripted_labels_make_the_labels_and_indices_do_not():
    """ScriptedPlayer matches a label against the made labels; an index makes none."""
    MADE.clear()
    game = Game.new(RANGE, dice=ScriptedDice([5, 1, 6, 2]))
    outcome = game.play({
        "red": ScriptedPlayer([0, "red fires at the boar (hit on 5+: 33%, 1 hits so far)"]),
        "blue": ScriptedPlayer([2, 1]),
    })
    # red hits the crow (5), blue misses the boar (1), red hits the boar (6), blue misses the fox (2).
    assert outcome.scores == {"red": 2, "blue": 0} and outcome.winner == "red"
    assert MADE == ["crow", "boar", "crow", "fox", "boar", "fox"]  # logged, logged, matched (all 3), logged
    with pytest.raises(InvalidChoiceError, match="no option 'wolf'"):
        ScriptedPlayer(["wolf"]).choose(Game.new(RANGE, seed=0).pending, None)


def test_the_log_line_is_the_chosen_lazy_label_as_the_state_was():
    """The log reads the chosen label before the procedure goes on, so it is the label as
    offered (0 hits so far), not as the state is after the hit."""
    game = Game.new(RANGE, dice=ScriptedDice([6, 1]))
    game.answer(2)
    choices = [e.text for e in game.log if e.kind == "choice"]
    assert choices == ["red: Fire at? -> red fires at the boar (hit on 5+: 33%, 0 hits so far)"]
    assert game.state.hits["red"] == 1


def test_equality_hash_pickle_copy_and_evolve_are_those_of_the_text():
    def lazy(text: str) -> Option:
        return Option(("fire", 2), lambda: text, public="fire", data={"target": 2})

    plain = Option(("fire", 2), "fire at T-34 #2 (58%)", public="fire", data={"target": 2})
    assert lazy("fire at T-34 #2 (58%)") == plain and plain == lazy("fire at T-34 #2 (58%)")
    assert lazy("fire at T-34 #2 (41%)") != plain
    assert hash(lazy("fire at T-34 #2 (58%)")) == hash(plain)
    assert len({lazy("fire at T-34 #2 (58%)"), plain}) == 1
    for carried in (pickle.loads(pickle.dumps(lazy("fire at T-34 #2 (58%)"))),
                    copy.deepcopy(lazy("fire at T-34 #2 (58%)")), copy.copy(lazy("fire at T-34 #2 (58%)"))):
        assert type(carried) is Option and carried == plain
    assert repr(lazy("fire at T-34 #2 (58%)")) == repr(plain)
    assert attrs.evolve(lazy("fire at T-34 #2 (58%)"), public="shoot") == attrs.evolve(plain, public="shoot")
    made_late = attrs.evolve(plain, label=lambda: "made late")
    assert made_late.label == "made late" and made_late.public_label == "fire"


def test_choose_of_lazy_labels_calls_the_label_function_only_for_read_options():
    calls: list[int] = []

    def label(value: int) -> str:
        calls.append(value)
        return f"unit {value}"

    d = Choose.of("a", "pick", [1, 2, 3], label=label, lazy_labels=True, data=lambda v: {"unit": v})
    assert calls == []
    assert d.describe(1) == "unit 2" and calls == [2]
    assert d == Choose.of("a", "pick", [1, 2, 3], label=label, data=lambda v: {"unit": v})
    assert calls == [2, 1, 2, 3, 1, 3]  # the eager build, then equality makes the rest
    subset = ChooseSubset(side="a", prompt="pick", options=[Option(i, lambda i=i: f"#{i}") for i in range(4)])
    assert subset.describe([0, 3]) == "#0, #3"


def test_terminal_player_prints_lazy_labels():
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    console.input = lambda prompt="": (out.write(str(prompt)), "1")[1]  # type: ignore[method-assign]
    d = Choose(side="a", prompt="Fire at?", options=[Option(i, lambda i=i: f"target {i} (50%)") for i in range(2)])
    assert TerminalPlayer(console).choose(d, None) == 1
    assert "target 0 (50%)" in out.getvalue() and "target 1 (50%)" in out.getvalue()


def test_prose_rewriting_and_conformance_hold_with_lazy_labels():
    """check_prose_independence rewrites lazy labels like any other; the ruleset passes the
    conformance check (replay, save/load, undo, checkpoints, non-interference)."""
    d = Game.new(RANGE, seed=1).pending
    assert rewrite_prose(d, str.upper).labels == [label.upper() for label in d.labels]
    assert check_prose_independence(RANGE, {side: RandomBot for side in RANGE.sides}, seeds=range(3)) == 12
    report = check_ruleset(RANGE, games=4, structured=True)
    assert report.games == 4 and report.decisions == 16


def test_a_lazy_label_that_makes_no_str_is_refused_when_read():
    option = Option(1, lambda: 42)  # type: ignore[arg-type, return-value]
    with pytest.raises(TypeError, match="a lazy option label must make a str.* made 42"):
        _ = option.label


def test_a_lazy_label_is_for_option_itself():
    @frozen(init=False)
    class Marked(Option):
        pass

    with pytest.raises(TypeError, match="Marked: a lazy label is for an Option itself"):
        Marked(1, lambda: "x")
    assert Marked(1, "x").label == "x"
