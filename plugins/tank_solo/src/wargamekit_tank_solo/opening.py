"""The opening phase (游戏开场阶段, played once): 1. force selection (调配军力), 2. first player
(决定先手), 3. deployment (行军布阵) and loading the hidden special rounds.

Provisional (not from the source): the first player deploys all its tanks first, then the
second player; then each side loads its special rounds in the same order.

The steps are data (:data:`OPENING`), played once by a core
:class:`~wargamekit.sequencing.PhaseCycle` through a :func:`~wargamekit.sequencing.by_phase`
table; the alternating picks of the force selection are
:class:`~wargamekit.sequencing.AlternatingImpulses`, and deploying and loading, first player
then second, are one game turn of :class:`~wargamekit.sequencing.PlayerTurns`.

Checkpoints (restart points): before each pick of the force selection, each tank's deployment
and each special round loaded — the opening is half of a short game's decisions. Where the step
stands is state (``GameState.phase`` and ``GameState.opening``); a restart skips the steps before
it and, inside it, what the state says is done.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable
from functools import cache, lru_cache, partial
from typing import Any

from wargamekit import Choose, Decision, Option
from wargamekit.context import Checkpoint
from wargamekit.decisions import Data, freeze_data
from wargamekit.geometry import Hex
from wargamekit.sequencing import AlternatingImpulses, PhaseCycle, PlayerTurns, Turn, TurnResult, by_phase, play_turns

from . import kinds
from .maps import FACING_NAMES, facing_name, hex_label, label_hex
from .scenario import SIDES, budget_for, legal_picks
from .special_rounds import SpecialRound, loadout_problem, round_kinds
from .state import Context, GameState, OpeningInProgress, Tank, other_side
from .vehicles import VehicleModel, all_vehicles, vehicle_table

__all__ = ["OPENING", "choose_first_player", "deploy", "load_special_rounds", "opening", "select_forces"]

#: 游戏开场阶段: its steps, in order (the first player is decided in step 2, before deployment).
OPENING: tuple[str, ...] = ("force selection", "first player", "deployment", "special rounds")

#: An opening step's procedure.
OpeningStep = Callable[[Context], Generator[Decision | Checkpoint, Any, None]]



def _stats(model: Any) -> str:
    """What a player weighs in a tank: movement, armour, each gun's range and attack, turret."""
    guns = ", ".join(f"{g.name} range {g.range} attack {g.attack}{' (hull)' if g.mount == 'hull' else ''}"
                     for g in model.guns)
    return f"move {model.movement}, armour {model.armour}, {guns}"


def _budget_note(models: list[str], scenario: Any, table: Any) -> str:
    """The budget after this pick, and why it is what it is (the single-nation bonus)."""
    budget = budget_for(models, scenario, table)
    if budget > scenario.budget:
        return f"{budget} (single-nation force: {scenario.budget} + {budget - scenario.budget})"
    return f"{budget} (nations mixed: no single-nation bonus)"


def opening(ctx: Context) -> Generator[Any, Any, None]:  # decisions and checkpoints
    """The whole opening phase: the steps of :data:`OPENING`, once (on a restart inside a step,
    from that step on)."""
    state = ctx.state
    # A restart at one of the opening's checkpoints: the steps before state.phase are done.
    resume = OPENING.index(state.phase) if state.opening is not None else None
    if resume is None:
        state.wrecks = [label_hex(w) for w in state.scenario.wrecks]
    steps: dict[str, OpeningStep] = {
        "force selection": select_forces,
        "first player": _first_player_step,
        "deployment": deploy,
        "special rounds": load_special_rounds,
    }

    def run(step: OpeningStep) -> Callable[[Turn[Hashable]], Generator[Decision | Checkpoint, Any, TurnResult | None]]:
        def take(turn: Turn[Hashable]) -> Generator[Decision | Checkpoint, Any, TurnResult | None]:
            if resume is not None and OPENING.index(str(turn.phase)) < resume:
                return None  # done before the checkpoint this game restarted at
            state.phase = str(turn.phase)  # where the opening stands (the summary shows it too)
            yield from step(ctx)
            state.opening = None  # the step is done: a later restart is not inside it
            return None

        return take

    yield from play_turns(PhaseCycle(OPENING, last_turn=1), ctx.dice, by_phase({k: run(v) for k, v in steps.items()}))


def _first_player_step(ctx: Context) -> Generator[Decision, Any, None]:
    choose_first_player(ctx)
    return
    yield  # an opening step: a generator, although this one asks nothing


