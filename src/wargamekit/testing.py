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
* (for a ruleset with checkpoints) a fork or an undo that restarts at a checkpoint gives the
  same log, byte for byte, as a full replay from the start, at random points of the game and
  when played on to its end (:func:`check_checkpoints`);
* (with ``non_interference=True``, the default) no side's view — the ruleset's ``view()``, its log, the
  decisions it is asked, its picture — depends on another side's secret decisions or secret
  rolls (:func:`check_non_interference`);
* every bundled bot that makes the read-only promise (``reads_view_only``, see
  :class:`~wargamekit.players.Player`) keeps it, and the ruleset's
  :meth:`~wargamekit.ruleset.Ruleset.shared_view` shows what its ``view`` shows
  (:func:`check_read_only_views`);
* (``structured=True``, the default) every decision says what it is: a namespaced
  :attr:`~wargamekit.decisions.Decision.kind` and, for choices, option data.

:func:`check_prose_independence` proves that bots read that structure, not the prose: it plays
seeded games twice, once with every prompt and label rewritten, and compares the answers.

Use it in a plugin's tests::

    from wargamekit.testing import check_ruleset

    def test_conformance():
        check_ruleset(MyRuleset(), games=20)
"""

from __future__ import annotations

import dataclasses
import enum
import gc
import hashlib
import json
import random
import types
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import pluggy
from attrs import define, field, frozen

from ._fastpickle import dumps_sharing, loads_sharing
from .decisions import Answer, Choose, ChooseNumber, ChooseSubset, Decision, YesNo
from .dice import SeededDice
from .errors import CheckpointError, DecisionLimitError, IllegalChoiceError, InvalidChoiceError
from .events import Outcome
from .game import SNAPSHOT_SPACING, Game
from .players import Player, RandomBot, bot_seed, reads_view_only
from .ruleset import Ruleset
from .saves import SaveFile
from .view import CACHE, PlayerView

__all__ = [
    "ConformanceReport",
    "check_checkpoints",
    "check_decision_structure",
    "check_non_interference",
    "check_prose_independence",
    "check_read_only_views",
    "check_ruleset",
    "play_random_game",
    "rewrite_prose",
]


@frozen
class ConformanceReport:
    """What :func:`check_ruleset` played: games, decisions, and outcomes by winner; and how
    many pairs of alternatives the non-interference check compared (0 when it was off, or
    when the games had no secret decision or roll to fork — assert it is positive in a
    ruleset with hidden information)."""

    games: int
    decisions: int
    winners: dict[str | None, int]
    non_interference_pairs: int = 0
    #: restarts at a checkpoint compared with a full replay (0: the ruleset has no checkpoints)
    restarts: int = 0
    #: views read by promising players and checked unchanged (:func:`check_read_only_views`)
    read_only_views: int = 0


class _Seats(dict[str, Player]):
    """The players by side, for :func:`play_random_game`: a decision asked of a side with no
    player is the ruleset's bug, reported as such (``Game.play`` looks every decision's player
    up here, so the check costs nothing while the sides are known)."""

    def __missing__(self, side: str) -> Player:
        raise AssertionError(f"decision asked of unknown side {side!r}")


def play_random_game(
    ruleset: Ruleset,
    scenario: str | Mapping[str, Any] | None = None,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    check_invariants: bool = True,
    max_decisions: int = 100_000,
    structured: bool = False,
    plugin_manager: pluggy.PluginManager | None = None,
    snapshots: bool = True,
) -> Game:
    """Play one game between random bots (seeded from ``seed``) and return it, finished.

    With ``structured=True`` every decision must pass :func:`check_decision_structure`.
    ``plugin_manager`` and ``snapshots``: as for :meth:`Game.new <wargamekit.game.Game.new>`
    (the game's add-ons; ``snapshots=False`` for a game played through and dropped, which then
    takes no snapshot at its checkpoints: the same log, without their cost).
    """
    game = Game.new(ruleset, scenario, seed=seed, options=options, plugin_manager=plugin_manager, snapshots=snapshots)
    # A decision asked of a side with no bot fails where the game looks its player up (see
    # _Seats): no call at every decision for that check.
    players = _Seats((side, RandomBot(bot_seed(seed, i))) for i, side in enumerate(ruleset.sides))

    def check_structure(g: Game, decision: Decision) -> None:
        check_decision_structure(decision, ruleset)

    def after(g: Game) -> None:
        ruleset.check_invariants(g.state)

    if check_invariants:
        ruleset.check_invariants(game.state)
    try:
        # (no before_ask or after_answer without structure or invariants to check: a call
        # less at every decision each)
        game.play(players, max_decisions=max_decisions, before_ask=check_structure if structured else None,
                  after_answer=after if check_invariants else None)
    except DecisionLimitError:
        raise AssertionError(f"{ruleset.name}: no end after {max_decisions} decisions (seed {seed})") from None
    if check_invariants:
        left = [item.name for item in game.interrupts.items]
        assert not left, f"{ruleset.name}: the game ended with {left} unresolved on the interrupt stack (seed {seed})"
    return game


def check_decision_structure(decision: Decision, ruleset: Ruleset | None = None) -> None:
    """Assert that ``decision`` says what it is: a namespaced ``kind`` (``"tank_solo.fire_target"``;
    a ruleset's own decisions use its name, an add-on's its own) and, for a choice, data on every
    option that tells the options apart."""
    assert decision.kind, f"decision {decision.prompt!r} [{decision.rule}] has no kind"
    namespace, dot, what = decision.kind.partition(".")
    assert namespace and dot and what, (
        f"decision kind {decision.kind!r} is not namespaced like "
        f"'{ruleset.name if ruleset is not None else 'ruleset'}.what_is_decided'"
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
    structured: bool = True,
    non_interference: bool = True,
    reveals: Collection[str] = (),
    plugin_manager: pluggy.PluginManager | None = None,
    bot_games: int = 1,
) -> ConformanceReport:
    """Play ``games`` random games and check the conformance properties listed above.

    The replay, save/load and undo checks run on the first ``deep_checks`` games (they replay
    the whole game, so they cost more). With ``non_interference=True``
    (the default), :func:`check_non_interference` runs on the first two seeds, with ``reveals``
    (the event kinds by which the rules show a secret's consequence); every bundled ruleset
    passes it. A ruleset with hidden information should assert
    ``report.non_interference_pairs > 0``, so that the check had secrets to fork.
    ``plugin_manager`` runs every game with its add-ons (an add-on's own conformance test);
    the save/load check reloads with the same manager. :func:`check_read_only_views` plays
    ``bot_games`` games (seeds from ``seed``) with each bot of the ruleset that makes the
    read-only promise, and one with random answers whose players read every view (0: not run).

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
            structured=structured, plugin_manager=plugin_manager,
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
        loaded = Game.load(save, rulesets={ruleset.name: ruleset}, plugin_manager=plugin_manager)
        assert loaded.log_text() == text, f"{ruleset.name}: save/load differs (seed {game_seed})"
        assert loaded.outcome == game.outcome
        if game.choices:
            last = game.choices[-1]
            forked = game.fork()
            forked.undo(1)
            forked.answer(last)
            assert forked.log_text() == text, f"{ruleset.name}: undo+redo differs (seed {game_seed})"
    pairs = 0
    if non_interference:
        pairs = check_non_interference(
            ruleset, scenario, seeds=range(seed, seed + min(games, 2)), options=options,
            reveals=reveals, max_decisions=max_decisions, plugin_manager=plugin_manager,
        )
    read_only = 0
    if bot_games:
        read_only = check_read_only_views(
            ruleset, scenario, games=bot_games, seed=seed, options=options, max_decisions=max_decisions,
            plugin_manager=plugin_manager,
        )
    return ConformanceReport(
        games=games, decisions=decisions, winners=winners, restarts=restarts, non_interference_pairs=pairs,
        read_only_views=read_only,
    )


class _ReadingRandomBot(RandomBot):
    """Random answers, but every view read first: exercises the ruleset's shared view at every
    decision (a bot of the ruleset's may read it only at some)."""

    reads_view_only = True

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        view.state  # noqa: B018 - read for the check, which compares it with the view
        return super().choose(decision, view)


def _text(value: Any, fixed: _FixedParts | None = None) -> str:
    """A view or state serialised by content (as the non-interference check compares views);
    with ``fixed``, the ruleset's shared types pictured once each (:class:`_FixedParts`)."""
    return json.dumps(_stable(value, 0, fixed), sort_keys=True, default=repr)


def _digest(state: Any, fixed: _FixedParts) -> tuple[bytes, tuple[Any, ...]] | str:
    """A quick fingerprint of everything reachable from ``state`` but the instances of the
    ruleset's shared types (kept by identity, as snapshots keep them): its pickle and those
    instances, or (if it cannot be pickled) its content."""
    try:
        return dumps_sharing(state, fixed.types)
    except Exception:  # noqa: BLE001 - whatever pickle refuses, the content picture still shows
        return _text(state, fixed)


def _same_digest(a: tuple[bytes, tuple[Any, ...]] | str, b: tuple[bytes, tuple[Any, ...]] | str) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return a[0] == b[0] and len(a[1]) == len(b[1]) and all(x is y for x, y in zip(a[1], b[1], strict=True))


class _CheckedView(PlayerView):
    """The view a promising player is handed in :func:`check_read_only_views`: on the first read
    of :attr:`state` it fingerprints the live state, builds the ruleset's shared view and
    requires its content to equal :meth:`Ruleset.view`'s; :meth:`verify` (after ``choose``)
    requires the live state and the view handed out to be as they were."""

    __slots__ = ("_before", "_fixed", "_handed", "_where")

    def __init__(self, game: Game, side: str | None, decision: Decision | None, where: str, fixed: _FixedParts) -> None:
        super().__init__(game, side, decision, shared=True)
        self._where = where
        self._fixed = fixed
        self._before: tuple[bytes, tuple[Any, ...]] | str | None = None
        self._handed = ""

    @property
    def state(self) -> Any:
        if self._state is None:
            game, side, fixed = self._game, self.side, self._fixed
            ruleset = game.ruleset
            self._before = _digest(game.state, fixed)
            handed = ruleset.shared_view(game.state, side)
            self._handed = _text(handed, fixed)
            # the default shared view is the view itself: nothing to compare
            expected = self._handed if type(ruleset).shared_view is Ruleset.shared_view else _text(
                ruleset.view(game.state, side), fixed)
            if self._handed != expected:
                raise AssertionError(
                    f"{ruleset.name}: shared_view(state, {side!r}) shows other than view(state, {side!r}) "
                    f"{self._where}: {_first_difference_of(expected, self._handed)}"
                )
            self._state = handed
        return self._state

    def verify(self, player: str, seated: object) -> bool:
        """Raise if ``player`` (the object ``seated``) changed what it was handed or kept it (or
        this view) past ``choose``; whether it read the state at all."""
        self._verify_not_kept(player, seated)
        if self._state is None:
            return False
        game, fixed, before = self._game, self._fixed, self._before
        assert before is not None
        if not _same_digest(_digest(game.state, fixed), before):
            # A pickle also differs where a read filled a derived cache (CACHE fields): compare content.
            old = before if isinstance(before, str) else _text(loads_sharing(*before), fixed)
            now = _text(game.state, fixed)
            if now != old:
                raise AssertionError(
                    f"{game.ruleset.name}: {player} promised to read its view only (reads_view_only) "
                    f"but changed the live state {self._where}: {_first_difference_of(old, now)}"
                )
        after = _text(self._state, fixed)
        if after != self._handed:
            raise AssertionError(
                f"{game.ruleset.name}: {player} promised to read its view only (reads_view_only) "
                f"but changed the view it was handed {self._where}: {_first_difference_of(self._handed, after)}"
            )
        return True

    def _verify_not_kept(self, player: str, seated: object) -> None:
        """Raise if ``seated`` still reaches this view, the state it was handed or a mutable
        part of that state (what it shares with the live state changes as the game goes on, and
        may then hold what the side may not see)."""
        handed = {id(self): self}
        if self._state is not None:
            handed.update(_mutable_parts(self._state, self._fixed.types))
        kept = _reachable_match(seated, handed)
        if kept is not None:
            raise AssertionError(
                f"{self._game.ruleset.name}: {player} promised to read its view only (reads_view_only) "
                f"but kept {'the view' if kept is self else 'the state it was handed' if kept is self._state else 'part of the state it was handed'} "
                f"({type(kept).__qualname__}) past choose {self._where}"
            )


#: How many objects the keep check walks from a player (or from a view) at most: enough for
#: every bundled bot's caches, and a bound on the check's cost.
_WALK_LIMIT = 200_000
_NOT_WALKED = (type, types.ModuleType, types.BuiltinFunctionType, types.CodeType, types.FrameType,
               str, bytes, int, float, complex, bool, type(None))
_FROZEN_SETATTR = getattr(getattr(attrs, "_make", None), "_frozen_setattrs", None)


def _referents(obj: Any) -> Sequence[Any]:
    """What ``obj`` refers to, as the keep check follows it: a function by its closure and
    defaults only (its globals are the module's, never a player's own)."""
    if isinstance(obj, types.FunctionType):
        cells = [c.cell_contents for c in obj.__closure__ or () if c.cell_contents is not None]
        return [*cells, *(obj.__defaults__ or ()), *(obj.__kwdefaults__ or {}).values()]
    return gc.get_referents(obj)


def _mutable(obj: Any) -> bool:
    """Whether ``obj`` can change in place (so keeping it would show later states)."""
    if isinstance(obj, (tuple, frozenset, range, enum.Enum, np.generic, types.FunctionType, types.MethodType)):
        return False
    if isinstance(obj, np.ndarray):
        return bool(obj.flags.writeable)
    cls = type(obj)
    if _FROZEN_SETATTR is not None and attrs.has(cls) and cls.__setattr__ is _FROZEN_SETATTR:
        return False
    params = getattr(cls, "__dataclass_params__", None)
    return not (params is not None and params.frozen)


def _mutable_parts(root: Any, shared_types: Collection[type]) -> dict[int, Any]:
    """The mutable objects reachable from ``root`` (itself included), by id; instances of the
    ruleset's shared types (never changed once set up) are neither counted nor walked."""
    found: dict[int, Any] = {}
    seen: set[int] = set()
    todo = [root]
    while todo and len(seen) < _WALK_LIMIT:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, _NOT_WALKED) or type(obj) in shared_types:
            continue
        seen.add(id(obj))
        if obj is root or _mutable(obj):
            found[id(obj)] = obj
        todo.extend(_referents(obj))
    return found


def _reachable_match(root: Any, targets: Mapping[int, Any]) -> Any:
    """The first of ``targets`` (by id) reachable from ``root`` (a bounded walk), or None."""
    seen: set[int] = set()
    todo = list(_referents(root))
    while todo and len(seen) < _WALK_LIMIT:
        obj = todo.pop()
        key = id(obj)
        if key in seen or isinstance(obj, _NOT_WALKED):
            continue
        seen.add(key)
        if targets.get(key) is obj:
            return obj
        todo.extend(_referents(obj))
    return None


def check_read_only_views(
    ruleset: Ruleset,
    scenario: str | Mapping[str, Any] | None = None,
    *,
    games: int = 1,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = 100_000,
    plugin_manager: pluggy.PluginManager | None = None,
    players: Mapping[str, Callable[[int], Player]] | None = None,
) -> int:
    """Assert that players who promise to read their views only keep the promise, and that
    the ruleset's :meth:`~wargamekit.ruleset.Ruleset.shared_view` (what they are handed: it may
    share the live state) shows exactly what its :meth:`~wargamekit.ruleset.Ruleset.view`
    shows.

    Plays ``games`` seeded games (seeds from ``seed``, the same player on every side) with each
    player factory in ``players`` that makes the promise (default: the ruleset's
    :meth:`~wargamekit.ruleset.Ruleset.bots`, each factory once, and, where the ruleset has
    its own shared view, random answers that read every view). At each decision whose view the player reads, the shared view and the view
    must be equal by content (serialised as :func:`check_non_interference` compares views, so
    the shared view hides exactly what the view hides), and after ``choose`` the live state and
    the view handed out must be unchanged by content (a derived cache, a field marked
    :data:`~wargamekit.view.CACHE`, may have been filled). Instances of the ruleset's
    :attr:`~wargamekit.ruleset.Ruleset.shared_types`, which never change once set up (a map),
    are compared by one picture each, made once per game, and the live state holds them by
    identity (as snapshots do): a player that replaces one is caught, one that writes inside
    one is not (its class should make that impossible: read-only arrays, frozen attrs).

    Returns:
        The number of views read and checked.

    Raises:
        AssertionError: a shared view differs from the view, or a player changed what it was
            handed; the message names the player, the seed, the answer and the first difference.
    """
    if players is None:
        factories: dict[str, Callable[[int], Player]] = {}
        if type(ruleset).shared_view is not Ruleset.shared_view:
            factories["random (reading every view)"] = _ReadingRandomBot
        for name, factory in ruleset.bots().items():
            if factory not in factories.values():
                factories[name] = factory
    else:
        factories = dict(players)
    checked = 0
    for name, factory in factories.items():
        for game_seed in range(seed, seed + games):
            fixed = _FixedParts(ruleset.shared_types)
            game = Game.new(ruleset, scenario, seed=game_seed, options=options, plugin_manager=plugin_manager)
            seated = {side: factory(bot_seed(game_seed, i)) for i, side in enumerate(ruleset.sides)}
            if not any(reads_view_only(p) for p in seated.values()):
                break  # no promise to check
            while game.pending is not None:
                if len(game.choices) >= max_decisions:
                    raise AssertionError(f"{ruleset.name}: no end after {max_decisions} decisions (seed {game_seed})")
                decision = game.pending
                player = seated[decision.side]
                if not reads_view_only(player):
                    game.answer(player.choose(decision, PlayerView(game, decision.side, decision)))
                    continue
                where = f"at answer {len(game.choices)} ({decision.kind or decision.prompt}, seed {game_seed})"
                view = _CheckedView(game, decision.side, decision, where, fixed)
                answer = player.choose(decision, view)
                checked += view.verify(f"bot {name!r} ({type(player).__name__}, {decision.side})", player)
                game.answer(answer)
            fixed.verify(f"{ruleset.name}: a bot {name!r} that promised to read its view only (reads_view_only) "
                         f"changed a part the game shares with every view (seed {game_seed})")
    return checked


def check_checkpoints(game: Game, *, points: int = 3) -> int:
    """Assert that restarting ``game`` at its checkpoints gives the log a full replay gives.

    ``game`` (usually finished) is replayed once from the start, answer by answer, as the
    reference. Then at ``points`` random positions (seeded by the game's seed) and at the end:
    a fork replayed to that position (it restarts at the latest snapshot on the way) and an undo
    back to it must show the reference's log up to there, and the fork, given the remaining
    answers, the whole game's log. A ruleset that keeps something a later step reads in a local
    variable of ``play`` instead of the state fails here, naming the checkpoint.

    A game started with ``snapshots=False`` is checked as the same game played with them.

    Returns:
        The number of restarts compared (0 when the game holds no snapshot: no checkpoints).

    Raises:
        AssertionError: a restart differs, or does not reach its checkpoint (the message names
            the seed, the checkpoint and the first differing log line).
    """
    if game._snapshot_spacing is None:  # started with snapshots=False: check it as played with them
        played = game
        game = played._unplayed_copy(SNAPSHOT_SPACING)
        game._replay(list(played.choices))
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


# -- non-interference: what one side sees does not depend on another side's secrets -------------


@define
class _ProbeDice(SeededDice):
    """Seeded dice that note every secret draw and can force the face of chosen draws (the
    generator still advances, so every other draw is exactly as without the force)."""

    overrides: dict[int, int] = field(factory=dict)
    clock: Callable[[], int] = field(default=lambda: 0, repr=False, eq=False)
    draws: int = field(default=0, init=False)
    secret_draws: list[tuple[int, int, tuple[str, ...], int]] = field(factory=list, init=False)

    def _pick(self, weights: Sequence[int], purpose: str, forced_kind: str) -> int:
        index = self.draws
        self.draws += 1
        picked = super()._pick(weights, purpose, forced_kind)
        if self.audience is not None:
            self.secret_draws.append((index, len(weights), self.audience, self.clock()))
        return self.overrides.get(index, picked)


(_CACHE_KEY,) = CACHE


class _FixedParts:
    """Pictures of the instances of a ruleset's ``shared_types`` (they never change once set
    up: a map, a scenario's tables), made once per object: the read-only check pictures a
    state at every view a bot reads, and the map would be most of each picture."""

    def __init__(self, types: Collection[type]) -> None:
        self.types = frozenset(types)
        self._seen: dict[int, tuple[Any, str]] = {}  # id -> (the object, kept so the id stays its own; digest)

    def picture(self, value: Any) -> str:
        got = self._seen.get(id(value))
        if got is None:
            text = json.dumps(_stable(value, 0, None), sort_keys=True, default=repr)
            got = self._seen[id(value)] = (value, hashlib.blake2b(text.encode(), digest_size=16).hexdigest())
        return f"<{type(value).__qualname__} {got[1]}>"

    def verify(self, what: str) -> None:
        """Picture each instance again (once per game: at its end) and raise if one changed."""
        for value, digest in self._seen.values():
            text = json.dumps(_stable(value, 0, None), sort_keys=True, default=repr)
            if hashlib.blake2b(text.encode(), digest_size=16).hexdigest() != digest:
                raise AssertionError(f"{what}: a {type(value).__qualname__} changed")


def _stable(value: Any, depth: int = 0, fixed: _FixedParts | None = None) -> Any:
    """A plain, deterministic picture of ``value`` (attrs and dataclasses by field, mappings
    sorted, sets sorted, arrays as lists, other objects by their attributes; attrs fields
    marked :data:`~wargamekit.view.CACHE` left out), so two views compare by content and never
    by identity, memory address or which queries filled a cache. With ``fixed``, an instance
    of the ruleset's :attr:`~wargamekit.ruleset.Ruleset.shared_types` (which never change once
    set up) is pictured once, by a digest of its picture."""
    if depth > 60:
        return "<too deep>"
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if fixed is not None and type(value) in fixed.types:
        return fixed.picture(value)
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, Mapping):
        items = [(_stable(k, depth + 1, fixed), _stable(v, depth + 1, fixed)) for k, v in value.items()]
        return {"__map__": sorted(items, key=repr)}
    if isinstance(value, (list, tuple)):
        return [_stable(v, depth + 1, fixed) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_stable(v, depth + 1, fixed) for v in value), key=repr)
    if attrs.has(type(value)):
        # a derived cache (metadata CACHE) is left out: no result depends on it (see CACHE)
        return {
            "__type__": type(value).__qualname__,
            **{a.name: _stable(getattr(value, a.name), depth + 1, fixed) for a in attrs.fields(type(value))
               if not a.metadata.get(_CACHE_KEY)},
        }
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            "__type__": type(value).__qualname__,
            **{f.name: _stable(getattr(value, f.name), depth + 1, fixed) for f in dataclasses.fields(value)},
        }
    slots = getattr(type(value), "__slots__", ())
    fields = dict(vars(value)) if hasattr(value, "__dict__") else {}
    fields.update({name: getattr(value, name) for name in slots if hasattr(value, name)})
    if fields:
        return {"__type__": type(value).__qualname__, **{k: _stable(v, depth + 1, fixed) for k, v in sorted(fields.items())}}
    return repr(value)


