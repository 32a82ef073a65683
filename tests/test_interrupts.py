"""The interrupt stack: polling windows, LIFO resolution, fizzles, one answer per trigger."""

from __future__ import annotations

import collections.abc

import pytest
from rulesets import DiceRace

from wargamekit import Choose, InterruptStack, Response, UnresolvedItemError, WargamekitError
from wargamekit.testing import check_ruleset


def drive(procedure, answers):
    """Run a stack procedure, answering each decision by option label; return (asked, result)."""
    asked = []
    answers = list(answers)
    try:
        decision = next(procedure)
        while True:
            asked.append((decision.side, tuple(decision.labels)))
            label = answers.pop(0)
            decision = procedure.send(decision.options[decision.labels.index(label)].value)
    except StopIteration as stop:
        assert not answers, f"unused answers {answers}"
        return asked, [r.name for r in stop.value or []]


def spell(name, side, log, *, key=None, legal=None):
    return Response(name, side, resolve=lambda: log.append(name), is_legal=legal, key=key or name)


def test_window_with_no_offers_asks_nobody():
    """A window where nobody can respond resolves nothing and asks nothing."""
    asked, resolved = drive(InterruptStack().window("turn start", ["a", "b"], lambda s, p: []), [])
    assert asked == [] and resolved == []


def test_an_empty_offer_of_either_kind_is_a_pass_and_makes_nothing():
    """A side offered nothing passes: an empty list, an empty tuple or a lazy offer with no keys
    (whose ``make`` is never called), the other side still polled in turn."""
    from wargamekit.interrupts import LazyOffers

    made, polled = [], []

    def offers(side, point):
        polled.append(side)
        if side == "a":
            return LazyOffers([], lambda i: made.append(i))
        return [] if len(polled) < 3 else ()

    asked, resolved = drive(InterruptStack().window("turn start", ["a", "b"], offers), [])
    assert asked == [] and resolved == [] and made == [] and polled == ["a", "b"]


@pytest.mark.parametrize("bad", [None, 0, False])
def test_offers_that_return_no_sequence_are_refused_by_name(bad):
    """An offers function that returns ``None`` (a forgotten ``return``) or another non-sequence
    is a ruleset bug: refused with the timing point and side named, not taken for a pass."""
    with pytest.raises(TypeError, match=r"the offers at 'turn start' for 'a' returned .*: expected a sequence"):
        drive(InterruptStack().window("turn start", ["a", "b"], lambda side, point: bad), [])


def test_resolution_is_last_in_first_out():
    """MTTT interrupt phase: three stacked responses resolve newest first."""
    log: list[str] = []
    offers = {
        ("b", "attack declared"): [spell("shield", "b", log)],
        ("a", "shield"): [spell("dispel", "a", log)],
        ("b", "dispel"): [spell("counter", "b", log)],
    }

    def offer(side, point):
        key = point.top.name if point.top else point.timing
        return offers.get((side, key), [])

    asked, resolved = drive(
        InterruptStack().window("attack declared", ["a", "b"], offer),
        ["shield", "dispel", "counter"],
    )
    assert resolved == ["counter", "dispel", "shield"]
    assert log == ["counter", "dispel", "shield"]
    assert asked == [("b", ("pass", "shield")), ("a", ("pass", "dispel")), ("b", ("pass", "counter"))]


def test_illegal_item_fizzles_at_resolution():
    """Legality is checked again when an item resolves; an illegal one fizzles."""
    log: list[str] = []
    state = {"target_alive": True}

    def kill(name="snipe"):
        return Response("snipe", "a", resolve=lambda: state.update(target_alive=False) or log.append("snipe"), key="snipe")

    heal = Response(
        "heal target",
        "b",
        resolve=lambda: log.append("heal"),
        is_legal=lambda: None if state["target_alive"] else "the target is dead",
        key="heal",
    )

    def offer(side, point):
        if side == "b" and point.timing == "wounded":
            return [heal]
        if side == "a" and point.top is heal:
            return [kill()]
        return []

    stack = InterruptStack(on_event=lambda kind, text, **data: log.append(f"{kind}: {text}"))
    _, resolved = drive(stack.window("wounded", ["a", "b"], offer), ["heal target", "snipe"])
    assert resolved == ["snipe"]
    assert "stack-fizzle: heal target fizzles: the target is dead" in log
    assert "heal" not in log


