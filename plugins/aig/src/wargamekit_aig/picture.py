"""The position as SVG (vertex-facing counters, leaders, banners, cohesion and status markers) and
as text for the terminal's ``?``."""

from __future__ import annotations

from wargamekit.render import Marker, UnitGlyph, render_hex_map
from wargamekit_aig.scenario import hex_label
from wargamekit_aig.state import CLEAR, HILL, IMPASSABLE, MARSH, ROUGH, WOODS, GameState

COLORS = {CLEAR: "#ece6c9", WOODS: "#7da65d", ROUGH: "#bfae8e", HILL: "#c9a66b", MARSH: "#9fc5b8",
          IMPASSABLE: "#5a5a5a"}
SIDE_COLORS = {"red": "#9b2c2c", "blue": "#2c5282"}
STATUS_COLORS = {"rout": "#e53e3e", "dis": "#ed8936", "hits": "#f6e05e", "leader": "#e2e8f0",
                 "banner": "#d69e2e"}


def _status(unit_hits: int, tq: int, routed: bool, disordered: bool) -> str:
    parts = [f"TQ{tq}", f"{tq - unit_hits} coh"]
    if routed:
        parts.append("ROUT")
    if disordered:
        parts.append("DIS")
    return " ".join(parts)


def picture(state: GameState) -> str:
    """Units as counters pointing at their corner (§7.1); markers for hits, rout, disorder,
    leaders (finished ones marked "done", §2.2.2) and banners."""
    units = [UnitGlyph(u.hex, f"{u.type} {u.name}", SIDE_COLORS[u.side], u.vertex,
                       sublabel=_status(u.hits, u.tq, u.routed, u.disordered))
             for u in state.live_units()]
    markers = []
    for u in state.live_units():
        if u.hits:
            markers.append(Marker(u.hex, f"{u.hits} hit{'s' * (u.hits > 1)}", color=STATUS_COLORS["hits"]))
        if u.routed:
            markers.append(Marker(u.hex, "rout", color=STATUS_COLORS["rout"], text_color="white"))
        if u.disordered:
            markers.append(Marker(u.hex, "disorder", color=STATUS_COLORS["dis"]))
    for ld in state.live_leaders():
        text = f"{ld.name} {ld.range}-{ld.initiative}-{ld.group_orders or '-'}-{ld.charisma}"
        if ld.finished:
            text += " done"
        markers.append(Marker(ld.hex, text, color=SIDE_COLORS[ld.side], text_color="white"))
    for side, banner in state.banners.items():
        where = state.banner_hex(side)
        if where is not None:
            markers.append(Marker(where, f"{side} banner" + (" (taken)" if banner.captured else ""),
                                  color=STATUS_COLORS["banner"]))
    title = f"{state.title} — turn {state.turn}, {state.phase or 'setup'}"
    return render_hex_map(state.map, terrain_colors=COLORS, units=units, markers=markers, label_base=1,
                          legend=True, title=title)


def summary(state: GameState) -> str:
    """A readable account of the position for the terminal."""
    lines = [f"{state.title}: turn {state.turn} ({state.phase or 'setup'}); "
             f"rout points red {state.rout_points['red']}/{state.withdrawal['red']}, "
             f"blue {state.rout_points['blue']}/{state.withdrawal['blue']}"]
    for side in ("red", "blue"):
        lines.append(f"{side}:")
        for ld in state.live_leaders(side):
            flags = " finished" if ld.finished else ""
            flags += " skip" if ld.skip else ""
            flags += " banner" if state.carries_banner(ld) else ""
            lines.append(f"  leader {ld.name:14} {hex_label(ld.hex)} {ld.rank:8} "
                         f"{ld.range}-{ld.initiative}-{ld.group_orders or '-'}-{ld.charisma}{flags}")
        for u in state.live_units(side):
            flags = " ROUTED" if u.routed else ""
            flags += " disordered" if u.disordered else ""
            ammo = f" ammo {u.ammo}" if u.missile else ""
            lines.append(f"  {u.type} {u.name:8} {hex_label(u.hex)} corner {u.facing} "
                         f"cohesion {u.cohesion}/{u.tq}{ammo}{flags}")
    return "\n".join(lines)