# The opening's menus are most of a short game's decisions (deployment alone a third): they are
# lazy menus (hot: a random bot reads one option of each, a heuristic bot the options' data, no
# label), made from the values by the functions below when read.
def _pick_label(table: dict[str, VehicleModel], mine: tuple[str, ...], spent: int, scenario: Any, key: str) -> str:
    """Force selection: the label of picking model ``key`` when side has ``mine`` (``spent``
    points): the model, its price and the budget after this pick (:func:`_budget_note`)."""
    v = table[key]
    return (f"{v.name} ({v.nation}, {v.vehicle_class}; {_stats(v)}; "
            f"{v.price} pts -> {spent + v.price} of {_budget_note([*mine, key], scenario, table)})")


def _pick_data(table: dict[str, VehicleModel], key: str) -> dict[str, Any]:
    return {"model": key, "price": table[key].price}


def _deploy_label(tank_name: str, map_: Any, h: Hex) -> str:
    """Deployment: set the tank up in hex ``h`` (the map's terrain does not change)."""
    return f"deploy {tank_name} at {hex_label(h)}{' (river)' if map_.terrain_at(h) == 'river' else ''}"


@lru_cache(maxsize=1 << 12)
def _deploy_data(h: Hex) -> Data:
    # The same for every tank and game: frozen once (a heuristic bot reads every option's data).
    return freeze_data({"hex": hex_label(h)})


@cache
def _facing_options(order: tuple[int, ...]) -> tuple[Option, ...]:
    """Deployment: the hexsides a tank may face, in ``order``."""
    return tuple(Option(d, f"face {facing_name(d)}", data={"facing": d}) for d in order)


def _load_label(state: GameState, rounds: dict[str, SpecialRound], pick: tuple[str, int]) -> str:
    """Loading special rounds: the label of loading round kind ``pick[0]`` on tank ``pick[1]``
    (it may read the live state: a tank's name never changes, and the tanks are never removed)."""
    kind, tank_id = pick
    return f"load {rounds[kind].name} on {state.tank(tank_id).name}"


def _load_data(pick: tuple[str, int]) -> dict[str, Any]:
    return {"special": pick[0], "tank": pick[1]}


def _add_tank(state: GameState, side: str, model: str, table: dict[str, VehicleModel] | None = None) -> Tank:
    # An add-on's vehicle travels with the tank (the shipped table does not know it).
    custom = None if table is None or model in all_vehicles() else table[model]
    tank = Tank(id=len(state.tanks) + 1, side=side, model=model, custom=custom)
    state.tanks.append(tank)
    return tank


def select_forces(ctx: Context) -> Generator[Decision | Checkpoint, Any, None]:
    """1. 调配军力: roll off (re-rolling ties); the higher roll picks first, then the sides pick
    one tank at a time in turn, within the budget and class limits, until both stop."""
    state = ctx.state
    scenario = state.scenario
    preset = scenario.forces
    restart = state.opening  # a restart before a pick: the roll-off and the picks before are done
    if restart is None:
        for side in SIDES:
            for entry in preset.get(side, []):
                _add_tank(state, side, entry.model)
        if all(side in preset for side in SIDES):
            _tally(state)
            return
        while True:
            a = ctx.dice.d6("force selection roll-off: A")
            b = ctx.dice.d6("force selection roll-off: B")
            if a != b:
                break
        picker = SIDES[0] if a > b else SIDES[1]
        ctx.event("pick-order", f"{picker} picks first ({a} to {b})", first=picker)
    else:
        picker = restart.side  # the side whose pick comes next: the alternation goes on from it
    table = vehicle_table(ctx.hooks)
    done = {side: side in preset or (restart is not None and side in restart.finished) for side in SIDES}

    def pick_one(turn: Turn[str]) -> Generator[Decision | Checkpoint, Any, None]:
        side = turn.actor
        mine = [t.model for t in state.tanks if t.side == side]
        state.opening = OpeningInProgress(side, finished=tuple(s for s in SIDES if done[s]))
        yield ctx.checkpoint(f"opening: {side} picks tank {len(mine) + 1}")
        spent = sum(table[m].price for m in mine)
        legal = legal_picks(mine, scenario, table)
        if not legal:
            done[side] = True
            return
        values: list[Any] = list(legal)
        if mine:
            values.append(Option(None, f"finish: keep these {len(mine)} tanks ({spent} pts)",
                                 data={"action": "finish"}))
        pick = yield Choose.of(side, f"Pick a tank for side {side} ({spent} pts spent)", values,
                               label=partial(_pick_label, table, tuple(mine), spent, scenario),
                               data=partial(_pick_data, table), lazy=True, lazy_labels=True,
                               rule="开场阶段 1 调配军力", kind=kinds.PICK_TANK,
                               context={"side": side, "spent": spent, "tanks": len(mine)})
        if pick is None:
            done[side] = True
        else:
            tank = _add_tank(state, side, pick, table)
            ctx.event("pick", f"{side} picks {tank.name}", side=side, model=pick)

    # The sides pick in turn, the roll-off's winner first; a side that has finished is skipped.
    picks: AlternatingImpulses[str] = AlternatingImpulses((picker, other_side(picker)), can_act=lambda side: not done[side])
    yield from play_turns(picks, ctx.dice, pick_one)
    _tally(state)


