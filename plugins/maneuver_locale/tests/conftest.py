"""Shared fixtures: a builder of small scenarios and a driver that answers by label."""

from __future__ import annotations

from typing import Any

import pytest

from wargamekit import Game, ScriptedDice
from wargamekit.players import resolve_labels
from wargamekit_maneuver_locale import ManeuverLocale


def build(
    locales: list[str],
    edges: list[tuple],
    pieces: list[tuple],
    *,
    roads: list[tuple[str, list[str]]] = (),
    commands: tuple[int, int] = (3, 3),
    turns: int = 3,
    capacity: int = 6,
    capacities: dict[str, int] | None = None,
    objectives: dict[str, int] | None = None,
) -> dict[str, Any]:
    """Raw scenario data.

    ``edges``: ``(a, b)`` or ``(a, b, width_of_b_facing_a, terrain_of_b_facing_a,
    width_of_a_facing_b, terrain_of_a_facing_b)``. ``pieces``: ``(id, side, arm, steps, locale)``
    with an optional sixth item, the facing id of the approach it stands on.
    """
    objectives = objectives or {}
    capacities = capacities or {}
    approaches = []
    for e in edges:
        a, b = e[0], e[1]
        wb, tb, wa, ta = e[2:] if len(e) == 6 else ("wide", 0, "wide", 0)
        approaches.append({"locale": b, "facing": a, "width": wb, "terrain": tb})
        approaches.append({"locale": a, "facing": b, "width": wa, "terrain": ta})
    return {
        "title": "test",
        "sides": ["austria", "france"],
        "turns": turns,
        "commands": {"austria": commands[0], "france": commands[1]},
        "default_capacity": capacity,
        "locales": [
            {
                "id": x,
                "name": x.upper(),
                "x": 150 * i,
                "y": 0,
                "capacity": capacities.get(x, 0),
                "objective": objectives.get(x, 0),
            }
            for i, x in enumerate(locales)
        ],
        "approaches": approaches,
        "roads": [{"road_class": c, "locales": list(ls)} for c, ls in roads],
        "pieces": [
            {
                "id": p[0],
                "side": p[1],
                "arm": p[2],
                "steps": p[3],
                "locale": p[4],
                **({"approach": p[5]} if len(p) > 5 else {}),
            }
            for p in pieces
        ],
    }


def start(data: dict[str, Any], *, handles: bool = False) -> Game:
    """A game on no dice at all: the source's combat is diceless, so any roll would fail.

    The rules tests name pieces by their scenario ids (the option ``scenario_ids``: an open
    game, no handles, so no set-up shuffle either); ``handles=True`` plays with the secret
    handles of a normal game, whose shuffle draws are then scripted as "keep the order"."""
    if not handles:
        return Game.new(ManeuverLocale(), data, seed=0, dice=ScriptedDice([]), options={"scenario_ids": True})
    return Game.new(ManeuverLocale(), data, seed=0, dice=ScriptedDice(keep_order(data)))


def keep_order(data: dict[str, Any]) -> list[int]:
    """The faces of the set-up shuffle (handles.assign_handles) that keep every starting
    position's pieces in scenario order: each Fisher-Yates draw picks its own place."""
    stacks: dict[tuple, int] = {}
    for p in data["pieces"]:
        key = (p["side"], p["locale"], p.get("approach", ""))
        stacks[key] = stacks.get(key, 0) + 1
    faces = []
    for side in data["sides"]:
        for (owner, _, _), n in stacks.items():
            if owner == side:
                faces += list(range(n - 1, 0, -1))
    return faces


def _public_labels(decision: Any) -> list[str]:
    # piece decisions carry public labels ("A1", "A2 infantry 2") beside the private ones
    options = getattr(decision, "options", ())
    if not any(o.public is not None for o in options):
        return []
    return [o.public_label for o in options]


def _public(decision: Any, item: Any) -> Any:
    public = _public_labels(decision)
    return public.index(item) if isinstance(item, str) and item in public else item


def act(game: Game, *answers: Any) -> Game:
    """Answer the pending decisions in order, by option label, public piece label, or raw answer."""
    for a in answers:
        d = game.pending
        assert d is not None, f"the game is over; cannot answer {a!r}"
        a = [_public(d, x) for x in a] if isinstance(a, list) else _public(d, a)
        game.answer(resolve_labels(d, a))
    return game


def labels(game: Game) -> list[str]:
    """The labels of the pending decision's options (the public ones for piece decisions)."""
    public = _public_labels(game.pending)
    return public or [o.label for o in game.pending.options]  # type: ignore[union-attr]


@pytest.fixture
def ruleset() -> ManeuverLocale:
    return ManeuverLocale()


@pytest.fixture
def kit():
    """The builder and drivers, as one object."""

    class Kit:
        pass

    k = Kit()
    k.build, k.start, k.act, k.labels = build, start, act, labels
    return k
