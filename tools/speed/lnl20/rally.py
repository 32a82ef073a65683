"""``cgloop.py --setup`` for lnl's round 20 (docs/rulesets/lnl.md): round 19's states
(``tools/speed/lnl19/states.py``), ``U``: each live infantry unit of every tenth of them, and the
rally's jam test (RAL 5) as it was (``jam_old``) and as round 20 wrote it (``jam_new``), the
unjamming left out. Run from a checkout's root: ``exec(open('tools/speed/lnl20/rally.py').read())``."""

exec(open("tools/speed/lnl19/states.py").read())
from wargamekit_lnl import vehicles  # noqa: E402, F401 - read by the counted statements
from wargamekit_lnl.rules import other  # noqa: E402

U = [(s, u) for s in S[::10] for u in s.alive() if not u.vehicle]  # noqa: F821 - S: states.py's


def jam_old(s, side):
    for u in s.alive(side):
        if u.good_order and any(w.jammed for w in u.weapons) and not s.in_hex(u.hex, other(side)):
            pass


def jam_new(s, side):
    for u in s.alive(side):
        if u.shaken:
            continue
        for w in u.weapons:
            if w.jammed:
                if not s.in_hex(u.hex, other(side)):
                    pass
                break
