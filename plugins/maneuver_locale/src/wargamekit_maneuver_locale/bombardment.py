"""Artillery Bombardment: guns declare at the end of a turn (turned face-up) and fire at the
start of their side's next turn.

Source rules: declaring guns are turned face-up at the end of the turn; a gun that fired this
turn may not declare; at the start of the turn, guns that declared in the previous turn may
fire; the defender's terrain effect applies; the defender loses the gun's steps; a gun that
fires may not move (a gun that moved may still declare); the target is the corresponding
approach first, else the reserve, else another approach.

Provisional (not from the source): a gun declares from one of its locale's approaches and
bombards the locale that approach faces; the "corresponding approach" is that locale's approach
facing the gun; the defender's terrain effect is that approach's; a declaration lapses if
the gun does not fire; the firing player picks among several "other" approaches; the target's
owner spreads the losses.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargamekit import Choose, Decision, Option, YesNo

from . import kinds, rules
from .changes import piece_subset, reveal, take_losses
from .resolution import bombardment_losses, bombardment_target
from .state import RESERVE, Context, GameState, Occupancy, Piece

__all__ = ["declarable", "declare_bombardment", "fire_bombardment"]


def declarable(state: GameState, piece: Piece) -> str | None:
    """Why ``piece`` may not declare a bombardment now, or ``None`` if it may."""
    if piece.arm is None or not piece.arm.gun:
        return f"{piece.id} is not artillery"
    if piece.in_reserve:
        return f"{piece.id} is not on an approach"
    if piece.last_fired == state.player_turn:
        return f"{piece.id} fired this turn and may not declare"
    return None


def declare_bombardment(ctx: Context, side: str) -> Generator[Decision, Any, None]:
    """End of turn: choose the guns that declare a bombardment (they are turned face-up).

    Asked whenever ``side`` has pieces on approaches (public), so being asked reveals nothing.
    """
    state = ctx.state
    candidates = [p for p in state.of(side) if not p.in_reserve and not p.declared]
    if not candidates:
        return

    # read now, so the decision keeps its meaning after the game moves on
    reasons = {p.id: declarable(state, p) for p in candidates}

    def only_guns(ids: tuple[str, ...]) -> str | None:
        for i in ids:
            if reasons[i]:
                return reasons[i]
        return None

    chosen = yield piece_subset(
        side,
        "End of turn: which guns declare a bombardment (none for none)?",
        candidates,
        rule=rules.BOMBARDMENT,
        kind=kinds.DECLARE,
        constraint=only_guns,
        names=state.board.names,
        why_not=lambda p: reasons[p.id],
        secret=True,
    )
    guns = [state.pieces[i] for i in chosen]
    reveal(ctx, guns, "Artillery Bombardment: declared")
    for gun in guns:
        gun.declared = True
        gun.last_declared = state.player_turn
        ctx.event(
            "declare",
            f"{gun.id} declares a bombardment of {state.board.names[gun.approach]}",
            piece=gun.id,
            target=gun.approach,
        )


def fire_bombardment(ctx: Context, side: str) -> Generator[Decision, Any, None]:
    """Start of turn: each gun that declared last turn may fire."""
    state = ctx.state
    names = state.board.names
    enemy = state.enemy(side)
    for gun in [p for p in state.of(side) if p.declared]:
        gun.declared = False
        if gun.in_reserve or state.holder(gun.approach) != enemy:
            ctx.event("bombard-lapse", f"{gun.id}'s bombardment lapses: no enemy ahead", piece=gun.id)
            continue
        target_locale = gun.approach
        fire = yield YesNo(
            side=side,
            prompt=f"{gun.describe()} may bombard {names[target_locale]}: fire?",
            rule=rules.BOMBARDMENT,
            kind=kinds.BOMBARD,
            context={"piece": gun.id, "locale": gun.locale, "target": target_locale},
        )
        if not fire:
            continue
        facing = [p for p in state.at(target_locale, gun.locale)]
        reserve = state.at(target_locale, RESERVE)
        others = [w for w, ps in state.groups(target_locale) if w not in (RESERVE, gun.locale)]
        pick = bombardment_target(len(facing), len(reserve), others)
        if pick == "approach":
            group = facing
        elif pick == "reserve":
            group = reserve
        else:
            if len(others) > 1:
                pick = yield Choose.of(
                    side,
                    f"Bombardment of {names[target_locale]}: which approach is the target?",
                    [Option(w, f"the approach facing {names[w]}", data={"facing": w}) for w in others],
                    rule=rules.BOMBARDMENT,
                    kind=kinds.BOMBARD_TARGET,
                    context={"piece": gun.id, "target": target_locale},
                )
            group = state.at(target_locale, pick)
        terrain = state.board.terrain(target_locale, gun.locale)
        n = bombardment_losses(gun.steps or 0, terrain)
        gun.last_fired = state.player_turn
        Occupancy.of(state).mark_moved(gun)  # a gun that fires may not move (the live index follows)
        ctx.event(
            "bombard",
            f"{gun.id} bombards {names[target_locale]} ({pick}): {gun.steps} - terrain {terrain} = {n} step(s)",
            piece=gun.id,
            target=target_locale,
            losses=n,
        )
        yield from take_losses(
            ctx, group, n, chooser=enemy, rule=rules.BOMBARDMENT, why=f"bombardment by {gun.id}", cause="bombardment"
        )
