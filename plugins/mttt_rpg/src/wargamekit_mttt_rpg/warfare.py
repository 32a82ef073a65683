"""Strategic warfare (战术对决): generals' opposed (intelligence + war) pools before a battle.

Each general picks a tactic; both roll (intelligence + war) pools. The one with more successes
carries out her tactic if her threshold successes (阈值成功: the successes beyond the opposing
general's, as "threshold successes" mean in an opposed roll) reach its threshold; otherwise
nobody gains anything.

>>> TACTICS["ambush"].threshold, TACTICS["back_to_the_sea"].threshold
(3, 1)
>>> from wargamekit import ScriptedDice
>>> resolve_warfare(ScriptedDice([8, 9, 10, 2, 3, 7, 1, 1]), 4, "ambush", 4, "demoralized")
WarfareOutcome(winner='a', tactic='ambush', a_successes=4, b_successes=1)
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from attrs import frozen

from wargamekit import Choose
from wargamekit.dice import Dice

from . import kinds
from .ranges import LONG
from .resources import pool_rating
from .soul import offer_pool_boost
from .state import Context, Scene

__all__ = ["TACTICS", "Tactic", "WarfareOutcome", "resolve_warfare", "strategic_warfare", "warfare_outcome"]

RULE_WARFARE = "战术对决 (Strategic Warfare)"


@frozen
class Tactic:
    """A tactic (潜在战术) and its threshold (阈值)."""

    key: str
    name: str
    threshold: int
    effect: str


TACTICS = {
    t.key: t
    for t in (
        Tactic(
            "back_to_the_sea",
            "Back to the Sea (逼入绝路)",
            1,
            "the enemy cannot withdraw; rallies are 1 harder, slaughter hits 2 harder, rally for numbers needs 3 successes per magnitude",
        ),
        Tactic(
            "strategic_placement",
            "Strategic Placement (战术布置)",
            1,
            "the battle is fought where the winner chose; no fixed mechanical advantage (the source says so)",
        ),
        Tactic(
            "demoralized", "Demoralized (士气低落)", 2, "the enemy has −1 on rout checks and order actions"
        ),
        Tactic(
            "fortifications",
            "Fortifications (防御工事)",
            2,
            "the enemy starts at long distance and pays 1 initiative per move (difficult terrain)",
        ),
        Tactic(
            "ambush",
            "Ambush (伏击)",
            3,
            "the winner's attacks in round 1 are ambushes, in rounds 2-4 surprise attacks",
        ),
        Tactic("pincer", "Pincer Attack (夹击)", 3, "the enemy suffers −1 onslaught all battle long"),
    )
}


@frozen
class WarfareOutcome:
    """Who won the strategic maneuver roll and which tactic (if any) takes effect."""

    winner: str | None
    tactic: str | None
    a_successes: int
    b_successes: int


def resolve_warfare(dice: Dice, a_pool: int, a_tactic: str, b_pool: int, b_tactic: str) -> WarfareOutcome:
    """The opposed strategic maneuver roll (pure): the winner's threshold successes are her
    successes beyond the loser's.

    >>> from wargamekit import ScriptedDice
    >>> resolve_warfare(ScriptedDice([8, 9, 10, 7, 1]), 4, "ambush", 1, "pincer").tactic is None  # 5 − 1 = 4
    False
    >>> resolve_warfare(ScriptedDice([8, 9, 1, 1, 7]), 4, "ambush", 1, "pincer").tactic is None  # 2 − 1 = 1
    True
    """
    a = dice.pool(max(1, a_pool), "strategic maneuver (战术机动): first general").successes
    b = dice.pool(max(1, b_pool), "strategic maneuver (战术机动): second general").successes
    return warfare_outcome(a, a_tactic, b, b_tactic)


def warfare_outcome(a: int, a_tactic: str, b: int, b_tactic: str) -> WarfareOutcome:
    """The outcome of the opposed strategic maneuver from the two generals' successes."""
    if a == b:
        return WarfareOutcome(None, None, a, b)
    winner, tactic = ("a", a_tactic) if a > b else ("b", b_tactic)
    threshold_successes = abs(a - b)
    return WarfareOutcome(winner, tactic if threshold_successes >= TACTICS[tactic].threshold else None, a, b)


def strategic_warfare(ctx: Context, generals: dict[str, str]) -> Generator[Any, Any, None]:
    """Run strategic warfare between the sides' generals (``side -> unit id``)."""
    scene: Scene = ctx.state
    sides = ("heroes", "foes")
    picks = {}
    for side in sides:
        picks[side] = yield Choose.of(
            side,
            f"{scene.unit(generals[side]).name}: which tactic do you attempt?",
            list(TACTICS),
            rule=RULE_WARFARE,
            label=lambda k: f"{TACTICS[k].name} (threshold {TACTICS[k].threshold}): {TACTICS[k].effect}",
            kind=kinds.TACTIC,
            context={"general": generals[side]},
            data=lambda k: {"tactic": k, "threshold": TACTICS[k].threshold},
        )
    pools = {
        s: pool_rating(scene.unit(generals[s]).attribute("intelligence"))
        + scene.unit(generals[s]).sheet.skill("war")
        for s in sides
    }
    successes = {}
    for side, which in zip(sides, ("first", "second"), strict=True):
        general = scene.unit(generals[side])
        roll = ctx.dice.pool(max(1, pools[side]), f"strategic maneuver (战术机动): {which} general")
        # 燃玉: a general may burn soul jade into the dice of her pool (a boss fight only)
        successes[side] = yield from offer_pool_boost(ctx, general, roll, what="strategic maneuver pool")
    out = warfare_outcome(successes["heroes"], picks["heroes"], successes["foes"], picks["foes"])
    winner = None if out.winner is None else ("heroes" if out.winner == "a" else "foes")
    text = f"strategic maneuver: heroes {out.a_successes} vs foes {out.b_successes} successes"
    if out.tactic is None:
        ctx.event("warfare", text + ": no tactic takes effect", heroes=out.a_successes, foes=out.b_successes)
        return
    scene.tactic = out.tactic
    scene.tactic_winner = winner
    ctx.event(
        "warfare", text + f": {winner} carry out {TACTICS[out.tactic].name}", tactic=out.tactic, winner=winner
    )
    if out.tactic == "ambush":
        # 拔出/预备武器: characters enter a fight with a weapon drawn "unless ambushed" — the
        # ambushed side's characters must ready theirs first (battle groups keep their arms).
        for u in scene:
            if u.side != winner and u.kind == "character" and u.status == "active" and u.weapon:
                u.weapon = ""
                ctx.event("ambushed", f"{u.name} is ambushed with no weapon drawn (伏击)", unit=u.id)
    if out.tactic == "fortifications":
        for a in scene:
            for b in scene:
                if a.side == winner and b.side != winner and a.id != b.id:
                    scene.set_distance(a.id, b.id, max(scene.distance(a.id, b.id), LONG))
