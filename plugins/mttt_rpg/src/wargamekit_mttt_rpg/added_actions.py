"""Combat actions an add-on adds, as data (战斗行动), built from the effects spells already use.

An add-on returns :class:`CombatAction` values from
:func:`~wargamekit_mttt_rpg.hookspecs.mttt_rpg_combat_actions`. Each is offered in the active
step's menu (kind ``mttt_rpg.action``) to every unit it fits, one option per legal target, with
the option data ``{"action": "addon", "name": key, "target": unit id}``. Choosing it spends
the standard action (标准动作) like casting a standard spell (战斗行动 / 施法): the unit pays
the action's initiative at once (先导度, as aiming or readying a weapon does; a character who
crashes through it loses 5 more, 先导崩溃), and the action's effect goes on the interrupt
stack as a spell's does (插入阶段: it may be countered in its window), paying its mana, if any,
when it resolves. The effect is an :class:`~wargamekit_mttt_rpg.sheets.Effect` — the same
primitives (``gain_initiative``, ``heal``, ``defense``, ``protection``, ``withering_blast``)
spells and triggered effects are made of — so the rules apply it with the code they already
have (:func:`~wargamekit_mttt_rpg.interrupt_phase.apply_effect`).

>>> bash = CombatAction("shield_bash", "Shield Bash", Effect("withering_blast", 2, "enemy", 0), initiative=1)
>>> bash.key, bash.effect.target, bash.who
('shield_bash', 'enemy', 'character')
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from attrs import field, frozen

from wargamekit.errors import WargamekitError

from .initiative import spend_initiative
from .interrupt_phase import make_response, open_window
from .sheets import Effect
from .state import Combatant, Context, Scene

__all__ = ["CombatAction", "CombatActionError", "combat_action_types", "offered", "perform_added"]

#: The option data's ``action`` for an add-on's combat action.
ADDON = "addon"
RULE = "战斗行动 (an add-on's combat action)"


class CombatActionError(WargamekitError, ValueError):
    """An add-on's combat action is malformed or clashes with another's key."""


def _check_effect(_inst: object, _attr: object, value: Effect) -> None:
    if not isinstance(value, Effect):
        raise CombatActionError(f"a combat action's effect is an Effect, not {value!r}")
    if value.kind == "counter" or value.target == "top":
        raise CombatActionError("a combat action acts on a unit: its effect cannot counter the stack's top item")


def _at_least_zero(_inst: object, attr: Any, value: int) -> None:
    if value < 0:
        raise CombatActionError(f"a combat action's {attr.name} cannot be negative ({value})")


def _one_of(*choices: str) -> Any:
    def check(_inst: object, attr: Any, value: str) -> None:
        if value not in choices:
            raise CombatActionError(f"a combat action's {attr.name} is one of {list(choices)}, not {value!r}")

    return check


@frozen
class CombatAction:
    """A combat action an add-on adds, as data.

    Attributes:
        key: its name in option data (``"shield_bash"``); unique among the add-ons' actions.
        name: what a player reads.
        effect: what it does (an existing effect primitive, with its target — ``self``,
            ``ally`` (self included) or ``enemy`` — and its range in bands).
        initiative: the initiative it costs, paid when it is chosen (0: none).
        pool: the mana pool it draws on (``"order"`` or ``"distortion"``).
        cost: the mana it costs, paid when it resolves (0: none); a unit without that much
            mana is not offered it.
        who: who may take it: ``"character"`` (not in initiative crash, as for spells),
            ``"group"`` (a battle group) or ``"any"``.
    """

    key: str
    name: str
    effect: Effect = field(validator=_check_effect)
    initiative: int = field(default=0, validator=_at_least_zero)
    pool: str = field(default="order", validator=_one_of("order", "distortion"))
    cost: int = field(default=0, validator=_at_least_zero)
    who: str = field(default="character", validator=_one_of("character", "group", "any"))


def combat_action_types(hooks: Any = None) -> dict[str, CombatAction]:
    """The add-ons' combat actions, by key (``hooks``: ``ctx.hooks``/``view.hooks``; none
    without plugins), in the order the add-ons give them.

    Raises:
        CombatActionError: an add-on returned something else than a :class:`CombatAction`, or
            two actions share a key.
    """
    found: dict[str, CombatAction] = {}
    if hooks is None:
        return found
    for added in hooks.mttt_rpg_combat_actions():
        for action in added or ():
            if not isinstance(action, CombatAction):
                raise CombatActionError(f"mttt_rpg_combat_actions returned {action!r}, not a CombatAction")
            if action.key in found:
                raise CombatActionError(f"combat action {action.key!r} is defined twice: keys must be unique")
            found[action.key] = action
    return found


def _mana(unit: Combatant, pool: str) -> int:
    return unit.order_mp if pool == "order" else unit.distortion_mp


def _fits(unit: Combatant, action: CombatAction) -> bool:
    if action.who == "character":
        return unit.kind == "character" and not unit.crashed
    if action.who == "group":
        return unit.is_group
    return True


def offered(scene: Scene, unit: Combatant, hooks: Any) -> list[tuple[CombatAction, Combatant]]:
    """The add-ons' actions ``unit`` may take now, each with a legal target, in order."""
    out: list[tuple[CombatAction, Combatant]] = []
    for action in combat_action_types(hooks).values():
        if not _fits(unit, action) or _mana(unit, action.pool) < action.cost:
            continue
        effect = action.effect
        pool = [unit] if effect.target == "self" else (
            scene.allies(unit) if effect.target == "ally" else scene.enemies(unit)
        )
        out.extend((action, t) for t in pool if scene.distance(unit.id, t.id) <= effect.range)
    return out


def perform_added(ctx: Context, unit: Combatant, key: str, target_id: str) -> Generator[Any, Any, None]:
    """Carry out the add-on's action ``key`` on ``target_id``: pay its initiative, then put its
    effect on the stack and resolve it in its window, as a standard spell is cast."""
    action = combat_action_types(ctx.hooks)[key]
    scene: Scene = ctx.state
    target = scene.unit(target_id)
    ctx.event(
        "combat-action",
        f"{unit.name} uses {action.name} on {target.name}",
        unit=unit.id,
        action=key,
        target=target.id,
    )
    if action.initiative:
        yield from spend_initiative(ctx, unit, action.initiative, why=action.name)
        if not unit.fighting or scene.over:
            return
    item = make_response(ctx, unit, action.name, action.effect, action.pool, action.cost, target)
    floor = len(ctx.interrupts.items)  # as a spell: its window resolves down to it
    ctx.interrupts.push(item)
    yield from open_window(ctx, f"using {action.name}", active=unit.id, floor=floor)
