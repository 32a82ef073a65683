"""The MTTT RPG combat-scene ruleset."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any

from wargamekit import Outcome, Ruleset
from wargamekit.decisions import Decision

from .combat_round import play_scene
from .scenario import MtttScenario, build_scene, validate
from .state import Context, Scene
from .view import scene_view

__all__ = ["MtttRpg"]


class MtttRpg(Ruleset):
    """MTTT RPG combat scene (战斗场景): initiative as a resource, withering and decisive
    attacks, range bands, mana pools, the interrupt phase, battle groups, strategic warfare."""

    name = "mttt_rpg"
    version = "1.1"
    description = "MTTT RPG combat scene: initiative, withering/decisive attacks, interrupts, battle groups"
    sides = ("heroes", "foes")
    scenario_type = MtttScenario
    scenario_package = "wargamekit_mttt_rpg.scenarios"
    #: The scenario never changes once loaded (the scene copies what it needs from it), so a
    #: checkpoint's snapshot keeps it instead of a copy.
    shared_types = (MtttScenario,)

    def load_scenario(self, data: Mapping[str, Any], *, source: str | None = None) -> Any:
        return validate(super().load_scenario(data, source=source), source)

    def options(self) -> Mapping[str, Any]:
        """``interrupts``: the interrupt phase (插入阶段); off is the optional rule that disables it."""
        return {"interrupts": True}

    def setup(self, scenario: MtttScenario, options: Mapping[str, Any]) -> Scene:
        return build_scene(scenario)

    def play(self, ctx: Context) -> Generator[Decision, Any, Outcome]:
        ctx.interrupts.enabled = bool(ctx.options["interrupts"])
        return (yield from play_scene(ctx))

    def view(self, state: Scene, side: str | None) -> Scene:
        """Everything (the combat scene hides nothing from either side), as a cheap detached
        copy (:func:`.view.scene_view`)."""
        return scene_view(state)

    def shared_view(self, state: Scene, side: str | None) -> Scene:
        """For a bot that promised only to read it: the live scene itself (it hides nothing
        from either side), no copy."""
        return state

    def check_invariants(self, state: Scene) -> None:
        from .invariants import check

        check(state)

    def summary(self, state: Scene) -> str:
        from .summary import summary

        return summary(state)

    def bots(self) -> Mapping[str, Callable[[int], Any]]:
        from .bots import HeuristicBot

        return {"bot": HeuristicBot, "heuristic": HeuristicBot}

    def odds_command(self) -> Any:
        from .odds_cli import odds_command

        return odds_command()
