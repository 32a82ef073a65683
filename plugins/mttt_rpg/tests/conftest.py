"""Test harness: run one rule procedure on a hand-built scene with forced dice and answers."""

from __future__ import annotations

from typing import Any

import pytest

from wargamekit import Choose, ChooseSubset, InterruptStack, ScriptedDice
from wargamekit.context import Checkpoint
from wargamekit.decisions import Decision
from wargamekit_mttt_rpg import MtttRpg
from wargamekit_mttt_rpg.scenario import build_scene


class Harness:
    """A stand-in for :class:`wargamekit.Game` exposing what rule procedures use."""

    def __init__(
        self, scenario: dict[str, Any], faces: list[int], *, interrupts: bool = True, phase: str = "turns"
    ) -> None:
        self.ruleset = MtttRpg()
        self.scenario = self.ruleset.load_scenario(scenario)
        self.state = build_scene(self.scenario)
        self.state.phase = phase
        self.state.round = 1
        self.dice = ScriptedDice(faces)
        self.log: list[tuple[str, str, dict[str, Any]]] = []
        self.interrupts = InterruptStack(enabled=interrupts, on_event=self.event)
        self.asked: list[Decision] = []
        self.checkpoints: list[str] = []  # the labels of the checkpoints reached, in order
        self.options = {"interrupts": interrupts}
        self.hooks: Any = None  # the rules context's plugin hooks: none, as in a game without add-ons
        for u in self.state:
            if u.status == "active" and u.kind != "noncombatant":
                self.state.track.add(u.id, u.initiative)

    def event(self, kind: str, text: str, *, audience: Any = None, **data: Any) -> None:
        self.log.append((kind, text, data))

    def texts(self) -> list[str]:
        return [text for _, text, _ in self.log]

    def unit(self, uid: str) -> Any:
        return self.state.unit(uid)

    def checkpoint(self, label: str) -> Checkpoint:
        """A restart point (the turn loop yields one at each turn): :meth:`run` takes it back at
        once, as a game does, and keeps its label in :attr:`checkpoints`."""
        return Checkpoint(label)

    def run(self, procedure: Any, answers: list[Any] = ()) -> Any:
        """Drive ``procedure``; each decision takes the next answer (a Choose may be answered
        by an option label, a value, or a callable picking from the options); a checkpoint is
        taken back at once (:meth:`checkpoint`)."""
        answers = list(answers)
        try:
            decision = next(procedure)
            while True:
                if isinstance(decision, Checkpoint):  # nobody is asked anything
                    self.checkpoints.append(decision.label)
                    decision = procedure.send(None)
                    continue
                self.asked.append(decision)
                if not answers:
                    raise AssertionError(
                        f"unexpected decision: {decision.prompt} {getattr(decision, 'labels', '')}"
                    )
                raw = answers.pop(0)
                decision = procedure.send(self._value(decision, raw))
        except StopIteration as stop:
            assert not answers, f"answers left over: {answers}"
            return stop.value

    @staticmethod
    def _value(decision: Decision, raw: Any) -> Any:
        if isinstance(decision, Choose):
            if callable(raw):
                return next(o.value for o in decision.options if raw(o))
            if isinstance(raw, str):
                matches = [o.value for o in decision.options if o.label == raw or o.label.startswith(raw)]
                assert matches, f"{decision.prompt}: no option {raw!r} in {decision.labels}"
                return matches[0]
            return raw
        if isinstance(decision, ChooseSubset):
            return tuple(o.value for o in decision.options if o.label in raw)
        return raw


def unit(uid: str, side: str, **kw: Any) -> dict[str, Any]:
    """A scenario unit entry (a character sheet named like the id unless given)."""
    entry = {"id": uid, "side": side}
    if "group" not in kw and "sheet" not in kw:
        entry["sheet"] = uid
    entry.update(kw)
    return entry


def scenario(*units: dict[str, Any], band: int = 0, **kw: Any) -> dict[str, Any]:
    """A minimal scenario dict."""
    return {"name": "test", "units": list(units), "default_band": band, **kw}


Harness.unit_entry = staticmethod(unit)  # type: ignore[attr-defined]
Harness.scenario = staticmethod(scenario)  # type: ignore[attr-defined]


@pytest.fixture
def make() -> Any:
    """``make(scenario_dict, faces, interrupts=True)`` -> Harness; ``make.unit_entry`` and
    ``make.scenario`` build scenario dicts."""
    return Harness
