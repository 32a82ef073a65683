"""The annotated example round of the docs page, generated from a real scripted game.

The default scene is played with seeded dice and a script of answers: in round 2 the Witch
attacks Sayo; Akari shields Sayo, the Witch counters the shield, Sayo counters the counter —
three items on the interrupt stack, resolved last in first out. Every other decision takes a
plain default (pass, full defense, no charge). ``docs/rulesets/mttt_rpg.md`` embeds
:func:`annotated_round`'s text, and a test checks that the page is up to date.
"""

from __future__ import annotations

from typing import Any

from wargamekit import Choose, ChooseNumber, ChooseSubset, Game, YesNo
from wargamekit.decisions import Answer, Decision

from .ruleset import MtttRpg

__all__ = ["SCRIPT", "ScriptThenDefaults", "annotated_round", "example_game"]

SEED = 4
ROUND = 2

#: (words in the prompt, start of the chosen option's label), matched in order.
SCRIPT: list[tuple[str, str]] = [
    ("Witch of Thorns (initiative", "move toward Sayo"),
    ("Witch of Thorns (initiative", "decisive attack on Sayo"),
    ("attack declared [Witch of Thorns -> Sayo]", "Akari: Ribbon Shield on Sayo"),
    ("attack declared [Witch of Thorns -> Sayo]", "Witch of Thorns: Dark Counter"),
    ("attack declared [Witch of Thorns -> Sayo]", "Sayo: Severing Charm"),
    ("Sayo is attacked by Witch of Thorns", "active parry"),
]

NOTES = {
    "round": "阶段2：行动轮 — turns from the highest initiative down (core InitiativeTrack)",
    "mana": "阶段1：解放法力 — pools unfold by the activation speed (3 long-river units: +2); MP refreshes",
    "join": "中途加入 — Mio arrives unprepared: she rolls join battle now, first acts next round",
    "turn": "轮 — each turn: turn start, turn responses, standard action, active step, turn end",
    "stack-push": "插入阶段 — an instant or triggered effect goes on the stack",
    "stack-resolve": "插入阶段 — the top item resolves first (LIFO); a window reopens at each resolution point",
    "stack-fizzle": "插入阶段 — legality is re-checked at resolution: a countered item fizzles",
    "counter": "a counter marks the item below it; that item fizzles when it comes up",
    "hit-check": "攻击 — d20 + accuracy against the defense (here an active parry: d20 + bonus)",
    "initiative": "先导度 — every change keeps the initiative track in step",
    "settle": "阶段3：结算法力 — leftover MP lapses; the next round's order follows the new values",
}


class ScriptThenDefaults:
    """Answers :data:`SCRIPT` in order where it matches; otherwise a plain default."""

    def __init__(self, script: list[tuple[str, str]]) -> None:
        self.script = list(script)

    def choose(self, decision: Decision, view: Any) -> Answer:
        if isinstance(decision, Choose):
            if self.script and self.script[0][0] in decision.prompt:
                words, label = self.script[0]
                hits = [i for i, text in enumerate(decision.labels) if text.startswith(label)]
                if hits:
                    self.script.pop(0)
                    return hits[0]
            for default in ("pass", "full defense", "passive defense", "no: defend normally"):
                hits = [i for i, text in enumerate(decision.labels) if text.startswith(default)]
                if hits:
                    return hits[0]
            return 0
        if isinstance(decision, ChooseNumber):
            return decision.low
        if isinstance(decision, YesNo):
            return False
        if isinstance(decision, ChooseSubset):
            return list(range(decision.upper))
        raise TypeError(decision)


def example_game(max_round: int = ROUND) -> Game:
    """The scripted default-scene game, played until ``max_round`` is over."""
    game = Game.new(MtttRpg(), "default", seed=SEED)
    player = ScriptThenDefaults(SCRIPT)
    game.play({side: player for side in game.ruleset.sides}, until=lambda g: g.state.round > max_round)
    return game


def annotated_round() -> str:
    """The log of round 2, one event a line, with a note at the first event of each kind."""
    game = example_game()
    lines: list[str] = []
    inside = False
    seen: set[str] = set()
    for event in game.log:
        if event.kind == "mana" and event.data.get("speed") is not None and f"round {ROUND}:" in event.text:
            inside = True
        if not inside:
            continue
        if event.kind == "choice" and event.text.endswith("-> pass"):
            continue
        if event.kind in NOTES and event.kind not in seen:
            seen.add(event.kind)
            lines.append(f"# {NOTES[event.kind]}")
        lines.append(event.text)
        if event.kind == "settle":
            break
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(annotated_round(), end="")
