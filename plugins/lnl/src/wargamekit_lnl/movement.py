"""MOV — movement (移动), CRL — crawl (匍匐), STL — stealth (潜行), AST — assault move (突击)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from wargamekit.geometry import Hex
from wargamekit_lnl.data import BRUSH, BUILDING, LEVEL_COST, WOODS
from wargamekit_lnl.los import map_memo
from wargamekit_lnl.melee import can_melee
from wargamekit_lnl.scenario import SIDES
from wargamekit_lnl.state import GameState, Unit, stacking_totals

__all__ = ["MODES", "allowance", "modes_for", "step_cost", "steps"]

MODES = ("normal", "crawl", "stealth", "assault")
#: SW 3.2: MP to pick up a loose SW during a move.
PICKUP_COST = 2


def modes_for(movers: Sequence[Unit]) -> list[str]:
    """Which kinds of movement the stack may use: crawl not for weapon teams (CRL 1.2); stealth
    only if every mover has a yellow MP border (STL 1; A19: leaders and heroes never); assault
    if every mover has a red border or is a hero, a leader joining assault-capable units
    (AST 1.1) counting as one; shaken units move only normally (A13)."""
    out = ["normal"]
    if any(u.shaken for u in movers):
        return out
    if all(u.kind != "team" for u in movers):
        out.append("crawl")
    if all(u.spec.border == "stealth" for u in movers):
        out.append("stealth")
    capable = [u for u in movers if u.spec.border == "assault" or u.kind == "hero"]
    if capable and all(u in capable or u.kind == "leader" for u in movers):
        out.append("assault")
    return out


def allowance(movers: Sequence[Unit], mode: str) -> int:
    """MP of the stack: each mover's MP (−2 for a single-man counter with an SW, MOV 1.1), +2
    forced march with a Good Order leader but never above the leader's printed MP (MOV 2.1,
    A16; not with stealth, STL 3), halved rounding up for stealth and assault (STL 5, AST 2,
    A16: after the forced march); the slowest mover sets the stack's MP (MOV 2)."""
    leaders = [u for u in movers if u.kind == "leader" and u.good_order]
    cap = max((u.spec.mp for u in leaders), default=0)
    values = []
    for u in movers:
        mp = u.spec.mp - (2 if u.spec.single_man and u.weapons else 0)
        if leaders and mode != "stealth" and u.kind != "leader":
            mp = max(mp, min(mp + 2, cap))
        if mode in ("stealth", "assault"):
            mp = math.ceil(mp / 2)
        values.append(mp)
    return max(0, min(values))


def step_cost(state: GameState, frm: Hex, to: Hex, movers: Sequence[Unit]) -> int:
    """MOV 1 / MOV 3 / D2: the cost to enter ``to`` from ``frm``; with a scout in the stack, brush
    and woods cost 1 (MOV 1.2)."""
    return _cost(state, frm, to, any(u.kind == "scout" for u in movers))


def _cost(state: GameState, frm: Hex, to: Hex, scout: bool) -> int:
    terrain = state.terrain(to)
    if scout and terrain in (BRUSH, WOODS):
        base = 1
    else:
        base = int(state.map.table.terrain[terrain].cost)
    if state.wall(frm, frm.direction_to(to)):
        base += 1
    return base


