"""What the two bots share: exact shot values, reading a decision, and the answers both give.

Both :class:`~wargamekit_tank_solo.bots.HeuristicBot` and
:class:`~wargamekit_tank_solo.cautious_bot.CautiousBot` value a shot by
:func:`~wargamekit_tank_solo.fire.shot_odds`: the exact odds of the pure resolution
:func:`~wargamekit_tank_solo.fire.resolve_shot`, computed by :mod:`wargamekit.odds`. They
answer the opening (force, zone, deployment, facing, loadout), free points, special rounds, the
light tank's second round, the order of movers and leap targets the same way; they differ in
when they fire and how they move.
"""

from __future__ import annotations

from typing import Any

from wargamekit import Choose, ChooseNumber, ChooseSubset, Response, SeededBot, YesNo
from wargamekit.decisions import Decision
from wargamekit.geometry import Hex, HexsideFacing, in_fire_arc, wedges_of

from .combat import FireAt, RotateTurret, can_fire_now, shot_for, turns_to_bear
from .fire import shot_odds
from .movement import Step
from .sight import can_see
from .state import GameState, Tank, other_side
from .vehicles import all_vehicles, kill_points

__all__ = [
    "OddsBot",
    "actor",
    "best_shot",
    "common_answer",
    "decision_kind",
    "defensive_pick",
    "fire_of",
    "hold_index",
    "kill_chance",
    "kill_value",
    "nearest_enemy",
    "turn_toward",
]


def kill_chance(state: GameState, firer: Tank, gun: int, target: Tank, fire: str, *, at: Hex | None = None,
                facing: int | None = None) -> float:
    """Exact kill probability of one shot, or 0 if it cannot be fired (range, arc with the
    rotations left, sight). ``at``/``facing`` put the firer somewhere else (a look-ahead)."""
    origin = firer.hex if at is None else at
    assert origin is not None and target.hex is not None
    if origin == target.hex:
        return 0.0
    g = firer.spec.guns[gun]
    if origin.distance(target.hex) > g.range:
        return 0.0
    if turns_to_bear(state, firer, gun, origin, target.hex, facing) is None:
        return 0.0
    scouting = fire == "leap" and firer.vehicle_class == "light" and target.vehicle_class != "light"
    if not can_see(state.scenario.map, state.wrecks, origin, target.hex, scouting=scouting):
        return 0.0
    saved = firer.hex
    firer.hex = origin
    try:
        odds = shot_odds(shot_for(state, firer, gun, target, fire))
    finally:
        firer.hex = saved
    return float(odds.kill)


def kill_value(state: GameState, firer: Tank, gun: int, target: Tank, fire: str, *, at: Hex | None = None,
               facing: int | None = None) -> float:
    """Expected victory points of one shot: :func:`kill_chance` times the target's points."""
    return kill_chance(state, firer, gun, target, fire, at=at, facing=facing) * kill_points(target.vehicle_class)


def best_shot(state: GameState, tank: Tank, fire: str, *, measure: Any = kill_value) -> float:
    """The best ``measure`` (:func:`kill_value` or :func:`kill_chance`) of any shot ``tank``
    could fire now with ``fire``, its turret turns left included; 0 if it cannot fire."""
    if not can_fire_now(state, tank):
        return 0.0
    guns = [tank.gun_this_turn] if tank.gun_this_turn is not None else range(len(tank.spec.guns))
    return max((measure(state, tank, g, e, fire) for g in guns for e in state.living(other_side(tank.side))),
               default=0.0)


