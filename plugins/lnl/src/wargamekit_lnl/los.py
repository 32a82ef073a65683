"""LOS — line of sight (视线) and SPT — spotting and exposure (索敌与暴露状态), with smoke (SMK)."""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any

import numpy as np

from wargamekit.geometry import BLOCKING, HINDERING, Hex, HexMap, LineOfSight, hex_line_pair
from wargamekit.geometry.hexmap import ElevationHook
from wargamekit.memo import remember
from wargamekit_lnl.data import BRUSH, COUNTERS, effects
from wargamekit_lnl.state import GameState, Place, Unit

__all__ = ["exposed", "hex_exposed", "map_memo", "open_ground", "place_exposed", "sight", "spot_threshold", "steady_map", "visible"]

#: LOS 3.1: this many hindering terrains along the line block it.
HINDRANCES_THAT_BLOCK = 3


def sight(state: GameState, a: Hex, b: Hex) -> LineOfSight:
    """LOS 1–4: a line from centre to centre (SET 2), the hexes between counted, the origin's and
    the target's own terrain excluded (LOS 2), units never blocking (LOS 4); smoke hindering
    (D13); along a hexside the worse of the two lines counts (A34). LOS 3.3: elevation — a hex
    between higher than both ends blocks (a crest), and lower ground is seen over from above
    (:func:`_seen_over`); a building's upper level sees as its ground floor (U9)."""
    return _sight(state, a, b, _smoked_classes(state.map, state.smoke), {})


def _smoked_classes(m: HexMap, smoke: Iterable[Hex]) -> np.ndarray:
    """``m``'s LOS classes with the hexes of ``smoke`` hindering (D13)."""
    cls = m.los_class()
    if smoke:
        cls = np.array(cls, copy=True)
        for h in smoke:
            c, r = m.offset(h)
            cls[c, r] = max(int(cls[c, r]), HINDERING)
    return cls


def _sight(state: GameState, a: Hex, b: Hex, cls: np.ndarray, relief: dict[str | int, Any]) -> LineOfSight:
    """:func:`sight` with the classes ``cls`` (the map's, smoke merged). ``relief`` keeps what
    the map's elevation gives a walk — whether it has hills, and the hexes of the crest above
    each height — for the map's contents as they are: a memo of those contents (:func:`visible`)
    or an empty dict (worked out afresh)."""
    m = state.map
    hills = relief.get("hills")
    if hills is None:
        # (Kept: the layer's any() is ~10,000 instructions, as much as a short line's walk.)
        hills = relief["hills"] = bool(m.elevation.any())
    if hills:  # LOS 3.3 (only maps with hills pay for it)
        elevation = m.elevation
        top = max(int(elevation[m.offset(a)]), int(elevation[m.offset(b)]))
        crest = relief.get(top)
        if crest is None:
            # The hexes higher than both ends block (a crest): kept as hexes, which the core
            # reads in a short loop, where a mask was built and converted at every walk.
            crest = relief[top] = tuple(m.hex_at(int(c), int(r)) for c, r in np.argwhere(elevation > top))
        return m.line_of_sight(a, b, los_class=cls, edge="worse", elevation_hook=_seen_over(a, b),
                               blocking=crest or None)
    return m.line_of_sight(a, b, los_class=cls, edge="worse")


def _seen_over(a: Hex, b: Hex) -> ElevationHook:
    """LOS 3.3 (U9 reading): a hex between lower than the higher end is seen over — its terrain
    neither blocks nor hinders — unless it is next to the lower end (whose own surroundings still
    screen it); with both ends level, a hex lower than both is seen over."""

    def seen_over(h: Hex, e: int, ea: int, eb: int) -> bool:
        if e >= max(ea, eb):
            return False
        if ea == eb:
            return True
        low = a if ea < eb else b
        return h.distance(low) > 1

    return seen_over


