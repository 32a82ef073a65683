"""Handles: what the game calls a piece, so that a face-down piece cannot be looked up.

The scenario's order of battle is public (package data, copied into every save): it maps each
scenario id to an arm and a strength. Were the pieces called by those ids in play, every
face-down piece would be identified by reading the scenario. So at set-up each piece gets a
*handle* (``"F-3"``) instead:

* the handles are numbered, per side, in the order of the set-up positions (locale and
  approach, in the order they first appear in the scenario) — public facts only;
* within a position, the pieces are ordered by a **secret shuffle**, drawn through the game's
  dice inside ``ctx.dice.secret(side)``: the owner's log records the draws, the opponent's
  does not, and the owner is told its handles (an event only it sees).

So the opponent's view of the set-up — handles and positions — is the same whatever the
shuffle drew (the non-interference check forks these draws and finds nothing), and the handle
of a piece that shares its starting position says nothing of which piece of that position it
is. What the set-up itself says stays public: a piece alone at its starting position is known
from the scenario, as the order of battle of a printed game with a fixed set-up is. A piece's
identity (its scenario id, :attr:`~.state.Piece.origin`) is revealed with its arm and steps
when the rules turn it face up (the ``reveal`` event, :func:`.changes.reveal`).

With the option ``scenario_ids`` (an open game) the pieces keep their scenario ids and no
dice are drawn: the rules tests name pieces as their scenarios do.
"""

from __future__ import annotations

from .state import Context, Piece

__all__ = ["assign_handles", "handle_prefixes"]


def handle_prefixes(sides: tuple[str, ...]) -> dict[str, str]:
    """Each side's handle prefix: its initial (``"F"``), or its name if two initials clash."""
    initials = {side: side[:1].upper() for side in sides}
    if len(set(initials.values())) < len(sides):
        return {side: side for side in sides}
    return initials


def assign_handles(ctx: Context) -> None:
    """Rename every piece by its handle (see the module's docstring), drawing each side's
    secret shuffle through ``ctx.dice`` inside ``ctx.dice.secret(side)``."""
    state = ctx.state
    prefixes = handle_prefixes(state.sides)
    stacks: dict[tuple[str, str, str], list[Piece]] = {}
    for p in state.pieces.values():
        stacks.setdefault((p.side, p.locale, p.approach), []).append(p)
    for side in state.sides:
        with ctx.dice.secret(side):
            for (owner, _, _), stack in stacks.items():
                if owner != side:
                    continue
                where = stack[0].where(state.board.names)
                # Fisher-Yates: one uniform draw per place, from the last down to the second.
                for i in range(len(stack) - 1, 0, -1):
                    j = ctx.dice.integer(0, i, f"{side}: secret order of the pieces in {where}")
                    stack[i], stack[j] = stack[j], stack[i]
    counts = dict.fromkeys(state.sides, 0)
    renamed: dict[str, Piece] = {}
    for (side, _, _), stack in stacks.items():
        for p in stack:
            counts[side] += 1
            p.origin = p.id
            p.id = f"{prefixes[side]}-{counts[side]}"
            renamed[p.id] = p
    state.pieces = renamed
    for side in state.sides:
        mine = [p for p in renamed.values() if p.side == side]
        ctx.event(
            "handles",
            f"{side}'s pieces: " + ", ".join(f"{p.id} = {p.origin} ({p.arm.value} {p.steps})" for p in mine),  # type: ignore[union-attr]
            audience=(side,),
            handles={p.id: p.origin for p in mine},
        )
