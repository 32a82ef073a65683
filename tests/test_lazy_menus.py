"""Lazy menus (issue 9): a menu whose options are made one by one when read
(``Choose.of(..., lazy=True)``, :class:`~wargamekit.decisions.LazyOptions`), so a bot that reads one
option, or only their count, pays for one; to every reader the decision is as if built eagerly."""

from __future__ import annotations

import copy
import io
import pickle
import re

import attrs
import pytest
from attrs import define, frozen
from rich.console import Console

from wargamekit import (
    Choose,
    ChooseSubset,
    Game,
    InvalidChoiceError,
    LazyOptions,
    OptionError,
    Outcome,
    RandomBot,
    Ruleset,
    ScriptedDice,
    ScriptedPlayer,
    StaleOptionError,
)
from wargamekit.decisions import Data, Option
from wargamekit.players import TerminalPlayer, auto_pass
from wargamekit.rl.actions import ActionCursor, actions_for
from wargamekit.testing import check_prose_independence, check_ruleset, rewrite_prose


@frozen
class GalleryScenario:
    targets: tuple[str, ...] = ("crow", "fox", "boar", "hare")
    shots: int = 6


@define
class GalleryState:
    hits: dict[str, int]
    shots: int = 0


#: Every call of a menu's label and data functions, in order: what the tests count.
CALLS: list[tuple[str, str]] = []


class Gallery(Ruleset):
    """Two sides take turns to pick a target and roll a d6 to hit it (5+, the boar 6). Each
    option's label carries the hits so far and its data the target's number, both read from
    the state while the decision is pending; with the option ``lazy`` the menu is lazy."""

    name = "gallery"
    version = "1.0"
    description = "A two-player dice game whose menus may be lazy (core tests)."
    sides = ("red", "blue")
    scenario_type = GalleryScenario

    def scenario_data(self, name: str = "default") -> dict:
        if name != "default":
            raise LookupError(name)
        return {"targets": ["crow", "fox", "boar", "hare"], "shots": 6}

    def setup(self, scenario, options):
        return GalleryState(hits={side: 0 for side in self.sides})

    def options(self):
        return {"lazy": True}

    def view(self, state, side):
        return {"hits": dict(state.hits), "shots": state.shots}

    def play(self, game):
        state = game.state
        targets = game.scenario.targets
        while state.shots < game.scenario.shots:
            for side in self.sides:
                state.shots += 1

                def label(target: str, side: str = side) -> str:
                    CALLS.append(("label", target))
                    need = 6 if target == "boar" else 5
                    return f"{side} fires at the {target} (hit on {need}+, {state.hits[side]} hits so far)"

                def data(target: str) -> dict:
                    CALLS.append(("data", target))
                    return {"target": target, "number": targets.index(target), "shot": state.shots}

                target = yield Choose.of(side, "Fire at?", targets, rule="R1", kind="gallery.target",
                                         label=label, data=data, lazy=game.options["lazy"])
                if game.dice.d6(f"{side} fires at the {target}") >= (6 if target == "boar" else 5):
                    state.hits[side] += 1
                    game.event("hit", f"{side} hits the {target}", side=side)
        best = max(state.hits.values())
        winners = [side for side in self.sides if state.hits[side] == best]
        return Outcome(winners[0] if len(winners) == 1 else None, "R2: most hits", dict(state.hits))


GALLERY = Gallery()
TARGETS = ("crow", "fox", "boar", "hare")


def _random_game(seed: int, lazy: bool) -> Game:
    game = Game.new(GALLERY, seed=seed, options={"lazy": lazy})
    game.play({side: RandomBot(seed * 10 + i) for i, side in enumerate(GALLERY.sides)})
    return game


def _menu(lazy: bool, calls: list[int] | None = None) -> Choose:
    def label(value: int) -> str:
        if calls is not None:
            calls.append(value)
        return f"unit {value}"

    return Choose.of("a", "Which unit?", [1, 2, 3, 4], rule="3.1", label=label,
                     data=lambda v: {"unit": v, "to": [v, v + 1]}, lazy=lazy)


