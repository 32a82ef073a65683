"""Tests for HexMap: layers, movement costs, pathfinding, line of sight."""

import copy
import math
import pickle

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargamekit.geometry import (
    Hex,
    HexMap,
    HexsideFeature,
    OffMapError,
    OffsetLayout,
    TerrainTable,
    TerrainType,
)
from wargamekit.geometry import hexmap as hexmap_module

CLEAR, WOODS, MARSH, LAKE = 0, 1, 2, 3
RIVER, WALL = 1, 2
TABLE = TerrainTable(
    [
        TerrainType(CLEAR, "clear"),
        TerrainType(WOODS, "woods", 2, {"vehicle": 4}, los=2),
        TerrainType(MARSH, "marsh", 3, los=1),
        TerrainType(LAKE, "lake", math.inf),
    ],
    [HexsideFeature(RIVER, "river", 2, {"vehicle": math.inf}), HexsideFeature(WALL, "wall", 1)],
)


def H(label):
    return Hex.from_label(label)


def test_layer_shapes_and_offsets():
    """Layers are (width, height) arrays and off-map hexes raise OffMapError."""
    m = HexMap(6, 4, TABLE)
    assert m.terrain.shape == (6, 4) and m.hexsides.shape == (6, 4, 6)
    assert m.offset(H("0503")) == (5, 3)
    with pytest.raises(OffMapError):
        m.offset(H("0604"))
    with pytest.raises(ValueError):
        m.hex_at(-1, 0)
    with pytest.raises(ValueError):
        HexMap(2, 2, TABLE, terrain=np.zeros((3, 3), dtype=np.int16))



@pytest.mark.parametrize("layout", list(OffsetLayout))
def test_offset_agrees_with_hex_to_offset_in_every_layout(layout):
    """HexMap.offset (the default layout worked out inline) is Hex.to_offset on the map, the
    map's own layout read, and refuses every hex one step off each edge; the scalar layer
    reads through it (hexside) give Python ints."""
    m = HexMap(5, 4, TABLE, layout)
    for h in m.hexes():
        assert m.offset(h) == h.to_offset(layout)
        assert m.hex_at(*m.offset(h)) == h
    on_map = set(m.hexes())
    off = {n for h in on_map for n in h.neighbours()} - on_map
    assert off
    for h in off:
        with pytest.raises(OffMapError):
            m.offset(h)
    m.layout = OffsetLayout.ODD_Q if layout is not OffsetLayout.ODD_Q else OffsetLayout.EVEN_R
    assert all(m.offset(h) == h.to_offset(m.layout) for h in m.hexes())
    m.set_hexside(m.hex_at(1, 1), 2, WALL)
    assert type(m.hexside(m.hex_at(1, 1), 2)) is int and m.hexside(m.hex_at(1, 1), 2) == WALL

def test_hexside_seen_from_both_sides():
    """A hexside feature set on one side is seen from the neighbour's opposite side."""
    m = HexMap(5, 5, TABLE)
    h = H("0202")
    m.set_hexside(h, 0, RIVER)
    assert m.hexside(h, 0) == RIVER
    assert m.hexside(h.neighbour(0), 3) == RIVER
    assert m.hexside(h, 1) == 0


def test_movement_cost():
    """Entering cost = terrain cost for the unit type + hexside extra."""
    m = HexMap(5, 5, TABLE)
    a = H("0202")
    b = a.neighbour(0)
    m.set_terrain(b, WOODS)
    assert m.movement_cost(a, b, "infantry") == 2
    assert m.movement_cost(a, b, "vehicle") == 4
    m.set_hexside(a, 0, RIVER)
    assert m.movement_cost(a, b, "infantry") == 4
    assert m.movement_cost(a, b, "vehicle") == math.inf


def test_a_step_s_kept_costs_are_the_table_s_and_follow_a_new_table_and_direct_layer_writes():
    """``movement_cost`` keeps the table's costs per unit type as lists (hexmap.py): every step
    of a map with every terrain and hexside code costs what the table's arrays give, a terrain
    code past the table is impassable, a layer written directly is read at the next step, and
    a table assigned or a deep copy's new table is the one priced."""
    rng = np.random.default_rng(3)
    m = HexMap(7, 6, TABLE)
    m.terrain[:] = rng.integers(0, 5, m.terrain.shape)  # code 4: past the table
    m.hexsides[:] = rng.integers(0, 3, m.hexsides.shape)

    def table_cost(m, a, b, unit):
        enter, sides = m.table.enter_costs(unit), m.table.hexside_costs(unit)
        code, side = int(m.terrain[m.offset(b)]), m.hexside(a, a.direction_to(b))
        return float((enter[code] if code < len(enter) else math.inf) + (sides[side] if side < len(sides) else 0.0))

    def check(m):
        steps = [(a, b) for a in m.hexes() for b in m.neighbours(a)]
        for unit in ("infantry", "vehicle"):
            assert [m.movement_cost(a, b, unit) for a, b in steps] == [table_cost(m, a, b, unit) for a, b in steps]
        return steps

    steps = check(m)
    assert any(m.terrain[m.offset(b)] == 4 for _, b in steps)
    a, b = steps[0]
    m.terrain[m.offset(b)] = WOODS  # a direct write, no invalidate(): the layer is read at each step
    m.hexsides[:] = 0
    assert m.movement_cost(a, b, "vehicle") == 4.0
    cheap = TerrainTable([TerrainType(CLEAR, "clear"), TerrainType(WOODS, "woods", 1)], [])
    m.table = cheap
    assert m.movement_cost(a, b, "vehicle") == 1.0
    check(m)
    twin = copy.deepcopy(m)
    twin.table = TABLE
    assert twin.movement_cost(a, b, "vehicle") == 4.0 and m.movement_cost(a, b, "vehicle") == 1.0


