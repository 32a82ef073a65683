"""Tiny rulesets used by the core tests (not shipped)."""

from __future__ import annotations

from attrs import define, frozen

from wargamekit import Choose, IllegalChoiceError, Outcome, Ruleset, YesNo


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
