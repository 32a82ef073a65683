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

from wargamekit import Choose, Decision, Option

from . import kinds, rules
from .changes import eliminate, place, take_losses
from .state import RESERVE, Context, GameState

__all__ = ["retreat_destinations", "retreat_locale"]


def retreat_destinations(state: GameState, locale: str, attacker_locale: str, side: str, size: int) -> list[str]:
    """Where a group of ``size`` pieces of ``side`` may retreat from ``locale`` (Retreats)."""
    enemy = state.enemy(side)
    return [
        n
        for n in state.board.neighbours(locale)
        if n != attacker_locale and state.holder(n) != enemy and state.room(n) >= size
    ]


def retreat_locale(ctx: Context, locale: str, attacker_locale: str) -> Generator[Decision, Any, None]:
    """Every piece in ``locale`` retreats (Retreats); ``attacker_locale`` is where the attack
    came from, so the pieces on the approach facing it retreat without loss."""
    state = ctx.state
    side = state.holder(locale)
    if not side:
        return
    names = state.board.names
    ctx.event("retreat", f"{side} retreats from {names[locale]}", side=side, locale=locale)
    for p in state.at(locale):
        if p.arm is not None and p.arm.gun:
            eliminate(ctx, p, "Retreats: artillery is removed")
    for where, pieces in state.groups(locale):
        if where == attacker_locale:
            pass  # the attacked approach retreats without loss
        elif where == RESERVE:
            infantry = [p for p in pieces if p.arm is None or not p.arm.reserve_retreat_free]
            if infantry:
                yield from take_losses(
                    ctx,
                    infantry,
                    1,
                    chooser=side,
                    rule=rules.RETREATS,
                    why="Retreats: the reserve's non-cavalry group loses 1 step",
                    cause="retreat",
                )
        else:
            yield from take_losses(
                ctx,
                pieces,
                1,
                chooser=side,
                rule=rules.RETREATS,
                why="Retreats: a group on another approach loses 1 step",
                cause="retreat",
            )
        alive = [p for p in pieces if p.id in state.pieces]
        if not alive:
            continue
        options = retreat_destinations(state, locale, attacker_locale, side, len(alive))
        if not options:
            for p in alive:
                eliminate(ctx, p, "Retreats: no locale to retreat into")
            continue
        dest = yield from ctx.ask(
            Choose.of(
                side,
                f"Retreat {', '.join(p.id for p in alive)} from {names[locale]} to which locale?",
                [Option(n, names[n], data={"locale": n}) for n in options],
                rule=rules.RETREATS,
                kind=kinds.RETREAT,
                context={"from": locale, "position": where, "pieces": [p.id for p in alive]},
            )
        )
        place(ctx, alive, dest, RESERVE, "Retreats", moved=False)
