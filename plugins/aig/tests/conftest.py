"""Test helpers: small scenarios built in code, forced dice, and a driver that answers decisions
by their option data (never by prompt or label)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from wargamekit import Game, ScriptedDice
from wargamekit_aig import Aig


def leader(name: str, side: str, hex: str, rank: str = "ordinary", *, command: str = "", initiative: int = 3,
           range: int = 4, group_orders: int = 1, charisma: int = 1, superior: str = "") -> dict[str, Any]:
    return {"name": name, "side": side, "rank": rank, "command": command or name, "range": range,
            "initiative": initiative, "group_orders": group_orders, "charisma": charisma, "hex": hex,
            "superior": superior}


def unit(name: str, side: str, hex: str, type: str = "MI", *, command: str = "c", tq: int = 5, ma: int = 6,
         facing: int | None = None, **extra: Any) -> dict[str, Any]:
    return {"name": name, "side": side, "type": type, "command": command, "tq": tq, "ma": ma, "hex": hex,
            "facing": (0 if side == "red" else 3) if facing is None else facing, **extra}


def scenario(units: list[dict], leaders: list[dict] | None = None, *, width: int = 12, height: int = 8,
             **map_extra: Any) -> dict[str, Any]:
    """A clear map with the given counters; an OC per side far away unless leaders are given."""
    leaders = leaders if leaders is not None else [
        leader("Red OC", "red", "0101", "oc", command="none", range=1, initiative=2),
        leader("Blue OC", "blue", f"{width:02d}{height:02d}", "oc", command="none", range=1, initiative=2)]
    return {"title": "test", "map": {"width": width, "height": height, **map_extra}, "units": units,
            "leaders": leaders,
            "banners": [{"side": ld["side"], "carrier": ld["name"]} for ld in leaders if ld["rank"] == "oc"],
            "victory": {"withdrawal": {"red": 50, "blue": 50}, "last_turn": 3}}


def matches(data: Any, want: dict[str, Any]) -> bool:
    flat = dict(data)
    if "respond" in flat:
        flat = {**flat, **dict(flat["respond"])}
    return all(flat.get(k) == v for k, v in want.items())


def pick(decision: Any, want: dict[str, Any]) -> int:
    for i, option in enumerate(decision.options):
        if matches(option.data, want):
            return i
    raise AssertionError(f"{decision.kind}: no option with {want}; options: {[dict(o.data) for o in decision.options]}")


def drive(gen: Any, answers: list[dict[str, Any]], auto: tuple[str, ...] = ("aig.rout_step",)) -> Any:
    """Run a rule procedure, answering each decision with the option whose data matches the next
    answer (decisions of the ``auto`` kinds take their first option); returns the procedure's
    value. Every answer must be used."""
    answers = list(answers)
    try:
        decision = next(gen)
        while True:
            if decision.kind in auto:
                decision = gen.send(decision.options[0].value)
                continue
            assert answers, f"unexpected decision {decision.kind} {decision.context}"
            decision = gen.send(decision.options[pick(decision, answers.pop(0))].value)
    except StopIteration as stop:
        assert not answers, f"answers left over: {answers}"
        return stop.value


class Table:
    """A game on a small scenario, with its rules context on forced dice."""

    def __init__(self, data: dict[str, Any], dice: list[int] | None = None) -> None:
        self.game = Game.new(Aig(), data, seed=0)
        self.ctx = self.game.context
        self.ctx.dice = ScriptedDice(dice or [])
        self.state = self.ctx.state

    def dice(self, *faces: int) -> None:
        self.ctx.dice = ScriptedDice(list(faces))

    def events(self, kind: str) -> list[Any]:
        return [e for e in self.ctx.log if e.kind == kind]


@pytest.fixture
def k():
    """The helpers, as one namespace (tests run in importlib mode and cannot import conftest)."""
    return SimpleNamespace(leader=leader, unit=unit, scenario=scenario, drive=drive, pick=pick, Table=Table)