def _decision_picture(decision: Decision) -> Any:
    """Everything a player is handed with a decision (prose, kind, context, options)."""
    options = getattr(decision, "options", ())
    return {
        "type": type(decision).__name__,
        "side": decision.side,
        "prompt": decision.prompt,
        "rule": decision.rule,
        "kind": decision.kind,
        "context": _stable(decision.context),
        "secret": decision.secret,
        "options": [[o.label, o.public, _stable(o.data)] for o in options],
        "bounds": [getattr(decision, name, None) for name in ("low", "high", "min_count", "max_count")],
    }


def _alternatives(decision: Decision, cap: int) -> list[Answer]:
    """Up to ``cap`` distinct legal answers to ``decision``, deterministic."""
    if isinstance(decision, YesNo):
        return [False, True]
    numbers: list[Answer]
    if isinstance(decision, ChooseNumber):
        numbers = list(range(decision.low, decision.high + 1))
        return numbers[:cap]
    if isinstance(decision, Choose):
        numbers = list(range(len(decision.options)))
        return numbers[:cap]
    found: list[Answer] = []
    rng = np.random.default_rng(0)
    for _ in range(cap * 10):
        answer = decision.random_answer(rng)
        if answer not in found:
            found.append(answer)
        if len(found) >= cap:
            break
    return found


