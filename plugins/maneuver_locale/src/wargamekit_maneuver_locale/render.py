"""SVG of the locale map, drawn with the core locale renderer (:mod:`wargamekit.render`).

Each locale's position is scenario data (``x``, ``y``). Pieces the viewer may not identify
(the opponent's face-down pieces) are drawn as blank backs; the viewer's own face-down pieces
carry their arm in brackets (``(Inf)``), revealed pieces without (``Inf``).
"""

from __future__ import annotations

from wargamekit.render import PieceGlyph, render_locale_map

from .scenario import Arm
from .state import GameState

__all__ = ["SIDE_COLORS", "render_state"]

#: Drawing colours of the sides, by position in the scenario's side list.
SIDE_COLORS = ("#1f4e9c", "#b91c1c")
_ARM = {Arm.INFANTRY: "Inf", Arm.CAVALRY: "Cav", Arm.ARTILLERY: "Art"}
_SCALE = 2.2


def render_state(view: GameState, title: str = "") -> str:
    """Draw ``view`` (a redacted state, or the full one) as SVG text."""
    colors = {side: SIDE_COLORS[i % 2] for i, side in enumerate(view.sides)}
    glyphs = []
    for p in view.pieces.values():
        if p.arm is None:
            glyph = PieceGlyph(p.locale, "", colors[p.side], None, face_up=False, approach=p.approach or None)
        else:
            name = _ARM[p.arm] if p.face_up else f"({_ARM[p.arm]})"
            glyph = PieceGlyph(p.locale, name, colors[p.side], p.steps, face_up=True, approach=p.approach or None)
        glyphs.append(glyph)
    positions = {k: (x * _SCALE, y * _SCALE) for k, (x, y) in view.board.positions.items()}
    return render_locale_map(
        view.board.map,
        positions,
        pieces=glyphs,
        title=title or f"turn {view.turn}: {view.active or view.sides[0]}",
    )