def test_path_goes_around_lake():
    """The cheapest path avoids impassable terrain and has the right cost."""
    m = HexMap(5, 5, TABLE)
    for label in ("0201", "0202", "0203"):
        m.set_terrain(H(label), LAKE)
    p = m.shortest_path(H("0002"), H("0402"), "infantry")
    assert p is not None and p.hexes[0] == H("0002") and p.hexes[-1] == H("0402")
    assert all(m.terrain[h.to_offset()] != LAKE for h in p.hexes)
    assert p.cost == len(p.hexes) - 1 == 6


def test_blocked_and_unreachable():
    """Blocked hexes are not entered; no path gives None."""
    m = HexMap(3, 1, TABLE)
    assert m.shortest_path(H("0000"), H("0200"), "infantry").cost == 2
    assert m.shortest_path(H("0000"), H("0200"), "infantry", blocked=[H("0100")]) is None
    mask = np.zeros((3, 1), dtype=bool)
    mask[1, 0] = True
    assert m.shortest_path(H("0000"), H("0200"), "infantry", blocked=mask) is None
    assert m.shortest_path(H("0000"), H("0200"), "infantry", blocked=lambda h: h == H("0100")) is None


def test_zoc_stops_movement():
    """A stop hex can be entered but not left; a unit starting in one may leave."""
    m = HexMap(4, 1, TABLE)
    zoc = [H("0100")]
    reach = m.reachable(H("0000"), 5, "infantry", stop=zoc)
    assert reach == {H("0000"): 0.0, H("0100"): 1.0}
    assert m.reachable(H("0100"), 2, "infantry", stop=zoc) == {
        H("0000"): 1.0, H("0100"): 0.0, H("0200"): 1.0, H("0300"): 2.0}


def test_reachable_allowance():
    """Reachable honours the allowance and terrain costs."""
    m = HexMap(5, 1, TABLE)
    m.set_terrain(H("0200"), MARSH)
    r = m.reachable(H("0000"), 3, "infantry")
    assert r == {H("0000"): 0.0, H("0100"): 1.0}
    assert m.reachable(H("0000"), 4, "infantry")[H("0200")] == 4.0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)))
def test_cost_field_matches_networkx(seed, layout):
    """The scipy cost field equals networkx Dijkstra on the same weighted grid."""
    rng = np.random.default_rng(seed)
    w, h = int(rng.integers(1, 9)), int(rng.integers(1, 9))
    m = HexMap(w, h, TABLE, layout, terrain=rng.integers(0, 4, (w, h)).astype(np.int16))
    for hx in m.hexes():
        for d in (0, 1, 2):
            if rng.random() < 0.2:
                m.set_hexside(hx, d, int(rng.integers(1, 3)))
    start = m.hex_at(int(rng.integers(0, w)), int(rng.integers(0, h)))
    for unit in ("infantry", "vehicle"):
        g = nx.DiGraph()
        g.add_nodes_from(m.hexes())
        for a in m.hexes():
            for b in m.neighbours(a):
                c = m.movement_cost(a, b, unit)
                if math.isfinite(c):
                    g.add_edge(a, b, weight=c)
        expected = nx.single_source_dijkstra_path_length(g, start)
        got = m.cost_field(start, unit)
        for hx in m.hexes():
            assert got[m.offset(hx)] == expected.get(hx, math.inf)


def test_line_of_sight_counts():
    """LOS counts blocking and hindering hexes between, excluding both ends."""
    m = HexMap(7, 3, TABLE, OffsetLayout.ODD_R)
    m.set_terrain(m.hex_at(0, 1), WOODS)  # origin: excluded
    m.set_terrain(m.hex_at(2, 1), MARSH)
    m.set_terrain(m.hex_at(4, 1), WOODS)
    m.set_terrain(m.hex_at(6, 1), WOODS)  # target: excluded
    los = m.line_of_sight(m.hex_at(0, 1), m.hex_at(6, 1))
    assert (los.clear, los.blocking, los.hindering) == (False, 1, 1)
    assert los.between == tuple(m.hex_at(c, 1) for c in range(1, 6))
    wreck = np.zeros((7, 3), dtype=bool)
    wreck[3, 1] = True
    assert m.line_of_sight(m.hex_at(0, 1), m.hex_at(6, 1), blocking=wreck).blocking == 2
    assert m.line_of_sight(m.hex_at(0, 1), m.hex_at(1, 1)).clear


def test_elevation_hook():
    """An elevation hook can declare a hex seen over."""
    m = HexMap(5, 1, TABLE, OffsetLayout.ODD_R)
    m.set_terrain(m.hex_at(2, 0), WOODS)
    m.elevation[0, 0] = 3
    hook = lambda h, he, ea, eb: max(ea, eb) > he  # noqa: E731
    assert not m.line_of_sight(m.hex_at(0, 0), m.hex_at(4, 0)).clear
    assert m.line_of_sight(m.hex_at(0, 0), m.hex_at(4, 0), elevation_hook=hook).clear


def test_edge_running_line_worse_side():
    """With edge="worse" a line along hexsides is hindered if either side is."""
    m = HexMap(5, 5, TABLE)
    a = H("0102")
    b = a + Hex(2, -1)  # a corner-line target: the line runs along hexsides
    plus = m.line_of_sight(a, b).between
    minus = m.line_of_sight(a, b, edge="better").between
    m.set_terrain(a + Hex(1, -1), MARSH)
    assert a + Hex(1, -1) not in plus
    assert m.line_of_sight(a, b).hindering == 0
    assert m.line_of_sight(a, b, edge="worse").hindering == 1
    assert m.line_of_sight(a, b, edge="better").hindering == 0
    assert minus == plus
    with pytest.raises(ValueError):
        m.line_of_sight(a, b, edge="sideways")