def _fixed_answer(decision: Decision, attempt: int) -> Answer:
    """The continuation's answer: the first option (or the lowest), else seeded tries."""
    if attempt == 0:
        if isinstance(decision, YesNo):
            return False
        if isinstance(decision, ChooseNumber):
            return decision.low
        if isinstance(decision, Choose):
            return 0
    return decision.random_answer(np.random.default_rng(attempt))


@frozen
class _Observation:
    """What side ``side`` sees at the observation point of one alternative."""

    reveals: tuple[str, ...]
    parts: tuple[tuple[str, Any], ...]
    game: Game | None = attrs.field(default=None, eq=False, repr=False)
    side: str | None = None

    def picture(self) -> str:
        """The SVG, drawn only when needed (drawing costs more than the rest together)."""
        assert self.game is not None
        return self.game.ruleset.render_svg(self.game.state, self.side) or ""


#: Events that show what they show by their nature: a public choice (the ruleset made it
#: public) and the end of the game (the outcome is public).
_ALWAYS_REVEALS = frozenset({"choice", "end"})


def _observe(game: Game, side: str, since: int, reveals: Collection[str], render: bool) -> _Observation:
    """Side ``side``'s view of ``game``: its view state, its log, its pending decision and
    its picture; and the events of declared reveal kinds (or public choices) since ``since``."""
    ruleset = game.ruleset
    log = [e for e in game.log if e.visible_to(side)]
    revealed = tuple(
        e.to_json() for e in game.log[since:] if e.visible_to(side) and (e.kind in reveals or e.kind in _ALWAYS_REVEALS)
    )
    decision = game.pending if game.pending is not None and game.pending.side == side else None
    parts: list[tuple[str, Any]] = [
        ("the view state (Ruleset.view)", json.dumps(_stable(ruleset.view(game.state, side)), sort_keys=True, default=repr)),
        ("the filtered log", "\n".join(e.to_json() for e in log)),
        ("the pending decision and its options", json.dumps(None if decision is None else _decision_picture(decision), sort_keys=True, default=repr)),
    ]
    if type(ruleset).shared_view is not Ruleset.shared_view:
        # what a bot that promised only to read its view is handed (it may share the live state)
        parts.insert(1, ("the shared view state (Ruleset.shared_view)", _text(ruleset.shared_view(game.state, side))))
    return _Observation(revealed, tuple(parts), game if render else None, side)


