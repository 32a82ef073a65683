"""SVG of a position: terrain, hulls and turrets, wrecks and markers (标志表), drawn by the core
renderer :func:`wargamekit.render.render_hex_map`.

:func:`describe_position` turns the state into glyphs (pure, testable);
:func:`render_position` draws them.
"""

from __future__ import annotations

from attrs import frozen

from wargamekit.geometry import HexsideFacing, PixelLayout
from wargamekit.render import Marker, UnitGlyph, render_hex_map
from wargamekit.render import with_legend as core_with_legend

from .maps import facing_name, hex_label
from .scenario import SIDES
from .state import GameState, Tank

__all__ = ["SIDE_COLORS", "TERRAIN_COLORS", "Picture", "describe_position", "legend_lines", "render_position", "with_legend"]

SIDE_COLORS = {SIDES[0]: "#2c5282", SIDES[1]: "#9b2c2c"}
TERRAIN_COLORS = {0: "#ece6cf", 1: "#5f8f4e", 2: "#9c8a74", 3: "#7fb2e0"}


@frozen
class Picture:
    """What is drawn: unit counters and markers."""

    units: tuple[UnitGlyph, ...]
    markers: tuple[Marker, ...]


def _markers(state: GameState, tank: Tank) -> list[str]:
    out = []
    if tank.fired or tank.defensive_lock:
        out.append("fired")
    if tank.immobilised:
        out.append("immob")
    if tank.weapon_destroyed:
        out.append("no gun")
    if tank.lit:
        out.append(f"lit+{tank.lit}")
    if tank.ammo_short_until >= state.turn and tank.ammo_short_until >= 0:
        out.append("ammo")
    if tank.veteran and (state.options.get("veteran_gunner") or state.options.get("veteran_gunner_per_fire_type")):
        out.append(f"vet{tank.veteran}")
    if tank.specials:
        out.append(f"{len(tank.specials)}sp")
    return out


#: What each marker word on the map means (the legend prints it).
MARKER_WORDS = (
    ("fired", "fired this turn, or locked by its defensive fire"),
    ("immob", "immobilised (HESH)"),
    ("no gun", "weapon destroyed (HESH)"),
    ("lit+N", "forced spotting: +N to be hit"),
    ("ammo", "short of ammunition"),
    ("vetN", "veteran gunner: +N to hit"),
    ("Nsp", "N special rounds loaded"),
    ("wreck", "a wreck (blocks sight)"),
)

#: Centre-to-corner size of a hex in pixels: the largest that keeps the biggest bundled map
#: (14 columns) within a 1200-pixel-wide screen, so the counters' text stays readable.
HEX_SIZE = 52.0


def describe_position(state: GameState) -> Picture:
    """Glyphs for every living tank (hull arrow, turret line) and markers for wrecks and
    tank markers. A counter shows the tank's number and class letter in English (the legend
    names the model)."""
    units, markers = [], []
    for tank in state.living():
        assert tank.hex is not None
        spec = tank.spec
        units.append(UnitGlyph(
            tank.hex, f"#{tank.id}", SIDE_COLORS[tank.side], HexsideFacing(tank.hull),
            turret=None if spec.turretless else HexsideFacing(tank.turret),
            sublabel=spec.vehicle_class[0].upper(),
        ))
        marks = _markers(state, tank)
        if marks:
            markers.append(Marker(tank.hex, " ".join(marks), "#f6e05e"))
    for h in state.wrecks:
        markers.append(Marker(h, "wreck", "#4a4a4a", "white"))
    return Picture(tuple(units), tuple(markers))


def legend_lines(state: GameState) -> list[tuple[str, str]]:
    """The legend below the map, as (colour, text) lines: sides, what the counter's marks
    mean, each tank on the map, and the marker words."""
    lines = [(SIDE_COLORS[side], f"side {side}") for side in SIDES]
    lines.append(("#1a1a1a", "counter: #number and class (L light, M medium, H heavy); arrow: hull facing; "
                             "barrel with a dot: turret facing (none: turretless)"))
    for tank in state.living():
        assert tank.hex is not None
        turret = "" if tank.spec.turretless else f", turret {facing_name(tank.turret)}"
        lines.append((SIDE_COLORS[tank.side], f"#{tank.id} {tank.spec.name} ({tank.side}, {tank.spec.vehicle_class}) "
                                              f"in {hex_label(tank.hex)}, hull {facing_name(tank.hull)}{turret}"))
    lines.append(("#8a6d00", "markers: " + "; ".join(f"{word} = {meaning}" for word, meaning in MARKER_WORDS)))
    return lines


def render_position(state: GameState) -> str:
    """The SVG text of the position: the map, then its legend."""
    picture = describe_position(state)
    name = state.map.name.split(" (")[0]  # the English name; the source's is in the docs
    title = (f"{name} — turn {state.turn}/{state.scenario.turn_limit}, "
             f"score A {state.score['A']} : B {state.score['B']}")
    layout = PixelLayout.for_offset(state.map.hexmap.layout, HEX_SIZE)
    board = render_hex_map(state.map.hexmap, terrain_colors=TERRAIN_COLORS, units=picture.units,
                           markers=picture.markers, label_base=1, legend=True, title=title, layout=layout)
    return with_legend(board, legend_lines(state))


def with_legend(board: str, lines: list[tuple[str, str]], *, font: float = 15.0) -> str:
    """``board`` (an SVG document) with ``lines`` of legend text below it, as one SVG."""
    return core_with_legend(board, lines, font=font)