def steps(state: GameState, movers: Sequence[Unit], at: tuple[Hex, int], spent: int, total: int, mode: str,
          moved: int) -> list[tuple[Hex, int, int]]:
    """The places the stack may enter next, with their costs: adjacent hexes (ground level) and
    the other level of a building (LEVEL_COST), within the MP left, or the always-one-hex
    minimum (MOV 4: not for shaken movers, not ending adjacent to an enemy; A17: not into an
    enemy hex). Crawl: one hex with all MP, not into a hex costing all of it (CRL 1, CRL 1.3).
    Assault: not into an enemy hex (AST 1.3), not a hex costing all of it (AST 1.2). Friends
    may be passed through within stacking (MOV 5). A hex under a melee marker may be entered
    (a reinforcement move, MEL 1.5) even after its melee this turn; any other enemy hex only if
    no melee was fought there this turn (MEL 4)."""
    side = movers[0].side
    here, level = at
    left = total - spent
    out: list[tuple[Hex, int, int]] = []
    if mode == "crawl" and moved > 0:
        return out
    _listed, candidates, keys, columns = _entry_table(state, here, level, any(u.kind == "scout" for u in movers))
    # Who stands where, read once (this menu is built at every step of every move: a scan of
    # all units per candidate place and side was most of its cost); in set-up order, as state.at.
    # Only the candidate places are kept (a unit's key made only in their columns), and the
    # movers by identity (``in`` on units compares every field, attrs' __eq__).
    friends_at: dict[tuple[int, int, int], list[Unit]] = {}
    enemies_at: dict[tuple[int, int, int], list[Unit]] = {}  # every unit has one of the two sides
    mover_ids = {id(u) for u in movers}
    for u in state.units.values():
        h = u.hex
        if h.q in columns and u.alive:
            key = (h.q, h.r, u.level)
            if key in keys:
                if u.side != side:
                    enemies_at.setdefault(key, []).append(u)
                elif id(u) not in mover_ids:
                    friends_at.setdefault(key, []).append(u)
    # SET 3: the movers' stacking counts once; each hex adds its friends' (stacking_ok of both).
    squads, men, vehicles = stacking_totals(movers)
    melee, fought, wrecks = state.melee, state.melee_fought, state.wrecks
    attackers: bool | None = None  # whether a mover can start a melee (MEL 1.1), asked once if needed
    for h, lvl, cost, key in candidates:
        there = enemies_at.get(key)
        enemies = False
        if there:
            if any(v.vehicle for v in there):
                continue  # IVV 1: infantry attack vehicles from next door, never by entering their hex
            enemies = True  # (none of them a vehicle)
            if mode in ("assault", "crawl") or ((h, lvl) in fought and (h, lvl) not in melee):
                continue  # AST 1.3; MEL 4 one melee per hex per turn (a locked melee takes reinforcements, MEL 1.5)
            if attackers is None:
                attackers = any(can_attack(u) for u in movers)
            if not attackers:
                continue
        if mode in ("assault", "crawl") and cost >= total:
            continue
        wrecked = wrecks.get(h, 0) if wrecks else 0  # (seldom any: a hex's hash is a Python call)
        friends = friends_at.get(key)
        if friends:
            f_squads, f_men, f_vehicles = stacking_totals(friends)
            if not (squads + f_squads <= 3 and men + f_men <= 2 and vehicles + f_vehicles + wrecked <= 2):
                continue
        elif not (squads <= 3 and men <= 2 and vehicles + wrecked <= 2):
            continue
        if cost <= left:
            out.append((h, lvl, cost))
        elif moved == 0 and spent == 0 and total >= 1 and mode != "crawl" and not enemies \
                and all(u.good_order for u in movers) and not _adjacent_enemy(state, h, side):
            out.append((h, lvl, left))  # MOV 4: the minimum move spends what is left
    if mode == "crawl":
        out = [(h, lvl, left) for h, lvl, _c in out]
    return out


def _entries(state: GameState, here: Hex, level: int, scout: bool) -> tuple[tuple[Hex, int, int], ...]:
    """The places the stack at ``(here, level)`` could enter with their costs, as the map has
    them: the hexes next to ``here`` at ground level with :func:`step_cost` to enter each, in
    the map's neighbour order, then the other level of a building (LEVEL_COST)."""
    return _entry_table(state, here, level, scout)[0]


def _entry_table(state: GameState, here: Hex, level: int, scout: bool) -> tuple[
        tuple[tuple[Hex, int, int], ...], tuple[tuple[Hex, int, int, tuple[int, int, int]], ...],
        frozenset[tuple[int, int, int]], frozenset[int]]:
    """:func:`_entries`; the same entries each with its place as coordinates (``(q, r, level)``,
    the step menu's key of who stands there); those keys as a set; and the map columns they lie
    in. Memoized by the map (the menu of every step of every move asked the terrain, its table
    and the wall of each hexside afresh, and made the keys again; the map never changes, SET 2)."""
    memo = map_memo(state.map, "steps")
    key = (here.q, here.r, level, scout)
    found = memo.get(key)
    if found is None:
        entries = tuple((h, 0, _cost(state, here, h, scout)) for h in state.map.neighbours(here))
        if state.terrain(here) == BUILDING:
            entries += ((here, 1 - level, LEVEL_COST),)
        keyed = tuple((h, lvl, cost, (h.q, h.r, lvl)) for h, lvl, cost in entries)
        found = memo[key] = (entries, keyed, frozenset(e[3] for e in keyed), frozenset(h.q for h, _l, _c in entries))
    return found


def _other(state: GameState, side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def _adjacent_enemy(state: GameState, h: Hex, side: str) -> bool:
    return any(e.hex.distance(h) <= 1 for e in state.alive() if e.side != side)


def can_attack(unit: Unit) -> bool:
    """A mover that can initiate the melee its entry starts (MEL 1.1)."""
    return can_melee(unit, attacking=True)
