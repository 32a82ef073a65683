"""Numpy batch forms of the hex operations, on ``(N, 2)`` int32 arrays of axial ``(q, r)``.

Each function gives exactly the answer of its scalar form in :mod:`wargamekit.geometry.hex`
(the tests check this with Hypothesis and by exhaustive enumeration).

Lines are computed in exact integer form. On the line from ``a`` to ``b`` with
``n = distance(a, b)``, the cube coordinate with the largest ``|b - a|`` (the *dominant* one)
moves exactly one hex per step, and one other coordinate (the *secondary* one: ``r``, or ``q``
when ``r`` is dominant) is ``floor((2 * d * i + n - t) / (2 * n))`` at step ``i``, where ``d`` is
its delta and ``t`` is 0 for ``nudge=+1`` and 1 for ``nudge=-1`` (the :data:`LINE_EPSILON`
nudge only ever decides exact ties, and always in that direction). So the line depends only on
``b - a``: ``line(a, b) == a + line(0, b - a)``, and one ray costs a multiply-add, a truncation
and a gather per step.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Literal

import numpy as np

from wargamekit.geometry.hex import DIRECTIONS, Hex, OffsetLayout

__all__ = [
    "as_hex_array",
    "distance",
    "disk",
    "disks",
    "axial_to_offset",
    "offset_to_axial",
    "lines",
    "line_of_sight_batch",
    "BatchElevationHook",
]

#: ``hook(hexes, hex_elevation, origin_elevation, target_elevation) -> seen_over``, all arrays of
#: one length ``M`` (``hexes`` is ``(M, 2)`` axial int32, the others int): the batch form of
#: :data:`wargamekit.geometry.hexmap.ElevationHook`. It returns a bool ``(M,)`` array, True where
#: the hex is seen over (it then neither blocks nor hinders). It is called only for hexes that
#: block or hinder.
BatchElevationHook = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


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
    # The scratch memory read as (N, 2): one contiguous subtraction and one abs for both
    # coordinates (about a third faster than column by column).
    d = scratch.reshape(n, 2)
    np.subtract(a, b, out=d)
    dq, dr = d[:, 0], d[:, 1]
    np.add(dq, dr, out=out)
    np.abs(out, out=out)
    np.abs(d, out=d)
    np.maximum(dq, dr, out=dq)
    np.maximum(out, dq, out=out)
    return out


@functools.lru_cache(maxsize=64)
def _disk_offsets(radius: int) -> np.ndarray:
    k = np.arange(-radius, radius + 1, dtype=np.int32)
    dq, dr = np.meshgrid(k, k, indexing="ij")
    keep = np.abs(dq + dr) <= radius
    out = np.column_stack((dq[keep], dr[keep])).astype(np.int32)
    out.flags.writeable = False
    return out


def disk(center: Hex | tuple[int, int], radius: int) -> np.ndarray:
    """All hexes within ``radius`` of ``center`` as int32 ``(M, 2)``, in the order of :meth:`Hex.disk`.

    The offsets of a disk of each radius are computed once and cached; a call adds the centre.

    Raises:
        ValueError: If ``radius`` is negative.

    >>> disk(Hex(0, 0), 1).tolist()
    [[-1, 0], [-1, 1], [0, -1], [0, 0], [0, 1], [1, -1], [1, 0]]
    """
    if radius < 0:
        raise ValueError(f"disk radius must be >= 0, got {radius}")
    cq, cr = (center.q, center.r) if isinstance(center, Hex) else center
    return _disk_offsets(int(radius)) + np.array([cq, cr], dtype=np.int32)


def disks(centers: np.ndarray, radius: int) -> np.ndarray:
    """The disk of ``radius`` around each centre: int32 ``(N, M, 2)``, each disk in the order of :meth:`Hex.disk`.

    Raises:
        ValueError: If ``radius`` is negative or ``centers`` is not ``(N, 2)``.

    >>> disks(np.array([[0, 0], [5, -2]]), 1)[1].tolist()
    [[4, -2], [4, -1], [5, -3], [5, -2], [5, -1], [6, -3], [6, -2]]
    """
    if radius < 0:
        raise ValueError(f"disk radius must be >= 0, got {radius}")
    c = as_hex_array(centers)
    offs = _disk_offsets(int(radius))
    out = np.empty((len(c), len(offs), 2), dtype=np.int32)
    np.add(c[:, None, :], offs[None, :, :], out=out)
    return out


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


# -- exact integer lines -----------------------------------------------------------------------


#: Per line kind ``2 * dominant + (dominant delta > 0)`` (dominant 0 = q, 1 = r, 2 = s): the
#: factors ``(cq, kq, cr, kr)`` of ``q_i = cq*i + kq*v_i``, ``r_i = cr*i + kr*v_i``.
_KIND_FACTORS = np.array(
    [(-1, 0, 0, 1), (1, 0, 0, 1),      # q dominant: q = +-i, r = v
     (0, 1, -1, 0), (0, 1, 1, 0),      # r dominant: q = v, r = +-i
     (1, -1, 0, 1), (-1, -1, 0, 1)],   # s dominant: r = v, q = -s - r = -+i - v
    dtype=np.int32,
)


def _line_kinds(dq: np.ndarray, dr: np.ndarray):
    """Per segment of delta ``(dq, dr)`` (int32): ``n, kind, sec`` of its exact integer line.

    The hex at step ``i`` is given by the factors ``_KIND_FACTORS[kind]`` and the secondary
    coordinate ``v_i`` (see :func:`_line_floats`); ``sec`` is the secondary coordinate's delta.
    """
    ds = -dq
    ds -= dr
    adq, adr = np.abs(dq), np.abs(dr)
    n = np.maximum(adq, adr)
    np.maximum(n, np.abs(ds), out=n)
    dom_q = adq == n
    dom_r = adr == n
    dom_r &= ~dom_q
    dom_s = ~(dom_q | dom_r)
    pos = dom_q & (dq > 0)
    pos |= dom_r & (dr > 0)
    pos |= dom_s & (ds > 0)
    kind = dom_r.view(np.int8) + 2 * dom_s.view(np.int8)
    kind *= 2
    kind += pos.view(np.int8)
    sec = dq - dr
    sec *= dom_r
    sec += dr
    return n, kind, sec


def _line_floats(n: np.ndarray, sec: np.ndarray, nudge: int) -> tuple[np.ndarray, np.ndarray]:
    """``f0, f1`` with ``v_i = floor(f0 + f1 * i) = floor((2 * sec * i + n - t) / (2n))``.

    The exact value is a fraction with denominator ``4n`` that is never an integer (the
    ``+ 0.5`` below), so it stays ``1 / (4n)`` away from integers. Float64 rounding, including
    :func:`_march` adding ``f1`` once per step, stays below ``n**2 * 5e-16``: far inside that
    margin for lines up to tens of thousands of hexes.
    """
    inv = 1.0 / np.maximum(n, 1)
    t = 0.0 if nudge == 1 else 1.0
    f0 = inv * (0.25 - 0.5 * t)  # (n - t + 0.5) / (2n) = 0.5 + (0.5 - t) / (2n)
    f0 += 0.5
    inv *= sec
    return f0, inv


def _line_params(dq: np.ndarray, dr: np.ndarray, nudge: int):
    """``n, kind, f0, f1, sec`` of each segment: :func:`_line_kinds` and :func:`_line_floats` together."""
    n, kind, sec = _line_kinds(dq, dr)
    f0, f1 = _line_floats(n, sec, nudge)
    return n, kind, f0, f1, sec


def _has_tie(n: np.ndarray, sec: np.ndarray) -> np.ndarray:
    """True where the two nudges give different lines (the exact line meets a hexside edge-on).

    A tie is a step ``0 < i < n`` with ``2 * sec * i == n (mod 2n)``, which exists exactly when
    ``n / gcd(sec, n)`` is even.
    """
    g = np.gcd(sec, n)
    return (n >= 2) & ((n // np.maximum(g, 1)) % 2 == 0)


def _check_nudge(nudge: int) -> None:
    if nudge not in (1, -1):
        raise ValueError(f"nudge must be +1 or -1, got {nudge}")


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
    _check_nudge(nudge)
    a, b = as_hex_array(a), as_hex_array(b)
    if a.shape != b.shape:
        raise ValueError(f"segment ends differ in shape: {a.shape} vs {b.shape}")
    n, kind, f0, f1, _ = _line_params(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1], nudge)
    cq, kq, cr, kr = _KIND_FACTORS[kind].T
    counts = n + 1
    offsets = np.zeros(len(n) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    total = int(offsets[-1])
    # Step number within its line, without a per-element segment id: a running count that
    # restarts at each line's first element.
    i = np.ones(total, dtype=np.int32)
    if total:
        starts = offsets[:-1]
        i[0] = 0
        i[starts[1:]] = -n[:-1].astype(np.int32)
        np.cumsum(i, out=i)
    v = np.repeat(f1, counts)
    v *= i
    v += np.repeat(f0, counts)
    vi = v.astype(np.int32)  # v > 0 is not guaranteed: fix truncation towards zero below
    vi -= v < vi
    flat = np.empty((total, 2), dtype=np.int32)
    q, r = flat[:, 0], flat[:, 1]
    np.multiply(np.repeat(cq, counts), i, out=q)
    q += np.repeat(kq, counts) * vi
    q += np.repeat(a[:, 0], counts)
    np.multiply(np.repeat(cr, counts), i, out=r)
    r += np.repeat(kr, counts) * vi
    r += np.repeat(a[:, 1], counts)
    return offsets, flat


# -- line of sight ------------------------------------------------------------------------------

_PAD = 2


@functools.lru_cache(maxsize=16)
def _axial_grid(width: int, height: int, layout: OffsetLayout):
    """The map's cells in an axial-indexed padded array: ``(qmin, rmin, Q, S, cell, onmap)``.

    Hex ``(q, r)`` lives at flat index ``(q - qmin + PAD) * S + (r - rmin + PAD)``; ``cell`` maps
    the map cell ``col * height + row`` to that index and ``onmap`` marks the map's hexes. Hexes in the padded box that are not on
    the map hold 0 (clear) in every table; a line between two hexes in the box strays at most
    one hex outside it.
    """
    cols, rows = np.meshgrid(np.arange(width), np.arange(height), indexing="ij")
    ax = offset_to_axial(np.column_stack((cols.ravel(), rows.ravel())), layout).astype(np.int64)
    qmin, rmin = int(ax[:, 0].min()), int(ax[:, 1].min())
    q_span = int(ax[:, 0].max()) - qmin + 1 + 2 * _PAD
    s = int(ax[:, 1].max()) - rmin + 1 + 2 * _PAD
    cell = (ax[:, 0] - qmin + _PAD) * s + (ax[:, 1] - rmin + _PAD)
    onmap = np.zeros(q_span * s, dtype=bool)
    onmap[cell] = True
    cell.flags.writeable = False
    onmap.flags.writeable = False
    return qmin, rmin, q_span, s, cell, onmap


def _sorted_rays(a: np.ndarray, b: np.ndarray, grid, nudge: int, dtype, with_target: bool):
    """The rays that take a step, longest first, set up for :func:`_march`; also ``n`` and ``sec`` of all rays.

    A ray's flat index at step ``i`` is ``start + alpha * i + beta * v_i``.
    """
    qmin, rmin, _q_span, s, _cell, _onmap = grid
    n, kind, sec = _line_kinds(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1])
    # With hexsides the walk includes the step into the target (for its hexside).
    steps = n if with_target else n - 1
    big = int(steps.max(initial=0))
    key = steps.astype(np.int16 if big < 32000 else np.int64)
    np.negative(key, out=key)
    ids = np.argsort(key, kind="stable")
    live = int(np.searchsorted(key[ids], key.dtype.type(0)))  # rays with steps >= 1 come first
    ids = ids[:live]
    factors = _KIND_FACTORS.astype(np.int64)
    alpha_t = (factors[:, 0] * s + factors[:, 2]).astype(dtype)
    beta_t = (factors[:, 1] * s + factors[:, 3]).astype(dtype)
    k = kind[ids]
    alpha, beta = alpha_t[k], beta_t[k]
    fcur, f1 = _line_floats(n[ids], sec[ids], nudge)
    # The secondary coordinate is truncated, not floored: shift it positive by an offset
    # larger than any ray's secondary change, folded into the start index.
    off = 2 * (big // 2 + 2)
    fcur += off
    start = (a[:, 0] - (qmin - _PAD)).astype(dtype)
    start *= s
    start += a[:, 1] - (rmin - _PAD)
    return ids, key[ids], start[ids], alpha, beta, fcur, f1, off, n, sec


def _march(ids, neg_steps, start, alpha, beta, fcur, f1s, off, total, code, *, weight: int,
           stop: int | None, side=None, ends: bool = False, hook=None) -> np.ndarray:
    """Walk all rays together and return each ray's ``blocking * weight + hindering``.

    The rays come from :func:`_sorted_rays`. ``code`` is the flat axial table of per-hex
    contributions (``weight`` for blocking, 1 for hindering, 0 clear). Rays are sorted
    longest first, so the rays still walking at step ``i`` are a prefix and a finished ray
    costs nothing; rays that reach ``stop`` blocks are retired when met and dropped in chunks.

    ``side`` = ``(side_code, lut)`` adds hexside crossings: ``side_code[lut[cur - prev] + prev]``
    is the contribution of the hexside crossed from ``prev`` to the adjacent ``cur``. The
    crossings out of the origin and into the target count only if ``ends``.

    ``hook`` = ``(fn, elev, elev_a, elev_b, grid)`` zeroes the contribution of hexes seen over.
    """
    result = np.zeros(total, dtype=np.int64)
    if ids.size == 0:
        return result
    acc_t = code.dtype.type
    # A retired ray's sum is set far below zero; the steps it may still take cannot lift it
    # back to the threshold (see the choice of weight and dtype in line_of_sight_batch).
    sentinel = -(2**30) if acc_t is np.int32 else -(2**62)
    al, be = alpha, beta
    cur_base = start - be * off
    prev = start.copy() if side is not None else None
    acc = np.zeros(len(ids), dtype=acc_t)
    m = len(ids)
    vbuf = np.empty(m, dtype=acc_t)
    gbuf = np.empty(m, dtype=acc_t)
    thresh = None if stop is None else stop * weight
    dead = 0
    i = 1
    while True:
        # (a scalar of the array's own type: a Python int would convert the array each time)
        m = int(np.searchsorted(neg_steps, neg_steps.dtype.type(-i), side="right"))
        if m == 0:
            break
        fc = fcur[:m]
        fc += f1s[:m]
        v = vbuf[:m]
        np.copyto(v, fc, casting="unsafe")
        v *= be[:m]
        cb = cur_base[:m]
        cb += al[:m]
        v += cb
        g = gbuf[:m]
        if side is None:
            np.take(code, v, out=g, mode="clip")
            if hook is not None:
                _apply_hook(hook, g, v, ids[:m])
            acc[:m] += g
        else:
            # Rays whose last step is this one are the suffix [m_next, m): their "hex" is the target.
            m_next = int(np.searchsorted(neg_steps, neg_steps.dtype.type(-(i + 1)), side="right"))
            side_code, lut = side
            assert prev is not None  # kept whenever hexsides count
            p = prev[:m]
            np.subtract(v, p, out=g)
            gi = lut[g]
            gi += p
            sc = side_code[gi]
            lo = 0 if (ends or i > 1) else m
            hi = m if ends else m_next
            if lo < hi:
                acc[lo:hi] += sc[lo:hi]
            if m_next:
                gh = g[:m_next]
                np.take(code, v[:m_next], out=gh, mode="clip")
                if hook is not None:
                    _apply_hook(hook, gh, v[:m_next], ids[:m_next])
                acc[:m_next] += gh
            p[...] = v
        i += 1
        if thresh is not None:
            hit = np.flatnonzero(acc[:m] >= thresh)
            if hit.size:
                result[ids[hit]] = acc[hit]
                acc[hit] = sentinel
                dead += hit.size
                if 4 * dead >= m:
                    # Drop the retired rays, and record and drop the finished ones.
                    rest = acc[m:]
                    fin = rest >= 0
                    result[ids[m:][fin]] = rest[fin]
                    keep = np.flatnonzero(acc[:m] >= 0)
                    ids, neg_steps, fcur, f1s, al, be, cur_base, acc = (
                        x[keep] for x in (ids, neg_steps, fcur, f1s, al, be, cur_base, acc))
                    if prev is not None:
                        prev = prev[keep]
                    dead = 0
    fin = acc >= 0
    result[ids[fin]] = acc[fin]
    return result


def _apply_hook(hook, g: np.ndarray, idx: np.ndarray, rays: np.ndarray) -> None:
    fn, elev, elev_a, elev_b, grid = hook
    nz = np.flatnonzero(g)
    if nz.size == 0:
        return
    qmin, rmin, _q_span, s, _cell, _onmap = grid
    cells = idx[nz].astype(np.int64)
    hexes = np.column_stack((cells // s + (qmin - _PAD), cells % s + (rmin - _PAD))).astype(np.int32)
    r = rays[nz]
    seen = np.asarray(fn(hexes, elev[cells], elev_a[r], elev_b[r]))
    if seen.shape != nz.shape or seen.dtype != np.bool_:
        raise TypeError(
            "a batch elevation_hook must return a bool array with one entry per hex "
            f"(shape {nz.shape}), got {seen.dtype} {seen.shape}; see hexbatch.BatchElevationHook")
    g[nz[seen]] = 0


def _side_tables(hexside_los: np.ndarray, width: int, height: int, grid, weight: int):
    """Hexside contributions in the axial grid, ``(side_code, lut)`` for :func:`_march`."""
    _qmin, _rmin, q_span, s, cell, onmap = grid
    hs = np.asarray(hexside_los)
    if hs.shape != (width, height, 6):
        raise ValueError(f"hexside_los shape {hs.shape} differs from the map's {(width, height, 6)}")
    vals = np.where(hs == 2, weight, (hs == 1).astype(np.int64)).reshape(-1, 6)
    ncell = q_span * s
    side_code = np.zeros(6 * ncell, dtype=np.int64)
    step = [dq * s + dr for dq, dr in DIRECTIONS]
    for d in range(6):
        side_code[d * ncell + cell] = vals[:, d]
    for d in range(6):
        # A hex off the map sees the feature its on-map neighbour put on their common hexside.
        opp = (d + 3) % 6
        nb = cell[vals[:, opp] != 0]
        x = nb - step[d]
        off = ~onmap[x]
        side_code[d * ncell + x[off]] = vals[vals[:, opp] != 0, opp][off]
    # Indexed by cur - prev, one of the six steps +-1, +-s, +-(s - 1): negative ones wrap
    # around, and with s >= 5 all six land on different entries.
    lut = np.zeros(2 * s + 2, dtype=np.int64)
    for d in range(6):
        lut[step[d]] = d * ncell
    return side_code, lut


def line_of_sight_batch(
    pairs_a: np.ndarray,
    pairs_b: np.ndarray,
    los_class: np.ndarray,
    layout: OffsetLayout = OffsetLayout.ODD_Q,
    *,
    blocking_mask: np.ndarray | None = None,
    nudge: int = 1,
    stop_after_blocking: int | None = None,
    edge: Literal["primary", "worse", "better"] = "primary",
    hexside_los: np.ndarray | None = None,
    hexside_at_ends: bool = False,
    elevation: np.ndarray | None = None,
    elevation_hook: BatchElevationHook | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Count blocking and hindering hexes between many pairs of hexes.

    All rays advance together one hex per step, longest first, so rays that reach their
    target stop costing anything; rays that reach ``stop_after_blocking`` blocking hexes are
    retired when met and dropped in chunks. The origin and target hexes are excluded, exactly
    as in :meth:`wargamekit.geometry.hexmap.HexMap.line_of_sight`.

    Args:
        pairs_a: ``(N, 2)`` axial origin hexes (on the map).
        pairs_b: ``(N, 2)`` axial target hexes (on the map).
        los_class: ``(width, height)`` array indexed by ``(col, row)``: 0 clear, 1 hindering,
            2 blocking.
        layout: The offset layout of ``los_class``.
        blocking_mask: Optional ``(width, height)`` bool array of extra blocking hexes (wrecks,
            smoke...), which count as class 2.
        nudge: The line tie-breaking side, ``+1`` or ``-1`` (used with ``edge="primary"``).
        stop_after_blocking: If given, a ray stops once it has met this many blocking hexes;
            its blocking count is then exactly this value and its hindering count only covers
            the steps up to there. ``1`` answers "is it blocked?" fastest.
        edge: ``"primary"`` uses the ``nudge`` line; ``"worse"`` / ``"better"`` walk both nudges
            where they differ (the line runs along hexsides) and keep the worse / better one
            per pair, by blocking count then hindering count, as the scalar form does. With
            ``stop_after_blocking`` the truncated counts are compared.
        hexside_los: Optional ``(width, height, 6)`` LOS class (0, 1, 2) of the hexside of each
            hex in each direction; a line crossing that hexside counts it as a hindering or
            blocking "hex". Off-map hexes see the class their on-map neighbour gives.
        hexside_at_ends: Whether the hexsides of the origin and target hexes themselves count
            (default: no, like their terrain).
        elevation: ``(width, height)`` elevations, needed by ``elevation_hook``.
        elevation_hook: A :data:`BatchElevationHook`: hexes it declares seen over neither block
            nor hinder (hexsides are not passed to it).

    Returns:
        ``(blocking, hindering)``: int32 ``(N,)`` counts. LOS is clear where ``blocking == 0``.

    Raises:
        ValueError: On bad shapes, endpoints off the map, a bad ``nudge`` or ``edge``, or an
            ``elevation_hook`` without ``elevation``.
        TypeError: If ``elevation_hook`` does not return one bool per hex.
    """
    _check_nudge(nudge)
    if edge not in ("primary", "worse", "better"):
        raise ValueError(f"edge must be 'primary', 'worse' or 'better', got {edge!r}")
    a, b = as_hex_array(pairs_a), as_hex_array(pairs_b)
    if a.shape != b.shape:
        raise ValueError(f"pair arrays differ in shape: {a.shape} vs {b.shape}")
    cls = np.asarray(los_class)
    if cls.ndim != 2:
        raise ValueError(f"los_class must be a 2-D (col, row) array, got shape {cls.shape}")
    w, h = cls.shape
    if blocking_mask is not None:
        mask = np.asarray(blocking_mask, dtype=bool)
        if mask.shape != cls.shape:
            raise ValueError(f"blocking_mask shape {mask.shape} differs from los_class shape {cls.shape}")
        cls = np.where(mask, 2, cls)
    if elevation_hook is not None and elevation is None:
        raise ValueError("line_of_sight_batch: elevation_hook needs the elevation layer (elevation=...)")
    if stop_after_blocking is not None and stop_after_blocking < 1:
        raise ValueError(f"stop_after_blocking must be >= 1, got {stop_after_blocking}")
    grid = _axial_grid(int(w), int(h), layout)
    qmin, rmin, q_span, s, cell, onmap = grid
    for ends in (a, b):
        if not len(ends):
            break
        q = ends[:, 0].astype(np.int64) - qmin + _PAD
        r = ends[:, 1].astype(np.int64) - rmin + _PAD
        ok = (q >= _PAD) & (q < q_span - _PAD) & (r >= _PAD) & (r < s - _PAD)
        if not ok.all() or not onmap[q * s + r].all():
            raise ValueError("line_of_sight_batch: some endpoints are off the map")

    # Each ray sums weight per blocking and 1 per hindering step; a ray has at most w + h
    # steps, each adding a hex and a hexside, so hindering never reaches weight.
    n_max = int(w + h + 4)
    weight = 2 * n_max + 2
    acc_t = np.int32 if (2 * n_max + 2) * weight < 2**29 else np.int64
    code = np.zeros(q_span * s, dtype=acc_t)
    flat_cls = cls.ravel()
    code[cell] = np.where(flat_cls == 2, weight, flat_cls == 1)
    side = None
    if hexside_los is not None and np.any(hexside_los):
        side_code, lut = _side_tables(hexside_los, int(w), int(h), grid, weight)
        side = (side_code.astype(code.dtype), lut.astype(code.dtype))
    elev = None
    if elevation_hook is not None:
        el = np.asarray(elevation)
        if el.shape != cls.shape:
            raise ValueError(f"elevation shape {el.shape} differs from los_class shape {cls.shape}")
        elev = np.zeros(q_span * s, dtype=np.int64)
        elev[cell] = el.ravel()

    def walk(sel: np.ndarray | None, nud: int):
        aa, bb = (a, b) if sel is None else (a[sel], b[sel])
        ids, neg_steps, start, alpha, beta, fcur, f1s, off, n, sec = _sorted_rays(
            aa, bb, grid, nud, code.dtype, side is not None)
        hk = None
        if elev is not None:
            qa = (aa[:, 0].astype(np.int64) - (qmin - _PAD)) * s + aa[:, 1] - (rmin - _PAD)
            qb = (bb[:, 0].astype(np.int64) - (qmin - _PAD)) * s + bb[:, 1] - (rmin - _PAD)
            hk = (elevation_hook, elev, elev[qa], elev[qb], grid)
        acc = _march(ids, neg_steps, start, alpha, beta, fcur, f1s, off, len(aa), code, weight=weight,
                     stop=stop_after_blocking, side=side, ends=hexside_at_ends, hook=hk)
        return acc, n, sec

    if edge == "primary":
        acc, _, _ = walk(None, nudge)
    else:
        acc, n, sec = walk(None, 1)
        tie = np.flatnonzero(_has_tie(n, sec))
        if tie.size:
            other, _, _ = walk(tie, -1)
            pick = np.maximum if edge == "worse" else np.minimum
            acc[tie] = pick(acc[tie], other)
    blocking = (acc // weight).astype(np.int32)
    hindering = (acc % weight).astype(np.int32)
    return blocking, hindering