def test_new_responses_allowed_at_each_resolution_point():
    """After each resolution the window re-opens and a side may push again."""
    log: list[str] = []

    def offer(side, point):
        if side == "a" and point.timing == "resolution of first":
            return [spell("second", "a", log)]
        if side == "a" and point.timing == "go":
            return [spell("first", "a", log)]
        return []

    asked, resolved = drive(InterruptStack().window("go", ["a"], offer), ["first", "second"])
    assert resolved == ["first", "second"]
    assert asked == [("a", ("pass", "first")), ("a", ("pass", "second"))]


def test_a_trigger_is_answered_at_most_once():
    """An offer whose key was already pushed is not offered again."""
    log: list[str] = []
    again = spell("riposte", "b", log, key=("attack 1", "riposte"))
    asked, resolved = drive(InterruptStack().window("attack 1", ["b"], lambda s, p: [again]), ["riposte"])
    assert resolved == ["riposte"]
    assert asked == [("b", ("pass", "riposte"))]


def test_passing_closes_the_window_without_resolving_anything():
    """When every side passes at once, nothing is pushed."""
    log: list[str] = []
    asked, resolved = drive(
        InterruptStack().window("x", ["a", "b"], lambda s, p: [spell(f"{s}-spell", s, log)]),
        ["pass", "pass"],
    )
    assert resolved == [] and log == []
    assert [side for side, _ in asked] == ["a", "b"]


def test_simultaneous_triggers_are_ordered_by_their_controller():
    """Simultaneous triggered effects go on the stack in the order their controller chooses."""
    log: list[str] = []
    stack = InterruptStack()
    effects = [spell("burn", "a", log), spell("freeze", "a", log), spell("ward", "b", log)]
    asked, _ = drive(stack.push_triggered(effects, ["a", "b"], rule="interrupt phase"), ["freeze"])
    assert asked == [("a", ("burn", "freeze"))]
    assert [r.name for r in stack.items] == ["freeze", "burn", "ward"]
    _, resolved = drive(stack.window("triggers", [], lambda s, p: [], floor=0), [])
    assert resolved == ["ward", "burn", "freeze"]


def test_disabled_stack_polls_nobody_but_resolves_mandatory_triggers():
    """MTTT optional rule: with interrupts disabled no window polls, pushed triggers still resolve."""
    log: list[str] = []
    stack = InterruptStack(enabled=False)
    stack.push(spell("mandatory", "a", log))
    window = stack.window("x", ["a", "b"], lambda s, p: [spell("optional", s, log)], floor=0)
    asked, resolved = drive(window, [])
    assert asked == []
    assert resolved == ["mandatory"]


def test_resolving_item_may_ask_decisions_and_open_nested_windows():
    """A resolving item may be a procedure that asks its own decision."""
    log: list[str] = []
    stack = InterruptStack()

    def choose_target():
        target = yield Choose.of("a", "Which target?", ["left", "right"])
        log.append(target)

    item = Response("volley", "a", resolve=choose_target, key="volley")
    asked, resolved = drive(stack.window("fire", ["a"], lambda s, p: [item]), ["volley", "right"])
    assert log == ["right"] and resolved == ["volley"]


def test_stack_is_back_to_its_level_after_a_window():
    """A window leaves the stack as it found it."""
    stack = InterruptStack()
    log: list[str] = []
    drive(stack.window("x", ["a"], lambda s, p: [spell("one", "a", log)]), ["one"])
    assert stack.items == [] and stack.top is None


@pytest.mark.parametrize("order", [["a", "b"], ["b", "a"]])
def test_poll_order_follows_the_ruleset(order):
    """Sides are polled in the order the ruleset gives."""
    log: list[str] = []
    asked, _ = drive(
        InterruptStack().window("x", order, lambda s, p: [spell(f"{s}!", s, log)]), ["pass", "pass"]
    )
    assert [side for side, _ in asked] == order


def test_equal_triggered_effects_are_each_pushed_once():
    """Two triggered effects equal as values (same name, controller, no key) but resolving
    differently: the one the controller picks goes on the stack, and the other one too."""
    log: list[str] = []
    first = Response("ward", "a", resolve=lambda: log.append("first"))
    second = Response("ward", "a", resolve=lambda: log.append("second"))
    assert first == second
    stack = InterruptStack()
    procedure = stack.push_triggered([first, second], ["a"])
    decision = next(procedure)
    with pytest.raises(StopIteration):
        procedure.send(decision.options[1].value)  # push the second first
    assert [item.resolve for item in stack.items] == [second.resolve, first.resolve]


