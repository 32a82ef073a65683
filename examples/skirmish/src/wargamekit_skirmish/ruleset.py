"""The skirmish ruleset: 3. Sequence of play, as one generator procedure."""

from __future__ import annotations

import copy
import weakref
from collections.abc import Callable, Generator, Mapping
from functools import partial
from typing import Any

import attrs

from wargamekit import Choose, Decision, Option, Outcome, Player, Response, RulesContext, Ruleset
from wargamekit.geometry import Hex, HexMap
from wargamekit.sequencing import AlternatingImpulses, PhaseCycle, PlayerTurns, Turn, TurnResult, play_turns
from wargamekit.view import field_copier
from wargamekit_skirmish import fire, movement, victory
from wargamekit_skirmish.scenario import SIDES, SkirmishScenario, check_scenario, hex_label
from wargamekit_skirmish.state import CLEAR_CODE, HILL, WOODS, SkirmishState, Unit, initial_state

# Rule citations, as the one-page rules number them (for people: the log and the help line).
ACTIVATE, MOVE, FACE, FIRE, REACT = "3.2 Activation", "4.1 Movement", "4.2 Facing", "5 Fire", "6 Reaction fire"

#: What each decision decides (for programs: bots dispatch on these, never on prompts).
KIND_ACTIVATE, KIND_MOVE, KIND_FACE, KIND_FIRE, KIND_REACT = (
    "skirmish.activate", "skirmish.move", "skirmish.face", "skirmish.fire", "skirmish.reaction_fire",
)

Context = RulesContext[SkirmishState, SkirmishScenario]

#: id(live map) -> (a weak reference to it, its read-only copy), dropped when the live map goes.
_PUBLIC_MAPS: dict[int, tuple[weakref.ref[HexMap], HexMap]] = {}


# hot (every decision a bot reads its view): copies field by field, cheaper than attrs.evolve
_copy_unit = field_copier(Unit)
_copy_state = field_copier(SkirmishState)


# Hot (every activation): the move and facing menus' options depend on the hex or the facing
# alone, so each is built once and offered again (options are frozen values).
_MOVE_OPTIONS: dict[Hex, Option] = {}
_FACING_OPTIONS = tuple(Option(d, movement.HEXSIDE_NAMES[d], data={"facing": d}) for d in movement.CLOCKWISE)


def _move_option(h: Hex) -> Option:
    """The move menu's option of hex ``h``: its label and its axial coordinates."""
    option = _MOVE_OPTIONS.get(h)
    if option is None:
        option = _MOVE_OPTIONS[h] = Option(h, hex_label(h), data={"hex": [h.q, h.r]})
    return option


def _read_only(hexmap: HexMap) -> HexMap:
    """One read-only copy of ``hexmap`` (its layers cannot be written), shared by every view of
    the game: players may read the map, never change the game's through it."""
    key = id(hexmap)
    held = _PUBLIC_MAPS.get(key)
    if held is not None and held[0]() is hexmap:
        return held[1]
    public = copy.deepcopy(hexmap)
    for layer in (public.terrain, public.elevation, public.hexsides):
        layer.setflags(write=False)
    _PUBLIC_MAPS[key] = (weakref.ref(hexmap, lambda _ref: _PUBLIC_MAPS.pop(key, None)), public)
    return public
Procedure = Generator[Decision, Any, None]


