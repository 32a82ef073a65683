"""Combat actions (战斗行动): the menu of a turn's active step and the attack procedure.

One standard action per turn (标准动作); readying a weapon (−2 initiative) and passing through a
battle group (−1 initiative) are paid in initiative instead and leave the standard action.
"""

from __future__ import annotations

from collections.abc import Generator
from functools import lru_cache
from typing import Any, cast

from attrs import field, frozen

from wargamekit import Choose, ChooseNumber, IllegalChoiceError
from wargamekit.decisions import Data, LazyOptions

from . import kinds, movement
from .added_actions import ADDON, offered, perform_added
from .attack import DECISIVE, WITHERING, decisive_damage, hit_chance
from .attack_flow import attack
from .battle_groups import (
    character_pool_check,
    drill_command_modifier,
    lose_size,
    rally_for_numbers_gain,
)
from .defense import attack_profile, defense_profile
from .initiative import RULE_CRASH, spend_initiative
from .interrupt_phase import make_response, open_window, open_windows
from .ranges import pair_keys
from .resources import pool_rating
from .sheets import library
from .state import ACTIVE, ROUTED, Combatant, Context, Scene

__all__ = ["Action", "active_step", "legal_actions", "perform"]

RULE_ACTIONS = "战斗行动"
RULE_ATTACK = "战斗行动 / 攻击（标准动作）"
RULE_WAIT = "战斗行动 / 待机"
RULE_AIM = "战斗行动 / 瞄准（先导度）"
RULE_READY = "战斗行动 / 拔出/预备武器（先导度）"
RULE_SPELL = "战斗行动 / 施法"
ENGAGE_COST = 2  # provisional: the grapple's initiative cost is not in the source
READY_COST = 2


@frozen
class Action:
    """One option of the active step's menu: a plain frozen value (its label is text)."""

    kind: str
    target: str | None = None
    kind_of_attack: str | None = None
    delta: int = 0
    name: str | None = None
    #: What the player reads (an attack's odds included, made with the action: see
    #: :func:`_attack_action`).
    label: str = field(default="", eq=False)

    @property
    def text(self) -> str:
        """The label's text (:attr:`label`)."""
        return self.label

    @property
    def data(self) -> Data:
        """What the action is, for programs: ``{"action": kind}`` with its ``target`` (a unit
        id), ``attack`` (withering or decisive), ``delta`` (range bands) and ``name`` (a spell,
        a weapon, the battle group passed through, or the key of an add-on's combat action,
        ``"action": "addon"``) where it has them."""
        out: dict[str, Any] = {"action": self.kind}
        if self.target:
            out["target"] = self.target
        if self.kind_of_attack:
            out["attack"] = self.kind_of_attack
        if self.delta:
            out["delta"] = self.delta
        if self.name:
            out["name"] = self.name
        # frozen here (hot: every option of every menu): ids, names and numbers are what
        # freeze_data would keep as they are
        return Data(out)

    @property
    def standard(self) -> bool:
        """Whether it spends the standard action."""
        return self.kind not in ("ready", "pass_through")


def _attack_targets(scene: Scene, unit: Combatant, band: dict[str, int] | None = None) -> list[Combatant]:
    weapon = unit.ready_weapon
    if weapon is None:
        return []
    # Hot (every menu): the unit's and the weapon's fields read once, ``Combatant.fighting`` and
    # ``is_group`` inline
    uid, side, group, reversal = unit.id, unit.side, unit.kind == "group", unit.reversal_target
    reach, ranged = weapon.max_range, weapon.ranged
    out = []
    for enemy in scene.combatants.values():
        if enemy.side == side:
            continue
        status = enemy.status
        if status == ROUTED:
            if enemy.size > 2 and not group:
                continue  # only battle groups can slaughter a fleeing group larger than size 2
        elif status != ACTIVE:
            continue
        if (scene.distance(uid, enemy.id) if band is None else band[enemy.id]) > reach:
            continue
        if ranged and enemy.cover == "full":
            continue  # full cover: ranged attacks are impossible
        if reversal is not None and enemy.id != reversal:
            continue
        out.append(enemy)
    return out


