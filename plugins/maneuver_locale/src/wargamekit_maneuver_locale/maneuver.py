"""Maneuver Attacks: a group moves into an enemy-held locale.

Source rule: the attack is blocked only when all of these hold — the attacker came from the
reserve, the defender has pieces in its reserve, and the defender chooses to move them onto the
approach to block. Otherwise the attack succeeds.

The defender's choice is a response window on the core interrupt stack
(``ctx.interrupts.window``), answered by the defending player.

Provisional (not from the source): a group mixing reserve and approach pieces (one group from
the same locale to the same locale, 移動 — command) counts as coming from the reserve, so it may
be blocked; a blocked attacking group stops on its own approach facing
the defender's locale (as in Bonaparte at Marengo); a successful attack is applied like a won
assault — the defending locale retreats (Retreats) and the attackers enter its reserve; a
maneuver attack is not offered against an approach the enemy already blocks (that needs an
assault).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargamekit import Decision, Response

from . import kinds, rules
from .changes import piece_subset, place
from .movement import cavalry_onto_approach
from .retreats import retreat_locale
from .state import RESERVE, Context, Piece

__all__ = ["maneuver_attack"]


def maneuver_attack(
    ctx: Context, side: str, pieces: list[Piece], locale: str, target: str
) -> Generator[Decision, Any, bool]:
    """Resolve a maneuver attack by ``pieces`` of ``side`` from ``locale`` into ``target``.

    Returns:
        Whether the attack succeeded (False: it was blocked).
    """
    state = ctx.state
    names = state.board.names
    enemy = state.enemy(side)
    # a group that mixes reserve and approach pieces came (in part) from the reserve: the
    # source's first condition holds for it (provisional reading)
    from_reserve = any(p.in_reserve for p in pieces)
    origin = {True: "reserve", False: "approach"}
    came = " and ".join(origin[r] for r in sorted({p.in_reserve for p in pieces}, reverse=True))
    ctx.event(
        "maneuver-attack",
        f"{side} makes a maneuver attack from {names[locale]} into {names[target]} with "
        f"{', '.join(p.id for p in pieces)} (from the {came})",
        side=side,
        locale=locale,
        target=target,
        pieces=[p.id for p in pieces],
    )
    outcome = {"blocked": False}
    reserve = [p for p in state.at(target, RESERVE) if p.side == enemy]
    if from_reserve and reserve:
        # one response per window: the player turn and the window's number in it
        state.windows += 1
        key = ("block", state.player_turn, state.windows)
        where = {"locale": target, "facing": locale}

        def block() -> Generator[Decision, Any, None]:
            chosen = yield piece_subset(
                enemy,
                f"Block: which {names[target]} reserve pieces move onto the approach facing {names[locale]}?",
                reserve,
                rule=rules.MANEUVER,
                kind=kinds.BLOCK_PIECES,
                context=where,
                min_count=1,
            )
            place(ctx, [state.pieces[i] for i in chosen], target, locale, "Maneuver Attacks: blocking", moved=False)
            outcome["blocked"] = True

        response = Response(
            f"block the approach of {names[target]} facing {names[locale]}",
            enemy,
            resolve=block,
            key=key,
            data={"response": "block", **where},
        )
        yield from ctx.interrupts.window(
            f"maneuver attack into {names[target]}",
            [enemy],
            lambda s, point: [response] if s == enemy else [],
            rule=rules.MANEUVER,
            kind=kinds.BLOCK,
        )
    if outcome["blocked"]:
        ctx.event("blocked", f"the maneuver attack into {names[target]} is blocked", target=target)
        place(ctx, pieces, locale, target, "Maneuver Attacks: blocked, the attackers stop on their approach")
        return False
    ctx.event("maneuver-success", f"the maneuver attack into {names[target]} succeeds", target=target)
    yield from retreat_locale(ctx, target, locale)
    alive = [p for p in pieces if p.id in state.pieces]
    if alive:
        place(ctx, alive, target, RESERVE, "Maneuver Attacks: the attackers enter")
        yield from cavalry_onto_approach(ctx, side, alive, target)
    return True