def _first_difference_of(a: str, b: str) -> str:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            start = max(0, index - 40)
            return f"…{a[start:index + 60]}… vs …{b[start:index + 60]}…"
    return f"one is a prefix of the other ({len(a)} vs {len(b)} characters)"


def check_non_interference(
    ruleset: Ruleset,
    scenario: str | Mapping[str, Any] | None = None,
    *,
    seeds: range | list[int] = range(2),
    options: Mapping[str, Any] | None = None,
    positions: int = 6,
    alternatives: int = 6,
    horizon: int = 60,
    reveals: Collection[str] = (),
    max_decisions: int = 100_000,
    plugin_manager: pluggy.PluginManager | None = None,
) -> int:
    """Assert that no side's view depends on another side's secrets.

    For each seed a random game is played; at up to ``positions`` of its secret moments —
    a decision marked :attr:`~wargamekit.decisions.Decision.secret` (side B chooses) or a draw
    inside ``dice.secret(...)`` (its audience is B) — the game is forked once per alternative
    (up to ``alternatives`` answers or faces). Each fork plays on (every decision of B's
    answered the same way: the first option) until another side A is asked, the game ends or
    ``horizon`` answers pass, and A's view is taken: the ruleset's ``view(state, A)`` (and its
    ``shared_view(state, A)``, if it has its own: what a bot that promised only to read is handed)
    serialised by content (attrs fields marked :data:`wargamekit.view.CACHE`, derived caches
    that change no result, left out), the log filtered for A, the decision A is asked with its prose,
    kind, context and option data, and ``render_svg(state, A)`` where the ruleset draws one.

    A secret may come out by the rules: an event whose kind is in ``reveals`` (the unit that
    moves into sight), a public choice that follows, or the end of the game. Forks are grouped by what such events
    showed A; within a group, A's view must be identical — otherwise the secret leaked, and
    the message names the seed, the moment, the sides and the part of the view that differs.

    Only secrets made during play can be forked. A secret that is data of the scenario (a
    preset loadout, the identity of a face-down piece in the order of battle) has no
    alternative here: the ruleset's ``view`` must redact it and its own tests must show that.
    A ruleset that marks nothing secret gives 0 pairs (the check then proves nothing; assert
    the count in the ruleset's tests).

    Returns:
        The number of alternative pairs compared.

    Raises:
        AssertionError: a view depends on a secret.
    """
    render = type(ruleset).render_svg is not Ruleset.render_svg
    compared = 0
    for seed in seeds:
        choices, moments = _secret_moments(ruleset, scenario, seed, options, plugin_manager, max_decisions,
                                           positions)
        for what, item in moments:
            forks: list[tuple[Any, Game, int]] = []
            if what == "decision":
                at, decision = item
                hiders: tuple[str, ...] = (decision.side,)
                where = f"answer {at} ({decision.kind or decision.prompt}, secret decision of {decision.side})"
                forks = _decision_forks(ruleset, scenario, seed, options, plugin_manager, choices, at, alternatives)
            else:
                draw, faces, audience, clock = item
                hiders = audience
                where = f"secret draw {draw} (after answer {clock}, seen by {', '.join(audience) or 'nobody'})"
                for face in range(min(faces, alternatives)):
                    game = _probe_game(ruleset, scenario, seed, options, {draw: face}, plugin_manager)
                    # The draw was made while answer ``clock`` was applied (clock 0: at the start).
                    _answer_all(game, choices[: max(clock - 1, 0)])
                    since = len(game.log) if clock else 0
                    _answer_all(game, choices[clock - 1 : clock] if clock else [])
                    forks.append((face, game, since))
            observers = [s for s in ruleset.sides if s not in hiders]
            for _, game, _since in forks:
                _play_on(game, observers, horizon)
            for side in observers:
                groups: dict[tuple[str, ...], list[tuple[Any, _Observation]]] = {}
                for alternative, game, since in forks:
                    seen = _observe(game, side, since, reveals, render)
                    groups.setdefault(seen.reveals, []).append((alternative, seen))
                for group in groups.values():
                    first_alt, first = group[0]
                    for alternative, seen in group[1:]:
                        compared += 1
                        parts = list(zip(first.parts, seen.parts, strict=True))
                        if render:
                            part = "the SVG (Ruleset.render_svg)"
                            parts.append(((part, first.picture()), (part, seen.picture())))
                        for (part, a), (_, b) in parts:
                            if a != b:
                                raise AssertionError(
                                    f"{ruleset.name}: {side}'s view depends on a secret of "
                                    f"{', '.join(hiders) or 'nobody'}: at {where} (seed {seed}), "
                                    f"alternatives {first_alt!r} and {alternative!r} differ in "
                                    f"{part}: {_first_difference_of(str(a), str(b))}"
                                )
    return compared