@pytest.mark.parametrize("floor", [-1, 2])
def test_floor_outside_the_stack_is_refused(floor):
    """A floor above the top (or below the bottom) would leave items that never resolve."""
    stack = InterruptStack()
    stack.push(spell("ward", "a", []))
    with pytest.raises(ValueError, match=f"floor {floor} is outside the stack"):
        next(stack.window("turn start", ["a"], lambda s, p: [], floor=floor))


def test_unhashable_key_is_refused_where_the_response_is_built():
    """A list as a key is refused naming the response, not later by the stack's set."""
    with pytest.raises(TypeError, match="response 'ward': its key \\['turn start', 'a'\\] must be hashable"):
        Response("ward", "a", resolve=lambda: None, key=["turn start", "a"])


# -- the invariant: nothing pushed is left unresolved once its window has closed ---------------
def test_a_window_whose_floor_strands_an_item_pushed_before_it_is_refused_naming_both():
    """An item pushed outside a window (a spell cast as an action) and a window opened with the
    default floor, the depth after the push: the window would close without resolving it."""
    stack = InterruptStack()
    stack.push(spell("Healing Song", "a", []))
    with pytest.raises(UnresolvedItemError, match="'Healing Song' would never resolve \\(window 'casting'\\)") as err:
        next(stack.window("casting", ["a", "b"], lambda s, p: []))
    assert err.value.item == "Healing Song" and err.value.window == "casting"
    assert isinstance(err.value, WargamekitError)
    assert [i.name for i in stack.items] == ["Healing Song"] and stack.open_floors == []


def test_a_window_reaching_down_to_an_item_pushed_before_it_resolves_it():
    """The same push with the window's floor at the depth before the push: it resolves."""
    log: list[str] = []
    stack = InterruptStack()
    floor = len(stack.items)
    stack.push(spell("Healing Song", "a", log))
    _, resolved = drive(stack.window("casting", ["a"], lambda s, p: [], floor=floor), [])
    assert resolved == ["Healing Song"] and stack.items == [] and stack.open_floors == []


def test_a_nested_window_above_items_an_open_window_will_resolve_is_allowed():
    """A window opened while an item resolves lies above the items still waiting below it: the
    outer window resolves those when it resumes, so the nested window's floor strands nothing."""
    log: list[str] = []
    stack = InterruptStack()

    def volley():
        log.append("volley")
        resolved = yield from stack.window("volley lands", ["b"], lambda s, p: [])
        log.append(f"nested window at depth {len(stack.items)} resolved {resolved}")

    def offer(side, point):
        if point.timing == "fire":
            return [spell("ward", "a", log), Response("volley", "a", resolve=volley, key="volley")]
        return []

    _, resolved = drive(stack.window("fire", ["a"], offer), ["ward", "volley"])
    assert resolved == ["volley", "ward"]
    assert log == ["volley", "nested window at depth 1 resolved []", "ward"]


def test_assert_empty_names_every_item_left():
    """The end-of-game check names what was left on the stack."""
    stack = InterruptStack()
    stack.assert_empty("game end")  # nothing left: no error
    stack.push(spell("ward", "a", []))
    stack.push(spell("burn", "b", []))
    with pytest.raises(UnresolvedItemError, match="2 item\\(s\\) left on the stack: 'ward', 'burn'"):
        stack.assert_empty("game end")


class StrandsAtWindow(DiceRace):
    """Broken on purpose: casts a spell onto the stack, then opens its window with the default
    floor (the depth after the push) — the defect of MTTT's standard spells (issue 15)."""

    name = "strands_at_window"

    def play(self, game):
        game.interrupts.push(Response("stranded spell", "red", resolve=lambda: None))
        yield from game.interrupts.window("casting", list(self.sides), lambda s, p: [])
        return (yield from super().play(game))


class LeavesItemAtEnd(DiceRace):
    """Broken on purpose: pushes an item and ends the game without opening a window."""

    name = "leaves_item_at_end"

    def play(self, game):
        outcome = yield from super().play(game)
        game.interrupts.push(Response("forgotten trigger", "blue", resolve=lambda: None))
        return outcome


def test_conformance_catches_a_ruleset_whose_window_strands_an_item():
    with pytest.raises(UnresolvedItemError, match="'stranded spell' would never resolve \\(window 'casting'\\)"):
        check_ruleset(StrandsAtWindow(), games=1)