def decision_kind(decision: Decision) -> str:
    """Which question ``decision`` asks, read from its type, option values and rule citation.

    One of ``second_round``, ``free_points``, ``subset``, ``move``, ``fire_menu``, ``pick_tank``,
    ``zone``, ``deploy``, ``facing``, ``load``, ``fire_selection``, ``defensive``,
    ``next_mover``, ``advance_pick``, ``round``, ``leap_target`` or ``other``.
    """
    if isinstance(decision, YesNo):
        return "second_round"  # the only yes/no: the light tank's second round (特殊规则 5)
    if isinstance(decision, ChooseNumber):
        return "free_points"
    if isinstance(decision, ChooseSubset):
        return "subset"
    assert isinstance(decision, Choose)
    values = [o.value for o in decision.options]
    rule = decision.rule
    if any(isinstance(v, Step) for v in values):
        return "move"
    if any(isinstance(v, (FireAt, RotateTurret)) for v in values) or "holds fire" in decision.options[-1].label:
        return "fire_menu"
    for prefix, kind in (
        ("开场阶段 1", "pick_tank"),
        ("开场阶段 2", "zone"),
        ("开场阶段 3 行军", "deploy"),
        ("标准规则修改部分 3 (车体朝向)", "facing"),
        ("开场阶段 3;", "load"),
        ("作战阶段 1 ", "fire_selection"),
        ("作战阶段 2-2", "defensive"),
        ("作战阶段 2-1", "next_mover"),
        ("作战阶段 3 ", "advance_pick"),
        ("特殊规则 4", "round"),
        ("作战阶段 1-2", "leap_target"),
    ):
        if rule.startswith(prefix):
            return kind
    return "other"


