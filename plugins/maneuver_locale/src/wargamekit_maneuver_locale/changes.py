"""Small state changes that every rule uses, each logging its event.

Hidden information: a face-down piece's arm and steps are known only to its owner, so events
that would give them away carry ``audience=(owner,)``; the public event says only what the
opponent can see (a piece moved, a piece lost a step, a piece was removed).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

from wargamekit import Choose, ChooseSubset, Data, Decision, Option
from wargamekit.decisions import freeze_data
from wargamekit.memo import remember

from . import kinds
from .arms import ArmType
from .state import Context, GameState, Occupancy, Piece

__all__ = [
    "eliminate",
    "label",
    "label_for",
    "lose_step",
    "piece_choice",
    "piece_data",
    "only_arm",
    "piece_subset",
    "place",
    "reveal",
    "take_losses",
    "update_control",
]


def label(piece: Piece, names: dict[str, str] | None = None, *, where: bool = False) -> str:
    """A label anybody may read: the id, plus arm and steps only if the piece is face-up."""
    text = piece.describe() if piece.face_up else piece.id
    return f"{text} ({piece.where(names)})" if where else text


def reveal(ctx: Context, pieces: Sequence[Piece], why: str) -> None:
    """Turn ``pieces`` face-up (revealed to both sides): arm, steps and identity (the
    scenario id behind the handle, :mod:`.handles`)."""
    shown = []
    for p in pieces:
        if not p.face_up:
            p.face_up = True
            shown.append(p)
    if shown:
        ctx.event(
            "reveal",
            f"{why}: {', '.join(f'{p.describe()} ({p.origin})' for p in shown)} turned face-up",
            pieces=[
                {"id": p.id, "origin": p.origin, "arm": p.arm.value, "steps": p.steps}  # type: ignore[union-attr]
                for p in shown
            ],
        )


def place(ctx: Context, pieces: Sequence[Piece], locale: str, approach: str, why: str, *, moved: bool = True) -> None:
    """Move ``pieces`` to ``locale`` (its reserve or the approach facing ``approach``).

    A revealed piece that moves is turned face-down again (provisional: the source does not say
    when revealed pieces are hidden again).
    """
    state = ctx.state
    # the state's live index of the pieces follows them (hot: a new index per menu was the
    # largest item of a random game's own code); a piece no longer on the map is in no index
    occ = state.index if state.index is not None and state.index._pieces is state.pieces else None
    on_map = state.pieces
    for p in pieces:
        indexed = occ is not None and on_map.get(p.id) is p
        if indexed:
            occ._leave(p)  # type: ignore[union-attr]
        p.locale = locale
        p.approach = approach
        p.moved = p.moved or moved
        if not p.declared:
            p.face_up = False
        if indexed:
            occ._enter(p)  # type: ignore[union-attr]
    where = pieces[0].where(state.board.names) if pieces else ""
    ctx.event(
        "move",
        f"{why}: {', '.join(p.id for p in pieces)} -> {where}",
        pieces=[p.id for p in pieces],
        locale=locale,
        approach=approach,
    )
    update_control(state)


def eliminate(ctx: Context, piece: Piece, why: str) -> None:
    """Remove ``piece`` from the map."""
    state = ctx.state
    occ = Occupancy.live(state)
    del state.pieces[piece.id]
    if occ is not None:
        occ.remove(piece)  # the live index follows (hot enough: an index rebuilt per loss)
    else:
        # An index that is not the pieces' any more (a change that did not drop it) must go:
        # with this piece gone its count could match again and pass for live.
        Occupancy.drop(state)
    state.eliminated.append((piece.id, piece.side))
    ctx.event("eliminated", f"{why}: {piece.id} is removed", piece=piece.id, side=piece.side)


def lose_step(ctx: Context, piece: Piece, why: str) -> None:
    """``piece`` loses one step; at 0 steps it is removed."""
    assert piece.steps is not None
    piece.steps -= 1
    if piece.steps <= 0:
        eliminate(ctx, piece, why)
        return
    if piece.face_up:
        ctx.event(
            "step-loss", f"{why}: {piece.id} loses a step ({piece.steps} left)", piece=piece.id, steps=piece.steps
        )
    else:
        ctx.event("step-loss", f"{why}: {piece.id} loses a step", piece=piece.id)
        ctx.event(
            "step-loss-detail",
            f"{why}: {piece.id} ({piece.arm.value}) has {piece.steps} steps left",  # type: ignore[union-attr]
            audience=(piece.side,),
            piece=piece.id,
            steps=piece.steps,
        )


def take_losses(
    ctx: Context, pieces: Sequence[Piece], n: int, *, chooser: str, rule: str, why: str, cause: str
) -> Generator[Decision, Any, int]:
    """Take ``n`` step losses from ``pieces``, one step at a time; ``chooser`` picks the piece
    when more than one can take the step. Returns the steps actually lost (losses beyond the
    pieces' steps are not carried over).

    Each pick is a decision of kind :data:`~.kinds.STEP_LOSS` whose context names the
    ``cause`` (``"assault_leading"``, ``"retreat"``, ...) and the steps still to take.
    """
    state = ctx.state
    lost = 0
    while lost < n:
        alive = [p for p in pieces if p.id in state.pieces]
        if not alive:
            break
        question = piece_choice(
            chooser,
            f"{why}: which piece loses the next step ({n - lost} to take)?",
            alive,
            rule=rule,
            kind=kinds.STEP_LOSS,
            context={"cause": cause, "to_take": n - lost},
        )
        victim = state.pieces[(yield from ctx.ask(question))]
        lose_step(ctx, victim, why)
        lost += 1
    return lost


def label_for(piece: Piece, side: str, names: dict[str, str] | None = None, *, where: bool = False) -> str:
    """What ``side`` may read about ``piece``: everything for its own pieces (``"A01 infantry
    3, face-down"``), the public label for the enemy's."""
    if piece.side != side:
        return label(piece, names, where=where)
    text = piece.describe() + ("" if piece.face_up else ", face-down")
    return f"{text} ({piece.where(names)})" if where else text


def piece_data(piece: Piece) -> Mapping[str, str]:
    """A piece option's data: its id and position, public facts only (never its arm or
    strength, which a face-down piece hides)."""
    return _piece_data(piece.id, piece.locale, piece.approach)


@functools.lru_cache(maxsize=4096)
def _piece_data(pid: str, locale: str, approach: str) -> Data:
    # frozen once per position: the same pieces are offered decision after decision
    return freeze_data({"piece": pid, "locale": locale, "approach": approach})


def piece_choice(
    side: str,
    prompt: str,
    pieces: Sequence[Piece],
    *,
    rule: str,
    kind: str,
    context: Mapping[str, Any] | None = None,
) -> Choose:
    """Choose one of ``pieces``: the values are ids (never the live pieces), the labels what
    ``side`` may know, the logged answer only the public label, the data :func:`piece_data`."""
    return Choose(
        side=side,
        prompt=prompt,
        rule=rule,
        kind=kind,
        context=context,
        # hot (road moves, step losses): the option of each piece as it stands, made once
        options=tuple([_subset_option(side, p.id, p.side, p.arm, p.steps, p.face_up, p.locale, p.approach, None)
                       for p in pieces]),
    )


def piece_subset(
    side: str,
    prompt: str,
    pieces: Sequence[Piece],
    *,
    rule: str,
    kind: str,
    context: Mapping[str, Any] | None = None,
    min_count: int = 0,
    max_count: int | None = None,
    constraint: Callable[[tuple[Any, ...]], str | None] | None = None,
    names: dict[str, str] | None = None,
    why_not: Callable[[Piece], str | None] | None = None,
    secret: bool = False,
) -> ChooseSubset:
    """Choose some of ``pieces`` (ids as values; labels as in :func:`piece_choice`, with the
    position when ``names`` is given; data as in :func:`piece_data`). ``why_not(piece)``: why a
    piece cannot be chosen (the ``constraint`` refuses it); its label says so, for the chooser
    only (the public label, which the opponent may read, is unchanged).

    ``secret``: the answer is logged for ``side`` only — for a choice among face-down pieces
    restricted by their hidden arm (which guns declare, which cavalry moves on), whose answer
    only the owner can judge; its public consequences are the rules' own events (``reveal``,
    ``move``)."""
    where = names is not None

    def option(p: Piece) -> Option:
        reason = why_not(p) if why_not is not None else None
        if names is None:  # hot (every group move, every entry): the same options again and again
            return _subset_option(side, p.id, p.side, p.arm, p.steps, p.face_up, p.locale, p.approach, reason)
        # hot too (every declaration): built once per piece as it stands, for these names
        key = (side, p.id, p.side, p.arm, p.steps, p.face_up, p.locale, p.approach, reason)
        made = named.get(key)
        if made is None:
            shown = label_for(p, side, names, where=where)
            made = named[key] = Option(p.id, f"{shown} — cannot: {reason}" if reason else shown,
                                       label(p, names, where=where), data=piece_data(p))
        return made

    named = _named_options(names) if names is not None else {}

    if names is None and why_not is None:  # hot (every group move): no closure call per piece
        options = tuple([_subset_option(side, p.id, p.side, p.arm, p.steps, p.face_up, p.locale, p.approach, None)
                         for p in pieces])
    elif names is None and why_not is not None:  # hot too (every entry next to the enemy: which cavalry moves on)
        options = tuple([_subset_option(side, p.id, p.side, p.arm, p.steps, p.face_up, p.locale, p.approach,
                                        why_not(p)) for p in pieces])
    else:
        options = tuple([option(p) for p in pieces])
    return ChooseSubset(
        side=side,
        prompt=prompt,
        options=options,
        min_count=min_count,
        max_count=max_count,
        constraint=constraint,
        rule=rule,
        kind=kind,
        context=context,
        secret=secret,
    )


#: id of a names table -> (the table, its piece options by what they depend on: see
#: :func:`piece_subset`); the table is held, so its id stands for it while it is kept
_NAMED_OPTIONS: dict[int, tuple[dict[str, str], dict[tuple[Any, ...], Option]]] = {}


def _named_options(names: dict[str, str]) -> dict[tuple[Any, ...], Option]:
    """The piece options made with labels naming positions by ``names`` (a board's names,
    which never change), kept for the next decision that shows positions by them."""
    held = _NAMED_OPTIONS.get(id(names))
    if held is None or held[0] is not names or len(held[1]) > 4096:
        held = remember(_NAMED_OPTIONS, id(names), (names, {}), 16)
    return held[1]


@functools.lru_cache(maxsize=4096)
def _subset_option(chooser: str, pid: str, owner: str, arm: ArmType | None, steps: int | None, face_up: bool,
                   locale: str, approach: str, reason: str | None) -> Option:
    """A :func:`piece_subset` (or, with no ``reason``, :func:`piece_choice`) option without
    positions, built once per piece as it stands (an option is a frozen value: its labels and
    data depend on these alone)."""
    piece = Piece(id=pid, side=owner, arm=arm, steps=steps, locale=locale, approach=approach, face_up=face_up)
    shown = label_for(piece, chooser)
    return Option(pid, f"{shown} — cannot: {reason}" if reason else shown, label(piece), data=piece_data(piece))


def only_arm(
    state: GameState, ability: str, reason: str, pieces: Sequence[Piece] | None = None
) -> Callable[[tuple[str, ...]], str | None]:
    """A subset constraint: every chosen piece (by id) has an arm with ``ability`` (a true
    :class:`~.arms.ArmType` field: ``"pursues"``, ``"enters_approach"``), else ``reason``.
    ``pieces``: the pieces the decision offers, if only they can be chosen (default: every
    piece of ``state``).

    The arms are read now: the decision keeps its meaning after the game moves on (a check
    that forks a past decision asks it again)."""
    offered = state.pieces.values() if pieces is None else pieces
    able = {p.id: p.arm is not None and bool(getattr(p.arm, ability)) for p in offered}

    def check(ids: tuple[str, ...]) -> str | None:
        return reason if not all(able[i] for i in ids) else None

    return check


def update_control(state: GameState) -> None:
    """A locale is controlled by the last side to hold it alone (provisional victory data)."""
    # hot (after every move): each locale's holder from the live index of the pieces (the
    # first piece in set-up order, as GameState.holder finds it), not a pass over them
    holders = Occupancy.of(state).holders
    control = state.control
    for loc, holder in holders.items():
        if control.get(loc) != holder:
            break
    else:
        return  # nothing changes hands (most moves): no sorting
    for loc in sorted(holders):  # the board's order (sorted ids): new entries join in that order
        holder = holders[loc]
        if holder and control.get(loc) != holder:
            control[loc] = holder
