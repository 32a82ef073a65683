"""4. Movement: where a unit may go, and the facing it may take."""

from __future__ import annotations

import networkx as nx

from wargamekit.geometry import Hex, HexMap
from wargamekit_skirmish.state import SkirmishState, Unit

#: 4.2 Facing: hexside numbers on this flat-top map, as a player reads them.
HEXSIDE_NAMES = ("south-east", "north-east", "north", "north-west", "south-west", "south")
#: The facings in the order a menu offers them: clockwise from north.
CLOCKWISE = (2, 1, 0, 5, 4, 3)


def destinations(state: SkirmishState, unit: Unit) -> list[Hex]:
    """4.1 Hexes the unit can reach with its movement points (clear 1, woods 2, hill 2), not
    entering or ending in another unit's hex; staying put is allowed. Sorted by cost, then hex.

    The same hexes and costs as ``state.map.reachable(unit.hex, unit.move, "infantry",
    blocked=...)``; hot (every activation): on a map this small networkx's search of the map's
    graph costs a third of the core's whole-map scipy search.
    """
    others = {u.hex for u in state.alive() if u is not unit}
    reach = nx.single_source_dijkstra_path_length(
        movement_graph(state.map), unit.hex, cutoff=unit.move,
        # no entering another unit's hex: networkx leaves out an edge whose weight is None
        weight=lambda _here, there, edge: None if there in others else edge["cost"],
    )
    # by cost, then by hex: (q, r), the hexes' own order, without attrs' comparison per pair (hot)
    return sorted(reach, key=lambda h: (reach[h], h.q, h.r))


def movement_graph(hexmap: HexMap) -> nx.DiGraph:
    """The map as a graph: an edge from each hex into each neighbour it may enter, with the
    cost of that move (1. Terrain) as its ``cost``.

    Built once per map content (its size, layout and layers; the skirmish's terrain chart)
    and kept: a game's map never changes after set-up, and a scenario's games share one map.
    """
    key = (hexmap.width, hexmap.height, hexmap.layout, hexmap.terrain.tobytes(), hexmap.hexsides.tobytes())
    graph = _GRAPHS.get(key)
    if graph is None:
        graph = nx.DiGraph()
        for here in hexmap.hexes():
            graph.add_node(here)
            for there in hexmap.neighbours(here):
                cost = hexmap.movement_cost(here, there, "infantry")
                if cost != float("inf"):
                    graph.add_edge(here, there, cost=cost)
        if len(_GRAPHS) >= 16:  # a few maps in use at a time: keep the memory bounded
            _GRAPHS.clear()
        _GRAPHS[key] = graph
    return graph


#: map content -> its movement graph (see :func:`movement_graph`)
_GRAPHS: dict[tuple, nx.DiGraph] = {}