def _odds_label(scene: Scene, unit: Combatant, target: Combatant, kind: str, hooks: Any = None) -> str:
    weapon = unit.ready_weapon
    assert weapon is not None
    atk = attack_profile(scene, unit, target, hooks=hooks)
    dfn = defense_profile(scene, target, unit, "passive", ranged=weapon.ranged, hooks=hooks)
    chance = float(hit_chance(atk, dfn))
    extra = ""
    if kind == DECISIVE:
        extra = f", {decisive_damage(atk, dfn.protection)} HP on a hit"
    return f"{chance:.0%} vs passive defense{extra}"


def _attack_label(scene: Scene, unit: Combatant, target: Combatant, kind: str, what: str, hooks: Any) -> str:
    """The label of an attack in the menu, with its odds against passive defense, read from the
    live scene: made with the attack's action (:func:`_attack_action`), which the menu makes
    from its key only when the action is read, while the decision is pending."""
    weapon = unit.ready_weapon
    assert weapon is not None  # there are targets only with a weapon ready
    return f"{what} {target.name} with {weapon.name} ({_odds_label(scene, unit, target, kind, hooks)})"


def _fresh_action(
    kind: str,
    target: str | None = None,
    kind_of_attack: str | None = None,
    delta: int = 0,
    name: str | None = None,
    label: str = "",
) -> Action:
    """``Action(kind, target, kind_of_attack, delta, name, label)``, through the slots' own
    setters: what attrs' ``__init__`` does, ~0.3 µs cheaper (hot: ~15 actions a menu). For an
    attack, whose label (its odds) is made for its one menu; any other goes through
    :func:`_action`."""
    action = _new_action(Action)
    _set_kind(action, kind)
    _set_target(action, target)
    _set_kind_of_attack(action, kind_of_attack)
    _set_delta(action, delta)
    _set_name(action, name)
    _set_label(action, label)
    return action


#: :func:`_fresh_action`'s action with a label made already (a ``str``), shared: an action is a
#: frozen value, and the menus of a game offer the same ones again and again (the same moves,
#: the same waits), so each is made once and found by all it is, keyed on every field (hot: ~15
#: actions a menu, ~60 menus a game; making one through its six slots costs ~4 times finding it).
_action = lru_cache(maxsize=1024)(_fresh_action)


@lru_cache(maxsize=1024)
def _move_action(target: str, name: str, delta: int, to: int) -> Action:
    """The shared action (:func:`_action`) of a move ``delta`` bands relative to ``target``
    (named ``name``) to band ``to``: found by what its label reads, so that the label is made
    only with the action (hot: ~10 moves a menu, nearly all made before)."""
    word = "toward" if delta < 0 else "away from"
    return _action("move", target, delta=delta, label=f"move {word} {name} (to band {to})")


_new_action = object.__new__
_set_kind, _set_target, _set_kind_of_attack, _set_delta, _set_name, _set_label = (
    Action.__dict__[name].__set__ for name in ("kind", "target", "kind_of_attack", "delta", "name", "label")
)


def _bands(scene: Scene, unit: Combatant) -> dict[str, int]:
    """The range band from ``unit`` to every combatant (0 to herself): ``Scene.distance`` of
    each, read once (hot: a menu reads a band a dozen times). (A loop: a comprehension makes a
    function and its frame at every call.)"""
    uid, distances, keys = unit.id, scene.distances, pair_keys(unit.id)
    out = {}
    for oid in scene.combatants:
        out[oid] = 0 if oid == uid else distances[keys[oid]]
    return out


