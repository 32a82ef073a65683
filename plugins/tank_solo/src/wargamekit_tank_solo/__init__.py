"""wargamekit ruleset plugin: the dice-driven solo tank game (少战 SOLO 骰驱规则).

>>> from wargamekit_tank_solo import TankSolo, hit_and_kill
>>> TankSolo.name
'tank_solo'
"""

from .ruleset import TankSolo
from .shot_odds import hit_and_kill

__all__ = ["TankSolo", "hit_and_kill"]
