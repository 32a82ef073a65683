"""The terminal summary of a position (what ``?`` shows a human player)."""

from __future__ import annotations

from .maps import hex_label
from .scenario import SIDES
from .special_rounds import KIND_NAMES
from .state import GameState, Tank

__all__ = ["ascii_map", "summarise", "tank_line"]


def tank_line(state: GameState, tank: Tank) -> str:
    """One line per tank: name, class, place and facings, and its markers."""
    spec = tank.spec
    rng = "/".join(str(g.range) for g in spec.guns)
    atk = "/".join(str(g.attack) for g in spec.guns)
    marks = []
    if tank.fired:
        marks.append("fired")
    if tank.defensive_lock:
        marks.append("locked (defensive fire)")
    if tank.immobilised:
        marks.append("immobilised")
    if tank.weapon_destroyed:
        marks.append("weapon destroyed")
    if tank.engine_dead_until >= state.turn:
        marks.append("engine failed")
    if tank.ammo_short(state.turn) or tank.ammo_short_until > state.turn:
        marks.append(f"ammo short to turn {tank.ammo_short_until}")
    if tank.lit:
        marks.append(f"lit {tank.lit:+d} to be hit")
    if tank.veteran and (state.options.get("veteran_gunner") or state.options.get("veteran_gunner_per_fire_type")):
        marks.append(f"veteran {tank.veteran}")
    if tank.specials:
        names = [KIND_NAMES.get(k, k).split(" (")[0] for k in tank.specials]
        marks.append("specials: " + ", ".join(names))
    rot = "" if spec.turretless else f", turret {tank.rotations_left()}/{spec.turret_rotations} rot"
    return (f"  #{tank.id:<2} {spec.name:<24} {spec.vehicle_class:<6} {tank.where():<24} "
            f"MP {spec.movement} rng {rng} atk {atk} arm {spec.armour}{rot}"
            + (f"  [{'; '.join(marks)}]" if marks else ""))


def ascii_map(state: GameState) -> str:
    """The map as text: one cell per hex (``.`` clear, ``F`` forest, ``M`` mountain, ``~`` river,
    ``x`` wreck, ``A3``/``B7`` tank #3 of A / #7 of B). Even-numbered columns sit half a hex lower."""
    m = state.map
    where = {t.hex: f"{t.side}{t.id}" for t in state.living()}
    wrecks = set(state.wrecks)
    letters = {".": ".", "F": "F", "M": "M", "R": "~"}
    head = "    " + "".join(f"{c + 1:02d} " for c in range(m.width))
    lines = ["map: . clear  F forest  M mountain  ~ river  x wreck  A3 tank #3 of A "
             "(even columns sit half a hex lower)", head]
    for r in range(m.height):
        cells = []
        for c in range(m.width):
            h = m.hexmap.hex_at(c, r)
            cells.append((where.get(h) or ("x" if h in wrecks else letters[m.rows[r][c]])).ljust(3))
        lines.append(f"{r + 1:02d}  " + "".join(cells).rstrip())
    return "\n".join(lines)


def summarise(state: GameState) -> str:
    """A few lines describing the position."""
    lines = [
        f"tank_solo on {state.map.name} — turn {state.turn}/{state.scenario.turn_limit}, "
        f"active {state.active or '-'}, phase {state.phase}, free points {state.free_pool}",
        "score " + ", ".join(f"{s} {state.score[s]}" for s in SIDES)
        + " | spent " + ", ".join(f"{s} {state.points_spent[s]}" for s in SIDES),
    ]
    for side in SIDES:
        zone = f"{state.zones[side]} zone" if side in state.zones else "zone not chosen yet"
        living = state.living(side)
        lines.append(f"side {side} ({zone}, {len(living)} tank{'s' if len(living) != 1 else ''} on the map):")
        lines.extend(tank_line(state, t) for t in living)
        undeployed = [t for t in state.tanks if t.side == side and t.hex is None]
        if undeployed:
            lines.append("  to deploy: " + ", ".join(t.name for t in undeployed))
    if state.wrecks:
        lines.append("wrecks: " + " ".join(hex_label(h) for h in state.wrecks))
    lines.append(ascii_map(state))
    return "\n".join(lines)
