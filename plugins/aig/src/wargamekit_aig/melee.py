"""§3.2.2 The melee segment, with a provisional shock system (§10–§12 are empty in the source).

The rulebook gives only the order of the segment (§3.2.2 a–e): "Melee – No Check" markers,
pre-melee TQ checks, leader-casualty checks, resolution, rout checks. Everything else here is
provisional (D8, D19, D20, D21, D25), shaped like the published games of the family (GBoH, Men of
Iron: a pre-shock TQ check for units that moved, a results table read by unit types with column
shifts for facing, terrain and leaders, cohesion hits to both sides) and labelled on the docs page.

:func:`resolve_shock` is a pure function of the dice and a :class:`Shock`, so
``wargamekit.odds.distribution(resolve_shock, shock)`` gives its exact odds.
"""

from __future__ import annotations

from attrs import frozen

from wargamekit import Dice
from wargamekit.geometry import Arc
from wargamekit_aig.facing import arc
from wargamekit_aig.state import HILL, RIVER, ROUGH, STREAM, WOODS, GameState, Unit

#: D25 (provisional): attacking a flank is one column better, a rear two.
ARC_COLUMNS = {Arc.FRONT: 0, Arc.FLANK: 1, Arc.REAR: 2}
#: The table's columns run from −4 to +4.
MAX_COLUMN = 4
#: D8 (provisional) shock results: (lowest modified roll, attacker hits, defender hits).
SHOCK_TABLE = ((11, 0, 4), (9, 0, 3), (7, 0, 2), (5, 1, 2), (3, 1, 1), (1, 2, 1))
WORST = (3, 0)


@frozen
class Shock:
    """Everything one melee's result depends on (all provisional, D8).

    Attributes:
        attacker, defender: unit types (the shock values of the scenario's table).
        values: the scenario's shock value per type (D8).
        arc: where the attacker stands relative to the defender (D25).
        attacker_leader: charisma of a leader stacked with the attacker, +1 for a junior one
            (D19, D20); ``defender_leader`` likewise for the defender.
        defender_terrain: the defender is in woods, rough or on a hill (−1).
        across_water: the attack crosses a stream or river hexside (−1).
        attacker_disordered / defender_disordered: §7.3.1 one column adverse for disordered cavalry.
        extra: add-ons' column shifts (the ``aig_shock_modifier`` hook).
    """

    attacker: str
    defender: str
    values: tuple[tuple[str, int], ...]
    arc: Arc = Arc.FRONT
    attacker_leader: int = 0
    defender_leader: int = 0
    defender_terrain: bool = False
    across_water: bool = False
    attacker_disordered: bool = False
    defender_disordered: bool = False
    extra: int = 0

    @property
    def column(self) -> int:
        """The column shift added to the d10, clipped to ±4."""
        v = dict(self.values)
        raw = (v[self.attacker] - v[self.defender] + ARC_COLUMNS[self.arc] + self.attacker_leader
               - self.defender_leader - self.defender_terrain - self.across_water - self.attacker_disordered
               + self.defender_disordered + self.extra)
        return max(-MAX_COLUMN, min(MAX_COLUMN, raw))


def resolve_shock(dice: Dice, shock: Shock) -> tuple[int, int]:
    """D8 (provisional): d10 + column on the shock results table → (attacker hits, defender hits).

    >>> from wargamekit import ScriptedDice
    >>> values = (("HI", 4), ("MI", 3))
    >>> resolve_shock(ScriptedDice([6]), Shock("HI", "MI", values))
    (0, 2)
    >>> resolve_shock(ScriptedDice([0]), Shock("MI", "HI", values))
    (3, 0)
    """
    total = dice.d10("§10 shock (provisional table)") + shock.column
    for low, attacker_hits, defender_hits in SHOCK_TABLE:
        if total >= low:
            return attacker_hits, defender_hits
    return WORST


def pre_melee_check(dice: Dice, cohesion: int) -> bool:
    """§3.2.2.b pre-melee TQ check (Q29 reading: against current cohesion): d10 ≤ cohesion passes."""
    return dice.d10("§3.2.2.b pre-melee TQ check") <= cohesion


def leader_casualty(dice: Dice, threshold: int) -> bool:
    """§3.2.2.c leader-casualty check (D21, provisional): a raw d10 ≤ ``threshold`` (default 0) kills."""
    return dice.d10("§3.2.2.c leader casualty check") <= threshold


def leader_bonus(state: GameState, unit: Unit) -> int:
    """D19/D20 (provisional): the best charisma of a leader stacked with ``unit``; a junior gives +1."""
    best = 0
    for ld in state.leaders_at(unit.hex):
        if ld.side == unit.side:
            best = max(best, 1 if ld.junior else ld.charisma)
    return best


def shock_of(state: GameState, attacker: Unit, defender: Unit) -> Shock:
    """The :class:`Shock` of ``attacker`` attacking the adjacent ``defender``."""
    side = state.map.hexside(attacker.hex, attacker.hex.direction_to(defender.hex))
    terrain = any(state.is_terrain(defender.hex, t) for t in (WOODS, ROUGH, HILL))
    return Shock(attacker.type, defender.type, tuple(sorted(state.tables.shock_value.items())),
                 arc(defender, attacker.hex), leader_bonus(state, attacker), leader_bonus(state, defender),
                 terrain, side in (RIVER, STREAM), attacker.cavalry and attacker.disordered,
                 defender.cavalry and defender.disordered)
