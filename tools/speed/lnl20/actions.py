"""``cgloop.py --setup`` for lnl's round 20 (docs/rulesets/lnl.md): ``A``, a copy of the state at
each action menu of seeds 1000-1001's ``default`` games (sharing the live map, so the map's
memos hit as in play) with the menu's groups, as ``LnL.impulse`` makes them. Names the statements
read: ``R``. Run from a checkout's root: ``exec(open('tools/speed/lnl20/actions.py').read())``."""

import copy

from wargamekit import Game
from wargamekit.players import RandomBot, bot_seed
from wargamekit_lnl import LnL, kinds
from wargamekit_lnl.ruleset import _place_key

R = LnL()
A = []


def _keep(game, decision):
    if decision.kind != kinds.ACTION:
        return
    state = copy.deepcopy(game.state, {id(game.state.map): game.state.map})
    chosen = [state.units[i] for i in decision.context["units"]]
    A.append((state, [[u for u in chosen if u.place == p] for p in sorted({u.place for u in chosen}, key=_place_key)]))


for seed in (1000, 1001):
    g = Game.new(R, "default", seed=seed)
    g.play({s: RandomBot(bot_seed(seed, i)) for i, s in enumerate(R.sides)}, before_ask=_keep)
