"""Checks of an environment's observations: they hold nothing a side may not see.

:func:`check_observation_non_interference` is :func:`wargamekit.testing.check_non_interference`
applied to the encoded observation: the same forks of another side's secrets, the same
grouping by what the rules revealed, and the observation array compared instead of the view.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from ..game import Game
from ..testing import _answer_all, _decision_forks, _observe, _play_on, _probe_game, _secret_moments
from .aec import WargameEnv

__all__ = ["check_observation_non_interference"]


def check_observation_non_interference(
    env: WargameEnv,
    *,
    seeds: range | list[int] = range(2),
    positions: int = 6,
    alternatives: int = 6,
    horizon: int = 60,
    reveals: Collection[str] = (),
    max_decisions: int = 100_000,
) -> int:
    """Assert that no side's observation in ``env`` depends on another side's secrets.

    For each seed a random game of ``env``'s ruleset, scenario and options is played; at up to
    ``positions`` secret moments (a secret decision, a secret draw) the game is forked once per
    alternative, each fork plays on as in :func:`~wargamekit.testing.check_non_interference`
    until another side is asked, and that side's observation (the env's whole vector and mask)
    is compared between the forks that revealed the same (``reveals``: event kinds by which the
    rules show a secret).

    Returns:
        The number of alternative pairs compared (assert it is positive).

    Raises:
        AssertionError: an observation differs between alternatives of another side's secret.
    """
    ruleset = env.ruleset
    scenario: str | Mapping[str, Any] | None = env.scenario
    options = env.game_options
    compared = 0
    for seed in seeds:
        choices, moments = _secret_moments(ruleset, scenario, seed, options, None, max_decisions, positions)
        for what, item in moments:
            forks: list[tuple[Any, Game, int]] = []
            if what == "decision":
                at, decision = item
                hiders: tuple[str, ...] = (decision.side,)
                forks = _decision_forks(ruleset, scenario, seed, options, None, choices, at, alternatives)
            else:
                draw, faces, audience, clock = item
                hiders = audience
                for face in range(min(faces, alternatives)):
                    game = _probe_game(ruleset, scenario, seed, options, {draw: face})
                    _answer_all(game, choices[: max(clock - 1, 0)])
                    since = len(game.log) if clock else 0
                    _answer_all(game, choices[clock - 1 : clock] if clock else [])
                    forks.append((face, game, since))
            observers = [s for s in ruleset.sides if s not in hiders]
            for _, game, _since in forks:
                _play_on(game, observers, horizon)
            for side in observers:
                groups: dict[tuple[str, ...], list[tuple[Any, np.ndarray]]] = {}
                for alternative, game, since in forks:
                    seen = _observe(game, side, since, reveals, False)
                    vector = env.observation_of(game, side)
                    groups.setdefault(seen.reveals, []).append((alternative, vector))
                for group in groups.values():
                    first_alt, first = group[0]
                    for alternative, vector in group[1:]:
                        compared += 1
                        if not np.array_equal(first, vector):
                            where = np.flatnonzero(first != vector)[:5].tolist()
                            raise AssertionError(
                                f"{ruleset.name}: {side}'s observation depends on a secret of "
                                f"{', '.join(hiders) or 'nobody'} ({what} at {item[0]}, seed {seed}): "
                                f"alternatives {first_alt!r} and {alternative!r} differ at features {where}"
                            )
    return compared
