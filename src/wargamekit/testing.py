"""The conformance check every ruleset plugin runs in its own tests.

:func:`check_ruleset` plays many seeded random games to the end and checks, for each:

* the ruleset's invariants hold after every decision (:meth:`Ruleset.check_invariants`);
* the interrupt stack is empty when the game ends (nothing pushed is left unresolved; a window
  that would strand an item raises :class:`~wargamekit.interrupts.UnresolvedItemError` itself);
* every decision is asked of a side of the ruleset (a decision with no legal answer at all is
  refused when it is built);
* replaying the same seed and answers gives a byte-identical log;
* a save written to JSON and loaded back replays to the same log and outcome;
* undoing the last answer and giving it again gives the same log;
* a player's view never contains events hidden from that side.

Use it in a plugin's tests::

    from wargamekit.testing import check_ruleset

    def test_conformance():
        check_ruleset(MyRuleset(), games=20)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import frozen

from .events import Outcome
from .game import Game, SaveFile
from .players import RandomBot
from .ruleset import Ruleset

__all__ = ["ConformanceReport", "check_ruleset", "play_random_game"]


@frozen
class ConformanceReport:
    """What :func:`check_ruleset` played: games, decisions, and outcomes by winner."""

    games: int
    decisions: int
    winners: dict[str | None, int]


def play_random_game(
    ruleset: Ruleset,
    scenario: str | Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    check_invariants: bool = True,
    max_decisions: int = 100_000,
) -> Game:
    """Play one game between random bots (seeded from ``seed``) and return it, finished."""
    game = Game.new(ruleset, scenario, seed=seed, options=options)
    players = {side: RandomBot(seed * 1009 + i + 1) for i, side in enumerate(ruleset.sides)}

    def after(g: Game) -> None:
        if check_invariants:
            ruleset.check_invariants(g.state)

    if check_invariants:
        ruleset.check_invariants(game.state)
    while game.pending is not None:
        decision = game.pending
        assert decision.side in ruleset.sides, f"decision asked of unknown side {decision.side!r}"
        if len(game.choices) >= max_decisions:
            raise AssertionError(f"{ruleset.name}: no end after {max_decisions} decisions (seed {seed})")
        game.answer(players[decision.side].choose(decision, game.view(decision.side)))
        after(game)
    if check_invariants:
        left = [item.name for item in game.interrupts.items]
        assert not left, f"{ruleset.name}: the game ended with {left} unresolved on the interrupt stack (seed {seed})"
    return game


def check_ruleset(
    ruleset: Ruleset,
    scenario: str | Mapping[str, Any] | None = None,
    *,
    games: int = 10,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = 100_000,
    deep_checks: int = 3,
) -> ConformanceReport:
    """Play ``games`` random games and check the conformance properties listed above.

    The replay, save/load and undo checks run on the first ``deep_checks`` games (they replay
    the whole game, so they cost more).

    Raises:
        AssertionError: a property fails; the message names the seed to reproduce it.
    """
    winners: dict[str | None, int] = {}
    decisions = 0
    for index in range(games):
        game_seed = seed + index
        game = play_random_game(
            ruleset, scenario, seed=game_seed, options=options, max_decisions=max_decisions
        )
        assert isinstance(game.outcome, Outcome)
        winners[game.outcome.winner] = winners.get(game.outcome.winner, 0) + 1
        decisions += len(game.choices)
        if index >= deep_checks:
            continue
        text = game.log_text()
        again = game.replay()
        assert again.log_text() == text, f"{ruleset.name}: replay differs (seed {game_seed})"
        save = SaveFile.from_json(game.save().to_json())
        loaded = Game.load(save, rulesets={ruleset.name: ruleset})
        assert loaded.log_text() == text, f"{ruleset.name}: save/load differs (seed {game_seed})"
        assert loaded.outcome == game.outcome
        if game.choices:
            last = game.choices[-1]
            forked = game.fork()
            forked.undo(1)
            forked.answer(last)
            assert forked.log_text() == text, f"{ruleset.name}: undo+redo differs (seed {game_seed})"
        for side in ruleset.sides:
            hidden = [e for e in game.log if not e.visible_to(side)]
            seen = game.view(side).log
            assert not any(e in seen for e in hidden if e.audience is not None), "a view leaks"
    return ConformanceReport(games=games, decisions=decisions, winners=winners)
