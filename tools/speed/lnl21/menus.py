"""``cgloop.py --setup`` for lnl's round 21 (docs/rulesets/lnl.md): round 20's action menus
(``tools/speed/lnl20/actions.py``: seeds 1000-1001's ``default`` games) with one group of Good
Order units, as ``F``: (state, units, the enemy by place, whether the fire test is asked, whether
the spot test is asked), for the fire and spot tests as they were (``old``) and in one pass
(``rules.fire_and_spot``). Run from a checkout's root:
``exec(open('tools/speed/lnl21/menus.py').read())``."""

from wargamekit_lnl import fire, rules
from wargamekit_lnl.los import steady_map

exec(open("tools/speed/lnl20/actions.py").read())

F = []
for s, g in A:  # noqa: F821 - A: actions.py's
    us = [u for grp in g for u in grp]
    if len(g) == 1 and not us[0].vehicle and not (s.melee and us[0].place in s.melee) and all(u.good_order for u in us):
        F.append((s, us, rules.enemies_by_place(s, rules.other(us[0].side)), all(fire.can_fire(u) for u in us),
                  not any(u.markers for u in us)))


def old(s, us, enemies, fire_asked, spot_asked):
    """The two tests as round 20's menu asked them."""
    exposure: dict[str, bool] = {}
    with steady_map(s.map):
        a = fire_asked and rules.has_target(s, us, [us], enemies, exposure)
        b = next(R._spot_targets(s, us, enemies, exposure), None) is not None  # noqa: F821 - R: actions.py's
    return a, b and spot_asked


def new(s, us, enemies, fire_asked, spot_asked):
    with steady_map(s.map):
        return rules.fire_and_spot(s, us, enemies, {}, fire_asked, spot_asked)
