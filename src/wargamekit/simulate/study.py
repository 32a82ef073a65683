"""A study's configuration, its seeds, and playing one game of it into one result row."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from attrs import field, frozen

from ..errors import InvalidChoiceError, WargamekitError
from ..game import DEFAULT_DECISION_LIMIT, Game
from ..players import Player, RandomBot, bot_seed
from ..ruleset import Ruleset

__all__ = ["Study", "StudyError", "game_seed", "make_player", "play_game", "player_kinds"]


class StudyError(WargamekitError, ValueError):
    """A study that cannot run as configured (unknown player kind, wrong number of players,
    a results directory that belongs to another study)."""


def _kinds(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _frozen_options(value: Mapping[str, Any] | Sequence[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
    pairs = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted((str(k), v) for k, v in pairs))


@frozen
class Study:
    """What a balance study plays: ``games`` games of one ruleset, scenario, option set and
    cast of players, each seeded from ``seed``.

    Attributes:
        ruleset: an installed ruleset's name.
        players: one player kind per side, in the ruleset's side order: ``random``, ``bot``
            (the ruleset's first bot, or random if it has none) or a bot the ruleset names.
        games: how many games.
        scenario: a bundled scenario's name or the path of a scenario file (TOML).
        seed: the study seed; game ``i`` is seeded :func:`game_seed(seed, i) <game_seed>`.
        options: optional rules, as sorted ``(name, value)`` pairs (a mapping is accepted).
        alternate: rotate the seats: in game ``i`` side ``k`` is played by
            ``players[(k + i) % len(players)]`` (with two sides, the players swap every other
            game), so a comparison of players does not hide a side's advantage.
        max_decisions: answers a game may take before it is deemed endless (an error).
    """

    ruleset: str
    players: tuple[str, ...] = field(converter=_kinds)
    games: int
    scenario: str = "default"
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = field(default=(), converter=_frozen_options)
    alternate: bool = False
    max_decisions: int = DEFAULT_DECISION_LIMIT

    def __attrs_post_init__(self) -> None:
        if self.games < 0:
            raise StudyError(f"games: expected 0 or more, got {self.games}")
        if self.seed < 0:
            raise StudyError(f"seed: expected 0 or more, got {self.seed}")

    @property
    def options_dict(self) -> dict[str, Any]:
        """The options as a dict."""
        return dict(self.options)

    def seats(self, index: int, sides: Sequence[str]) -> dict[str, str]:
        """Side → player kind in game ``index``."""
        n = len(self.players)
        shift = index % n if self.alternate else 0
        return {side: self.players[(k + shift) % n] for k, side in enumerate(sides)}

    def with_options(self, **changes: Any) -> Study:
        """The same study with some options changed (the other configuration of a comparison)."""
        merged = {**self.options_dict, **changes}
        return Study(
            ruleset=self.ruleset, players=self.players, games=self.games, scenario=self.scenario,
            seed=self.seed, options=merged, alternate=self.alternate, max_decisions=self.max_decisions,
        )

    def to_json(self) -> str:
        """The configuration as canonical JSON (how a results directory recognises its study)."""
        return json.dumps(
            {
                "ruleset": self.ruleset,
                "players": list(self.players),
                "games": self.games,
                "scenario": self.scenario,
                "seed": self.seed,
                "options": dict(self.options),
                "alternate": self.alternate,
                "max_decisions": self.max_decisions,
            },
            sort_keys=True,
        )


def game_seed(study_seed: int, index: int) -> int:
    """The dice seed of game ``index`` of a study seeded ``study_seed``.

    The formula: the first 64-bit word of ``numpy.random.SeedSequence(study_seed,
    spawn_key=(index,))`` (the ``index``-th child of ``SeedSequence(study_seed).spawn``), with
    its top bit cleared, so seeds are well mixed, independent of how games are split among
    workers, and computable for any one game alone.

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    """
    word = np.random.SeedSequence(study_seed, spawn_key=(index,)).generate_state(1, np.uint64)[0]
    return int(word) >> 1


def player_kinds(ruleset: Ruleset) -> list[str]:
    """The player kinds a study may name for ``ruleset``."""
    return list(dict.fromkeys(["random", "bot", *ruleset.bots()]))


def make_player(ruleset: Ruleset, kind: str, seed: int) -> Player:
    """A player of ``kind`` seeded ``seed`` (``bot``: the ruleset's own ``bot`` or first bot,
    else the random bot)."""
    bots = ruleset.bots()
    if kind in bots:
        return bots[kind](seed)
    if kind == "bot" and bots:
        return next(iter(bots.values()))(seed)
    if kind in ("random", "bot"):
        return RandomBot(seed)
    raise StudyError(f"players: no player kind {kind!r}; {ruleset.name} offers {', '.join(player_kinds(ruleset))}")


def check_study(study: Study, ruleset: Ruleset) -> None:
    """Refuse a study that cannot run (before any game is played)."""
    if len(study.players) != len(ruleset.sides):
        raise StudyError(
            f"players {','.join(study.players)!r}: give one player per side, in order: {', '.join(ruleset.sides)}"
        )
    for kind in study.players:
        make_player(ruleset, kind, 0)
    try:
        ruleset.resolve_options(study.options_dict)
    except InvalidChoiceError as exc:
        raise StudyError(f"options: {exc}") from None
    scenario_source(study, ruleset)


def scenario_source(study: Study, ruleset: Ruleset) -> str | dict[str, Any]:
    """The scenario to pass to :meth:`Game.new`: a bundled name, or a file's data."""
    path = Path(study.scenario)
    if study.scenario in ruleset.scenario_names() and not path.is_file():
        return study.scenario
    if path.is_file():
        return ruleset.read_scenario_file(path)
    raise StudyError(
        f"scenario {study.scenario!r}: ruleset {ruleset.name!r} bundles no such scenario "
        f"({', '.join(ruleset.scenario_names()) or 'none'}) and there is no such file"
    )


def statistics(hook: Any, ruleset: Ruleset, state: Any, outcome: Any) -> dict[str, Any]:
    """The merged answers of every ``wargamekit_game_statistics`` implementation."""
    merged: dict[str, Any] = {}
    if hook is None:
        return merged
    # pluggy calls the last registered first; reversed, a later plugin's key wins.
    for answer in reversed(hook.wargamekit_game_statistics(ruleset=ruleset, state=state, outcome=outcome)):
        if answer:
            merged.update(answer)
    return merged


def play_game(
    study: Study,
    index: int,
    ruleset: Ruleset,
    scenario: str | dict[str, Any],
    hook: Any = None,
    keep_saves: Path | None = None,
) -> dict[str, Any]:
    """Play game ``index`` of ``study`` and return its result row."""
    seed = game_seed(study.seed, index)
    sides = list(ruleset.sides)
    seats = study.seats(index, sides)
    players = {side: make_player(ruleset, seats[side], bot_seed(seed, k)) for k, side in enumerate(sides)}
    # Played through and dropped: no snapshots for undo or fork (they add 6-24 % to a random game).
    game = Game.new(ruleset, scenario, seed=seed, options=study.options_dict, snapshots=False)
    outcome = game.play(players, max_decisions=study.max_decisions)
    if keep_saves is not None:
        (keep_saves / f"game-{index:06d}.json").write_text(game.save().to_json() + "\n", encoding="utf-8")
    winner = outcome.winner if outcome is not None else None
    turns = getattr(game.state, "turn", None)
    row: dict[str, Any] = {
        "game": index,
        "ruleset": ruleset.name,
        "version": ruleset.version,
        "scenario": study.scenario,
        "options": json.dumps(game.options, sort_keys=True),
        "seed": seed,
        **{f"player_{side}": seats[side] for side in sides},
        "winner": winner,
        "winner_player": seats[winner] if winner is not None else None,
        "reason": outcome.reason if outcome is not None else None,
        **{f"score_{side}": float(outcome.scores.get(side, 0.0)) if outcome is not None else None for side in sides},
        "decisions": len(game.choices),
        "turns": turns if isinstance(turns, int) else None,
    }
    if outcome is not None:
        for name, value in statistics(hook, ruleset, game.state, outcome).items():
            row[f"stat_{name}"] = value
    return row
