"""Geometry benchmarks: each measures ours and a baseline in the same run.

Run: ``uv run pytest benchmarks/test_bench_geometry.py -p no:cacheprovider --benchmark-enable``
(add ``--benchmark-json=out.json`` to keep the ratios recorded in ``extra_info``).
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

    small = [(Hex(*x), Hex(*y)) for x, y in zip(a[:20_000].tolist(), b[:20_000].tolist(), strict=True)]

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


def test_los_100k_first_block(compare, benchmark):
    """100,000 LOS queries, 200x200 map, 20% blocking: batch (stop at first block) vs scalar loop stopping at first block.

    Targets: >= 2.75M queries/s (within 2x of 5.5M/s) and >= 20x the scalar loop.
    """
    cls, a, b = _los_setup()
    ha = [Hex(*x) for x in a.tolist()]
    hb = [Hex(*x) for x in b.tolist()]

    def scalar_loop():
        clear = []
        for p, q in zip(ha, hb, strict=True):
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
    benchmark.extra_info["queries_per_s"] = len(a) / benchmark.extra_info["ours_median_s"]
    assert (res[0] == 0).tolist() == scalar_loop()


def test_los_100k_first_block_worse_edge(compare, benchmark):
    """100,000 LOS queries stopping at the first block on either side of edge-running lines (edge="worse") vs the primary line only."""
    cls, a, b = _los_setup()
    compare(lambda: hexbatch.line_of_sight_batch(a, b, cls, stop_after_blocking=1, edge="worse"),
            {"primary_only": lambda: hexbatch.line_of_sight_batch(a, b, cls, stop_after_blocking=1)}, rounds=5)
    benchmark.extra_info["queries_per_s"] = len(a) / benchmark.extra_info["ours_median_s"]


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


# -- movement on a 200x200 weighted grid, graph building included -------------------------------

MOVE_W = MOVE_H = 200
MOVE_COSTS = np.array([1.0, 2.0, 3.0])


def _move_setup():
    rng = np.random.default_rng(RNG_SEED)
    table = TerrainTable([TerrainType(0, "clear"), TerrainType(1, "woods", 2), TerrainType(2, "marsh", 3)])
    terrain = rng.integers(0, 3, (MOVE_W, MOVE_H)).astype(np.int16)
    return table, terrain, Hex.from_offset(MOVE_W // 2, MOVE_H // 2)


def _scipy_plain_graph(terrain):
    """The plain numpy + scipy way: neighbour arrays by offset arithmetic, COO -> CSR."""
    from scipy.sparse import csr_matrix

    w, h = terrain.shape
    col, row = np.meshgrid(np.arange(w), np.arange(h), indexing="ij")
    col, row = col.ravel(), row.ravel()
    q, r = col, row - (col >> 1)
    srcs, dsts = [], []
    for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
        nq, nr = q + dq, r + dr
        nc, nrow = nq, nr + (nq >> 1)
        ok = (nc >= 0) & (nc < w) & (nrow >= 0) & (nrow < h)
        srcs.append((col * h + row)[ok])
        dsts.append((nc * h + nrow)[ok])
    src, dst = np.concatenate(srcs), np.concatenate(dsts)
    wgt = MOVE_COSTS[terrain.ravel()[dst]]
    return csr_matrix((wgt, (src, dst)), shape=(w * h, w * h))


def _networkx_graph(terrain):
    w, h = terrain.shape
    g = nx.DiGraph()
    for c in range(w):
        for r in range(h):
            hx = Hex.from_offset(c, r)
            for nb in hx.neighbours():
                nc, nr = nb.to_offset()
                if 0 <= nc < w and 0 <= nr < h:
                    g.add_edge(hx, nb, weight=MOVE_COSTS[terrain[nc, nr]])
    return g


def test_cost_field_200_cold(compare):
    """Cost field, 200x200 weighted grid, graph built every round: ours (new HexMap) vs plain scipy CSR + Dijkstra vs networkx."""
    from scipy.sparse.csgraph import dijkstra

    table, terrain, start = _move_setup()
    si = start.to_offset()[0] * MOVE_H + start.to_offset()[1]

    def ours():
        return HexMap(MOVE_W, MOVE_H, table, terrain=terrain).cost_field(start, "infantry")

    m = HexMap(MOVE_W, MOVE_H, table, terrain=terrain)

    def ours_invalidated():
        m.invalidate()
        return m.cost_field(start, "infantry")

    def scipy_plain():
        return dijkstra(_scipy_plain_graph(terrain), directed=True, indices=si)

    prebuilt = _scipy_plain_graph(terrain)

    def scipy_dijkstra_only():
        return dijkstra(prebuilt, directed=True, indices=si)

    def networkx_dijkstra():
        return nx.single_source_dijkstra_path_length(_networkx_graph(terrain), start)

    field = compare(ours, {"ours_invalidate": ours_invalidated, "scipy_plain": scipy_plain,
                           "scipy_dijkstra_only": scipy_dijkstra_only, "networkx": networkx_dijkstra},
                    rounds=3, ours_rounds=10)
    assert np.array_equal(field.ravel(), scipy_plain())


def test_reachable_200_cold(compare):
    """Reachable set within 12 MP, 200x200 weighted grid, graph built every round: ours vs plain scipy (limit) vs networkx (cutoff)."""
    from scipy.sparse.csgraph import dijkstra

    table, terrain, start = _move_setup()
    si = start.to_offset()[0] * MOVE_H + start.to_offset()[1]
    allowance = 12

    def ours():
        return HexMap(MOVE_W, MOVE_H, table, terrain=terrain).reachable(start, allowance, "infantry")

    def scipy_plain():
        d = dijkstra(_scipy_plain_graph(terrain), directed=True, indices=si, limit=allowance)
        hit = np.flatnonzero(d <= allowance)
        return hit, d[hit]

    def networkx_dijkstra():
        return nx.single_source_dijkstra_path_length(_networkx_graph(terrain), start, cutoff=allowance)

    got = compare(ours, {"scipy_plain": scipy_plain, "networkx": networkx_dijkstra}, rounds=3, ours_rounds=10)
    hit, dist = scipy_plain()
    assert {(int(i) // MOVE_H, int(i) % MOVE_H): float(d) for i, d in zip(hit, dist, strict=True)} == {
        hx.to_offset(): c for hx, c in got.items()}


# -- disks and lines ------------------------------------------------------------------------------


def test_disks_1000_radius_20(compare):
    """1,000 disks of radius 20 (1,261 hexes each): ours vs plain numpy (meshgrid mask per disk)."""
    rng = np.random.default_rng(RNG_SEED)
    centers = rng.integers(-500, 500, size=(1000, 2)).astype(np.int32)
    radius = 20

    def numpy_plain():
        k = np.arange(-radius, radius + 1, dtype=np.int32)
        dq, dr = np.meshgrid(k, k, indexing="ij")
        keep = np.abs(dq + dr) <= radius
        offs = np.column_stack((dq[keep], dr[keep]))
        return centers[:, None, :] + offs[None, :, :]

    def numpy_per_disk():
        k = np.arange(-radius, radius + 1, dtype=np.int32)
        out = []
        for cq, cr in centers.tolist():
            dq, dr = np.meshgrid(k, k, indexing="ij")
            keep = np.abs(dq + dr) <= radius
            out.append(np.column_stack((dq[keep] + cq, dr[keep] + cr)))
        return out

    res = compare(lambda: hexbatch.disks(centers, radius),
                  {"numpy_broadcast": numpy_plain, "numpy_per_disk": numpy_per_disk}, rounds=5)
    assert np.array_equal(res, numpy_plain())


def _lines_float_numpy(a, b):
    """The plain numpy form: interpolate cube points in float64, nudge, cube-round (int32 output)."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    dq, dr = b64[:, 0] - a64[:, 0], b64[:, 1] - a64[:, 1]
    n = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
    counts = n + 1
    offsets = np.zeros(len(n) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    seg = np.repeat(np.arange(len(n)), counts)
    i = np.arange(offsets[-1]) - offsets[seg]
    nn = np.maximum(n, 1)[seg].astype(np.float64)
    t = i / nn
    x = a64[seg, 0] + dq[seg] * t + 1e-6
    y = a64[seg, 1] + dr[seg] * t + 2e-6
    z = -x - y
    rx, ry, rz = np.round(x), np.round(y), np.round(z)
    ddx, ddy, ddz = np.abs(rx - x), np.abs(ry - y), np.abs(rz - z)
    fx = (ddx > ddy) & (ddx > ddz)
    fy = ~fx & (ddy > ddz)
    rx = np.where(fx, -ry - rz, rx)
    ry = np.where(fy, -rx - rz, ry)
    return offsets, np.column_stack((rx, ry)).astype(np.int32)


def test_lines_20k(compare):
    """20,000 lines on a 200x200 map (about 2.7M hexes): ours (exact integer form) vs the plain numpy float form."""
    _cls, a, b = _los_setup()
    a, b = a[:20_000], b[:20_000]
    off, flat = compare(lambda: hexbatch.lines(a, b), {"numpy_float": lambda: _lines_float_numpy(a, b)},
                        rounds=3, ours_rounds=5)
    ref_off, ref_flat = _lines_float_numpy(a, b)
    assert np.array_equal(off, ref_off) and np.array_equal(flat, ref_flat)