def visible(state: GameState, a: Hex, b: Hex) -> LineOfSight | None:
    """The LOS from ``a`` to ``b`` if it is not blocked (LOS 1, LOS 3.1), else ``None``."""
    # The hottest rule query (menus, fire, opportunity fire, snipers, exposure): its answer
    # depends only on the map and the smoke on the line, so it is memoized by those.
    # (Coordinates compared, not the hexes: attrs' __eq__ builds two tuples per call.)
    aq, ar, bq, br = a.q, a.r, b.q, b.r
    if aq == bq and ar == br:
        return LineOfSight(True, 0, 0, ())
    # _held written out (a Python call per line): the innermost steady block's memos if it is
    # this map's, else the checked look-up.
    m = state.map
    top = _STEADY[-1] if _STEADY else None
    smokes, memos = top[1] if top is not None and top[0] is m else _held_checked(m)
    key = (aq, ar, bq, br)
    smoke = _NO_SMOKE
    placed = state.smoke
    if placed:
        # Smoke counts only in the hexes between (LOS 2) on either line a hexside tie may take
        # (A34: the worse one): the answer is keyed by the smoke there, so a line clear of all
        # smoke keeps its answer as smoke comes and goes elsewhere (keyed by the whole layout,
        # each new one was a walk of every line again: a tenth of a fresh game).
        # The smoke that may lie between, by coordinates: each of a line's n steps enters a
        # neighbour and n is the ends' distance, so every hex between is as far from the two
        # ends together as they are apart, which holds exactly where each of its three cube
        # coordinates lies between the ends'; and neither end is between (LOS 2). (Written
        # here, not called, and no list made unless one is found: ~900 instructions a line;
        # five smoky lines in six have no smoke this close, and for those the hexes between
        # are not looked up — a hex's hash is a Python call.)
        if aq < bq:
            q0, q1 = aq, bq
        else:
            q0, q1 = bq, aq
        if ar < br:
            r0, r1 = ar, br
        else:
            r0, r1 = br, ar
        s0, s1 = aq + ar, bq + br  # −s, as q + r
        if s1 < s0:
            s0, s1 = s1, s0
        near = None
        for h in placed:  # (a loop: a comprehension is a call of its own)
            hq, hr = h.q, h.r
            if q0 <= hq <= q1 and r0 <= hr <= r1 and s0 <= hq + hr <= s1 and (hq != aq or hr != ar) \
                    and (hq != bq or hr != br):
                if near is None:
                    near = [h]
                else:
                    near.append(h)
        if near is not None:
            between = memos.get("between")
            if between is None:
                between = memos["between"] = {}
            hexes = between.get(key)
            if hexes is None:
                primary, other = hex_line_pair(a, b)
                hexes = remember(between, key, frozenset(primary[1:-1]) | frozenset(other[1:-1]), _BETWEEN_KEPT)
            on_line = [h for h in near if h in hexes]
            if on_line:
                smoke = frozenset(on_line)
    lines = smokes.get(smoke)
    if lines is None:
        if len(smokes) >= _SMOKES_KEPT:
            del smokes[next(iter(smokes))]
        lines = smokes[smoke] = {}
    seen = lines.get(key, _UNASKED)  # (one look-up of the line: a tuple's hash is not kept)
    if seen is not _UNASKED:
        return seen
    # Smoke off the line changes nothing in it, so the classes are those with the smoke on the
    # line alone, kept read-only by that smoke: the map keeps a read-only array's table by
    # identity (HexMap._user_code), where a new array was a whole map's table to make again at
    # each line walked (~60 walks a fresh game).
    classes = memos.get("classes")
    if classes is None:
        classes = memos["classes"] = {}
    cls = classes.get(smoke)
    if cls is None:
        cls = _smoked_classes(state.map, smoke)
        cls.flags.writeable = False
        remember(classes, smoke, cls, _SMOKES_KEPT)
    relief = memos.get("relief")
    if relief is None:
        relief = memos["relief"] = {}
    line = _sight(state, a, b, cls, relief)
    seen = line if line.clear and line.hindering < HINDRANCES_THAT_BLOCK else None
    lines[key] = seen
    return seen


#: Memo of :func:`visible` by map contents, then by the smoked hexes on the line: lines' answers are shared
#: by every game on the same map (a random game asks the same few hundred lines thousands of
#: times; the line walk, with smoke merged into the classes, was a seventh of a game).
_BY_CONTENT: dict[tuple[object, ...], dict[frozenset[Hex], dict[tuple[int, int, int, int], LineOfSight | None]]] = {}
#: id of a map -> (a weak reference to it, the layers and table its contents were read from,
#: the memo of those contents' lines, the map's other memos): checking the layers' bytes per
#: query is cheap, and catches any change to the map (a test's ``set_terrain``, a direct write
#: to the elevation layer).
_BY_MAP: dict[int, tuple[weakref.ref[HexMap], bytes, bytes, bytes, object,
                         dict[frozenset[Hex], dict[tuple[int, int, int, int], LineOfSight | None]],
                         dict[str, dict[Any, Any]]]] = {}