def _tally(state: GameState) -> None:
    for side in SIDES:
        mine = [t for t in state.tanks if t.side == side]
        state.points_spent[side] = sum(t.spec.price for t in mine)
        state.starting_tanks[side] = len(mine)


def choose_first_player(ctx: Context) -> None:
    """2. 决定先手: fewer points spent goes first; then fewer tanks; then a d6 (1-3 A, 4-6 B)."""
    state = ctx.state
    a, b = SIDES
    spent, count = state.points_spent, state.starting_tanks
    if spent[a] != spent[b]:
        first, why = (a if spent[a] < spent[b] else b), f"fewer points spent ({spent[a]} to {spent[b]})"
    elif count[a] != count[b]:
        first, why = (a if count[a] < count[b] else b), f"fewer tanks ({count[a]} to {count[b]})"
    else:
        roll = ctx.dice.d6("first player: 1-3 A, 4-6 B")
        first, why = (a if roll <= 3 else b), f"the die shows {roll}"
    state.first_player = first
    ctx.event("first-player", f"{first} is the first player: {why}", first=first)


def _in_order(state: GameState) -> PlayerTurns[str]:
    """The first player, then the second: one game turn (deployment, loading special rounds)."""
    first = state.first_player
    assert first is not None
    return PlayerTurns((first, other_side(first)), last_turn=1)


def deploy(ctx: Context) -> Generator[Decision | Checkpoint, Any, None]:
    """3. 行军布阵: the first player picks north or south; each side sets its tanks up in its
    map's deployment zone, facing any hexside; turrets start facing with the hull (6 vii)."""
    state = ctx.state
    scenario = state.scenario
    first = state.first_player
    assert first is not None
    preset_positions = {side: bool(scenario.forces.get(side)) and all(e.hex for e in scenario.forces[side])
                        for side in SIDES}
    # A restart before a tank's deployment: the zones are chosen, the sides before it deployed.
    resume = state.opening.side if state.opening is not None else None
    if resume is None:
        yield from _choose_zones(ctx, preset_positions)

    def deploy_side(turn: Turn[str]) -> Generator[Decision | Checkpoint, Any, None]:
        nonlocal resume
        side = turn.actor
        if resume is not None:
            if side != resume:
                return  # deployed before the checkpoint this game restarted at
            resume = None
        tanks = [t for t in state.tanks if t.side == side]
        if preset_positions[side]:
            for tank, entry in zip(tanks, scenario.forces[side], strict=True):
                tank.hex = label_hex(entry.hex or "")
                tank.hull = tank.turret = FACING_NAMES.index(entry.facing or "N")
                tank.specials = list(entry.specials)
            return
        zone_hexes = state.map.zone_hexes(state.zones[side])
        for tank in tanks:
            if tank.hex is not None:
                continue  # deployed before the checkpoint this game restarted at
            state.opening = OpeningInProgress(side)
            yield ctx.checkpoint(f"opening: deploy #{tank.id}")
            # state.is_free for every hex of the zone, with the taken hexes gathered once (hot:
            # deployment is a third of a random-bot game's decisions)
            taken = {t.hex for t in state.tanks if t.alive} | set(state.wrecks)
            free = [h for h in zone_hexes if h not in taken]
            where = yield Choose.of(side, f"Deploy {tank.name}: which hex of the {state.zones[side]} zone?", free,
                                    label=partial(_deploy_label, tank.name, state.map), data=_deploy_data,
                                    lazy=True, lazy_labels=True, rule="开场阶段 3 行军布阵", kind=kinds.DEPLOY_HEX,
                                    context={"tank": tank.id, "zone": state.zones[side]})
            tank.hex = where
            toward = 5 if state.zones[side] == "north" else 2
            # Toward the enemy first, then clockwise round the hex (direction numbers run
            # anticlockwise), so the menu reads like a compass.
            order = [(toward - k) % 6 for k in range(6)]
            facing = yield Choose(side=side, prompt=f"{tank.name} at {hex_label(where)}: face which hexside?",
                                  options=_facing_options(tuple(order)),
                                  rule="标准规则修改部分 3 (车体朝向)", kind=kinds.DEPLOY_FACING,
                                  context={"tank": tank.id, "hex": hex_label(where), "toward_enemy": toward})
            tank.hull = tank.turret = facing
            ctx.event("deploy", f"{tank.name} deploys at {hex_label(where)} facing {facing_name(facing)}",
                      tank=tank.id, hex=hex_label(where), facing=facing)

    yield from play_turns(_in_order(state), ctx.dice, deploy_side)


