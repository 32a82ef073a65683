"""Firing in play: who may fire at whom, declaring shots, special rounds, applying results
(标准规则修改部分 4, 5, 6, 9; 作战阶段; 特殊规则 3-8, 11, 12).

The dice work is :func:`~wargamekit_tank_solo.fire.resolve_shot`; this module builds the
:class:`~wargamekit_tank_solo.fire.Shot`, asks the decisions around it and applies the result.
"""

from __future__ import annotations

from collections.abc import Generator
from functools import lru_cache, partial
from typing import Any

from attrs import frozen

from wargamekit import Choose, Decision, Option, Outcome, YesNo, ask
from wargamekit.geometry import Hex, HexsideFacing, in_fire_arc

from . import kinds
from .fire import FIRE_NAMES, Shot, ShotResult, fire_type_modifier, resolve_shot, shot_odds, with_addons
from .maps import facing_name, hex_label
from .special_rounds import round_kinds
from .state import Context, GameState, Tank, other_side
from .vehicles import kill_points

__all__ = [
    "FireAt",
    "ask",
    "could_fire",
    "turns_to_bear",
    "GameEnd",
    "RotateTurret",
    "can_fire_now",
    "fire_menu",
    "fire_menu_decision",
    "fire_with",
    "hit_modifier",
    "rotation_options",
    "shot_for",
    "valid_targets",
]


class GameEnd(Exception):
    """Raised deep inside a procedure when the game is decided (a side eliminated).

    An exception rather than ``TurnResult(end=True)``: elimination is found at the bottom of a
    shot's resolution, which may be a defensive-fire response resolving on the interrupt stack
    inside a tank's move inside the movement phase. The rule ends the game at once (胜利条件),
    wherever that is; returning an end flag would make every fire and move procedure check and
    pass it up. :meth:`TankSolo.play <wargamekit_tank_solo.TankSolo.play>` catches it.
    """

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.reason)
        self.outcome = outcome


@frozen
class FireAt:
    """Option value: fire gun ``gun`` of the acting tank at tank ``target``."""

    gun: int
    target: int


@frozen
class RotateTurret:
    """Option value: turn the acting tank's turret one hexside (``+1`` left, ``-1`` right)."""

    turn: int


def turns_to_bear(state: GameState, tank: Tank, gun: int, at: Hex, target: Hex, facing: int | None = None,
                  *, rotations: int | None = None) -> int | None:
    """Fewest turret rotations that bring ``target`` into the gun's arc from ``at``, or ``None``
    if the rotations allowed are not enough (a hull gun cannot turn).

    ``rotations`` is how many turns the turret may make (default: those left this turn; a bot
    looking at the next turn passes the vehicle's full allowance).
    """
    g = tank.spec.guns[gun]
    base = tank.gun_facing(g) if facing is None else facing
    budget = tank.rotations_left() if rotations is None else rotations
    allowed = budget if g.mount == "turret" and not tank.weapon_destroyed else 0
    return _fewest_turns(at, target, base, allowed, state.scenario.fire_arc_width)


@lru_cache(maxsize=1 << 16)
def _fewest_turns(at: Hex, target: Hex, base: int, allowed: int, arc_width: int) -> int | None:
    # Cached (a hot path): a pure function of its arguments, and the bots weigh the same
    # firer-target pairs again and again while scoring every step of every move.
    for k in range(allowed + 1):
        for sign in (1, -1):
            if in_fire_arc(at, HexsideFacing(base + sign * k), target, arc_width):
                return k
    return None


def could_fire(state: GameState, tank: Tank, fire: str) -> bool:
    """Whether ``tank`` has a target in range and sight that its rotations left can bring into
    its arc (used to offer aimed and advance fire only to tanks that could shoot)."""
    from .sight import can_see

    if not can_fire_now(state, tank) or tank.hex is None:
        return False
    for gun in _guns(tank):
        for target in state.living(other_side(tank.side)):
            assert target.hex is not None
            if tank.hex.distance(target.hex) > tank.spec.guns[gun].range:
                continue
            if turns_to_bear(state, tank, gun, tank.hex, target.hex) is None:
                continue
            scouting = fire == "leap" and tank.vehicle_class == "light" and target.vehicle_class != "light"
            if can_see(state.scenario.map, state.wrecks, tank.hex, target.hex, scouting=scouting):
                return True
    return False


