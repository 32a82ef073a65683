"""Exact odds of a skirmish shot, from the pure resolution function and wargamekit.odds.

    uv run python examples/shot_odds.py

A rifle squad (firepower 2) fires at range 3 through one woods hex at a target in the open,
first into its front, then into its flank.
"""

from __future__ import annotations

from wargamekit import odds
from wargamekit.geometry import Arc
from wargamekit_skirmish.fire import Shot, resolve_fire


def main() -> None:
    for arc in (Arc.FRONT, Arc.FLANK):
        shot = Shot(firepower=2, range=3, hindrance=1, arc=arc)
        dist = odds.distribution(resolve_fire, shot)
        expected = odds.expectation(dist)
        cells = ", ".join(f"{effect.name} {p} ({float(p):.1%})" for effect, p in dist.items())
        print(f"{arc.name.lower():5} shot, 2d6 {shot.modifier:+d}: {cells}; expected steps {expected}")


if __name__ == "__main__":
    main()