def _walled_table(wall_los):
    return TerrainTable([TerrainType(CLEAR, "clear")],
                        [HexsideFeature(RIVER, "river", 2), HexsideFeature(WALL, "wall", 1, los=wall_los)])


def test_hexside_los_default_has_no_effect():
    """Hexside features have no LOS effect unless their table entry gives one."""
    m = HexMap(7, 1, TABLE, OffsetLayout.ODD_R)
    m.set_hexside(m.hex_at(2, 0), 0, WALL)
    assert TABLE.hexside_los_classes().tolist() == [0, 0, 0]
    assert m.hexside_los_class() is None
    los = m.line_of_sight(m.hex_at(0, 0), m.hex_at(6, 0))
    assert (los.blocking, los.hindering) == (0, 0)


def test_hexside_los_counts_each_crossing():
    """A hindering wall counts once per crossing; blocking walls block; the ends' own hexsides count only if asked."""
    m = HexMap(7, 1, _walled_table(1), OffsetLayout.ODD_R)  # one row: direction 0 is east
    a, b = m.hex_at(0, 0), m.hex_at(6, 0)
    m.set_hexside(m.hex_at(2, 0), 0, WALL)  # between columns 2 and 3
    m.set_hexside(m.hex_at(4, 0), 0, WALL)  # between columns 4 and 5
    m.set_hexside(m.hex_at(3, 0), 0, RIVER)  # no LOS effect
    assert m.hexside_los_class()[2, 0].tolist() == [1, 0, 0, 0, 0, 0]
    assert m.hexside_los_class()[3, 0].tolist() == [0, 0, 0, 1, 0, 0]
    los = m.line_of_sight(a, b)
    assert (los.clear, los.blocking, los.hindering) == (True, 0, 2)
    m.set_hexside(a, 0, WALL)  # the origin's own hexside
    assert m.line_of_sight(a, b).hindering == 2
    assert m.line_of_sight(a, b, hexside_at_ends=True).hindering == 3
    assert m.line_of_sight(a, m.hex_at(1, 0)).hindering == 0
    assert m.line_of_sight(a, m.hex_at(1, 0), hexside_at_ends=True).hindering == 1
    blocking = HexMap(7, 1, _walled_table(2), OffsetLayout.ODD_R, hexsides=m.hexsides.copy())
    los = blocking.line_of_sight(a, b)
    assert (los.clear, los.blocking, los.hindering) == (False, 2, 0)
    pa, pb = np.array([[a.q, a.r]] * 2), np.array([[b.q, b.r], [m.hex_at(1, 0).q, m.hex_at(1, 0).r]])
    assert [x.tolist() for x in m.line_of_sight_batch(pa, pb)] == [[0, 0], [2, 0]]
    assert [x.tolist() for x in m.line_of_sight_batch(pa, pb, hexside_at_ends=True)] == [[0, 0], [3, 1]]
    assert [x.tolist() for x in blocking.line_of_sight_batch(pa, pb)] == [[2, 0], [0, 0]]
    assert [x.tolist() for x in blocking.line_of_sight_batch(pa, pb, stop_after_blocking=1)] == [[1, 0], [0, 0]]


def _random_move_map(rng, layout):
    w, h = int(rng.integers(1, 14)), int(rng.integers(1, 14))
    m = HexMap(w, h, TABLE, layout, terrain=rng.choice([0, 0, 1, 2, 3], size=(w, h)).astype(np.int16))
    for hx in m.hexes():
        for d in (0, 1, 2):
            if rng.random() < 0.15:
                m.set_hexside(hx, d, int(rng.integers(1, 3)))
    return m


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)))
def test_limited_search_equals_full_search(seed, layout):
    """A limited cost field / reachable set (searched on a block of the map) equals the full field cut at the limit."""
    rng = np.random.default_rng(seed)
    m = _random_move_map(rng, layout)
    starts = [m.hex_at(int(rng.integers(0, m.width)), int(rng.integers(0, m.height))) for _ in range(int(rng.integers(1, 3)))]
    blocked = rng.random((m.width, m.height)) < 0.1
    zoc = [hx for hx in m.hexes() if rng.random() < 0.1]
    limit = float(rng.integers(0, 7))
    for unit in ("infantry", "vehicle"):
        full = m.cost_field(starts, unit, blocked=blocked, stop=zoc)
        cut = np.where(full <= limit, full, math.inf)
        assert np.array_equal(m.cost_field(starts, unit, blocked=blocked, stop=zoc, limit=limit), cut)
        pred = m.cost_field(starts, unit, blocked=lambda hx: bool(blocked[m.offset(hx)]), stop=set(zoc), limit=limit)
        assert np.array_equal(pred, cut)
        reach = m.reachable(starts[0], limit, unit, blocked=blocked, stop=zoc)
        one = m.cost_field(starts[0], unit, blocked=blocked, stop=zoc)
        assert reach == {hx: float(one[m.offset(hx)]) for hx in m.hexes() if one[m.offset(hx)] <= limit}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)))
