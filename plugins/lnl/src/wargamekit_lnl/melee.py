"""MEL — melee (近战): who may fight, melee FP, the odds column, the kill roll (D5)."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from wargamekit import Dice
from wargamekit_lnl.data import COUNTERS, kill_number, melee_column, shift_column
from wargamekit_lnl.state import Unit

__all__ = ["MeleeRound", "can_melee", "melee_fp", "plan_round", "resolve_round"]


def can_melee(unit: Unit, *, attacking: bool) -> bool:
    """MEL 1.1: medics, snipers, leaders without a melee SW and shaken units neither attack nor
    defend; weapon teams only defend; vehicles are fought by IVV, not by melee."""
    if not unit.alive or unit.shaken or unit.kind in ("medic", "sniper", "vehicle"):
        return False
    if unit.kind == "leader" and not any(w.spec.melee for w in unit.weapons):
        return False
    return not (attacking and unit.kind == "team")


def melee_fp(unit: Unit) -> int:
    """MEL 5–6: the unit's FP (0 counts as 1) + its melee-capable SWs (MEL 1.2) + a hero's skill."""
    skill = COUNTERS.skills[unit.skill].melee if unit.skill else 0
    return max(unit.spec.fp, 1) + sum(w.spec.fp for w in unit.weapons if w.spec.melee) + skill


@frozen
class MeleeRound:
    """One melee attack, everything but the dice.

    Attributes:
        attack: attacker melee FP (MEL 5). defence: defender melee FP (MEL 6).
        drm: leadership (MEL 7.1) − one per attacking 0-FP counter (MEL 8.1, A24) + hooks.
        shift: columns toward the attacker: +1 for an attacking hero, −1 for a defending hero (MEL 7.2).
    """

    attack: int
    defence: int
    drm: int = 0
    shift: int = 0

    @property
    def column(self) -> int:
        """The odds column after the hero shift."""
        return shift_column(melee_column(self.attack, self.defence), self.shift)

    @property
    def kill(self) -> int:
        """The kill number (MEL 8)."""
        return kill_number(self.column)


def plan_round(attackers: Sequence[Unit], defenders: Sequence[Unit], leadership: int, extra: int = 0) -> MeleeRound:
    """MEL 5–8.1: the round the melee-capable ``attackers`` make against the melee-capable ``defenders``."""
    zero = sum(1 for u in attackers if u.spec.fp == 0)
    shift = (1 if any(u.kind == "hero" for u in attackers) else 0) - (1 if any(u.kind == "hero" for u in defenders) else 0)
    return MeleeRound(sum(melee_fp(u) for u in attackers), sum(melee_fp(u) for u in defenders),
                      leadership - zero + extra, shift)


def resolve_round(dice: Dice, melee: MeleeRound) -> bool:
    """MEL 7–8: 2D6 + DRM ≥ the kill number → the defenders are all eliminated."""
    return sum(dice.nd6(2, "melee")) + melee.drm >= melee.kill
