"""The core's per-decision path (issue 9): the roll and answer events the game builds itself
are exactly the events the general path builds, and a game is not a reference cycle (a game
dropped is freed at once, not by the cyclic garbage collector)."""

from __future__ import annotations

import gc
import re
import weakref

import numpy as np
import pytest
from rule_events import rule_event
from rulesets import NoScenario

from wargamekit import (
    Choose,
    ChooseNumber,
    ChooseSubset,
    Event,
    Game,
    Outcome,
    RandomBot,
    ScriptedDice,
    YesNo,
)
from wargamekit.context import RulesContext
from wargamekit.dice import Roll, SeededDice
from wargamekit.events import _Recorder
from wargamekit.interrupts import InterruptStack
from wargamekit.testing import play_random_game


def _general_roll_event(roll: Roll) -> Event:
    """The roll's event as the game logged it before the fast path (Event's own freezing)."""
    faces = " ".join(map(str, roll.faces))
    return Event(
        "roll",
        f"{roll.purpose}: {roll.kind} [{faces}] = {roll.value}",
        {"purpose": roll.purpose, "dice": roll.kind, "faces": list(roll.faces), "value": roll.value},
        roll.audience,
    )


class _Key(str):
    """A key of a ``str`` subclass (JSON writes it as a plain ``str``)."""


def _same_event(a: Event, b: Event) -> bool:
    """Equal in everything a reader sees: fields, data types and key order, repr, JSON line."""
    return (
        a == b and a.data == b.data and list(a.data) == list(b.data) and repr(a) == repr(b)
        and a.to_json() == b.to_json()
        and [type(v) for v in a.data.values()] == [type(v) for v in b.data.values()]
    )


ROLLS = [
    Roll("fire: to hit", "d6", (5,), 5),
    Roll("fire: 2d6", "2d6", (3, 4), 7, ("allies",)),
    Roll("seize attempt", "d10(0-9)", (0,), 0),
    Roll("pool", "pool(3)", (10, 7, 1), 3),  # value is the success count, not a face
    Roll("numpy faces", "d6", (np.int64(4),), np.int64(4)),  # the general path converts them
    Roll("a bool face", "d[0-1]", (True,), 1),
    Roll(7, "d6", (2,), 2),  # type: ignore[arg-type]  # not a str purpose: general path
    Roll("big", "d[1-10000]", (10**5,), 10**5),
]


@pytest.mark.parametrize("roll", ROLLS, ids=lambda r: str(r.purpose))
def test_a_roll_s_event_is_the_event_the_general_path_builds(roll):
    log: list[Event] = []
    told: list[Event] = []
    _Recorder(log, told.append).roll(roll)
    assert len(log) == 1 and told == log
    assert _same_event(log[0], _general_roll_event(roll))


def test_a_roll_s_event_data_is_detached_from_the_roll():
    log: list[Event] = []
    roll = Roll("fire", "2d6", (3, 4), 7)
    _Recorder(log, None).roll(roll)
    log[0].data["faces"].append(9)  # a reader changing its copy changes no roll
    assert roll.faces == (3, 4)


class _Asks(NoScenario):
    """One decision of each form, then one roll (the events of answers of every form)."""

    name = "asks"
    version = "1"
    sides = ("red", "blue")

    def play(self, ctx):
        yield Choose.of("red", "Pick", ["a", "b", "c"], rule="R1", kind="asks.pick")
        yield ChooseSubset(side="blue", prompt="Some", options=Choose.of("blue", "x", [1, 2, 3]).options,
                           rule="R2", kind="asks.some")
        yield ChooseNumber(side="red", prompt="How many", low=0, high=5, rule="R3", kind="asks.number")
        yield YesNo(side="blue", prompt="Sure?", rule="R4", kind="asks.sure", secret=True)
        ctx.dice.d6("the end")
        return Outcome(None, "done")


def test_every_answer_s_event_is_the_event_the_general_path_builds():
    """An answer's ``choice`` event, of every decision form (a secret one included), is what
    ``Event(...)`` builds from the same facts."""
    game = Game.new(_Asks(), dice=ScriptedDice([3]))
    expected = []
    for answer in (1, [0, 2], np.int64(4), np.True_):
        decision = game.pending
        canonical = decision.check(answer)
        game.answer(answer)
        expected.append(Event(
            "choice", f"{decision.side}: {decision.prompt} -> {decision.describe(canonical)}",
            {"side": decision.side, "answer": canonical}, (decision.side,) if decision.secret else None,
        ))
    choices = [e for e in game.log if e.kind == "choice"]
    assert len(choices) == 4
    for made, built in zip(choices, expected, strict=True):
        assert _same_event(made, built)
    assert choices[3].audience == ("blue",)
    assert game.choices == [1, [0, 2], 4, True]
    choices[1].data["answer"].append(1)  # the event's list is not the recorded answer
    assert game.choices[1] == [0, 2]