def _foes_and_friends(scene: Scene, unit: Combatant) -> tuple[list[Combatant], list[Combatant]]:
    """``(scene.enemies(unit), scene.allies(unit))`` in one pass over the combatants: each
    fighting combatant is on ``unit``'s side or not, so each goes to one list, in the order
    both methods give (hot: every menu; two passes cost ~1.5 times one)."""
    side = unit.side
    foes: list[Combatant] = []
    friends: list[Combatant] = []
    for u in scene.combatants.values():
        if u.status == ACTIVE:
            if u.side == side:
                friends.append(u)
            else:
                foes.append(u)
    return foes, friends


#: An entry of the action menu (:func:`_menu`): an :class:`Action`, or the key of one, a tuple
#: ``(make, *args)`` whose action is ``make(*args)`` (:func:`_made_action`).
_Entry = Action | tuple[Any, ...]


def _made_action(entry: _Entry) -> Action:
    """The action of a menu entry (see :data:`_Entry`)."""
    if type(entry) is Action:
        return entry
    key = cast("tuple[Any, ...]", entry)
    return key[0](*key[1:])


def legal_actions(ctx: Context, unit: Combatant) -> list[Action]:
    """Every action ``unit`` may take now."""
    return [_made_action(entry) for entry in _menu(ctx, unit)]


