"""A legend below a map: lines of text, each with a colour swatch, in the same SVG document.

Every ruleset's picture wants one (sides, marker words, objectives), so it lives here rather than
in each plugin.
"""

from __future__ import annotations

import re
import textwrap
from xml.sax.saxutils import escape

__all__ = ["with_legend"]

_SIZE = re.compile(r'width="([\d.]+)" height="([\d.]+)"')


def with_legend(
    board: str, lines: list[tuple[str, str]], *, font: float = 15.0, max_width: float | None = None
) -> str:
    """``board`` (an SVG document) with ``lines`` of ``(colour, text)`` legend below it, as one SVG.

    Long lines wrap at the picture's width (a sans-serif character is about 0.55 em wide). With
    ``max_width`` the whole picture is scaled down to at most that many pixels wide (the map and
    its legend fit one screen); the drawing itself is unchanged (``viewBox``).

    Raises:
        ValueError: ``board`` has no ``width``/``height`` to put the legend under.

    >>> svg = with_legend('<svg width="200" height="100"></svg>', [("red", "Red: the attacker")])
    >>> 'height="138"' in svg and "Red: the attacker" in svg
    True
    """
    size = _SIZE.search(board)
    if size is None:
        raise ValueError("the board SVG has no width and height to put a legend under")
    width, height = (float(v) for v in size.groups())
    inner = board[board.index("<svg"):]
    step = font * 1.5
    per_line = max(20, int(width / (font * 0.55)))
    wrapped = [(color, part) for color, text in lines for part in textwrap.wrap(text, per_line)]
    total = height + step * len(wrapped) + font
    rows = "".join(
        f'<rect x="10" y="{height + i * step + font * 0.2:.1f}" width="{font * 0.8:.1f}" height="{font * 0.8:.1f}" '
        f'fill="{color}"/><text x="{10 + font * 1.2:.1f}" y="{height + i * step + font:.1f}" font-size="{font}" '
        f'font-family="DejaVu Sans, Arial, sans-serif" fill="#1a1a1a">{escape(text)}</text>'
        for i, (color, text) in enumerate(wrapped)
    )
    if max_width is None:
        shown_size = f'width="{width:g}" height="{total:.0f}"'
    else:
        shown = min(1.0, max_width / width)
        shown_size = f'width="{width * shown:.0f}" height="{total * shown:.0f}"'
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
            f'{shown_size} viewBox="0 0 {width:g} {total:.0f}">'
            f'<rect width="100%" height="100%" fill="white"/>{inner}<g class="legend-extra">{rows}</g></svg>\n')