@pytest.mark.parametrize(
    "data",
    [{}, {"side": "red"}, {"z": 1, "a": None, "m": 2.5, "b": True}, {"path": [1, (2, 3)], "unit": "A1"},
     {"np": np.int64(3)}, {"big": 10**5},
     # containers: lists and tuples of scalars copied at once, anything else walked
     {"units": ["a", "b"], "side": "red", "hex": "C3", "level": 1, "mode": "fire", "ok": False},
     {"to": (1, 2.5, None, True), "a": []}, {"l": [1, [2, 3]], "d": {"y": (1,), "x": "s"}},
     {"faces": [np.int64(2)], "b": 1}, {"huge": [10**5000]}, {_Key("k"): [1], "a": 2}],
)
def test_a_rule_s_event_is_the_event_the_constructor_builds(data):
    """``RulesContext.event`` hands its own ``**data`` over (no copy of scalars, keys sorted):
    the same event as ``Event(kind, text, data, audience)`` (or the same error), and detached
    from the caller."""
    try:
        built = Event("move", "A1 moves", data, "red")
    except ValueError as exc:  # an int beyond JSON's digits: refused alike
        with pytest.raises(ValueError, match=re.escape(str(exc)[:40])):
            rule_event("move", "A1 moves", dict(data), "red")
        return
    made = rule_event("move", "A1 moves", dict(data), "red")
    assert _same_event(made, built)
    assert [type(key) for key in made.data] == [type(key) for key in built.data]


def test_a_rule_s_event_with_nested_data_is_detached_from_the_caller():
    path, ids = [1, 2], ("a", "b")
    made = rule_event("move", "A1 moves", {"path": path, "ids": ids}, None)
    path.append(3)
    assert made.data == {"ids": ["a", "b"], "path": [1, 2]}
    assert made.data["path"] is not path and type(made.data["ids"]) is list


def test_a_rule_s_event_that_is_not_json_is_refused_as_before():
    with pytest.raises(TypeError, match="is not JSON data"):
        rule_event("k", "t", {"x": object()}, None)


def _context_logging_to(log: list[Event]) -> RulesContext:
    return RulesContext(ruleset=NoScenario(), scenario=None, options={}, state=None, dice=SeededDice(0),
                        interrupts=InterruptStack(), events=log)


def test_an_event_s_kind_and_text_by_keyword_still_log_the_same_event_with_a_warning():
    """``ctx.event``'s ``kind`` and ``text`` are positional only (a keyword of ``**data`` is
    then compared with ``audience`` alone): given by keyword, the deprecated form, they still
    make the same event, and say so; missing, they are refused as a missing argument was."""
    log: list[Event] = []
    ctx = _context_logging_to(log)
    by_position = ctx.event("move", "A1 moves", audience="red", unit="A1", to=3)
    with pytest.warns(DeprecationWarning, match="give kind and text by position") as warned:
        by_keyword = ctx.event(kind="move", text="A1 moves", audience="red", unit="A1", to=3)
    assert [w.filename for w in warned] == [__file__]  # the warning points at the caller's line
    with pytest.warns(DeprecationWarning, match="give text by position"):
        text_by_keyword = ctx.event("move", text="A1 moves", audience="red", unit="A1", to=3)
    with pytest.warns(DeprecationWarning, match="give kind and text by position") as warned:
        recorded = _Recorder(log, None).event(kind="move", text="A1 moves", audience="red", unit="A1", to=3)
    assert [w.filename for w in warned] == [__file__]
    assert _same_event(by_keyword, by_position) and _same_event(text_by_keyword, by_position)
    assert _same_event(recorded, by_position)
    assert log == [by_position, by_keyword, text_by_keyword, recorded]
    with pytest.raises(TypeError, match="missing required argument"):
        ctx.event("move", unit="A1")
    assert len(log) == 4


def test_an_event_may_carry_data_named_kind_or_text():
    """With ``kind`` and ``text`` positional only, data keys of those names are data (they
    were refused as arguments given twice)."""
    log: list[Event] = []
    event = _context_logging_to(log).event("spell", "A1 casts", kind="fire", text="flames")
    assert _same_event(event, Event("spell", "A1 casts", {"kind": "fire", "text": "flames"}))
    recorded = _Recorder(log, None).event("stack-push", "pushed", kind="fire", text="flames")
    assert _same_event(recorded, Event("stack-push", "pushed", {"kind": "fire", "text": "flames"}))


def test_seeded_dice_draw_as_numpy_s_integers_does():
    """A die's face is the draw ``rng.integers(0, faces)`` makes, and leaves the generator
    where it does (every later draw depends on it)."""
    dice = SeededDice(11)
    rng = np.random.Generator(np.random.PCG64(11))
    for sides in (6, 10, 20, 2, 1, 6, 100, 7):
        assert dice.integer(1, sides, "x") == 1 + int(rng.integers(0, sides))
    assert dice._rng.bit_generator.state == rng.bit_generator.state


def test_a_game_dropped_is_freed_without_the_cyclic_collector():
    """Nothing a game holds refers back to it: dropping the last reference frees the game and
    its log at once (before, every game was a cycle through its dice and context, and its log
    waited for a collection of the oldest generation)."""
    from wargamekit.plugins import installed_rulesets

    ruleset = installed_rulesets()["skirmish"]
    enabled = gc.isenabled()
    gc.disable()  # only reference counting may free it
    try:
        game = play_random_game(ruleset, seed=3, check_invariants=False)
        half = Game.new(ruleset, seed=4)
        half.play({side: RandomBot(i) for i, side in enumerate(ruleset.sides)},
                  until=lambda g: len(g.choices) >= 20)
        assert half.pending is not None  # dropped in the middle: its procedure still alive
        refs = [weakref.ref(game), weakref.ref(game.log[-1]), weakref.ref(half), weakref.ref(half.log[-1])]
        del game, half
        assert [ref() for ref in refs] == [None] * 4
    finally:
        if enabled:
            gc.enable()


def test_the_recorder_is_internal_plumbing():
    """Only the game builds the recorder: it is no public name of the context module (review D20)."""
    import wargamekit.context as context

    assert "Recorder" not in context.__all__ and not hasattr(context, "Recorder")
