"""``cgloop.py --setup`` for lnl's round 19: ``M``, every fire and assault-fire menu of seeds
1000-1004's ``default`` games as (a copy of the state, the firing groups by place, the targets'
places), for the statement that plans every target's attacks as the menus did before the round
(``rules.planned_odds``)."""

import copy

from wargamekit import Game
from wargamekit.players import RandomBot, bot_seed
from wargamekit_lnl import LnL, kinds, rules  # noqa: F401 - rules: read by the counted statement

R = LnL()
M = []


def _keep(game, decision):
    if decision.kind not in (kinds.FIRE_TARGET, kinds.ASSAULT_FIRE):
        return
    state = game.state
    copied = copy.deepcopy(state, {id(state.map): state.map})
    units = [copied.units[i] for i in decision.context["units"]]
    places = sorted({u.place for u in units}, key=lambda p: (p[0].q, p[0].r, p[1]))
    groups = [[u for u in units if u.place == p] for p in places]
    M.append((copied, groups, [o.value for o in decision.options if o.value is not None]))


for seed in range(1000, 1005):
    g = Game.new(R, "default", seed=seed)
    g.play({s: RandomBot(bot_seed(seed, i)) for i, s in enumerate(R.sides)}, before_ask=_keep)
