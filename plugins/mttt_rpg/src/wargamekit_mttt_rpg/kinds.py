"""The decision kinds of the ruleset: what a program reads instead of prompts and labels.

Each kind names what is decided; the decision's ``context`` and its options' ``data`` carry
the ids and numbers (the docs page has the table: kind → context keys → option data keys).
Prompts, labels and rule citations are for people only and may be reworded freely.
"""

from __future__ import annotations

__all__ = [
    "ACTION",
    "AIM",
    "BREAK_BONUS",
    "BURN_JADE",
    "CHARGE",
    "CLASH",
    "DEFENSE",
    "DISABILITY",
    "DISABILITY_ATTRIBUTE",
    "GUARD_STRIKE",
    "JADE_BOOST",
    "RESPOND",
    "STOP_DISENGAGE",
    "TACTIC",
    "TRIGGERS",
    "TRIGGER_ORDER",
    "TURN_RESPONSE_ORDER",
    "YIELD_TICK",
]

#: Choose: the acting unit's action in its active step (战斗行动).
ACTION = "mttt_rpg.action"
#: ChooseNumber: how many ticks an aimed attack is delayed (瞄准).
AIM = "mttt_rpg.aim_ticks"
#: Choose (the GM, ``foes``): which opponent gains the break bonus for a self-inflicted crash.
BREAK_BONUS = "mttt_rpg.break_bonus"
#: YesNo: burn soul jade on a roll of several dice at all (燃玉)?
BURN_JADE = "mttt_rpg.burn_jade"
#: ChooseNumber: order MP charged into an attack, a clash or a defense (充能).
CHARGE = "mttt_rpg.charge"
#: Choose: the attacked unit acting at the same tick strikes back (交锋) or defends.
CLASH = "mttt_rpg.clash"
#: Choose: the defense an attacked unit declares (passive, parry, dodge).
DEFENSE = "mttt_rpg.defense"
#: YesNo: take a soul disability instead of lethal damage (灵魂残疾)?
DISABILITY = "mttt_rpg.soul_disability"
#: Choose (the GM, ``foes``): which attribute a soul disability lowers.
DISABILITY_ATTRIBUTE = "mttt_rpg.disability_attribute"
#: Choose: an attack beat the guard (护卫): strike the protector or carry on against the target.
GUARD_STRIKE = "mttt_rpg.guard_strike"
#: ChooseNumber: how far burnt soul jade raises a die or the +x of a roll (燃玉).
JADE_BOOST = "mttt_rpg.jade_boost"
#: Choose: pass, or push an instant spell or instant action at an interrupt window (插入阶段).
RESPOND = "mttt_rpg.respond"
#: ChooseSubset: which of a side's combatants try to stop a disengaging enemy (撤退).
STOP_DISENGAGE = "mttt_rpg.stop_disengage"
#: Choose: the tactic a general attempts in strategic warfare (战术机动).
TACTIC = "mttt_rpg.tactic"
#: ChooseSubset: which triggered effects (战时触发效果) of a side answer a timing point's triggers.
TRIGGERS = "mttt_rpg.triggers"
#: Choose: the order in which a side's simultaneous triggered effects go on the stack.
TRIGGER_ORDER = "mttt_rpg.trigger_order"
#: Choose: the order in which the acting unit's mandatory turn responses (轮响应) go on the stack.
TURN_RESPONSE_ORDER = "mttt_rpg.turn_response_order"
#: YesNo: a unit acting at a shared tick lets the others go first?
YIELD_TICK = "mttt_rpg.yield_tick"