# -- a bot makes only what it reads -----------------------------------------------------------------
def test_a_random_bot_makes_only_the_chosen_label_of_each_menu():
    """A random bot answers from the count alone: of the 4 options offered at each of the 6
    decisions only the chosen one's label is made (once), when the game logs the choice; no
    option's data is made, since nobody reads it (the answer reads the label alone)."""
    CALLS.clear()
    game = _random_game(3, lazy=True)
    assert len(game.choices) == 6
    chosen = [TARGETS[answer] for answer in game.choices]
    assert CALLS == [("label", target) for target in chosen]


def test_an_option_read_while_pending_is_the_eager_one_and_the_answer_seals_the_rest():
    """An option read while the decision is pending is made then, equal to the option the eager
    menu offered (its label and data), and the answer uses it (its label not made twice); read
    after the answer it is the same option. The answer leaves the chosen option unmade if
    nobody read it: it, and every other option not read, is sealed (``StaleOptionError``);
    ``describe`` still gives the label the log wrote."""
    game = Game.new(GALLERY, dice=ScriptedDice([1, 1]))
    decision = game.pending
    eager = Game.new(GALLERY, options={"lazy": False}).pending
    CALLS.clear()
    option = decision.options[1]
    assert CALLS == [("label", "fox"), ("data", "fox")]
    assert option.label == eager.options[1].label and option.value == "fox"
    game.answer(1)
    assert CALLS == [("label", "fox"), ("data", "fox")]  # (the label made once)
    assert decision.options[1] is option and option.data["target"] == "fox"
    for index in (0, 2, 3):
        with pytest.raises(StaleOptionError, match=rf"^Fire at\? \[R1\]: option {index} \('\w+'\) is lazy and was not made"):
            decision.options[index]  # noqa: B018 - the read is what raises
    decision = game.pending
    game.answer(2)
    with pytest.raises(StaleOptionError):
        decision.options[2]  # noqa: B018 - the chosen option, never read, is sealed too
    logged = [event.text for event in game.log if event.kind == "choice"][-1]
    assert decision.describe(2) == logged.split(" -> ")[1] and CALLS[-1] == ("label", "boar")


def test_an_eager_menu_makes_every_option():
    """The count the lazy menu saves: the same game built eagerly makes all 4 options of each
    of the 6 decisions."""
    CALLS.clear()
    _random_game(3, lazy=False)
    assert len(CALLS) == 6 * 4 * 2


def test_lazy_menus_leave_the_log_byte_identical():
    """Same seed and answers, menus eager or lazy: the same answers, log bytes and outcome."""
    for seed in range(60):
        eager, lazy = _random_game(seed, lazy=False), _random_game(seed, lazy=True)
        assert lazy.choices == eager.choices
        assert lazy.log_text().encode() == eager.log_text().encode()
        assert lazy.outcome == eager.outcome


def test_the_log_line_is_the_chosen_option_as_the_state_was():
    """The log makes the chosen option before the procedure goes on: its label reads 0 hits,
    not the hit that follows."""
    game = Game.new(GALLERY, dice=ScriptedDice([6]))
    game.answer(2)
    choices = [e.text for e in game.log if e.kind == "choice"]
    assert choices == ["red: Fire at? -> red fires at the boar (hit on 6+, 0 hits so far)"]
    assert game.state.hits["red"] == 1


# -- every reader sees the eager decision ----------------------------------------------------------
def test_a_lazy_menu_is_a_read_only_sequence_of_options_made_once():
    calls: list[int] = []
    menu = _menu(lazy=True, calls=calls).options
    assert type(menu) is LazyOptions and len(menu) == 4 and calls == []
    third = menu[2]
    assert type(third) is Option and third.label == "unit 3" and calls == [3]
    assert type(third.data) is Data and third.data == {"unit": 3, "to": (3, 4)}
    with pytest.raises(TypeError, match="frozen"):
        third.data["unit"] = 9  # type: ignore[index]
    assert menu[2] is third and menu[-2] is third and calls == [3]
    assert menu[1:3] == (menu[1], third) and type(menu[1:3]) is tuple and calls == [3, 2]
    assert [o.value for o in menu] == [1, 2, 3, 4] and calls == [3, 2, 1, 4]
    assert third in menu and menu.index(third) == 2 and menu.count(third) == 1
    assert list(reversed(menu)) == list(reversed(tuple(menu)))
    with pytest.raises(IndexError):
        menu[4]
    with pytest.raises(TypeError):
        menu[0] = third  # type: ignore[index]  # read-only, as a tuple
    assert calls == [3, 2, 1, 4]  # nothing made twice


