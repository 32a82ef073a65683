"""Hidden information and the terminal summary.

A face-down piece shows its owner its arm and steps; the opponent sees only that a piece with
that id stands there. :func:`redact` builds the fresh, redacted copy a side may see.
"""

from __future__ import annotations

from wargamekit.errors import NoApproachError
from wargamekit.view import dict_copier, field_copier, masked_copier

from .state import GameState, Piece

__all__ = ["map_text", "redact", "shared_redact", "summary_text"]

# A view copies every piece (and the state's own fields) each time a bot reads it: the core's
# field copier reads every field, so a field added later is copied too, at a fraction of the
# cost of ``attrs.evolve``. The state's containers but the pieces are fresh copies.
_copy_piece = field_copier(Piece)
_copy_pieces = dict_copier(Piece)  # the all-seeing view: every piece, in one call
_copy_state = field_copier(GameState, skip=("won_by_assault",))
#: What the opponent sees of a face-down piece: its handle and position, every other field at its
#: default (a field added to Piece later stays hidden until it is shown here on purpose).
_hidden_piece = masked_copier(Piece, keep=("id", "side", "locale", "approach", "moved"),
                              mask={"arm": None, "steps": None})

#: The state's own fields, every container shared (see :func:`shared_redact`).
_share_state = field_copier(
    GameState, skip=("control", "eliminated", "road_pieces", "road_entries", "won_by_assault")
)


def redact(state: GameState, side: str | None) -> GameState:
    """A fresh copy of ``state`` as ``side`` sees it (``None``: everything).

    The board is shared (it never changes); every piece is copied, and the opponent's
    face-down pieces lose their arm, steps, artillery history and identity (their scenario
    id, :attr:`~.state.Piece.origin`): what remains is the handle and the position.
    """
    if side is None:
        pieces = _copy_pieces(state.pieces)
    else:
        pieces = {pid: _hidden_piece(p) if p.side != side and not p.face_up else _copy_piece(p)
                  for pid, p in state.pieces.items()}
    view = _copy_state(state)  # control, eliminated, road pieces and entries: fresh copies
    view.pieces = pieces
    view.won_by_assault = {k: list(v) for k, v in state.won_by_assault.items()}
    view.commands_per_turn = dict(state.commands_per_turn)
    view.viewer = side or ""
    view.index = None  # the state's index holds the state's own pieces
    return view


def shared_redact(state: GameState, side: str | None) -> GameState:
    """What :func:`redact` shows ``side``, for a bot that promised only to read its view
    (:meth:`~wargamekit.ruleset.Ruleset.shared_view`): the state's containers and the pieces
    ``side`` may see whole are the live ones, shared; only the opponent's face-down pieces are
    copies, masked as :func:`redact` masks them (a view copies every piece, 6 % of a bot game)."""
    if side is None:
        pieces = state.pieces
    else:
        pieces = {pid: _hidden_piece(p) if p.side != side and not p.face_up else p
                  for pid, p in state.pieces.items()}
    view = _share_state(state)
    view.pieces = pieces
    view.viewer = side or ""
    view.index = None  # a view has no live index (its queries scan its own pieces)
    return view


def summary_text(view: GameState) -> str:
    """A few lines for the terminal: turn, commands, objectives, then every occupied locale.

    The terminal prints it as plain text (square brackets are text). Pieces are ``id`` + arm letter and
    steps (``A01 I3``); an enemy face-down piece is ``F02 ?``.
    """
    b = view.board
    names = b.names
    who = view.viewer or "observer"
    lines = [
        f"Turn {view.turn}/{view.turn_limit} — {view.active} to act, {view.commands} command(s) left "
        f"(you: {who}); road moves used {len(view.road_pieces)}/3",
        "Objectives: "
        + ", ".join(f"{names[k]} {v} VP ({view.control.get(k) or 'nobody'})" for k, v in sorted(b.objectives.items())),
        "Points: " + ", ".join(f"{s} {view.points(s)}" for s in view.sides),
    ]
    for loc in b.locale_ids():
        groups = view.groups(loc)
        if not groups:
            continue
        holder = view.holder(loc)
        lines.append(f"{names[loc]} ({holder}, {len(view.at(loc))}/{b.capacity[loc]} pieces):")
        for where, pieces in groups:
            if where == "":
                place = "reserve"
            else:
                ap = b.approach(loc, where)
                place = f"approach facing {names[where]} ({ap.width.value}, terrain {ap.terrain_effect})"
            shown = ", ".join(_piece_text(p) for p in pieces)
            lines.append(f"  {place}: {shown}")
    lines.extend(map_text(view))
    return "\n".join(lines)


def map_text(view: GameState) -> list[str]:
    """The map as lines: each locale's neighbours, with the road class along each link and the
    width and terrain of the locale's own approach facing it (what moves and assaults need).

    ``Marengo: Castel Ceriolo (primary road; approach narrow, terrain 1), …`` — ``no approach``
    where the locale has none facing that neighbour.
    """
    b = view.board
    names = b.names
    lines = ["Map (each locale: its neighbours; the road along each link; this locale's approach facing it):"]
    for loc in b.locale_ids():
        links = []
        for other in b.neighbours(loc):
            roads = b.road_classes(loc, other)
            road = f"{'/'.join(r.value for r in roads)} road" if roads else "no road"
            try:
                ap = b.approach(loc, other)
                facing = f"approach {ap.width.value}, terrain {ap.terrain_effect}"
            except NoApproachError:
                facing = "no approach"
            links.append(f"{names[other]} ({road}; {facing})")
        objective = f", objective {b.objectives[loc]} VP" if loc in b.objectives else ""
        lines.append(f"  {names[loc]} [{loc}{objective}]: " + "; ".join(links))
    return lines


def _piece_text(p: Piece) -> str:
    if p.arm is None:
        return f"{p.id} ?"
    flags = "".join(f for f, on in ((" up", p.face_up), (" moved", p.moved), (" declared", p.declared)) if on)
    return f"{p.id} {p.arm.letter}{p.steps}{flags}"