def _menu(ctx: Context, unit: Combatant) -> list[_Entry]:
    """:func:`legal_actions`, each action as it is or as its key (:data:`_Entry`): the
    active step's lazy menu makes from its key only an action that is read (hot: ~15 actions
    a menu, of which a random bot reads one; a key is a tuple, an action found in a memo or
    made through its slots costs several times more)."""
    scene: Scene = ctx.state
    out: list[_Entry] = []
    band = _bands(scene, unit)
    foes, friends = _foes_and_friends(scene, unit)  # each read once (hot: several uses)
    targets = _attack_targets(scene, unit, band)
    # each read once (hot: tests per target and per combatant; a property read costs several
    # times a slot's): Combatant.is_group and crashed inline, and whether she is a character
    kind = unit.kind
    is_group, character = kind == "group", kind == "character"
    crashed = character and not unit.trivial and unit.initiative <= 0
    if unit.aiming:
        for t in targets:
            out.append(
                _action(
                    "attack",
                    t.id,
                    WITHERING,
                    label=f"aimed withering attack on {t.name} (+{unit.aim_bonus} to hit)",
                )
            )
            if not crashed and character and t.status != ROUTED:
                out.append(
                    _action(
                        "attack",
                        t.id,
                        DECISIVE,
                        label=f"aimed decisive attack on {t.name} (+{unit.aim_bonus} to hit)",
                    )
                )
        out.append(_action("wait", label="give up the aimed attack"))
        return out
    if is_group and (weapon := unit.ready_weapon) is not None and not weapon.ranged:
        reach = 1 if unit.dispersed else 0
        if any(band[e.id] <= reach for e in foes):
            out.append(
                _action(
                    "attack",
                    None,
                    WITHERING,
                    label=f"area attack on every enemy within {reach} ({weapon.name})",
                )
            )
        for t in targets:
            if t.status == ROUTED:
                out.append(_action("attack", t.id, WITHERING, label=f"slaughter the fleeing {t.name} (屠杀)"))
    else:
        for t in targets:
            what = "slaughter" if t.status == ROUTED else "withering attack on"
            out.append((_attack_action, scene, unit, t, WITHERING, what, ctx.hooks))
            if character and not unit.trivial and not crashed and t.status != ROUTED:
                out.append((_attack_action, scene, unit, t, DECISIVE, "decisive attack on", ctx.hooks))
    # (her sheet and her group's traits read from the library once, not through the properties)
    lib = library()
    her_sheet = lib.characters[unit.sheet_key] if character else None
    if her_sheet is not None and not crashed:
        for spell in her_sheet.spells:
            if spell.timing != "standard":
                continue
            mana = unit.order_mp if spell.pool == "order" else unit.distortion_mp
            if mana < spell.cost:
                continue
            pool = friends if spell.effect.target == "ally" else foes
            if spell.effect.target == "self":
                pool = [unit]
            for t in pool:
                if band[t.id] <= spell.effect.range:
                    out.append(
                        _action(
                            "spell",
                            t.id,
                            name=spell.name,
                            label=f"cast {spell.name} on {t.name} ({spell.cost} {spell.pool} MP)",
                        )
                    )
    if ctx.hooks is not None:  # the add-ons' combat actions (added_actions.py)
        for added, t in offered(scene, unit, ctx.hooks):
            effect = added.effect
            price = ", ".join(
                p for p in (f"−{added.initiative} initiative" if added.initiative else "",
                            f"{added.cost} {added.pool} MP" if added.cost else "") if p
            )
            out.append(
                _action(
                    ADDON,
                    t.id,
                    name=added.key,
                    label=f"{added.name} on {t.name} ({effect.kind.replace('_', ' ')} {effect.amount}"
                    + (f"; {price})" if price else ")"),
                )
            )
    out.append(_FULL_DEFENSE)
    if character:  # (the any() tests as loops: a generator makes a function and its frame)
        uid = unit.id
        for a in friends:
            if a.id != uid and band[a.id] <= 1:
                out.append(_GUARD)
                break
    for other, delta in movement.move_targets(scene, unit, band):
        out.append((_move_action, other.id, other.name, delta, band[other.id] + delta))
    # 完美士气: a fearless group never retreats unless ordered to (an order this round).
    group_sheet = lib.groups[unit.group_key] if unit.group_key else None  # Combatant.group_sheet
    holds = group_sheet is not None and group_sheet.perfect_morale and unit.order_bonus == 0
    if not unit.prone and not holds and unit.engaged_by is None:
        for e in foes:
            if band[e.id] <= movement.SIGHT:
                out.append(_DISENGAGE)
                break
    if not holds and (unit.withdrawing or movement.can_withdraw(scene, unit, band)):
        out.append(_WITHDRAW)
    if unit.cover_available != "none" and unit.cover != unit.cover_available:
        out.append(
            _action("cover", label=f"take {unit.cover_available} cover (agility vs {unit.cover_difficulty})")
        )
    if unit.prone:
        out.append(_RECOVER)
    if targets and unit.initiative > 0 and character:
        out.append(_AIM)
    for gid in unit.leader_of:
        group = scene.unit(gid)
        if group.fighting:
            out.append(_action("order", gid, label=f"order {group.name} (command action)"))
            if group.rout_failed is not None:
                out.append(
                    _action(
                        "rally",
                        gid,
                        label=f"rally the breaking {group.name} (difficulty {group.rout_failed})",
                    )
                )
            sheet = group.group_sheet
            if (
                group.magnitude < group.magnitude_max
                and not group.rallied_for_numbers
                and sheet
                and not sheet.perfect_morale
            ):
                out.append(_action("rally_numbers", gid, label=f"rally {group.name} for numbers"))
    if is_group:
        for e in scene.enemies(unit, include_inert=False):
            if band[e.id] == 0 and e.engaged_by is None:
                out.append(_action("engage", e.id, label=f"engage {e.name} (包围)"))
        out.append(
            _action(
                "disperse" if not unit.dispersed else "regroup",
                label="spread out (散开): reach 1, no size bonus"
                if not unit.dispersed
                else "close ranks again",
            )
        )
    out.append((_wait_action, unit.consecutive_waits))
    # initiative-priced actions that leave the standard action
    if her_sheet is not None and not unit.readied_this_turn:
        for key in her_sheet.weapons:
            if key != unit.weapon:
                out.append((_ready_action, key))
    if character and unit.passed_through_round != scene.round:
        side = unit.side
        for g in scene.combatants.values():  # (is_group and fighting inline: hot, every menu)
            if g.kind == "group" and g.status == ACTIVE and g.side != side and band[g.id] == 0:
                for other in scene:
                    if (
                        other.fighting
                        and other.id not in (unit.id, g.id)
                        and scene.distance(g.id, other.id) <= 1
                        and band[other.id] > 0
                    ):
                        out.append(
                            _action(
                                "pass_through",
                                other.id,
                                name=g.id,
                                label=f"pass through {g.name} toward {other.name} (−1 initiative)",
                            )
                        )
    return out


