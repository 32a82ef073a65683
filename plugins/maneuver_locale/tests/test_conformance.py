"""The core conformance check, determinism, and the bot against random play."""

from __future__ import annotations

import pytest

from wargamekit import Game, RandomBot
from wargamekit.testing import check_ruleset, play_random_game
from wargamekit_maneuver_locale.bots import HeuristicBot


@pytest.mark.parametrize("scenario", ["default", "training"])
def test_conformance(ruleset, scenario):
    """Conformance: random games end, invariants hold, replay/save/undo are exact, views do not
    leak, and every decision has a kind and every option data. The non-interference check has
    secrets to fork: each side's secret set-up shuffle (the handles of its pieces, handles.py)
    and the secret choices among face-down pieces (which guns declare or fire, which cavalry
    moves on). What the rules show of them comes out by ``reveal`` (a piece turned face-up),
    ``move`` (a piece moved) and ``declare`` (a gun's declaration, made face-up: Artillery
    Bombardment) events; the rest of the other side's view must not change."""
    report = check_ruleset(
        ruleset, scenario, games=12, max_decisions=5000, structured=True, non_interference=True,
        reveals={"reveal", "move", "declare"},
    )
    assert report.games == 12 and report.decisions > 0
    assert report.non_interference_pairs > 0


def test_same_seed_and_answers_give_the_same_log(ruleset):
    """Determinism: the same scenario, seed and answers give a byte-identical log."""
    first = play_random_game(ruleset, "default", seed=11)
    again = Game.new(ruleset, "default", seed=11)
    for answer in first.choices:
        again.answer(answer)
    assert again.log_text() == first.log_text()


def test_the_only_dice_are_the_secret_set_up_shuffle(ruleset):
    """The source's combat is diceless: whole games roll no dice but the set-up shuffle that
    deals the pieces to their positions and gives them their secret handles (handles.py: within
    each set-up area or shared starting position, one draw per place), each roll seen by its
    side only."""
    game = play_random_game(ruleset, "default", seed=3)
    rolls = [e for e in game.log if e.kind == "roll"]
    assert rolls and all("secret order of the pieces" in e.text or "secret deal" in e.text for e in rolls)
    first_move = next(i for i, e in enumerate(game.log) if e.kind == "choice")
    assert all(game.log.index(e) < first_move for e in rolls)
    # default.toml: Austria Alessandria 6, Lobbi 3, the bridgehead area 3; France the front
    # area 6, the rear area 4: (5+2+2) + (5+3) draws
    assert [len([e for e in rolls if e.audience == (side,)]) for side in ruleset.sides] == [9, 8]


@pytest.mark.parametrize("scenario", ["default", "training"])
def test_bot_beats_random(ruleset, scenario):
    """Heuristic bot: wins clearly against the random bot (quick check; see the docs for 200+ games)."""
    wins = 0
    for seed in range(10):
        for bot_side in ruleset.sides:
            players = {s: HeuristicBot(seed) if s == bot_side else RandomBot(seed + 1) for s in ruleset.sides}
            outcome = Game.new(ruleset, scenario, seed=seed).play(players, max_decisions=5000)
            wins += outcome.winner == bot_side
    assert wins >= 16  # of 20


def test_bot_vs_bot_finishes(ruleset):
    """Heuristic bot: a game between two bots ends within the turn limit."""
    outcome = Game.new(ruleset, "default", seed=1).play({s: HeuristicBot(i) for i, s in enumerate(ruleset.sides)})
    assert outcome.reason


def test_occupancy_answers_as_the_state_does(ruleset):
    """The menus' index of the pieces (``state.Occupancy``, a speed-up) gives the state's own
    answers — holder, pieces at a position (in set-up order), room, blocked — all game long."""
    from wargamekit_maneuver_locale.state import RESERVE, Occupancy

    checked = 0

    def compare(game):
        nonlocal checked
        state = game.state
        occ = Occupancy(state)
        for loc in state.board.locale_ids():
            assert occ.holder(loc) == state.holder(loc)
            assert occ.room(loc) == state.room(loc)
            assert [p.id for p in occ.at(loc)] == [p.id for p in state.at(loc)]
            for where in (RESERVE, *state.board.neighbours(loc)):
                assert [p.id for p in occ.at(loc, where)] == [p.id for p in state.at(loc, where)]
                if where:
                    for side in state.sides:
                        assert occ.blocked(where, loc, side) == state.blocked(where, loc, side)
        checked += 1

    for seed in (1, 2):
        game = Game.new(ruleset, "default", seed=seed)
        game.play({side: RandomBot(seed * 10 + i) for i, side in enumerate(ruleset.sides)}, after_answer=compare)
    assert checked > 100


