"""The player turn: bombardment fire, commands, end-of-turn declarations.

The source gives the rules of each step but not the turn sequence; the sequence here is
provisional (not from the source): each game turn, each side in the scenario's order has one
player turn — (1) its guns that declared last turn may fire (Artillery Bombardment),
(2) it spends its commands (scenario data) on moves, road moves and assaults, settling first any
group on an approach with no enemy ahead (the compulsory move), (3) it declares bombardments.

The sequence is data for the core sequencers: the game turns and player turns are a
:class:`~wargamekit.sequencing.PlayerTurns` (in :meth:`.ManeuverLocale.play`), the phases of a
player turn a :class:`~wargamekit.sequencing.PhaseCycle` of :data:`PHASES` run through
:func:`~wargamekit.sequencing.by_phase`, and the command phase the active side's actions, one
at a time, until it ends its turn (a pass) or the game is decided — :class:`Actions`, this
ruleset's own sequencer (the turns of an :class:`~wargamekit.sequencing.AlternatingImpulses` of
that one side with a pass limit of 1, made cheaper).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator
from typing import Any

from wargamekit import Choose, Data, Decision
from wargamekit.decisions import freeze_data
from wargamekit.dice import Dice
from wargamekit.sequencing import PhaseCycle, Turn, TurnResult, by_phase, play_turns

from . import kinds, rules
from .assault import assault, can_assault
from .bombardment import declare_bombardment, fire_bombardment
from .changes import piece_choice, piece_subset, place
from .maneuver import maneuver_attack
from .movement import (
    AssaultAction,
    Compulsory,
    EndTurn,
    GroupMove,
    RoadMenu,
    cavalry_onto_approach,
    compulsory_groups,
    compulsory_options,
    compulsory_pieces,
    group_limit,
    group_moves,
    group_pieces,
    has_road_move,
    menu_options,
    road_moves_of,
    road_paths,
)
from .state import RESERVE, Context, GameState, Occupancy
from .victory import sudden_outcome

__all__ = ["PHASES", "Actions", "command", "command_phase", "legal_actions", "player_turn"]

Action = GroupMove | RoadMenu | AssaultAction | EndTurn

#: The phases of a player turn, in order (provisional: not from the source).
PHASES = ("bombardment", "commands", "declarations")


def legal_actions(state: GameState, side: str, occ: Occupancy | None = None) -> list[Action]:
    """The action menu of ``side`` now: group moves, road movement, assaults, end of turn.
    ``occ``: the state's :class:`~.state.Occupancy`, if the caller has one."""
    occ = occ or Occupancy.of(state)  # hot (every decision of the command phase): the live index
    actions: list[Action] = list(group_moves(state, side, occ))
    if has_road_move(state, side, occ):  # the menu only says whether; the road menu lists them
        actions.append(_ROAD_MENU)
    if state.commands >= 1:  # an assault costs a command (can_assault)
        for loc, n in occ.approaches(side):  # the approaches side stands on, in board order
            if can_assault(state, side, loc, n, occ):
                actions.append(AssaultAction(loc, n))
    actions.append(_END_TURN)
    return actions


# every menu offers them: made once (frozen values, equal to a new one)
_ROAD_MENU = RoadMenu()
_END_TURN = EndTurn()


def start_turn(state: GameState, side: str) -> None:
    """Reset what a player turn uses up."""
    state.player_turn += 1
    state.active = side
    state.commands = state.commands_per_turn[side]
    state.windows = 0
    state.road_pieces = []
    state.road_entries = []
    state.won_by_assault = {}
    for p in state.pieces.values():
        p.moved = False
    occ = Occupancy.live(state)
    if occ is not None:
        occ.unmove_all()  # the pieces stand where they stood: the live index is kept (hot)


def player_turn(ctx: Context, side: str) -> Generator[Decision, Any, None]:
    """One player turn of ``side``: its :data:`PHASES` in order.

    All three phases run even when the game is decided during the commands (the game ends
    after the player turn): the side still declares its bombardments.
    """
    state = ctx.state
    start_turn(state, side)
    ctx.event("turn", f"turn {state.turn}: {side} ({state.commands} commands)", turn=state.turn, side=side)
    procedures = by_phase(
        {
            "bombardment": lambda turn: fire_bombardment(ctx, side),
            "commands": lambda turn: command_phase(ctx, side),
            "declarations": lambda turn: declare_bombardment(ctx, side),
        }
    )

    def phase(turn: Turn[Any]) -> Generator[Decision, Any, TurnResult | None]:
        state.phase = turn.phase or ""  # a record for views; the cycle drives the flow
        # the phase's procedure itself, not a generator around it: every answer is sent down
        # through each generator of the chain (hot)
        return procedures(turn)

    yield from play_turns(PhaseCycle(PHASES, last_turn=1), ctx.dice, phase)


