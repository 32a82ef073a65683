"""wargamekit-tank-apcr: the APCR special round for tank_solo, an add-on that changes the
ruleset only through the hooks tank_solo publishes (see ``docs/addons.md``).

>>> from wargamekit_tank_apcr import APCR, apcr_damage_modifier
>>> APCR.key, APCR.per_team, APCR.hit_modifier
('apcr', 1, 1)
>>> [apcr_damage_modifier(r) for r in (1, 3, 4, 6, 7, 10)]
[3, 3, 1, 1, -1, -1]
"""

from .rounds import APCR, apcr_damage_modifier

__all__ = ["APCR", "apcr_damage_modifier"]