def why_not_fire(state: GameState, tank: Tank, target: Tank, fire: str) -> str | None:
    """Why ``tank`` cannot fire at ``target`` from where it stands now (``None``: it can, with
    a gun, after turret rotations it has left): the reason of the first gun's first failing
    check, in the order range, arc, line of sight (4 i-ii; 6. 炮塔转动)."""
    from .sight import can_see

    if not can_fire_now(state, tank):
        return "its weapon is destroyed" if tank.weapon_destroyed else "it is short of ammunition"
    assert tank.hex is not None and target.hex is not None
    distance = tank.hex.distance(target.hex)
    reasons = []
    for gun in _guns(tank):
        g = tank.spec.guns[gun]
        if distance > g.range:
            reasons.append(f"range {distance} is beyond its {g.name}'s {g.range}")
        elif turns_to_bear(state, tank, gun, tank.hex, target.hex) is None:
            reasons.append(f"its {g.name} cannot be turned to bear ({tank.rotations_left()} turret rotation(s) left)")
        else:
            scouting = fire == "leap" and tank.vehicle_class == "light" and target.vehicle_class != "light"
            if not can_see(state.scenario.map, state.wrecks, tank.hex, target.hex, scouting=scouting):
                reasons.append("forest, mountain or a wreck blocks the line of sight")
            else:
                return None
    return "; ".join(dict.fromkeys(reasons)) or "it has no gun it may use this turn"


def can_fire_now(state: GameState, tank: Tank) -> bool:
    """Whether ``tank`` can fire at all this turn (alive, weapon intact, no ammunition
    shortage)."""
    return tank.alive and not tank.weapon_destroyed and not tank.ammo_short(state.turn)


def hit_modifier(state: GameState, firer: Tank, target: Tank, fire: str, *, target_lit: int | None = None) -> int:
    """Every modifier to the hit roll: fire form and nation, veteran gunner, the target's
    forced-spotting marker (被命中点修正: adds up without bound)."""
    mod = fire_type_modifier(fire, firer.spec.nation)
    if state.options.get("veteran_gunner_per_fire_type"):
        mod += firer.veteran_by_fire.get(fire, 0)
    elif state.options.get("veteran_gunner"):
        mod += firer.veteran
    mod += target.lit if target_lit is None else target_lit
    return mod


def shot_for(
    state: GameState, firer: Tank, gun: int, target: Tank, fire: str, *,
    target_hex: Hex | None = None, special: str | None = None, target_lit: int | None = None,
    hooks: Any = None,
) -> Shot:
    """The :class:`Shot` of ``firer``'s gun ``gun`` at ``target`` (standing in ``target_hex``),
    with what the add-ons in ``hooks`` (``ctx.hooks``, ``view.hooks``) add (:func:`with_addons`)."""
    where = target.hex if target_hex is None else target_hex
    assert firer.hex is not None and where is not None
    g = firer.spec.guns[gun]
    shot = Shot(
        range=firer.hex.distance(where),
        hit_modifier=hit_modifier(state, firer, target, fire, target_lit=target_lit),
        attack=g.attack,
        armour=target.spec.armour,
        firer_class=firer.vehicle_class,
        special=special,
        ammo_rule=bool(state.options.get("ammunition_shortage")),
    )
    return with_addons(shot, fire, hooks, state=state, firer=firer, target=target)


def _guns(tank: Tank) -> list[int]:
    """Guns the tank may still use this turn (7. 多炮塔战车: one gun per turn)."""
    if tank.gun_this_turn is not None:
        return [tank.gun_this_turn]
    return list(range(len(tank.spec.guns)))


def target_in_reach(
    state: GameState, firer: Tank, gun: int, target: Tank, fire: str, *, target_hex: Hex | None = None
) -> bool:
    """Range, fire arc of the gun and line of sight (4 i-ii; 2; 6 侦察优势 for leap fire)."""
    from .sight import can_see

    where = target.hex if target_hex is None else target_hex
    assert firer.hex is not None and where is not None
    g = firer.spec.guns[gun]
    if firer.hex.distance(where) > g.range:
        return False
    facing = HexsideFacing(firer.gun_facing(g))
    if not in_fire_arc(firer.hex, facing, where, state.scenario.fire_arc_width):
        return False
    scouting = fire == "leap" and firer.vehicle_class == "light" and target.vehicle_class != "light"
    return can_see(state.scenario.map, state.wrecks, firer.hex, where, scouting=scouting)


def valid_targets(state: GameState, firer: Tank, fire: str, only: int | None = None) -> list[FireAt]:
    """Every (gun, target) the firer may shoot now, in gun then target order."""
    if not can_fire_now(state, firer) or firer.hex is None:
        return []
    out = []
    for gun in _guns(firer):
        for target in state.living(other_side(firer.side)):
            if only is not None and target.id != only:
                continue
            if target_in_reach(state, firer, gun, target, fire):
                out.append(FireAt(gun, target.id))
    return out


