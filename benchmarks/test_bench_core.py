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
core's overhead factor).

* ``test_rule_free_game`` — whole random-bot games of a ruleset whose rules cost nothing (the
  shooting range of ``tests/test_lazy_labels.py`` at game length: 344 decisions, each a
  ``Choose`` of four options with data and lazy labels, a d6 and, on a hit, an event), so a
  game's time is the core's: ``games_per_cpu_s``, ``us_per_decision_cpu`` (target: 15 µs, for
  100 games/s of 300-400 decisions with room for the rules; ``us_per_decision_over_target``),
  the same game in plain Python measured in the same interleaved passes
  (``plain_us_per_decision_cpu``, ``ours_over_plain``) and the garbage collector's share of the
  core's games (``gc_share``, its pauses timed through ``gc.callbacks``). ``*_without_gc`` are
  the same medians with the collector's pauses taken out, and ``full_collections_per_pass`` how
  many full (generation 2) collections fell in a pass: a full collection walks every object of
  the process (in this one, which holds numpy, scipy and the plugins, 15-25 ms against a pass's
  ~90 ms), so whether a pass holds one moves its time by a quarter.

  Measured (five runs alternating before and after, each the median of five passes of 20
  games, CPU time, a machine loaded by other work; before = 78461d9, after = issue 9's
  per-decision work on the core): before 46.3, 42.9, 33.1, 42.8, 33.9 µs per decision (64-88
  games/s), GC 22-26 %; after 19.2, 19.0, 28.3, 23.9, 21.0 µs (103-153 games/s), GC 3.4-4.2 %.
  The plain-Python game: 3.8-11 µs (4-5 in most runs). See "What the core costs per decision"
  in ``docs/design.md``.

Nothing here asserts on timings.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable

from wargamekit import Choose, Game, Outcome, Ruleset
from wargamekit.context import RulesContext
from wargamekit.decisions import Option
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


# -- a whole rule-free game: what the core alone costs a ruleset per decision -------------------

#: the rule-free game's length in decisions (a random-bot game of the bundled rulesets is 300-400)
RANGE_SHOTS = 344
RANGE_TARGETS = ("crow", "fox", "boar", "hare")
#: decisions per CPU second the core must allow for 100 games/s of 344 decisions (≤ 15 µs each,
#: leaving a third of a 29 µs decision to the rules)
TARGET_US_PER_DECISION = 15
RANGE_SEEDS = range(20)


class _Range(Ruleset):
    """The shooting range of ``tests/test_lazy_labels.py`` at game length, with lazy labels:
    the sides take turns to pick one of four targets (a ``Choose`` of four options, each with
    data and a lazy label reading the state) and roll a d6, a hit (5+) logging an event. No
    rule costs anything, so a game's time is the core's (and the random bot's)."""

    name = "range"
    version = "1"
    sides = ("red", "blue")

    def scenario_data(self, name: str = "default") -> dict:
        return {"shots": RANGE_SHOTS}

    def setup(self, scenario, options):
        return {"hits": {side: 0 for side in self.sides}, "shots": 0}

    def play(self, ctx: RulesContext):
        state = ctx.state
        while state["shots"] < ctx.scenario["shots"]:
            for side in self.sides:
                state["shots"] += 1

                def label(target: str, side: str = side) -> str:
                    return f"{side} fires at the {target} (hit on 5+: 33%, {state['hits'][side]} hits so far)"

                target = yield Choose(
                    side=side, prompt="Fire at?", rule="R1", kind="range.target",
                    options=[Option(t, lambda t=t: label(t), data={"target": t}) for t in RANGE_TARGETS],
                )
                if ctx.dice.d6(f"{side} fires at the {target}") >= 5:
                    state["hits"][side] += 1
                    ctx.event("hit", f"{side} hits the {target}", side=side)
        best = max(state["hits"].values())
        winners = [side for side in self.sides if state["hits"][side] == best]
        return Outcome(winners[0] if len(winners) == 1 else None, "R2: most hits", dict(state["hits"]))


