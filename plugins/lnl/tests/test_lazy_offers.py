"""OPF 1–2 (opportunity fire) offered lazily, and the rally (RAL 2–4) and units (OPS 2) menus made lazily (issue 9):
each response (its name with the exact odds) or option is made when read, and is what was
offered (an option of an answered decision not read before the answer is refused, not made late)."""

import pytest

from wargamekit import Game, InterruptStack, ScriptedDice, StaleOptionError
from wargamekit.decisions import LazyOptions
from wargamekit.interrupts import LazyOffers, TimingPoint
from wargamekit_lnl import LnL, kinds
from wargamekit_lnl.data import WOODS
from wargamekit_lnl.scenario import parse_hex as H
from wargamekit_lnl.testing import answer, context, scenario, unit


def _read(offer):
    return [(r.name, r.key, r.data) for r in offer]


def test_opf_responses_are_those_offered_with_the_odds_of_the_state_they_are_read_in():
    """OPF 1–2: us-1 (a squad) and us-t (a tank) wait; de-1 enters 0203. The poll finds which
    responses there are: read after us-1 fired (a poll then offers one), the offer still holds
    both, with the keys and data offered. Each response's attack and odds are made when it is
    read, from the state as it is then (as any lazy label while its decision is pending; the
    answer seals the rest): read after de-1 was shaken, the odds are a fresh poll's; after us-1
    moved behind woods (LOS 1), the name says it is out of reach."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("us-t", "us", "sherman", "0104"),
                            unit("de-1", "german", "de_squad", "0203")]))
    s = ctx.state
    us, de = s.units["us-1"], s.units["de-1"]
    offers = LnL()._opportunity(ctx, [de], de.place)
    point = TimingPoint("de-1 enters 0203", None, 0)
    eager = _read(offers("us", point))  # read at once, as an eager offer was built
    lazy, later = offers("us", point), offers("us", point)
    assert type(lazy) is LazyOffers and len(lazy) == len(eager) == 2
    assert [name.split(" (")[0] for name, _k, _d in eager] == [
        "opportunity fire: us-t at 0203", "opportunity fire from 0103 at 0203"]
    de.shaken = True  # the damage check's view of the mover changes the odds (FPR 5)
    shaken = _read(offers("us", point))
    assert shaken[1][0] != eager[1][0]
    us.markers = {"fire"}  # OPF 1c: us-1 may no longer fire
    assert len(offers("us", point)) == 1
    read = _read(lazy)
    assert [(k, d) for _n, k, d in read] == [(k, d) for _n, k, d in eager]
    assert read[0][0] == eager[0][0] and read[1][0] == shaken[1][0]
    us.hex = H("0503")
    s.map.set_terrain(H("0403"), WOODS)  # between them: no LOS (LOS 1)
    assert later[1].name == "opportunity fire from 0103 at 0203 (out of reach)"


def test_an_opf_decision_read_while_pending_shows_the_same_after_the_game_moved_on():
    """OPF 1–5 (the game of test_rules' OPF test): the opportunity-fire decision's options, read
    while it is pending, read the same after de-1 fired and us-1 was shaken; those of the same
    decision not read before the answer are refused (``StaleOptionError``), not made from the
    later state (the odds of a shaken mover)."""
    def to_the_offer():
        game = Game.new(LnL(), scenario([unit("us-1", "us", "us_squad", "0103"),
                                         unit("de-1", "german", "de_squad", "0503")]),
                        dice=ScriptedDice([4, 3, 3, 1, 2, 1, 1]))
        answer(game, hex="0103")
        answer(game, action="move")
        answer(game, mode="normal")
        answer(game, hex="0203")
        assert game.pending.kind == kinds.OPPORTUNITY_FIRE
        return game

    first = to_the_offer()
    at_once = [(o.label, o.value, o.data) for o in first.pending.options]
    assert len(at_once) == 2 and at_once[1][0].startswith("opportunity fire from 0503 at 0203 (us-1: ")
    game = to_the_offer()
    held = game.pending
    read = [(o.label, o.value, o.data) for o in held.options]
    unread = to_the_offer()
    held_unread = unread.pending
    for moved_on in (game, unread):
        moved_on.answer(1)
        assert moved_on.state.units["us-1/half"].shaken  # the mover the odds were about has changed
        assert moved_on.log_text() != first.log_text()  # the held game moved on
    assert read == at_once and [(o.label, o.value, o.data) for o in held.options] == at_once
    assert held_unread.describe(1) == at_once[1][0]  # (the chosen label, made for the log)
    with pytest.raises(StaleOptionError, match=r"option 1 .*not made before the decision was answered"):
        held_unread.options[1]  # noqa: B018 - the read is what raises


def test_rally_menu_read_after_the_state_changed_shows_the_chance_offered():
    """RAL 2.1 (a lazy menu): shaken us-1 with a leader (2) in woods: 2D6 − 2 − 2 ≤ 5, a 30/36
    chance. Read after both moved out of the woods (now 21/36), the menu still shows that chance and place."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("us-l", "us", "leader_2", "0103"),
                            unit("de-1", "german", "de_squad", "0503")], terrain={"woods": ["0103"]}))
    s = ctx.state
    s.units["us-1"].shaken = True
    menu = next(LnL().rally_side(ctx, "us"))
    assert menu.kind == kinds.RALLY and type(menu.options) is LazyOptions
    s.units["us-l"].hex = s.units["us-1"].hex = H("0203")
    assert next(LnL().rally_side(ctx, "us")).options[1].label == "rally us-1 at 0203 (58%)"  # offered now
    assert [(o.value, o.label, o.data) for o in menu.options] == [
        (("done",), "done", {"action": "done"}),
        (("rally", "us-1", "leader"), "rally us-1 at 0103 (83%)",
         {"action": "rally", "unit": "us-1", "helper": "leader", "p": (5, 6)}),
    ]


