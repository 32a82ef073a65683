"""The conformance check every ruleset plugin runs in its own tests.

:func:`check_ruleset` plays many seeded random games to the end and checks, for each:

* the ruleset's invariants hold after every decision (:meth:`Ruleset.check_invariants`);
* every decision is asked of a side of the ruleset (a decision with no legal answer at all is
  refused when it is built);
* replaying the same seed and answers gives a byte-identical log;
* a save written to JSON and loaded back replays to the same log and outcome;
* undoing the last answer and giving it again gives the same log;
* a player's view never contains events hidden from that side;
* (for a ruleset with checkpoints) a fork or an undo that restarts at a checkpoint gives the
  same log, byte for byte, as a full replay from the start, at random points of the game and
  when played on to its end (:func:`check_checkpoints`);
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

import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs
from attrs import frozen

from .decisions import Answer, Choose, ChooseSubset, Decision
from .errors import CheckpointError, DecisionLimitError
from .events import Outcome
from .game import Game
from .players import Player, RandomBot, bot_seed
from .ruleset import Ruleset
from .saves import SaveFile
from .view import PlayerView

__all__ = [
    "ConformanceReport",
    "check_checkpoints",
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
    #: restarts at a checkpoint compared with a full replay (0: the ruleset has no checkpoints)
    restarts: int = 0


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
    restarts = 0
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
        # First, so a ruleset whose restarts diverge hears why (the replays below restart too).
        restarts += check_checkpoints(game)
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
    return ConformanceReport(games=games, decisions=decisions, winners=winners, restarts=restarts)


def check_checkpoints(game: Game, *, points: int = 3) -> int:
    """Assert that restarting ``game`` at its checkpoints gives the log a full replay gives.

    ``game`` (usually finished) is replayed once from the start, answer by answer, as the
    reference. Then at ``points`` random positions (seeded by the game's seed) and at the end:
    a fork replayed to that position (it restarts at the latest snapshot on the way) and an undo
    back to it must show the reference's log up to there, and the fork, given the remaining
    answers, the whole game's log. A ruleset that keeps something a later step reads in a local
    variable of ``play`` instead of the state fails here, naming the checkpoint.

    Returns:
        The number of restarts compared (0 when the game holds no snapshot: no checkpoints).

    Raises:
        AssertionError: a restart differs, or does not reach its checkpoint (the message names
            the seed, the checkpoint and the first differing log line).
    """
    if not game.checkpoints:
        return 0
    ruleset, choices, text = game.ruleset, list(game.choices), game.log_text()
    name = f"{ruleset.name} (seed {game.seed})"
    # The reference: a fresh game given every answer; it never replays, so never restarts.
    full = Game.new(
        ruleset, game.scenario_name or game.scenario_data, seed=game.seed, options=game.options,
        dice=game._dice_template, plugin_manager=game.plugin_manager,
    )
    prefix = [len(full.log)]
    for choice in choices:
        full.answer(choice)
        prefix.append(len(full.log))
    assert full.log_text() == text, f"{name}: a full replay differs from the game itself"
    reference = full.log_lines()
    rng = random.Random(game.seed)
    positions = sorted(rng.sample(range(len(choices) + 1), min(points, len(choices) + 1))) + [len(choices)]
    compared = 0
    for k in positions:
        start = game._start_point(choices[:k])
        if start is None:
            continue
        where = f"restarting at checkpoint {start[0].label!r} (answer {start[0].position})"
        expected = "\n".join(reference[: prefix[k]]) + "\n"
        try:
            forked = game.replay(choices[:k])
            undone = game.fork()
            undone.undo(len(choices) - k)
        except CheckpointError as exc:
            raise AssertionError(f"{name}: {exc}") from None
        for how, other in (("a fork", forked), ("an undo", undone)):
            _same_log(name, f"{how} to answer {k}, {where},", other.log_text(), expected)
        for choice in choices[k:]:
            forked.answer(choice)
        _same_log(name, f"a fork to answer {k}, {where}, played on to the end", forked.log_text(), text)
        compared += 1
    return compared


def _same_log(name: str, what: str, got: str, expected: str) -> None:
    if got == expected:
        return
    ours, theirs = got.splitlines(), expected.splitlines()
    line = _first_difference(ours, theirs)
    raise AssertionError(
        f"{name}: {what} gives another log than a full replay from the start; first difference "
        f"at log line {line}:\n  full replay:     {theirs[line] if line < len(theirs) else '(end)'}\n"
        f"  from checkpoint: {ours[line] if line < len(ours) else '(end)'}\n"
        "play(ctx) must go on from a checkpoint using the state alone: is something a later step "
        "reads kept in a local variable (or a sequencer) rather than in the state?"
    )
