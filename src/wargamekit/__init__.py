"""wargamekit: a library for building tabletop wargames.

The public API, re-exported from small modules:

* geometry — :mod:`wargamekit.geometry` (hex and locale maps);
* chance — :class:`Dice` and its services, :mod:`wargamekit.odds`;
* flow — :class:`Game`, decisions, players, sequencers, the :class:`InterruptStack`;
* plugins — :class:`Ruleset`, :data:`hookimpl`, :func:`find_ruleset`.
"""

from .decisions import Choose, ChooseNumber, ChooseSubset, Decision, Option, YesNo, ask
from .dice import Dice, DiceScriptError, Die, PoolRoll, Roll, ScriptedDice, SeededDice
from .errors import (
    IllegalChoiceError,
    InvalidChoiceError,
    NotYourTurnError,
    SaveError,
    ScenarioError,
    UnknownRulesetError,
    WargamekitError,
)
from .events import Event, Outcome
from .game import Game, GameOverError, PlayerView, SaveFile
from .interrupts import InterruptStack, Response, TimingPoint, UnresolvedItemError
from .players import Player, RandomBot, ScriptedPlayer, SeededBot, TerminalPlayer
from .plugins import find_ruleset, hookimpl, installed_rulesets, plugin_manager
from .ruleset import Ruleset

__version__ = "0.1.0"

__all__ = [
    "Choose",
    "ChooseNumber",
    "ChooseSubset",
    "Decision",
    "Dice",
    "DiceScriptError",
    "Die",
    "Event",
    "Game",
    "GameOverError",
    "IllegalChoiceError",
    "InterruptStack",
    "InvalidChoiceError",
    "NotYourTurnError",
    "Option",
    "Outcome",
    "Player",
    "PlayerView",
    "PoolRoll",
    "RandomBot",
    "Response",
    "Roll",
    "Ruleset",
    "SaveError",
    "SaveFile",
    "ScenarioError",
    "ScriptedDice",
    "ScriptedPlayer",
    "SeededBot",
    "SeededDice",
    "TerminalPlayer",
    "TimingPoint",
    "UnknownRulesetError",
    "UnresolvedItemError",
    "WargamekitError",
    "YesNo",
    "__version__",
    "ask",
    "find_ruleset",
    "hookimpl",
    "installed_rulesets",
    "plugin_manager",
]
