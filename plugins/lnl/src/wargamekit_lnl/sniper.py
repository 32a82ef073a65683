"""SMC 2 — the sniper (狙击手): placed at any time in a hex with no enemy units (SMC 2.1), never
moving, firing at once at one exposed enemy unit in its LOS (SMC 2.2) with 2D6 (SMC 2.3, D8).

The source gives no sniper table (D8): :class:`SniperTable` is scenario data, provisional and
labelled on the docs page. :func:`snipe` is a pure function of the dice and a frozen shot, so
:func:`wargamekit.odds.distribution` gives its exact odds.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from attrs import frozen

from wargamekit import Dice, odds
from wargamekit.geometry import LineOfSight
from wargamekit_lnl import fire
from wargamekit_lnl.data import COUNTERS, HINDRANCE_DRM
from wargamekit_lnl.los import exposed, map_memo, steady_map, visible
from wargamekit_lnl.state import GameState, Place, Unit, single_men, squad_equivalents

__all__ = ["SniperShot", "has_target", "map_places", "placements", "shot_along", "shot_at", "snipe", "snipe_odds",
           "target_lines", "targets"]


@frozen
class SniperShot:
    """One sniper attack, everything but the dice.

    Attributes:
        drm: added to the 2D6: the target hex's terrain DRM (FPR 3, capped at 4) and +1 per
            hindering hex between (D3).
        casualty: a final result at or below it is a casualty (D8).
        shaken: at or below it (and above ``casualty``) the target is shaken (D8).
        target: the damage-check view of the one target unit (its kind and state decide what
            a casualty or a shaken result does, as on the DFT, FPR 5 / D4).
    """

    drm: int
    casualty: int
    shaken: int
    target: fire.Target


def snipe(dice: Dice, shot: SniperShot) -> str:
    """SMC 2.3 with the provisional table (D8): 2D6 + DRM ≤ ``casualty`` → a casualty (a squad
    reduced, a half-squad, team or crew eliminated, a single-man counter wounded, a wounded one
    eliminated); ≤ ``shaken`` → shaken (a casualty if already shaken, as on the DFT, D4); else no
    effect."""
    value = sum(dice.nd6(2, "sniper")) + shot.drm
    t = shot.target
    if value <= shot.casualty:
        return fire.dft(t.morale + 99, t)
    if value <= shot.shaken:
        return fire.dft(t.morale + 1, t)
    return fire.NO_EFFECT


@cache
def snipe_odds(shot: SniperShot) -> dict[str, Fraction]:
    """Exact odds of each result of a sniper shot."""
    # Plain faces (lazy=False): the shot compares the dice's sum with two thresholds, where
    # lazy die values split the sum three ways only after building it (2.41 M instructions a
    # shot against 1.17 M for its 36 plain runs; a fresh game meets about one new shot).
    return odds.distribution(snipe, shot, lazy=False)


def shot_at(state: GameState, sniper: Unit, target: Unit, casualty: int, shaken: int) -> SniperShot | None:
    """The shot ``sniper`` would fire at ``target``, or ``None`` if it may not (SMC 2.2: exposed,
    in LOS and range (the sniper counter's), not in a melee hex (FIR 1.3); infantry only)."""
    line = _line_to(state, sniper, target)
    return None if line is None else shot_along(state, sniper, target, line, casualty, shaken)


def shot_along(state: GameState, sniper: Unit, target: Unit, line: LineOfSight, casualty: int,
               shaken: int) -> SniperShot:
    """The shot ``sniper`` fires at ``target`` along ``line``, the LOS :func:`target_lines`
    found to it (SMC 2.2–2.4, D3)."""
    # SMC 2.4: a sniper's terrain is not doubled against an enemy sniper.
    drm = fire.terrain_drm(state, sniper.hex, target.place) + HINDRANCE_DRM * line.hindering
    return SniperShot(drm, casualty, shaken, fire.Target.of(state, target))


def _line_to(state: GameState, sniper: Unit, target: Unit) -> LineOfSight | None:
    """The LOS :func:`shot_at` fires along, or ``None`` if it may not fire (SMC 2.2)."""
    # The cheap tests first, then the LOS (memoized) before exposure (a pass over every unit),
    # as has_target: the LOS settles most enemies in range (both must hold: the same answer).
    if target.vehicle or target.side == sniper.side or not target.alive:
        return None
    if target.place in state.melee or sniper.hex.distance(target.hex) > sniper.spec.range:
        return None
    line = visible(state, sniper.hex, target.hex)
    return None if line is None or not exposed(state, target) else line


def targets(state: GameState, sniper: Unit, casualty: int, shaken: int) -> list[tuple[Unit, SniperShot]]:
    """Every enemy unit the sniper may fire at, with its shot (none when it is shaken, RAL 2.7)."""
    return [(u, shot_along(state, sniper, u, line, casualty, shaken)) for u, line in target_lines(state, sniper)]


def target_lines(state: GameState, sniper: Unit) -> list[tuple[Unit, LineOfSight]]:
    """Every enemy unit the sniper may fire at, with the LOS it fires along (:func:`targets`
    without the shots: a menu's shots are made for the labels read and the target chosen)."""
    if sniper.shaken or not sniper.alive:
        return []
    out = []
    with steady_map(state.map):  # the map's memos looked up once for every line asked
        for u in state.alive():
            line = _line_to(state, sniper, u)
            if line is not None:
                out.append((u, line))
    return out


def has_target(state: GameState, sniper: Unit, casualty: int, shaken: int) -> bool:
    """Whether :func:`targets` is not empty (it stops at the first target)."""
    if sniper.shaken or not sniper.alive:
        return False
    # Whether a shot exists, not the shot (its DRM and target): ready() and can_act ask at every
    # impulse. _line_to's tests inline, the cheap ones first; then the LOS (memoized) before
    # exposure (a pass over every unit): in random games nearly every enemy in range is exposed
    # and only one in five in LOS, so the LOS settles most of them (the same answer: both must hold).
    # The side before the counter's vehicle data (an enemy's test, not a property read per unit:
    # 27,500 instructions a call were ~1 M a game), and Hex.distance written out on the
    # coordinates (a Python call per enemy).
    side, rng, melee, counters = sniper.side, sniper.spec.range, state.melee, COUNTERS.units
    at = sniper.hex
    aq, ar = at.q, at.r
    with steady_map(state.map):  # the map's memos looked up once for every line asked
        for u in state.units.values():
            if not u.alive or u.side == side or counters[u.type].vehicle is not None:
                continue
            h = u.hex
            dq, dr = h.q - aq, h.r - ar
            if (abs(dq) + abs(dr) + abs(dq + dr)) >> 1 > rng or (melee and (h, u.level) in melee):
                continue
            if visible(state, at, h) is not None and exposed(state, u):
                return True
    return False


def placements(state: GameState, side: str, sniper: Unit) -> list[Place]:
    """SMC 2.1: every place (ground, or a building's upper level) of a hex with no enemy units
    where one more single-man counter keeps the stacking limit (SET 3.2)."""
    # Who stands where, read once (a scan of every unit per hex of the map was most of a
    # placement); friends in set-up order, as state.at.
    enemy = _other(side)
    taken = {(u.hex.q, u.hex.r) for u in state.units.values() if u.alive and u.side == enemy}
    friends: dict[tuple[int, int, int], list[Unit]] = {}
    for u in state.units.values():
        if u.alive and u.side == side:
            friends.setdefault((u.hex.q, u.hex.r, u.level), []).append(u)
    # Where no friend stands, the sniper alone decides the limit: asked once.
    alone = single_men([sniper]) <= 2
    out: list[Place] = []
    for place in map_places(state):
        h, level = place
        if (h.q, h.r) in taken:
            continue
        here = friends.get((h.q, h.r, level))
        if here is None:
            if alone:
                out.append(place)
        elif single_men([*here, sniper]) <= 2 and squad_equivalents(here) <= 3:
            out.append(place)
    return out


def map_places(state: GameState) -> tuple[Place, ...]:
    """Every place of the map — each hex, column by column, at each of its levels (a building's
    upper level after its ground) — memoized by the map (listing the map's hexes and reading
    their terrain was most of a sniper's placement; the map never changes, SET 2)."""
    memo = map_memo(state.map, "places")
    found: tuple[Place, ...] | None = memo.get("all")
    if found is None:
        found = memo["all"] = tuple((h, level) for h in state.map.hexes() for level in range(state.levels(h)))
    return found


def _other(side: str) -> str:
    from wargamekit_lnl.rules import other

    return other(side)