def test_conformance_catches_a_game_that_ends_with_an_item_on_the_stack():
    with pytest.raises(
        AssertionError, match="leaves_item_at_end: the game ended with \\['forgotten trigger'\\] unresolved"
    ):
        check_ruleset(LeavesItemAtEnd(), games=1)
    assert check_ruleset(DiceRace(), games=2).games == 2  # the good ruleset still passes

def _reaches_a_callable(value, seen=None) -> bool:
    """Whether ``value`` (walked through containers and attrs/objects) holds a function."""
    import attrs as _attrs

    seen = set() if seen is None else seen
    if id(value) in seen:
        return False
    seen.add(id(value))
    if callable(value) and not isinstance(value, type):
        return True
    if isinstance(value, (str, int, float, bool, type(None))):
        return False
    if isinstance(value, dict):
        return any(_reaches_a_callable(v, seen) for v in value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_reaches_a_callable(v, seen) for v in value)
    if _attrs.has(type(value)):
        return any(_reaches_a_callable(getattr(value, a.name), seen) for a in _attrs.fields(type(value)))
    return True  # an unknown object: assume the worst


def test_window_options_are_plain_values_with_no_path_to_the_responses():
    """A player is handed plain values (None to pass, the response's index), never the
    Response, whose closures reach the live game; the stack maps the answer back."""
    log: list[str] = []
    procedure = InterruptStack().window("x", ["a"], lambda s, p: [spell("ward", "a", log), spell("bolt", "a", log)])
    decision = next(procedure)
    assert [o.value for o in decision.options] == [None, 0, 1]
    assert not any(_reaches_a_callable(o.value) or _reaches_a_callable(o.data) for o in decision.options)
    assert decision.options[2].data == {"respond": {"name": "bolt"}}
    decision = procedure.send(decision.options[2].value)  # push "bolt"; the window polls again
    assert decision.labels == ["pass", "ward"]
    decision = procedure.send(None)  # bolt resolves; the window re-opens at its resolution
    assert log == ["bolt"] and decision.labels == ["pass", "ward"]
    with pytest.raises(StopIteration):
        procedure.send(None)


def test_triggered_order_options_are_plain_indices():
    """push_triggered offers indices, not the responses."""
    stack = InterruptStack()
    procedure = stack.push_triggered([spell("x", "a", []), spell("y", "a", [])], ["a"])
    decision = next(procedure)
    assert [o.value for o in decision.options] == [0, 1]


def test_a_driver_sending_an_object_instead_of_an_index_is_told():
    """The stack refuses anything but an offered index (a driver bug, named as such)."""
    procedure = InterruptStack().window("x", ["a"], lambda s, p: [spell("ward", "a", [])])
    next(procedure)
    with pytest.raises(TypeError, match="index of an offered response"):
        procedure.send(5)


def test_window_decisions_carry_the_rulesets_context_beside_the_cores():
    """window(context=...) adds the ruleset's facts to the decision's context; the core's own
    keys (timing, depth, top) are kept."""
    stack = InterruptStack()
    offer = [Response("volley", "b", resolve=lambda: None, key="v", data={"unit": "B1"})]
    ask = next(stack.window("enemy moves", ["b"], lambda s, p: offer, kind="demo.react",
                            context={"mover": "A1", "timing": "ignored"}))
    assert ask.kind == "demo.react"
    assert dict(ask.context) == {"mover": "A1", "timing": "enemy moves", "depth": 0, "top": None}
    assert [dict(o.data) for o in ask.options][1] == {"respond": {"unit": "B1"}}


