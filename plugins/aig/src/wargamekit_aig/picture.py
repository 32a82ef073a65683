"""The position as SVG (vertex-facing counters, leaders, banners, cohesion and status markers) and
as text for the terminal's ``?``."""

from __future__ import annotations

from wargamekit.geometry import PixelLayout
from wargamekit.render import Marker, UnitGlyph, render_hex_map
from wargamekit_aig.scenario import hex_label
from wargamekit_aig.state import CLEAR, HILL, IMPASSABLE, MARSH, ROUGH, WOODS, GameState

COLORS = {CLEAR: "#ece6c9", WOODS: "#7da65d", ROUGH: "#bfae8e", HILL: "#c9a66b", MARSH: "#9fc5b8",
          IMPASSABLE: "#5a5a5a"}
SIDE_COLORS = {"red": "#9b2c2c", "blue": "#2c5282"}
#: A finished leader's badge (§2.2.2: the counter shows "毕" once he has acted).
FINISHED_COLOR = "#a0aec0"
STATUS_COLORS = {"rout": "#e53e3e", "dis": "#ed8936", "banner": "#d69e2e"}
#: Hex size (centre to corner) in pixels: large enough that a counter's three lines of text are
#: at least 10 px high at the picture's own width.
HEX_SIZE = 60.0


def _unit_tag(name: str) -> str:
    """A unit's short tag: ``"Spanish horse 1"`` → ``"SH1"``, ``"Legion 5"`` → ``"Le5"``,
    ``"Triarii"`` → ``"Tria"``; a name of five characters or fewer stays (the rulebook's counter
    carries a short number, §2.2.1, not the unit's full name)."""
    if len(name) <= 5 and " " not in name:
        return name
    words = name.split()
    number = words[-1] if len(words) > 1 and words[-1].isdigit() else ""
    base = words[:-1] if number else words
    if len(base) == 1:
        return base[0][:2 if number else 4] + number
    return "".join(w[0].upper() for w in base) + number


def _leader_tag(name: str) -> str:
    """A leader's short tag: ``"Hannibal"`` → ``"Han"``, ``"Gallic chief"`` → ``"GaC"``."""
    words = name.split()
    if len(words) == 1:
        return name[:3]
    return words[0][:2] + "".join(w[0].upper() for w in words[1:])


def tags(state: GameState) -> dict[str, str]:
    """The short tag of every leader and unit (leaders first), unique over both: counters and
    badges show it, :func:`summary` prints it beside the full name. A clash gets ``.2``, ``.3``."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    names = [(n, _leader_tag(n)) for n in state.leaders] + [(n, _unit_tag(n)) for n in state.units]
    for name, tag in names:
        n = 1
        while (tag if n == 1 else f"{tag}.{n}") in taken:
            n += 1
        out[name] = tag if n == 1 else f"{tag}.{n}"
        taken.add(out[name])
    return out


def picture(state: GameState) -> str:
    """Units as counters pointing at their corner (§7.1) with their type and missile letter, tag,
    and cohesion/TQ; badges for rout and disorder, each leader (his tag; grey once finished,
    §2.2.2) and each banner. Full names and leader values are in :func:`summary`."""
    names = tags(state)
    units = [UnitGlyph(u.hex, u.type + (f"·{u.missile}" if u.missile else ""), SIDE_COLORS[u.side], u.vertex,
                       sublabel=f"{names[u.name]} {u.cohesion}/{u.tq}")
             for u in state.live_units()]
    markers = []
    for u in state.live_units():
        if u.routed:
            markers.append(Marker(u.hex, "rout", color=STATUS_COLORS["rout"], text_color="white"))
        if u.disordered:
            markers.append(Marker(u.hex, "dis", color=STATUS_COLORS["dis"]))
    for ld in state.live_leaders():
        markers.append(Marker(ld.hex, names[ld.name], color=FINISHED_COLOR if ld.finished else SIDE_COLORS[ld.side],
                              text_color="#1a1a1a" if ld.finished else "white"))
    for side, banner in state.banners.items():
        where = state.banner_hex(side)
        if where is not None:
            markers.append(Marker(where, "flag" + ("!" if banner.captured else ""), color=STATUS_COLORS["banner"]))
    title = f"{state.title} — turn {state.turn}, {state.phase or 'setup'}"
    return render_hex_map(state.map, terrain_colors=COLORS, units=units, markers=markers, label_base=1,
                          legend=True, title=title, layout=PixelLayout.for_offset(state.map.layout, HEX_SIZE))


def summary(state: GameState) -> str:
    """A readable account of the position for the terminal."""
    lines = [f"{state.title}: turn {state.turn} ({state.phase or 'setup'}); "
             f"rout points red {state.rout_points['red']}/{state.withdrawal['red']}, "
             f"blue {state.rout_points['blue']}/{state.withdrawal['blue']}"]
    names = tags(state)
    for side in ("red", "blue"):
        lines.append(f"{side}:")
        for ld in state.live_leaders(side):
            flags = " finished" if ld.finished else ""
            flags += " skip" if ld.skip else ""
            flags += " banner" if state.carries_banner(ld) else ""
            lines.append(f"  leader {ld.name:14} [{names[ld.name]}] {hex_label(ld.hex)} {ld.rank:8} "
                         f"range {ld.range} initiative {ld.initiative} group orders {ld.group_orders or '-'} "
                         f"charisma {ld.charisma}{flags}")
        for u in state.live_units(side):
            flags = " ROUTED" if u.routed else ""
            flags += " disordered" if u.disordered else ""
            ammo = f" ammo {u.ammo}" if u.missile else ""
            tag = "" if names[u.name] == u.name else f" [{names[u.name]}]"
            lines.append(f"  {u.type} {u.name:8}{tag} {hex_label(u.hex)} corner {u.facing} "
                         f"cohesion {u.cohesion}/{u.tq}{ammo}{flags}")
    return "\n".join(lines)