def _decision_forks(
    ruleset: Ruleset, scenario: Any, seed: int, options: Mapping[str, Any] | None, plugin_manager: Any,
    choices: list[Answer], at: int, cap: int,
) -> list[tuple[Any, Game, int]]:
    """The game of ``seed`` forked at its secret decision ``at`` (after ``choices[:at]``), once
    per alternative answer (up to ``cap``; one the rules refuse is left out): ``(answer, game,
    since)``, ``since`` the fork's log length before the answer. The alternatives are those of
    the fork's own pending decision, asked afresh: the reference game's was answered, so sealed
    (what of it was lazy and not made by then cannot be read: a constraint on a menu of values
    made from keys, say)."""

    def fork() -> Game:
        game = _probe_game(ruleset, scenario, seed, options, {}, plugin_manager)
        _answer_all(game, choices[:at])
        return game

    game: Game | None = fork()
    assert game is not None and game.pending is not None
    forks: list[tuple[Any, Game, int]] = []
    for answer in _alternatives(game.pending, cap):
        if game is None:
            game = fork()
        since = len(game.log)
        try:
            game.answer(answer)
        except (IllegalChoiceError, InvalidChoiceError):
            game = None  # the rules refuse it here: not an alternative (the next takes a fresh fork)
            continue
        forks.append((answer, game, since))
        game = None
    return forks