def command_phase(ctx: Context, side: str) -> Generator[Decision, Any, None]:
    """The commands: ``side`` takes one action at a time (:func:`command`) until it ends its
    turn or the game is decided (a side without pieces, every objective held)."""
    state = ctx.state
    actions = Actions(side, decided=lambda: sudden_outcome(state) is not None)
    yield from play_turns(actions, ctx.dice, lambda turn: command(ctx, side))


class Actions:
    """The command phase's sequencer (the core's :class:`~wargamekit.sequencing.Sequencer`
    protocol): ``side``'s actions, one at a time, until one is a pass (``TurnResult(passed=True)``,
    the end of the turn) or the game is decided (``decided()``, asked before each action).

    The same turns as :class:`~wargamekit.sequencing.AlternatingImpulses` of the one side with a
    pass limit of 1 (numbered and labelled alike), without its bookkeeping for several sides:
    attrs' hooks on each field it sets and a list of who can act, per action (hot: about 4 µs
    an action, 3 % of a random game).

    >>> actions = Actions("france", decided=lambda: False)
    >>> actions.next_turn().label
    'impulse 1: france'
    >>> actions.end_turn(actions.next_turn(), TurnResult(passed=True))
    >>> actions.next_turn() is None
    True
    """

    __slots__ = ("side", "decided", "impulse", "_over")

    def __init__(self, side: str, decided: Callable[[], bool]) -> None:
        self.side = side
        self.decided = decided
        self.impulse = 0  # the actions begun
        self._over = False  # a pass (or a turn that ended the sequence) was reported

    def next_turn(self, dice: Dice | None = None) -> Turn[str] | None:
        """The next action, or ``None`` after a pass or once the game is decided."""
        if self._over or self.decided():
            return None
        self.impulse += 1
        return _impulse(self.side, self.impulse)

    def end_turn(self, turn: Turn[Any], result: TurnResult) -> None:
        """Record what the action did: a pass (or ``end``) ends the phase."""
        if result.passed or result.end:
            self._over = True


def command(ctx: Context, side: str) -> Generator[Decision, Any, TurnResult]:
    """One action of the command phase: first any compulsory move, then the action menu (a
    group move, road movement, an assault, or the end of the turn — a pass)."""
    state = ctx.state
    occ = yield from settle_compulsory(ctx, side)
    board = state.board
    actions = legal_actions(state, side, occ)
    action = yield Choose(
        side=side,
        prompt=f"Turn {state.turn}, {side}: {state.commands} command(s) left — your action? ('?' shows the map)",
        options=menu_options(board, actions),
        rule=rules.COMMAND,
        kind=kinds.ACTION,
        context=_action_context(state.turn, side, state.phase, state.commands),
    )
    if isinstance(action, EndTurn):
        return _PASSED
    if isinstance(action, GroupMove):
        yield from group_move(ctx, side, action)
    elif isinstance(action, RoadMenu):
        yield from road_move(ctx, side)
    else:
        yield from assault(ctx, side, action.locale, action.target)
    return _ACTED


@functools.lru_cache(maxsize=1024)
def _impulse(side: str, number: int) -> Turn[str]:
    """The command phase's turn ``number`` of ``side`` (a frozen value, made once: every action
    has one)."""
    return Turn(actors=(side,), label=f"impulse {number}: {side}", number=number)


# what an action reports to the command phase's sequencer: frozen values, made once (hot)
_PASSED = TurnResult(passed=True)
_ACTED = TurnResult()