def test_a_menu_read_first_past_its_end_at_a_negative_index_or_by_iteration_is_the_eager_menu():
    """A menu keeps no list of made options until it makes one (a random bot's menu never
    does): its first read — out of range, negative, a slice, an iteration — reads as the tuple."""
    eager = _menu(lazy=False).options
    for first in (lambda m: m[-1], lambda m: m[-4], lambda m: m[1:], lambda m: list(m), lambda m: m[3]):
        menu = _menu(lazy=True).options
        assert menu._made is None  # type: ignore[attr-defined]
        first(menu)
        assert tuple(menu) == eager and [menu[i] for i in range(-4, 4)] == list(eager * 2)
    for index in (4, -5):
        menu = _menu(lazy=True).options
        with pytest.raises(IndexError, match="index out of range"):
            menu[index]
        assert menu._made is None and tuple(menu) == eager  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="indices must be integers"):
        _menu(lazy=True).options["a"]  # type: ignore[call-overload]


def test_equality_hash_repr_and_labels_are_those_of_the_eager_decision():
    eager = _menu(lazy=False)
    assert _menu(lazy=True) == eager and eager == _menu(lazy=True)
    assert hash(_menu(lazy=True)) == hash(eager)
    assert _menu(lazy=True).options == eager.options and eager.options == _menu(lazy=True).options
    assert hash(_menu(lazy=True).options) == hash(eager.options)
    assert repr(_menu(lazy=True)) == repr(eager)
    assert _menu(lazy=True).labels == eager.labels == ["unit 1", "unit 2", "unit 3", "unit 4"]
    assert _menu(lazy=True) != attrs.evolve(eager, options=eager.options[:3])
    assert _menu(lazy=True).options != list(eager.options)  # as a tuple is not a list
    for answer in range(4):
        assert _menu(lazy=True).describe(answer) == eager.describe(answer)
        assert _menu(lazy=True).value_of(answer) == eager.value_of(answer)
    with pytest.raises(InvalidChoiceError, match=r"Which unit\? \[3.1\]: 4 is not one of 0..3"):
        _menu(lazy=True).check(4)


def test_pickles_and_copies_hold_the_made_options_and_never_call_back():
    """A pickle or copy (shallow or deep, of the decision or of its menu) holds the tuple of
    options, made when it is taken; the callables are not carried, so reading the copy after
    the game has moved on never calls back into it."""
    calls: list[int] = []
    eager = _menu(lazy=False)
    decision = _menu(lazy=True, calls=calls)
    carried = [pickle.loads(pickle.dumps(decision)), copy.copy(decision), copy.deepcopy(decision)]
    assert calls == [1, 2, 3, 4]  # made once, by the first pickle
    for copied in carried:
        assert type(copied.options) is tuple and copied == eager
    assert type(copy.copy(_menu(lazy=True).options)) is tuple
    assert type(pickle.loads(pickle.dumps(_menu(lazy=True).options))) is tuple
    assert type(decision.options) is LazyOptions  # the original stays what it was
    blob = pickle.dumps(_menu(lazy=True))
    assert b"lambda" not in blob and b"label" not in blob


def test_evolve_keeps_the_menu_lazy():
    calls: list[int] = []
    decision = _menu(lazy=True, calls=calls)
    moved = attrs.evolve(decision, prompt="Which unit now?")
    assert type(moved.options) is LazyOptions and calls == []
    assert moved.describe(0) == "unit 1" and calls == [1]  # (describing makes the label alone)
    assert decision.options[0] is moved.options[0] and calls == [1]  # (the label kept: one menu)