def _choose_zones(ctx: Context, preset_positions: dict[str, bool]) -> Generator[Decision, Any, None]:
    """3. 行军布阵: the zones — the scenario's, north and south for preset positions, or the
    first player's choice of north or south."""
    state = ctx.state
    scenario = state.scenario
    first = state.first_player
    assert first is not None
    if scenario.zones:
        state.zones = dict(scenario.zones)
    elif all(preset_positions.values()):
        state.zones = {SIDES[0]: "north", SIDES[1]: "south"}
    else:
        zone = yield Choose.of(first, f"Side {first}, first player: deploy in the north or the south?",
                               ["north", "south"], rule="开场阶段 2 决定先手", kind=kinds.DEPLOY_ZONE,
                               context={"side": first}, data=lambda z: {"zone": z})
        state.zones = {first: zone, other_side(first): "south" if zone == "north" else "north"}
    ctx.event("zones", f"{first} deploys {state.zones[first]}, {other_side(first)} {state.zones[other_side(first)]}",
              zones=dict(state.zones))


def load_special_rounds(ctx: Context) -> Generator[Decision | Checkpoint, Any, None]:
    """开场阶段 3: each side loads up to three special rounds on its tanks, face down; at least
    two kinds among them, at most one fin-stabilised round (4-2). A tank may carry all three.

    The markers go on the tanks face down (背面放置, 对方不可见具体种类): which tank gets a
    marker, and so how many a side loads, is public (event ``marker``); the kind is told to the
    loading side only (event ``load``). The rounds on offer are the rulebook's and those of the
    add-ons (:func:`~wargamekit_tank_solo.special_rounds.round_kinds`)."""
    state = ctx.state
    allowed = state.scenario.special_rounds
    rounds = round_kinds(ctx.hooks)
    # A restart before a round is loaded: the sides before it have loaded theirs.
    resume = state.opening

    def load_side(turn: Turn[str]) -> Generator[Decision | Checkpoint, Any, None]:
        nonlocal resume
        side = turn.actor
        tanks = [t for t in state.tanks if t.side == side]
        if resume is not None:
            if side != resume.side:
                return  # loaded before the checkpoint this game restarted at
            loaded = list(resume.loaded)  # and these rounds of this side
            resume = None
        else:
            if any(t.specials for t in tanks) or allowed == 0:
                return
            preset = state.scenario.forces.get(side)
            if preset and all(e.hex for e in preset):
                return
            loaded = []
        while len(loaded) < allowed:
            state.opening = OpeningInProgress(side, loaded=tuple(loaded))
            yield ctx.checkpoint(f"opening: {side} loads round {len(loaded) + 1}")
            possible = [k for k in rounds if _can_add(loaded, k, allowed, rounds)]
            values: list[Any] = [(k, t.id) for k in possible for t in tanks]
            if loadout_problem(loaded, allowed, rounds) is None:
                values.append(Option(None, f"finish loading ({len(loaded)} special round{'s' if len(loaded) != 1 else ''})",
                                     data={"action": "finish"}))
            # A lazy menu (hot: every kind on every tank, three times a side, of which a bot reads one)
            pick = yield Choose.of(side, f"Side {side}: load special round {len(loaded) + 1} of {allowed}?", values,
                                   label=partial(_load_label, state, rounds), data=_load_data, lazy=True,
                                   lazy_labels=True, rule="开场阶段 3; 特殊规则 4 特种弹药", secret=True,
                                   kind=kinds.LOAD_SPECIAL,
                                   context={"side": side, "loaded": tuple(loaded), "allowed": allowed})
            if pick is None:
                break
            kind, tank_id = pick
            loaded.append(kind)
            tank = state.tank(tank_id)
            tank.specials.append(kind)
            ctx.event("load", f"{side} loads {rounds[kind].name} on {tank.name}",
                      audience=(side,), tank=tank_id, special=kind)
            ctx.event("marker", f"{side} places a face-down special-round marker on {tank.name}",
                      side=side, tank=tank_id)
        ctx.event("loaded", f"{side} loads {len(loaded)} hidden special round(s)", side=side, count=len(loaded))

    yield from play_turns(_in_order(state), ctx.dice, load_side)


def _can_add(loaded: list[str], kind: str, allowed: int, rounds: dict[str, SpecialRound]) -> bool:
    """Whether adding ``kind`` keeps a legal loadout reachable."""
    after = [*loaded, kind]
    if loadout_problem(after, allowed, rounds) is None:
        return True
    return len(after) < allowed and any(loadout_problem([*after, k], allowed, rounds) is None for k in rounds)
