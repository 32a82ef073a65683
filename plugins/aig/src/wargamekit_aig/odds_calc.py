"""Exact odds (:func:`wargamekit.odds.distribution`) of a volley, a shock, a momentum or seize
attempt and a rout check: shown beside the options, used by the heuristic bot and by
``wargamekit odds aig``."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from wargamekit import Dice, odds
from wargamekit_aig import melee, missile


@cache
def missile_odds(shot: missile.Shot) -> dict[bool, Fraction]:
    """P(hit) / P(miss) of one volley (§9.1.1)."""
    dist = odds.distribution(missile.resolve_missile, shot)
    out = {True: Fraction(0), False: Fraction(0)}
    for volley, p in dist.items():
        out[volley.hit] += p
    return out


@cache
def shock_odds(shock: melee.Shock) -> dict[tuple[int, int], Fraction]:
    """The distribution of (attacker hits, defender hits) of one shock (provisional D8)."""
    return odds.distribution(melee.resolve_shock, shock)


def momentum(dice: Dice, initiative: int) -> str:
    """§5.3.2–5.3.3: ``"success"``, ``"failure"``, ``"chaos"`` (0–1 after a 9) or ``"turn ends"``
    (9 after a 9). Q17 reading: a first 9 never succeeds, whatever the initiative."""
    roll = dice.d10("§5.3.2 momentum")
    if roll == 9:
        again = dice.d10("§5.3.3 momentum: second roll after a 9")
        if again <= 1:
            return "chaos"
        if again == 9:
            return "turn ends"
        return "failure"
    return "success" if roll <= initiative else "failure"


def seize(dice: Dice, initiative: int) -> bool:
    """§5.4.1 / §5.4.2: a seize succeeds on d10 ≤ the seizer's initiative."""
    return dice.d10("§5.4 seize") <= initiative


@cache
def momentum_odds(initiative: int) -> dict[str, Fraction]:
    """Exact odds of a momentum attempt."""
    return odds.distribution(momentum, initiative)


@cache
def seize_odds(initiative: int) -> Fraction:
    """Exact chance a seize succeeds."""
    return odds.distribution(seize, initiative).get(True, Fraction(0))


def rout_check(dice: Dice, cohesion: int) -> bool:
    """A morale / TQ check (§6.3.3, §3.2.2.b; Q29 reading): d10 ≤ cohesion passes."""
    return dice.d10("morale check") <= cohesion


@cache
def check_odds(cohesion: int) -> Fraction:
    """Exact chance a morale or TQ check passes."""
    return odds.distribution(rout_check, cohesion).get(True, Fraction(0))