def test_graph_is_scipys_own_csr(seed, layout):
    """The CSR graph built directly equals scipy's COO -> CSR of the same edges (so Dijkstra ties break as before)."""
    from scipy.sparse import csr_matrix

    rng = np.random.default_rng(seed)
    m = _random_move_map(rng, layout)
    g = m._graph("vehicle", np.array([0]), None, None)
    src, dst, wgt = [], [], []
    for a in m.hexes():
        for b in m.neighbours(a):
            c = m.movement_cost(a, b, "vehicle")
            if math.isfinite(c):
                src.append(m._index(a))
                dst.append(m._index(b))
                wgt.append(c)
    n = m.width * m.height
    ref = csr_matrix((wgt, (src, dst)), shape=(n, n))
    ref.sort_indices()
    assert g.indptr.tolist() == ref.indptr.tolist()
    assert g.indices.tolist() == ref.indices.tolist()
    assert g.data.tolist() == ref.data.tolist()


# -- the scalar line of sight against a brute-force reference, and its caches ------------------


def _reference_los(m, a, b, *, los_class=None, blocking=None, elevation_hook=None, edge="primary",
                   hexside_at_ends=False):
    """The straightforward form: walk hex_line's Hex objects, look each up by offset, count everything."""
    from wargamekit.geometry import hex_line

    cls = m.los_class() if los_class is None else np.asarray(los_class)
    extra = set()
    if blocking is not None:
        extra = {hx for hx in m.hexes() if blocking[m.offset(hx)]} if isinstance(blocking, np.ndarray) else set(blocking)
    sides = m.hexside_los_class()
    ea, eb = int(m.elevation[m.offset(a)]), int(m.elevation[m.offset(b)])

    def side(frm, to):
        d = frm.direction_to(to)
        if frm in m:
            return int(sides[(*m.offset(frm), d)])
        return int(sides[(*m.offset(to), (d + 3) % 6)]) if to in m else 0

    def count(nudge):
        line = hex_line(a, b, nudge=nudge)
        nb = nh = 0
        for i in range(1, len(line)):
            if sides is not None and (hexside_at_ends or 1 < i < len(line) - 1):
                k = side(line[i - 1], line[i])
                nb, nh = nb + (k == 2), nh + (k == 1)
            h = line[i]
            if i == len(line) - 1 or h not in m:
                continue
            k = 2 if h in extra else int(cls[m.offset(h)])
            if k and elevation_hook is not None and elevation_hook(h, int(m.elevation[m.offset(h)]), ea, eb):
                k = 0
            nb, nh = nb + (k == 2), nh + (k == 1)
        return nb, nh, tuple(line[1:-1])

    first, second = count(1), count(-1)
    if edge == "primary" or first[:2] == second[:2]:
        return first
    worse, better = (first, second) if first[:2] > second[:2] else (second, first)
    return worse if edge == "worse" else better


def _los_map(rng, layout, sides):
    w, h = int(rng.integers(1, 12)), int(rng.integers(1, 12))
    table = TerrainTable(
        [TerrainType(0, "clear"), TerrainType(1, "brush", los=1), TerrainType(2, "woods", los=2)],
        [HexsideFeature(1, "hedge", los=1), HexsideFeature(2, "wall", los=2), HexsideFeature(3, "stream")],
    )
    m = HexMap(w, h, table, layout, terrain=rng.choice([0, 0, 0, 1, 2], size=(w, h)).astype(np.int16),
               elevation=rng.integers(0, 3, size=(w, h)).astype(np.int16))
    if sides:
        for hx in m.hexes():
            for d in range(6):
                if rng.random() < 0.15:
                    m.set_hexside(hx, d, int(rng.integers(1, 4)))
    return m


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)), st.sampled_from(["primary", "worse", "better"]),
       st.booleans(), st.booleans())
def test_line_of_sight_equals_reference(seed, layout, edge, sides, at_ends):
    """The early-exit walk on cached tables gives the brute-force counts and hexes: wrecks, hexsides, hooks, own classes."""
    rng = np.random.default_rng(seed)
    m = _los_map(rng, layout, sides)
    wreck = rng.random((m.width, m.height)) < 0.1
    own = rng.choice([0, 0, 1, 2], size=(m.width, m.height)).astype(np.int8)
    kept = own.copy()  # read-only: converted once, then walked inline as the map's own classes
    kept.flags.writeable = False
    hook = lambda hx, he, ea, eb: max(ea, eb) > he  # noqa: E731
    hexes = m.hexes()
    for _ in range(15):
        a, b = hexes[int(rng.integers(len(hexes)))], hexes[int(rng.integers(len(hexes)))]
        for kw in ({}, {"blocking": wreck}, {"blocking": [hx for hx in hexes if wreck[m.offset(hx)]]},
                   {"los_class": own}, {"los_class": kept}, {"elevation_hook": hook}):
            ref = _reference_los(m, a, b, edge=edge, hexside_at_ends=at_ends, **kw)
            los = m.line_of_sight(a, b, edge=edge, hexside_at_ends=at_ends, **kw)
            assert los.clear == (ref[0] == 0)
            assert (los.blocking, los.hindering, los.between) == ref


def test_line_of_sight_fields_filled_on_read():
    """A blocked line's counts are filled when read; the record compares, hashes and prints like an eager one."""
    from wargamekit.geometry import LineOfSight

    m = HexMap(7, 1, TABLE, OffsetLayout.ODD_R)
    m.set_terrain(m.hex_at(2, 0), WOODS)
    m.set_terrain(m.hex_at(4, 0), WOODS)
    los = m.line_of_sight(m.hex_at(0, 0), m.hex_at(6, 0))
    assert los.clear is False
    eager = LineOfSight(False, 2, 0, tuple(m.hex_at(c, 0) for c in range(1, 6)))
    assert los == eager and hash(los) == hash(eager) and repr(los) == repr(eager)
    with pytest.raises(AttributeError):
        los.nothing  # noqa: B018


