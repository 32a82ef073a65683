"""``cgloop.py --setup`` for lnl's round 23: ``S``, a copy of the state at each activation menu
of seeds 1000-1001's ``default`` games (sharing the live map, so the map's memos hit as in a
game) with the side whose impulse it is: the states the impulse's fixed costs are counted on."""

import copy

from wargamekit import Game
from wargamekit.players import RandomBot, bot_seed
from wargamekit_lnl import LnL, kinds, los, rules, sniper  # noqa: F401 - read by the counted statements
from wargamekit_lnl.state import ACTION_MARKERS

R = LnL()
S = []


def _keep(game, decision):
    if decision.kind != kinds.ACTIVATE:
        return
    state = game.state
    S.append((copy.deepcopy(state, {id(state.map): state.map}), decision.side))


for seed in range(1000, 1002):
    g = Game.new(R, "default", seed=seed)
    g.play({s: RandomBot(bot_seed(seed, i)) for i, s in enumerate(R.sides)}, before_ask=_keep)

#: The snipers ``R.ready`` asks about in ``S`` (a sniper of the side whose impulse it is), with
#: their state and the scenario's table: ``for s, u, c, h in N: sniper.has_target(s, u, c, h)``.
N = [(s, u, s.sniper_table.casualty, s.sniper_table.shaken) for s, d in S for u in s.units.values()
     if u.alive and u.side == d and u.kind == "sniper" and u.markers.isdisjoint(ACTION_MARKERS)]
#: The lines those calls ask (``has_target``'s loop without its exit at the first target):
#: ``(state, sniper's hex, enemy's hex)``.
L = [(s, u.hex, e.hex) for s, u, c, h in N for e in s.units.values()
     if e.alive and e.side != u.side and not e.vehicle and u.hex.distance(e.hex) <= u.spec.range]
