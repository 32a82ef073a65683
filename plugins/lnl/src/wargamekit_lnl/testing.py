"""Builders for forced-dice rule tests (this package's and add-ons'): a small open map, a few counters,
scripted dice, answering decisions by their option data."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from wargamekit import Choose, ChooseSubset, Game, InterruptStack, RulesContext, ScriptedDice
from wargamekit_lnl import LnL
from wargamekit_lnl.state import Context


def scenario(units: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A 10 x 6 open map with the given counters (provisional victory: hex 0503)."""
    data: dict[str, Any] = {"title": "test", "width": 10, "height": 6, "turns": 2, "objectives": ["0503"],
                            "tie_winner": "german", "units": units}
    data.update(extra)
    return data


def unit(uid: str, side: str, type_: str, hex_: str, **kw: Any) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": type_, "hex": hex_, **kw}


def context(data: dict[str, Any], dice: Iterable[int] = (), **options: Any) -> Context:
    """A rules context on a fresh state, for calling rule functions directly."""
    ruleset = LnL()
    sc = ruleset.load_scenario(data)
    state = ruleset.setup(sc, {})
    faces: list[int] = [int(f) for f in dice]
    return RulesContext(ruleset, sc, ruleset.resolve_options(options or None), state, ScriptedDice(faces),  # type: ignore[arg-type]
                        InterruptStack())


def _choose(game: Game) -> Choose:
    decision = game.pending
    if not isinstance(decision, (Choose, ChooseSubset)):
        raise AssertionError(f"the pending decision is {decision!r}, not a choice")
    return decision  # type: ignore[return-value]


def answer(game: Game, **data: Any) -> None:
    """Answer the pending decision with the option whose data holds ``data``."""
    decision = _choose(game)
    for i, option in enumerate(decision.options):
        if all(option.data.get(k) == v for k, v in data.items()):
            game.answer(i)
            return
    raise AssertionError(f"{decision.kind}: no option with {data}; options: {[o.data for o in decision.options]}")


def answer_subset(game: Game, ids: list[str]) -> None:
    """Answer a subset decision with the options of the units ``ids``."""
    decision = _choose(game)
    game.answer([i for i, o in enumerate(decision.options) if o.data["unit"] in ids])