def test_line_of_sight_snapshot_survives_later_changes():
    """The counts read later are those of the call: a terrain change in between does not leak in."""
    m = HexMap(7, 1, TABLE, OffsetLayout.ODD_R)
    m.set_terrain(m.hex_at(2, 0), WOODS)
    los = m.line_of_sight(m.hex_at(0, 0), m.hex_at(6, 0))
    m.set_terrain(m.hex_at(4, 0), WOODS)
    assert los.blocking == 1
    assert m.line_of_sight(m.hex_at(0, 0), m.hex_at(6, 0)).blocking == 2


def test_los_cache_follows_every_change():
    """Terrain, hexside, table and layer assignments and direct writes + invalidate() all reach the cached LOS tables."""
    m = HexMap(7, 1, _walled_table(2), OffsetLayout.ODD_R)
    a, b = m.hex_at(0, 0), m.hex_at(6, 0)
    assert m.line_of_sight(a, b).clear
    m.set_hexside(m.hex_at(2, 0), 0, WALL)
    assert m.line_of_sight(a, b).blocking == 1
    m.set_hexside(m.hex_at(2, 0), 0, 0)
    assert m.line_of_sight(a, b).clear
    m.table = TABLE
    m.set_terrain(m.hex_at(3, 0), WOODS)
    assert m.line_of_sight(a, b).blocking == 1
    m.terrain[3, 0] = CLEAR
    m.terrain[4, 0] = MARSH
    m.invalidate()
    assert (m.line_of_sight(a, b).blocking, m.line_of_sight(a, b).hindering) == (0, 1)
    m.terrain = np.full((7, 1), WOODS, dtype=np.int16)
    assert m.line_of_sight(a, b).blocking == 5
    m.table = TerrainTable([TerrainType(WOODS, "open woods", los=1)])
    assert m.line_of_sight(a, b).hindering == 5


def test_line_of_sight_own_classes_cached_only_when_read_only():
    """A read-only los_class array is converted once; a writable one is read afresh on every call."""
    m = HexMap(5, 1, TABLE, OffsetLayout.ODD_R)
    a, b = m.hex_at(0, 0), m.hex_at(4, 0)
    own = np.zeros((5, 1), dtype=np.int8)
    assert m.line_of_sight(a, b, los_class=own).clear
    own[2, 0] = 2
    assert not m.line_of_sight(a, b, los_class=own).clear
    frozen = own.copy()
    frozen.setflags(write=False)
    assert not m.line_of_sight(a, b, los_class=frozen).clear
    assert id(frozen) in m._user_codes and id(own) not in m._user_codes
    frozen.setflags(write=True)  # its owner may unfreeze it: then it is read afresh
    frozen[2, 0] = 0
    assert m.line_of_sight(a, b, los_class=frozen).clear
    frozen[2, 0] = 2
    frozen.setflags(write=False)
    assert not m.line_of_sight(a, b, los_class=frozen).clear
    with pytest.raises(ValueError, match="los_class shape"):
        m.line_of_sight(a, b, los_class=np.zeros((4, 1)))
    with pytest.raises(OffMapError):
        m.line_of_sight(a, m.hex_at(4, 0) + Hex(1, 0))


def test_deepcopy_copies_layers_and_keeps_caches_apart():
    """A deep copy has its own layers; changing one map's terrain does not change the other's LOS."""
    import copy

    m = HexMap(7, 1, TABLE, OffsetLayout.ODD_R)
    a, b = m.hex_at(0, 0), m.hex_at(6, 0)
    assert m.line_of_sight(a, b).clear and m.reachable(a, 6, "infantry")[b] == 6
    c = copy.deepcopy(m)
    c.set_terrain(c.hex_at(3, 0), WOODS)
    assert not c.line_of_sight(a, b).clear and c.reachable(a, 6, "infantry").get(b) is None
    assert m.line_of_sight(a, b).clear and m.reachable(a, 6, "infantry")[b] == 6
    assert c.terrain is not m.terrain



def test_lines_traced_on_a_map_do_not_reach_its_copies():
    """A deep copy (a player's view of the map) shares the map's derived tables, but not
    what the map traced after it: the lines a rule traces can follow a hidden unit's facing,
    so they are cached outside every map (a copy pickles the same before and after)."""
    import copy
    import pickle

    m = HexMap(9, 9, TABLE)
    centre = m.hex_at(4, 4)
    assert m.line_of_sight(centre, m.hex_at(4, 1)).clear  # the tables are built before the copy
    seen = copy.deepcopy(m)
    before = pickle.dumps(seen)
    for h in m.hexes():  # every line from the centre, on the live map only
        m.line_of_sight(centre, h, edge="worse")
    assert pickle.dumps(seen) == before


# -- reachable on the cached graph, many units in one call ---------------------------------------


def _networkx_reachable(m, start, allowance, unit, blocked, zoc):
    """Brute force: a networkx graph with blocked hexes not enterable and ZOC hexes (but the start) not leavable."""
    g = nx.DiGraph()
    g.add_nodes_from(m.hexes())
    for a in m.hexes():
        if a in zoc and a != start:
            continue
        for b in m.neighbours(a):
            c = m.movement_cost(a, b, unit)
            if math.isfinite(c) and b not in blocked:
                g.add_edge(a, b, weight=c)
    return {h: float(c) for h, c in nx.single_source_dijkstra_path_length(g, start, cutoff=allowance).items()}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)))
