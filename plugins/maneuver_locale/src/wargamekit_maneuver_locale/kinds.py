"""Decision kinds: what each decision of the ruleset decides, for programs.

Bots, tests and tools read a decision's :attr:`~wargamekit.decisions.Decision.kind`, its
``context`` and each option's ``data`` — never the prompt, the labels or the rule citation
(those are for people, and may be reworded). The docs page lists each kind's context keys and
option data keys ("Decision kinds").

Piece options carry ``{"piece": id, "locale": id, "approach": facing id or ""}`` only: a
face-down piece's arm and strength are never in decision data.
"""

from __future__ import annotations

__all__ = [
    "ACTION",
    "BLOCK",
    "BLOCK_PIECES",
    "BOMBARD",
    "BOMBARD_TARGET",
    "CAVALRY",
    "CAVALRY_APPROACH",
    "COMPULSORY",
    "COMPULSORY_JOIN",
    "DECLARE",
    "DEFENSIVE_FIRE",
    "DEFENSIVE_GUNS",
    "GROUP",
    "LEADING",
    "PURSUIT",
    "RETREAT",
    "ROAD_MOVE",
    "ROAD_PIECE",
    "STEP_LOSS",
]

ACTION = "maneuver_locale.action"  # the command menu: a group move, road movement, an assault, or the end of the turn
GROUP = "maneuver_locale.group"  # which pieces make a group move
COMPULSORY = "maneuver_locale.compulsory"  # no enemy ahead: return to the reserve or move on
COMPULSORY_JOIN = "maneuver_locale.compulsory_join"  # which reserve pieces go along on a move on
ROAD_PIECE = "maneuver_locale.road_piece"  # which piece moves by road
ROAD_MOVE = "maneuver_locale.road_move"  # where it goes
CAVALRY = "maneuver_locale.cavalry"  # which cavalry that entered a locale moves onto an approach
CAVALRY_APPROACH = "maneuver_locale.cavalry_approach"  # onto which approach
BLOCK = "maneuver_locale.block"  # the defender's response window: block a maneuver attack or pass
BLOCK_PIECES = "maneuver_locale.block_pieces"  # which reserve pieces block
LEADING = "maneuver_locale.leading"  # an assault's leading pieces (the attacker's or the defender's)
DEFENSIVE_FIRE = "maneuver_locale.defensive_fire"  # the defender's response window: defensive fire or pass
DEFENSIVE_GUNS = "maneuver_locale.defensive_guns"  # which guns fire
PURSUIT = "maneuver_locale.pursuit"  # which cavalry pursue
STEP_LOSS = "maneuver_locale.step_loss"  # which piece loses the next step
RETREAT = "maneuver_locale.retreat"  # where a retreating group goes
DECLARE = "maneuver_locale.declare"  # end of turn: which guns declare a bombardment
BOMBARD = "maneuver_locale.bombard"  # start of turn: does a declared gun fire
BOMBARD_TARGET = "maneuver_locale.bombard_target"  # which other approach a bombardment hits
