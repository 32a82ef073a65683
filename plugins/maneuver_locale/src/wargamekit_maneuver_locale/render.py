"""SVG of the locale map, drawn with the core locale renderer (:mod:`wargamekit.render`).

Each locale's position is scenario data (``x``, ``y``). Pieces the viewer may not identify
(the opponent's face-down pieces) are drawn as blank backs; the viewer's own face-down pieces
carry their arm in brackets (``(Inf)``), revealed pieces without (``Inf``).
"""

from __future__ import annotations

from wargamekit.render import PieceGlyph, render_locale_map
from wargamekit.render import with_legend as core_with_legend

from .state import GameState

__all__ = ["MAX_WIDTH", "SIDE_COLORS", "legend_lines", "render_state"]

#: Drawing colours of the sides, by position in the scenario's side list.
SIDE_COLORS = ("#1f4e9c", "#b91c1c")
_SCALE = 2.2


#: The widest picture a 1200-pixel-wide screen shows without scrolling sideways.
MAX_WIDTH = 1180.0


def render_state(view: GameState, title: str = "") -> str:
    """Draw ``view`` (a redacted state, or the full one) as SVG text: the map (each piece the
    viewer may identify labelled with its id and arm), then a legend of sides, piece faces,
    approaches, roads, objectives and where each piece is (ids included, face-down ones too);
    scaled to fit :data:`MAX_WIDTH`."""
    colors = {side: SIDE_COLORS[i % 2] for i, side in enumerate(view.sides)}
    glyphs = []
    for p in view.pieces.values():
        if p.arm is None:
            glyph = PieceGlyph(p.locale, "", colors[p.side], None, face_up=False, approach=p.approach or None)
        else:
            short = p.arm.short or p.arm.key[:3].title()
            name = short if p.face_up else f"({short})"
            glyph = PieceGlyph(p.locale, f"{p.id} {name}", colors[p.side], p.steps, face_up=True,
                               approach=p.approach or None)
        glyphs.append(glyph)
    positions = {k: (x * _SCALE, y * _SCALE) for k, (x, y) in view.board.positions.items()}
    board = render_locale_map(
        view.board.map,
        positions,
        pieces=glyphs,
        title=title or f"turn {view.turn}: {view.active or view.sides[0]}",
    )
    return with_legend(board, legend_lines(view, colors))


def legend_lines(view: GameState, colors: dict[str, str]) -> list[tuple[str, str]]:
    """The legend as (colour, text) lines."""
    b = view.board
    names = b.names
    lines = [(colors[side], f"{side}: {view.points(side)} objective points") for side in view.sides]
    lines += [
        ("#1a1a1a", "piece: id, arm (Inf infantry, Cav cavalry, Art artillery) and steps; (Inf): your own "
                    "face-down piece; a blank back: an enemy face-down piece"),
        ("#7a2e2e", "approach bars across a link, on the defender's side: long and thick wide, short narrow; "
                    "'effect N': the defender's terrain effect"),
        ("#8b5a2b", "roads along links: solid primary, dashed secondary; dotted grey: a link with no road"),
        ("#b7791f", "objectives: " + ", ".join(
            f"{names[k]} {v} VP (held by {view.control.get(k) or 'nobody'})" for k, v in sorted(b.objectives.items()))),
    ]
    for loc in b.locale_ids():
        pieces = view.at(loc)
        if pieces:
            shown = ", ".join(f"{p.id}{'' if p.approach == '' else ' facing ' + names[p.approach]}"
                              f"{'' if p.arm is None else ' ' + p.arm.letter + str(p.steps)}" for p in pieces)
            lines.append((colors[pieces[0].side], f"{names[loc]}: {shown}"))
    return lines


def with_legend(board: str, lines: list[tuple[str, str]], *, font: float = 18.0) -> str:
    """``board`` with the legend below it, scaled as a whole to at most :data:`MAX_WIDTH`."""
    return core_with_legend(board, lines, font=font, max_width=MAX_WIDTH)
