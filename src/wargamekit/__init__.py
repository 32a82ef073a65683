"""wargamekit: a library for building tabletop wargames.

The public API, re-exported from small modules:

* geometry — :mod:`wargamekit.geometry` (hex and locale maps);
* chance — :class:`Dice` and its services, :mod:`wargamekit.odds`;
* flow — :class:`Game`, decisions, players, sequencers, the :class:`InterruptStack`;
* plugins — :class:`Ruleset`, :data:`hookimpl`, :func:`find_ruleset`.
"""

from .context import RulesContext
from .decisions import Choose, ChooseNumber, ChooseSubset, Data, Decision, LazyOptions, Option, YesNo, ask
from .dice import Dice, Die, PoolRoll, Roll, ScriptedDice, SeededDice
from .errors import (
    BranchLimitError,
    DecisionLimitError,
    DiceScriptError,
    GameOverError,
    IllegalChoiceError,
    InvalidChoiceError,
    NotYourTurnError,
    OptionError,
    QuitGame,
    SaveError,
    ScenarioError,
    StaleOptionError,
    UnknownRulesetError,
    UnknownScenarioError,
    UnresolvedItemError,
    WargamekitError,
)
from .events import Event, Outcome
from .game import Game
from .interrupts import InterruptStack, Response, TimingPoint
from .players import Player, RandomBot, ScriptedPlayer, SeededBot, TerminalPlayer
from .plugins import find_ruleset, hookimpl, installed_rulesets, plugin_manager
from .ruleset import Ruleset
from .saves import SaveFile
from .view import PlayerView

__version__ = "0.1.0"

__all__ = [
    "BranchLimitError",
    "Choose",
    "ChooseNumber",
    "ChooseSubset",
    "Data",
    "Decision",
    "DecisionLimitError",
    "Dice",
    "DiceScriptError",
    "Die",
    "Event",
    "Game",
    "GameOverError",
    "IllegalChoiceError",
    "InterruptStack",
    "InvalidChoiceError",
    "LazyOptions",
    "NotYourTurnError",
    "Option",
    "OptionError",
    "Outcome",
    "Player",
    "PlayerView",
    "PoolRoll",
    "QuitGame",
    "RandomBot",
    "Response",
    "Roll",
    "RulesContext",
    "Ruleset",
    "SaveError",
    "SaveFile",
    "ScenarioError",
    "StaleOptionError",
    "ScriptedDice",
    "ScriptedPlayer",
    "SeededBot",
    "SeededDice",
    "TerminalPlayer",
    "TimingPoint",
    "UnknownRulesetError",
    "UnknownScenarioError",
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
