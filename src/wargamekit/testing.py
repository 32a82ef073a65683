"""The conformance check every ruleset plugin runs in its own tests.

:func:`check_ruleset` plays many seeded random games to the end and checks, for each:

* the ruleset's invariants hold after every decision (:meth:`Ruleset.check_invariants`);
* the interrupt stack is empty when the game ends (nothing pushed is left unresolved; a window
  that would strand an item raises :class:`~wargamekit.errors.UnresolvedItemError` itself);
* every decision is asked of a side of the ruleset (a decision with no legal answer at all is
  refused when it is built);
* replaying the same seed and answers gives a byte-identical log;
* a save written to JSON and loaded back replays to the same log and outcome;
* undoing the last answer and giving it again gives the same log;
* a player's view never contains events hidden from that side;
* (with ``structured=True``) every decision says what it is: a non-empty
  :attr:`~wargamekit.decisions.Decision.kind` and, for choices, option data.

:func:`check_prose_independence` proves that bots read that structure, not the prose: it plays
seeded games twice, once with every prompt and label rewritten, and compares the answers.

Use it in a plugin's tests::

    from wargamekit.testing import check_ruleset

    def test_conformance():
        check_ruleset(MyRuleset(), games=20)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs
from attrs import frozen

from .decisions import Answer, Choose, ChooseSubset, Decision
from .errors import DecisionLimitError
from .events import Outcome
from .game import Game
from .players import Player, RandomBot, bot_seed
from .ruleset import Ruleset
from .saves import SaveFile
from .view import PlayerView

__all__ = [
    "ConformanceReport",
    "check_decision_structure",
    "check_prose_independence",
    "check_ruleset",
    "play_random_game",
    "rewrite_prose",
]


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
    structured: bool = False,
) -> Game:
    """Play one game between random bots (seeded from ``seed``) and return it, finished.

    With ``structured=True`` every decision must pass :func:`check_decision_structure`.
    """
    game = Game.new(ruleset, scenario, seed=seed, options=options)
    players = {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(ruleset.sides)}

    def before_ask(g: Game, decision: Decision) -> None:
        assert decision.side in ruleset.sides, f"decision asked of unknown side {decision.side!r}"
        if structured:
            check_decision_structure(decision, ruleset)

    def after(g: Game) -> None:
        if check_invariants:
            ruleset.check_invariants(g.state)

    if check_invariants:
        ruleset.check_invariants(game.state)
    try:
        game.play(players, max_decisions=max_decisions, before_ask=before_ask, after_answer=after)
    except DecisionLimitError:
        raise AssertionError(f"{ruleset.name}: no end after {max_decisions} decisions (seed {seed})") from None
    if check_invariants:
        left = [item.name for item in game.interrupts.items]
        assert not left, f"{ruleset.name}: the game ended with {left} unresolved on the interrupt stack (seed {seed})"
    return game


def check_decision_structure(decision: Decision, ruleset: Ruleset | None = None) -> None:
    """Assert that ``decision`` says what it is: a non-empty ``kind`` (namespaced by the
    ruleset's name, ``"tank_solo.fire_target"``) and, for a choice, data on every option that
    tells the options apart."""
    assert decision.kind, f"decision {decision.prompt!r} [{decision.rule}] has no kind"
    if ruleset is not None:
        assert decision.kind.startswith(f"{ruleset.name}."), (
            f"decision kind {decision.kind!r} is not namespaced as '{ruleset.name}.…'"
        )
    if isinstance(decision, (Choose, ChooseSubset)):
        data = [option.data for option in decision.options]
        assert all(data), f"{decision.kind}: an option has no data ({decision.labels})"
        assert len(set(data)) == len(data), (
            f"{decision.kind}: two options have the same data, so a program cannot tell them apart"
        )


def rewrite_prose(decision: Decision, rewrite: Callable[[str], str]) -> Decision:
    """``decision`` with its prompt, rule citation and every option label passed through
    ``rewrite``; its kind, context, option data and values unchanged."""
    changes: dict[str, Any] = {"prompt": rewrite(decision.prompt), "rule": rewrite(decision.rule)}
    if isinstance(decision, (Choose, ChooseSubset)):
        changes["options"] = tuple(
            attrs.evolve(
                option,
                label=rewrite(option.label),
                public=None if option.public is None else rewrite(option.public),
            )
            for option in decision.options
        )
    return attrs.evolve(decision, **changes)


class _ProseRewriter:
    """Hands its player every decision with the prose rewritten."""

    def __init__(self, player: Player, rewrite: Callable[[str], str]) -> None:
        self.player = player
        self.rewrite = rewrite

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        rewritten = rewrite_prose(decision, self.rewrite)
        view.decision = rewritten
        return self.player.choose(rewritten, view)


def _scrambled(text: str) -> str:
    # Upper-cased and reversed, so neither a regex nor a substring test nor a prefix survives.
    return text.upper()[::-1]


def check_prose_independence(
    ruleset: Ruleset,
    players: Mapping[str, Callable[[int], Player]],
    *,
    scenario: str | Mapping[str, Any] | None = None,
    seeds: range | list[int] = range(2),
    options: Mapping[str, Any] | None = None,
    rewrite: Callable[[str], str] = _scrambled,
    max_decisions: int = 100_000,
) -> int:
    """Assert that ``players`` answer the same with every prompt and label rewritten.

    For each seed, plays the game twice with fresh players from the factories (side → ``seed
    -> Player``): once as it is, once with every decision's prose passed through ``rewrite``
    (by default upper-cased and reversed). The answers and the outcome must be identical: a bot
    that parsed a prompt or a label would play differently.

    Returns:
        The number of decisions compared.
    """
    compared = 0
    for seed in seeds:
        games = []
        for scramble in (False, True):
            game = Game.new(ruleset, scenario, seed=seed, options=options)
            team: dict[str, Player] = {}
            for index, side in enumerate(ruleset.sides):
                player = players[side](bot_seed(seed, index))
                team[side] = _ProseRewriter(player, rewrite) if scramble else player
            game.play(team, max_decisions=max_decisions)
            games.append(game)
        plain, rewritten = games
        assert rewritten.choices == plain.choices, (
            f"{ruleset.name}: rewording prompts and labels changed the answers (seed {seed}, first "
            f"difference at answer {_first_difference(plain.choices, rewritten.choices)})"
        )
        assert rewritten.outcome == plain.outcome
        compared += len(plain.choices)
    return compared


def _first_difference(a: list[Any], b: list[Any]) -> int:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return min(len(a), len(b))


def check_ruleset(
    ruleset: Ruleset,
    scenario: str | Mapping[str, Any] | None = None,
    *,
    games: int = 10,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = 100_000,
    deep_checks: int = 3,
    structured: bool = False,
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
            ruleset, scenario, seed=game_seed, options=options, max_decisions=max_decisions,
            structured=structured,
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