def test_reachable_many_equals_single_and_networkx(seed, layout):
    """Many units in one call give each unit's own reachable set: the single form's and networkx's, with blocks and ZOC."""
    rng = np.random.default_rng(seed)
    m = _random_move_map(rng, layout)
    hexes = m.hexes()
    starts = [hexes[int(rng.integers(len(hexes)))] for _ in range(int(rng.integers(1, 6)))]
    budgets = [float(rng.integers(0, 8)) for _ in starts]
    blocked = {hx for hx in hexes if rng.random() < 0.1}
    zoc = {hx for hx in hexes if rng.random() < 0.2} | {starts[0]}
    for unit in ("infantry", "vehicle"):
        for kw in ({}, {"blocked": blocked}, {"stop": zoc}, {"blocked": blocked, "stop": zoc},
                   {"blocked": lambda hx: hx in blocked, "stop": np.array([[m.hex_at(c, r) in zoc for r in range(m.height)]
                                                                            for c in range(m.width)])}):
            many = m.reachable_many(starts, budgets, unit, **kw)
            assert len(many) == len(starts)
            offsets, axial, costs = m.reachable_batch(np.array([[h.q, h.r] for h in starts]), budgets, unit, **kw)
            assert [dict(zip(map(tuple, axial[a:b].tolist()), costs[a:b].tolist(), strict=True))
                    for a, b in zip(offsets[:-1], offsets[1:], strict=True)] == [
                {(h.q, h.r): c for h, c in r.items()} for r in many]
            for s, b, got in zip(starts, budgets, many, strict=True):
                assert got == m.reachable(s, b, unit, **kw)
                expected = _networkx_reachable(m, s, b, unit, blocked if "blocked" in kw else set(),
                                               zoc if "stop" in kw else set())
                assert got == expected


def _both_searches(m, *args, **kw):
    """``reachable_many`` through scipy's one call and through the pure-Python search, forced."""
    limit = hexmap_module._SMALL_SEARCH
    try:
        hexmap_module._SMALL_SEARCH = -1
        scipy_form = m.reachable_many(*args, **kw)
        hexmap_module._SMALL_SEARCH = 10**9
        python_form = m.reachable_many(*args, **kw)
    finally:
        hexmap_module._SMALL_SEARCH = limit
    return scipy_form, python_form


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)))
def test_small_search_equals_scipy_search(seed, layout):
    """The pure-Python search of small reaches gives scipy's sets exactly: the same hexes, the
    same float costs (whole and half-point costs: both forms of the search), in the same order,
    with blocks, ZOC (a start in ZOC may leave), predicates, masks, hexsides and negative
    allowances."""
    rng = np.random.default_rng(seed)
    m = _random_move_map(rng, layout)
    if seed % 2:  # half-point costs: the heap form; whole costs: the bucket form
        m.table = TerrainTable([*TABLE.terrain, TerrainType(4, "rough", 1.5)], TABLE.hexsides)
        m.terrain[rng.random((m.width, m.height)) < 0.2] = 4
        m.invalidate()
    hexes = m.hexes()
    starts = [hexes[int(rng.integers(len(hexes)))] for _ in range(int(rng.integers(1, 5)))]
    budgets = [float(rng.integers(-1, 9)) + 0.5 * int(rng.integers(0, 2)) for _ in starts]
    budgets[0] = abs(budgets[0])  # scipy refuses a search whose allowances are all negative
    blocked = {hx for hx in hexes if rng.random() < 0.1}
    zoc = {hx for hx in hexes if rng.random() < 0.2} | {starts[0]}
    zoc_mask = np.array([[m.hex_at(c, r) in zoc for r in range(m.height)] for c in range(m.width)])
    for unit in ("infantry", "vehicle"):
        for kw in ({}, {"blocked": blocked}, {"stop": zoc}, {"blocked": list(blocked), "stop": zoc},
                   {"blocked": lambda hx: hx in blocked, "stop": zoc_mask}):
            scipy_form, python_form = _both_searches(m, starts, budgets, unit, **kw)
            assert [list(r.items()) for r in python_form] == [list(r.items()) for r in scipy_form]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)))
def test_small_search_past_the_cheapest_step_equals_scipy_search(seed, layout):
    """The pure-Python search does not expand a hex from which the cheapest step overruns the
    allowance, and stops at a hex's first edge cost over it: with a cheapest step of 2 (so
    the skipped hexes are not only those at the allowance) and allowances on both sides of
    each multiple of it, whole and half-point, it still gives scipy's sets exactly."""
    rng = np.random.default_rng(seed)
    m = _random_move_map(rng, layout)
    m.table = TerrainTable([TerrainType(CLEAR, "clear", 2), TerrainType(WOODS, "woods", 3), TerrainType(MARSH, "marsh", 5),
                            TerrainType(LAKE, "lake", math.inf)], TABLE.hexsides)
    hexes = m.hexes()
    starts = [hexes[int(rng.integers(len(hexes)))] for _ in range(3)]
    budgets = [float(rng.integers(0, 13)) + 0.5 * int(rng.integers(0, 2)) for _ in starts]
    blocked = {hx for hx in hexes if rng.random() < 0.1} - {starts[0]}
    zoc = {hx for hx in hexes if rng.random() < 0.2}
    for kw in ({}, {"blocked": blocked, "stop": zoc}):
        scipy_form, python_form = _both_searches(m, starts, budgets, "infantry", **kw)
        assert [list(r.items()) for r in python_form] == [list(r.items()) for r in scipy_form]