class OddsBot(SeededBot):
    """The frame both bots share: it reads each decision (:func:`decision_kind`), answers the
    common ones (:func:`common_answer`) and leaves to the subclass the five where the bots differ:
    fire selection, the fire menu, the advance-fire pick and each movement step.
    Each of those gets ``(state, decision, option values)`` and returns an option index.
    Defensive fire is shared too, with the bot's own :attr:`defensive_threshold`.
    """

    #: Fire defensively (and be locked for a turn, 2-2) only with at least this kill chance.
    defensive_threshold: float = 0.2

    def choose(self, decision: Decision, view: Any) -> Any:
        state: GameState = view.state
        kind = decision_kind(decision)
        own = {
            "move": self._move,
            "fire_menu": self._fire_menu,
            "fire_selection": self._fire_selection,
            "defensive": self._defensive,
            "advance_pick": self._advance_pick,
        }.get(kind)
        if own is None:
            return common_answer(kind, state, decision, self.rng)
        assert isinstance(decision, Choose)
        return own(state, decision, [o.value for o in decision.options])

    def _move(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        raise NotImplementedError

    def _fire_menu(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        raise NotImplementedError

    def _fire_selection(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        raise NotImplementedError

    def _defensive(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        return defensive_pick(state, values, self.defensive_threshold)

    def _advance_pick(self, state: GameState, decision: Choose, values: list[Any]) -> int:
        raise NotImplementedError


def common_answer(kind: str, state: GameState, decision: Decision, rng: Any) -> Any:
    """The answer both bots give to a decision of ``kind`` (see :func:`decision_kind`) that is
    not about when to fire or where to move."""
    if kind == "second_round":
        return True  # a second shot at a heavier tank is free
    if kind == "free_points":
        assert isinstance(decision, ChooseNumber)
        return decision.high  # as many as allowed: a tank can burn unwanted points turning in place
    if kind == "subset":
        return decision.random_answer(rng)
    assert isinstance(decision, Choose)
    values = [o.value for o in decision.options]
    if kind == "pick_tank":
        return _pick_tank(values)
    if kind == "deploy":
        return _deploy(state, decision, values)
    if kind == "load":
        return _load(state, values)
    if kind == "round":
        return _special_round(decision)
    if kind == "next_mover":
        return _next_mover(values)
    if kind == "leap_target":
        return len(values) - 1  # naming a leap target: give up (neither bot leaps)
    return 0  # zone: the first; facing: the options list the facing toward the enemy first


def actor(state: GameState, decision: Choose) -> Tank | None:
    """The tank a fire or move menu is about (its name is in the prompt)."""
    for tank in state.living(decision.side):
        if tank.name in decision.prompt:
            return tank
    return None


def hold_index(values: list[Any]) -> int:
    """The index of "hold fire" / "leave the turret" (the ``None`` option, else the last)."""
    return values.index(None) if None in values else len(values) - 1


def nearest_enemy(state: GameState, tank: Tank) -> Tank | None:
    """The closest living enemy (lowest id on a tie)."""
    assert tank.hex is not None
    enemies = [e for e in state.living(other_side(tank.side)) if e.hex is not None]
    return min(enemies, key=lambda e: (tank.hex.distance(e.hex), e.id), default=None)


def turn_toward(state: GameState, tank: Tank, target: Hex, values: list[Any]) -> int | None:
    """The index of a turret rotation in ``values`` that brings ``target`` closer to the
    turret's arc, or ``None`` if it is already in the arc or no rotation helps."""
    assert tank.hex is not None
    if in_fire_arc(tank.hex, HexsideFacing(tank.turret), target, state.scenario.fire_arc_width):
        return None
    for i, r in enumerate(values):
        if isinstance(r, RotateTurret):
            after = (tank.turret + r.turn) % 6
            if _gap(tank.hex, after, target) < _gap(tank.hex, tank.turret, target):
                return i
    return None


def defensive_pick(state: GameState, values: list[Any], threshold: float) -> int:
    """Defensive fire (2-2): the offer with the best kill chance if it reaches ``threshold``,
    else pass (option 0). The firer is locked for a turn, so a poor shot is not worth it."""
    best, best_value = 0, threshold
    for i, v in enumerate(values):
        if isinstance(v, Response) and v.payload is not None:
            defender_id, shot, where = v.payload
            defender, target = state.tank(defender_id), state.tank(shot.target)
            saved = target.hex
            target.hex = where
            try:
                value = kill_chance(state, defender, shot.gun, target, "defensive")
            finally:
                target.hex = saved
            if value > best_value:
                best, best_value = i, value
    return best


def fire_of(rule: str) -> str:
    """The form of fire a fire menu's rule citation names."""
    if "1-1" in rule:
        return "aimed"
    if "1-2" in rule:
        return "leap"
    if "2-2" in rule:
        return "defensive"
    return "advance"


# -- the opening and the shared answers --------------------------------------------------------------
def _pick_tank(values: list[Any]) -> int:
    """Force selection: the best armour + attack + range + movement for the money left."""
    table = all_vehicles()
    best, best_score = len(values) - 1, -1.0
    for i, key in enumerate(values):
        if key is None:
            continue
        v = table[key]
        g = max(v.guns, key=lambda g: g.attack)
        score = v.armour + g.attack + 0.5 * g.range + v.movement + 0.01 * v.price
        if score > best_score:
            best, best_score = i, score
    return best


def _deploy(state: GameState, decision: Choose, values: list[Any]) -> int:
    """Deployment: spread out (up to 3 hexes apart), toward the centre of the zone."""
    mine = [t.hex for t in state.tanks if t.side == decision.side and t.hex is not None]
    centre = state.map.width / 2

    def score(h: Hex) -> float:
        col, _ = state.map.hexmap.offset(h)
        spread = min((h.distance(o) for o in mine), default=4)
        return min(spread, 3) - abs(col - centre) * 0.2

    return max(range(len(values)), key=lambda i: (score(values[i]), -i))


def _load(state: GameState, values: list[Any]) -> int:
    """Special rounds: fin, then HESH, then overloaded, each for the strongest gun."""
    for kind in ("fin", "hesh", "overloaded"):
        candidates = [(i, v) for i, v in enumerate(values) if v is not None and v[0] == kind]
        if candidates:
            return max(candidates, key=lambda iv: (state.tank(iv[1][1]).spec.guns[0].attack, -iv[0]))[0]
    return len(values) - 1


def _special_round(decision: Choose) -> int:
    """Use a special round only when its exact odds (in the labels) clearly beat the standard
    round's; HESH counts its disabling results at part of a kill."""
    best, best_value = 0, -1.0
    for i, option in enumerate(decision.options):
        hit = _percent_in(option.label, "hit") or 0.0
        kill = _percent_in(option.label, "kill") or 0.0
        value = hit * (1 / 3 + 1 / 3 * 0.5 + 1 / 3 * 0.3) if option.value == "hesh" else kill
        if option.value is not None:
            value -= 0.05  # a special round is spent for good: keep it unless it helps
        if value > best_value:
            best, best_value = i, value
    return best


def _next_mover(values: list[Any]) -> int:
    """Movement order: the first tank offered (every tank moves)."""
    for i, v in enumerate(values):
        if v is not None:
            return i
    return len(values) - 1


def _gap(at: Hex, facing: int, target: Hex) -> int:
    return min(min((w - facing) % 6, (facing - w) % 6) for w in wedges_of(at, target))


def _percent_in(label: str, word: str) -> float | None:
    key = f"{word} "
    if key not in label:
        return None
    after = label.split(key, 1)[1]
    number = after.split("%", 1)[0]
    try:
        return float(number) / 100
    except ValueError:
        return None
