"""The read-only promise (issue 9, "Views"): a player that sets ``reads_view_only = True`` is
handed the ruleset's ``shared_view`` (the live state where the side may see all of it), and
the conformance check catches a player that breaks the promise and a shared view that shows
something the view hides."""

from __future__ import annotations

from typing import Any

import pytest
from attrs import define, field
from rulesets import DiceRace

from wargamekit import Game
from wargamekit.players import RandomBot, reads_view_only
from wargamekit.testing import check_non_interference, check_read_only_views, check_ruleset
from wargamekit.view import CACHE, field_copier


@define
class OpenState:
    totals: dict[str, int]
    secret: dict[str, int]
    round: int = 0
    #: a derived cache a reader may fill (no result depends on it)
    memo: dict[str, int] = field(factory=dict, metadata=CACHE)


_copy_open = field_copier(OpenState, skip=("memo",))


class OpenRace(DiceRace):
    """The dice race with every number on the table: the view is a copy of everything, the
    shared view the live state."""

    name = "open_race"

    def setup(self, scenario, options):
        race = super().setup(scenario, options)
        return OpenState(totals=race.totals, secret=race.secret)

    def view(self, state, side):
        seen = _copy_open(state)
        seen.memo = {}
        return seen

    def shared_view(self, state, side):
        return state


class LeakyShare(DiceRace):
    """Its view hides the other side's secret number; its shared view hands out the live state
    with it (a false claim that the side may see all)."""

    name = "leaky_share"

    def shared_view(self, state, side):
        return state


class Reader(RandomBot):
    """Keeps the promise: reads the totals, writes nothing, keeps nothing."""

    reads_view_only = True

    def choose(self, decision, view):
        self.lead = max(view.state.totals.values()) if hasattr(view.state, "totals") else 0
        return super().choose(decision, view)


class Recorder(RandomBot):
    """Keeps every state it is handed (to show what Game.play hands out): it breaks the keep
    half of the promise, and the check catches it."""

    reads_view_only = True
    seen: list[Any]

    def choose(self, decision, view):
        self.seen = getattr(self, "seen", [])
        self.seen.append(view.state)
        return super().choose(decision, view)


class ViewKeeper(RandomBot):
    """Keeps the view object itself (not yet read) to read it at a later decision."""

    reads_view_only = True
    kept: Any = None

    def choose(self, decision, view):
        if self.kept is None:
            self.kept = view
        return super().choose(decision, view)


class PartKeeper(RandomBot):
    """Keeps only a mutable part of the state it is handed (the live totals dict)."""

    reads_view_only = True
    kept: Any = None

    def choose(self, decision, view):
        if self.kept is None:
            self.kept = {"totals": view.state.totals}
        return super().choose(decision, view)


class ClosureKeeper(RandomBot):
    """Keeps the state in a closure (no attribute names it)."""

    reads_view_only = True
    later: Any = None

    def choose(self, decision, view):
        state = view.state
        self.later = lambda: state.totals
        return super().choose(decision, view)


class Scribbler(RandomBot):
    """Breaks the promise: adds a point to its own total in the state it is handed."""

    reads_view_only = True

    def choose(self, decision, view):
        totals = view.state["totals"] if isinstance(view.state, dict) else view.state.totals
        totals[decision.side] += 1
        return super().choose(decision, view)


class Memoizer(RandomBot):
    """Keeps the promise: fills only a derived cache (a field marked ``CACHE``)."""

    reads_view_only = True

    def choose(self, decision, view):
        view.state.memo[decision.side] = sum(view.state.totals.values())
        return super().choose(decision, view)


def _players(factory):
    return {side: factory(i) for i, side in enumerate(DiceRace.sides)}


def test_a_promising_player_is_handed_the_live_state_where_the_ruleset_shares_it():
    """Game.play hands a promising player ``shared_view`` (here the live state: no copy); a
    player without the promise, or in a ruleset that does not share, gets a copy."""
    game = Game.new(OpenRace(), seed=1)
    readers = _players(Recorder)
    game.play(readers)
    handed = [s for r in readers.values() for s in r.seen]
    assert handed and all(s is game.state for s in handed)

    class CopyReader(Recorder):
        reads_view_only = False

    game = Game.new(OpenRace(), seed=1)
    copies = _players(CopyReader)
    game.play(copies)
    assert all(s is not game.state for r in copies.values() for s in r.seen)

    game = Game.new(DiceRace(), seed=1)  # the default shared view is the view: a copy
    readers = _players(Recorder)
    game.play(readers)
    assert all(isinstance(s, dict) for r in readers.values() for s in r.seen)


