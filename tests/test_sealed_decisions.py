"""A decision is sealed when it is answered (``decisions._seal``): a lazy label, option or value
(made from its key) not made by then raises ``StaleOptionError`` when read later, rather than
being made from a state that has moved on; what was made before the answer reads the same for
ever. Every path that answers is covered: ``Game.answer``/``play``, replays (undo, fork, load),
``ask``'s unasked one-option decisions; and views, copies and pickles of decisions."""

from __future__ import annotations

import copy
import pickle
import re
from functools import partial

import pytest
from rulesets import NoScenario

from wargamekit import (
    Choose,
    ChooseSubset,
    Game,
    IllegalChoiceError,
    InterruptStack,
    LazyOptions,
    OptionError,
    Outcome,
    Response,
    ScriptedPlayer,
    StaleOptionError,
    YesNo,
    decisions,
    rl,
)
from wargamekit.decisions import Option
from wargamekit.interrupts import LazyOffers
from wargamekit.testing import check_non_interference

#: the one-option decisions ``ask`` answered, as the procedure built them
UNASKED: list[Choose] = []

WHY = "is lazy and was not made before the decision was answered: read it while the decision is pending, or build the menu eagerly"


class Ledger(NoScenario):
    """Each round adds to a running total, asked four ways (a lazy menu, lazy labels on an eager
    menu, a menu of values made from keys, a lazy subset) and once by a one-option decision
    ``ask`` answers itself. Every label reads the running total: against the callables'
    contract once the decision is answered, which is what the seal guards."""

    name = "ledger"
    version = "1"
    sides = ("red",)

    def setup(self, scenario, options):
        return {"n": 0}

    def view(self, state, side):
        return dict(state)

    def play(self, ctx):
        state = ctx.state

        def label(value: int) -> str:
            return f"add {value} (total {state['n']})"

        def data(value: int) -> dict:
            return {"add": value}

        for _ in range(2):
            state["n"] += yield Choose.of("red", "Add?", [1, 2, 3], rule="L1", kind="ledger.add", label=label,
                                          data=data, lazy=True)
            state["n"] += yield Choose.of("red", "Add more?", [1, 2, 3], rule="L2", kind="ledger.more", label=label,
                                          data=data, lazy_labels=True)
            state["n"] += yield Choose(side="red", prompt="Add keyed?", rule="L3", kind="ledger.keyed",
                                       options=LazyOptions([0, 1, 2], label, data, make=lambda key: key + 1))
            state["n"] += sum((yield ChooseSubset(side="red", prompt="Add some?", rule="L4", kind="ledger.some",
                                                  options=LazyOptions([1, 2, 3], label, data), max_count=2)))
            only = Choose.of("red", "Add the only?", [4], rule="L5", kind="ledger.only", label=label, lazy=True)
            UNASKED.append(only)
            state["n"] += yield from ctx.ask(only)
        return Outcome("red", "L6: done", {"n": state["n"]})


@pytest.fixture(autouse=True)
def _no_lazy_label_built_yet(monkeypatch):
    """Each test starts as a fresh process does, no lazy label built yet
    (``decisions._lazy_labels_built``, which the seal of an eager menu reads): what a test
    shows of eager menus never hangs on the labels an earlier test built."""
    monkeypatch.setattr(decisions, "_lazy_labels_built", False)


def _answer(game: Game, index: int) -> None:
    """Answer option ``index`` (of a subset: that option alone)."""
    game.answer([index] if isinstance(game.pending, ChooseSubset) else index)


def _at(kind: str, answers: int = 0) -> Game:
    """A ledger game with ``kind`` pending, after ``answers`` answers of 0 to ``kind``."""
    game = Game.new(Ledger())
    while True:
        if game.pending.kind == kind and answers == 0:
            return game
        answers -= game.pending.kind == kind
        _answer(game, 0)