def test_scripted_player_matches_labels_and_an_index_makes_nothing():
    calls: list[int] = []
    decision = _menu(lazy=True, calls=calls)
    assert ScriptedPlayer([3]).choose(decision, None) == 3 and calls == []
    assert ScriptedPlayer(["unit 2"]).choose(decision, None) == 1 and calls == [1, 2, 3, 4]
    with pytest.raises(InvalidChoiceError, match="no option 'unit 9'"):
        ScriptedPlayer(["unit 9"]).choose(_menu(lazy=True), None)


def test_a_scripted_game_with_labels_plays_as_eagerly():
    """A whole game answered by labels (which makes every label of each menu) gives the same
    log, lazy or eager."""
    script = {"red": ["red fires at the fox (hit on 5+, 0 hits so far)", 0, 3],
              "blue": [2, "blue fires at the hare (hit on 5+, 1 hits so far)", 1]}
    logs = []
    for lazy in (False, True):
        game = Game.new(GALLERY, dice=ScriptedDice([5, 6, 1, 2, 5, 6]), options={"lazy": lazy})
        game.play({side: ScriptedPlayer(answers) for side, answers in script.items()})
        logs.append(game.log_text())
    assert logs[0] == logs[1] and "red hits the fox" in logs[1] and "blue hits the boar" in logs[1]


def test_terminal_player_prints_a_lazy_menu():
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    console.input = lambda prompt="": (out.write(str(prompt)), "1")[1]  # type: ignore[method-assign]
    assert TerminalPlayer(console).choose(_menu(lazy=True), None) == 1
    printed = out.getvalue()
    assert all(f"unit {i}" in printed for i in range(1, 5)) and "choose 0-3 >" in printed


def test_a_response_window_as_a_lazy_menu_auto_passes():
    def data(v: str) -> dict:
        return {"pass": True} if v == "pass" else {"spell": v, "playable": False, "why": "no target"}

    window = Choose.of("a", "respond?", ["pass", "heal"], data=data, lazy=True)
    assert auto_pass(window) == 0


def test_rl_masks_and_actions_of_a_lazy_menu_make_nothing():
    calls: list[int] = []
    decision = _menu(lazy=True, calls=calls)
    cursor = ActionCursor(decision, slots=8)
    assert cursor.mask().tolist() == ActionCursor(_menu(lazy=False), slots=8).mask().tolist()
    assert cursor.mask().tolist() == [1, 1, 1, 1, 0, 0, 0, 0, 0]
    assert actions_for(decision, 2, 8) == [2]
    assert calls == []


def test_subset_and_mixed_menus():
    """A ChooseSubset takes a lazy menu too; a value that is already an Option is taken as it is."""
    calls: list[int] = []
    keep = Option("keep", "keep all", data={"action": "keep"})

    def label(v: int) -> str:
        calls.append(v)
        return f"die {v}"

    menu = LazyOptions([1, 2, 3, keep], label, data=lambda v: {"die": v})
    subset = ChooseSubset(side="a", prompt="Re-roll which?", options=menu, min_count=1, max_count=2,
                          constraint=lambda values: "not the 'keep' option" if "keep" in values else None)
    assert calls == [] and subset.upper == 2
    assert subset.describe(subset.check([2, 0])) == "die 1, die 3" and calls == [1, 3]
    assert subset.options[3] is keep and calls == [1, 3]
    with pytest.raises(Exception, match="not the 'keep' option"):
        subset.check([3])
    assert subset == ChooseSubset(side="a", prompt="Re-roll which?", min_count=1, max_count=2,
                                  options=[Option(v, f"die {v}", data={"die": v}) for v in (1, 2, 3)] + [keep])
    picked = subset.random_answer(RandomBot(5).rng)
    assert 1 <= len(picked) <= 2 and 3 not in picked


def test_lazy_menus_with_lazy_labels_make_a_label_only_when_it_is_read():
    labels: list[int] = []

    def label(v: int) -> str:
        labels.append(v)
        return f"unit {v}"

    decision = Choose.of("a", "Which?", [1, 2, 3], label=label, data=lambda v: {"unit": v},
                         lazy=True, lazy_labels=True)
    assert [o.data["unit"] for o in decision.options] == [1, 2, 3] and labels == []
    assert decision.describe(1) == "unit 2" and labels == [2]