def _attack_action(scene: Scene, unit: Combatant, target: Combatant, kind: str, what: str, hooks: Any) -> Action:
    """The menu's attack of ``kind`` on ``target``, labelled ``what`` and its odds (the costly
    part of a menu, see :func:`_attack_label`), made afresh for its menu. The menu holds its key
    and makes it (``make``) only when the action is read, so only while the decision is pending:
    a random bot makes the one it chooses, whose label the log reads anyway. The action is a
    plain value, its odds those of the scene as offered; one not made by the answer is sealed
    with the menu (read later, it raises ``StaleOptionError``)."""
    return _fresh_action("attack", target.id, kind, label=_attack_label(scene, unit, target, kind, what, hooks))


def _wait_action(waits: int) -> Action:
    """The menu's wait of a unit that waited ``waits`` turns in a row."""
    return _action("wait", label=f"wait (skip the turn: +{5 * (waits + 1)} initiative next round)")


def _ready_action(weapon: str) -> Action:
    """The menu's action of readying the weapon ``weapon`` (its key in the library)."""
    return _action("ready", name=weapon, label=f"ready {library().weapons[weapon].name} (−2 initiative, keeps your action)")


#: The menu's actions that read nothing of the unit, made once.
_FULL_DEFENSE = _action("full_defense", label="full defense (+5 defense until your next turn)")
_GUARD = _action("guard", label="guard allies within 0-1 (护卫)")
_DISENGAGE = _action("disengage", label="disengage to geographic distance (−5 initiative, agility contests)")
_WITHDRAW = _action("withdraw", label="withdraw from the battlefield (−10 initiative, extended roll)")
_RECOVER = _action("recover", label="get up from prone")
_AIM = _action("aim", label="aim: delay your attack, spending initiative per tick")


def _action_label(action: Action) -> str:
    """The menu label of ``action`` (:attr:`Action.label`)."""
    return action.label


def _action_data(action: Action) -> Data:
    """The menu data of ``action`` (:attr:`Action.data`)."""
    return action.data


def active_step(
    ctx: Context, unit: Combatant, same_tick: list[str], *, quiet: bool = False
) -> Generator[Any, Any, None]:
    """The active step: choose and carry out actions until the standard action is spent.
    ``quiet``: the caller knows that nobody may answer now (the window just before closed at
    once): until an action is carried out, choosing one changes nothing anyone may answer."""
    scene: Scene = ctx.state
    # (Combatant.fighting read as the status slot, here and below: hot, every action)
    while unit.status == ACTIVE and not scene.over:
        options = _menu(ctx, unit)
        choice: Action = yield Choose(
            side=unit.side,
            prompt=f"{unit.name} (initiative {unit.initiative}, "
            + (
                f"magnitude {unit.magnitude}/{unit.magnitude_max}"
                if unit.is_group
                else f"HP {unit.hp}/{unit.hp_max}, MP {unit.order_mp} order/{unit.distortion_mp} distortion"
            )
            + "): choose an action",
            # a lazy menu (hot: a random bot reads one option of ~15): each action (from its
            # key, see _menu), its option, label and data are made when first read
            options=LazyOptions(options, _action_label, _action_data, make=_made_action),
            rule=RULE_ACTIONS,
            kind=kinds.ACTION,
            context={
                "unit": unit.id,
                "initiative": unit.initiative,
                "hp": unit.hp,
                "magnitude": unit.magnitude,
                "order_mp": unit.order_mp,
                "distortion_mp": unit.distortion_mp,
            },
        )
        if choice.standard:
            yield from open_windows(ctx, ("standard action declared",), active=unit.id, quiet=quiet)
            if unit.status != ACTIVE or scene.over:
                return
            if choice.kind != "aim":
                # 先导逆转: the restriction binds only the refreshed action, which this spends
                # (cleared before the action: the action may itself bring a new reversal).
                unit.reversal_target = None
        yield from perform(ctx, unit, choice, same_tick)
        if choice.standard:
            return
        quiet = False  # the action carried out may have changed what anyone may answer