#: The map checked last, with what ``_BY_MAP`` holds for it: most checks are of one game's map,
#: and this slot spares them the look-up by id and the weak reference's call (~1,200 of a
#: check's ~5,400 instructions). A strong reference, so that the map's id is not reused while
#: it is here; it holds one map past its game at most.
_LAST: list[tuple[Any, ...] | None] = [None]
#: A map's whole contents -> (its terrain table, the :func:`map_memo` memos of those contents).
_MEMOS_BY_CONTENT: dict[tuple[object, ...], tuple[object, dict[str, dict[Any, Any]]]] = {}
#: Bounds of the memo (map contents, smoke layouts per map): oldest forgotten first.
_CONTENTS_KEPT, _SMOKES_KEPT = 8, 64
#: Lines whose hexes between are kept per map contents (a bound: all pairs of a 600-hex map
#: would hold ~300 MB); past it the memo starts again, which costs only the lines' walks.
_BETWEEN_KEPT = 4096
_NO_SMOKE: frozenset[Hex] = frozenset()
#: A line not yet in its memo (``None`` is a blocked line's answer).
_UNASKED: Any = object()


class steady_map:  # noqa: N801 - used as a statement-like context manager (``with steady_map(m):``)
    """A block of rule queries in which ``m``'s layers do not change (a menu or a poll: plain
    calls, no ``yield``, no add-on hook), so its memos are looked up once at its start: each
    :func:`visible` and :func:`map_memo` otherwise checks the three layers' bytes again (a
    poll or an action menu asks dozens of lines). Nestable; a query about another map checks
    as usual."""

    __slots__ = ("_map",)

    def __init__(self, m: HexMap) -> None:
        self._map = m

    def __enter__(self) -> None:
        _STEADY.append((self._map, _held_checked(self._map)))

    def __exit__(self, *exc: object) -> None:
        _STEADY.pop()


#: The maps of the :class:`steady_map` blocks under way, innermost last, with their memos.
_STEADY: list[tuple[HexMap, tuple[Any, Any]]] = []


def _held(m: HexMap) -> tuple[dict[frozenset[Hex], dict[tuple[int, int, int, int], LineOfSight | None]],
                             dict[str, dict[Any, Any]]]:
    """The memos of ``m`` as its layers are now: its lines by smoke, and :func:`map_memo`'s."""
    if _STEADY:
        top = _STEADY[-1]
        if top[0] is m:
            return top[1]
    return _held_checked(m)


def _held_checked(m: HexMap) -> tuple[dict[frozenset[Hex], dict[tuple[int, int, int, int], LineOfSight | None]],
                                     dict[str, dict[Any, Any]]]:
    """:func:`_held`, the layers checked."""
    terrain, elevation, hexsides = m.terrain.tobytes(), m.elevation.tobytes(), m.hexsides.tobytes()
    held = _LAST[0]
    if held is None or held[0] is not m:
        kept = _BY_MAP.get(id(m))
        held = None if kept is None or kept[0]() is not m else (m, *kept[1:])
    if held is not None and held[1] == terrain and held[2] == elevation and held[3] == hexsides \
            and held[4] is m.table:
        _LAST[0] = held
        return held[5], held[6]
    sides = m.hexside_los_class()
    content = (m.width, m.height, m.layout, m.los_class().tobytes(), elevation,
               None if sides is None else sides.tobytes())
    found = _BY_CONTENT.get(content)
    if found is None:
        if len(_BY_CONTENT) >= _CONTENTS_KEPT:
            del _BY_CONTENT[next(iter(_BY_CONTENT))]
        found = _BY_CONTENT[content] = {}
    # The other memos may read any layer and the terrain table: shared by maps equal in all.
    whole = (m.width, m.height, m.layout, terrain, elevation, hexsides)
    table_memos = _MEMOS_BY_CONTENT.get(whole)
    if table_memos is None or table_memos[0] is not m.table:
        if len(_MEMOS_BY_CONTENT) >= _CONTENTS_KEPT:
            del _MEMOS_BY_CONTENT[next(iter(_MEMOS_BY_CONTENT))]
        table_memos = _MEMOS_BY_CONTENT[whole] = (m.table, {})
    memos = table_memos[1]
    key = id(m)
    _BY_MAP[key] = (weakref.ref(m, lambda _ref: _BY_MAP.pop(key, None)), terrain, elevation, hexsides, m.table,
                    found, memos)
    _LAST[0] = (m, terrain, elevation, hexsides, m.table, found, memos)
    return found, memos


