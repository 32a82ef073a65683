"""SVG of a position: terrain, hulls and turrets, wrecks and markers (标志表), drawn by the core
renderer :func:`wargamekit.render.render_hex_map`.

:func:`describe_position` turns the state into glyphs (pure, testable);
:func:`render_position` draws them.
"""

from __future__ import annotations

from attrs import frozen

from wargamekit.geometry import HexsideFacing
from wargamekit.render import Marker, UnitGlyph, render_hex_map

from .scenario import SIDES
from .state import GameState, Tank

__all__ = ["SIDE_COLORS", "TERRAIN_COLORS", "Picture", "describe_position", "render_position"]

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


def describe_position(state: GameState) -> Picture:
    """Glyphs for every living tank (hull arrow, turret line) and markers for wrecks and
    tank markers."""
    units, markers = [], []
    for tank in state.living():
        assert tank.hex is not None
        spec = tank.spec
        units.append(UnitGlyph(
            tank.hex, f"{spec.source_name}", SIDE_COLORS[tank.side], HexsideFacing(tank.hull),
            turret=None if spec.turretless else HexsideFacing(tank.turret),
            sublabel=f"#{tank.id} {spec.vehicle_class[0].upper()}",
        ))
        marks = _markers(state, tank)
        if marks:
            markers.append(Marker(tank.hex, " ".join(marks), "#f6e05e"))
    for h in state.wrecks:
        markers.append(Marker(h, "wreck", "#4a4a4a", "white"))
    return Picture(tuple(units), tuple(markers))


def render_position(state: GameState) -> str:
    """The SVG text of the position."""
    picture = describe_position(state)
    title = (f"{state.map.name} — turn {state.turn}/{state.scenario.turn_limit}, "
             f"score A {state.score['A']} : B {state.score['B']}")
    return render_hex_map(state.map.hexmap, terrain_colors=TERRAIN_COLORS, units=picture.units,
                          markers=picture.markers, label_base=1, legend=True, title=title)
