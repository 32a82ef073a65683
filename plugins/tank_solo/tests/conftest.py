"""Shared helpers: build exact positions and answer decisions by label."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from wargamekit import Game, ScriptedDice
from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.maps import FACING_NAMES, label_hex
from wargamekit_tank_solo.scenario import TankSoloScenario
from wargamekit_tank_solo.state import GameState, Tank

RULESET = TankSolo()


def _entries(tanks: Sequence[tuple]) -> list[dict[str, Any]]:
    out = []
    for model, where, facing, *rest in tanks:
        entry: dict[str, Any] = {"model": model, "hex": where, "facing": facing}
        if rest:
            entry["specials"] = list(rest[0])
        out.append(entry)
    return out


@pytest.fixture
def new_game() -> Callable[..., Game]:
    """``new_game(a, b, dice=[...], options={...})``: a game from exact positions.

    ``a`` and ``b`` are lists of ``(model, hex label, facing[, specials])``.
    """

    def make(a: Sequence[tuple], b: Sequence[tuple], *, dice: Sequence[int] = (), options: dict | None = None,
             **extra: Any) -> Game:
        data = {"map": "pravda", "forces": {"A": _entries(a), "B": _entries(b)}, **extra}
        return Game.new(RULESET, data, options=options or {}, dice=ScriptedDice(list(dice)))

    return make


def pick_option(game: Game, text: str) -> None:
    """Answer the pending Choose with the option labelled ``text``, or the one whose label contains it."""
    decision = game.pending
    assert decision is not None, "the game is over"
    labels = [o.label for o in decision.options]
    matches = [i for i, label in enumerate(labels) if text == label] or [
        i for i, label in enumerate(labels) if text in label
    ]
    assert len(matches) == 1, f"{text!r} matches {len(matches)} of {labels} ({decision.prompt})"
    game.answer(matches[0])


@pytest.fixture
def pick() -> Callable[[Game, str], None]:
    """``pick(game, text)``: answer by a unique piece of an option's label."""
    return pick_option


@pytest.fixture
def make_state() -> Callable[..., GameState]:
    """``make_state([(side, model, hex, facing), ...], wrecks=[...], options=...)``: a bare state."""

    def make(tanks: Sequence[tuple], *, wrecks: Sequence[str] = (), options: dict | None = None,
             **scenario: Any) -> GameState:
        state = GameState(scenario=TankSoloScenario(**scenario), options=dict(options or {}))
        for side, model, where, facing in tanks:
            d = FACING_NAMES.index(facing)
            state.tanks.append(Tank(id=len(state.tanks) + 1, side=side, model=model, hex=label_hex(where),
                                    hull=d, turret=d))
        state.wrecks = [label_hex(w) for w in wrecks]
        state.turn = 1
        return state

    return make