def settle_compulsory(ctx: Context, side: str) -> Generator[Decision, Any, Occupancy]:
    """移動 — 先のlocaleに敵が存在しない場合: a group on an approach with no enemy ahead must
    return to the reserve (0 commands, marked as moved) or move on into that locale (1).

    Moving on is a move from one locale to another, so the locale's unmoved reserve pieces
    may go along for the same command (移動 — command: one group from the same locale to the
    same locale), as many as the locale ahead has room for.

    Returns the :class:`~.state.Occupancy` of the settled state (the action menu reads it).
    """
    state = ctx.state
    names = state.board.names
    board = state.board
    while groups := compulsory_groups(state, side, occ := Occupancy.of(state)):
        loc, target = groups[0]
        options = compulsory_options(state, side, loc, target)
        pieces = compulsory_pieces(state, side, loc, target)
        choice = yield from ctx.ask(
            Choose(
                side=side,
                prompt=f"No enemy ahead of {', '.join(p.id for p in pieces)} on the {names[loc]} approach facing "
                f"{names[target]}: return or move on?",
                options=menu_options(board, options),
                rule=rules.COMPULSORY,
                kind=kinds.COMPULSORY,
                context={"locale": loc, "target": target, "pieces": [p.id for p in pieces]},
            )
        )
        assert isinstance(choice, Compulsory)
        if choice.move_on:
            reserve = [p for p in state.at(loc, RESERVE) if p.side == side and not p.moved]
            room = state.room(target) - len(pieces)
            if reserve and room > 0:
                joined = yield piece_subset(
                    side,
                    f"Moving on into {names[target]}: which {names[loc]} reserve pieces go along "
                    "(the same command; none for none)?",
                    reserve,
                    rule=rules.COMPULSORY,
                    kind=kinds.COMPULSORY_JOIN,
                    context={"locale": loc, "target": target, "room": room},
                    max_count=min(room, len(reserve)),
                )
                pieces = pieces + [state.pieces[i] for i in joined]
            state.commands -= 1
            place(ctx, pieces, target, RESERVE, "compulsory move: on into the locale ahead")
            yield from cavalry_onto_approach(ctx, side, pieces, target)
        else:
            place(ctx, pieces, loc, RESERVE, "compulsory move: back to the reserve, marked as moved")
    return occ


def group_move(ctx: Context, side: str, move: GroupMove) -> Generator[Decision, Any, None]:
    """Carry out a one-command group move (移動 — command, reserve / approach)."""
    state = ctx.state
    names = state.board.names
    candidates = group_pieces(state, move, side)
    limit = min(group_limit(state, move), len(candidates))
    chosen = yield piece_subset(
        side,
        # the move's label as the action menu offered it (made once per board and move)
        f"{menu_options(state.board, (move,))[0].label}: which pieces move together?",
        candidates,
        rule=rules.COMMAND,
        kind=kinds.GROUP,
        context=_group_context(move, limit),
        min_count=1,
        max_count=limit,
        # a group from two positions shows where each piece stands
        names=names if len(move.sources) > 1 else None,
    )
    pieces = [state.pieces[i] for i in chosen]
    state.commands -= 1
    if move.kind == "locale":
        place(ctx, pieces, move.target, RESERVE, f"{side} moves")
        yield from cavalry_onto_approach(ctx, side, pieces, move.target)
    elif move.kind == "approach":
        place(ctx, pieces, move.locale, move.target, f"{side} moves onto an approach")
    elif move.kind == "back":
        place(ctx, pieces, move.locale, RESERVE, f"{side} moves back to the reserve")
    else:
        yield from maneuver_attack(ctx, side, pieces, move.locale, move.target)


@functools.lru_cache(maxsize=1024)
def _action_context(turn: int, side: str, phase: str, commands: int) -> Data:
    """The action menu's context, frozen once per turn, side, phase and commands left (hot:
    every action menu asks one)."""
    return freeze_data({"turn": turn, "side": side, "phase": phase, "commands": commands})


@functools.lru_cache(maxsize=4096)
def _group_context(move: GroupMove, limit: int) -> Data:
    """The group decision's context, ``move``'s data and the group's ``limit``, frozen once per
    move and limit (hot: every group move asks one; the move's data holds a list to freeze)."""
    return freeze_data({**move.data(), "limit": limit})


def road_move(ctx: Context, side: str) -> Generator[Decision, Any, None]:
    """移動 — road移動: one piece along a road, up to 3 locales."""
    state = ctx.state
    names = state.board.names
    paths = road_paths(state, side)  # the moves of the chosen piece alone are made (hot)
    pid = yield piece_choice(
        side,
        "Road move: which piece?",
        [state.pieces[i] for i in paths],
        rule=rules.ROAD,
        kind=kinds.ROAD_PIECE,
        context={"commands": state.commands},
    )
    move = yield Choose(
        side=side,
        prompt=f"Road move of {pid}: to where?",
        options=menu_options(state.board, road_moves_of(pid, paths[pid])),
        rule=rules.ROAD,
        kind=kinds.ROAD_MOVE,
        context={"piece": pid, "commands": state.commands},
    )
    state.commands -= move.cost
    state.road_pieces.append(pid)
    for step, loc in enumerate(move.path[1:], start=1):
        state.road_entries.append((step, loc))
    piece = state.pieces[pid]
    place(ctx, [piece], move.path[-1], RESERVE, f"{side} moves by road via {' -> '.join(names[x] for x in move.path)}")
    yield from cavalry_onto_approach(ctx, side, [piece], move.path[-1])
