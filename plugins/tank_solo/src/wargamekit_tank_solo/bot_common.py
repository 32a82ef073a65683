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

from wargamekit import Choose, ChooseNumber, SeededBot
from wargamekit.decisions import Data, Decision
from wargamekit.geometry import Hex, HexsideFacing, in_fire_arc, wedges_of

from . import kinds
from .combat import can_fire_now, shot_for, turns_to_bear
from .fire import shot_odds
from .maps import label_hex
from .sight import can_see
from .state import GameState, Tank, other_side
from .vehicles import kill_points, vehicle_table

__all__ = [
    "STATELESS_KINDS",
    "OddsBot",
    "acting_tank",
    "best_shot",
    "common_answer",
    "defensive_pick",
    "fire_of",
    "hold_index",
    "index_of",
    "kill_chance",
    "kill_value",
    "nearest_enemy",
    "option_data",
    "stateless_answer",
    "turn_toward",
]


def kill_chance(state: GameState, firer: Tank, gun: int, target: Tank, fire: str, *, at: Hex | None = None,
                facing: int | None = None, hooks: Any = None) -> float:
    """Exact kill probability of one shot, or 0 if it cannot be fired (range, arc with the
    rotations left, sight). ``at``/``facing`` put the firer somewhere else (a look-ahead);
    ``hooks`` (``view.hooks``) counts the add-ons' modifiers."""
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
        odds = shot_odds(shot_for(state, firer, gun, target, fire, hooks=hooks))
    finally:
        firer.hex = saved
    return float(odds.kill)


def kill_value(state: GameState, firer: Tank, gun: int, target: Tank, fire: str, *, at: Hex | None = None,
               facing: int | None = None, hooks: Any = None) -> float:
    """Expected victory points of one shot: :func:`kill_chance` times the target's points."""
    return kill_chance(state, firer, gun, target, fire, at=at, facing=facing, hooks=hooks) * kill_points(target.vehicle_class)


def best_shot(state: GameState, tank: Tank, fire: str, *, measure: Any = kill_value, hooks: Any = None) -> float:
    """The best ``measure`` (:func:`kill_value` or :func:`kill_chance`) of any shot ``tank``
    could fire now with ``fire``, its turret turns left included; 0 if it cannot fire."""
    if not can_fire_now(state, tank):
        return 0.0
    guns = [tank.gun_this_turn] if tank.gun_this_turn is not None else range(len(tank.spec.guns))
    return max((measure(state, tank, g, e, fire, hooks=hooks) for g in guns for e in state.living(other_side(tank.side))),
               default=0.0)


