"""What the core costs per answer and per event (issue 9: whole games at 100+ games/s).

Run: ``uv run pytest benchmarks/test_bench_core.py -p no:cacheprovider --benchmark-enable``

Every ruleset pays the core for each answer (building the decision and its options, checking the
answer, recording it, the ``choice`` event, the random bot's answer) and for each event (the
frozen :class:`~wargamekit.events.Event` with a detached copy of its data, every roll's event).
The baselines are the same work done the cheapest plain-Python way, measured in the same run:

* ``test_event_cost`` — 1,000 roll-like events through :meth:`RulesContext.event
  <wargamekit.context.RulesContext.event>` (into the log and a sink, as in a game), against
  appending 1,000 plain dicts to a list (no copy, no check).
* ``test_answer_cost`` — 1,000 answers of a minimal ruleset (each: a six-option
  :class:`~wargamekit.decisions.Choose` with option data and context, a d6 roll, one event),
  played by random bots through :meth:`Game.play <wargamekit.game.Game.play>`, against a plain
  generator doing the same with dicts, lists and :mod:`random` (no checks, no frozen values).

``extra_info`` has the microseconds per event/answer of both and ``ours_over_baseline`` (the
core's overhead factor). Nothing here asserts on timings.
"""

from __future__ import annotations

import random

from wargamekit import Choose, Game, Outcome, Ruleset
from wargamekit.context import RulesContext
from wargamekit.dice import SeededDice
from wargamekit.interrupts import InterruptStack
from wargamekit.players import RandomBot

N = 1_000
UNITS = ("A1", "A2", "B1", "B2", "C1", "C2")


def _record(benchmark, what: str, ours_s: float, baseline_s: float) -> None:
    benchmark.extra_info[f"ours_us_per_{what}"] = ours_s / N * 1e6
    benchmark.extra_info[f"baseline_us_per_{what}"] = baseline_s / N * 1e6
    benchmark.extra_info["ours_over_baseline"] = ours_s / baseline_s


def _timed(compare, benchmark, ours, baseline) -> tuple[float, float]:
    compare(ours, {"baseline": baseline}, rounds=7, ours_rounds=7)
    ours_s = benchmark.extra_info["ours_median_s"]
    return ours_s, benchmark.extra_info["baseline_median_s"]


def test_event_cost(benchmark, compare):
    def ours() -> None:
        log: list = []
        ctx = RulesContext(ruleset=Ruleset(), scenario=None, options={}, state=None,
                           dice=SeededDice(0), interrupts=InterruptStack(), events=log, sink=log.append)
        for i in range(N):
            a, b = i % 6 + 1, i % 5 + 1
            ctx.event("roll", f"fire: 2d6 [{a} {b}] = {a + b}", purpose="fire", dice="2d6",
                      faces=[a, b], value=a + b)

    def baseline() -> None:
        log: list = []
        for i in range(N):
            a, b = i % 6 + 1, i % 5 + 1
            log.append({"kind": "roll", "text": f"fire: 2d6 [{a} {b}] = {a + b}", "audience": None,
                        "data": {"purpose": "fire", "dice": "2d6", "faces": [a, b], "value": a + b}})

    ours_s, baseline_s = _timed(compare, benchmark, ours, baseline)
    _record(benchmark, "event", ours_s, baseline_s)


class _Drill(Ruleset):
    """A ruleset that is nothing but the core's per-answer work, ``steps`` answers long."""

    name = "drill"
    version = "1"
    sides = ("red", "blue")

    def scenario_data(self, name: str = "default") -> dict:
        return {"steps": N}

    def setup(self, scenario, options):
        return {"steps": scenario["steps"], "moved": 0}

    def play(self, ctx: RulesContext):
        state = ctx.state
        for step in range(state["steps"]):
            side = self.sides[step % 2]
            unit = yield Choose.of(side, "Which unit moves?", UNITS, rule="3.1", kind="drill.move",
                                   context={"step": step}, data=lambda u: {"unit": u})
            roll = ctx.dice.d6(f"{unit} moves")
            state["moved"] += roll
            ctx.event("move", f"{unit} moves {roll}", unit=unit, hexes=roll)
        return Outcome(None, "the drill is over", {})


def test_answer_cost(benchmark, compare):
    ruleset = _Drill()

    def ours() -> None:
        game = Game.new(ruleset, seed=1)
        game.play({"red": RandomBot(1), "blue": RandomBot(2)})
        assert len(game.choices) == N

    def baseline() -> None:
        rng = random.Random(1)
        log: list = []
        choices: list = []

        def play():
            moved = 0
            for step in range(N):
                side = ("red", "blue")[step % 2]
                options = [{"value": u, "label": u, "data": {"unit": u}} for u in UNITS]
                unit = yield {"side": side, "prompt": "Which unit moves?", "kind": "drill.move",
                              "context": {"step": step}, "options": options}
                roll = rng.randint(1, 6)
                log.append({"kind": "roll", "text": f"{unit} moves: d6 [{roll}] = {roll}",
                            "data": {"purpose": f"{unit} moves", "faces": [roll], "value": roll}})
                moved += roll
                log.append({"kind": "move", "text": f"{unit} moves {roll}",
                            "data": {"unit": unit, "hexes": roll}})

        procedure = play()
        decision = next(procedure)
        try:
            while True:
                answer = rng.randrange(len(decision["options"]))
                choices.append(answer)
                log.append({"kind": "choice", "text": f"{decision['side']}: {decision['prompt']}",
                            "data": {"side": decision["side"], "answer": answer}})
                decision = procedure.send(decision["options"][answer]["value"])
        except StopIteration:
            pass
        assert len(choices) == N

    ours_s, baseline_s = _timed(compare, benchmark, ours, baseline)
    _record(benchmark, "answer", ours_s, baseline_s)