def map_memo(m: HexMap, name: str) -> dict[Any, Any]:
    """A memo named ``name`` of answers that depend only on the map ``m`` (its layers and
    terrain table), forgotten as soon as any of them changes — for rule queries asked over and
    over of a map that never changes after set-up (SET 2), e.g. the step costs of the move menu."""
    memos = _held(m)[1]
    memo = memos.get(name)
    if memo is None:
        memo = memos[name] = {}
    return memo


def hex_exposed(state: GameState, place: Place, side: str) -> bool:
    """Whether ``side``'s units at ``place`` are exposed (SPT 1–6), ignoring adjacency (SPT 4)."""
    # SPT 3: a move, assault or fire marker in the hex exposes every unit there.
    return place_exposed(state, place) or any(u.markers & _EXPOSING for u in state.at(place))


def place_exposed(state: GameState, place: Place, open_hexes: frozenset[tuple[int, int]] | None = None) -> bool:
    """SPT 1–3 but the markers: open ground, a spotted marker, a melee marker — when it holds,
    every unit at ``place`` is :func:`exposed`. ``open_hexes``: :func:`open_ground` of the
    state's map, if the caller has it (a menu asking of many places)."""
    h, level = place
    if level == 0:  # SPT 1
        if open_hexes is None:
            if effects(state.terrain(h)).open:
                return True
        elif (h.q, h.r) in open_hexes:
            return True
    # SPT 2, SPT 6; SPT 3 (melee marker). The sets' emptiness first: a membership test hashes
    # the place, and its hex's hash is a Python call (exposure is asked ~400 times a game).
    spotted, melee = state.spotted, state.melee
    return bool(spotted) and place in spotted or bool(melee) and place in melee


def open_ground(state: GameState) -> frozenset[tuple[int, int]]:
    """The hexes of open terrain (SPT 1) of the state's map, as ``(q, r)``: kept by the map's
    memo (:func:`map_memo`; the map never changes, SET 2), where each place's terrain read and
    its effects cost ~4,000 instructions — the action menu reads ~5 enemy places."""
    memo = map_memo(state.map, "open ground")
    found = memo.get("hexes")
    if found is None:
        found = memo["hexes"] = frozenset((h.q, h.r) for h in state.map.hexes() if effects(state.terrain(h)).open)
    return found


#: SPT 3: markers that expose every unit in their hex.
_EXPOSING = frozenset({"move", "assault", "fire"})


def exposed(state: GameState, unit: Unit) -> bool:
    """SPT 1–5: the unit can be fired at (FIR 1.1). SPT 4 (A35): adjacent to a Good Order enemy
    unit (or on another level of the same hex). SPT 5 (A36) is read as adjacency to the enemy mover, which SPT 4 already covers."""
    # (The counter's vehicle data read inline, not Unit.vehicle: a property read per call.)
    if COUNTERS.units[unit.type].vehicle is not None:
        return True  # vehicles are always exposed (a reading: the source is silent)
    h, level, side = unit.hex, unit.level, unit.side
    if place_exposed(state, (h, level)):
        return True
    # hex_exposed's markers (SPT 3) and adjacency (SPT 4) in one pass over the units, no list
    # built (every fire, spot and sniper menu asks, ~400 times a random game, each a pass over
    # every unit): the coordinates' offsets first, and neither a set intersection (a new set
    # per unit) nor a call of Hex.distance per unit.
    q, r = h.q, h.r
    for e in state.units.values():
        if e.alive:
            eh = e.hex
            dq, dr = eh.q - q, eh.r - r
            if not dq and not dr and e.level == level and not e.markers.isdisjoint(_EXPOSING):
                return True
            # distance ≤ 1: each axial offset within one (comparisons, no abs() calls)
            if e.side != side and not e.shaken and -1 <= dq <= 1 and -1 <= dr <= 1 and -1 <= dq + dr <= 1:
                return True
    return False


def spot_threshold(state: GameState, h: Hex) -> int:
    """SPT 7.4–7.5: the highest final result that spots a unit in this hex's terrain (hindering
    terrain 3, blocking terrain 2)."""
    return 3 if state.terrain(h) == BRUSH else 2


def blocking_terrain(state: GameState, h: Hex) -> bool:
    """Whether the hex's own terrain blocks LOS (woods, buildings)."""
    return int(state.map.los_class()[state.map.offset(h)]) == BLOCKING