def _window_or_none(gen):
    """The first decision a window's generator asks, or ``None`` if it ends without one."""
    try:
        return next(gen)
    except StopIteration:
        return None


def test_an_opf_window_that_would_offer_nothing_is_not_opened(monkeypatch):
    """OPF 1a–1b: with nothing on the stack, the opportunity-fire window after a move asks its
    one poll first; a poll with nothing to offer (us-1 has fired, OPF 1c) opens no window (no
    decision, no event, the stack as it was). When something is offered the decision is the one
    the window opened at once asks: the same prompt, context and options (labels and data)."""
    def setup(fired):
        ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0203")]))
        if fired:
            ctx.state.units["us-1"].markers = {"fire"}
        return ctx, ctx.state.units["de-1"]

    opened = []
    window = InterruptStack.window

    def recorded(self, timing, *args, **kwargs):
        opened.append(timing)
        return window(self, timing, *args, **kwargs)

    monkeypatch.setattr(InterruptStack, "window", recorded)
    ctx, de = setup(fired=True)
    assert _window_or_none(LnL()._opportunity_window(ctx, "german", [de], de.place, "german")) is None
    assert opened == [] and len(ctx.log) == 0 and ctx.interrupts.items == [] and ctx.interrupts.open_floors == []
    asked = []
    for direct in (False, True):
        ctx, de = setup(fired=False)
        if direct:  # the window as it was opened before: every poll in the window
            gen = ctx.interrupts.window("german enters 0203", ["us"], LnL()._opportunity(ctx, [de], de.place),
                                        rule="OPF 1", kind=kinds.OPPORTUNITY_FIRE)
        else:
            gen = LnL()._opportunity_window(ctx, "german", [de], de.place, "german")
        d = _window_or_none(gen)
        assert d is not None and d.kind == kinds.OPPORTUNITY_FIRE
        asked.append((d.side, d.prompt, d.rule, dict(d.context), [(o.label, o.value, o.data) for o in d.options]))
    assert asked[0] == asked[1] and len(asked[0][-1]) == 2
    assert opened == ["german enters 0203", "german enters 0203"]  # the window asked first, then opened at once


def test_opf_offers_and_the_activation_menu_list_places_in_map_order_whatever_the_set_up_order():
    """Round 10: the OPF poll's waiting groups (OPF 1–2) and the activation menu's places (OPS 2)
    are keyed by coordinates; both still list places in map order (q, r, level), a stack as one
    group, a unit that moved (OPF 1c) left out, whatever order the units were set up in. 0105
    (q 0, r 4) comes before 0203 (q 1, r 2): a key of (r, q, level) would put it after."""
    ctx = context(scenario([unit("us-5", "us", "us_squad", "0203"), unit("us-3", "us", "us_squad", "0105"),
                            unit("us-1", "us", "us_squad", "0103"), unit("us-2", "us", "us_squad", "0103"),
                            unit("us-4", "us", "us_squad", "0104"), unit("de-1", "german", "de_squad", "0304")]))
    s = ctx.state
    assert (H("0105").q, H("0105").r, H("0203").q, H("0203").r) == (0, 4, 1, 2)
    s.units["us-4"].markers = {"move"}  # OPF 1c: it may not fire
    de = s.units["de-1"]
    offered = LnL()._opportunity(ctx, [de], de.place)("us", TimingPoint("de-1 enters 0304", None, 0))
    assert [(r.data["from"]["hex"], r.data["firers"]) for r in offered] == [
        ("0103", ("us-1", "us-2")), ("0105", ("us-3",)), ("0203", ("us-5",))]

    game = Game.new(LnL(), scenario([unit("us-5", "us", "us_squad", "0203"), unit("us-3", "us", "us_squad", "0105"),
                                     unit("us-1", "us", "us_squad", "0103"), unit("us-2", "us", "us_squad", "0103"),
                                     unit("de-1", "german", "de_squad", "0503")],
                                    initiative="us"))
    assert [o.data for o in game.pending.options] == [{"pass": True}, {"hex": "0103", "level": 0},
                                                        {"hex": "0105", "level": 0}, {"hex": "0203", "level": 0}]


def test_units_menu_read_after_the_state_changed_shows_the_units_as_offered():
    """OPS 2, LDR 1 (a lazy menu): activating 0103 offers its units and, through the Good Order
    leader, us-2 next door. Read after us-1 was shaken and us-2 moved away, the menu still
    shows each unit's label and place as offered; its constraint reads the units as they are."""
    data = scenario([unit("us-1", "us", "us_squad", "0103"), unit("us-l", "us", "leader_1", "0103"),
                     unit("us-2", "us", "us_squad", "0203"), unit("de-1", "german", "de_squad", "1001")])
    game = Game.new(LnL(), data)
    answer(game, hex="0103")
    menu = game.pending
    assert menu.kind == kinds.UNITS and type(menu.options) is LazyOptions
    s = game.state
    s.units["us-1"].shaken = True
    s.units["us-2"].hex = H("0503")
    assert [(o.value, o.label, o.data) for o in menu.options] == [
        ("us-1", "us-1 (us_squad)", {"unit": "us-1", "hex": "0103", "level": 0}),
        ("us-l", "us-l (leader_1)", {"unit": "us-l", "hex": "0103", "level": 0}),
        ("us-2", "us-2 (us_squad)", {"unit": "us-2", "hex": "0203", "level": 0}),
    ]
    assert menu.constraint(("us-1", "us-2")) is not None  # us-2, at 0503 now, is out of the leader's reach
