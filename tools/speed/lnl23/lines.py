"""``cgloop.py --setup`` for lnl's round 23: ``run(f)`` asks ``f(state, a, b)`` for every line of
``impulses.py``'s ``L`` (the lines the snipers' ``has_target`` may ask in those states), each
state's lines in one ``steady_map`` block, as ``has_target`` asks them; ``nothing`` is the
loop's own cost. ``run(los.visible)``."""

from itertools import groupby

exec(open("tools/speed/lnl23/impulses.py").read())  # noqa: S102 - the shared setup: S, N, L

from wargamekit_lnl.los import steady_map  # noqa: E402

G = [(s, [(a, b) for _, a, b in grp]) for s, grp in groupby(L, key=lambda x: x[0])]  # noqa: F821 - L: impulses.py


def run(f):
    for s, ab in G:
        with steady_map(s.map):
            for a, b in ab:
                f(s, a, b)


def nothing(s, a, b):
    pass
