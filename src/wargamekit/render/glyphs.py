"""What the renderers draw: small frozen value types a ruleset fills from its state.

A ruleset never draws. It describes the position — which unit stands where, facing which way,
which markers lie on the map, which pieces are face down — and the renderer turns that into SVG.

>>> from wargamekit.geometry import Hex, HexsideFacing
>>> UnitGlyph(Hex(2, 1), "Tiger", "#555", HexsideFacing(1), turret=HexsideFacing(0)).facing_kind
'hexside'
"""

from __future__ import annotations

from typing import Literal

from attrs import field, frozen

from wargamekit._convert import as_tuple
from wargamekit.geometry.facing import Facing, HexsideFacing, VertexFacing
from wargamekit.geometry.hex import Hex

__all__ = ["HexsideStyle", "Marker", "PieceGlyph", "UnitGlyph"]


def _check_turret(instance: UnitGlyph, _attribute: object, value: HexsideFacing | None) -> None:
    if value is not None and not isinstance(value, HexsideFacing):
        raise TypeError(f"a turret faces a hexside: expected HexsideFacing, got {value!r}")


@frozen
class UnitGlyph:
    """A unit counter on a hex map.

    Args:
        hex: Where the unit stands.
        label: The text on the counter (its name or type).
        side_color: The counter's fill (the side's colour).
        facing: A :class:`~wargamekit.geometry.HexsideFacing` (drawn as a hull arrow toward
            that hexside), a :class:`~wargamekit.geometry.VertexFacing` (an arrow toward that
            corner) or ``None`` (no facing drawn).
        turret: A :class:`~wargamekit.geometry.HexsideFacing` drawn as a gun line toward that
            hexside, or ``None``.
        sublabel: A second, smaller line of text (strength, steps, status).
        text_color: The colour of the counter's text.
    """

    hex: Hex
    label: str
    side_color: str
    facing: Facing | None = None
    turret: HexsideFacing | None = field(default=None, validator=_check_turret)
    sublabel: str = ""
    text_color: str = "white"

    @property
    def facing_kind(self) -> Literal["hexside", "vertex"] | None:
        """``"hexside"``, ``"vertex"`` or ``None``, from the type of :attr:`facing`."""
        if isinstance(self.facing, HexsideFacing):
            return "hexside"
        if isinstance(self.facing, VertexFacing):
            return "vertex"
        return None


@frozen
class Marker:
    """A small badge with text on a hex (a wreck, smoke, a fire marker, an objective).

    Args:
        hex: The hex it lies in.
        text: A short text (``"wreck"``, ``"smoke"``).
        color: The badge's fill.
        text_color: The badge's text colour.
    """

    hex: Hex
    text: str
    color: str = "#f6e05e"
    text_color: str = "#1a1a1a"


@frozen
class HexsideStyle:
    """How a hexside feature is drawn on its edge.

    Args:
        color: Stroke colour.
        width: Stroke width as a fraction of the hex size (centre-to-corner distance).
        dash: An SVG ``stroke-dasharray`` in fractions of the hex size (``(0.15, 0.1)``), or
            ``()`` for a solid line.
    """

    color: str
    width: float = 0.12
    dash: tuple[float, ...] = field(default=(), converter=as_tuple)


@frozen
class PieceGlyph:
    """A piece on a locale map: in a locale's reserve or on one of its approaches.

    Args:
        locale: The locale the piece belongs to.
        label: Its type (``"Inf"``, ``"Cav"``); never drawn while face down.
        side_color: Its side's colour.
        steps: Its step count, shown on a face-up piece; ``None`` shows none.
        face_up: ``False`` draws the blank counter back (hidden information).
        approach: ``None`` for the reserve; else the id of the *attacking* locale whose
            approach (belonging to :attr:`locale`) the piece occupies.
    """

    locale: str
    label: str
    side_color: str
    steps: int | None = None
    face_up: bool = True
    approach: str | None = None