def test_an_unread_option_of_a_lazy_menu_read_after_the_answer_raises_naming_the_decision_and_option():
    game = _at("ledger.add")
    decision = game.pending
    game.answer(0)
    with pytest.raises(StaleOptionError, match=rf"^Add\? \[L1\]: option 2 \(3\) {WHY}$") as raised:
        decision.options[2]  # noqa: B018 - the read is what raises
    assert isinstance(raised.value, OptionError) and isinstance(raised.value, TypeError)
    with pytest.raises(StaleOptionError, match=r"^Add\? \[L1\]: option 1's label \(2\) is lazy and was not made"):
        decision.describe(1)
    with pytest.raises(StaleOptionError):
        decision.labels  # noqa: B018 - every label: two were never made
    assert "<not made before the answer>" in repr(decision)  # (a repr shows the seal, never raises)


def test_what_was_read_while_pending_reads_the_same_after_the_answer():
    """Labels, options and data read while the decision was pending are kept: read after the
    total moved on, they are what was offered (the label made then, not again)."""
    for kind in ("ledger.add", "ledger.more", "ledger.keyed"):
        game = _at(kind, answers=1)  # (the total is not 0: each label shows it)
        decision = game.pending
        read = [(option.value, option.label, option.data) for option in decision.options]
        game.answer(1)
        _answer(game, 0)
        assert game.state["n"] != int(read[0][1].split()[-1].rstrip(")"))  # the total moved on
        assert [(option.value, option.label, option.data) for option in decision.options] == read, kind
        assert decision.labels == [label for _, label, _ in read] and decision.describe(2) == read[2][1]


def test_an_eager_menus_lazy_labels_not_read_are_sealed():
    game = _at("ledger.more")
    decision = game.pending
    assert type(decision.options) is tuple
    first = decision.options[0].label
    game.answer(1)  # (its label made for the log)
    assert decision.options[0].label == first and decision.options[1].label == "add 2 (total 1)"
    with pytest.raises(StaleOptionError, match=rf"^Add more\? \[L2\]: option 2's label \(3\) {WHY}$"):
        decision.options[2].label  # noqa: B018 - the read is what raises
    with pytest.raises(StaleOptionError):
        decision.options[2] == Option(3, "add 3 (total 1)", data={"add": 3})  # noqa: B015 - equality reads labels
    assert repr(decision.options[2]) == "Option(value=3, label=<not made before the answer>, public=None, data=Data({'add': 3}))"


def test_the_seal_of_an_eager_menu_names_each_option_and_leaves_no_reference_cycle():
    # One stale marker is shared by the options the seal left unmade; each read still names
    # its own option, and the marker holds no option (an option holding its menu would be a
    # cycle, freed only by the collector: a game run with the collector off would grow).
    import gc

    options = [Option(v, lambda v=v: f"take {v}", data={"v": v}) for v in "wxyz"]
    decision = Choose(side="red", prompt="Take?", rule="S1", options=options)
    assert decision.options[1].label == "take x"
    decisions._seal(decision)
    for index, value in ((0, "w"), (2, "y"), (3, "z")):
        with pytest.raises(StaleOptionError, match=rf"^Take\? \[S1\]: option {index}'s label \('{value}'\) {WHY}$"):
            decision.options[index].label  # noqa: B018 - the read is what raises
    assert decision.options[1].label == "take x"
    marker = decision.options[0]._make_label  # (shared: called directly, it still refuses)
    assert marker is decision.options[3]._make_label
    with pytest.raises(StaleOptionError, match=r"^Take\? \[S1\]: a lazy label was not made before the decision was answered"):
        marker()
    del options, decision, marker
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        options = [Option(v, lambda v=v: f"take {v}", data={"v": v}) for v in "wxyz"]
        decisions._seal(Choose(side="red", prompt="Take?", rule="S1", options=options))
        del options
        assert gc.collect() == 0  # (everything went by reference counting)
    finally:
        if enabled:
            gc.enable()