def test_prose_rewriting_and_conformance_hold_with_lazy_menus():
    """check_prose_independence rewrites a lazy menu's labels like any other; the ruleset passes
    the conformance check (replay, save/load, undo, checkpoints, non-interference)."""
    d = Game.new(GALLERY, seed=1).pending
    assert rewrite_prose(d, str.upper).labels == [label.upper() for label in d.labels]
    assert check_prose_independence(GALLERY, {side: RandomBot for side in GALLERY.sides}, seeds=range(3)) == 18
    report = check_ruleset(GALLERY, games=4, structured=True)
    assert report.games == 4 and report.decisions == 24


def test_a_single_option_menu_is_asked_by_nobody():
    from wargamekit.decisions import ask

    calls: list[str] = []
    procedure = ask(Choose.of("red", "Retreat where?", ["Marengo"], label=lambda v: calls.append(v) or v, lazy=True))
    with pytest.raises(StopIteration) as stop:
        next(procedure)
    assert stop.value.value == "Marengo" and calls == []  # the option nobody reads is not made
    kept = Option("Ulm", "retreat to Ulm")
    assert Choose.of("red", "Retreat where?", [kept], lazy=True).value_of(0) == "Ulm"


def test_the_rules_context_asks_a_single_option_lazy_menu_of_nobody_and_makes_nothing():
    """``ctx.ask`` answers a one-option Choose itself, reading the value alone."""
    calls: list[str] = []
    ctx = Game.new(GALLERY, seed=1).context
    asking = ctx.ask(Choose.of("a", "Retreat where?", ["Marengo"], label=lambda v: calls.append(v) or v, lazy=True))
    with pytest.raises(StopIteration) as stop:
        next(asking)
    assert stop.value.value == "Marengo" and calls == []


def test_a_constraint_tested_on_random_picks_makes_no_option():
    """A random subset is drawn and its constraint tested on the picked values alone."""
    calls: list[int] = []

    def label(v: int) -> str:
        calls.append(v)
        return f"die {v}"

    subset = ChooseSubset(side="a", prompt="Re-roll which?", options=LazyOptions([1, 2, 3, 4], label),
                          min_count=1, max_count=3,
                          constraint=lambda values: "at most one even die" if sum(v % 2 == 0 for v in values) > 1 else None)
    bot = RandomBot(11)
    picks = [subset.random_answer(bot.rng) for _ in range(40)]
    assert calls == []
    assert all(sum(subset.options[i].value % 2 == 0 for i in pick) <= 1 for pick in picks)


# -- errors ------------------------------------------------------------------------------------------
def test_a_label_that_makes_no_str_is_refused_naming_the_decision_and_option():
    decision = Choose.of("a", "Which unit?", [1, 2], rule="3.1", label=lambda v: v * 10, lazy=True)  # type: ignore[arg-type, return-value]
    assert decision.check(1) == 1  # the count and the check need no option
    with pytest.raises(OptionError, match=r"Which unit\? \[3.1\]: option 1 \(2\): its label .* made 20, not a str"):
        decision.describe(1)
    with pytest.raises(OptionError):  # the option stays unmade: every read raises
        decision.options[1]
    assert isinstance(OptionError("x"), TypeError)


def test_data_that_is_not_json_is_refused_naming_the_decision_and_option():
    decision = Choose.of("a", "Which unit?", ["A1", "B2"], rule="3.1", data=lambda v: {"unit": object()}, lazy=True)
    with pytest.raises(OptionError, match=r"Which unit\? \[3.1\]: option 0 \('A1'\): data.unit: .* is not JSON data"):
        decision.options[0]
    not_a_mapping = LazyOptions(["A1"], data=lambda v: [v])  # type: ignore[arg-type, return-value]
    with pytest.raises(OptionError, match=r"lazy menu: option 0 \('A1'\): data: expected a mapping"):
        not_a_mapping[0]


