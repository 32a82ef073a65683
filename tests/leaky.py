"""A tiny ruleset with hidden information, honest or leaking in one chosen way (not shipped):
the non-interference check must pass the honest one and catch every leak."""

from __future__ import annotations

import copy

from attrs import define
from rulesets import NoScenario

from wargamekit import Choose, Outcome, YesNo
from wargamekit.geometry import DIRECTIONS, Hex, HexMap, TerrainTable, TerrainType

LEAKS = ("live state", "public log", "option label", "option data", "svg", "secret roll", "reveal")


@define
class LoadoutState:
    rounds: dict[str, str | None]
    codes: dict[str, int]


class Loadout(NoScenario):
    """Side b secretly loads a round and secretly rolls a code; then side a reacts.

    ``leak`` names the one way this copy leaks b's secrets to a (``None``: it does not).
    """

    name = "loadout"
    version = "1.0"
    sides = ("a", "b")

    def __init__(self, leak: str | None = None) -> None:
        assert leak is None or leak in LEAKS, leak
        self.leak = leak

    def setup(self, scenario, options):
        return LoadoutState(rounds={"a": None, "b": None}, codes={"a": 0, "b": 0})

    def play(self, ctx):
        state = ctx.state
        loaded = yield Choose.of("b", "Load which round?", ["ap", "he", "smoke"], secret=True,
                                 kind="loadout.round", data=lambda r: {"round": r})
        state.rounds["b"] = loaded
        if self.leak == "public log":
            ctx.event("load", f"b loads {loaded}")  # no audience: everyone reads it
        if self.leak == "reveal":
            ctx.event("reveal", f"b shows its {loaded} round", round=loaded)
        with ctx.dice.secret("b"):
            state.codes["b"] = ctx.dice.d6("b's code")
        hint = f" (b has {loaded})" if self.leak == "option label" else ""
        react = yield Choose.of(
            "a", "Brace or advance?", ["brace", "advance"], kind="loadout.react",
            label=lambda x: x + hint,
            data=lambda x: {"react": x, **({"against": loaded} if self.leak == "option data" else {})},
        )
        fire = yield YesNo(side="b", prompt="Fire?", kind="loadout.fire")
        if fire and loaded == "ap" and react == "advance":
            return Outcome("b", "the advance met armour-piercing fire")
        return Outcome(None, "nothing decisive")

    def view(self, state, side):
        if self.leak == "live state":
            return state  # the live state, b's round and code included
        seen = copy.deepcopy(state)
        for other in self.sides:
            if side is not None and other != side:
                seen.rounds[other] = None
                if self.leak != "secret roll":
                    seen.codes[other] = 0
        return seen

    def render_svg(self, state, side=None):
        drawn = state if self.leak == "svg" else self.view(state, side)
        return f'<svg xmlns="http://www.w3.org/2000/svg"><text>{drawn.rounds} {drawn.codes}</text></svg>'


@define
class SightlineState:
    map: HexMap
    looks: dict[str, int | None]


class Sightline(NoScenario):
    """Side b's sentry secretly faces one of six hexsides; facing the road (0-2), the rules
    trace its line of sight that way (a rule whose traced lines, and whether any is traced,
    depend on a hidden value); then side a reacts. Honest: the view hides the facing and keeps
    the map, which views get as deep copies (sharing its derived caches)."""

    name = "sightline"
    version = "1.0"
    sides = ("a", "b")

    def setup(self, scenario, options):
        table = TerrainTable([TerrainType(0, "clear"), TerrainType(1, "woods", 2, los=1)])
        return SightlineState(map=HexMap(9, 9, table), looks={"a": None, "b": None})

    def play(self, ctx):
        state = ctx.state
        sentry = Hex.from_offset(4, 4)
        facing = yield Choose.of("b", "Face which hexside?", list(range(6)), secret=True, kind="sightline.face")
        state.looks["b"] = facing
        if facing < 3:  # facing the road, the sentry looks down it: a line only then, and its own
            dq, dr = DIRECTIONS[facing]
            state.map.line_of_sight(sentry, Hex(sentry.q + 3 * dq, sentry.r + 3 * dr))
        yield Choose.of("a", "Hold or advance?", ["hold", "advance"], kind="sightline.react")
        return Outcome(None, "nothing decisive")

    def view(self, state, side):
        seen = copy.deepcopy(state)
        if side is not None:
            seen.looks = {s: (v if s == side else None) for s, v in state.looks.items()}
        return seen
