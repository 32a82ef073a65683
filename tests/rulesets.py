"""Tiny rulesets used by the core tests (not shipped)."""

from __future__ import annotations

from attrs import define, field, frozen

from wargamekit import Choose, IllegalChoiceError, Outcome, Response, Ruleset, YesNo


class NoScenario(Ruleset):
    """The base of the core tests' small rulesets that need no scenario: the scenario's data is
    empty and the state starts as an empty dict (a subclass overrides ``setup`` for another)."""

    def scenario_data(self, name: str = "default") -> dict:
        return {}

    def setup(self, scenario, options):
        return {}


@frozen
class RaceScenario:
    """Race to a target sum of d6 rolls."""

    target: int = 12
    max_rounds: int = 30


@define
class RaceState:
    totals: dict[str, int]
    secret: dict[str, int]
    round: int = 0


class DiceRace(Ruleset):
    """Two sides take turns: roll (add a d6) or bank. First to the target wins.

    Each side also holds a secret number (hidden information: only its owner sees it).
    """

    name = "dice_race"
    version = "1.0"
    description = "A two-player dice race used by the core tests."
    sides = ("red", "blue")
    scenario_type = RaceScenario

    def scenario_data(self, name: str = "default") -> dict:
        if name != "default":
            raise LookupError(name)
        return {"target": 12, "max_rounds": 30}

    def setup(self, scenario, options):
        return RaceState(totals={s: 0 for s in self.sides}, secret={s: 0 for s in self.sides})

    def options(self):
        return {"doubles": False, "offer_cheat": False}

    def view(self, state, side):
        secret = {s: (v if s == side or side is None else None) for s, v in state.secret.items()}
        return {"totals": dict(state.totals), "secret": secret, "round": state.round}

    def check_invariants(self, state):
        assert all(v >= 0 for v in state.totals.values())

    def play(self, game):
        state = game.state
        scenario = game.scenario
        for side in self.sides:
            with game.dice.secret((side,)):
                state.secret[side] = game.dice.d6(f"secret number of {side}")
            game.event("secret", f"{side} holds {state.secret[side]}", audience=(side,), side=side)
        while state.round < scenario.max_rounds:
            state.round += 1
            for side in self.sides:
                actions = ["roll", "bank", "cheat"] if game.options["offer_cheat"] else ["roll", "bank"]
                action = yield Choose.of(side, "Roll or bank?", actions, rule="R1", kind="dice_race.action",
                                         context={"round": state.round}, data=lambda a: {"action": a})
                if action == "cheat":
                    state.totals[side] += 100  # mutate first, so the rebuild is really exercised
                    raise IllegalChoiceError("R1", "cheating is never allowed")
                if action == "roll":
                    face = game.dice.d6(f"{side} rolls")
                    factor = 2 if game.options["doubles"] else 1
                    state.totals[side] += face * factor
                    game.event("roll-total", f"{side} has {state.totals[side]}", side=side)
                if state.totals[side] >= scenario.target:
                    return Outcome(side, "R2: reached the target", dict(state.totals))
            again = yield YesNo(side="red", prompt="Keep racing?", rule="R3", kind="dice_race.keep_racing")
            if not again:
                break
        return Outcome(None, "R3: the race was called off", dict(state.totals))


@define
class TallyState:
    turn: int = 0
    tally: dict[str, int] = field(factory=lambda: {"a": 0, "b": 0})
    note: object = None


class Tally(NoScenario):
    """Each turn: a checkpoint, a roll, then each side adds 1 or 2 to its tally; ten turns.

    A once-per-game bonus response (key ``"bonus"``) is offered at every turn's end, so a
    restart that forgot the interrupt stack's answered keys would offer it again.
    """

    name = "tally"
    version = "1"
    sides = ("a", "b")
    turns = 10

    def __init__(self) -> None:
        self.setups = 0

    def options(self):
        return {"cap": False}

    def setup(self, scenario, options):
        self.setups += 1
        return TallyState(tally={"a": 0, "b": 0})

    def play(self, ctx):
        state = ctx.state
        while state.turn < self.turns:
            yield ctx.checkpoint(f"turn {state.turn + 1}")
            state.turn += 1
            ctx.event("turn", f"Turn {state.turn}", turn=state.turn)
            bump = ctx.dice.d6("bump")
            for side in self.sides:
                add = yield Choose.of(side, "Add?", [1, 2], kind="tally.add", data=lambda v: {"add": v})
                if ctx.options["cap"] and add == 2 and state.tally[side] >= 15:
                    raise IllegalChoiceError("tally cap", "a tally of 15 or more adds 1 only")
                state.tally[side] += add + (bump == 6)
            yield from ctx.interrupts.window("turn end", ["a"], self._offers(ctx), kind="tally.bonus")
        a, b = state.tally["a"], state.tally["b"]
        return Outcome(winner=None if a == b else ("a" if a > b else "b"), reason="ten turns")

    def _offers(self, ctx):
        def offers(side, point):
            def resolve():
                ctx.state.tally["a"] += 3
                ctx.event("bonus", "a takes the bonus")

            return [Response("bonus", "a", resolve=resolve, key="bonus", data={"bonus": 1})]

        return offers
