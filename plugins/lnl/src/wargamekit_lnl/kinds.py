"""Decision kinds: what each decision of the ruleset decides, for programs.

Bots, tests and tools read a decision's ``kind``, its ``context`` and each option's ``data`` —
never the prompt, the labels or the rule citation. The docs page lists each kind's context keys
and option data keys ("Decision kinds").
"""

from __future__ import annotations

__all__ = [
    "ACTION",
    "ACTIVATE",
    "ASSAULT_FIRE",
    "FIRE_TARGET",
    "MOVE_MODE",
    "MOVE_STEP",
    "OPPORTUNITY_FIRE",
    "RALLY",
    "SMOKE_HEX",
    "SNIPER",
    "SNIPER_COLUMN",
    "SNIPER_PLACE",
    "SNIPER_TARGET",
    "TEAM_FACING",
    "SPOT_TARGET",
    "UNITS",
    "VEHICLE_STEP",
    "VEHICLE_TARGET",
    "AT_TARGET",
    "COUNTER_ATTACK",
    "DROP_WEAPON",
    "WEAPONS",
    "WITHDRAW_HEX",
]

RALLY = "lnl.rally"  # the rally phase: which rally attempt, heal, merge or pick-up next, or done
ACTIVATE = "lnl.activate"  # an impulse: which hex (and level) to activate, or pass
UNITS = "lnl.units"  # which of the eligible units are activated (own hex, and hexes a leader reaches)
ACTION = "lnl.action"  # what the activated units do: move, fire, smoke, spot, melee, withdraw
MOVE_MODE = "lnl.move_mode"  # normal, crawl, stealth or assault movement
MOVE_STEP = "lnl.move_step"  # the next hex or level to enter, or stop
FIRE_TARGET = "lnl.fire_target"  # the hex and level fired at
ASSAULT_FIRE = "lnl.assault_fire"  # after an assault move: the target, or hold fire
SMOKE_HEX = "lnl.smoke_hex"  # where smoke is placed
SPOT_TARGET = "lnl.spot_target"  # the hex and level a spotting check is made against
WITHDRAW_HEX = "lnl.withdraw_hex"  # where units withdrawing from melee go
OPPORTUNITY_FIRE = "lnl.opportunity_fire"  # the response window when an enemy enters a hex
VEHICLE_STEP = "lnl.vehicle_step"  # a vehicle's next move: forward, reverse, turn, or stop
VEHICLE_TARGET = "lnl.vehicle_target"  # what a vehicle's gun and MGs fire at (a hex or a vehicle)
AT_TARGET = "lnl.at_target"  # which vehicle the infantry attacks in melee (IVV)
COUNTER_ATTACK = "lnl.counter_attack"  # after an overrun: the surviving infantry counter-attacks the vehicle or holds
WEAPONS = "lnl.weapons"  # rally phase, after the rally actions: drop, destroy or exchange a support weapon, or done
DROP_WEAPON = "lnl.drop_weapon"  # operations phase: which support weapon a squad or leader drops
SNIPER = "lnl.sniper"  # the window at each impulse start: place a sniper, or pass
SNIPER_COLUMN = "lnl.sniper_column"  # the map column the sniper is placed in
SNIPER_PLACE = "lnl.sniper_place"  # where in that column the sniper is placed
SNIPER_TARGET = "lnl.sniper_target"  # which enemy unit the sniper fires at (or hold, on placement)
TEAM_FACING = "lnl.team_facing"  # after a weapon team with an arrow moves: the hexside it faces (MOV 8)