def perform(ctx: Context, unit: Combatant, action: Action, same_tick: list[str]) -> Generator[Any, Any, None]:
    """Carry out one action."""
    scene: Scene = ctx.state
    kind = action.kind
    target = scene.unit(action.target) if action.target else None
    if kind == "attack":
        if unit.crashed and action.kind_of_attack == DECISIVE:
            raise IllegalChoiceError(
                RULE_CRASH, f"{unit.name} is in initiative crash and cannot make a decisive attack"
            )
        yield from attack(ctx, unit, target, action.kind_of_attack or WITHERING, same_tick)
        unit.aiming = False
        unit.aim_bonus = 0
    elif kind == "spell":
        spell = next(s for s in unit.sheet.spells if s.name == action.name)
        item = make_response(ctx, unit, spell.name, spell.effect, spell.pool, spell.cost, target)
        # 施法: the spell goes on the stack (so instants may answer it) and its casting window
        # resolves down to it: the floor is the depth before the push, not after.
        floor = len(ctx.interrupts.items)
        ctx.interrupts.push(item)
        yield from open_window(ctx, f"casting {spell.name}", active=unit.id, floor=floor)
    elif kind == ADDON:
        assert action.name is not None and target is not None
        yield from perform_added(ctx, unit, action.name, target.id)
    elif kind == "full_defense":
        unit.full_defense = True
        ctx.event("full-defense", f"{unit.name} takes full defense (+5 until her next turn)", unit=unit.id)
    elif kind == "guard":
        unit.guarding = True
        ctx.event("guard", f"{unit.name} guards her allies within close range (护卫)", unit=unit.id)
    elif kind == "move":
        assert target is not None
        yield from movement.move(ctx, unit, target, action.delta)
    elif kind == "disengage":
        yield from movement.disengage(ctx, unit)
    elif kind == "withdraw":
        yield from movement.withdraw(ctx, unit)
    elif kind == "cover":
        yield from movement.take_cover(ctx, unit)
    elif kind == "recover":
        yield from movement.recover(ctx, unit)
    elif kind == "wait":
        if unit.aiming:
            unit.aiming = False
            unit.aim_bonus = 0
            ctx.event("aim", f"{unit.name} gives up her aimed attack", unit=unit.id)
        else:
            unit.consecutive_waits += 1
            unit.waited_this_round = True
            ctx.event("wait", f"{unit.name} waits ({unit.consecutive_waits} in a row)", unit=unit.id)
    elif kind == "aim":
        ticks = yield ChooseNumber(
            side=unit.side,
            prompt=f"{unit.name} aims: delay the attack by how many ticks (1 initiative each, +1 to hit per 2)?",
            rule=RULE_AIM,
            low=1,
            high=max(1, unit.initiative),
            kind=kinds.AIM,
            context={"unit": unit.id, "initiative": unit.initiative},
        )
        yield from spend_initiative(ctx, unit, ticks, why=f"aiming for {ticks} ticks (瞄准)")
        unit.aim_bonus = ticks // 2
        unit.aiming = True
        if unit.fighting and unit.id in scene.track.values:
            scene.track.refresh(unit.id)
        ctx.event(
            "aim",
            f"{unit.name} aims: her attack comes at tick {unit.initiative} with +{unit.aim_bonus}",
            unit=unit.id,
        )
    elif kind == "ready":
        assert action.name is not None
        unit.weapon = action.name
        unit.readied_this_turn = True
        ctx.event("ready", f"{unit.name} readies {unit.ready_weapon.name}", unit=unit.id)  # type: ignore[union-attr]
        yield from spend_initiative(ctx, unit, READY_COST, why="draw/ready weapon")
    elif kind == "pass_through":
        assert target is not None and action.name is not None
        unit.passed_through_round = scene.round
        ctx.event("pass-through", f"{unit.name} passes through {scene.unit(action.name).name}", unit=unit.id)
        yield from spend_initiative(
            ctx, unit, movement.PASS_THROUGH_COST, why="passing through a battle group"
        )
        scene.set_distance(unit.id, target.id, scene.distance(unit.id, target.id) - 1)
        movement.follow_up(ctx, unit, target, -1)
    elif kind in ("order", "rally", "rally_numbers"):
        assert target is not None
        yield from command(ctx, unit, target, kind)
    elif kind == "engage":
        assert target is not None
        target.engaged_by = unit.id
        ctx.event(
            "engage", f"{unit.name} engages {target.name} (包围): she cannot move away from it", unit=unit.id
        )
        yield from spend_initiative(ctx, unit, ENGAGE_COST, why="engage")
    elif kind in ("disperse", "regroup"):
        unit.dispersed = kind == "disperse"
        ctx.event(
            "disperse", f"{unit.name} " + ("spreads out" if unit.dispersed else "closes ranks"), unit=unit.id
        )