def test_the_view_game_play_hands_a_player_is_the_view_its_class_builds():
    """Game.play makes each decision's view without calling the class (a hot path) and reads
    each player's promise once a call, when it is first asked: every view is the ``PlayerView``
    that ``PlayerView(game, side, decision, shared=...)`` builds, shared as the promise was then;
    a promise taken back mid-call is read by the next call."""
    from wargamekit.view import PlayerView

    shared_seen: list[bool] = []

    class Inspector(RandomBot):
        reads_view_only = True

        def choose(self, decision, view):
            built = PlayerView(game, decision.side, decision, shared=view.shared)
            assert type(view) is PlayerView and view.side == decision.side == built.side
            assert view.decision is decision and view.decisions_made == len(game.choices)
            assert view.log == built.log and view.ruleset is game.ruleset
            assert (view.state is game.state) is view.shared
            shared_seen.append(view.shared)
            self.reads_view_only = False  # taken back: this call read it already
            return super().choose(decision, view)

    game = Game.new(OpenRace(), seed=1)
    inspectors = _players(Inspector)
    game.play(inspectors, until=lambda g: len(g.choices) == 3)
    assert shared_seen == [True] * 3
    game.play(inspectors)  # to the end (6 answers with seed 1)
    assert game.over and shared_seen == [True] * 3 + [False] * (len(game.choices) - 3)
    assert len(game.choices) > 3


def test_a_player_seated_during_play_is_asked_from_then_on():
    """``Game.play`` looks up the side's player at every decision: a hook that seats another
    player mid-call (here ``before_ask``, after three answers) has it asked from then on, with
    its own promise."""
    asked: list[str] = []

    class Named(RandomBot):
        reads_view_only = False

        def __init__(self, name: str, seed: int) -> None:
            super().__init__(seed)
            self.name = name

        def choose(self, decision, view):
            asked.append(self.name)
            assert view.shared is (self.name == "reader") and (view.state is game.state) is view.shared
            return super().choose(decision, view)

    class Reader(Named):
        reads_view_only = True

    game = Game.new(OpenRace(), seed=1)
    players = {side: Named("first", i) for i, side in enumerate(game.ruleset.sides)}

    def reseat(g: Game, decision: Any) -> None:
        if len(g.choices) == 3:
            for i, side in enumerate(g.ruleset.sides):
                players[side] = Reader("reader", 10 + i)

    game.play(players, before_ask=reseat)
    assert game.over and asked == ["first"] * 3 + ["reader"] * (len(game.choices) - 3)
    assert len(game.choices) > 3


def test_game_view_is_always_a_copy():
    """``Game.view`` (the CLI's, a human's) knows no player: it never shares."""
    game = Game.new(OpenRace(), seed=1)
    assert game.view("red").state is not game.state
    assert not game.view("red").shared


def test_only_true_is_a_promise():
    """A truthy value other than ``True`` is no promise (a typo or a property must not share
    the live state)."""

    class Maybe(RandomBot):
        reads_view_only = "yes"

    assert reads_view_only(Reader()) and not reads_view_only(Maybe()) and not reads_view_only(RandomBot())


def test_players_that_keep_the_promise_pass():
    """A reader, and a player that fills only a derived cache, pass; every view read counted."""
    assert check_read_only_views(OpenRace(), players={"reader": Reader}, games=2) > 0
    assert check_read_only_views(OpenRace(), players={"memo": Memoizer}) > 0
    # the default shared view is the view: the reader reads copies, and leaves them alone
    assert check_read_only_views(DiceRace(), players={"reader": Reader}) > 0


def test_a_player_that_writes_the_live_state_is_caught():
    """The promise is checked: a bot that changes the live state it was handed fails, naming
    the bot, the answer, the seed and the field."""
    with pytest.raises(AssertionError) as caught:
        check_read_only_views(OpenRace(), players={"scribbler": Scribbler})
    message = str(caught.value)
    assert message.startswith("open_race: bot 'scribbler' (Scribbler, red) promised to read its view only")
    assert "changed the live state at answer 0 (dice_race.action, seed 0)" in message
    assert '"red"' in message


