"""The :class:`TankSolo` ruleset: the dice-driven solo variant of the tank game (少战 SOLO 骰驱规则)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any, TypeVar

import attrs

from wargamekit import Decision, Outcome, Player, Ruleset
from wargamekit.errors import ScenarioError
from wargamekit.view import field_copier, list_copier

from .combat import GameEnd
from .opening import opening
from .optional_rules import OPTIONS
from .scenario import SIDES, ForceEntry, TankSoloScenario, validate_scenario
from .state import Context, GameState, Tank
from .turn import play_all_turns
from .victory import elimination, final_outcome, surrender

__all__ = ["TankSolo"]

T = TypeVar("T")


class TankSolo(Ruleset):
    """Tank duel on hexes: hull and turret facing, aimed/leap/defensive/advance fire, wrecks,
    special rounds and optional rules, scored over ten turns."""

    name = "tank_solo"
    version = "1.3"  # 1.3: the deployment facing menu runs clockwise (saves of 1.2 answer other facings)
    description = "Dice-driven solo tank duel (少战 SOLO): turrets, four kinds of fire, wrecks, special rounds."
    sides = SIDES
    scenario_type = TankSoloScenario
    scenario_package = "wargamekit_tank_solo.scenarios"

    def load_scenario(self, data: Mapping[str, Any], *, source: str | None = None) -> TankSoloScenario:
        """Structure and cross-check a scenario (bad fields raise ScenarioError with a path)."""
        return validate_scenario(super().load_scenario(data, source=source), source)

    def options(self) -> Mapping[str, Any]:
        """The optional rules (特殊规则 8-12) and the surrender switch, with defaults."""
        return dict(OPTIONS)

    def setup(self, scenario: TankSoloScenario, options: Mapping[str, Any]) -> GameState:
        """An empty table for the scenario; the opening phase in :meth:`play` fills it."""
        if options.get("unreliable_engines") and not options.get("hybrid_drive"):
            raise ScenarioError("unreliable engines must be used together with hybrid drive (特殊规则 10)",
                                path="$options.unreliable_engines")
        return GameState(scenario=scenario, options={k: bool(v) for k, v in options.items()})

    def play(self, ctx: Context) -> Generator[Decision, Any, Outcome]:
        """Opening phase (:func:`~wargamekit_tank_solo.opening.opening`), then alternating turns
        (:func:`~wargamekit_tank_solo.turn.play_all_turns`) until a side is eliminated,
        surrenders, or the turn limit is reached (胜利条件). Checkpoints open each pick, tank
        deployed and special round loaded of the opening, and each turn, combat step, mover, step
        of a move and leap target; a restart in a turn (``state.turn`` set) skips the opening and
        goes on in that turn, one in the opening goes on in its step (``state.opening``)."""
        state = ctx.state
        try:
            outcome = None
            if state.turn == 0:  # a restart at a turn's checkpoint has the opening behind it
                yield from opening(ctx)
                outcome = elimination(state)
            if outcome is None:
                yield from play_all_turns(ctx)
                outcome = final_outcome(state) if state.surrendered is None else surrender(state, state.surrendered)
        except GameEnd as end:  # a side eliminated, at whatever depth the last shot was fired
            outcome = end.outcome
        state.phase = "over"
        return outcome

    # -- information ---------------------------------------------------------------------------
    def view(self, state: GameState, side: str | None) -> GameState:
        """A copy with the opponent's special rounds hidden (开场阶段 3: face down): each of its
        tanks shows one ``"hidden"`` marker per round it carries, and the opponent's preset
        loadout in the scenario (``state.scenario.forces``) and the rounds it has loaded so far
        while it loads (``state.opening.loaded``) are redacted the same way.

        Cheap and detached (built once per decision a bot reads): the tanks and the state's
        containers are copied one level down, hexes and the records of a move or leap under way
        (immutable values) are shared, and the scenario's few lists and dicts are copied too.
        """
        # Hot (a bot builds one per decision): a shallow copy, then the mutable fields replaced
        # by copies (attrs.evolve costs several times as much).
        seen = _copy_state(state)
        seen.scenario = _scenario_view(state.scenario, side)
        seen.options = dict(state.options)
        seen.tanks = _tanks_view(state.tanks, side)
        seen.wrecks = list(state.wrecks)
        seen.zones = dict(state.zones)
        seen.points_spent = dict(state.points_spent)
        seen.starting_tanks = dict(state.starting_tanks)
        seen.score = dict(state.score)
        seen.own_turns = dict(state.own_turns)
        loading = state.opening
        if loading is not None and loading.loaded and side is not None and loading.side != side:
            # the rounds the opponent is loading, as the markers on its tanks show them: face down
            seen.opening = attrs.evolve(loading, loaded=("hidden",) * len(loading.loaded))
        return seen

    def shared_view(self, state: GameState, side: str | None) -> GameState:
        """For a bot that promised only to read it: what :meth:`view` shows, in a new frame (a
        shallow copy of the state) that shares the live state's records but never one that can
        later hold what ``side`` may not see. A bot that kept the frame past ``choose`` (which
        breaks the promise) would still see no face-down round (开场阶段 3).

        The frame's tank list is its own (tanks are added while forces are picked); ``side``'s
        own tanks are the live ones, the opponent's are copies with their rounds face down (a
        live opponent tank with no round yet is loaded later); the opponent's preset loadout
        and the rounds it is loading are masked when there are any (the scenario never changes
        in play, and the opening record is frozen). ``side`` ``None`` sees everything: the live
        state itself.
        """
        if side is None:
            return state
        # Hot (a promising bot reads one per decision): one shallow copy, the own tanks shared.
        seen = _copy_state(state)
        seen.tanks = [t if t.side == side else _masked_tank(t) for t in state.tanks]
        if any(force_side != side and any(e.specials for e in entries)
               for force_side, entries in state.scenario.forces.items()):
            seen.scenario = _scenario_view(state.scenario, side)
        loading = state.opening
        if loading is not None and loading.loaded and loading.side != side:
            seen.opening = attrs.evolve(loading, loaded=("hidden",) * len(loading.loaded))
        return seen

    def check_invariants(self, state: GameState) -> None:
        """One tank or wreck per hex, tanks on enterable hexes, scores and loadouts consistent."""
        seen: set[Any] = set()
        for tank in state.living():
            assert tank.hex is not None  # living() holds deployed tanks only
            assert tank.hex not in seen, f"two tanks in one hex: {tank.name}"
            assert tank.hex not in state.wrecks, f"{tank.name} shares a hex with a wreck"
            assert state.map.enterable(tank.hex), f"{tank.name} stands in impassable terrain"
            seen.add(tank.hex)
            assert 0 <= tank.hull < 6 and 0 <= tank.turret < 6
            if tank.spec.turretless:
                assert tank.turret == tank.hull, f"{tank.name} is turretless but its gun turned"
            assert tank.rotations_used <= tank.spec.turret_rotations, f"{tank.name} over-rotated its turret"
            assert tank.lit >= 0
        assert len(set(state.wrecks)) == len(state.wrecks), "two wrecks in one hex"
        for side in SIDES:
            specials = [k for t in state.tanks if t.side == side for k in t.specials]
            assert len(specials) <= state.scenario.special_rounds, f"{side} carries too many special rounds"
            assert specials.count("fin") <= 1, f"{side} carries two fin-stabilised rounds"
            assert state.free_pool >= 0
            dead = [t for t in state.tanks if not t.alive and t.side != side]
            assert state.score[side] <= sum({"light": 1, "medium": 2, "heavy": 4}[t.vehicle_class] for t in dead)

    def summary(self, state: GameState) -> str:
        """A few lines: turn, phase, score, every tank with its markers, wrecks."""
        from .summary import summarise

        return summarise(state)

    def render_svg(self, state: GameState, side: str | None = None) -> str | None:
        """The position as SVG (hulls, turrets, wrecks, markers)."""
        from .render import render_position

        return render_position(self.view(state, side))

    def bots(self) -> Mapping[str, Callable[[int], Player]]:
        """``bot``/``heuristic``: the exact-odds heuristic bot; ``cautious``: the exact-odds bot
        that plays for survival (cover, incoming threat, a kill-chance threshold to fire)."""
        from .bots import HeuristicBot
        from .cautious_bot import CautiousBot

        return {"bot": HeuristicBot, "heuristic": HeuristicBot, "cautious": CautiousBot}

    def odds_command(self) -> Any:
        """``wargamekit odds tank_solo --fire aimed --range 5 ...``."""
        from .shot_odds import odds_command

        return odds_command()


#: The state's fields that a view copies (lists, dicts, the scenario) rather than shares.
_STATE_COPIED = ("scenario", "options", "tanks", "wrecks", "zones", "points_spent", "starting_tanks", "score",
                 "own_turns")
# A container field added to GameState later must be copied too, or views would share it with the game.
assert {a.name for a in attrs.fields(GameState) if hasattr(a.default, "factory")} | {"scenario", "options"} == set(
    _STATE_COPIED)
#: The scenario's container fields' slot setters (it is frozen: the view sets them on its copy).
_set_forces, _set_zones, _set_wrecks = (TankSoloScenario.__dict__[name].__set__ for name in ("forces", "zones", "wrecks"))
assert {a.name for a in attrs.fields(TankSoloScenario) if hasattr(a.default, "factory")} == {"forces", "zones", "wrecks"}


def _shallow_copier(cls: type[T]) -> Callable[[T], T]:
    """A function returning a shallow copy of a slotted attrs instance of ``cls`` (no
    ``__attrs_post_init__``): one assignment per field, written out for ``cls`` (through the
    slots' own setters for a frozen class). Passing every field through ``__init__`` costs about
    twice as much, and views copy every tank per decision."""
    assert not hasattr(cls, "__attrs_post_init__")
    names = [a.name for a in attrs.fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    if cls.__setattr__ is object.__setattr__:
        body = "".join(f"    copy.{name} = obj.{name}\n" for name in names)
    else:  # frozen: what attrs' __init__ does for it
        namespace.update({f"set_{name}": cls.__dict__[name].__set__ for name in names})
        body = "".join(f"    set_{name}(copy, obj.{name})\n" for name in names)
    exec(f"def shallow_copy(obj):\n    copy = new(cls)\n{body}    return copy\n", namespace)
    copier: Callable[[T], T] = namespace["shallow_copy"]
    return copier


#: Shallow copies of the state and the scenario, and copies of a list of tanks (the view's hot path).
_copy_tanks = list_copier(Tank)
_copy_tank = field_copier(Tank)
_copy_state = _shallow_copier(GameState)
_copy_scenario = _shallow_copier(TankSoloScenario)
#: The tank's mutable fields (lists and dicts), which a view copies rather than shares.
_TANK_MUTABLE = ("specials", "tried", "veteran_by_fire", "path_this_turn")
# A mutable field added to Tank later must be copied too, or views would share it with the game
# (the list copier copies every field whose default is a factory).
assert {a.name for a in attrs.fields(Tank) if hasattr(a.default, "factory")} == set(_TANK_MUTABLE)


def _tanks_view(tanks: list[Tank], side: str | None) -> list[Tank]:
    """Copies of ``tanks`` sharing nothing mutable with them, the special rounds of those not
    ``side``'s face down (``side`` ``None``: none hidden).

    One call copies every tank (:func:`wargamekit.view.list_copier`: views are built at every
    decision a bot reads), its lists and dicts copied too; then the opponent's rounds are hidden.
    """
    seen = _copy_tanks(tanks)
    if side is not None:
        for tank in seen:
            if tank.side != side:
                tank.specials = ["hidden"] * len(tank.specials)
    return seen


def _masked_tank(tank: Tank) -> Tank:
    """A copy of the opponent's ``tank`` with its special rounds face down (as :func:`_tanks_view`)."""
    seen = _copy_tank(tank)
    seen.specials = ["hidden"] * len(tank.specials)
    return seen


def _scenario_view(scenario: TankSoloScenario, side: str | None) -> TankSoloScenario:
    """A copy of the scenario sharing none of its lists and dicts (frozen attrs does not freeze
    them), the opponent's preset loadout face down (开场阶段 3). Small: the forces of a scenario
    with preset tanks, the zones and wrecks, one level down."""

    def entry(force_side: str, e: ForceEntry) -> ForceEntry:
        hidden = side is not None and force_side != side
        return attrs.evolve(e, specials=["hidden"] * len(e.specials) if hidden else list(e.specials))

    # A shallow copy, then its containers replaced, as the state's (a view per decision a bot reads).
    seen = _copy_scenario(scenario)
    _set_forces(seen, {force_side: [entry(force_side, e) for e in entries]
                       for force_side, entries in scenario.forces.items()})
    _set_zones(seen, dict(scenario.zones))
    _set_wrecks(seen, list(scenario.wrecks))
    return seen
