"""Reinforcement learning: every installed ruleset as a PettingZoo AEC environment
(:func:`env`) and one side of it as a Gymnasium environment (:func:`single_agent`).

A ruleset writes nothing for this but, if it likes, an :class:`ObservationEncoder` returned by
the :func:`~wargamekit.hookspecs.wargamekit_observation_encoder` hook; without one it gets
:class:`GenericEncoder`. Install the extra: ``pip install wargamekit[rl]``. The page
:doc:`/rl` describes the action encoding, the masks and the observation layout.

>>> from wargamekit import rl
>>> game = rl.env("skirmish", seed=3)
>>> game.reset()
>>> game.agent_selection
'blue'
>>> observation, reward, terminated, truncated, info = game.last()
>>> int(observation["action_mask"].sum()) == len(game.game.pending.options)
True
"""

from typing import TYPE_CHECKING, Any

from .actions import SUBSET_ENUMERATION_LIMIT, ActionCursor, ActionSpaceError, IllegalActionError, actions_for
from .encoding import (
    FORMS,
    GenericEncoder,
    GenericOptionRows,
    HexPlanes,
    ObservationEncoder,
    clip01,
    decision_block,
    kinds_of,
    unit_bounds,
)

if TYPE_CHECKING:
    from .aec import WargameEnv, encoder_for, env
    from .checks import check_observation_non_interference
    from .single import ILLEGAL, SingleAgentEnv, single_agent

# The environments need gymnasium and pettingzoo (the ``rl`` extra); the encoders need only
# numpy, so a ruleset plugin can define its encoder without the extra installed.
_LAZY = {"check_observation_non_interference": "checks", "WargameEnv": "aec", "encoder_for": "aec", "env": "aec",
         "ILLEGAL": "single", "SingleAgentEnv": "single", "single_agent": "single"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'wargamekit.rl' has no attribute {name!r}")
    from importlib import import_module

    try:
        loaded = import_module(f".{module}", __name__)
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            f"wargamekit.rl.{name} needs {exc.name}: install the extra, pip install 'wargamekit[rl]'"
        ) from exc
    return getattr(loaded, name)

__all__ = [
    "FORMS",
    "ILLEGAL",
    "SUBSET_ENUMERATION_LIMIT",
    "ActionCursor",
    "ActionSpaceError",
    "GenericEncoder",
    "GenericOptionRows",
    "HexPlanes",
    "IllegalActionError",
    "ObservationEncoder",
    "SingleAgentEnv",
    "WargameEnv",
    "actions_for",
    "check_observation_non_interference",
    "clip01",
    "decision_block",
    "encoder_for",
    "env",
    "kinds_of",
    "single_agent",
    "unit_bounds",
]