def rotation_options(tank: Tank) -> list[Option]:
    """Turret rotation options (6. 炮塔转动), if the tank has a turret and rotations left."""
    if tank.spec.turretless or tank.rotations_left() <= 0 or tank.weapon_destroyed:
        return []
    left = tank.rotations_left() - 1
    return [
        Option(RotateTurret(turn), f"rotate {tank.name}'s turret {word} to {facing_name(tank.turret + turn)} "
               f"({left} rotation{'s' if left != 1 else ''} left)", data=kinds.rotate_data(turn))
        for turn, word in ((1, "left"), (-1, "right"))
    ]


def rotate(ctx: Context, tank: Tank, turn: int) -> None:
    """Turn the turret one hexside and count the rotation."""
    tank.turret = (tank.turret + turn) % 6
    tank.rotations_used += 1
    ctx.event("turret", f"{tank.name} turns its turret to {facing_name(tank.turret)}",
               tank=tank.id, turret=tank.turret)


def _percent(p: Any) -> str:
    return f"{float(p) * 100:.0f}%"


def _percent_value(p: Any) -> float:
    """A probability rounded to the whole percent, as :func:`_percent` shows it."""
    return float(f"{float(p) * 100:.0f}") / 100


def fire_label(state: GameState, firer: Tank, option: FireAt, fire: str, *, target_hex: Hex | None = None,
               hooks: Any = None) -> str:
    """``"fire main gun at Tiger I #7 in 0305 (range 4, hit 72%, kill 31%)"`` (the odds with
    the add-ons in ``hooks``), for the tanks as they stand now."""
    target = state.tank(option.target)
    where = target.hex if target_hex is None else target_hex
    assert where is not None
    shot = shot_for(state, firer, option.gun, target, fire, target_hex=target_hex, hooks=hooks)
    return _fire_text(firer, option.gun, target, where, shot)


def _fire_text(firer: Tank, gun: int, target: Tank, where: Hex, shot: Shot) -> str:
    """:func:`fire_label`'s text from the shot's inputs (``shot``, bound when it was offered):
    works out the exact odds (a tank's name and guns never change)."""
    odds = shot_odds(shot)
    return (f"{firer.name} fires {firer.spec.guns[gun].name} at {target.name} in {hex_label(where)} "
            f"(range {shot.range}, hit {_percent(odds.hit)}, kill {_percent(odds.kill)})")


def fire_menu_decision(state: GameState, tank: Tank, fire: str, *, only: int | None = None, rule: str,
                       hooks: Any = None) -> Choose:
    """The fire menu of ``tank`` (kind ``tank_solo.fire_target``): each shot it may fire now with
    ``fire`` (at tank ``only``, if given), each turret rotation left, and holding fire."""
    shots = valid_targets(state, tank, fire, only)
    # Each shot's odds inputs, found once for the menu (where the target stands, its markers,
    # what the add-ons add): its lazy label is made from them only while the decision is pending
    # (the answer seals the rest); the odds themselves are worked out only for a label that is read.
    offered: dict[FireAt, tuple[Tank, Hex, Shot]] = {}
    for option in shots:
        target = state.tank(option.target)
        assert target.hex is not None
        offered[option] = (target, target.hex, shot_for(state, tank, option.gun, target, fire, hooks=hooks))
    values: list[Any] = list(shots)
    values += rotation_options(tank)
    values.append(Option(None, f"{tank.name} holds fire", data={"action": "hold"}))
    # A lazy menu with lazy labels (hot: each shot's label works out its exact odds): a random
    # bot makes only the chosen label (the log's), a heuristic bot the shots' data.
    return Choose.of(tank.side, f"{FIRE_NAMES[fire]} with {tank.name} ({tank.where()})", values,
                     label=partial(_shot_label, tank, offered), data=_shot_data,
                     lazy=True, lazy_labels=True, rule=rule, kind=kinds.FIRE_TARGET,
                     context={"tank": tank.id, "fire": fire, "turn": state.turn})


def _shot_label(firer: Tank, offered: dict[FireAt, tuple[Tank, Hex, Shot]], option: FireAt) -> str:
    target, where, shot = offered[option]
    return _fire_text(firer, option.gun, target, where, shot)


def _shot_data(option: FireAt) -> dict[str, Any]:
    return kinds.fire_data(option.gun, option.target)


