"""The terminal summary of a position (what a human sees when typing ``?``)."""

from __future__ import annotations

from .ranges import band_name
from .state import Scene

__all__ = ["summary"]


def summary(scene: Scene) -> str:
    """A few lines: round, each combatant's resources, and the range bands between sides."""
    lines = [
        f"Round {scene.round}/{scene.round_limit} — {scene.phase}"
        + (f" — tactic: {scene.tactic} ({scene.tactic_winner})" if scene.tactic else "")
    ]
    for side in ("heroes", "foes"):
        lines.append(f"{side}:")
        for u in scene:
            if u.side != side:
                continue
            if u.status == "absent":
                lines.append(f"  {u.name}: not yet in the fight (joins in round {u.joins_round})")
                continue
            if u.is_group:
                state = f"size {u.size}, magnitude {u.magnitude}/{u.magnitude_max}, init {u.initiative}"
            elif u.kind == "noncombatant":
                state = f"non-combatant, HP {u.hp}/{u.hp_max}"
            else:
                state = (
                    f"HP {u.hp}/{u.hp_max}, init {u.initiative}{' CRASHED' if u.crashed else ''}, "
                    f"MP {u.order_mp}/{u.order_cap} order {u.distortion_mp}/{u.distortion_cap} distortion"
                )
                if u.chaos_phase:
                    state += f", chaos phases {u.chaos_phase}"
                if u.burn_points:
                    state += f", burn points {u.burn_points}"
            marks = [
                m
                for m, on in (
                    ("full defense", u.full_defense),
                    ("guarding", u.guarding),
                    ("prone", u.prone),
                    (f"cover {u.cover}", u.cover != "none"),
                    (f"onslaught -{u.onslaught}", u.onslaught > 0),
                )
                if on
            ]
            # no square brackets: the terminal renders them as markup and would swallow the status
            status = "" if u.status == "active" else f" ({u.status})"
            lines.append(f"  {u.name}{status}: {state}" + (f" ({', '.join(marks)})" if marks else ""))
    heroes = [u for u in scene if u.side == "heroes" and u.present and u.kind != "noncombatant"]
    foes = [u for u in scene if u.side == "foes" and u.present]
    if heroes and foes:
        lines.append("ranges:")
        for h in heroes:
            lines.append(
                "  "
                + h.name
                + ": "
                + ", ".join(
                    f"{f.name} {scene.distance(h.id, f.id)} ({band_name(scene.distance(h.id, f.id)).split(' ')[0]})"
                    for f in foes
                )
            )
    return "\n".join(lines)
