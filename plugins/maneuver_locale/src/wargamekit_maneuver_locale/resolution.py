"""Pure resolution of assaults, pursuit and bombardment (no state is changed here).

The source's combat is diceless: an assault's result follows from the leading pieces' steps
and the defender's terrain (Assaults — 判定). These functions compute outcomes from plain values
so the game, the assault preview, the ``odds`` command and the bot all share one truth.

>>> atk = (Combatant("A1", Arm.INFANTRY, 3), Combatant("A2", Arm.INFANTRY, 2))
>>> dfn = (Combatant("F1", Arm.INFANTRY, 2),)
>>> r = resolve_assault(atk, dfn, terrain=1)
>>> r.result, r.winner, r.attacker_losses, r.defender_losses
(2, 'attacker', 1, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from attrs import frozen

from wargamekit.errors import InvalidChoiceError
from wargamekit.geometry.locale import ApproachWidth

from .arms import Arm, ArmType  # noqa: F401  (Arm: the doctests name it)
from .scenario import MIN_TERRAIN

__all__ = [
    "AssaultResult",
    "assault_modifier",
    "Combatant",
    "PreviewLine",
    "bombardment_losses",
    "bombardment_target",
    "leading_limit",
    "leading_problem",
    "legal_leading_sets",
    "preview_assault",
    "pursuit_losses",
    "resolve_assault",
]

ATTACKER = "attacker"
DEFENDER = "defender"


@frozen
class Combatant:
    """A piece as combat sees it: id, arm and steps."""

    id: str
    arm: ArmType
    steps: int


def leading_limit(width: ApproachWidth) -> int:
    """Leading pieces allowed: 1 on a narrow approach, up to 2 on a wide one (Assaults)."""
    return 1 if width is ApproachWidth.NARROW else 2


def leading_problem(chosen: Sequence[Combatant], width: ApproachWidth, *, attacker: bool) -> str | None:
    """Why ``chosen`` are not legal leading pieces, or ``None`` if they are.

    Assaults: infantry or cavalry only (arms that lead, :attr:`.arms.ArmType.leads`); 1 on a narrow approach, 2 on a wide one; two may not mix
    infantry and cavalry; the attacker needs at least one piece of 2+ steps (the defender may
    choose none).

    >>> leading_problem([Combatant("a", Arm.INFANTRY, 1)], ApproachWidth.WIDE, attacker=True)
    'at least one leading piece must have 2 or more steps'
    """
    limit = leading_limit(width)
    if len(chosen) > limit:
        return f"at most {limit} leading piece(s) on a {width.value} approach"
    for c in chosen:
        if not c.arm.leads:
            return f"leading pieces are infantry or cavalry, not {c.arm.key}"
    mixed = [c.arm.key for c in chosen if c.arm.key != chosen[0].arm.key]
    if mixed:
        return f"two leading pieces may not mix {chosen[0].arm.key} and {mixed[0]}"
    if attacker:
        if not chosen:
            return "the attacker must choose leading pieces"
        if not any(c.steps >= 2 for c in chosen):
            return "at least one leading piece must have 2 or more steps"
    return None


def legal_leading_sets(
    pieces: Sequence[Combatant], width: ApproachWidth, *, attacker: bool
) -> list[tuple[Combatant, ...]]:
    """Every legal choice of leading pieces among ``pieces`` (the empty one for the defender)."""
    out = []
    for n in range(0, leading_limit(width) + 1):
        for combo in combinations(pieces, n):
            if leading_problem(combo, width, attacker=attacker) is None:
                out.append(combo)
    return out


@frozen
class AssaultResult:
    """The outcome of Assaults — 判定 and 損害適用.

    Attributes:
        attack_steps: the attacker's leading steps.
        terrain: the defender's terrain effect.
        defence_steps: the defender's leading steps.
        result: attack_steps − terrain − defence_steps + arm_bonus + modifier.
        winner: ``"attacker"`` (result ≥ 1) or ``"defender"``.
        attacker_losses: steps the attacker loses.
        defender_losses: steps the defender loses.
        modifier: what add-ons' hooks added (:func:`assault_modifier`).
        arm_bonus: the attacker's leading arm's ``assault_bonus`` less the defender's
            (:attr:`.arms.ArmType.assault_bonus`; 0 with the source's arms).
    """

    attack_steps: int
    terrain: int
    defence_steps: int
    result: int
    winner: str
    attacker_losses: int
    defender_losses: int
    modifier: int = 0
    arm_bonus: int = 0


def assault_modifier(
    hooks: Any, attacker_leading: Sequence[Combatant], defender_leading: Sequence[Combatant], terrain: int
) -> int:
    """What the add-ons add to an assault's result
    (:func:`~wargamekit_maneuver_locale.hookspecs.maneuver_locale_assault_modifier`); 0 when
    ``hooks`` (``ctx.hooks``, ``view.hooks``) is ``None``."""
    if hooks is None:
        return 0
    results = hooks.maneuver_locale_assault_modifier(
        attacker_leading=tuple(attacker_leading), defender_leading=tuple(defender_leading), terrain=terrain
    )
    return sum(m for m in results if m is not None)


def resolve_assault(
    attacker_leading: Sequence[Combatant], defender_leading: Sequence[Combatant], *, terrain: int,
    modifier: int = 0,
) -> AssaultResult:
    """Assaults — 判定 and 損害適用: result and step losses.

    The result is the attacker's leading steps minus the defender's terrain effect minus the
    defender's leading steps (plus ``modifier``, what add-ons add: :func:`assault_modifier`,
    and the leading arms' :attr:`~.arms.ArmType.assault_bonus`, the attacker's less the
    defender's, each counted once); 1 or more is an attacker's win. The winner loses 1 step,
    the loser 1 + |result|.
    """
    attack = sum(c.steps for c in attacker_leading)
    defence = sum(c.steps for c in defender_leading)
    # Leading pieces are of one arm (they may not mix), so a side's arm bonus counts once.
    bonus = (attacker_leading[0].arm.assault_bonus if attacker_leading else 0) - (
        defender_leading[0].arm.assault_bonus if defender_leading else 0
    )
    result = attack - terrain - defence + bonus + modifier
    winner = ATTACKER if result >= 1 else DEFENDER
    loser_losses = 1 + abs(result)
    return AssaultResult(
        attack_steps=attack,
        terrain=terrain,
        defence_steps=defence,
        result=result,
        winner=winner,
        attacker_losses=1 if winner == ATTACKER else loser_losses,
        defender_losses=loser_losses if winner == ATTACKER else 1,
        modifier=modifier,
        arm_bonus=bonus,
    )


def pursuit_losses(cavalry_steps: int, terrain: int) -> int:
    """Assaults — 騎兵の追撃: steps the pursued side loses (the cavalry's steps minus the pursued
    (non-pursuing, 非追撃側) side's terrain effect, never below 0). Each pursuing cavalry piece loses 1 step besides.

    >>> pursuit_losses(3, 1)
    2
    """
    return max(0, cavalry_steps - terrain)


def bombardment_losses(gun_steps: int, terrain: int) -> int:
    """Artillery Bombardment: the target loses the gun's steps, less the defender's terrain
    effect (never below 0).

    >>> bombardment_losses(2, 1)
    1
    """
    return max(0, gun_steps - terrain)


def bombardment_target(facing_approach: int, reserve: int, other_approaches: Sequence[str]) -> str:
    """Artillery Bombardment target priority.

    Args:
        facing_approach: pieces on the target locale's approach that faces the gun.
        reserve: pieces in the target locale's reserve.
        other_approaches: the target locale's other occupied approaches (facing ids).

    Returns:
        ``"approach"``, ``"reserve"``, the facing id of another approach, or "" (no target).

    >>> bombardment_target(0, 2, ["x"])
    'reserve'
    """
    if facing_approach:
        return "approach"
    if reserve:
        return "reserve"
    return other_approaches[0] if other_approaches else ""


@frozen
class PreviewLine:
    """One line of an assault preview: the outcome under one defender response.

    Attributes:
        guns_firing: ids of defending guns that fire (防御砲撃).
        fire_losses: steps the attacker's leading pieces lose to that fire.
        defender_leading: ids of the defender's leading pieces.
        outcome: the result and step losses.
        pursuit: steps the attacker's best pursuit would inflict (0: no pursuit possible).
        pursuer_losses: steps the pursuing cavalry would lose (1 per piece).
        retreat: whether the defending locale retreats (the attacker wins).
    """

    guns_firing: tuple[str, ...]
    fire_losses: int
    defender_leading: tuple[str, ...]
    outcome: AssaultResult
    pursuit: int
    pursuer_losses: int
    retreat: bool

    def describe(self) -> str:
        """One readable line."""
        fire = f"fire {'+'.join(self.guns_firing)} (-{self.fire_losses})" if self.guns_firing else "no fire"
        lead = "+".join(self.defender_leading) or "no leading pieces"
        o = self.outcome
        text = (
            f"{fire}, defender leads {lead}: result {o.result:+d} -> {o.winner} wins; "
            f"losses attacker {o.attacker_losses}, defender {o.defender_losses}"
        )
        if self.pursuit or self.pursuer_losses:
            text += f"; pursuit -{self.pursuit} (pursuers -{self.pursuer_losses})"
        return text + ("; defending locale retreats" if self.retreat else "; attackers fall back to reserve")


def _best_pursuit(cavalry: Sequence[Combatant], width: ApproachWidth, terrain: int) -> tuple[int, int]:
    best = sorted((c.steps for c in cavalry), reverse=True)[: leading_limit(width)]
    if not best:
        return 0, 0
    return pursuit_losses(sum(best), terrain), len(best)


def preview_assault(
    attacker_leading: Sequence[Combatant],
    defender_pieces: Sequence[Combatant],
    *,
    width: ApproachWidth,
    terrain: int,
    attacker_others: Sequence[Combatant] = (),
    defender_guns: Sequence[Combatant] = (),
    defender_others: Sequence[Combatant] = (),
    hooks: Any = None,
) -> list[PreviewLine]:
    """The assault's outcome under every legal defender response.

    The defender's responses are: which eligible guns fire (防御砲撃; each gun's steps come off
    the attacker's leading pieces, before the result) and which leading pieces it chooses
    (0, or up to the approach's limit, no mixing of arms). Pursuit is the attacker's
    best, when it wins: its unused cavalry, when the defending side (防御側) — the blocking
    approach and ``defender_others``, the rest of the defending locale — has no cavalry. The
    preview counts the defence's cavalry before the losses (who loses which step is the
    players' choice), so a cavalry piece that the losses would remove still stops the pursuit
    here.

    Args:
        attacker_leading: the attacker's chosen leading pieces.
        defender_pieces: the pieces on the blocking approach (infantry/cavalry may lead).
        width: the assaulted approach's width.
        terrain: the defender's terrain effect.
        attacker_others: the attacker's other pieces on its approach (for pursuit).
        defender_guns: the defender's guns that may fire.
        defender_others: the defender's other pieces in the defending locale (its reserve and
            other approaches): their cavalry stops a pursuit too.
        hooks: the plugin hooks (``ctx.hooks``, ``view.hooks``): add-ons' assault modifiers count.

    >>> lines = preview_assault([Combatant("A1", Arm.INFANTRY, 3)],
    ...     [Combatant("F1", Arm.INFANTRY, 2)], width=ApproachWidth.NARROW, terrain=1)
    >>> [(l.defender_leading, l.outcome.winner) for l in lines]
    [((), 'attacker'), (('F1',), 'defender')]
    """
    if terrain < MIN_TERRAIN:
        raise InvalidChoiceError(
            f"[Assaults — terrain effect] terrain {terrain}: an approach's terrain effect is "
            f"{MIN_TERRAIN} or more (it is subtracted from the attacker)"
        )
    problem = leading_problem(attacker_leading, width, attacker=True)
    if problem:
        raise ValueError(f"[Assaults — leading pieces] {problem}")
    lines = []
    fighters = [c for c in defender_pieces if c.arm.leads]
    for n_guns in range(len(defender_guns) + 1):
        for guns in combinations(defender_guns, n_guns):
            fire = sum(g.steps for g in guns)
            total = sum(c.steps for c in attacker_leading)
            lost = min(fire, total)
            # Fire losses come off the leading pieces (how the defender spreads them does not
            # change the sum that enters the result).
            remaining = (Combatant("leading", attacker_leading[0].arm, total - lost),) if total - lost else ()
            for lead in legal_leading_sets(fighters, width, attacker=False):
                modifier = assault_modifier(hooks, remaining, lead, terrain)
                outcome = resolve_assault(remaining, lead, terrain=terrain, modifier=modifier)
                pursuit, pursuers = 0, 0
                defence = [*defender_pieces, *defender_others]
                if outcome.winner == ATTACKER and not any(c.arm.pursues for c in defence):
                    spare = [c for c in attacker_others if c.arm.pursues]
                    pursuit, pursuers = _best_pursuit(spare, width, terrain)
                lines.append(
                    PreviewLine(
                        guns_firing=tuple(g.id for g in guns),
                        fire_losses=lost,
                        defender_leading=tuple(c.id for c in lead),
                        outcome=outcome,
                        pursuit=pursuit,
                        pursuer_losses=pursuers,
                        retreat=outcome.winner == ATTACKER,
                    )
                )
    return lines
