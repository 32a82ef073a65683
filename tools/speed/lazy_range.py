"""A rule-free game of lazy menus: what the core's decision loop costs a decision (session 35).

Run under ``cgloop.py`` as its setup; ``one()`` plays a game of 400 decisions, each a lazy
``Choose.of`` of seven values answered by the random bot, with no dice, no events and no rules
(``docs/design.md``, "Speed: where it stands", Session 35):

    python tools/speed/cgloop.py -n 6 --setup "exec(open('tools/speed/lazy_range.py').read()); import gc; gc.collect(); gc.disable()" "one()"
"""

from wargamekit import Choose, Game, Outcome, Ruleset
from wargamekit.players import RandomBot

VALUES = tuple(range(7))


class LazyRange(Ruleset):
    name = "lazyrange"
    version = "1"
    sides = ("red", "blue")

    def scenario_data(self, name="default"):
        return {"n": 400}

    def setup(self, scenario, options):
        return {"n": 0}

    def play(self, ctx):
        state = ctx.state
        while state["n"] < ctx.scenario["n"]:
            for side in self.sides:
                state["n"] += 1
                yield Choose.of(side, "Step?", VALUES, rule="R1", kind="x.step", lazy=True, label=str)
        return Outcome(None, "done", {})


RULESET = LazyRange()


def one(seed: int = 5) -> int:
    game = Game.new(RULESET, seed=seed)
    game.play({"red": RandomBot(1), "blue": RandomBot(2)})
    return len(game.choices)
