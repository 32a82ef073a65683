"""Lazy offers (issue 9): a window's responses made only when read, read as the eager ones."""

from __future__ import annotations

import pytest
from rulesets import DiceRace

from wargamekit import Choose, Game, InterruptStack, Response
from wargamekit.errors import InterruptStackError
from wargamekit.interrupts import LazyOffers
from wargamekit.players import RandomBot, bot_seed


def _spells(side: str, point, made: list, log: list) -> list[tuple]:
    """What ``side`` may push at ``point``: (key, name, data) of each response, by the top item."""
    top = "nothing" if point.top is None else point.top.name
    return [
        (None, f"{side} bolt at {top}", {"spell": "bolt", "depth": point.depth}),
        ((side, "ward", point.timing), f"{side} ward", {"spell": "ward"}),
        ((side, "counter", top), f"{side} counters {top}", None),
    ]


def _response(side: str, spec: tuple, log: list) -> Response:
    key, name, data = spec
    return Response(name, side, resolve=lambda: log.append(name), key=key, data=data)


def eager_offers(made: list, log: list):
    def offers(side, point):
        out = [_response(side, spec, log) for spec in _spells(side, point, made, log)]
        made.extend(r.name for r in out)
        return out

    return offers


def lazy_offers(made: list, log: list):
    def offers(side, point):
        specs = _spells(side, point, made, log)

        def make(i):
            made.append(specs[i][1])
            return _response(side, specs[i], log)

        return LazyOffers([key for key, _, _ in specs], make)

    return offers


def run(offers, answers):
    """Drive a window, sending plain option values (never reading the options); returns the
    decisions asked and the names resolved."""
    procedure = InterruptStack().window("spell cast", ["red", "blue"], offers, rule="9.1", kind="demo.respond")
    asked = []
    try:
        decision = next(procedure)
        while True:
            asked.append(decision)
            decision = procedure.send(answers.pop(0) if answers else None)  # then everyone passes
    except StopIteration as stop:
        return asked, [r.name for r in stop.value]


ANSWERS = [1, 0, None, 2, None, None, None, None, None, None, None]


def test_a_lazy_offers_window_asks_and_resolves_what_the_eager_one_does():
    """The same answers give equal decisions (prompt, context, options: labels, values, data)
    and the same resolutions, in the same order."""
    eager_log: list = []
    lazy_log: list = []
    eager_asked, eager_resolved = run(eager_offers([], eager_log), list(ANSWERS))
    lazy_asked, lazy_resolved = run(lazy_offers([], lazy_log), list(ANSWERS))
    assert lazy_resolved == eager_resolved and lazy_log == eager_log and eager_log  # something resolved
    assert len(lazy_asked) == len(eager_asked)
    for lazy, eager in zip(lazy_asked, eager_asked, strict=True):
        assert lazy == eager
        assert (lazy.prompt, lazy.context, lazy.labels) == (eager.prompt, eager.context, eager.labels)
        assert [(o.value, o.label, o.data) for o in lazy.options] == [(o.value, o.label, o.data) for o in eager.options]


def test_unread_responses_are_never_made():
    """A poll reads only the keys; the response pushed is the one made; passing makes none."""
    made: list = []
    procedure = InterruptStack().window("spell cast", ["red", "blue"], lazy_offers(made, []))
    decision = next(procedure)
    assert len(decision.options) == 4 and made == []  # "pass" and three responses, none made
    decision = procedure.send(1)  # push red's response 1 (its ward) without reading any option
    assert made == ["red ward"]
    assert decision.side == "blue" and made == ["red ward"]
    procedure.send(None)  # blue passes: nothing made
    assert made == ["red ward"]
    assert decision.options[3].label == "blue counters red ward" and made == ["red ward", "blue counters red ward"]


def test_a_lazy_offer_is_its_list_of_responses():
    log: list = []
    point_offers = lazy_offers([], log)
    from wargamekit.interrupts import _timing_point

    point = _timing_point("spell cast", None, 0)
    lazy = point_offers("red", point)
    eager = eager_offers([], log)("red", point)
    assert len(lazy) == 3 and lazy == eager and list(lazy) == eager and lazy[1:] == tuple(eager[1:])
    assert lazy[0] is lazy[0] and lazy[-1] == eager[-1]
    assert lazy.keys == tuple(r.key for r in eager)
    with pytest.raises(IndexError):
        lazy[3]


def test_an_answered_key_is_not_offered_again_and_its_response_never_made():
    """The stack drops offers whose key it has answered by their keys alone."""
    made: list = []
    stack = InterruptStack()
    stack.answered.add(("red", "ward", "spell cast"))
    decision = next(stack.window("spell cast", ["red"], lazy_offers(made, [])))
    assert decision.labels == ["pass", "red bolt at nothing", "red counters nothing"]
    assert made == ["red bolt at nothing", "red counters nothing"]  # read by .labels; the ward never


def test_a_response_made_with_another_key_than_offered_is_refused_naming_both():
    def offers(side, point):
        return LazyOffers([("ward", 1)], lambda i: Response("ward", side, resolve=lambda: None, key=("ward", 2)))

    decision = next(InterruptStack().window("x", ["red"], offers))
    for _ in range(2):  # nothing kept: every read raises again
        with pytest.raises(InterruptStackError, match=r"'ward' has the key \('ward', 2\), but it was offered with the key \('ward', 1\)"):
            decision.options[1]


def test_make_returning_no_response_is_refused():
    offers = LazyOffers(["k"], lambda i: "ward")
    with pytest.raises(InterruptStackError, match="returned 'ward', not a Response"):
        offers[0]


