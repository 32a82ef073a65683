"""Exact odds of an attack before committing to it (Python API behind ``wargamekit odds``)."""

from __future__ import annotations

from typing import Any

from wargamekit.errors import InvalidChoiceError

from .attack import DECISIVE, WITHERING, AttackOdds, attack_odds
from .defense import DEFENSE_MODES, attack_profile, charge_limit, defense_profile
from .state import Combatant, Scene

__all__ = ["preview_attack"]


def preview_attack(
    scene: Scene,
    attacker: str,
    target: str,
    kind: str,
    *,
    mode: str = "passive",
    charge: int = 0,
    defense_charge: int = 0,
    hooks: Any = None,
) -> AttackOdds:
    """The exact odds of ``attacker``'s attack of ``kind`` on ``target`` in the current scene,
    against the defense ``mode`` (``passive``, ``parry`` or ``dodge``) with the given charges.

    >>> from wargamekit import Game
    >>> from wargamekit_mttt_rpg import MtttRpg
    >>> game = Game.new(MtttRpg(), "duel", seed=3)
    >>> odds = preview_attack(game.state, "kyo", "akari", "withering")
    >>> 0 < odds.hit_chance < 1 and sum(odds.damage.values()) == 1
    True
    """
    a, t = _unit(scene, attacker, "attacker"), _unit(scene, target, "target")
    weapon = a.ready_weapon
    if weapon is None or not a.fighting:
        raise InvalidChoiceError(f"[Attack (攻击)] {a.name} ({a.id}) cannot attack: "
                                 + ("not fighting" if not a.fighting else f"a {a.kind} with no ready weapon"))
    if t.side == a.side:
        who = "herself" if t.id == a.id else f"{t.name}, on the same side"
        raise InvalidChoiceError(f"[Attack (攻击)] {a.name} cannot attack {who}: an attack targets an enemy")
    if kind not in (WITHERING, DECISIVE):
        raise InvalidChoiceError(f"[Attack (攻击)] kind {kind!r}: an attack is {WITHERING!r} or {DECISIVE!r}")
    if mode not in DEFENSE_MODES:
        raise InvalidChoiceError(f"[Defense (防御)] mode {mode!r}: a defense is one of {list(DEFENSE_MODES)}")
    for who, unit, value in (("attacker", a, charge), ("target", t, defense_charge)):
        limit = charge_limit(unit)
        if not 0 <= value <= limit:
            raise InvalidChoiceError(f"[Charge (充能)] {who} charge {value}: {unit.name} can charge 0 to {limit} order MP "
                                     "(her order pool)")
    return attack_odds(
        attack_profile(scene, a, t, charge=charge, hooks=hooks),
        defense_profile(scene, t, a, mode, ranged=weapon.ranged, charge=defense_charge, hooks=hooks),
        kind,
    )


def _unit(scene: Scene, uid: str, role: str) -> Combatant:
    if uid not in scene.combatants:
        raise InvalidChoiceError(f"{role} {uid!r}: no such combatant; the scene has {sorted(scene.combatants)}")
    return scene.unit(uid)
