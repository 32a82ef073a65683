"""The ruleset object: set-up, the game procedure, views, invariants and the bot registry."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Generator, Mapping
from typing import Any

from wargamekit import Decision, Outcome, Ruleset
from wargamekit.errors import ScenarioError
from wargamekit.players import Player
from wargamekit.sequencing import PlayerTurns, Turn, play_turns

from .arms import BUILTIN_ARMS, ArmType, arm_types
from .changes import update_control
from .handles import assign_handles
from .scenario import ManeuverScenario, check_arms, validate
from .state import Board, Context, GameState, Occupancy, Piece
from .turn import player_turn
from .victory import final_outcome, sudden_outcome
from .view import redact, shared_redact, summary_text

__all__ = ["ManeuverLocale", "resolve_arms"]


class ManeuverLocale(Ruleset):
    """The locale/approach manoeuvre system of the Bonaparte at Marengo family."""

    name = "maneuver_locale"
    version = "0.4"
    description = "Locales and approaches (Bonaparte at Marengo family): commands, maneuver attacks, assaults"
    sides = ("austria", "france")
    scenario_type = ManeuverScenario
    scenario_package = "wargamekit_maneuver_locale.scenarios"
    # never changed in play: snapshots at checkpoints refer to them rather than copy them
    shared_types = (Board, ManeuverScenario, ArmType)

    def load_scenario(self, data: Mapping[str, Any], *, source: str | None = None) -> ManeuverScenario:
        # Every game is started from its scenario's data (Game.new reads and copies it, and a
        # load or replay does too): the same data makes an equal scenario, which never changes
        # (a shared type), so the last few are kept by their data's bytes (type-exact: 10, 10.0
        # and true differ, as structuring tells them apart) instead of being structured and
        # validated again (a tenth of a random game). Keyed by the data's pickle, which names
        # every value's type (marshal wrote a numpy scalar as its raw bytes: np.float64(0.0) and
        # np.int64(0) had one key, though structuring takes only the first for a float).
        key = _data_key(data)
        loaded = _LOADED.get(key) if key is not None else None
        if loaded is not None:
            return loaded
        scenario = super().load_scenario(data, source=source)
        validate(scenario, sides=self.sides, source=source)
        if key is not None:
            if len(_LOADED) >= 8:
                del _LOADED[next(iter(_LOADED))]  # the oldest
            _LOADED[key] = scenario
        return scenario

    def options(self) -> Mapping[str, Any]:
        """``scenario_ids``: the pieces keep their scenario ids instead of secret handles (an
        open game, where anyone can look a face-down piece up in the scenario; the rules tests
        use it to name pieces as their scenarios do). Default: secret handles (:mod:`.handles`)."""
        return {"scenario_ids": False}

    def setup(self, scenario: ManeuverScenario, options: Mapping[str, Any]) -> GameState:
        board = Board.from_scenario(scenario)
        # An arm the source does not have is an add-on's: the game's add-ons are known only
        # when play starts (``resolve_arms``), so it stands as its key until then.
        pieces = {
            p.id: Piece(id=p.id, side=p.side, arm=BUILTIN_ARMS.get(p.arm) or ArmType(p.arm, p.arm, "?"),
                        steps=p.steps, locale=p.locale, approach=p.approach, origin=p.id)
            for p in scenario.pieces
        }
        state = GameState(
            board=board,
            sides=tuple(scenario.sides),
            pieces=pieces,
            turn_limit=scenario.turns,
            commands_per_turn=dict(scenario.commands),
            control={loc.id: loc.control for loc in scenario.locales if loc.control},
        )
        update_control(state)
        if sudden_outcome(state) is not None:
            raise ScenarioError("the game would be over before it starts (victory at set-up)", path="$.pieces")
        return state

    def play(self, ctx: Context) -> Generator[Decision, Any, Outcome]:
        """The game: each game turn, one player turn per side in the scenario's order
        (provisional turn sequence, :mod:`.turn`), until the turn limit or a sudden victory."""
        state = ctx.state
        # Checkpoints (restart points) open each player turn but the first. Everything later
        # steps read is in the state there: ``player_turn`` counts the player turns begun, and a
        # player turn resets what the last one used up (``start_turn``), so a restart skips the
        # set-up (the handles are in the state) and the player turns already played.
        if state.player_turn == 0:
            resolve_arms(ctx)
            if not ctx.options["scenario_ids"]:
                assign_handles(ctx)  # the game's first (secret) draws: face-down pieces get handles
            ctx.event("setup", f"{ctx.scenario.title}: {len(state.pieces)} pieces, {state.turn_limit} turns")
        turns: PlayerTurns[str] = PlayerTurns(state.sides, last_turn=state.turn_limit)
        turns.turn = state.player_turn // len(state.sides)  # go on in the game turn under way

        def take(turn: Turn[str]) -> Generator[Any, Any, None]:  # decisions and checkpoints
            ordinal = (turn.number - 1) * len(state.sides) + turns.order(turn.number).index(turn.actor) + 1
            if ordinal <= state.player_turn:
                return  # played before the checkpoint this restart began at
            if state.player_turn:
                # the checkpoint's snapshot need not carry the live index of the pieces (its
                # pickle is empty, but the reference is about 5 % of a state's pickle): it is set
                # aside while the snapshot is taken and kept (a restart indexes its state afresh)
                index, state.index = state.index, None
                yield ctx.checkpoint(turn.label)
                state.index = index
            state.turn = turn.number
            yield from player_turn(ctx, turn.actor)

        # the game ends after the player turn in which a side wins outright (victory.py)
        yield from play_turns(
            turns,
            ctx.dice,
            take,
            end_if=lambda: sudden_outcome(state) is not None,
        )
        return sudden_outcome(state) or final_outcome(state)

    def view(self, state: GameState, side: str | None) -> GameState:
        return redact(state, side)

    def shared_view(self, state: GameState, side: str | None) -> GameState:
        return shared_redact(state, side)

    def summary(self, state: GameState) -> str:
        return summary_text(state)

    def render_svg(self, state: GameState, side: str | None = None) -> str:
        from .render import render_state

        return render_state(redact(state, side))

    def check_invariants(self, state: GameState) -> None:
        enemy_free: dict[str, str] = {}
        for p in state.pieces.values():
            assert p.steps is not None and p.steps >= 1, f"{p.id} has {p.steps} steps but is on the map"
            assert p.arm is not None, f"{p.id} has no arm in the full state"
            other = enemy_free.setdefault(p.locale, p.side)
            assert other == p.side, f"both sides in {p.locale}"
            if p.approach:
                state.board.approach(p.locale, p.approach)  # raises if there is no such approach
        # No capacity check: capacity (provisional) limits moves and retreats, but the winners of
        # an assault all enter the locale they won (Assaults — 後処理), so it may be exceeded.
        assert state.commands >= 0, "negative commands"
        assert len(state.road_pieces) <= 3, "more than 3 road moves in a turn"
        assert len(set(state.road_entries)) == len(state.road_entries), "two road entries on the same step"
        live = state.index
        if live is not None and live._pieces is state.pieces:  # kept up to date move by move
            assert live.tables() == Occupancy(state).tables(), "the live index of the pieces is out of date"

    def bots(self) -> Mapping[str, Callable[[int], Player]]:
        from .bots import HeuristicBot

        return {"bot": HeuristicBot, "heuristic": HeuristicBot}

    def odds_command(self) -> Any:
        from .odds_cli import odds

        return odds


#: raw scenario data (:func:`_data_key`) -> its scenario, for the last few loaded (see
#: ManeuverLocale.load_scenario)
_LOADED: dict[bytes, ManeuverScenario] = {}


def _data_key(data: Mapping[str, Any]) -> bytes | None:
    """Raw scenario data as its pickle, or ``None`` where pickle refuses it (then it is not
    kept). Equal bytes load back to equal values of equal types; equal data whose equal strings
    are shared otherwise may get other bytes, which only makes the memo miss."""
    try:
        return pickle.dumps(data, pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - data pickle cannot take: loaded every time
        return None


def resolve_arms(ctx: Context) -> None:
    """Give every piece its arm's data: the source's arms or the game's add-ons'
    (:func:`~.arms.arm_types` through ``ctx.hooks``), before anything reads them.

    Raises:
        ScenarioError: a piece names an arm neither the source nor the game's add-ons have
            (``$.pieces[i].arm``).
    """
    arms = arm_types(ctx.hooks)
    check_arms(ctx.scenario, arms, source=None)
    for spec in ctx.scenario.pieces:
        ctx.state.pieces[spec.id].arm = arms[spec.arm]