class Skirmish(Ruleset):
    """Two sides, a few units each, alternating activations: move, face, fire."""

    name = "skirmish"
    version = "1.1"  # 1.1: the facing menu runs clockwise from north (saves of 1.0 answer other facings)
    description = "A one-page hex skirmish: the example ruleset of the plugin tutorial."
    sides = SIDES
    scenario_type = SkirmishScenario
    scenario_package = "wargamekit_skirmish.scenarios"
    # the map never changes after setup, nor the (frozen) scenario: snapshots at checkpoints
    # refer to them rather than copy them
    shared_types = (HexMap, SkirmishScenario)

    def load_scenario(self, data: Mapping[str, Any], *, source: str | None = None) -> SkirmishScenario:
        return check_scenario(super().load_scenario(data, source=source), source)

    def setup(self, scenario: SkirmishScenario, options: Mapping[str, Any]) -> SkirmishState:
        return initial_state(scenario)

    def options(self) -> Mapping[str, Any]:
        return {"reaction_fire": True}

    # -- 3. Sequence of play -------------------------------------------------------------------
    def play(self, ctx: Context) -> Generator[Decision, Any, Outcome]:
        state = ctx.state
        first = ctx.scenario.first
        # 3.1 The side moving first alternates every turn.
        turns: PlayerTurns[str] = PlayerTurns((first, *ctx.other_sides(first)), alternate=True)
        outcome: list[Outcome] = []

        # Checkpoints (restart points) open each game turn and each impulse. Everything later
        # steps read is in the state there: the turn, the impulses taken and who took the last,
        # the units, the answered reactions; ``outcome`` is still empty.
        def game_turn(turn: Turn[Any]) -> Generator[Any, Any, TurnResult]:
            if state.impulse is None:  # a new turn, not a restart inside one
                yield ctx.checkpoint(f"turn {turn.number}")
                state.turn, state.impulse, state.last_side = turn.number, 0, None
                ctx.event("turn", f"Turn {state.turn} begins", turn=state.turn)
                for unit in state.alive():
                    unit.spent = False
            # 3.2 Sides alternate activating one unit each until all have acted.
            order = turns.order(state.turn)
            if state.last_side is not None:  # the other side goes next
                after = order.index(state.last_side) + 1
                order = order[after:] + order[:after]
            impulses: AlternatingImpulses[str] = AlternatingImpulses(
                order, can_act=lambda side: any(not u.spent for u in state.alive(side)))
            impulses.impulse = state.impulse

            def impulse(turn: Turn[str]) -> Generator[Any, Any, TurnResult]:
                yield ctx.checkpoint(f"turn {state.turn} impulse {turn.number}")
                state.impulse, state.last_side = turn.number, turn.actor
                yield from self.activate(ctx, turn.actor)
                end = victory.sudden_death(state)
                if end is not None:
                    outcome.append(end)
                return TurnResult(end=end is not None)

            yield from play_turns(impulses, ctx.dice, impulse)
            state.impulse = None
            return TurnResult(end=bool(outcome))

        # 3. Game turns of one phase, activations, taken by both sides (in the impulses' order).
        cycle = PhaseCycle(["activations"], last_turn=state.turns)
        # go on after the last turn ended, or inside the one under way
        cycle.turn = state.turn if state.impulse is None else state.turn - 1
        yield from play_turns(cycle, ctx.dice, game_turn)
        return outcome[0] if outcome else victory.at_turn_limit(state)

    def activate(self, ctx: Context, side: str) -> Procedure:
        """3.2 One activation: choose a unit; it moves (4.1), faces (4.2), may be shot at (6), fires (5)."""
        state = ctx.state
        enemy = ctx.other_side(side)
        ready = [u.name for u in state.alive(side) if not u.spent]
        # 7. Concealment: what a unit does stays secret while the enemy cannot see it.
        # lazy=True: an option is made when read (a random bot reads only the one it picks).
        unit = state.units[(yield Choose.of(side, "Which unit activates?", ready, rule=ACTIVATE, secret=True,
                                            kind=KIND_ACTIVATE, context={"turn": state.turn},
                                            data=lambda name: {"unit": name}, lazy=True))]
        state.active = unit.name
        where = yield Choose.of(side, f"Move {unit.name} to?", [_move_option(h) for h in movement.destinations(state, unit)],
                                rule=MOVE, secret=True, kind=KIND_MOVE, context={"unit": unit.name})
        if where != unit.hex:
            seen = fire.visible(state, unit, enemy)
            unit.hex = where
            seen = seen or fire.visible(state, unit, enemy)
            to = hex_label(where)
            ctx.event("move", f"{unit.name} moves to {to}", audience=None if seen else (side,), unit=unit.name, to=to)
        # A unit the enemy sees is seen facing: its facing is secret only while it is hidden.
        hidden = not fire.visible(state, unit, enemy)
        facing = yield Choose.of(side, f"Face {unit.name} toward?", _FACING_OPTIONS, rule=FACE, secret=hidden,
                                 kind=KIND_FACE, context={"unit": unit.name})
        unit.facing = facing
        if ctx.options["reaction_fire"]:
            yield from ctx.interrupts.window(f"{unit.name} ends its move", [enemy],
                                             self._reactions(ctx, unit), rule=REACT, kind=KIND_REACT)
        if unit.alive:
            shots = fire.targets(state, unit)
            # A hidden unit holding fire stays hidden (its shot, if it fires, is public).
            hidden = not fire.visible(state, unit, enemy)
            target = yield Choose.of(side, f"{unit.name} fires at?", [None, *shots], rule=FIRE,
                                     label=lambda t: "hold fire" if t is None else fire.target_label(t, shots[t]),
                                     secret=hidden,
                                     kind=KIND_FIRE, context={"unit": unit.name},
                                     data=lambda t: {"hold": True} if t is None else {"target": t}, lazy=True)
            if target is not None:
                self.shoot(ctx, unit, state.units[target], shots[target])
        unit.spent = True
        state.active = None

    def _reactions(self, ctx: Context, mover: Unit) -> Callable[[str, Any], list[Response]]:
        """6. Each unspent enemy unit that could fire at the unit that just moved may snap-fire
        (-1) instead of activating later this turn."""
        state = ctx.state

        def offers(side: str, point: Any) -> list[Response]:
            out = []
            for unit in state.alive(side):
                shot = None if unit.spent else fire.target_shot(state, unit, mover, snap=True)
                if shot is not None:
                    out.append(Response(f"{unit.name} snap-fires at {mover.name}", side,
                                        resolve=partial(self.shoot, ctx, unit, mover, shot),
                                        is_legal=lambda: None if mover.alive else f"{mover.name} is gone",
                                        key=(state.turn, unit.name),
                                        data={"firer": unit.name, "target": mover.name}))
            return out

        return offers

    def shoot(self, ctx: Context, firer: Unit, target: Unit, shot: fire.Shot) -> None:
        """5.2 resolve a shot, then 5.3 apply it: the target loses steps; at 0 it is eliminated."""
        state = ctx.state
        if ctx.hooks is not None:  # add-ons may modify the shot (see hookspecs.py)
            extras = ctx.hooks.skirmish_fire_modifier(state=state, firer=firer, target=target, shot=shot)
            shot = attrs.evolve(shot, extra=shot.extra + sum(e for e in extras if e))
        firer.spent = True
        effect = fire.resolve_fire(ctx.dice, shot)
        lost = min(int(effect), target.steps)
        target.steps -= lost
        state.destroyed[firer.side] += lost
        fate = "eliminated" if not target.alive else effect.name.lower()
        ctx.event("fire", f"{firer.name} fires at {target.name} (modifier {shot.modifier:+d}): {fate}",
                   firer=firer.name, target=target.name, effect=effect.name, steps_left=target.steps)

    # -- information -----------------------------------------------------------------------
    def view(self, state: SkirmishState, side: str | None) -> SkirmishState:
        """7. Concealment: enemy units hidden in woods are left out of a side's view.

        Cheap and detached: the units a side sees are copied (a unit's hex is a frozen value,
        shared), and the map, which never changes after setup, is one read-only copy per game.
        """
        units = {n: _copy_unit(u) for n, u in state.units.items() if side is None or fire.visible(state, u, side)}
        seen = _copy_state(state)  # its step counts: a fresh copy
        seen.map, seen.units = _read_only(state.map), units
        # which hidden unit is acting is hidden too
        seen.active = state.active if state.active in units else None
        return seen

    def check_invariants(self, state: SkirmishState) -> None:
        hexes = [u.hex for u in state.alive()]
        assert len(hexes) == len(set(hexes)), "2. two units share a hex"
        assert all(h in state.map for h in hexes), "a unit left the map"
        assert all(0 <= u.steps <= 2 and 0 <= u.facing <= 5 for u in state.units.values())
        lost = {s: sum(2 - u.steps for u in state.units.values() if u.side == s) for s in SIDES}
        assert state.destroyed == {"blue": lost["red"], "red": lost["blue"]}, "8. step count drifted"

    def summary(self, state: SkirmishState) -> str:
        lines = [f"Turn {state.turn} of {state.turns}"]
        for u in state.alive():
            lines.append(f"  {u.side:4} {u.name:10} {hex_label(u.hex)} facing {movement.HEXSIDE_NAMES[u.facing]}"
                         f"{' (damaged)' if u.steps == 1 else ''}{' spent' if u.spent else ''}")
        return "\n".join(lines + text_map(state))

    def render_svg(self, state: SkirmishState, side: str | None = None) -> str:
        from wargamekit_skirmish.picture import picture

        return picture(self.view(state, side))

    def bots(self) -> Mapping[str, Callable[[int], Player]]:
        from wargamekit_skirmish.bots import GreedyBot

        return {"bot": GreedyBot, "greedy": GreedyBot}

    def odds_command(self) -> Any:
        from wargamekit_skirmish.odds_cli import odds_command

        return odds_command



def text_map(state: SkirmishState) -> list[str]:
    """The map as text for the terminal's ``?``: one cell per hex (``.`` clear, ``W`` woods,
    ``H`` hill), a unit as its side's letter and number (``b1`` is blue's first unit). The
    printed map's odd columns sit half a hex lower (the header says so)."""
    codes: dict[Hex, str] = {}
    key = []
    for side in ("blue", "red"):
        for n, u in enumerate(state.alive(side), start=1):
            codes[u.hex] = f"{side[0]}{n}"
            key.append(f"{side[0]}{n} {u.name}")
    letters = {CLEAR_CODE: ".", WOODS: "W", HILL: "H"}
    m = state.map
    lines = ["Map: . clear  W woods  H hill; odd columns sit half a hex lower (" + ", ".join(key) + ")",
             "     " + " ".join(f"{c + 1:02d}" for c in range(m.width))]
    for row in range(m.height):
        cells = []
        for col in range(m.width):
            h = Hex.from_offset(col, row, m.layout)
            cells.append(codes.get(h, letters[int(m.terrain[m.offset(h)])]).ljust(2))
        lines.append(f"  {row + 1:02d} " + " ".join(cells).rstrip())
    return lines