def test_a_hand_built_lazy_label_is_sealed_by_the_answer_of_its_decision():
    made: list[str] = []

    class Hand(NoScenario):
        name = "hand"
        version = "1"
        sides = ("red",)

        def view(self, state, side):
            return {}

        def play(self, ctx):
            options = [Option(v, lambda v=v: made.append(v) or f"take {v}", data={"v": v}) for v in "xyz"]
            yield Choose(side="red", prompt="Take?", rule="H1", options=options)
            yield Choose.of("red", "Again?", options, rule="H2")  # (the same options: sealed by the first)
            return Outcome("red", "H3: done", {})

    game = Game.new(Hand())
    decision = game.pending
    game.answer(1)
    assert made == ["y"] and decision.options[1].label == "take y"
    with pytest.raises(StaleOptionError, match=r"^Take\? \[H1\]: option 0's label \('x'\)"):
        decision.options[0].label  # noqa: B018 - the read is what raises
    assert made == ["y"]


def test_a_value_made_from_its_key_after_the_answer_raises():
    game = _at("ledger.keyed")
    decision = game.pending
    assert decision.options[0].value == 1  # (read while pending: made)
    game.answer(1)  # the chosen value, 2, made by the answer
    assert decision.value_of(0) == 1 and decision.value_of(1) == 2
    with pytest.raises(StaleOptionError, match=rf"^Add keyed\? \[L3\]: option 2's value \(key 2\) {WHY}$"):
        decision.value_of(2)
    with pytest.raises(StaleOptionError, match=r"option 2's value \(key 2\)"):
        decision.options[2]  # noqa: B018 - the read is what raises


def test_a_subset_is_sealed_and_describes_the_labels_it_logged():
    game = _at("ledger.some")
    decision = game.pending
    game.answer([0, 2])
    logged = [event.text for event in game.log if event.kind == "choice"][-1]
    assert logged.endswith(" -> " + decision.describe([0, 2]))
    with pytest.raises(StaleOptionError, match=r"^Add some\? \[L4\]: option 1 \(2\)"):
        decision.options[1]  # noqa: B018 - the read is what raises


def test_a_one_option_decision_ask_answers_is_sealed():
    UNASKED.clear()
    game = _at("ledger.add", answers=1)
    only = UNASKED[0]
    assert only.value_of(0) == 4  # (the value ask sent the procedure: made)
    with pytest.raises(StaleOptionError, match=r"^Add the only\? \[L5\]: option 0 \(4\)"):
        only.options[0]  # noqa: B018 - the read is what raises
    assert game.log_text()  # (the game went on)


def test_the_log_and_the_chosen_labels_are_those_read_while_pending():
    """The seal changes no log: a game whose every label is read while pending, and one whose
    labels nobody reads, log the same lines, and the chosen labels are those read."""
    read, quiet = Game.new(Ledger()), Game.new(Ledger())
    chosen = []
    answers = iter([2, 1, 0, [1, 2], 0, 2, 2, [0], 1])
    while read.pending is not None:
        answer = next(answers)
        labels = read.pending.labels
        chosen.append(", ".join(labels[i] for i in answer) if isinstance(answer, list) else labels[answer])
        read.answer(answer)
        quiet.answer(answer)
    assert read.log_text() == quiet.log_text()
    assert [event.text.split(" -> ")[1] for event in quiet.log if event.kind == "choice"] == chosen


def test_an_edit_of_the_state_while_pending_is_seen_by_what_is_made_after_it():
    """The callables read the state as it is when they run while the decision is pending: an
    edit made then (a test, a scenario script) is seen, as the procedure sees it."""
    game = _at("ledger.add")
    decision = game.pending
    assert decision.options[0].label == "add 1 (total 0)"
    game.state["n"] = 10
    assert decision.options[1].label == "add 2 (total 10)" and decision.options[0].label == "add 1 (total 0)"


def test_a_refused_read_leaves_the_game_exactly_as_it_was():
    game, twin = _at("ledger.add"), _at("ledger.add")
    decision = game.pending
    game.answer(0)
    twin.answer(0)
    before = (game.log_text(), list(game.choices), dict(game.state), game.pending)
    for read in (lambda: decision.options[2], lambda: decision.describe(1), lambda: copy.copy(decision)):
        with pytest.raises(StaleOptionError):
            read()
    assert (game.log_text(), list(game.choices), dict(game.state), game.pending) == before
    game.play({"red": ScriptedPlayer([0, 0, [0], 0, 0, 0, [1]])})
    twin.play({"red": ScriptedPlayer([0, 0, [0], 0, 0, 0, [1]])})
    assert game.log_text() == twin.log_text() and game.over