def test_a_polls_decision_is_what_the_plain_constructors_build():
    """The poll builds its decisions through fast paths (issue 9): the decision, its context
    (nested ruleset data, the top item's data) and its options equal what ``Choose``,
    ``Option`` and ``freeze_data`` build from plain dicts, in the same key order."""
    from wargamekit import Option
    from wargamekit.decisions import freeze_data

    stack = InterruptStack()
    stack.push(Response("charge", "a", resolve=lambda: None, key="c", data={"unit": "A1", "to": [3, 4]}))
    offer = [Response("volley", "b", resolve=lambda: None, key="v", data={"unit": "B1", "at": ("A1",)}),
             Response("flee", "b", resolve=lambda: None, key="f")]
    extra = {"mover": {"id": "A1", "path": [[1, 2]]}, "timing": "ignored"}
    ask = next(stack.window("enemy moves", ["b"], lambda s, p: offer, rule="7.2", kind="demo.react",
                            context=extra, floor=0))
    plain = Choose(
        side="b", prompt="enemy moves: respond?", rule="7.2", kind="demo.react",
        options=(Option(None, "pass", data={"pass": True}),
                 Option(0, "volley", data={"respond": {"unit": "B1", "at": ["A1"]}}),
                 Option(1, "flee", data={"respond": {"name": "flee"}})),
        context={**extra, "timing": "enemy moves", "depth": 1, "top": {"unit": "A1", "to": [3, 4]}},
    )
    assert ask == plain and ask.options == plain.options
    assert type(ask) is Choose and repr(ask) == repr(plain)  # (built without the class's call)
    assert list(ask.context) == list(plain.context) == ["mover", "timing", "depth", "top"]
    assert ask.context == freeze_data(plain.context) and type(ask.context["top"]) is type(plain.context["top"])


def test_a_response_is_built_as_attrs_would():
    """Response's hand-written __init__ (issue 9) freezes its data and keeps every field."""
    import attrs

    resolve, legal = (lambda: None), (lambda: None)
    r = Response("ward", "a", resolve, legal, ("k", 1), {"to": [1, 2]}, payload=[5])
    assert (r.name, r.controller, r.resolve, r.is_legal, r.key, r.payload) == ("ward", "a", resolve, legal, ("k", 1), [5])
    assert r.data == {"to": (1, 2)} and type(r.data).__name__ == "Data"
    assert Response("ward", "a", resolve).data == {} and attrs.evolve(r, key="j").key == "j"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        r.name = "other"  # type: ignore[misc]
    # written as its builder, then given its class back: a plain, frozen Response, equal to one
    # attrs itself builds field by field
    assert type(r) is Response and r == attrs.evolve(r) and hash(r) == hash(attrs.evolve(r))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        r.key = "other"  # type: ignore[misc]

    class Marked(Response):  # a subclass keeps its class (it is written through the setters)
        __slots__ = ("mark",)

    m = Marked("ward", "a", resolve, key="k", data={"to": [1]})
    assert type(m) is Marked and (m.name, m.key, m.data) == ("ward", "k", {"to": (1,)})
    with pytest.raises(TypeError, match="must be hashable"):
        Marked("ward", "a", resolve, key=["k"])


def test_the_stack_s_events_name_what_was_pushed_resolved_and_fizzled():
    """The stack writes its events straight to ``on_event`` (issue 9, round window6): each push,
    resolution and fizzle, in order, with its text and data; a resolution that is a procedure
    (a generator, or any other ``Generator``) is run, one that returns a value is not."""
    events = []
    stack = InterruptStack(on_event=lambda kind, text, **data: events.append((kind, text, data)))
    ran = []

    def procedure():
        ran.append("procedure")
        return
        yield

    class Steps(collections.abc.Generator):  # a procedure that is no plain generator
        def send(self, value):
            ran.append("steps")
            raise StopIteration

        def throw(self, *args):
            raise StopIteration

    stack.push(Response("bolt", "a", resolve=procedure, key="bolt"))
    stack.push(Response("steps", "a", resolve=Steps, key="steps"))
    stack.push(Response("ward", "b", resolve=lambda: ["not a procedure"], key="ward"))
    stack.push(Response("late", "a", resolve=lambda: None, is_legal=lambda: "too late", key="late"))
    _, resolved = drive(stack.window("cast", ["a", "b"], lambda side, point: [], floor=0), [])
    assert resolved == ["ward", "steps", "bolt"] and ran == ["steps", "procedure"]
    assert events == [
        ("stack-push", "a pushes bolt (stack depth 1)", {"name": "bolt", "controller": "a", "depth": 1}),
        ("stack-push", "a pushes steps (stack depth 2)", {"name": "steps", "controller": "a", "depth": 2}),
        ("stack-push", "b pushes ward (stack depth 3)", {"name": "ward", "controller": "b", "depth": 3}),
        ("stack-push", "a pushes late (stack depth 4)", {"name": "late", "controller": "a", "depth": 4}),
        ("stack-fizzle", "late fizzles: too late", {"name": "late", "reason": "too late"}),
        ("stack-resolve", "ward resolves", {"name": "ward"}),
        ("stack-resolve", "steps resolves", {"name": "steps"}),
        ("stack-resolve", "bolt resolves", {"name": "bolt"}),
    ]
