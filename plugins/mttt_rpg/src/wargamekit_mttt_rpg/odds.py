"""Exact odds of an attack before committing to it (Python API behind ``wargamekit odds``)."""

from __future__ import annotations

from typing import Any

from .attack import AttackOdds, attack_odds
from .defense import attack_profile, defense_profile
from .state import Scene

__all__ = ["preview_attack"]


def preview_attack(
    scene: Scene,
    attacker: str,
    target: str,
    kind: str,
    *,
    mode: str = "passive",
    charge: int = 0,
    defense_charge: int = 0,
    hooks: Any = None,
) -> AttackOdds:
    """The exact odds of ``attacker``'s attack of ``kind`` on ``target`` in the current scene,
    against the defense ``mode`` (``passive``, ``parry`` or ``dodge``) with the given charges.

    >>> from wargamekit import Game
    >>> from wargamekit_mttt_rpg import MtttRpg
    >>> game = Game.new(MtttRpg(), "duel", seed=3)
    >>> odds = preview_attack(game.state, "kyo", "akari", "withering")
    >>> 0 < odds.hit_chance < 1 and sum(odds.damage.values()) == 1
    True
    """
    a, t = scene.unit(attacker), scene.unit(target)
    weapon = a.ready_weapon
    assert weapon is not None
    return attack_odds(
        attack_profile(scene, a, t, charge=charge, hooks=hooks),
        defense_profile(scene, t, a, mode, ranged=weapon.ranged, charge=defense_charge, hooks=hooks),
        kind,
    )