def test_copies_and_pickles_of_a_decision():
    """A copy or pickle holds every option and label, made when it is taken: one taken while
    the decision is pending is complete and untouched by the seal; one of an answered decision
    with a part never made raises the error reading that part raises; one of an answered
    decision whose every part was read is the decision. (Taking a copy reads every part: a
    shallow copy shares the options, whose labels are then made.)"""
    for kind in ("ledger.add", "ledger.more", "ledger.keyed"):
        game = _at(kind, answers=1)
        decision = game.pending
        shallow, deep, pickled = copy.copy(decision), copy.deepcopy(decision), pickle.loads(pickle.dumps(decision))
        game.answer(0)
        _answer(game, 0)
        assert shallow == deep == pickled == decision and type(shallow.options) is tuple
        total = shallow.labels[0].split()[-1]
        assert shallow.labels == decision.labels == [f"add {v} (total {total}" for v in (1, 2, 3)]
        game = _at(kind, answers=1)
        decision = game.pending
        game.answer(0)
        for taken in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(StaleOptionError, match=rf"{WHY} \(read to copy or pickle the decision\)$"):
                taken(decision)
        what = "menu" if type(decision.options) is LazyOptions else "option"
        with pytest.raises(StaleOptionError, match=rf"{WHY} \(read to copy or pickle the {what}\)$"):
            copy.deepcopy(decision.options)
    game = _at("ledger.add")
    decision = game.pending
    labels = decision.labels
    game.answer(0)
    assert copy.copy(decision) == decision and pickle.loads(pickle.dumps(decision)).labels == labels


def test_a_view_holds_the_pending_decision_itself_and_shares_its_seal():
    game = _at("ledger.add")
    view = game.view("red")
    assert view.decision is game.pending
    view.decision.options[0].label  # noqa: B018 - read while pending
    game.answer(0)
    assert view.decision.options[0].label == "add 1 (total 0)"
    with pytest.raises(StaleOptionError):
        view.decision.options[1]  # noqa: B018 - the read is what raises


class Recorded(Ledger):
    """The ledger, every decision its procedure yields kept in ``asked``."""

    def __init__(self, asked: list) -> None:
        self.asked = asked

    def play(self, ctx):
        procedure = super().play(ctx)
        value = None
        while True:
            try:
                decision = procedure.send(value)
            except StopIteration as stop:
                return stop.value
            self.asked.append(decision)
            value = yield decision


def test_undo_fork_and_load_ask_fresh_decisions_as_before():
    """Replays answer (and seal) the decisions they replay, and ask a fresh pending decision:
    its options are made as if never replayed, equal to the original's read while pending."""
    asked: list = []
    game = Game.new(Recorded(asked))
    while not (game.pending.kind == "ledger.add" and len(game.choices) == 4):  # (the second round)
        _answer(game, 0)
    held = game.pending
    offered = list(held.options)
    for replay in (game.fork, lambda: Game.load(game.save(), rulesets={"ledger": Recorded(asked)})):
        del asked[:]
        again = replay()
        assert asked[-1] is again.pending and list(again.pending.options) == offered
        assert len(asked) == 5  # (the four answered, then the pending one)
        for replayed in asked[:-1]:  # sealed: what the replay did not make is never made
            with pytest.raises(StaleOptionError, match=f"^{re.escape(replayed.prompt)}"):
                replayed.labels  # noqa: B018 - the read is what raises
    game.answer(2)
    del asked[:]
    game.undo()
    assert game.pending is not held and list(game.pending.options) == offered
    assert len(asked) == 5 and asked[-1] is game.pending
    for replayed in asked[:-1]:
        with pytest.raises(StaleOptionError):
            replayed.labels  # noqa: B018 - the read is what raises
    assert held.options[0] is offered[0]  # (the held decision: what was read stays readable)


