"""SVG pictures of hex maps and locale maps, drawn with drawsvg.

Rulesets describe what is where with small value types (:class:`UnitGlyph`, :class:`Marker`,
:class:`PieceGlyph`) and call :func:`render_hex_map` or :func:`render_locale_map`; both return
SVG text. Coordinates come from :mod:`wargamekit.geometry` (:class:`~wargamekit.geometry.PixelLayout`
for hexes; positions passed in for locales).
"""

from wargamekit.render.glyphs import HexsideStyle, Marker, PieceGlyph, UnitGlyph
from wargamekit.render.hexmap import DEFAULT_HEXSIDE_STYLES, render_hex_map
from wargamekit.render.legend import with_legend
from wargamekit.render.locale import APPROACH_STROKE, render_locale_map

__all__ = [
    "APPROACH_STROKE",
    "DEFAULT_HEXSIDE_STYLES",
    "HexsideStyle",
    "Marker",
    "PieceGlyph",
    "UnitGlyph",
    "render_hex_map",
    "render_locale_map",
    "with_legend",
]
