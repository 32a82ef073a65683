"""The player turn: bombardment fire, commands, end-of-turn declarations.

The source gives the rules of each step but not the turn sequence; the sequence here is
provisional (not from the source): each game turn, each side in the scenario's order has one
player turn — (1) its guns that declared last turn may fire (Artillery Bombardment),
(2) it spends its commands (scenario data) on moves, road moves and assaults, settling first any
group on an approach with no enemy ahead (the compulsory move), (3) it declares bombardments.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargamekit import Choose, Game, Option, ask

from . import rules
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
    road_moves,
)
from .state import RESERVE, GameState
from .victory import sudden_outcome

__all__ = ["legal_actions", "player_turn"]

Action = GroupMove | RoadMenu | AssaultAction | EndTurn


def legal_actions(state: GameState, side: str) -> list[Action]:
    """The action menu of ``side`` now: group moves, road movement, assaults, end of turn."""
    actions: list[Action] = list(group_moves(state, side))
    if road_moves(state, side):
        actions.append(RoadMenu())
    for loc in state.board.locale_ids():
        for n in state.board.neighbours(loc):
            if any(p.side == side for p in state.at(loc, n)) and can_assault(state, side, loc, n):
                actions.append(AssaultAction(loc, n))
    actions.append(EndTurn())
    return actions


def start_turn(state: GameState, side: str) -> None:
    """Reset what a player turn uses up."""
    state.player_turn += 1
    state.active = side
    state.commands = state.commands_per_turn[side]
    state.road_pieces = []
    state.road_entries = []
    state.won_by_assault = {}
    for p in state.pieces.values():
        p.moved = False


def player_turn(game: Game, side: str) -> Generator[Any, Any, None]:
    """One player turn of ``side``."""
    state: GameState = game.state
    start_turn(state, side)
    game.event("turn", f"turn {state.turn}: {side} ({state.commands} commands)", turn=state.turn, side=side)
    yield from fire_bombardment(game, side)
    while sudden_outcome(state) is None:
        yield from settle_compulsory(game, side)
        names = state.board.names
        actions = legal_actions(state, side)
        action = yield Choose.of(
            side,
            f"Turn {state.turn}, {side}: {state.commands} command(s) left — your action? ('?' shows the map)",
            [Option(a, a.label(names)) for a in actions],
            rule=rules.COMMAND,
        )
        if isinstance(action, EndTurn):
            break
        if isinstance(action, GroupMove):
            yield from group_move(game, side, action)
        elif isinstance(action, RoadMenu):
            yield from road_move(game, side)
        else:
            yield from assault(game, side, action.locale, action.target)
    yield from declare_bombardment(game, side)


def settle_compulsory(game: Game, side: str) -> Generator[Any, Any, None]:
    """移動 — 先のlocaleに敵が存在しない場合: a group on an approach with no enemy ahead must
    return to the reserve (0 commands, marked as moved) or move on into that locale (1).

    Moving on is a move from one locale to another, so the locale's unmoved reserve pieces
    may go along for the same command (移動 — command: one group from the same locale to the
    same locale), as many as the locale ahead has room for.
    """
    state: GameState = game.state
    names = state.board.names
    while groups := compulsory_groups(state, side):
        loc, target = groups[0]
        options = compulsory_options(state, side, loc, target)
        pieces = compulsory_pieces(state, side, loc, target)
        choice = yield from ask(
            Choose.of(
                side,
                f"No enemy ahead of {', '.join(p.id for p in pieces)} on the {names[loc]} approach facing "
                f"{names[target]}: return or move on?",
                [Option(o, o.label(names)) for o in options],
                rule=rules.COMPULSORY,
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
                    max_count=min(room, len(reserve)),
                )
                pieces = pieces + [state.pieces[i] for i in joined]
            state.commands -= 1
            place(game, pieces, target, RESERVE, "compulsory move: on into the locale ahead")
            yield from cavalry_onto_approach(game, side, pieces, target)
        else:
            place(game, pieces, loc, RESERVE, "compulsory move: back to the reserve, marked as moved")


def group_move(game: Game, side: str, move: GroupMove) -> Generator[Any, Any, None]:
    """Carry out a one-command group move (移動 — command, reserve / approach)."""
    state: GameState = game.state
    names = state.board.names
    candidates = group_pieces(state, move, side)
    limit = min(group_limit(state, move), len(candidates))
    chosen = yield piece_subset(
        side,
        f"{move.label(names)}: which pieces move together?",
        candidates,
        rule=rules.COMMAND,
        min_count=1,
        max_count=limit,
        # a group from two positions shows where each piece stands
        names=names if len(move.sources) > 1 else None,
    )
    pieces = [state.pieces[i] for i in chosen]
    state.commands -= 1
    if move.kind == "locale":
        place(game, pieces, move.target, RESERVE, f"{side} moves")
        yield from cavalry_onto_approach(game, side, pieces, move.target)
    elif move.kind == "approach":
        place(game, pieces, move.locale, move.target, f"{side} moves onto an approach")
    elif move.kind == "back":
        place(game, pieces, move.locale, RESERVE, f"{side} moves back to the reserve")
    else:
        yield from maneuver_attack(game, side, pieces, move.locale, move.target)


def road_move(game: Game, side: str) -> Generator[Any, Any, None]:
    """移動 — road移動: one piece along a road, up to 3 locales."""
    state: GameState = game.state
    names = state.board.names
    options = road_moves(state, side)
    pid = yield piece_choice(side, "Road move: which piece?", [state.pieces[i] for i in options], rule=rules.ROAD)
    move = yield Choose.of(
        side,
        f"Road move of {pid}: to where?",
        [Option(m, m.label(names)) for m in options[pid]],
        rule=rules.ROAD,
    )
    state.commands -= move.cost
    state.road_pieces.append(pid)
    for step, loc in enumerate(move.path[1:], start=1):
        state.road_entries.append((step, loc))
    piece = state.pieces[pid]
    place(game, [piece], move.path[-1], RESERVE, f"{side} moves by road via {' -> '.join(names[x] for x in move.path)}")
    yield from cavalry_onto_approach(game, side, [piece], move.path[-1])