def test_an_unhashable_key_is_refused_where_the_offer_is_built_as_a_response_refuses_it():
    with pytest.raises(TypeError, match=r"its key \['x'\] must be hashable \(use a tuple, not a list\)"):
        LazyOffers([None, ["x"]], lambda i: None)
    with pytest.raises(TypeError, match=r"its key \['x'\] must be hashable \(use a tuple, not a list\)"):
        Response("ward", "red", resolve=lambda: None, key=["x"])


def test_the_keys_are_checked_all_at_once_and_a_bad_one_is_still_named():
    """The keys are hashed together (one hash of their tuple, not a check per key); when that
    fails the keys are checked one by one, so the error names the key at fault, even one whose
    unhashable part lies inside a tuple."""
    offer = LazyOffers([None, ("ward", 1), ("rush", 2, "akari", "witch")], lambda i: None)
    assert offer.keys == (None, ("ward", 1), ("rush", 2, "akari", "witch")) and len(offer) == 3
    with pytest.raises(TypeError, match=r"response 'lazy offer 2': its key \('ward', \['x'\]\) must be hashable"):
        LazyOffers([None, ("ward", 1), ("ward", ["x"])], lambda i: None)


@pytest.mark.parametrize("make", [eager_offers, lazy_offers])
def test_a_driver_sending_anything_but_an_offered_index_is_told_alike(make):
    procedure = InterruptStack().window("x", ["red"], make([], []))
    next(procedure)
    with pytest.raises(TypeError, match="expected the index of an offered response, got 3"):
        procedure.send(3)


def test_lazy_offers_cannot_be_subclassed():
    with pytest.raises(TypeError, match="cannot be subclassed"):
        type("Mine", (LazyOffers,), {})


class SpellDuel(DiceRace):
    """A toy ruleset: each round a side rolls, then a window where both may push spells (which
    roll when they resolve), offered lazily or eagerly by the option ``lazy``."""

    name = "spell_duel"

    def options(self):
        return {**super().options(), "lazy": False}

    def play(self, game):
        made = self.made = []  # the names of the responses made, in order
        for n in range(1, 6):
            total = game.dice.d6(f"round {n}")
            game.event("round", f"round {n}: {total}")

            def spec(side, point, n=n):
                top = "nothing" if point.top is None else point.top.name
                return [
                    ((side, "bolt", n), f"{side} bolt at {top}", {"spell": "bolt"}),
                    ((side, "ward", n), f"{side} ward", {"spell": "ward", "round": n}),
                ]

            def response(side, key, name, data):
                def resolve():
                    game.event("spell", f"{name}: {game.dice.d6(name)}")

                return Response(name, side, resolve=resolve, key=key, data=data)

            def offers(side, point):
                specs = spec(side, point)
                if game.options["lazy"]:
                    def make(i, specs=specs, side=side):
                        made.append(specs[i][1])
                        return response(side, *specs[i])

                    return LazyOffers([s[0] for s in specs], make)
                made.extend(s[1] for s in specs)
                return [response(side, *s) for s in specs]

            yield from game.interrupts.window(f"round {n}", list(self.sides), offers, rule="toy 1", kind="toy.respond")
        from wargamekit import Outcome

        return Outcome(None, "five rounds", {})


@pytest.mark.parametrize("seed", range(8))
def test_a_game_logs_the_same_bytes_with_lazy_offers_and_reads_only_the_chosen_responses(seed):
    """Same seed and answers: byte-identical logs; a random bot's game makes at most the
    responses it picked (the log names the chosen option)."""
    logs, made = [], []
    for lazy in (False, True):
        game = Game.new(SpellDuel(), seed=seed, options={"lazy": lazy})
        game.play({s: RandomBot(bot_seed(seed, i)) for i, s in enumerate(game.ruleset.sides)})
        logs.append(game.log_text())
        made.append(game.ruleset.made)
    assert logs[0] == logs[1] and "spell" in logs[0]
    picks = sum(1 for line in logs[1].splitlines() if "respond? ->" in line and "-> pass" not in line)
    assert len(made[1]) == picks < len(made[0])


def test_a_lazy_window_decision_is_a_choose_with_plain_values():
    decision = next(InterruptStack().window("x", ["red"], lazy_offers([], [])))
    assert type(decision) is Choose and [o.value for o in decision.options] == [None, 0, 1, 2]


@pytest.mark.parametrize(
    ("count", "dropped"),
    [(1, ()), (2, ()), (2, (0,)), (16, ()), (16, (1, 3)), (17, ()), (17, (0,)), (20, ()), (20, (1, 3))],
)
def test_a_lazy_poll_menu_of_any_size_is_the_eager_menu(count, dropped):
    """The poll's lazy menu (its values kept by count up to 16, built beyond; option ``i`` the
    response ``i`` when nothing was dropped, else the ``i``-th one left) is the eager list's:
    the same values, labels and data, whatever the count and whichever keys were answered."""

    def responses(side):
        return [Response(f"{side} spell {i}", side, resolve=lambda: None, key=(side, i), data={"spell": i})
                for i in range(count)]

    def lazy(side, point):
        return LazyOffers([(side, i) for i in range(count)], lambda i: responses(side)[i])

    def eager(side, point):
        return responses(side)

    menus = []
    for offers in (lazy, eager):
        stack = InterruptStack()
        stack.answered.update(("red", i) for i in dropped)
        decision = next(stack.window("x", ["red"], offers))
        menus.append([(o.value, o.label, o.data) for o in decision.options])
    left = [i for i in range(count) if i not in dropped]
    assert menus[0] == menus[1]
    assert [label for _, label, _ in menus[0]] == ["pass", *(f"red spell {i}" for i in left)]
