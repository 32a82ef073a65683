"""The position as an SVG picture, drawn by :mod:`wargamekit.render`."""

from __future__ import annotations

from wargamekit.geometry import HexsideFacing
from wargamekit.render import Marker, UnitGlyph, render_hex_map
from wargamekit_skirmish.state import CLEAR_CODE, HILL, WOODS, SkirmishState

COLORS = {CLEAR_CODE: "#ece6c9", WOODS: "#7da65d", HILL: "#c9a66b"}
SIDE_COLORS = {"blue": "#2c5282", "red": "#9b2c2c"}


def picture(state: SkirmishState) -> str:
    """Units as counters facing their hexside (damaged ones marked), eliminated ones as markers."""
    units = [UnitGlyph(u.hex, u.name, SIDE_COLORS[u.side], HexsideFacing(u.facing),
                       sublabel="dmg" if u.steps == 1 else "")
             for u in state.alive()]
    markers = [Marker(u.hex, "KIA", color="#cbd5e0") for u in state.units.values() if not u.alive]
    return render_hex_map(state.map, terrain_colors=COLORS, units=units, markers=markers, label_base=1,
                          legend=True, title=f"Skirmish — turn {state.turn} of {state.turns}")
