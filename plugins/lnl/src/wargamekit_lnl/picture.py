"""The position for people: a terminal summary (the CLI's ``?``) and an SVG picture."""

from __future__ import annotations

from wargamekit.geometry import HexsideFacing
from wargamekit.render import HexsideStyle, Marker, UnitGlyph, render_hex_map
from wargamekit_lnl.data import BRUSH, BUILDING, OPEN, WALL, WOODS
from wargamekit_lnl.rules import where
from wargamekit_lnl.scenario import SIDES, hex_label
from wargamekit_lnl.state import GameState, Unit

COLORS = {OPEN: "#ece6c9", BRUSH: "#b9c98a", WOODS: "#6f9a52", BUILDING: "#a0a0a8"}
SIDE_COLORS = {"us": "#556b2f", "german": "#4a5a78"}
SHORT = {"squad": "SQ", "half": "½", "team": "MG", "leader": "LDR", "hero": "HERO", "medic": "MED",
         "sniper": "SNP", "scout": "SCT", "crew": "CRW", "vehicle": "AFV"}


def status(u: Unit) -> str:
    """The unit's state and markers, short."""
    bits = []
    if u.shaken:
        bits.append("shaken")
    if u.wounded:
        bits.append("wounded")
    bits += sorted(u.markers)
    bits += [w.spec.name + (" (jammed)" if w.jammed else "") + (" (stowed)" if w.stowed else "") for w in u.weapons]
    return ", ".join(bits)


def summary(state: GameState) -> str:
    """Turn, phase, initiative, objectives, and every unit by hex with its state and markers."""
    lines = [f"Turn {state.turn} of {state.turns}, {state.phase} phase; initiative: {state.initiative}"]
    held = ", ".join(f"{hex_label(h)}={state.control.get(h, '-')}" for h in state.objectives)
    lines.append(f"Objectives: {held}")
    if state.smoke:
        lines.append("Smoke: " + ", ".join(f"{hex_label(h)} ({n})" for h, n in sorted(state.smoke.items(), key=lambda x: hex_label(x[0]))))
    if state.spotted:
        lines.append("Spotted: " + ", ".join(sorted(where(p) for p in state.spotted)))
    if state.melee:
        lines.append("Melee: " + ", ".join(sorted(where(p) for p in state.melee)))
    if state.wrecks:
        lines.append("Wrecks: " + ", ".join(sorted(hex_label(h) for h in state.wrecks)))
    hills = sorted(hex_label(h) for h in state.map.hexes() if state.elevation(h))
    if hills:
        lines.append("Hills (elevation 1): " + ", ".join(hills))
    if any(state.snipers.values()):
        lines.append("Snipers to place: " + ", ".join(f"{s} {n}" for s, n in sorted(state.snipers.items()) if n))
    for side in SIDES:
        lines.append(f"{side}:")
        for u in sorted(state.alive(side), key=lambda u: (hex_label(u.hex), u.level, u.id)):
            extra = ", ".join(x for x in (f"facing {u.facing}" if u.vehicle or u.spec.arrow else "", status(u)) if x)
            lines.append(f"  {where(u.place):7} {u.id:14} {u.type:12} {extra}")
    return "\n".join(lines)


def picture(state: GameState) -> str:
    """Counters by hex (stacks drawn shifted), state and markers on each counter, spotted,
    smoke and melee markers on the hexes, walls as hexside lines."""
    units = []
    for u in state.alive():
        sub = ("SHK " if u.shaken else "") + ("WND " if u.wounded else "") + \
              " ".join(m.upper()[:3] for m in sorted(u.markers)) + (" L1" if u.level else "")
        name = u.type.upper() if u.vehicle else SHORT[u.kind]
        facing = HexsideFacing(u.facing) if u.vehicle or u.spec.arrow else None
        turret = HexsideFacing(u.turret) if u.vehicle else None
        units.append(UnitGlyph(u.hex, f"{name} {u.id.split('-')[-1]}", SIDE_COLORS[u.side], facing, turret,
                               sublabel=sub.strip()))
    markers = [Marker(p[0], "SPOTTED" + (f"/{p[1]}" if p[1] else ""), color="#f6ad55") for p in sorted(state.spotted, key=lambda p: hex_label(p[0]))]
    markers += [Marker(h, f"SMOKE {n}", color="#cbd5e0") for h, n in sorted(state.smoke.items(), key=lambda x: hex_label(x[0]))]
    markers += [Marker(p[0], "MELEE", color="#fc8181") for p in sorted(state.melee, key=lambda p: hex_label(p[0]))]
    markers += [Marker(h, f"OBJ {state.control.get(h, '-')}", color="#faf089") for h in state.objectives]
    markers += [Marker(h, "HILL", color="#c4a66a") for h in state.map.hexes() if state.elevation(h)]
    markers += [Marker(h, "WRECK" + (f" x{n}" if n > 1 else ""), color="#718096", text_color="white")
                for h, n in sorted(state.wrecks.items(), key=lambda x: hex_label(x[0]))]
    return render_hex_map(state.map, terrain_colors=COLORS, units=units, markers=markers, label_base=1, legend=True,
                          hexside_styles={WALL: HexsideStyle("#5a4632", 0.14)},
                          title=f"LnL — turn {state.turn} of {state.turns}, {state.phase}")