def test_a_lazy_menu_with_no_options_is_refused_when_built():
    with pytest.raises(ValueError, match="a Choose needs at least one option"):
        Choose.of("a", "Which unit?", [], lazy=True)


def test_a_lazy_label_of_an_option_that_makes_no_str_is_an_option_error():
    option = Option(1, lambda: 42)  # type: ignore[arg-type, return-value]
    with pytest.raises(OptionError, match="a lazy option label must make a str.* made 42"):
        _ = option.label


def test_checking_a_subset_answer_on_a_lazy_menu_makes_no_option():
    """``ChooseSubset.check`` hands its constraint the picked values alone, as ``value_of``
    does: a bot's or a replay's answer is checked without making a label (review item A8)."""
    calls: list[int] = []

    def label(v: int) -> str:
        calls.append(v)
        return f"die {v}"

    seen: list[tuple[int, ...]] = []
    subset = ChooseSubset(side="a", prompt="Re-roll which?", options=LazyOptions([1, 2, 3, 4], label),
                          min_count=1, max_count=3,
                          constraint=lambda values: seen.append(values) or ("at most one even die" if sum(v % 2 == 0 for v in values) > 1 else None))
    assert subset.check([2, 0]) == [0, 2] and seen == [(1, 3)]
    with pytest.raises(Exception, match="at most one even die"):
        subset.check([1, 3])
    assert calls == []  # neither check made an option


def test_a_lazy_menu_cannot_be_subclassed():
    """A decision keeps a lazy menu by its exact type; a subclass would silently be made
    eager, so defining one is refused (review item D22)."""
    with pytest.raises(TypeError, match="LazyOptions cannot be subclassed"):
        class Tracked(LazyOptions):  # type: ignore[misc]
            pass


class _Shout(str):
    """A str subclass: a lazy menu's label may be one (``isinstance``), a lazy label may not."""


@pytest.mark.parametrize(
    "values, label, lazy_labels",
    [
        ([1, 2, 3], lambda v: f"unit {v}", False),
        ([1, 2, 3], lambda v: f"unit {v}", True),
        ([Option("x", "X (secret)", public="X"), 2, Option("y", lambda: "Y made")], lambda v: f"unit {v}", False),
        ([1, 2, 3], lambda v: _Shout(f"unit {v}"), False),
    ],
)
def test_what_an_answer_reads_of_a_lazy_menu_is_the_made_option_s(values, label, lazy_labels):
    """``LazyOptions._value_and_label`` (the answer's and ``describe``'s read of the chosen
    option, which makes its label alone) gives the value and public label of the option the
    menu makes, whether that option is made yet or not, and makes no data for a ``str`` label."""
    data_calls: list[object] = []

    def data(value: object) -> dict:
        data_calls.append(value)
        return {"v": str(value)}

    for index in range(len(values)):
        unread = LazyOptions(values, label, data, lazy_labels=lazy_labels)
        read = LazyOptions(values, label, data, lazy_labels=lazy_labels)
        option = read[index]
        expected = (option.value, option.public_label)
        data_calls.clear()
        assert unread._value_and_label(index) == expected
        # (a label not exactly a str is taken by making the option, as it always was)
        assert data_calls == ([] if type(expected[1]) is str else [values[index]])
        assert read._value_and_label(index) == expected and read[index] is option
        assert type(unread._value_and_label(index)[1]) is type(expected[1])


@pytest.mark.parametrize("lazy_labels", [False, True])
def test_a_label_that_is_no_str_is_refused_by_the_answer_s_read_as_by_the_option_s(lazy_labels):
    """A label that makes no ``str``: the answer's read raises the error making the option does."""
    def label(value: int) -> int:
        return value

    def menu() -> LazyOptions:
        return LazyOptions([1, 2], label, lambda v: {"v": v}, lazy_labels=lazy_labels)

    with pytest.raises(OptionError) as made:
        _ = menu()[1].label
    with pytest.raises(OptionError, match=re.escape(str(made.value))):
        menu()._value_and_label(1)