def fire_menu(ctx: Context, tank: Tank, fire: str, *, only: int | None = None, rule: str) -> Generator[Decision, Any, bool]:
    """Let ``tank`` turn its turret and fire once with ``fire``; True if it fired.

    After firing, rotations left may still be used (6 v).
    """
    state = ctx.state
    while True:
        pick = yield from ask(fire_menu_decision(state, tank, fire, only=only, rule=rule, hooks=ctx.hooks))
        if pick is None:
            return False
        if isinstance(pick, RotateTurret):
            rotate(ctx, tank, pick.turn)
            continue
        yield from fire_with(ctx, tank, pick.gun, state.tank(pick.target), fire, rule=rule)
        while tank.alive and rotation_options(tank):
            after = yield Choose(side=tank.side, prompt=f"{tank.name} has fired: turn its turret?",
                                 options=(*rotation_options(tank),
                                          Option(None, "leave the turret as it is", data={"action": "leave"})),
                                 rule="6 v 炮塔转动", kind=kinds.TURRET_AFTER_FIRE,
                                 context={"tank": tank.id, "fire": fire, "turn": state.turn})
            if after is None:
                break
            rotate(ctx, tank, after.turn)
        return True


def fire_with(
    ctx: Context, firer: Tank, gun: int, target: Tank, fire: str, *,
    target_hex: Hex | None = None, target_lit: int | None = None, wreck_hex: Hex | None = None,
    rule: str = "",
) -> Generator[Decision, Any, None]:
    """Fire ``firer``'s gun at ``target``; a light tank firing at a medium or heavy tank that
    survives may fire a second round (特殊规则 5. 射速优势) unless the first ran its
    ammunition short."""
    state = ctx.state
    if firer.spec.multi_gun and firer.gun_this_turn is None:
        firer.gun_this_turn = gun
        ctx.event("gun", f"{firer.name} declares its {firer.spec.guns[gun].name} for this turn",
                   tank=firer.id, gun=gun)
    result = yield from _one_shot(ctx, firer, gun, target, fire, target_hex, target_lit, wreck_hex, rule)
    if (
        target.alive
        and firer.alive
        and firer.vehicle_class == "light"
        and target.vehicle_class != "light"
        and not result.ammo_shortage
        and can_fire_now(state, firer)
    ):
        again = yield YesNo(side=firer.side, prompt=f"{firer.name}: fire a second round at {target.name} "
                            "(rate-of-fire advantage, 射速优势)?", rule="特殊规则 5 射速优势",
                            kind=kinds.SECOND_ROUND, context=_shot_context(state, firer, gun, target, fire, target_hex))
        if again:
            yield from _one_shot(ctx, firer, gun, target, fire, target_hex, target_lit, wreck_hex, rule)


def _shot_context(state: GameState, firer: Tank, gun: int, target: Tank, fire: str,
                  target_hex: Hex | None) -> dict[str, Any]:
    """What a decision about a declared shot says for programs: who fires which gun at whom,
    with which form of fire, at the target standing in which hex."""
    where = target.hex if target_hex is None else target_hex
    return {"tank": firer.id, "gun": gun, "target": target.id, "fire": fire,
            "hex": None if where is None else hex_label(where), "turn": state.turn}


def _round_data(special: str | None, hit: Any, kill: Any) -> dict[str, Any]:
    # The odds as the label shows them, to the whole percent: what a player choosing from the
    # menu compares (and what the bots have always compared).
    return {"round": special or "standard", "hit": _percent_value(hit), "kill": _percent_value(kill)}


def _one_shot(
    ctx: Context, firer: Tank, gun: int, target: Tank, fire: str,
    target_hex: Hex | None, target_lit: int | None, wreck_hex: Hex | None, rule: str,
) -> Generator[Decision, Any, ShotResult]:
    state = ctx.state
    special = None
    if firer.specials:
        loaded = sorted(set(firer.specials), key=firer.specials.index)
        rounds = round_kinds(ctx.hooks)
        plain = shot_odds(shot_for(state, firer, gun, target, fire, target_hex=target_hex, target_lit=target_lit,
                                   hooks=ctx.hooks))
        options = [Option(None, f"standard round (hit {_percent(plain.hit)}, kill {_percent(plain.kill)})",
                          data=_round_data(None, plain.hit, plain.kill))]
        for kind in loaded:
            odds = shot_odds(shot_for(state, firer, gun, target, fire, target_hex=target_hex,
                                      special=kind, target_lit=target_lit, hooks=ctx.hooks))
            options.append(Option(kind, f"{rounds[kind].name} (hit {_percent(odds.hit)}, kill {_percent(odds.kill)})",
                                  data=_round_data(kind, odds.hit, odds.kill)))
        special = yield Choose(side=firer.side, prompt=f"{firer.name}: which round?", options=tuple(options),
                               rule="特殊规则 4 特种弹药", kind=kinds.SPECIAL_ROUND,
                               context=_shot_context(state, firer, gun, target, fire, target_hex))
        if special is not None:
            firer.specials.remove(special)
            ctx.event("special", f"{firer.name} reveals and fires its {rounds[special].name}",
                       tank=firer.id, special=special)
    shot = shot_for(state, firer, gun, target, fire, target_hex=target_hex, special=special, target_lit=target_lit,
                    hooks=ctx.hooks)
    result = resolve_shot(ctx.dice, shot)
    where = target.hex if target_hex is None else target_hex
    assert where is not None
    ctx.event(
        "fire",
        f"{firer.name} ({FIRE_NAMES[fire]}) fires at {target.name} in {hex_label(where)}: "
        + shot_text(shot, result),
        firer=firer.id, target=target.id, fire=fire, range=shot.range, hit_total=result.hit_total,
        damage_total=result.damage_total, effect=result.effect, special=special,
    )
    apply_shot(ctx, firer, target, fire, result, special, wreck_hex if wreck_hex is not None else where)
    return result


