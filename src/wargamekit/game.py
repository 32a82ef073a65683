"""The game driver: runs a ruleset's procedure, hands decisions to players, keeps the log.

The log is the truth: a game is fully determined by its ruleset (and version), scenario, seed,
options and the list of recorded answers. Saving writes exactly that; loading, undo and fork
replay it. Nothing depends on hash order or wall time, so the same inputs give a
byte-identical log.

An answer is checked against the pending decision *before* anything changes. If the ruleset
itself rejects a choice deeper down (raising :class:`~wargamekit.errors.IllegalChoiceError`), or
fails in any other way, the game is rebuilt by replay to exactly the state before the answer,
and the error re-raised.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from attrs import define, field, frozen

from .decisions import Answer, Decision
from .dice import Dice, Roll, SeededDice
from .errors import (
    IllegalChoiceError,
    InvalidChoiceError,
    NotYourTurnError,
    SaveError,
    WargamekitError,
)
from .events import Event, Outcome, json_default
from .interrupts import InterruptStack
from .ruleset import Ruleset

if TYPE_CHECKING:
    import pluggy

    from .players import Player

__all__ = ["Game", "GameOverError", "PlayerView", "SaveFile", "DEFAULT_DECISION_LIMIT"]

#: What a replay rebuilds (and puts back if the replay fails).
_REPLAYED = (
    "scenario", "state", "dice", "interrupts", "log", "choices", "pending", "outcome", "_procedure",
)

#: A game asking more decisions than this is assumed to loop forever.
DEFAULT_DECISION_LIMIT = 200_000

SAVE_FORMAT = 1


class GameOverError(WargamekitError, ValueError):
    """An answer was given after the game ended."""


def same_kind(value: Any, default: Any) -> bool:
    """Whether an option's ``value`` has the kind of its ``default`` (a number for a float
    rule, a bool only for a bool rule; anything when the default is ``None``)."""
    if default is None:
        return True
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    return isinstance(value, type(default))


def _plain(value: Any) -> Any:
    # numpy scalars (np.bool_, np.int64) would not serialise into a save.
    return value.item() if isinstance(value, np.generic) else value


def _check_seed(seed: Any) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidChoiceError(f"the seed must be a whole number 0 or more, got {seed!r}")
    return int(seed)


@frozen
class SaveFile:
    """Everything needed to reproduce a game: the log is replayed from this.

    Attributes:
        format: the save format version.
        ruleset: the ruleset's registry name.
        ruleset_version: the version that wrote the save; another version refuses to load it.
        scenario_name: the bundled scenario's name, or ``None`` for an inline/file scenario.
        scenario: the raw scenario data, so a save is self-contained.
        seed: the dice seed.
        options: optional rules switched on or off.
        choices: the recorded answers, in order.
    """

    format: int
    ruleset: str
    ruleset_version: str
    scenario_name: str | None
    scenario: dict[str, Any]
    seed: int
    options: dict[str, Any]
    choices: list[Any]

    def to_json(self) -> str:
        """Serialise (deterministically) to JSON text."""
        from .scenario import converter

        return json.dumps(
            converter.unstructure(self), sort_keys=True, indent=1, ensure_ascii=False, default=json_default
        )

    @classmethod
    def from_json(cls, text: str, *, source: str | None = None) -> SaveFile:
        """Parse JSON text, rejecting a malformed file with the path to the bad field."""
        from .errors import ScenarioError
        from .scenario import structure

        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveError(f"{source or 'save'}: not JSON: {exc}") from None
        # Before the fields: another format's fields would only be reported as unknown.
        if isinstance(data, dict) and "format" in data and data["format"] != SAVE_FORMAT:
            raise SaveError(
                f"{source or 'save'}: $.format: unsupported save format {data['format']!r} "
                f"(this wargamekit reads format {SAVE_FORMAT})"
            )
        try:
            return structure(data, cls, source=source or "save")
        except ScenarioError as exc:
            raise SaveError(str(exc)) from None


class PlayerView:
    """What one side may see when asked a decision.

    ``state`` is the ruleset's :meth:`~wargamekit.ruleset.Ruleset.view` for this side, built
    lazily (a random bot never pays for it); ``log`` holds only the events this side may see.
    """

    __slots__ = ("side", "decision", "_game", "_state", "_log")

    def __init__(self, game: Game, side: str, decision: Decision | None) -> None:
        self.side = side
        self.decision = decision
        self._game = game
        self._state: Any = None
        self._log: list[Event] | None = None

    @property
    def state(self) -> Any:
        """The side's view of the game state (a copy; changing it changes nothing)."""
        if self._state is None:
            self._state = self._game.ruleset.view(self._game.state, self.side)
        return self._state

    @property
    def log(self) -> list[Event]:
        """The events this side may see, oldest first."""
        if self._log is None:
            self._log = [e for e in self._game.log if e.visible_to(self.side)]
        return self._log

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset being played (bots call its pure resolution helpers)."""
        return self._game.ruleset

    @property
    def options(self) -> Mapping[str, Any]:
        """The optional rules in force."""
        return dict(self._game.options)


@define(eq=False)
class Game:
    """One game of a ruleset. Build it with :meth:`new` or :meth:`load`.

    Attributes:
        ruleset: the ruleset being played.
        scenario: the structured scenario.
        state: the ruleset's mutable game state.
        dice: the dice service (every random draw goes through it).
        interrupts: the interrupt stack shared by every response window.
        log: every event so far.
        choices: every recorded answer so far.
        pending: the decision waiting for an answer, or ``None`` when the game is over.
        outcome: how the game ended, once it has.
    """

    ruleset: Ruleset
    scenario: Any
    scenario_data: dict[str, Any]
    scenario_name: str | None
    seed: int
    options: dict[str, Any]
    state: Any = None
    dice: Dice = field(factory=SeededDice)
    interrupts: InterruptStack = field(factory=InterruptStack)
    log: list[Event] = field(factory=list)
    choices: list[Answer] = field(factory=list)
    pending: Decision | None = None
    outcome: Outcome | None = None
    plugin_manager: pluggy.PluginManager | None = field(default=None, repr=False)
    _dice_template: Dice | None = field(default=None, repr=False)
    #: the structured scenario as loaded; every (re)start plays on a fresh copy of it
    _scenario_template: Any = field(default=None, repr=False)
    _procedure: Any = field(default=None, repr=False)
    _replaying: bool = field(default=False, repr=False)
    #: events of the answer being applied, told to observers only once the answer stands
    _unannounced: list[Event] | None = field(default=None, repr=False)

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        scenario: str | Mapping[str, Any] | None = None,
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        dice: Dice | None = None,
        plugin_manager: pluggy.PluginManager | None = None,
    ) -> Game:
        """Start a game and run it to its first decision.

        Args:
            ruleset: the ruleset.
            scenario: a bundled scenario's name (default ``"default"``) or raw scenario data.
            seed: the dice seed.
            options: optional rules; unknown names are refused.
            dice: a dice service to use instead of ``SeededDice(seed)`` (tests pass a
                :class:`~wargamekit.dice.ScriptedDice`); replays start from a copy of it.
            plugin_manager: where to send the ``wargamekit_event`` observer hook and where a
                ruleset finds its add-on plugins' hooks.
        """
        game = cls._prepare(
            ruleset, scenario, seed=seed, options=options, dice=dice, plugin_manager=plugin_manager
        )
        game._start()
        return game

    @classmethod
    def _prepare(
        cls,
        ruleset: Ruleset,
        scenario: str | Mapping[str, Any] | None,
        *,
        seed: int,
        options: Mapping[str, Any] | None,
        dice: Dice | None,
        plugin_manager: pluggy.PluginManager | None,
    ) -> Game:
        """Check the inputs of :meth:`new` and build the game, not yet started."""
        scenario_name: str | None
        if scenario is None or isinstance(scenario, str):
            scenario_name = scenario or "default"
            data = ruleset.scenario_data(scenario_name)
        else:
            scenario_name = None
            data = copy.deepcopy(dict(scenario))  # the caller's later changes are not the game's
        seed = _check_seed(seed)
        structured = ruleset.load_scenario(data, source=scenario_name)
        known = dict(ruleset.options())
        given = {name: _plain(value) for name, value in (options or {}).items()}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise InvalidChoiceError(
                f"ruleset {ruleset.name!r} has no option {', '.join(map(repr, unknown))}; "
                f"it has {sorted(known)}"
            )
        for name, value in given.items():
            # A save or caller giving "yes" for a true/false rule must not pass as truthy.
            if not same_kind(value, known[name]):
                raise InvalidChoiceError(
                    f"ruleset {ruleset.name!r} option {name!r}: expected "
                    f"{type(known[name]).__name__} like {known[name]!r}, got {value!r}"
                )
        merged = {**known, **given}
        template = copy.deepcopy(dice) if dice is not None else None
        game = cls(
            ruleset=ruleset,
            scenario=structured,
            scenario_data=data,
            scenario_name=scenario_name,
            seed=seed,
            options=merged,
            plugin_manager=plugin_manager,
            dice_template=template,
        )
        return game

    def _start(self) -> None:
        # A ruleset that changes its scenario object during play must not change what a
        # replay (undo, fork, the rebuild after a rejected choice) starts from.
        if self._scenario_template is None:
            self._scenario_template = copy.deepcopy(self.scenario)
        self.scenario = copy.deepcopy(self._scenario_template)
        self.dice = copy.deepcopy(self._dice_template) if self._dice_template else SeededDice(self.seed)
        self.dice.on_roll = self._on_roll
        self.interrupts = InterruptStack(on_event=self.event)
        self.log = []
        self.choices = []
        self.outcome = None
        self.pending = None
        self.state = self.ruleset.setup(self.scenario, self.options)
        self._procedure = self.ruleset.play(self)
        self._advance(None, first=True)

    # -- what procedures call --------------------------------------------------------------
    @property
    def hooks(self) -> Any:
        """The plugin manager's hook relay (``game.hooks.some_hook(...)``), or ``None``."""
        return None if self.plugin_manager is None else self.plugin_manager.hook

    def event(
        self, kind: str, text: str, *, audience: tuple[str, ...] | str | None = None, **data: Any
    ) -> Event:
        """Append an event to the log (and tell observers); ``audience``: the sides that may
        see it (or one side's name), ``None`` for everyone."""
        try:
            event = Event(kind, text, data, audience)
        except TypeError as exc:  # data that is not JSON
            raise TypeError(f"event {kind!r} ({text}): {exc}") from None
        self.log.append(event)
        if self._unannounced is not None:
            self._unannounced.append(event)
        else:
            self._announce(event)
        return event

    def _announce(self, event: Event) -> None:
        if self.plugin_manager is not None and not self._replaying:
            self.plugin_manager.hook.wargamekit_event(game=self, event=event)

    def _on_roll(self, roll: Roll) -> None:
        faces = " ".join(map(str, roll.faces))
        self.event(
            "roll",
            f"{roll.purpose}: {roll.kind} [{faces}] = {roll.value}",
            audience=roll.audience,
            purpose=roll.purpose,
            dice=roll.kind,
            faces=list(roll.faces),
            value=roll.value,
        )

    # -- driving ---------------------------------------------------------------------------
    def _advance(self, value: Any, *, first: bool = False) -> None:
        try:
            item = next(self._procedure) if first else self._procedure.send(value)
        except StopIteration as stop:
            if not isinstance(stop.value, Outcome):
                raise TypeError(
                    f"{self.ruleset.name}.play() must return an Outcome, returned {stop.value!r}"
                ) from None
            self.pending = None
            self.outcome = stop.value
            result = f"{stop.value.winner} wins" if stop.value.winner else "a draw"
            self.event("end", f"Game over: {result} — {stop.value.reason}", **stop.value.to_json())
            return
        if not isinstance(item, Decision):
            raise TypeError(f"{self.ruleset.name}.play() yielded {item!r}, not a Decision")
        self.pending = item

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def answer(self, answer: Any, *, side: str | None = None) -> None:
        """Answer the pending decision.

        Args:
            answer: the answer in recorded form (an index, list of indices, number or bool).
            side: if given, must be the side being asked.

        Raises:
            GameOverError: the game has ended.
            NotYourTurnError: ``side`` is not the side being asked.
            InvalidChoiceError: the answer cannot be read.
            IllegalChoiceError: the rules forbid it.

        Whatever is raised, the game is exactly as before the answer (if the ruleset raised,
        it is rebuilt by replay).
        """
        decision = self.pending
        if decision is None:
            raise GameOverError("the game is over; no decision is pending")
        if side is not None and side != decision.side:
            raise NotYourTurnError(f"{decision.prompt}: {decision.side!r} is asked, not {side!r}")
        canonical = decision.check(answer)
        value = decision.value_of(canonical)
        before = len(self.choices)
        outer = self._unannounced
        self._unannounced = []
        self.choices.append(canonical)
        self.event(
            "choice",
            f"{decision.side}: {decision.prompt} -> {decision.describe(canonical)}",
            audience=(decision.side,) if decision.secret else None,
            side=decision.side,
            answer=canonical,
        )
        try:
            self._advance(value)
        except Exception:
            # Whatever stopped the procedure (a rule refusing the choice, a scripted die
            # running out, a bug) left the state half-changed and the procedure dead: rebuild.
            self._unannounced = outer
            self._rebuild(self.choices[:before])
            raise
        except BaseException:
            self._unannounced = outer
            raise
        announced, self._unannounced = self._unannounced, outer
        for event in announced:
            self._announce(event)

    def _rebuild(self, choices: list[Answer]) -> None:
        """Replay ``choices`` from the start, in place. Observers are not told again about
        events they have already seen (undo, a rejected choice, a fork)."""
        before = {name: getattr(self, name) for name in _REPLAYED}
        self._replaying = True
        try:
            self._start()
            for index, choice in enumerate(choices):
                if self.pending is None:
                    raise SaveError(f"choice {index} does not replay: the game ended before it")
                self.answer(choice)
        except BaseException:
            # A replay that fails (a ruleset that does not replay the same way) must not leave
            # the game half-rebuilt: put back the position it had.
            for name, value in before.items():
                setattr(self, name, value)
            raise
        finally:
            self._replaying = False

    def play(
        self,
        players: Mapping[str, Player],
        *,
        max_decisions: int = DEFAULT_DECISION_LIMIT,
        on_decision: Callable[[Game], None] | None = None,
    ) -> Outcome:
        """Let ``players`` (one per side) answer until the game ends.

        Raises:
            RuntimeError: the game asked more than ``max_decisions`` decisions (an endless loop).
        """
        missing = sorted({s for s in self.ruleset.sides} - set(players))
        if missing:
            raise ValueError(f"no player for side(s) {missing}")
        count = 0
        while self.pending is not None:
            count += 1
            if count > max_decisions:
                raise RuntimeError(f"{self.ruleset.name}: more than {max_decisions} decisions")
            decision = self.pending
            player = players[decision.side]
            self.answer(player.choose(decision, self.view(decision.side)))
            if on_decision is not None:
                on_decision(self)
        assert self.outcome is not None
        return self.outcome

    def view(self, side: str | None) -> PlayerView:
        """What ``side`` may see now (``None``: everything)."""
        decision = self.pending if self.pending is not None and self.pending.side == side else None
        return PlayerView(self, side, decision)  # type: ignore[arg-type]

    # -- log -------------------------------------------------------------------------------
    def log_lines(self, side: str | None = None) -> list[str]:
        """The log as deterministic JSON lines (only what ``side`` may see, if given)."""
        return [e.to_json() for e in self.log if e.visible_to(side)]

    def log_text(self, side: str | None = None) -> str:
        """The log as one JSON-lines text (what determinism tests compare byte for byte)."""
        return "\n".join(self.log_lines(side)) + "\n"

    # -- saves, undo, fork -----------------------------------------------------------------
    def save(self) -> SaveFile:
        """The save of this game (write it with :meth:`SaveFile.to_json`)."""
        if self._dice_template is not None:
            raise SaveError("a game on a custom dice service cannot be saved (its dice are not a seed)")
        return SaveFile(
            format=SAVE_FORMAT,
            ruleset=self.ruleset.name,
            ruleset_version=self.ruleset.version,
            scenario_name=self.scenario_name,
            scenario=copy.deepcopy(self.scenario_data),
            seed=self.seed,
            options=dict(self.options),
            choices=copy.deepcopy(self.choices),
        )

    @classmethod
    def load(
        cls,
        save: SaveFile | str | Path,
        *,
        rulesets: Mapping[str, Ruleset] | None = None,
        plugin_manager: pluggy.PluginManager | None = None,
    ) -> Game:
        """Rebuild a game by replaying a save.

        Args:
            save: a :class:`SaveFile`, or the path of a save file.
            rulesets: name → ruleset; by default the installed rulesets.

        Raises:
            SaveError: the file is malformed, its ruleset is missing or another version, or
                its choices do not replay. Nothing is half-loaded.
        """
        if not isinstance(save, SaveFile):
            path = Path(save)
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as exc:
                raise SaveError(f"{path}: cannot read: {exc.strerror}") from None
            save = SaveFile.from_json(text, source=str(path))
        if rulesets is None:
            from .plugins import installed_rulesets

            rulesets = installed_rulesets()
        ruleset = rulesets.get(save.ruleset)
        if ruleset is None:
            raise SaveError(
                f"the save needs ruleset {save.ruleset!r}, which is not installed "
                f"(installed: {sorted(rulesets)})"
            )
        if ruleset.version != save.ruleset_version:
            raise SaveError(
                f"the save was written by {save.ruleset} {save.ruleset_version}; "
                f"the installed version is {ruleset.version}"
            )
        scenario: str | dict[str, Any] = save.scenario
        try:
            game = cls._prepare(
                ruleset, scenario, seed=save.seed, options=save.options, dice=None,
                plugin_manager=plugin_manager,
            )
            game.scenario_name = save.scenario_name
            # A load is a replay: observers are not told the saved events again (nor any
            # event of a save that is then rejected).
            game._replaying = True
            try:
                game._start()
                for index, choice in enumerate(save.choices):
                    if game.pending is None:
                        raise SaveError(f"$.choices[{index}]: the game ended before this choice")
                    try:
                        game.answer(choice)
                    except (InvalidChoiceError, IllegalChoiceError) as exc:
                        raise SaveError(f"$.choices[{index}] does not replay: {exc}") from None
            finally:
                game._replaying = False
        except SaveError:
            raise
        except WargamekitError as exc:
            raise SaveError(f"the save does not load: {exc}") from None
        return game

    def replay(self, choices: list[Answer] | None = None) -> Game:
        """A new game with the same inputs, replayed through ``choices`` (default: all)."""
        other = Game(
            ruleset=self.ruleset,
            scenario=self._scenario_template,
            scenario_data=self.scenario_data,
            scenario_name=self.scenario_name,
            seed=self.seed,
            options=dict(self.options),
            plugin_manager=self.plugin_manager,
            dice_template=self._dice_template,
        )
        other._rebuild(list(self.choices if choices is None else choices))
        return other

    def fork(self) -> Game:
        """An independent copy at the same position (for search bots and what-ifs)."""
        return self.replay()

    def undo(self, n: int = 1) -> None:
        """Take back the last ``n`` answers, in place, by replay."""
        if not 0 <= n <= len(self.choices):
            raise ValueError(f"cannot undo {n} of {len(self.choices)} choices")
        self._rebuild(self.choices[: len(self.choices) - n])