# -- the label said at the answer is the option's -------------------------------------------------
def test_an_answered_menu_never_makes_a_label_from_the_state_moved_on():
    """The answer makes the chosen option's label alone, for the log, and keeps it: after the
    state moved on (the gallery's label reads the hits so far), ``describe`` gives the label the
    log wrote, and every option not made before the answer — the chosen one too — raises
    ``StaleOptionError`` rather than being made from the later state (it was, before the seal:
    option 0 read "1 hits so far", a label never offered). Nothing is made by the refused reads."""
    game = Game.new(GALLERY, dice=ScriptedDice([6, 6, 6]))  # every shot hits
    decision = game.pending
    CALLS.clear()
    game.answer(1)  # red fires at the fox and hits: red's hits move on
    game.answer(0)  # (blue's turn: a new menu)
    assert game.state.hits["red"] == 1 and CALLS == [("label", "fox"), ("label", "crow")]
    logged = [event.text for event in game.log if event.kind == "choice"][0]
    assert logged == "red: Fire at? -> red fires at the fox (hit on 5+, 0 hits so far)"
    assert decision.describe(1) == logged.split(" -> ")[1]
    for index in range(4):
        with pytest.raises(StaleOptionError, match=rf"option {index} .*not made before the decision was answered"):
            decision.options[index]  # noqa: B018 - the read is what raises
    with pytest.raises(StaleOptionError, match="option 0's label"):
        decision.describe(0)
    assert CALLS == [("label", "fox"), ("label", "crow")]


@pytest.mark.parametrize("lazy_labels", [False, True])
def test_a_label_said_for_the_answer_is_the_option_s_when_made(lazy_labels):
    """``LazyOptions._value_and_label`` keeps the label it made; a later call, and the option
    made after it (with lazy labels too), carry that label whatever the closure reads by then."""
    seen = {"n": 0}
    menu = LazyOptions([1, 2], lambda v: f"{v} at {seen['n']}", lambda v: {"v": v}, lazy_labels=lazy_labels)
    assert menu._value_and_label(1) == (2, "2 at 0")
    seen["n"] = 5
    assert menu._value_and_label(1) == (2, "2 at 0")
    assert menu[1].label == "2 at 0" and menu[1].data == {"v": 2}
    assert menu[0].label == "1 at 5"


class _Reroll(Ruleset):
    """One lazy subset menu: which dice to re-roll."""

    name = "reroll"
    version = "1"
    sides = ("red",)
    scenario_type = GalleryScenario

    def scenario_data(self, name: str = "default") -> dict:
        return {}

    def setup(self, scenario, options):
        return GalleryState(hits={})

    def view(self, state, side):
        return {}

    def play(self, game):
        def label(v: int) -> str:
            CALLS.append(("label", str(v)))
            return f"die {v}"

        def data(v: int) -> dict:
            CALLS.append(("data", str(v)))
            return {"die": v}

        chosen = yield ChooseSubset(side="red", prompt="Re-roll which?", rule="R3",
                                    options=LazyOptions([1, 2, 3, 4], label, data), min_count=1, max_count=3)
        return Outcome("red", "R4: done", {"red": len(chosen)})


def test_a_subset_of_a_lazy_menu_is_logged_from_its_labels_alone():
    """``ChooseSubset.describe`` of a lazy menu: the answer logs the chosen options' labels, made
    alone (no data, no option), and the options read later carry them."""
    game = Game.new(_Reroll())
    decision = game.pending
    CALLS.clear()
    game.answer([0, 2])
    assert CALLS == [("label", "1"), ("label", "3")]
    assert [event.text for event in game.log if event.kind == "choice"] == ["red: Re-roll which? -> die 1, die 3"]
    assert game.over and decision.options._made is None  # (no option made)
    assert decision.describe([0, 2]) == "die 1, die 3"  # (the labels said, kept)
    with pytest.raises(StaleOptionError, match=r"Re-roll which\? \[R3\]: option 2 \(3\)"):
        decision.options[2]  # noqa: B018 - sealed: made by no read before the answer
    assert CALLS[2:] == []


# -- values made from keys (``make``) ------------------------------------------------------------------