def _secret_moments(
    ruleset: Ruleset, scenario: Any, seed: int, options: Mapping[str, Any] | None, plugin_manager: Any,
    max_decisions: int, positions: int,
) -> tuple[list[Answer], list[tuple[str, Any]]]:
    """One seeded random game's answers and its secret moments, in play order, at most
    ``positions`` of them spread over the game: ``("decision", (at, decision))`` for a secret
    decision, ``("draw", draw)`` for a secret roll with more than one face (the probe dice's
    record). The non-interference checks (views here, observations in ``wargamekit.rl``) fork
    the game at each."""
    reference = _probe_game(ruleset, scenario, seed, options, {}, plugin_manager)
    secret_decisions: list[tuple[int, Decision]] = []

    def note(game: Game, decision: Decision) -> None:
        if decision.secret:
            secret_decisions.append((len(game.choices), decision))

    players = {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(ruleset.sides)}
    reference.play(players, before_ask=note, max_decisions=max_decisions)
    dice = reference.dice
    assert isinstance(dice, _ProbeDice)
    moments: list[tuple[str, Any]] = [("decision", item) for item in secret_decisions]
    moments += [("draw", item) for item in dice.secret_draws if item[1] > 1]
    moments.sort(key=lambda m: m[1][0] if m[0] == "decision" else m[1][3])
    if len(moments) > positions:
        moments = [moments[i * len(moments) // positions] for i in range(positions)]
    return list(reference.choices), moments


def _probe_game(
    ruleset: Ruleset, scenario: str | Mapping[str, Any] | None, seed: int,
    options: Mapping[str, Any] | None, overrides: dict[int, int],
    plugin_manager: pluggy.PluginManager | None = None,
) -> Game:
    game = Game.new(
        ruleset, scenario, seed=seed, options=options, plugin_manager=plugin_manager,
        dice=_ProbeDice(seed=seed, overrides=overrides, clock=lambda: 0),
    )
    # The template's clock cannot know the game; the live dice is told now (draws before the
    # first answer are at clock 0 anyway). Every replay builds its dice from the template.
    dice = game.dice
    assert isinstance(dice, _ProbeDice)
    dice.clock = lambda: len(game.choices)
    return game


def _answer_all(game: Game, answers: list[Answer]) -> None:
    for answer in answers:
        game.answer(answer)


def _play_on(game: Game, observers: list[str], horizon: int) -> None:
    """Answer the hiders' decisions the same way in every fork until an observer is asked."""
    for _ in range(horizon):
        decision = game.pending
        if decision is None or decision.side in observers:
            return
        for attempt in range(6):
            try:
                game.answer(_fixed_answer(decision, attempt))
                break
            except (IllegalChoiceError, InvalidChoiceError):
                continue
        else:
            return