class OddsBot(SeededBot):
    """The frame both bots share: it dispatches on each decision's
    :attr:`~wargamekit.Decision.kind` (:mod:`~wargamekit_tank_solo.kinds`), answers the common
    ones (:func:`common_answer`) and leaves to the subclass the four where the bots differ: fire
    selection, the fire menu (and turning the turret after firing), the advance-fire pick and
    each movement step. Each of those gets ``(state, decision, option data)`` and returns an
    option index. Defensive fire is shared too, with the bot's own :attr:`defensive_threshold`.

    It reads only the decision's kind and context, its options' data and the state in its view
    (never prompts, labels, rule citations or option values).
    """

    #: The read-only promise (:class:`wargamekit.players.Player`), made for both bots: they
    #: only read ``view.state`` and keep nothing of it, so they are handed the ruleset's
    #: shared view (the live tanks, copies of the opponent's only where rounds are face down).
    reads_view_only = True
    #: Fire defensively (and be locked for a turn, 2-2) only with at least this kill chance.
    defensive_threshold: float = 0.2
    #: The plugin hooks of the game being played (``view.hooks``), so the bot's exact odds
    #: count the add-ons' rounds and modifiers as the rules do.
    hooks: Any = None

    def choose(self, decision: Decision, view: Any) -> Any:
        self.hooks = getattr(view, "hooks", None)  # a hand-made view (tests) has no plugins
        if decision.kind in STATELESS_KINDS:  # the view's state is built on first read: not at all here
            return stateless_answer(decision, self.rng, hooks=self.hooks)
        state: GameState = view.state
        own = {
            kinds.MOVE_STEP: self._move,
            kinds.FIRE_TARGET: self._fire_menu,
            kinds.TURRET_AFTER_FIRE: self._fire_menu,
            kinds.FIRE_SELECTION: self._fire_selection,
            kinds.DEFENSIVE_FIRE: self._defensive,
            kinds.ADVANCE_PICK: self._advance_pick,
        }.get(decision.kind)
        if own is None:
            return common_answer(state, decision, self.rng, hooks=self.hooks)
        assert isinstance(decision, Choose)
        return own(state, decision, option_data(decision))

    def _move(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        raise NotImplementedError

    def _fire_menu(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        raise NotImplementedError

    def _fire_selection(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        raise NotImplementedError

    def _defensive(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        return defensive_pick(state, data, self.defensive_threshold, hooks=self.hooks)

    def _advance_pick(self, state: GameState, decision: Choose, data: list[Data]) -> int:
        raise NotImplementedError


def option_data(decision: Decision) -> list[Data]:
    """The data of each option of ``decision``, in order (empty for a number or yes/no)."""
    return [o.data for o in getattr(decision, "options", ())]


#: The kinds :func:`stateless_answer` answers from the decision alone (about a third of a bot
#: game's decisions), so the bots build no view of the state for them.
STATELESS_KINDS = frozenset({kinds.SECOND_ROUND, kinds.FREE_POINTS, kinds.PICK_TANK, kinds.DEPLOY_ZONE,
                             kinds.DEPLOY_FACING, kinds.SPECIAL_ROUND, kinds.NEXT_MOVER, kinds.LEAP_TARGET})


def common_answer(state: GameState, decision: Decision, rng: Any, *, hooks: Any = None) -> Any:
    """The answer both bots give to a decision that is not about when to fire or where to move
    (dispatched on its kind; an unknown kind gets a random legal answer)."""
    kind = decision.kind
    if kind == kinds.DEPLOY_HEX:
        return _deploy(state, decision, option_data(decision))
    if kind == kinds.LOAD_SPECIAL:
        return _load(state, option_data(decision))
    return stateless_answer(decision, rng, hooks=hooks)


def stateless_answer(decision: Decision, rng: Any, *, hooks: Any = None) -> Any:
    """:func:`common_answer` for the kinds of :data:`STATELESS_KINDS`, which it answers from the
    decision (its kind, context and option data) alone; any other kind gets a random legal answer."""
    kind = decision.kind
    if kind == kinds.SECOND_ROUND:
        return True  # a second shot at a heavier tank is free
    if kind == kinds.FREE_POINTS:
        assert isinstance(decision, ChooseNumber)
        return decision.high  # as many as allowed: a tank can burn unwanted points turning in place
    data = option_data(decision)
    if kind == kinds.PICK_TANK:
        return _pick_tank(data, hooks)
    if kind == kinds.DEPLOY_ZONE:
        return 0  # the first offered (north)
    if kind == kinds.DEPLOY_FACING:
        return index_of(data, "facing", decision.context["toward_enemy"])  # toward the enemy's zone
    if kind == kinds.SPECIAL_ROUND:
        return _special_round(data)
    if kind == kinds.NEXT_MOVER:
        return _next_mover(data)
    if kind == kinds.LEAP_TARGET:
        return index_of(data, "action", "give up")  # naming a leap target: give up (neither bot leaps)
    return decision.random_answer(rng)


def acting_tank(state: GameState, decision: Decision) -> Tank | None:
    """The tank a fire or move menu is about (the decision context's ``tank``), if alive."""
    tank_id = decision.context.get("tank")
    if tank_id is None:
        return None
    tank = state.tank(tank_id)
    return tank if tank.alive else None


def fire_of(decision: Decision) -> str:
    """The form of fire a fire menu is for (its context's ``fire``). Turning the turret after a
    shot is weighed as for advance fire, the next fire the turn may still bring."""
    if decision.kind == kinds.TURRET_AFTER_FIRE:
        return "advance"
    return str(decision.context.get("fire", "advance"))


def hold_index(data: list[Data]) -> int:
    """The index of "hold fire" / "leave the turret" (else the last option)."""
    for i, d in enumerate(data):
        if d.get("action") in ("hold", "leave"):
            return i
    return len(data) - 1


def index_of(data: list[Data], key: str, value: Any) -> int:
    """The index of the first option whose data has ``key`` equal to ``value``.

    Raises:
        ValueError: no option has it.
    """
    for i, d in enumerate(data):
        if d.get(key) == value:
            return i
    raise ValueError(f"no option with {key} = {value!r}")


def nearest_enemy(state: GameState, tank: Tank) -> Tank | None:
    """The closest living enemy (lowest id on a tie)."""
    at = tank.hex
    assert at is not None
    enemies = [(at.distance(e.hex), e.id, e) for e in state.living(other_side(tank.side)) if e.hex is not None]
    return min(enemies, key=lambda row: row[:2], default=(0, 0, None))[2]


def turn_toward(state: GameState, tank: Tank, target: Hex, data: list[Data]) -> int | None:
    """The index of a turret rotation among the options' ``data`` that brings ``target`` closer
    to the turret's arc, or ``None`` if it is already in the arc or no rotation helps."""
    assert tank.hex is not None
    if in_fire_arc(tank.hex, HexsideFacing(tank.turret), target, state.scenario.fire_arc_width):
        return None
    for i, r in enumerate(data):
        if r.get("action") == "rotate_turret":
            after = (tank.turret + r["turn"]) % 6
            if _gap(tank.hex, after, target) < _gap(tank.hex, tank.turret, target):
                return i
    return None


def defensive_pick(state: GameState, data: list[Data], threshold: float, *, hooks: Any = None) -> int:
    """Defensive fire (2-2): the offer with the best kill chance if it reaches ``threshold``,
    else pass (option 0). The firer is locked for a turn, so a poor shot is not worth it.

    Each offer's data is ``{"respond": {"tank", "gun", "target", "hex"}}``: the defender, its
    gun, the moving tank and the hex it is fired at."""
    best, best_value = 0, threshold
    for i, d in enumerate(data):
        offer = d.get("respond")
        if offer is not None:
            defender, target = state.tank(offer["tank"]), state.tank(offer["target"])
            saved = target.hex
            target.hex = label_hex(offer["hex"])
            try:
                value = kill_chance(state, defender, offer["gun"], target, "defensive", hooks=hooks)
            finally:
                target.hex = saved
            if value > best_value:
                best, best_value = i, value
    return best


# -- the opening and the shared answers --------------------------------------------------------------
def _pick_tank(data: list[Data], hooks: Any = None) -> int:
    """Force selection: the best armour + attack + range + movement for the money left (the
    add-ons' vehicles in ``hooks`` included)."""
    table = vehicle_table(hooks)
    best, best_score = len(data) - 1, -1.0
    for i, d in enumerate(data):
        if "model" not in d:
            continue
        v = table[d["model"]]
        g = max(v.guns, key=lambda g: g.attack)
        score = v.armour + g.attack + 0.5 * g.range + v.movement + 0.01 * v.price
        if score > best_score:
            best, best_score = i, score
    return best


def _deploy(state: GameState, decision: Decision, data: list[Data]) -> int:
    """Deployment: spread out (up to 3 hexes apart), toward the centre of the zone."""
    mine = [t.hex for t in state.tanks if t.side == decision.side and t.hex is not None]
    centre = state.map.width / 2

    def score(h: Hex) -> float:
        col, _ = state.map.hexmap.offset(h)
        spread = min((h.distance(o) for o in mine), default=4)
        return min(spread, 3) - abs(col - centre) * 0.2

    hexes = [label_hex(d["hex"]) for d in data]
    return max(range(len(hexes)), key=lambda i: (score(hexes[i]), -i))


def _load(state: GameState, data: list[Data]) -> int:
    """Special rounds: fin, then HESH, then overloaded, each for the strongest gun."""
    for kind in ("fin", "hesh", "overloaded"):
        candidates = [(i, d["tank"]) for i, d in enumerate(data) if d.get("special") == kind]
        if candidates:
            return max(candidates, key=lambda it: (state.tank(it[1]).spec.guns[0].attack, -it[0]))[0]
    return len(data) - 1


def _special_round(data: list[Data]) -> int:
    """Use a special round only when its odds (each option's ``hit`` and ``kill``, to the whole
    percent) clearly beat the standard round's; HESH counts its disabling results at part of a
    kill."""
    best, best_value = 0, -1.0
    for i, d in enumerate(data):
        value = d["hit"] * (1 / 3 + 1 / 3 * 0.5 + 1 / 3 * 0.3) if d["round"] == "hesh" else d["kill"]
        if d["round"] != "standard":
            value -= 0.05  # a special round is spent for good: keep it unless it helps
        if value > best_value:
            best, best_value = i, value
    return best


def _next_mover(data: list[Data]) -> int:
    """Movement order: the first tank offered (every tank moves)."""
    for i, d in enumerate(data):
        if "tank" in d:
            return i
    return len(data) - 1


def _gap(at: Hex, facing: int, target: Hex) -> int:
    return min(min((w - facing) % 6, (facing - w) % 6) for w in wedges_of(at, target))
