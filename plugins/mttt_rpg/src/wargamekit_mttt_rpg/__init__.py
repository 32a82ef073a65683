"""wargamekit ruleset plugin: the MTTT RPG combat scene (战斗场景).

>>> from wargamekit_mttt_rpg import MtttRpg
>>> MtttRpg().scenario_names()
['battle', 'default', 'duel']
"""

from .added_actions import CombatAction
from .attack import (
    AttackOdds,
    AttackProfile,
    DefenseProfile,
    attack_odds,
    resolve_attack,
    resolve_clash,
)
from .odds import preview_attack
from .ruleset import MtttRpg

__all__ = [
    "AttackOdds",
    "AttackProfile",
    "CombatAction",
    "DefenseProfile",
    "MtttRpg",
    "attack_odds",
    "preview_attack",
    "resolve_attack",
    "resolve_clash",
]