def test_the_python_search_has_each_hex_edges_grouped_by_cost():
    """``_edges_at``: a hex's edges of the cached graph, one entry per cost, cheapest first,
    each cost's neighbours by map index; kept in the graph once read."""
    rng = np.random.default_rng(5)
    m = HexMap(9, 7, TABLE, OffsetLayout.ODD_Q, terrain=rng.choice([0, 1, 2, 3], size=(9, 7)).astype(np.int16))
    m.set_hexside(m.hex_at(4, 3), 0, RIVER)
    g = m._movement_graph("infantry")
    csr = g.csr
    for u in range(m.width * m.height):
        edges = hexmap_module._edges_at(g, u)
        assert g.adj[u] is edges
        assert [w for w, _ in edges] == sorted({w for w, _ in edges})
        assert all(list(vs) == sorted(vs) for _, vs in edges)
        lo, hi = csr.indptr[u], csr.indptr[u + 1]
        assert sorted((v, w) for w, vs in edges for v in vs) == list(zip(csr.indices[lo:hi].tolist(),
                                                                         csr.data[lo:hi].tolist(), strict=True))
    assert any(len(e) > 1 for e in g.adj)  # hexes with neighbours of several costs were met


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)))
def test_far_apart_groups_equal_one_row_per_unit(seed, layout):
    """Searching far-apart units together (one min_only row per group) gives each unit exactly
    the set of a search with one row per unit: units near and on each other, at the map's
    edges, in ZOC (left through their virtual copies), blocked, with their own allowances."""
    rng = np.random.default_rng(seed)
    w, h = int(rng.integers(30, 60)), int(rng.integers(30, 60))
    m = HexMap(w, h, TABLE, layout, terrain=rng.choice([0, 0, 1, 2, 3], size=(w, h)).astype(np.int16))
    hexes = m.hexes()
    starts = [hexes[int(rng.integers(len(hexes)))] for _ in range(int(rng.integers(2, 40)))]
    starts += starts[:2]  # two units stacked with others
    budgets = [float(rng.integers(0, 7)) for _ in starts]
    budgets[0] = 6.0
    zoc = {hx for hx in hexes if rng.random() < 0.1} | {starts[0]}
    blocked = {hx for hx in hexes if rng.random() < 0.05} - {starts[0]}
    limits = (hexmap_module._SMALL_SEARCH, hexmap_module._GROUPED_MIN, hexmap_module._GROUPED_MAX)
    try:
        hexmap_module._SMALL_SEARCH = -1  # scipy's search throughout
        hexmap_module._GROUPED_MIN = 1  # grouped however few the units
        grouped = m.reachable_many(starts, budgets, "infantry", blocked=blocked, stop=zoc)
        batch = m.reachable_batch(starts, budgets, "infantry", blocked=blocked, stop=zoc)
        hexmap_module._GROUPED_MAX = 0
        one_each = m.reachable_many(starts, budgets, "infantry", blocked=blocked, stop=zoc)
    finally:
        hexmap_module._SMALL_SEARCH, hexmap_module._GROUPED_MIN, hexmap_module._GROUPED_MAX = limits
    assert [list(r.items()) for r in grouped] == [list(r.items()) for r in one_each]
    offsets, axial, costs = batch
    assert [dict(zip(map(tuple, axial[a:b].tolist()), costs[a:b].tolist(), strict=True))
            for a, b in zip(offsets[:-1], offsets[1:], strict=True)] == [{(hx.q, hx.r): c for hx, c in r.items()}
                                                                          for r in one_each]


def test_far_apart_groups():
    """Units are grouped greedily, in order, so that a group's units are at least 2 * radius + 1 hexes apart."""
    m = HexMap(40, 3, TABLE, OffsetLayout.ODD_R)
    idx = np.array([m._index(m.hex_at(c, 1)) for c in (0, 4, 5, 9, 0)])
    groups, row_of = m._far_apart_groups(idx, 2)
    # 5 apart is enough (0 and 5, 4 and 9), 4 is not (0 and 4, 5 and 9); the same hex never
    assert row_of.tolist() == [0, 1, 0, 1, 2]
    assert [x.tolist() for x in groups] == [[0, 2], [1, 3], [4]]


def test_small_search_is_chosen_by_the_reach():
    """Small reaches take the pure-Python search, large ones scipy's call (the crossover,
    docs/geometry.md): the 10x8 skirmish-sized map always; on a big open map a disk of up to
    400 hexes with whole-number costs (the bucket form), 300 otherwise, for all units together."""
    small, big = HexMap(10, 8, TABLE), HexMap(60, 60, TABLE)
    half = HexMap(60, 60, TerrainTable([TerrainType(CLEAR, "clear", 1.5)]))
    middle = big.hex_at(30, 30)
    assert small._reach_small([small.hex_at(4, 4)], 30, "infantry", None, None) is not None
    assert big._reach_small([middle], 11, "infantry", None, None) is not None  # 397 hexes
    assert big._reach_small([middle], 12, "infantry", None, None) is None  # 469
    assert big._reach_small([middle] * 10, 4, "infantry", None, None) is None  # 10 x 61
    assert half._reach_small([middle], 13.5, "infantry", None, None) is not None  # 9 steps: 271
    assert half._reach_small([middle], 15, "infantry", None, None) is None  # 10 steps: 331


