"""Numpy batch forms of the hex operations, on ``(N, 2)`` int32 arrays of axial ``(q, r)``.

Each function gives exactly the answer of its scalar form in :mod:`wargamekit.geometry.hex`
(the tests check this with Hypothesis); lines use the same floating-point formula, operation
for operation, so they agree bit for bit.
"""

from __future__ import annotations

import numpy as np

from wargamekit.geometry.hex import LINE_EPSILON, Hex, OffsetLayout

__all__ = [
    "as_hex_array",
    "distance",
    "disk",
    "axial_to_offset",
    "offset_to_axial",
    "lines",
    "line_of_sight_batch",
]


def as_hex_array(hexes: object) -> np.ndarray:
    """Coerce hexes (an ``(N, 2)`` array-like, or an iterable of :class:`Hex`) to a C-contiguous int32 ``(N, 2)`` array.

    Raises:
        ValueError: If the input does not have shape ``(N, 2)``.
    """
    if isinstance(hexes, np.ndarray):
        arr = hexes
    else:
        items = list(hexes)  # type: ignore[call-overload]
        arr = np.array([(h.q, h.r) if isinstance(h, Hex) else tuple(h) for h in items], dtype=np.int32).reshape(-1, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"hex arrays must have shape (N, 2), got {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.int32)


def distance(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None,
             scratch: np.ndarray | None = None) -> np.ndarray:
    """Hex distance of each pair ``a[i]``, ``b[i]``.

    Args:
        a: ``(N, 2)`` int32 hexes.
        b: ``(N, 2)`` int32 hexes (or one ``(1, 2)`` row, broadcast).
        out: Optional preallocated int32 ``(N,)`` result buffer.
        scratch: Optional preallocated int32 ``(2, N)`` work buffer; with both buffers given
            the call allocates nothing.

    Returns:
        The int32 ``(N,)`` distances (``out`` if given).

    >>> distance(np.array([[0, 0], [1, 1]], dtype=np.int32), np.array([[3, -1], [1, 1]], dtype=np.int32))
    array([3, 0], dtype=int32)
    """
    n = a.shape[0]
    if out is None:
        out = np.empty(n, dtype=np.int32)
    if scratch is None:
        scratch = np.empty((2, n), dtype=np.int32)
    dq, dr = scratch[0], scratch[1]
    np.subtract(a[:, 0], b[:, 0], out=dq)
    np.subtract(a[:, 1], b[:, 1], out=dr)
    np.add(dq, dr, out=out)
    np.abs(out, out=out)
    np.abs(dq, out=dq)
    np.abs(dr, out=dr)
    np.maximum(dq, dr, out=dq)
    np.maximum(out, dq, out=out)
    return out


def disk(center: Hex | tuple[int, int], radius: int) -> np.ndarray:
    """All hexes within ``radius`` of ``center`` as int32 ``(M, 2)``, in the order of :meth:`Hex.disk`.

    Raises:
        ValueError: If ``radius`` is negative.

    >>> disk(Hex(0, 0), 1).tolist()
    [[-1, 0], [-1, 1], [0, -1], [0, 0], [0, 1], [1, -1], [1, 0]]
    """
    if radius < 0:
        raise ValueError(f"disk radius must be >= 0, got {radius}")
    cq, cr = (center.q, center.r) if isinstance(center, Hex) else center
    k = np.arange(-radius, radius + 1, dtype=np.int32)
    dq, dr = np.meshgrid(k, k, indexing="ij")
    keep = np.abs(dq + dr) <= radius
    return np.column_stack((dq[keep] + cq, dr[keep] + cr)).astype(np.int32)


def axial_to_offset(hexes: np.ndarray, layout: OffsetLayout = OffsetLayout.ODD_Q) -> np.ndarray:
    """Convert ``(N, 2)`` axial hexes to ``(N, 2)`` ``(col, row)`` offset coordinates."""
    h = as_hex_array(hexes)
    q, r = h[:, 0], h[:, 1]
    # ``x >> 1`` is floor(x / 2) for negative numbers too, matching the scalar ``//``.
    if layout is OffsetLayout.ODD_Q:
        return np.column_stack((q, r + (q >> 1)))
    if layout is OffsetLayout.EVEN_Q:
        return np.column_stack((q, r + ((q + 1) >> 1)))
    if layout is OffsetLayout.ODD_R:
        return np.column_stack((q + (r >> 1), r))
    return np.column_stack((q + ((r + 1) >> 1), r))


def offset_to_axial(colrow: np.ndarray, layout: OffsetLayout = OffsetLayout.ODD_Q) -> np.ndarray:
    """Convert ``(N, 2)`` ``(col, row)`` offset coordinates to axial ``(q, r)``."""
    c = as_hex_array(colrow)
    col, row = c[:, 0], c[:, 1]
    if layout is OffsetLayout.ODD_Q:
        return np.column_stack((col, row - (col >> 1)))
    if layout is OffsetLayout.EVEN_Q:
        return np.column_stack((col, row - ((col + 1) >> 1)))
    if layout is OffsetLayout.ODD_R:
        return np.column_stack((col - (row >> 1), row))
    return np.column_stack((col - ((row + 1) >> 1), row))


def _round_cube(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised :func:`wargamekit.geometry.hex._cube_round` (float results holding integers)."""
    rx = np.floor(x + 0.5)
    ry = np.floor(y + 0.5)
    rz = np.floor(z + 0.5)
    dx = np.abs(rx - x)
    dy = np.abs(ry - y)
    dz = np.abs(rz - z)
    fix_x = (dx > dy) & (dx > dz)
    fix_y = ~fix_x & (dy > dz)
    rx = np.where(fix_x, -ry - rz, rx)
    ry = np.where(fix_y, -rx - rz, ry)
    return rx, ry


def _line_setup(a: np.ndarray, b: np.ndarray):
    a64 = a.astype(np.int64)
    b64 = b.astype(np.int64)
    aq, ar = a64[:, 0], a64[:, 1]
    dq, dr = b64[:, 0] - aq, b64[:, 1] - ar
    n = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
    return aq, ar, dq, dr, n


def lines(a: np.ndarray, b: np.ndarray, *, nudge: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The lines of many segments, as a ragged result ``(offsets, flat)``.

    Line ``i`` (both ends included, as :func:`~wargamekit.geometry.hex.hex_line`) is
    ``flat[offsets[i]:offsets[i + 1]]``.

    Args:
        a: ``(N, 2)`` start hexes.
        b: ``(N, 2)`` end hexes.
        nudge: ``+1`` or ``-1``, the tie-breaking side (see :func:`~wargamekit.geometry.hex.hex_line`).

    Returns:
        ``offsets``: int64 ``(N + 1,)``; ``flat``: int32 ``(total, 2)``.

    Raises:
        ValueError: If ``nudge`` is not ``+1`` or ``-1`` or the shapes differ.

    >>> off, flat = lines(np.array([[0, 0]]), np.array([[3, -1]]))
    >>> off.tolist(), flat.tolist()
    ([0, 4], [[0, 0], [1, 0], [2, -1], [3, -1]])
    """
    if nudge not in (1, -1):
        raise ValueError(f"nudge must be +1 or -1, got {nudge}")
    a, b = as_hex_array(a), as_hex_array(b)
    if a.shape != b.shape:
        raise ValueError(f"segment ends differ in shape: {a.shape} vs {b.shape}")
    aq, ar, dq, dr, n = _line_setup(a, b)
    counts = n + 1
    offsets = np.zeros(len(n) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    seg = np.repeat(np.arange(len(n)), counts)
    i = np.arange(offsets[-1], dtype=np.int64) - offsets[seg]
    nn = n[seg]
    safe = np.maximum(nn, 1).astype(np.float64)  # n == 0: i == 0, numerator a*0 = 0 -> fix below
    ex, ey, ez = (nudge * e for e in LINE_EPSILON)
    sq, sr = aq[seg], ar[seg]
    ss = -sq - sr
    x = ((sq * nn + dq[seg] * i).astype(np.float64)) / safe + ex
    y = ((sr * nn + dr[seg] * i).astype(np.float64)) / safe + ey
    z = ((ss * nn + (-dq - dr)[seg] * i).astype(np.float64)) / safe + ez
    rq, rr = _round_cube(x, y, z)
    flat = np.column_stack((rq, rr)).astype(np.int32)
    zero = nn == 0
    flat[zero, 0] = sq[zero]
    flat[zero, 1] = sr[zero]
    return offsets, flat


def _padded_class_tables(los_class: np.ndarray, blocking_mask: np.ndarray | None, pad: int):
    cls = np.asarray(los_class)
    if cls.ndim != 2:
        raise ValueError(f"los_class must be a 2-D (col, row) array, got shape {cls.shape}")
    if blocking_mask is not None:
        mask = np.asarray(blocking_mask, dtype=bool)
        if mask.shape != cls.shape:
            raise ValueError(f"blocking_mask shape {mask.shape} differs from los_class shape {cls.shape}")
        cls = np.where(mask, 2, cls)
    w, h = cls.shape
    # Off-map hexes (a line between two map hexes strays at most one hex outside a
    # rectangular offset map) count as clear; padding spares a bounds test per step.
    padded = np.zeros((w + 2 * pad, h + 2 * pad), dtype=np.int8)
    padded[pad:pad + w, pad:pad + h] = cls
    flat = padded.ravel()
    return (flat == 2).astype(np.int32), (flat == 1).astype(np.int32), h + 2 * pad


def line_of_sight_batch(
    pairs_a: np.ndarray,
    pairs_b: np.ndarray,
    los_class: np.ndarray,
    layout: OffsetLayout = OffsetLayout.ODD_Q,
    *,
    blocking_mask: np.ndarray | None = None,
    nudge: int = 1,
    stop_after_blocking: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Count blocking and hindering hexes between many pairs of hexes.

    All rays advance together one hex per step, and rays that are finished (reached their
    target, or reached ``stop_after_blocking`` blocking hexes) are dropped as they go. The
    origin and target hexes are excluded, exactly as in
    :meth:`wargamekit.geometry.hexmap.HexMap.line_of_sight`.

    Args:
        pairs_a: ``(N, 2)`` axial origin hexes (on the map).
        pairs_b: ``(N, 2)`` axial target hexes (on the map).
        los_class: ``(width, height)`` array indexed by ``(col, row)``: 0 clear, 1 hindering,
            2 blocking.
        layout: The offset layout of ``los_class``.
        blocking_mask: Optional ``(width, height)`` bool array of extra blocking hexes (wrecks,
            smoke...), which count as class 2.
        nudge: The line tie-breaking side, ``+1`` or ``-1``.
        stop_after_blocking: If given, a ray stops once it has met this many blocking hexes;
            its blocking count is then exactly this value and its hindering count only covers
            the hexes up to there. ``1`` answers "is it blocked?" fastest.

    Returns:
        ``(blocking, hindering)``: int32 ``(N,)`` counts. LOS is clear where ``blocking == 0``.

    Raises:
        ValueError: On bad shapes, endpoints off the map or a bad ``nudge``.
    """
    if nudge not in (1, -1):
        raise ValueError(f"nudge must be +1 or -1, got {nudge}")
    a, b = as_hex_array(pairs_a), as_hex_array(pairs_b)
    if a.shape != b.shape:
        raise ValueError(f"pair arrays differ in shape: {a.shape} vs {b.shape}")
    pad = 2
    blk, hin, stride = _padded_class_tables(los_class, blocking_mask, pad)
    w, h = np.shape(los_class)
    for ends in (a, b):
        cr = axial_to_offset(ends, layout)
        if len(cr) and ((cr < 0).any() or (cr[:, 0] >= w).any() or (cr[:, 1] >= h).any()):
            raise ValueError("line_of_sight_batch: some endpoints are off the map")

    total = len(a)
    blocking = np.zeros(total, dtype=np.int32)
    hindering = np.zeros(total, dtype=np.int32)
    aq, ar, dq, dr, n = _line_setup(a, b)
    # Per-ray state as float64: integer numerators below 2**53 are exact, and the division
    # is then the same correctly rounded operation as the scalar ``int / int``.
    ids = np.flatnonzero(n >= 2)
    nq = (aq * n).astype(np.float64)[ids]
    nr = (ar * n).astype(np.float64)[ids]
    ns = (-(aq + ar) * n).astype(np.float64)[ids]
    fq = dq.astype(np.float64)[ids]
    fr = dr.astype(np.float64)[ids]
    fs = (-(dq + dr)).astype(np.float64)[ids]
    nf = n.astype(np.float64)[ids]
    ni = n[ids]
    ex, ey, ez = (nudge * e for e in LINE_EPSILON)
    flat_q = layout.flat_top
    shift_one = 1 if layout in (OffsetLayout.EVEN_Q, OffsetLayout.EVEN_R) else 0
    blk_count = np.zeros(len(ids), dtype=np.int32)
    hin_count = np.zeros(len(ids), dtype=np.int32)
    step = 1
    while len(ids):
        x = (nq + fq * step) / nf + ex
        y = (nr + fr * step) / nf + ey
        z = (ns + fs * step) / nf + ez
        rq, rr = _round_cube(x, y, z)
        iq = rq.astype(np.int64)
        ir = rr.astype(np.int64)
        if flat_q:
            idx = (iq + pad) * stride + ir + ((iq + shift_one) >> 1) + pad
        else:
            idx = (iq + ((ir + shift_one) >> 1) + pad) * stride + ir + pad
        blk_count += blk[idx]
        hin_count += hin[idx]
        step += 1
        alive = ni > step
        if stop_after_blocking is not None:
            alive &= blk_count < stop_after_blocking
        n_alive = int(np.count_nonzero(alive))
        if n_alive == len(ids):
            continue
        # Retire finished rays and drop them from the state.
        done = ~alive
        blocking[ids[done]] = blk_count[done]
        hindering[ids[done]] = hin_count[done]
        if n_alive == 0:
            break
        ids, nq, nr, ns, fq, fr, fs, nf, ni, blk_count, hin_count = (
            arr[alive] for arr in (ids, nq, nr, ns, fq, fr, fs, nf, ni, blk_count, hin_count)
        )
    return blocking, hindering