def test_a_player_that_writes_a_copied_view_is_caught_too():
    """Where the ruleset hands out copies, writing one harms nothing, but the promise is broken
    (the same bot would write the live state of a ruleset that shares): caught as well."""
    with pytest.raises(AssertionError, match="changed the view it was handed at answer 0"):
        check_read_only_views(DiceRace(), players={"scribbler": Scribbler})


def test_a_player_that_keeps_what_it_was_handed_is_caught():
    """The keep half of the promise is checked: after ``choose``, nothing reachable from the
    player may be the state it was handed, a mutable part of it, or the view object itself
    (each would show later states: in a ruleset with hidden information, what the side may not
    see). Copies are caught too: the same bot would keep the live state where it is shared."""
    with pytest.raises(AssertionError) as caught:
        check_read_only_views(OpenRace(), players={"recorder": Recorder})
    assert str(caught.value) == (
        "open_race: bot 'recorder' (Recorder, red) promised to read its view only (reads_view_only) "
        "but kept the state it was handed (OpenState) past choose at answer 0 (dice_race.action, seed 0)"
    )
    with pytest.raises(AssertionError, match=r"kept part of the state it was handed \(dict\) past choose at answer 0"):
        check_read_only_views(OpenRace(), players={"part": PartKeeper})
    with pytest.raises(AssertionError, match=r"kept the state it was handed \(OpenState\) past choose at answer 0"):
        check_read_only_views(OpenRace(), players={"closure": ClosureKeeper})
    with pytest.raises(AssertionError, match=r"kept the view \(_CheckedView\) past choose at answer 0"):
        check_read_only_views(OpenRace(), players={"view": ViewKeeper})
    with pytest.raises(AssertionError, match=r"kept the state it was handed \(dict\) past choose"):
        check_read_only_views(DiceRace(), players={"recorder": Recorder})


def test_keeping_a_value_read_from_the_view_is_no_breach():
    """Immutable values read from the view (numbers, strings, tuples) and the player's own
    objects built from them may be kept: they never change with the game."""

    class Summariser(RandomBot):
        reads_view_only = True
        history: list[Any]

        def choose(self, decision, view):
            self.history = getattr(self, "history", [])
            self.history.append((tuple(sorted(view.state.totals.items())), view.state.round))
            return super().choose(decision, view)

    assert check_read_only_views(OpenRace(), players={"summary": Summariser}, games=2) > 0


def test_a_player_without_the_promise_is_not_checked():
    """No promise, nothing to check: a bot that writes its copy is within its rights."""

    class Owner(Scribbler):
        reads_view_only = False

    assert check_read_only_views(DiceRace(), players={"owner": Owner}) == 0


def test_a_shared_view_that_shows_more_than_the_view_is_caught():
    """``shared_view`` must show what ``view`` shows: handing out the live state where the
    view hides the other side's secret fails, at the first view read."""
    with pytest.raises(AssertionError) as caught:
        check_read_only_views(LeakyShare())
    message = str(caught.value)
    assert message.startswith("leaky_share: shared_view(state, 'red') shows other than view(state, 'red') at answer 0")


def test_check_ruleset_runs_it_on_the_rulesets_bots():
    """check_ruleset checks every bot of ``Ruleset.bots()`` that makes the promise (and random
    answers reading every view where the ruleset shares): a writing bot fails it."""

    class WithScribbler(OpenRace):
        def bots(self):
            return {"bot": Scribbler}

    class WithReader(OpenRace):
        def bots(self):
            return {"bot": Reader}

    report = check_ruleset(WithReader(), games=2, non_interference=False)
    assert report.read_only_views > 0
    assert check_ruleset(WithReader(), games=2, non_interference=False, bot_games=0).read_only_views == 0
    with pytest.raises(AssertionError, match="bot 'bot' .* changed the live state"):
        check_ruleset(WithScribbler(), games=2, non_interference=False)
    with pytest.raises(AssertionError, match="shows other than view"):
        check_ruleset(LeakyShare(), games=2, non_interference=False)



def test_the_non_interference_check_also_checks_a_shared_view():
    """A ruleset with its own shared view has it compared across secrets too: one that hands
    out the live state (b's secret round and code in it) fails, naming the shared view."""
    from leaky import Loadout

    class SharesTooMuch(Loadout):
        def shared_view(self, state, side):
            return state

    with pytest.raises(AssertionError, match="differ in the shared view state"):
        check_non_interference(SharesTooMuch(), seeds=range(1))
    assert check_non_interference(Loadout(), seeds=range(1)) > 0