def test_live_index_follows_every_move(ruleset):
    """The live index of the pieces (``Occupancy.of``), kept up to date move by move by
    ``changes.place`` and dropped by every other change, is after every answer the index a scan
    of the pieces builds (the menus read it; a stale one would offer illegal moves)."""
    from wargamekit_maneuver_locale.state import Occupancy

    compared = carried = 0
    last: dict = {"index": None, "log": 0}

    def compare(game):
        nonlocal compared, carried
        state = game.state
        kept = state.index  # before any query of this check could rebuild it
        moves = [e for e in game.log[last["log"]:] if e.kind == "move"]
        if moves and kept is not None and kept is last["index"]:
            carried += 1  # the same index object followed this answer's moves (place kept it)
        assert Occupancy.of(state).tables() == Occupancy(state).tables()
        last["index"], last["log"] = state.index, len(game.log)
        compared += 1

    for scenario, seed in (("default", 3), ("training", 4)):
        game = Game.new(ruleset, scenario, seed=seed)
        game.play({side: RandomBot(seed * 10 + i) for i, side in enumerate(ruleset.sides)}, after_answer=compare)
    # many answers move pieces through an index kept up to date, not one built afresh
    assert compared > 100 and carried > 20, (carried, compared)


def test_a_piece_taken_from_the_pieces_without_dropping_the_index_is_not_read_stale(ruleset):
    """The live index guards against a change that forgot :meth:`Occupancy.drop`: a piece taken
    out of (or put into) the state's dict of pieces makes the next query index the pieces
    afresh, so no menu reads a piece that is gone."""
    from wargamekit_maneuver_locale.state import Occupancy

    state = Game.new(ruleset, "default", seed=1).state
    live = Occupancy.of(state)
    gone = next(iter(state.pieces))
    piece = state.pieces.pop(gone)  # no drop: the guard must notice
    fresh = Occupancy.of(state)
    assert fresh is not live and fresh.tables() == Occupancy(state).tables()
    assert all(p.id != gone for pieces in fresh.locales.values() for p in pieces)
    state.pieces[gone] = piece  # put back, again without a drop
    back = Occupancy.of(state)
    assert back is not fresh and back.tables() == Occupancy(state).tables()


def test_an_elimination_after_a_change_that_forgot_the_drop_does_not_revive_a_stale_index(ruleset):
    """A piece added without :meth:`Occupancy.drop` makes the index stale (the guard sees the
    count differ); an elimination then brings the count back. ``changes.eliminate`` must drop
    the stale index rather than leave it to pass the guard: the next query indexes afresh and
    the eliminated piece is nowhere in it."""
    import copy

    from wargamekit_maneuver_locale import changes
    from wargamekit_maneuver_locale.state import Occupancy

    game = Game.new(ruleset, "default", seed=1)
    state = game.state
    stale = Occupancy.of(state)
    ids = list(state.pieces)
    added = copy.copy(state.pieces[ids[1]])
    added.id = "X-99"
    state.pieces["X-99"] = added  # no drop: a change that forgot it
    assert Occupancy.live(state) is None

    class _Ctx:  # what eliminate reads and writes
        def __init__(self, state):
            self.state = state

        def event(self, *args, **kwargs):
            pass

    changes.eliminate(_Ctx(state), state.pieces[ids[2]], "test")
    fresh = Occupancy.of(state)
    assert fresh is not stale and fresh.tables() == Occupancy(state).tables()
    assert all(p.id != ids[2] for pieces in fresh.locales.values() for p in pieces)
