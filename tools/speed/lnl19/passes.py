"""``cgloop.py --setup`` for lnl's round 19: ``P``, the states of ``states.py`` each with the
place of its first live US unit (a US move, the German side polled) where no German unit is,
and ``old_pass``, the opportunity-fire poll's pass over the units before the round (to count
against ``_waiting_to_fire``, which the statement reads)."""

exec(open("tools/speed/lnl19/states.py").read())  # noqa: S102 - the shared setup: S

from wargamekit_lnl import fire  # noqa: E402
from wargamekit_lnl.ruleset import _NOT_WAITING, _VEHICLE_NOT_WAITING, _waiting_to_fire  # noqa: E402, F401


def old_pass(state, side):
    groups = {}
    waiting = []
    melee = state.melee
    for u in state.units.values():
        if not u.alive or u.side != side:
            continue
        if fire.can_fire(u):
            if u.markers.isdisjoint(_NOT_WAITING) and not (melee and u.place in melee):
                h = u.hex
                groups.setdefault((h.q, h.r, u.level), []).append(u)
        elif u.vehicle and u.good_order and u.markers.isdisjoint(_VEHICLE_NOT_WAITING):
            waiting.append(u)
    return groups, waiting


P = [(s, next(u.place for u in s.units.values() if u.alive and u.side == "us")) for s in S]  # noqa: F821 - S: states.py
P = [(s, p) for s, p in P if not s.at(p, "german")]
