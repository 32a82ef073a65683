"""5. Fire and 6. Reaction fire: who may shoot whom, and the pure resolution of a shot.

:func:`resolve_fire` is a pure function of the dice and a :class:`Shot`, so
``wargamekit.odds.distribution(resolve_fire, shot)`` gives its exact odds.
"""

from __future__ import annotations

import enum
import functools
from fractions import Fraction

from attrs import frozen

from wargamekit import Dice, InvalidChoiceError
from wargamekit.geometry import Arc, Hex, HexsideFacing, arc_of, in_fire_arc
from wargamekit_skirmish.scenario import MAX_FIREPOWER, MAX_RANGE, MIN_FIREPOWER
from wargamekit_skirmish.state import SkirmishState, Unit, in_woods

#: 5.1 A unit fires into its front half: the 3 hexsides centred on the one it faces.
FIRE_ARC = 3
#: 5.2 Shooting at a target's flank or rear is easier.
ARC_BONUS = {Arc.FRONT: 0, Arc.FLANK: 1, Arc.REAR: 2}
#: 1. One woods hex between hinders; this many block the line of sight.
BLOCKING_WOODS = 2


class Effect(enum.IntEnum):
    """5.3 What a shot does: the number of steps the target loses."""

    MISS = 0
    HIT = 1
    KILL = 2

    def __repr__(self) -> str:
        return f"Effect.{self.name}"


@frozen
class Shot:
    """Everything a shot's result depends on (5.2 modifiers)."""

    firepower: int
    range: int
    hindrance: int = 0
    cover: int = 0
    arc: Arc = Arc.FRONT
    snap: bool = False
    extra: int = 0

    def __attrs_post_init__(self) -> None:
        # The bounds the rules give a shot (2. Units, 5.1, 1.): a shot outside them cannot happen.
        if not MIN_FIREPOWER - 1 <= self.firepower <= MAX_FIREPOWER:
            raise InvalidChoiceError(f"[5.2 Fire] firepower {self.firepower} is not "
                                     f"{MIN_FIREPOWER - 1}..{MAX_FIREPOWER} (2. Units; damaged: one less)")
        if not 1 <= self.range <= MAX_RANGE:
            raise InvalidChoiceError(f"[5.1 Fire] range {self.range} is not 1..{MAX_RANGE}")
        if not 0 <= self.hindrance < BLOCKING_WOODS:
            raise InvalidChoiceError(f"[1. Terrain] {self.hindrance} woods hexes between: "
                                     f"0 or {BLOCKING_WOODS - 1}; {BLOCKING_WOODS} or more block the line of sight")

    @property
    def modifier(self) -> int:
        """The sum added to 2d6: firepower, -1 per 2 hexes of range, -1 per woods hex between,
        -1 for a target in woods, +1 flank / +2 rear, -1 for reaction (snap) fire, add-on extras."""
        return (self.firepower - self.range // 2 - self.hindrance - self.cover + ARC_BONUS[self.arc]
                - self.snap + self.extra)


def resolve_fire(dice: Dice, shot: Shot) -> Effect:
    """5.2 Roll 2d6 + modifier: 12+ kills, 8+ hits. A natural 2 always misses, a natural 12 always kills.

    >>> from wargamekit import ScriptedDice
    >>> resolve_fire(ScriptedDice([4, 3]), Shot(firepower=2, range=3))
    Effect.HIT
    """
    roll = sum(dice.nd6(2, "5.2 fire: 2d6"))
    if roll == 2:
        return Effect.MISS
    total = roll + shot.modifier
    if roll == 12 or total >= 12:
        return Effect.KILL
    return Effect.HIT if total >= 8 else Effect.MISS


def shot_odds(shot: Shot) -> dict[Effect, Fraction]:
    """The exact odds of each effect of ``shot`` (5.2), cached by its modifier: the only part
    of a shot :func:`resolve_fire` reads, so shots of many ranges, arcs and covers share a
    dozen distributions (hot: every fire menu labels each target with its odds)."""
    odds = _ODDS_BY_MODIFIER.get(shot.modifier)
    if odds is None:
        from wargamekit.odds import distribution

        odds = _ODDS_BY_MODIFIER[shot.modifier] = distribution(resolve_fire, shot)
    return odds


#: modifier -> the odds of a shot with that modifier (see :func:`shot_odds`)
_ODDS_BY_MODIFIER: dict[int, dict[Effect, Fraction]] = {}


@functools.lru_cache(maxsize=4096)
def target_label(name: str, shot: Shot) -> str:
    """A fire menu's line: the target with its range and the shot's exact odds (5.2).

    >>> target_label("Gruppe A", Shot(firepower=2, range=3))
    'Gruppe A (range 3, modifier +1: hit 58%, kill 8%)'

    Hot (every fire menu labels each target): a shot is a frozen value, so each line is made once.
    """
    p = shot_odds(shot)
    hit = p.get(Effect.HIT, 0) + p.get(Effect.KILL, 0)
    return (f"{name} (range {shot.range}, modifier {shot.modifier:+d}: hit {float(hit):.0%}, "
            f"kill {float(p.get(Effect.KILL, 0)):.0%})")


def firepower(unit: Unit) -> int:
    """2. A damaged unit (1 step) fires with one less."""
    return unit.firepower - (unit.steps < 2)


def shot_at(state: SkirmishState, firer: Unit, target: Unit, *, from_hex: Hex | None = None,
            facing: int | None = None, snap: bool = False) -> Shot | None:
    """The :class:`Shot` if ``firer`` (standing in ``from_hex``, facing ``facing``; default its own)
    may fire at ``target`` (5.1: in its front arc, in range, line of sight not blocked), else None."""
    here = firer.hex if from_hex is None else from_hex
    face = firer.facing if facing is None else facing
    distance = here.distance(target.hex)
    if distance == 0 or distance > firer.max_range:
        return None
    if not in_fire_arc(here, HexsideFacing(face), target.hex, FIRE_ARC):
        return None
    los = state.map.line_of_sight(here, target.hex, edge="worse")
    # 1. Hills block; one woods hex between hinders, two or more block.
    if not los.clear or los.hindering >= BLOCKING_WOODS:
        return None
    cover = int(in_woods(state.map, target.hex))
    arc = arc_of(target.hex, HexsideFacing(target.facing), here)
    return Shot(firepower(firer), distance, los.hindering, cover, arc, snap)


def visible(state: SkirmishState, unit: Unit, to_side: str) -> bool:
    """7. Concealment: a unit in woods is hidden from the enemy unless an enemy unit within 3 hexes
    sees it (line of sight not blocked); a unit elsewhere is always seen."""
    if unit.side == to_side or not in_woods(state.map, unit.hex):
        return True
    return any(e.hex.distance(unit.hex) <= 3 and state.map.line_of_sight(e.hex, unit.hex, edge="worse").clear
               for e in state.alive(to_side))


def target_shot(state: SkirmishState, firer: Unit, target: Unit, *, snap: bool = False) -> Shot | None:
    """5.1 The shot ``firer`` may take at ``target`` now (a live enemy it sees), else None."""
    if not target.alive or target.side == firer.side or not visible(state, target, firer.side):
        return None
    return shot_at(state, firer, target, snap=snap)


def targets(state: SkirmishState, firer: Unit, *, snap: bool = False) -> dict[str, Shot]:
    """5.1 The enemy units ``firer`` may fire at now (visible ones only), with their shots."""
    found = {}
    for enemy in state.alive():
        shot = target_shot(state, firer, enemy, snap=snap)
        if shot is not None:
            found[enemy.name] = shot
    return found