def test_a_pickled_map_leaves_out_the_python_search_tables_and_searches_alike():
    """A map pickled for another process (the snapshot cache) carries its movement graphs but
    not the pure-Python search's tables (``adj``, ``csr_lists``, ``scratch``), which the loaded
    map's first searches fill in again: the same hexes and costs, small (dict) and larger
    (borrowed list) searches, blocked hexes and ZOC alike."""
    m = HexMap(12, 10, TABLE)
    m.set_terrain(m.hex_at(5, 5), LAKE)
    start, blocked, zoc = m.hex_at(6, 4), {m.hex_at(7, 4), m.hex_at(2, 2)}, {m.hex_at(6, 6)}
    asks = [(start, b, kw) for b in (3, 6, 9) for kw in ({}, {"blocked": blocked, "stop": zoc})]
    before = [m.reachable(h, b, "infantry", **kw) for h, b, kw in asks]
    graph = m._csr["infantry"]
    assert graph.adj is not None and graph.csr_lists is not None and graph.scratch
    loaded = pickle.loads(pickle.dumps(m))
    again = loaded._csr["infantry"]
    assert again.adj is None and again.csr_lists is None and again.scratch == []
    assert (again.csr != graph.csr).nnz == 0 and again.step == graph.step and again.integral == graph.integral
    assert [list(loaded.reachable(h, b, "infantry", **kw).items()) for h, b, kw in asks] == [list(r.items()) for r in before]
    assert all(v == math.inf for v in again.scratch[0])  # the borrowed list is set back after each search


def test_reachable_follows_terrain_changes():
    """The cached movement graph is rebuilt after set_terrain, set_hexside, a new table and invalidate()."""
    m = HexMap(5, 1, TABLE, OffsetLayout.ODD_R)
    a = m.hex_at(0, 0)
    assert max(m.reachable(a, 4, "infantry").values()) == 4
    m.set_terrain(m.hex_at(2, 0), LAKE)
    assert set(m.reachable(a, 4, "infantry")) == {a, m.hex_at(1, 0)}
    m.set_terrain(m.hex_at(2, 0), CLEAR)
    m.set_hexside(m.hex_at(1, 0), 0, RIVER)
    assert m.reachable(a, 4, "infantry")[m.hex_at(2, 0)] == 4 and m.hex_at(2, 0) not in m.reachable(a, 4, "vehicle")
    m.hexsides[:] = 0
    m.invalidate()
    assert m.reachable(a, 4, "vehicle")[m.hex_at(4, 0)] == 4
    m.table = TerrainTable([TerrainType(CLEAR, "clear", 2)])
    assert m.reachable(a, 4, "vehicle") == {a: 0.0, m.hex_at(1, 0): 2.0, m.hex_at(2, 0): 4.0}


def test_reachable_many_allowances_and_errors():
    """One allowance for all or one each; a wrong count or an off-map start is refused; no units gives no sets."""
    m = HexMap(5, 1, TABLE, OffsetLayout.ODD_R)
    a, e = m.hex_at(0, 0), m.hex_at(4, 0)
    assert m.reachable_many([a, e], 1, "infantry") == [{a: 0.0, m.hex_at(1, 0): 1.0}, {e: 0.0, m.hex_at(3, 0): 1.0}]
    assert m.reachable_many([], 3, "infantry") == []
    assert [x.tolist() for x in m.reachable_batch([], 3, "infantry")] == [[0], [], []]
    with pytest.raises(ValueError, match="2 allowances for 1 starts"):
        m.reachable_many([a], [1, 2], "infantry")
    with pytest.raises(OffMapError):
        m.reachable_many([a, e + Hex(1, 0)], 1, "infantry")
    assert m.reachable(a, math.inf, "infantry", blocked=[m.hex_at(2, 0)]) == {a: 0.0, m.hex_at(1, 0): 1.0}


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(list(OffsetLayout)))
def test_reachable_disk_extraction_on_a_large_map(seed, layout):
    """On a map much larger than the reach, the sets read from each unit's disk of cells equal the full field cut at the allowance."""
    rng = np.random.default_rng(seed)
    m = HexMap(40, 30, TABLE, layout, terrain=rng.choice([0, 0, 1, 2, 3], size=(40, 30)).astype(np.int16))
    hexes = m.hexes()
    starts = [hexes[int(rng.integers(len(hexes)))] for _ in range(4)]
    budgets = [float(rng.integers(0, 7)) for _ in starts]
    zoc = [hx for hx in hexes if rng.random() < 0.1]
    many = m.reachable_many(starts, budgets, "infantry", stop=zoc)
    assert 3 * (int(max(budgets)) + 1) ** 2 * 2 < 40 * 30  # the per-unit disk path is the one taken
    for s, b, got in zip(starts, budgets, many, strict=True):
        full = m.cost_field(s, "infantry", stop=zoc)
        assert got == {hx: float(full[m.offset(hx)]) for hx in hexes if full[m.offset(hx)] <= b}


def test_line_of_sight_from_cached_line_offsets_equals_reference():
    """Short lines' offsets are cached per map (the common query steps through them): every
    pair asked twice, and again after the terrain changes, gives the brute-force counts."""
    rng = np.random.default_rng(7)
    for layout in OffsetLayout:
        m = _los_map(rng, layout, sides=False)
        hexes = m.hexes()
        pairs = [(a, b) for a in hexes[::3] for b in hexes[::2]]
        for _ in range(2):
            for a, b in pairs:
                ref = _reference_los(m, a, b, edge="primary", hexside_at_ends=False)
                los = m.line_of_sight(a, b)
                assert los.clear == (ref[0] == 0) and (los.blocking, los.hindering, los.between) == ref
        m.terrain[:] = rng.choice([0, 1, 2], size=m.terrain.shape)
        m.invalidate()
        for a, b in pairs:
            ref = _reference_los(m, a, b, edge="primary", hexside_at_ends=False)
            assert (m.line_of_sight(a, b).blocking, m.line_of_sight(a, b).hindering) == ref[:2]
