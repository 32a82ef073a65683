"""The AIG ruleset: §3 the game turn — the leader action phase, then the rally phase a–e."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Generator, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from wargamekit import Decision, Outcome, Player, Ruleset
from wargamekit.geometry import Hex, HexMap
from wargamekit.memo import remember
from wargamekit.sequencing import PhaseCycle, Turn, TurnResult, by_phase, play_turns
from wargamekit.view import dict_copier, field_copier
from wargamekit_aig import rally
from wargamekit_aig.activation import LeaderAction, activation_sequence, sync
from wargamekit_aig.kinds import Context
from wargamekit_aig.scenario import SIDES, AigScenario, Tables, check_scenario
from wargamekit_aig.state import Banner, GameState, Leader, Unit, initial_state

#: The view's copiers (one assignment per field, and one call per dict of units, leaders or
#: banners: views are built at every decision a bot reads).
_copy_state = field_copier(GameState)
_copy_units, _copy_leaders, _copy_banners = dict_copier(Unit), dict_copier(Leader), dict_copier(Banner)
#: The state copied one level only (every field shared): the shared view's frame.
_frame_of_state = field_copier(GameState, skip=tuple(a.name for a in attrs.fields(GameState)))

#: The views' read-only copy of each game's tables, made once (by the tables' id, the tables
#: themselves kept so that the id is not reused): they never change in play.
_SEEN_TABLES: dict[int, tuple[Tables, Tables]] = {}


def _seen_tables(tables: Tables) -> Tables:
    got = _SEEN_TABLES.get(id(tables))
    if got is None:
        # the dicts as read-only proxies: a view's reader reads them as it reads the dicts
        copy = attrs.evolve(tables, weapons=MappingProxyType(dict(tables.weapons)),  # type: ignore[arg-type]
                            shock_value=MappingProxyType(dict(tables.shock_value)))  # type: ignore[arg-type]
        got = remember(_SEEN_TABLES, id(tables), (tables, copy), 64)
    return got[1]


#: Scenarios loaded so far (Aig.load_scenario), by the ruleset class and their raw data's pickle.
_LOADED: dict[tuple[type, bytes], AigScenario] = {}
_LOADED_KEPT = 64


#: §3 / §3.4: the game turn's phases as data; the rally phase's five steps in order.
GAME_TURN = {"leader action": [], "rally": ["a", "b", "c", "d", "e"]}


class Aig(Ruleset):
    """AIG兵棋: ancient battles, leader activation with momentum and seizes."""

    name = "aig"
    version = "0.3"
    description = "AIG ancient battles: leader activation, momentum and seizes, missile fire, rout and a provisional shock system."
    sides = SIDES
    scenario_type = AigScenario
    scenario_package = "wargamekit_aig.scenarios"
    #: Never changed once setup has built them (the map's layers are read-only, the scenario and its
    #: tables are frozen and never written): a checkpoint's snapshot refers to them instead of pickling the map and its caches.
    #: Hexes are frozen values too: a snapshot refers to the units' and leaders' hexes rather
    #: than copying them (two dozen objects of a restart's unpickling, each through attrs' setstate).
    shared_types = (HexMap, AigScenario, Tables, Hex)

    def scenario_names(self) -> list[str]:
        return ["default", "training", "battle"]

    def scenario_data(self, name: str = "default") -> dict[str, Any]:
        return super().scenario_data("training" if name == "default" else name)

    def load_scenario(self, data: Mapping[str, Any], *, source: str | None = None) -> AigScenario:
        """The checked scenario of ``data`` (see :func:`check_scenario`). Equal data give the
        same :class:`AigScenario` object, shared by every game built from them in this process:
        a shared type (``shared_types``), it never changes once loaded, so read it (as
        ``Game.scenario``) and never change it."""
        # Hot: every game loads its scenario (structuring it and checking its ~70 hex labels
        # is ~0.4 ms, 2 % of a random training game). The scenario is a shared value that never
        # changes in play (shared_types), so equal data may get the same one: remembered by its
        # raw data's pickle (which tells 1 from 1.0 and "1" as keys, unlike JSON); only a
        # scenario that loaded without error is remembered.
        try:
            key: tuple[type, bytes] | None = (type(self), pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
        except Exception:  # noqa: BLE001 - data pickle cannot take: load it every time
            key = None
        got = _LOADED.get(key) if key is not None else None
        if got is None:
            got = check_scenario(super().load_scenario(data, source=source), source)
            if key is not None:
                remember(_LOADED, key, got, _LOADED_KEPT)
        return got

    def options(self) -> Mapping[str, Any]:
        """``charged_turn`` (default on): §6.3.3.b, a unit being charged may make an emergency turn
        to face the charging unit (reading R-charge on the docs page); off, a charged unit never
        turns (the other reading: only the active side's units turn)."""
        return {"charged_turn": True}

    def setup(self, scenario: AigScenario, options: Mapping[str, Any]) -> GameState:
        return initial_state(scenario)

    # -- §3 sequence of play -------------------------------------------------------------------
    def play(self, ctx: Context) -> Generator[Decision, Any, Outcome]:
        state = ctx.state
        # The activation sequence lives in the state: a restart goes on with it (a fresh game
        # builds it from the leaders in play).
        if state.sequence is None:
            state.sequence = activation_sequence(state, SIDES)
        seq = state.sequence
        result: list[Outcome] = []

        # Restart points: each turn's start (the stack is empty, the sequence a fresh round) and
        # each command phase (LeaderAction's, with the activation under way in state.underway).
        def leader_action(turn: Turn[Any]) -> Generator[Any, Any, TurnResult]:
            if state.underway is None:  # a new turn, not a restart inside its leader action phase
                yield ctx.checkpoint(f"turn {turn.number}")
                state.turn = turn.number
                state.phase = "leader action"
                ctx.event("turn", f"Turn {state.turn} begins", turn=state.turn)
            yield from LeaderAction(ctx, seq, checkpoints=True).run(end_if=lambda: False)
            return TurnResult()

        def rally_step(step: str) -> Callable[[Turn[Any]], Generator[Decision, Any, TurnResult]]:
            def run(turn: Turn[Any]) -> Generator[Decision, Any, TurnResult]:
                state.phase = f"rally {step}"
                if step == "d":
                    outcome = rally.step_d(ctx, SIDES)
                    if outcome is not None:
                        result.append(outcome)
                        ctx.event("end", outcome.reason, winner=outcome.winner)
                        return TurnResult(end=True)
                    return TurnResult()
                yield from {"a": rally.step_a, "b": rally.step_b, "c": rally.step_c, "e": rally.step_e}[step](ctx)
                if step == "e":
                    for ld in state.leaders.values():
                        if not ld.alive and ld.name in seq.leaders:
                            seq.remove(ld.name)
                    seq.new_round()
                    sync(state, seq)
                return TurnResult()

            return run

        handlers = {"leader action": leader_action} | {f"rally/{s}": rally_step(s) for s in "abcde"}
        cycle = PhaseCycle(GAME_TURN)
        # go on after the last turn begun (0 on a fresh game), or inside the one under way
        cycle.turn = state.turn if state.underway is None else state.turn - 1
        yield from play_turns(cycle, ctx.dice, by_phase(handlers), end_if=lambda: bool(result))
        return result[0]

    # -- information ---------------------------------------------------------------------------
    def view(self, state: GameState, side: str | None) -> GameState:
        """Everything is on the table: both sides see the whole position.

        Cheap and detached (built once per decision a bot reads): the state, units, leaders and
        banners are copied field by field with their lists and dicts (every other field is an
        immutable value); the map, whose layers are made read-only at setup, and a read-only
        copy of the scenario's tables (their dicts as mapping proxies), made once per game, are
        shared: neither changes in play. The restart bookkeeping (``sequence``, ``underway``) is
        no part of the position and is left out.
        """
        seen = _copy_state(state)
        seen.units = _copy_units(state.units)
        seen.leaders = _copy_leaders(state.leaders)
        seen.banners = _copy_banners(state.banners)
        seen.tables = _seen_tables(state.tables)
        seen.withdrawal = dict(state.withdrawal)
        seen.sequence = seen.underway = None
        return seen

    def shared_view(self, state: GameState, side: str | None) -> GameState:
        """For a bot that promised only to read it: the live position itself (both sides see
        all of it), in a frame without the restart bookkeeping, as :meth:`view` leaves it out —
        one shallow copy instead of a copy of every unit, leader and banner."""
        seen = _frame_of_state(state)
        seen.sequence = seen.underway = None
        return seen

    def check_invariants(self, state: GameState) -> None:
        live = state.live_units()
        at = {u.hex: u for u in live}
        assert len(at) == len(live), "D16: two combat units share a hex"
        assert all(h in state.map for h in at), "a unit left the map"
        for u in live:
            assert 0 <= u.facing <= 5, "§7.1 facing is a corner 0..5"
            assert u.hits >= 0 and u.ammo >= 0
            assert u.routed or u.hits < u.tq, f"§8.1 {u.name} has hits ≥ TQ but is not routed"
            assert not (u.disordered and not u.cavalry), "§7.3 only cavalry is disordered"
        for ld in state.live_leaders():
            assert ld.hex in state.map, "a leader left the map"
            enemy = at.get(ld.hex)
            assert enemy is None or enemy.side == ld.side, f"{ld.name} shares a hex with an enemy unit"
        lost = {s: sum(u.tq for u in state.units.values() if u.side == s and u.eliminated)
                + 5 * sum(1 for ld in state.leaders.values() if ld.side == s and not ld.alive) for s in SIDES}
        assert lost == state.rout_points, "D17 rout points drifted"

    def summary(self, state: GameState) -> str:
        from wargamekit_aig.picture import summary

        return summary(state)

    def render_svg(self, state: GameState, side: str | None = None) -> str:
        from wargamekit_aig.picture import picture

        return picture(state)

    def bots(self) -> Mapping[str, Callable[[int], Player]]:
        from wargamekit_aig.bots import HeuristicBot

        return {"bot": HeuristicBot, "heuristic": HeuristicBot}

    def odds_command(self) -> Any:
        from wargamekit_aig.odds_cli import odds_command

        return odds_command
