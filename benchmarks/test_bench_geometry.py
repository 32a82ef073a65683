"""Geometry benchmarks: each measures ours and a baseline in the same run.

Run: ``uv run pytest benchmarks -p no:cacheprovider --benchmark-enable``
"""

import networkx as nx
import numpy as np

from wargamekit.geometry import Hex, HexMap, TerrainTable, TerrainType, hexbatch
from wargamekit.geometry.hex import hex_line

RNG_SEED = 12345


def test_distance_1m(compare):
    """1,000,000 hex distances: ours (int32, preallocated) vs plain numpy expressions vs pure Python."""
    rng = np.random.default_rng(RNG_SEED)
    n = 1_000_000
    a = rng.integers(-500, 500, size=(n, 2)).astype(np.int32)
    b = rng.integers(-500, 500, size=(n, 2)).astype(np.int32)
    out = np.empty(n, dtype=np.int32)
    scratch = np.empty((2, n), dtype=np.int32)
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    aq, ar, bq, br = (np.ascontiguousarray(x) for x in (a[:, 0], a[:, 1], b[:, 0], b[:, 1]))

    def numpy_int64():
        dq = a64[:, 0] - b64[:, 0]
        dr = a64[:, 1] - b64[:, 1]
        return np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))

    def numpy_int32_columns():
        # The fastest plain int32 expression: contiguous columns, fresh temporaries.
        dq = aq - bq
        dr = ar - br
        return np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))

    small = [(Hex(*x), Hex(*y)) for x, y in zip(a[:20_000].tolist(), b[:20_000].tolist())]

    def pure_python_x50():
        # 20,000 scalar distances, scaled to 1,000,000.
        t = [p.distance(q) for p, q in small]
        return t

    def pure_python():
        for _ in range(50):
            pure_python_x50()

    res = compare(lambda: hexbatch.distance(a, b, out=out, scratch=scratch),
                  {"numpy_int64": numpy_int64, "numpy_int32": numpy_int32_columns, "pure_python": pure_python},
                  rounds=3)
    assert np.array_equal(res, numpy_int64())


def _los_setup():
    rng = np.random.default_rng(RNG_SEED)
    w = h = 200
    cls = np.where(rng.random((w, h)) < 0.2, 2, 0).astype(np.int8)
    n = 100_000
    ca = np.column_stack((rng.integers(0, w, n), rng.integers(0, h, n)))
    cb = np.column_stack((rng.integers(0, w, n), rng.integers(0, h, n)))
    return cls, hexbatch.offset_to_axial(ca), hexbatch.offset_to_axial(cb)


def test_los_100k_first_block(compare):
    """100,000 LOS queries, 200x200 map, 20% blocking: batch (stop at first block) vs scalar loop stopping at first block."""
    cls, a, b = _los_setup()
    ha = [Hex(*x) for x in a.tolist()]
    hb = [Hex(*x) for x in b.tolist()]

    def scalar_loop():
        clear = []
        for p, q in zip(ha, hb):
            ok = True
            for x in hex_line(p, q)[1:-1]:
                c, r = x.to_offset()
                if 0 <= c < 200 and 0 <= r < 200 and cls[c, r] == 2:
                    ok = False
                    break
            clear.append(ok)
        return clear

    res = compare(lambda: hexbatch.line_of_sight_batch(a, b, cls, stop_after_blocking=1),
                  {"scalar_loop": scalar_loop}, rounds=1)
    assert (res[0] == 0).tolist() == scalar_loop()


def test_los_100k_full_counts(compare):
    """100,000 LOS queries with full blocking/hindering counts: batch vs batch-stop-at-first-block."""
    cls, a, b = _los_setup()
    compare(lambda: hexbatch.line_of_sight_batch(a, b, cls),
            {"first_block_batch": lambda: hexbatch.line_of_sight_batch(a, b, cls, stop_after_blocking=1)},
            rounds=3, ours_rounds=3)


def test_cost_field_dijkstra(compare):
    """Movement cost field on a 100x100 map, graph building included: ours (scipy CSR) vs networkx."""
    rng = np.random.default_rng(RNG_SEED)
    w = h = 100
    table = TerrainTable([TerrainType(0, "clear"), TerrainType(1, "woods", 2), TerrainType(2, "marsh", 3)])
    terrain = rng.integers(0, 3, (w, h)).astype(np.int16)
    start = Hex.from_offset(50, 50)

    def ours():
        m = HexMap(w, h, table, terrain=terrain.copy())
        return m.cost_field(start, "infantry")

    costs = np.array([1.0, 2.0, 3.0])

    def networkx_dijkstra():
        g = nx.DiGraph()
        for c in range(w):
            for r in range(h):
                hx = Hex.from_offset(c, r)
                for nb in hx.neighbours():
                    nc, nr = nb.to_offset()
                    if 0 <= nc < w and 0 <= nr < h:
                        g.add_edge(hx, nb, weight=costs[terrain[nc, nr]])
        return nx.single_source_dijkstra_path_length(g, start)

    field = compare(ours, {"networkx": networkx_dijkstra}, rounds=2, ours_rounds=5)
    nxd = networkx_dijkstra()
    assert all(field[hx.to_offset()] == d for hx, d in list(nxd.items())[:500])