def _plain_range_game(seed: int) -> int:
    """The same game the cheapest plain-Python way (dicts, lists, a generator, :mod:`random`;
    lazy labels as lambdas, the chosen one made for the log): what no core could undercut."""
    rng = random.Random(seed)
    log: list = []
    choices: list = []
    hits = {"red": 0, "blue": 0}

    def play():
        for _ in range(RANGE_SHOTS // 2):
            for side in ("red", "blue"):
                def label(target: str, side: str = side) -> str:
                    return f"{side} fires at the {target} (hit on 5+: 33%, {hits[side]} hits so far)"

                options = [{"value": t, "label": lambda t=t: label(t), "data": {"target": t}} for t in RANGE_TARGETS]
                target = yield {"side": side, "prompt": "Fire at?", "options": options}
                roll = rng.randint(1, 6)
                log.append({"kind": "roll", "text": f"{side} fires at the {target}: d6 [{roll}] = {roll}",
                            "data": {"dice": "d6", "faces": [roll], "purpose": f"{side} fires at the {target}",
                                     "value": roll}})
                if roll >= 5:
                    hits[side] += 1
                    log.append({"kind": "hit", "text": f"{side} hits the {target}", "data": {"side": side}})

    procedure = play()
    decision = next(procedure)
    try:
        while True:
            answer = rng.randrange(len(decision["options"]))
            choices.append(answer)
            option = decision["options"][answer]
            log.append({"kind": "choice", "text": f"{decision['side']}: {decision['prompt']} -> {option['label']()}",
                        "data": {"answer": answer, "side": decision["side"]}})
            decision = procedure.send(option["value"])
    except StopIteration:
        pass
    return len(choices)


def test_rule_free_game(benchmark):
    """Whole random-bot games of :class:`_Range` (344 decisions each), in CPU time: games per
    CPU second, µs per decision (target: 15), the plain-Python game's µs per decision measured
    in the same passes (interleaved), and the garbage collector's share of the core's games
    (its pauses, timed through ``gc.callbacks``; the collector's settings are left alone)."""
    ruleset = _Range()

    def ours() -> int:
        decisions = 0
        for seed in RANGE_SEEDS:
            game = Game.new(ruleset, seed=seed)
            game.play({"red": RandomBot(2 * seed), "blue": RandomBot(2 * seed + 1)})
            decisions += len(game.choices)
        return decisions

    def plain() -> int:
        return sum(_plain_range_game(seed) for seed in RANGE_SEEDS)

    assert ours() == plain() == RANGE_SHOTS * len(RANGE_SEEDS)  # warm-up, and the same game length
    gc_pauses: list[float] = []
    started: list[float] = []

    full: list[int] = []

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(time.process_time())
        elif started:
            gc_pauses.append(time.process_time() - started.pop())
            if info["generation"] == 2:
                full.append(1)

    def timed(fn: Callable[[], int]) -> tuple[float, float, int]:
        """One pass of ``fn``: its CPU seconds, the collector's pauses in them, full collections."""
        gc_pauses.clear()
        full.clear()
        gc.callbacks.append(on_gc)
        try:
            t0 = time.process_time()
            fn()
            return time.process_time() - t0, sum(gc_pauses), len(full)
        finally:
            gc.callbacks.remove(on_gc)

    ours_cpu, plain_cpu, gc_cpu, plain_gc_cpu, full_counts = [], [], [], [], []
    for _ in range(5):  # interleaved passes: load that comes and goes weighs on both alike
        cpu, pauses, fulls = timed(ours)
        ours_cpu.append(cpu)
        gc_cpu.append(pauses)
        full_counts.append(fulls)
        cpu, pauses, _ = timed(plain)
        plain_cpu.append(cpu)
        plain_gc_cpu.append(pauses)
    benchmark.pedantic(ours, rounds=3, warmup_rounds=0)  # pytest-benchmark's own (wall) figures
    decisions = RANGE_SHOTS * len(RANGE_SEEDS)
    ours_s, plain_s = statistics.median(ours_cpu), statistics.median(plain_cpu)
    us_per_decision = ours_s / decisions * 1e6
    benchmark.extra_info.update(
        decisions_per_game=RANGE_SHOTS,
        games_per_cpu_s=len(RANGE_SEEDS) / ours_s,
        us_per_decision_cpu=us_per_decision,
        us_per_decision_cpu_best=min(ours_cpu) / decisions * 1e6,
        target_us_per_decision=TARGET_US_PER_DECISION,
        us_per_decision_over_target=us_per_decision / TARGET_US_PER_DECISION,
        plain_us_per_decision_cpu=plain_s / decisions * 1e6,
        ours_over_plain=ours_s / plain_s,
        gc_share=statistics.median(g / o for g, o in zip(gc_cpu, ours_cpu, strict=True)),
        # The core's own work, the collector's pauses taken out: a pass that happens to hold a
        # full collection (which walks every object of the process) costs a quarter more, so
        # the median above depends on where collections fall; this does not.
        us_per_decision_cpu_without_gc=statistics.median(o - g for o, g in zip(ours_cpu, gc_cpu, strict=True))
        / decisions * 1e6,
        plain_us_per_decision_cpu_without_gc=statistics.median(
            p - g for p, g in zip(plain_cpu, plain_gc_cpu, strict=True)) / decisions * 1e6,
        full_collections_per_pass=statistics.mean(full_counts),
    )