class Hidden(NoScenario):
    """A secret subset, with a constraint, of a menu whose values are made from keys (the
    reviewer's case: the non-interference checks took the alternatives from the answered,
    sealed decision, whose constraint could not read a value never made)."""

    name = "hidden"
    version = "1"
    sides = ("red", "blue")

    def setup(self, scenario, options):
        return {"picked": ()}

    def view(self, state, side):
        return {"picked": list(state["picked"])} if side == "red" else {}

    def play(self, ctx):
        ctx.state["picked"] = yield ChooseSubset(
            side="red", prompt="Hide which?", rule="H1", secret=True,
            options=LazyOptions(range(4), make=lambda key: f"unit{key}"),
            constraint=lambda values: "not three" if len(values) == 3 else None,
        )
        yield from ctx.ask(YesNo(side="blue", prompt="Go on?", rule="H2"))
        return Outcome("blue", "H3: done", {})


def test_the_non_interference_checks_fork_a_secret_decision_of_values_made_from_keys():
    """The alternatives of a secret decision are taken from each fork's own pending decision,
    asked afresh, not from the reference game's answered one (``testing._decision_forks``)."""
    assert check_non_interference(Hidden(), seeds=[0, 1]) > 0
    assert rl.check_observation_non_interference(rl.env(Hidden()), seeds=[0, 1]) > 0


class Again(NoScenario):
    """Asks one decision object until the answer suits it (a rule re-asking it, not building a
    fresh one: the reviewer's case)."""

    name = "again"
    version = "1"
    sides = ("red",)

    def __init__(self, lazy: bool, read: bool = False) -> None:
        self.lazy, self.read = lazy, read

    def view(self, state, side):
        return {}

    def play(self, ctx):
        question = Choose.of("red", "Pick an even number", [1, 2, 3, 4], rule="A1", lazy=self.lazy,
                             lazy_labels=not self.lazy)
        if self.read:
            question.labels  # noqa: B018 - every label made: nothing left to seal
        while (value := (yield question)) % 2:
            ctx.event("note", f"{value} is odd: asked again")
        return Outcome("red", "A2: done", {})


@pytest.mark.parametrize("lazy", [True, False])
def test_a_decision_asked_again_after_its_answer_is_refused_at_once(lazy):
    """A decision is asked once: one yielded again after its answer (a lazy menu, or an eager
    one with lazy labels left unmade, sealed) raises ``OptionError`` saying so, not a pending
    decision that could be neither read nor answered; the game is as before the answer. (An
    eager menu whose every label was made bears no seal: asked again, it plays as before.)"""
    game = Game.new(Again(lazy))
    pending = game.pending
    with pytest.raises(OptionError, match=r"^Pick an even number \[A1\]: this decision was answered already and is "
                       r"asked again: a decision is asked once .* build a fresh one"):
        game.answer(0)
    assert game.pending is not pending and game.choices == [] and game.pending.labels == ["1", "2", "3", "4"]
    game.answer(1)
    assert game.over
    if not lazy:  # (an eager menu whose every label was made bears no seal: asked again, it plays)
        game = Game.new(Again(lazy=False, read=True))
        game.answer(0)
        assert game.pending.labels == ["1", "2", "3", "4"]
        game.answer(3)
        assert game.over and game.choices == [0, 3]


class Eager(NoScenario):
    """Asks one eager menu, its options built by ``build`` (with lazy labels, one way or another)."""

    name = "eager"
    version = "1"
    sides = ("red",)

    def __init__(self, build) -> None:
        self.build = build

    def view(self, state, side):
        return {}

    def play(self, ctx):
        yield Choose(side="red", prompt="Take?", rule="E1", options=self.build())
        return Outcome("red", "E2: done", {})


def _take(value: str) -> str:
    return f"take {value}"


