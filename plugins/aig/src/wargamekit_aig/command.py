"""§4 Leaders: command range (§4.2.2), who is in melee (§4.2.6), leader movement (§4.2.5, §4.4.1)."""

from __future__ import annotations

import math

from wargamekit.geometry import Hex
from wargamekit_aig.facing import enemy_zoi, engaged_with
from wargamekit_aig.state import GameState, Leader, Unit

#: §4.1: every leader's movement allowance: 6 carrying the banner, 8 otherwise.
LEADER_MA, BANNER_MA = 8, 6


def _blocked(state: GameState, side: str) -> set[Hex]:
    """§4.2.2: enemy units and enemy ZOI block a command path; Q5 reading: a hex holding a
    friendly combat unit counts as free of enemy ZOI (as §4.4.2 says for evasion)."""
    enemies = {u.hex for u in state.live_units() if u.side != side and not u.routed}
    friends = {u.hex for u in state.live_units(side)}
    return enemies | (enemy_zoi(state, side) - friends)


def command_distances(state: GameState, leader: Leader, reach: int | None = None) -> dict[Hex, float]:
    """§4.2.2: hexes reachable from the leader by a path of at most ``reach`` hexes (default his
    command range) not blocked by enemy units, enemy ZOI or impassable terrain."""
    limit = leader.range if reach is None else reach
    blocked = _blocked(state, leader.side) - {leader.hex}
    return state.map.reachable(leader.hex, limit, "command", blocked=blocked)


def in_range(state: GameState, leader: Leader, unit: Unit, *, twice: bool = False) -> bool:
    """§4.2.2 (individual orders) or §4.2.4 (group orders: twice the range)."""
    reach = leader.range * (2 if twice else 1)
    return unit.hex in command_distances(state, leader, reach)


def leader_in_range(state: GameState, leader: Leader, other: Leader) -> bool:
    """Whether ``other`` stands within ``leader``'s command range (§4.3.1.d, §4.3.2.a)."""
    return other.hex in command_distances(state, leader)


def in_melee(state: GameState, leader: Leader) -> bool:
    """§4.2.6: a leader is in melee when the unit he is stacked with is engaged."""
    unit = state.stacked_unit(leader)
    return unit is not None and bool(engaged_with(state, unit))


def leader_ma(state: GameState, leader: Leader) -> int:
    """§4.1: 6 with the banner, 8 without."""
    return BANNER_MA if state.carries_banner(leader) else LEADER_MA


def leader_destinations(state: GameState, leader: Leader, mp: float | None = None) -> dict[Hex, float]:
    """§4.2.5, §4.4.1: where an ordered leader may move with ``mp`` movement points (default his
    whole MA): not into enemy units, and not into enemy ZOI alone (a hex with a friendly combat
    unit is fine: he stacks with it, §4.4.1)."""
    enemies = {u.hex for u in state.live_units() if u.side != leader.side}
    friends = {u.hex for u in state.live_units(leader.side) if not u.routed}
    stop = enemy_zoi(state, leader.side) - friends
    budget = leader_ma(state, leader) if mp is None else mp
    reach = state.map.reachable(leader.hex, budget, "leader", blocked=(enemies | stop) - {leader.hex})
    return {h: c for h, c in reach.items() if math.isfinite(c)}
