"""``cgloop.py --setup`` for lnl's round 19 (docs/rulesets/lnl.md): ``S``, a copy of the state
at each decision of seed 1000's ``default`` game (sharing the live map, so the map's memos hit as
in play), and ``SN``, each live sniper of each of them. Names the statements read: ``sniper``,
``rules``. Run from a checkout's root: ``exec(open('tools/speed/lnl19/states.py').read())``."""

import copy

from wargamekit import Game
from wargamekit.players import RandomBot, bot_seed
from wargamekit_lnl import LnL, rules, sniper  # noqa: F401 - read by the counted statements

R = LnL()
S = []


def _keep(game, decision):
    state = game.state
    S.append(copy.deepcopy(state, {id(state.map): state.map}))


g = Game.new(R, "default", seed=1000)
g.play({s: RandomBot(bot_seed(1000, i)) for i, s in enumerate(R.sides)}, before_ask=_keep)
SN = [(s, u) for s in S for u in s.units.values() if u.kind == "sniper" and u.alive]
