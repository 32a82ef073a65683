"""Retreats: the whole defending locale leaves after a lost assault or a successful maneuver
attack.

Source rules: no retreat into a locale holding the enemy, into the attacking locale, or into a
full locale; artillery is removed; the pieces of the attacked approach retreat without loss;
each group on another approach loses 1 step; the reserve's non-cavalry pieces lose 1 step as a
group and the reserve's cavalry loses nothing.

Provisional (not from the source): each group retreats to one locale its owner chooses, into
that locale's reserve; a group with no legal destination is removed.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargamekit import Choose, Game, Option, ask

from . import rules
from .changes import eliminate, place, take_losses
from .scenario import Arm
from .state import RESERVE, GameState

__all__ = ["retreat_destinations", "retreat_locale"]


def retreat_destinations(state: GameState, locale: str, attacker_locale: str, side: str, size: int) -> list[str]:
    """Where a group of ``size`` pieces of ``side`` may retreat from ``locale`` (Retreats)."""
    enemy = state.enemy(side)
    return [
        n
        for n in state.board.neighbours(locale)
        if n != attacker_locale and state.holder(n) != enemy and state.room(n) >= size
    ]


def retreat_locale(game: Game, locale: str, attacker_locale: str) -> Generator[Any, Any, None]:
    """Every piece in ``locale`` retreats (Retreats); ``attacker_locale`` is where the attack
    came from, so the pieces on the approach facing it retreat without loss."""
    state: GameState = game.state
    side = state.holder(locale)
    if not side:
        return
    names = state.board.names
    game.event("retreat", f"{side} retreats from {names[locale]}", side=side, locale=locale)
    for p in state.at(locale):
        if p.arm is Arm.ARTILLERY:
            eliminate(game, p, "Retreats: artillery is removed")
    for where, pieces in state.groups(locale):
        if where == attacker_locale:
            pass  # the attacked approach retreats without loss
        elif where == RESERVE:
            infantry = [p for p in pieces if p.arm is not Arm.CAVALRY]
            if infantry:
                yield from take_losses(
                    game,
                    infantry,
                    1,
                    chooser=side,
                    rule=rules.RETREATS,
                    why="Retreats: the reserve's non-cavalry group loses 1 step",
                )
        else:
            yield from take_losses(
                game,
                pieces,
                1,
                chooser=side,
                rule=rules.RETREATS,
                why="Retreats: a group on another approach loses 1 step",
            )
        alive = [p for p in pieces if p.id in state.pieces]
        if not alive:
            continue
        options = retreat_destinations(state, locale, attacker_locale, side, len(alive))
        if not options:
            for p in alive:
                eliminate(game, p, "Retreats: no locale to retreat into")
            continue
        dest = yield from ask(
            Choose.of(
                side,
                f"Retreat {', '.join(p.id for p in alive)} from {names[locale]} to which locale?",
                [Option(n, names[n]) for n in options],
                rule=rules.RETREATS,
            )
        )
        place(game, alive, dest, RESERVE, "Retreats", moved=False)