def _keyed(calls: list[tuple[str, int]], *, lazy_labels: bool = False) -> Choose:
    """:func:`_menu`'s decision, its values made from keys (``make``): key ``k`` makes the value
    ``k + 1``, each make, label and data call counted in ``calls``."""

    def make(key: int) -> int:
        calls.append(("make", key))
        return key + 1

    def label(value: int) -> str:
        calls.append(("label", value))
        return f"unit {value}"

    menu = LazyOptions([0, 1, 2, 3], label, lambda v: {"unit": v, "to": [v, v + 1]}, lazy_labels=lazy_labels, make=make)
    return Choose(side="a", prompt="Which unit?", rule="3.1", options=menu)


def test_values_made_from_keys_are_made_once_when_read_and_the_menu_is_the_eager_one():
    calls: list[tuple[str, int]] = []
    decision = _keyed(calls)
    menu = decision.options
    assert len(menu) == 4 and decision.check(3) == 3 and calls == []  # the count and the check: nothing made
    assert decision.value_of(2) == 3 and calls == [("make", 2)]
    assert decision.describe(2) == "unit 3" and calls == [("make", 2), ("label", 3)]  # the value kept
    assert menu[2].value == 3 and menu[2] is menu[-2] and calls == [("make", 2), ("label", 3)]  # the label kept too
    assert menu[0].label == "unit 1" and calls[2:] == [("make", 0), ("label", 1)]
    eager = _menu(lazy=False)
    assert tuple(menu) == eager.options and calls.count(("make", 2)) == 1  # each value made once
    for read in (lambda d: d, lambda d: d.options):
        assert read(_keyed([])) == read(eager) and hash(read(_keyed([]))) == hash(read(eager))
        assert repr(read(_keyed([]))) == repr(read(eager))
    assert _keyed([]).labels == eager.labels
    assert eager.options[1] in _keyed([]).options and _keyed([]).options.index(eager.options[3]) == 3
    for copied in (pickle.loads(pickle.dumps(_keyed([]))), copy.deepcopy(_keyed([]))):
        assert type(copied.options) is tuple and copied == eager
    with pytest.raises(IndexError):
        _keyed([]).options[4]
    with pytest.raises(IndexError):
        _keyed([]).value_of(-5)


def test_a_value_made_from_its_key_reads_as_the_same_value_everywhere():
    """The answer's read (the value sent, the label logged), a lazy label and the option made
    later read the one value made for the key, not one made again (a maker that makes a new
    object at each call, as the contract lets it)."""
    menu = LazyOptions([("a", 1), ("b", 2)], lambda v: f"{v[0]}{v[1]}", lazy_labels=True, make=list)
    value, label = menu._value_and_label(1)
    assert value == ["b", 2] and label == "b2" and menu._value_of(1) is value and menu[1].value is value


def test_errors_of_a_menu_made_from_keys_name_the_made_value():
    decision = Choose(side="a", prompt="Which unit?", rule="3.1",
                      options=LazyOptions([1, 2], lambda v: v * 10, make=lambda k: k + 1))  # type: ignore[arg-type, return-value]
    with pytest.raises(OptionError, match=r"Which unit\? \[3.1\]: option 1 \(3\): its label .* made 30, not a str"):
        decision.describe(1)
    with pytest.raises(OptionError):
        decision.options[1]


def test_a_value_maker_that_raises_leaves_the_value_unmade():
    """An exception ``make`` raises comes out unchanged from the read that made the value, and
    the value stays unmade, so the next read calls ``make`` again (review T4 of round mttt9)."""
    calls = []

    def make(key):
        calls.append(key)
        if key == 1 and calls.count(1) == 1:
            raise ValueError("no such unit yet")
        return f"unit {key}"

    menu = LazyOptions([0, 1], str.upper, make=make)
    decision = Choose(side="a", prompt="Which unit?", rule="3.1", options=menu)
    with pytest.raises(ValueError, match="no such unit yet"):
        decision.describe(1)
    assert menu._made_values is not None and menu._made_values[1] is LazyOptions._UNMADE
    assert decision.describe(1) == "UNIT 1"  # made now
    assert decision.options[1].value == "unit 1" and calls == [1, 1]  # and kept: no third call