def shot_text(shot: Shot, result: ShotResult) -> str:
    """The log's account of a shot: the hit roll against the range it needed, a special round's
    change to a die, and the damage total against the armour.

    >>> from .fire import ShotResult
    >>> shot_text(Shot(range=5, hit_modifier=-1, attack=8, armour=12, special="fin"),
    ...           ShotResult(True, "killed", (2, 3), 8, 13, False))
    'hit roll 2+3, fin-stabilised round counts the 2 as 6: 9 -1 = 8, needed 5 (the range) -> hit; damage 13 vs armour 12 -> killed'
    """
    low, high = sorted(result.hit_dice)
    if shot.special == "fin":
        dice = f"hit roll {low}+{high}, fin-stabilised round counts the {low} as 6: {high + 6}"
    else:
        dice = f"hit roll {low}+{high} = {low + high}"
    text = f"{dice} {shot.hit_modifier:+d} = {result.hit_total}, needed {shot.range} (the range)"
    if not result.hit:
        return f"{text} -> miss"
    if result.damage_total is None:  # HESH: its own table instead of the damage check
        return f"{text} -> hit; HESH round (碎甲弹) table -> {result.effect}"
    overloaded = "; overloaded charge multiplies the damage dice" if shot.special == "overloaded" else ""
    return (f"{text} -> hit{overloaded}; damage {result.damage_total} vs armour {shot.armour} -> "
            f"{result.effect}")


def apply_shot(
    ctx: Context, firer: Tank, target: Tank, fire: str, result: ShotResult, special: str | None, wreck_hex: Hex,
) -> None:
    """Apply a shot's result: wreck and score, HESH damage, veteran gunner, ammunition."""
    state = ctx.state
    if result.ammo_shortage:
        firer.ammo_short_from = state.turn
        firer.ammo_short_until = state.turn + 2
        ctx.event("ammo", f"{firer.name} is short of ammunition (弹药不足): no fire in the next two turns",
                   tank=firer.id)
    if result.effect == "immobilised":
        target.immobilised = True
        ctx.event("hesh", f"{target.name} is immobilised for the rest of the game", tank=target.id)
    elif result.effect == "weapon destroyed":
        target.weapon_destroyed = True
        ctx.event("hesh", f"{target.name}'s weapon is destroyed", tank=target.id)
    elif result.killed:
        destroy(ctx, target, wreck_hex)
        firer.kills += 1
        state.score[firer.side] += kill_points(target.vehicle_class)
        if special is None:
            firer.veteran += 1
            firer.veteran_by_fire[fire] = firer.veteran_by_fire.get(fire, 0) + 1
        check_elimination(state)


def destroy(ctx: Context, target: Tank, wreck_hex: Hex) -> None:
    """Turn ``target`` into a wreck in ``wreck_hex`` (5. 残骸位置)."""
    state = ctx.state
    target.alive = False
    if wreck_hex in state.wrecks:
        state.wrecks.remove(wreck_hex)  # the wreck it was clearing is replaced by its own (5 iii)
    target.hex = wreck_hex
    state.wrecks.append(wreck_hex)
    ctx.event("destroyed", f"{target.name} is destroyed; its wreck lies in {hex_label(wreck_hex)}",
               tank=target.id, hex=hex_label(wreck_hex))


def check_elimination(state: GameState) -> None:
    """A side with no tanks left loses at once (胜利条件)."""
    from .victory import elimination

    outcome = elimination(state)
    if outcome is not None:
        raise GameEnd(outcome)
