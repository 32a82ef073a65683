"""Decision kinds (stable, machine-readable) and the typed rules context of the AIG ruleset.

Bots dispatch on these kinds and read the decisions' context and the options' data, never the
prompts, labels or rule citations (the docs page has the table of kinds and keys).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargamekit import Decision, RulesContext
from wargamekit.context import Checkpoint
from wargamekit_aig.scenario import AigScenario
from wargamekit_aig.state import GameState

Context = RulesContext[GameState, AigScenario]
Procedure = Generator[Decision, Any, Any]
#: A procedure with restart points (``yield ctx.checkpoint(...)``) among its decisions.
Restartable = Generator[Decision | Checkpoint, Any, Any]

ACTIVATE = "aig.activate"  # §3.1 which tied leader activates
SEIZE = "aig.seize"  # §5.4.1 / §5.4.2 seize windows (interrupt stack)
COMMAND = "aig.command"  # §5.2.1 individual orders, group orders, banner rally or stand by
ORDER = "aig.order"  # §5.2.2 the next individual order (or done)
GROUP_NEXT = "aig.group_next"  # §5.2.3 which group-activated unit acts next (or done)
UNIT_STEP = "aig.unit_step"  # §6 / §9 the ordered unit's next step: move, turn, fire, stop
LEADER_MOVE = "aig.leader_move"  # §4.2.5 where an ordered leader moves
MELEE = "aig.melee"  # §3.2.2 which enemy a unit attacks in the melee segment (or none)
MOMENTUM = "aig.momentum"  # §5.3 try momentum or not
RETURN_FIRE = "aig.return_fire"  # §9.2 return fire window
REACTION_FIRE = "aig.reaction_fire"  # §9.3 (provisional) reaction fire window
EVADE = "aig.evade"  # §4.4.2 leader evasion window
EVADE_TO = "aig.evade_to"  # §4.4.2.a where an evading leader goes (ties: owner chooses)
EMERGENCY_TURN = "aig.emergency_turn"  # §6.3.3.b a charged unit's emergency turn (window)
WITHDRAW = "aig.withdraw"  # §3.2.1 / D11 (provisional) orderly withdrawal before an approach (window)
ROUT_STEP = "aig.rout_step"  # §8.1.1 / §8.2.1 which of equally good hexes a routed unit enters