def command(ctx: Context, leader: Combatant, group: Combatant, kind: str) -> Generator[Any, Any, None]:
    """Command actions (指挥动作): order, rally, rally for numbers — (attribute + war) pools."""
    scene: Scene = ctx.state
    sheet = group.group_sheet
    assert sheet is not None
    rear = all(scene.distance(leader.id, e.id) > 2 for e in scene.enemies(leader))
    attrs = ("intelligence",) if kind == "order" and rear else ("charisma", "appearance")
    best = max(pool_rating(leader.attribute(a)) for a in attrs)
    pool = best + leader.sheet.skill("war") + drill_command_modifier(sheet.drill, kind)
    losing = scene.tactic_winner is not None and group.side != scene.tactic_winner
    if kind == "order" and scene.tactic == "demoralized" and losing:
        pool -= 1
    if kind == "order":
        check = yield from character_pool_check(
            ctx, leader, pool, 1, f"order (命令): {leader.name} to {group.name}", what="order pool"
        )
        if check.passed:
            group.pending_order = check.successes
        ctx.event(
            "order",
            f"{leader.name} orders {group.name}: {check.successes} successes"
            + (f" (+{check.successes} to its rolls next round)" if check.passed else ": unheeded"),
            unit=leader.id,
        )
    elif kind == "rally":
        difficulty = (group.rout_failed or 1) + (1 if scene.tactic == "back_to_the_sea" and losing else 0)
        check = yield from character_pool_check(
            ctx, leader, pool, difficulty, f"rally (集结): {leader.name} and {group.name}", what="rally pool"
        )
        ctx.event(
            "rally", f"{leader.name} rallies {group.name}: {check.successes} vs {difficulty}", unit=leader.id
        )
        if check.passed:
            lose_size(ctx, group)
    else:
        check = yield from character_pool_check(
            ctx, leader, pool, 1, f"rally for numbers (整队): {group.name}", what="rally for numbers pool"
        )
        per = 3 if scene.tactic == "back_to_the_sea" and losing else 2
        gain = rally_for_numbers_gain(check.successes, per) if check.passed else 0
        group.magnitude = min(group.magnitude_max, group.magnitude + gain)
        group.rallied_for_numbers = True
        ctx.event(
            "rally-numbers",
            f"{leader.name} rallies {group.name} for numbers: +{gain} magnitude",
            unit=leader.id,
        )