@pytest.mark.parametrize("build", [
    pytest.param(lambda: [Option(v, partial(_take, v)) for v in "xyz"], id="Option"),
    pytest.param(lambda: Choose.of("red", "-", "xyz", label=_take, lazy_labels=True).options, id="Choose.of-lazy_labels"),
    pytest.param(lambda: tuple(LazyOptions("xyz", _take, lazy_labels=True)), id="LazyOptions._make"),
])
def test_each_way_of_building_a_lazy_label_lets_the_seal_look_at_eager_menus(build):
    """Each way of building an option with a lazy label notes it (``decisions._lazy_labels_built``,
    which starts False here), so the seal of an eager menu holding one replaces its label left
    unmade: read after the answer, it raises (without the note it would be made then)."""
    assert decisions._lazy_labels_built is False
    game = Game.new(Eager(build))
    decision = game.pending
    assert decisions._lazy_labels_built is True and type(decision.options) is tuple
    game.answer(0)
    assert decision.options[0].label == "take x"
    with pytest.raises(StaleOptionError, match=rf"^Take\? \[E1\]: option 1's label \('y'\) {WHY}$"):
        decision.options[1].label  # noqa: B018 - the read is what raises


class Refuse(Ledger):
    """Each pick is added to a total, and a 3 is then refused by the rules, the state half
    changed: the game is rebuilt by replay and asks a fresh decision (the reviewer's case)."""

    name = "refuse"

    def play(self, ctx):
        state = ctx.state
        while True:
            value = yield Choose.of("red", "Pick?", [1, 2, 3], rule="R1", lazy=True,
                                    label=lambda v: f"pick {v} (n={state['n']})")
            state["n"] += value
            if value == 3:
                raise IllegalChoiceError("R2", "3 is refused")
            if state["n"] >= 2:
                return Outcome("red", "R3: done", {})


def test_a_refused_answer_seals_its_decision_and_the_game_asks_a_fresh_one():
    game = Game.new(Refuse())
    refused = game.pending
    with pytest.raises(IllegalChoiceError, match="3 is refused"):
        game.answer(2)
    assert game.pending is not refused and game.state == {"n": 0} and game.choices == []
    assert refused.describe(2) == "pick 3 (n=0)"  # (the label the answer made)
    with pytest.raises(StaleOptionError, match=rf"^Pick\? \[R1\]: option 0 \(1\) {WHY}$"):
        refused.options[0]  # noqa: B018 - the read is what raises: the state it read was half changed
    assert game.pending.labels == ["pick 1 (n=0)", "pick 2 (n=0)", "pick 3 (n=0)"]
    refusals = []
    game.play({"red": ScriptedPlayer(["pick 3 (n=0)", "pick 2 (n=0)"])}, retry={"red"},
              on_illegal=lambda side, exc: refusals.append(str(exc)))
    assert game.over and game.choices == [1] and len(refusals) == 1


class Window(NoScenario):
    """Opens one interrupt window whose offers are lazy (``LazyOffers``): each side is polled
    with a lazy menu, "pass" then its two bolts, each response made when its option is read."""

    name = "window"
    version = "1"
    sides = ("red", "blue")

    def __init__(self, made: list) -> None:
        self.made = made

    def view(self, state, side):
        return {}

    def play(self, ctx):
        made = self.made

        def offers(side, point):
            keys = [(side, "bolt", i) for i in range(2)]

            def make(i):
                made.append(keys[i])
                return Response(f"{side} bolt {i}", side, resolve=lambda: None, key=keys[i])

            return LazyOffers(keys, make)

        yield from InterruptStack().window("spell cast", ["red", "blue"], offers, rule="9.1", kind="demo.respond")
        return Outcome("red", "W1: done", {})


def test_an_interrupt_poll_s_lazy_menu_is_sealed_by_its_answer():
    """A poll is a decision like any: its answer seals its lazy menu, so a response offered
    and not read by then is never made from the decision (the offer's ``make`` is not called)."""
    made: list = []
    game = Game.new(Window(made))
    poll = game.pending
    assert poll.kind == "demo.respond" and type(poll.options) is LazyOptions and len(poll.options) == 3
    assert poll.options[1].label == "red bolt 0" and made == [("red", "bolt", 0)]  # read while pending
    game.answer(0)  # pass
    assert game.pending.side == "blue"
    assert poll.options[1].label == "red bolt 0"
    with pytest.raises(StaleOptionError, match=rf"^spell cast: respond\? \[9\.1\]: option 2 \(1\) {WHY}$"):
        poll.options[2]  # noqa: B018 - the read is what raises
    assert made == [("red", "bolt", 0)]
