"""Handles and the set-up deal: what the game calls a piece, and where it starts, so that a
face-down piece cannot be looked up.

The scenario's order of battle is public (package data, copied into every save): it maps each
scenario id to an arm and a strength. Were the pieces called by those ids in play, every
face-down piece would be identified by reading the scenario; were each piece's starting
position fixed, a piece alone at its position would be. So at set-up:

* each side's pieces are **dealt** to their starting positions by a secret shuffle, drawn
  through the game's dice inside ``ctx.dice.secret(side)``: the pieces of one *set-up area*
  (``PieceSpec.setup_area``) are shuffled and fill the area's positions, each keeping the
  number of pieces the scenario lists there; a piece without an area is shuffled among those
  listed at its own position. The owner's log records the draws, the opponent's does not;
* each piece gets a *handle* (``"F-3"``), numbered per side in the order of the starting
  positions (locale and approach, in the order they first appear in the scenario) — public
  facts only — and, within a position, in dealt order. The owner is told its handles (an
  event only it sees).

So the opponent's view of the set-up — handles and positions — is the same whatever the deal
drew (the non-interference check forks these draws), and what it knows of the piece behind a
handle is the order of battle of that position's area. A piece's identity (its scenario id,
:attr:`~.state.Piece.origin`) is revealed with its arm and steps when the rules turn it face
up (the ``reveal`` event, :func:`.changes.reveal`).

With the option ``scenario_ids`` (an open game) the pieces keep their scenario ids and
positions and no dice are drawn: the rules tests name pieces as their scenarios do.
"""

from __future__ import annotations

from .state import Context, Occupancy, Piece

__all__ = ["assign_handles", "handle_prefixes"]


def handle_prefixes(sides: tuple[str, ...]) -> dict[str, str]:
    """Each side's handle prefix: its initial (``"F"``), or its name if two initials clash."""
    initials = {side: side[:1].upper() for side in sides}
    if len(set(initials.values())) < len(sides):
        return {side: side for side in sides}
    return initials


def assign_handles(ctx: Context) -> None:
    """Deal every side's pieces to their starting positions and rename them by their handles
    (see the module's docstring), drawing each side's secret deal through ``ctx.dice`` inside
    ``ctx.dice.secret(side)``."""
    state = ctx.state
    prefixes = handle_prefixes(state.sides)
    areas = _setup_areas(ctx)
    for side in state.sides:
        with ctx.dice.secret(side):
            for (owner, area, _), (places, pieces) in areas.items():
                if owner != side:
                    continue
                if len(places) == 1:
                    label = f"{side}: secret order of the pieces in {pieces[0].where(state.board.names)}"
                else:
                    label = f"{side}: secret deal of the pieces of set-up area {area}"
                # Fisher-Yates: one uniform draw per place, from the last down to the second.
                for i in range(len(pieces) - 1, 0, -1):
                    j = ctx.dice.integer(0, i, label)
                    pieces[i], pieces[j] = pieces[j], pieces[i]
                # the area's positions keep their counts: the shuffled pieces fill them in order
                dealt = iter(pieces)
                for (locale, approach), count in places.items():
                    for _ in range(count):
                        p = next(dealt)
                        p.locale, p.approach = locale, approach
    stacks: dict[tuple[str, str, str], list[Piece]] = {}
    for _places, pieces in areas.values():
        for p in pieces:
            stacks.setdefault((p.side, p.locale, p.approach), []).append(p)
    counts = dict.fromkeys(state.sides, 0)
    renamed: dict[str, Piece] = {}
    for key in _positions(ctx):
        for p in stacks.get(key, ()):
            counts[p.side] += 1
            p.origin = p.id
            p.id = f"{prefixes[p.side]}-{counts[p.side]}"
            renamed[p.id] = p
    state.pieces = renamed
    Occupancy.drop(state)
    for side in state.sides:
        mine = [p for p in renamed.values() if p.side == side]
        ctx.event(
            "handles",
            f"{side}'s pieces: " + ", ".join(f"{p.id} = {p.origin} ({p.arm.value} {p.steps})" for p in mine),  # type: ignore[union-attr]
            audience=(side,),
            handles={p.id: p.origin for p in mine},
        )


def _positions(ctx: Context) -> list[tuple[str, str, str]]:
    """Every starting position (side, locale, approach), in the order it first appears in the
    scenario: the public order the handles are numbered in."""
    return list(dict.fromkeys((p.side, p.locale, p.approach) for p in ctx.scenario.pieces))


def _setup_areas(ctx: Context) -> dict[tuple[str, str, str], tuple[dict[tuple[str, str], int], list[Piece]]]:
    """Each side's set-up areas, in the order they first appear in the scenario — keyed by
    (side, area name, position), the position only for a piece without an area, which is an
    area of its own position (its pieces only) — with the area's positions and the number of
    pieces each starts with, and its pieces in scenario order."""
    areas: dict[tuple[str, str, str], tuple[dict[tuple[str, str], int], list[Piece]]] = {}
    for spec in ctx.scenario.pieces:
        own = "" if spec.setup_area else f"{spec.locale}/{spec.approach}"
        places, pieces = areas.setdefault((spec.side, spec.setup_area, own), ({}, []))
        places[spec.locale, spec.approach] = places.get((spec.locale, spec.approach), 0) + 1
        pieces.append(ctx.state.pieces[spec.id])
    return areas
