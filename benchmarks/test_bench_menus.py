"""What a lazy menu saves a random-bot game (issue 9: options made only when read).

Run: ``uv run pytest benchmarks/test_bench_menus.py -p no:cacheprovider --benchmark-enable``

A minimal ruleset asks ``N`` times for one of ``size`` targets, each option with a label that
carries numbers (as an odds label does) and JSON data, and rolls a d6 per answer; random bots play
it through :meth:`Game.play <wargamekit.game.Game.play>`. *Ours* builds each menu with
``Choose.of(..., lazy=True)`` (the bot reads the count, the log the chosen option); the baseline,
measured in the same run, is the same menu built eagerly (``Choose.of`` without ``lazy``, the
strongest form the core had: its fast path builds options through the slots). Both games' logs are
compared first, so the two do the same work for every reader.

``extra_info`` has the microseconds per answer of both and ``eager_over_ours`` (above 1: the lazy
menu is faster). Nothing here asserts on timings.
"""

from __future__ import annotations

import pytest

from wargamekit import Choose, Game, Outcome, Ruleset
from wargamekit.players import RandomBot

N = 500


class _Menus(Ruleset):
    """``N`` answers, each of a ``size``-option target menu, eager or lazy (option ``lazy``)."""

    name = "menus"
    version = "1"
    sides = ("red", "blue")

    def __init__(self, size: int) -> None:
        self.targets = tuple(f"T-{i}" for i in range(size))

    def scenario_data(self, name: str = "default") -> dict:
        return {"steps": N}

    def setup(self, scenario, options):
        return {"hits": 0}

    def options(self):
        return {"lazy": True}

    def view(self, state, side):
        return state

    def play(self, game):
        state, targets = game.state, self.targets
        for step in range(N):
            side = self.sides[step % 2]

            def label(target: str) -> str:
                number = targets.index(target)
                return f"fire at {target} (hit {50 + number % 40}%, kill {20 + number % 30}%, {state['hits']} hits)"

            def data(target: str) -> dict:
                return {"action": "fire", "target": target, "range": targets.index(target) % 7 + 1}

            target = yield Choose.of(side, "Fire at?", targets, rule="8.1", kind="menus.target",
                                     label=label, data=data, lazy=game.options["lazy"])
            if game.dice.d6(f"fire at {target}") >= 5:
                state["hits"] += 1
        return Outcome(None, "done", {"hits": state["hits"]})


def _game(ruleset: _Menus, lazy: bool) -> Game:
    game = Game.new(ruleset, seed=7, options={"lazy": lazy})
    game.play({side: RandomBot(i) for i, side in enumerate(ruleset.sides)})
    return game


@pytest.mark.parametrize("size", [2, 8, 32])
def test_lazy_menu_answer_cost(benchmark, compare, size):
    ruleset = _Menus(size)
    assert _game(ruleset, lazy=True).log_text() == _game(ruleset, lazy=False).log_text()
    compare(lambda: _game(ruleset, True), {"eager": lambda: _game(ruleset, False)}, rounds=5, ours_rounds=5)
    benchmark.extra_info["ours_us_per_answer"] = benchmark.extra_info["ours_median_s"] / N * 1e6
    benchmark.extra_info["eager_us_per_answer"] = benchmark.extra_info["eager_median_s"] / N * 1e6
