"""The game driver: runs a ruleset's procedure, hands decisions to players, keeps the log.

The log is the truth: a game is fully determined by its ruleset (and version), scenario, seed,
options and the list of recorded answers. Saving writes exactly that; loading, undo and fork
replay it (one replay routine serves all of them). Nothing depends on hash order or wall time,
so the same inputs give a byte-identical log.

A ruleset may mark *checkpoints* in its procedure (``yield ctx.checkpoint("turn 3")``): points
where play can restart from the state alone. The game keeps a sparse ladder of snapshots there,
so a replay starts from the latest snapshot on its path and answers only the choices since; a
ruleset without checkpoints replays from the start, as before. Either way the log is the same,
byte for byte (:func:`wargamekit.testing.check_ruleset` checks it).

An answer is checked against the pending decision *before* anything changes. If the ruleset
itself rejects a choice deeper down (raising :class:`~wargamekit.errors.IllegalChoiceError`), or
fails in any other way, the game is rebuilt by replay to exactly the state before the answer,
and the error re-raised.

The rules never see the :class:`Game`: :meth:`Ruleset.play <wargamekit.ruleset.Ruleset.play>`
receives a :class:`~wargamekit.context.RulesContext`, and players a
:class:`~wargamekit.view.PlayerView`.
"""

from __future__ import annotations

import contextlib
import copy
import json
import marshal
import weakref
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import attrs
import numpy as np
from attrs import define, field, frozen

from ._fastbuild import builder
from ._fastpickle import dumps_sharing, loads_sharing
from .context import Checkpoint, RulesContext
from .decisions import Answer, Choose, Decision, LazyOptions, _answered_before, _asked_again, _label_of, _seal
from .dice import Dice, Roll, SeededDice
from .errors import (
    CheckpointError,
    DecisionLimitError,
    GameOverError,
    IllegalChoiceError,
    InvalidChoiceError,
    NotYourTurnError,
    SaveError,
    UnknownScenarioError,
    WargamekitError,
)
from .events import Event, Outcome, _Recorder, is_plain_int, logged_event
from .hookspecs import ObservedGame
from .interrupts import InterruptStack
from .players import reads_view_only
from .ruleset import Ruleset
from .saves import SAVE_FORMAT, SaveFile, log_digest, log_hasher
from .view import PlayerView

if TYPE_CHECKING:
    import pluggy

    from .players import Player
    from .snapshot_cache import SnapshotCache

__all__ = ["DEFAULT_DECISION_LIMIT", "SNAPSHOT_LIMIT", "SNAPSHOT_SPACING", "Game"]

#: A game asking more decisions than this is assumed to loop forever.
DEFAULT_DECISION_LIMIT = 200_000

#: How Game.play makes the view it hands a player at every decision: made, then initialised
#: (cheaper than calling the class, whose keyword argument Python passes through a dict).
_new_view = object.__new__
_init_view = PlayerView.__init__

#: What a replay rebuilds (and puts back if the replay fails).
_REPLAYED = ("choices", "pending", "outcome", "_ctx", "_procedure", "_snapshots", "_log_base", "_skipped")

#: A snapshot is kept at a checkpoint only this many answers after the previous one (a ruleset
#: with a checkpoint every impulse does not pay a state copy every impulse) ...
SNAPSHOT_SPACING = 8
#: ... and at most this many are kept: past it, the older half is thinned to every other one,
#: so the ladder stays dense near the present and sparse toward the start (bounded memory).
SNAPSHOT_LIMIT = 32
#: How many play-throughs' ladders a load in this process may start from (most recent first).
_LADDER_CACHE_SIZE = 16


@frozen
class _Snapshot:
    """What a restart at a checkpoint needs, taken when the procedure yielded it.

    ``frozen`` holds the state, the scenario, the dice (their generator included) and the
    interrupt stack's answered keys and switch, copied together (so references between them
    survive) as pickle bytes — immutable, so forks share snapshots — or, for a state pickle
    refuses, as a deep copy that every restore copies again. ``shared`` holds the objects of the
    ruleset's :attr:`~wargamekit.ruleset.Ruleset.shared_types` that the bytes refer to rather
    than copy (they never change, so every restore may hold the same ones).
    """

    position: int  # answers given when the checkpoint was reached
    label: str
    choices: tuple[Answer, ...]
    events: list[Event]  # the log the game was writing (append-only: its prefix never changes)
    n_events: int
    rolls: list[Roll]  # the dice's record of rolls, append-only too (kept out of the copy)
    n_rolls: int
    frozen: Any
    pickled: bool
    shared: tuple[Any, ...] = ()
    #: the SHA-256 of the log up to here, once a load has needed it (see prefix_digest)
    _digest: list[Any] = field(factory=list, eq=False)
    #: (n, the SHA-256 of ``events[:n]``'s lines) of the last save of the game writing ``events``
    _saved: list[tuple[int, Any]] = field(factory=list, eq=False)

    def thaw(self) -> tuple[Any, Any, Dice, set[Any], bool]:
        parts = loads_sharing(self.frozen, self.shared) if self.pickled else copy.deepcopy(self.frozen)
        parts[2].rolls = self.rolls[: self.n_rolls]
        return parts

    def prefix_digest(self) -> Any:
        """A SHA-256 hasher fed the log's lines up to this checkpoint (as :func:`log_digest`
        feeds them), computed once: a load restarting here hashes only the lines since."""
        if not self._digest:
            self._digest.append(log_hasher(e.to_json() for e in self.events[: self.n_events]))
        return self._digest[0]


#: Hot: a snapshot every SNAPSHOT_SPACING answers or so (aig ~37 a game), written as a
#: _SnapshotBuilder by plain writes and turned into a _Snapshot (see _fastbuild): attrs' frozen
#: __init__ set its twelve fields through a call each, three times the cost.
_SnapshotBuilder = builder(_Snapshot)


def _new_snapshot(
    position: int, label: str, choices: tuple[Answer, ...], events: list[Event], n_events: int,
    rolls: list[Roll], n_rolls: int, frozen: Any, pickled: bool, shared: tuple[Any, ...],
) -> _Snapshot:
    """``_Snapshot(position, label, ..., shared)`` by plain writes (see ``_SnapshotBuilder``)."""
    snapshot = object.__new__(_SnapshotBuilder)
    snapshot.position = position
    snapshot.label = label
    snapshot.choices = choices
    snapshot.events = events
    snapshot.n_events = n_events
    snapshot.rolls = rolls
    snapshot.n_rolls = n_rolls
    snapshot.frozen = frozen
    snapshot.pickled = pickled
    snapshot.shared = shared
    snapshot._digest = []
    snapshot._saved = []
    snapshot.__class__ = _Snapshot
    built: _Snapshot = snapshot
    return built


#: (ruleset, plugin manager, seed, scenario name, options) → the games that last played them
#: (most recent last), so a load in the same process starts from their snapshots. Weak: it
#: keeps no game alive. Several, because a game loaded and dropped must not hide the one still
#: played. The scenario's data is not in the key (canonicalising it cost a load, and every
#: game at its first snapshot, up to 90 µs): a game found here is taken only if its data is
#: the same (:meth:`Game._scenario_form`, :func:`_twin`).
_LADDERS: OrderedDict[tuple[Any, ...], list[weakref.ref[Game]]] = OrderedDict()
#: how many games of the same key _LADDERS remembers
_LADDER_GAMES = 4


def _check_seed(seed: Any) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidChoiceError(f"the seed must be a whole number 0 or more, got {seed!r}")
    return int(seed)


def _resolve_ruleset(ruleset: Ruleset | str) -> Ruleset:
    if isinstance(ruleset, Ruleset):
        return ruleset
    if isinstance(ruleset, str):
        from .plugins import find_ruleset

        return find_ruleset(ruleset)
    raise TypeError(f"expected a Ruleset or an installed ruleset's name, got {ruleset!r}")


@define(eq=False)
class Game:
    """One game of a ruleset. Build it with :meth:`new` or :meth:`load`.

    Attributes:
        ruleset: the ruleset being played.
        scenario_data: the raw scenario data the game was built from.
        scenario_name: the bundled scenario's name, or ``None``.
        seed: the dice seed.
        options: the optional rules in force (every option, defaults included).
        choices: every recorded answer so far.
        pending: the decision waiting for an answer, or ``None`` when the game is over.
        outcome: how the game ended, once it has.
        plugin_manager: where the ``wargamekit_event`` observer hook goes and where rules find
            their add-on plugins' hooks (``None``: no plugins). Give it to :meth:`new` or
            :meth:`load`: a play-through decides when it starts whether the game hears its
            events (a game without a manager has no event sink, which keeps it cheap), and its
            rules context keeps the hooks it was given. A manager assigned to a game already
            started therefore gets no ``wargamekit_event`` announcements, and the rules see no
            hooks, until the game next restarts (an undo or a replay).
    """

    ruleset: Ruleset
    scenario_data: dict[str, Any]
    scenario_name: str | None
    seed: int
    options: dict[str, Any]
    choices: list[Answer] = field(factory=list)
    pending: Decision | None = None
    outcome: Outcome | None = None
    plugin_manager: pluggy.PluginManager | None = field(default=None, repr=False)
    _dice_template: Dice | None = field(default=None, repr=False)
    #: the structured scenario as loaded; every (re)start plays on a fresh copy of it
    _scenario_template: Any = field(default=None, repr=False)
    _ctx: RulesContext[Any, Any] | None = field(default=None, repr=False)
    _procedure: Any = field(default=None, repr=False)
    _replaying: bool = field(default=False, repr=False)
    #: events of the answer being applied, told to observers only once the answer stands
    _unannounced: list[Event] | None = field(default=None, repr=False)
    #: (event, the copy observers were given), for the log so far
    _observed: list[tuple[Event, Event]] = field(factory=list, repr=False)
    #: snapshots taken at checkpoints on this game's path, oldest first (see SNAPSHOT_SPACING)
    _snapshots: list[_Snapshot] = field(factory=list, repr=False)
    #: ``None``: keep no snapshots (``Game.new(..., snapshots=False)``)
    _snapshot_spacing: int | None = field(factory=lambda: SNAPSHOT_SPACING, repr=False)
    _ladder_key: tuple[Any, ...] | None = field(default=None, repr=False)
    #: the scenario data's canonical form, once a load has compared it (see _scenario_form)
    _scenario_bytes: bytes | None = field(default=None, repr=False)
    #: (the ladder, the answers given) when the ladder last reached the latest checkpoint passed
    _tight: tuple[list[_Snapshot], int] | None = field(default=None, repr=False)
    #: the answers given at the latest checkpoint of this play-through that took no snapshot
    #: (within SNAPSHOT_SPACING of the last one), or None: what a save's ladder may lack
    _skipped: int | None = field(default=None, repr=False)
    #: whether the game's ladder is one a load may start from (not a copy made for its snapshots)
    _listed: bool = field(default=True, repr=False)
    #: the snapshot the current play-through restarted at (its events begin the log), or None
    _log_base: _Snapshot | None = field(default=None, repr=False)

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        ruleset: Ruleset | str,
        scenario: str | Mapping[str, Any] | None = None,
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        dice: Dice | None = None,
        plugin_manager: pluggy.PluginManager | None = None,
        snapshots: bool = True,
    ) -> Game:
        """Start a game and run it to its first decision.

        Args:
            ruleset: the ruleset, or an installed ruleset's name.
            scenario: a bundled scenario's name (default ``"default"``) or raw scenario data.
            seed: the dice seed (a whole number, 0 or more).
            options: optional rules; unknown names and values of the wrong kind are refused.
            dice: a dice service to use instead of ``SeededDice(seed)`` (tests pass a
                :class:`~wargamekit.dice.ScriptedDice`); replays start from a copy of it.
            plugin_manager: where to send the ``wargamekit_event`` observer hook and where a
                ruleset finds its add-on plugins' hooks. ``None`` (the default): no plugins.
            snapshots: keep snapshots of the state at the ruleset's checkpoints (the default),
                so :meth:`undo`, :meth:`fork`, :meth:`replay` and a load in this process replay
                only the answers since the last one. ``False`` takes none — they replay from
                the first answer (or from the snapshots of a live game of the same inputs, as a
                load does), and the game's forks and replays take none either; a save given a
                snapshot cache replays the game once to take them — for games played through
                and dropped, as a balance study's are (``wargamekit.simulate``): the snapshots
                add 6–24 % to a random-bot game's time (``docs/design.md``, "Checkpoints"). The
                log is the same either way.

        Raises:
            UnknownRulesetError: no installed ruleset has that name.
            UnknownScenarioError: the ruleset bundles no scenario of that name.
            ScenarioError: the scenario data is malformed (the path names the bad field).
            InvalidChoiceError: a bad seed or option, or ``snapshots`` not ``True`` or ``False``.
        """
        if not isinstance(snapshots, bool):
            raise InvalidChoiceError(f"snapshots: expected True or False, got {snapshots!r}")
        game = cls._prepare(
            _resolve_ruleset(ruleset), scenario, seed=seed, options=options, dice=dice,
            plugin_manager=plugin_manager,
        )
        if not snapshots:
            game._snapshot_spacing = None
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
        twin: bool = False,
        saved_name: str | None = None,
    ) -> Game:
        """Check the inputs of :meth:`new` and build the game, not yet started.

        With ``twin`` (a load of a save naming its scenario ``saved_name``), a live game of this
        process with the very same inputs lends its scenario data and structured scenario:
        those inputs were checked when it was built.
        """
        if twin and dice is None and isinstance(scenario, Mapping):
            found = _twin(ruleset, scenario, seed=seed, scenario_name=saved_name, options=options,
                          plugin_manager=plugin_manager)
            if found is not None:
                return cls(
                    ruleset=ruleset,
                    scenario_data=found.scenario_data,  # never changed: replays share it too
                    scenario_name=None,
                    seed=found.seed,
                    options=dict(found.options),
                    plugin_manager=plugin_manager,
                    scenario_template=found._scenario_template,
                    ladder_key=found._ladder_key,
                    scenario_bytes=found._scenario_bytes,
                )
        scenario_name: str | None
        if scenario is None or isinstance(scenario, str):
            scenario_name = scenario or "default"
            data = ruleset.scenario_data(scenario_name)
        elif isinstance(scenario, Mapping):
            from .scenario import copy_data  # here: importing cattrs is no cost of ``import wargamekit``

            scenario_name = None
            data = copy_data(dict(scenario))  # the caller's later changes are not the game's
        else:
            raise TypeError(f"scenario: expected a bundled scenario's name or a mapping, got {scenario!r}")
        seed = _check_seed(seed)
        structured = ruleset.load_scenario(data, source=scenario_name)
        merged = ruleset.resolve_options(options)
        template = copy.deepcopy(dice) if dice is not None else None
        return cls(
            ruleset=ruleset,
            scenario_data=data,
            scenario_name=scenario_name,
            seed=seed,
            options=merged,
            plugin_manager=plugin_manager,
            dice_template=template,
            scenario_template=structured,
        )

    def _start(self) -> None:
        # Every (re)start plays on a fresh copy of the scenario as loaded: a ruleset that changes
        # its scenario object during play must not change what a replay starts from (unless the
        # ruleset declares its scenario type shared: never changed in play).
        dice = copy.deepcopy(self._dice_template) if self._dice_template else SeededDice(self.seed)
        scenario = self._scenario_template
        if type(scenario) not in self.ruleset.shared_type_set:  # a shared type never changes in play
            scenario = copy.deepcopy(scenario)
        ctx = self._new_context(scenario, None, dice, InterruptStack(), [])
        self._log_base = None
        self._skipped = None
        self.choices = []
        self._snapshots = []
        ctx.state = self.ruleset.setup(scenario, self.options)
        self._procedure = self.ruleset.play(ctx)
        self._advance(None, first=True)

    def _new_context(
        self, scenario: Any, state: Any, dice: Dice, interrupts: InterruptStack, events: list[Event]
    ) -> RulesContext[Any, Any]:
        """A fresh context for a play-through (a start or a restart at a checkpoint)."""
        # Nothing the context holds refers back to the game (or to the context): see _Recorder.
        # Events go to the game only if it has observers to tell, and then through a weak
        # reference.
        sink = None if self.plugin_manager is None else _weak_sink(self)
        recorder = _Recorder(events, sink)
        dice.on_roll = recorder.roll
        interrupts.on_event = recorder.event
        ctx: RulesContext[Any, Any] = RulesContext(
            ruleset=self.ruleset,
            scenario=scenario,
            options=_ReadOnlyOptions(self.options),
            state=state,
            dice=dice,
            interrupts=interrupts,
            hooks=self.hooks,
            events=events,
            sink=sink,
        )
        self._ctx = ctx
        self.outcome = None
        self.pending = None
        return ctx

    # -- checkpoints -----------------------------------------------------------------------
    @property
    def checkpoints(self) -> tuple[tuple[int, str], ...]:
        """The snapshots this game holds, oldest first, as ``(answers given, label)``: where a
        replay (undo, fork, load, a rebuild) may start instead of the first decision."""
        return tuple((snap.position, snap.label) for snap in self._snapshots)

    def _reached(self, checkpoint: Checkpoint) -> None:
        """The procedure yielded ``checkpoint``: keep a snapshot there if the ladder wants one."""
        ctx = self.context
        if ctx.interrupts.items:  # pushed after ctx.checkpoint() checked, before the yield
            raise CheckpointError(
                f"{self.ruleset.name}: checkpoint {checkpoint.label!r} is inside a response window "
                "(the interrupt stack is not empty)"
            )
        spacing = self._snapshot_spacing
        if spacing is None:
            return  # Game.new(..., snapshots=False): a game played through and dropped
        position = len(self.choices)
        if self._snapshots and position - self._snapshots[-1].position < spacing:
            self._skipped = position
            return
        dice = ctx.dice
        # The game's callback is not the dice's state, and their record of rolls only grows:
        # keep the list and its length rather than copy the whole game's rolls every time.
        on_roll, rolls, dice.on_roll, dice.rolls = dice.on_roll, dice.rolls, None, []
        try:
            parts = (ctx.state, ctx.scenario, dice, ctx.interrupts.answered, ctx.interrupts.enabled)
            frozen_parts: Any
            shared: tuple[Any, ...] = ()
            try:
                # hot: see _fastpickle; what never changes (the ruleset's shared types) is not copied
                frozen_parts, shared = dumps_sharing(parts, self.ruleset.shared_type_set)
                pickled = True
            except Exception:  # noqa: BLE001 - a state holding a lambda: copy it the slow way
                frozen_parts, pickled = copy.deepcopy(parts), False
        finally:
            dice.on_roll, dice.rolls = on_roll, rolls
        self._snapshots.append(
            _new_snapshot(position, checkpoint.label, tuple(self.choices), ctx._events, len(ctx._events),
                          rolls, len(rolls), frozen_parts, pickled, shared)
        )
        if len(self._snapshots) > SNAPSHOT_LIMIT:
            half = len(self._snapshots) // 2
            self._snapshots = self._snapshots[:half][::2] + self._snapshots[half:]
        self._register_ladder()

    def _key(self) -> tuple[Any, ...]:
        """The games that may be this game (see :func:`_ladder_key`); :meth:`_scenario_form`
        says which of them are."""
        if self._ladder_key is None:
            self._ladder_key = _ladder_key(self.ruleset, self.plugin_manager, self.seed, self.scenario_name,
                                           self.options)
        return self._ladder_key

    def _scenario_form(self) -> bytes | None:
        """The scenario data with its keys sorted (as a save writes them) as
        :func:`wargamekit.scenario.plain_data_key` gives it, computed once (``None``: data that is
        not plain, or keys that do not sort). Equal bytes mean equal data of equal types in the
        same order (``1``, ``1.0`` and ``True`` apart, a tuple from a list, an int key from a
        string; data holding a subclass, a numpy scalar or bytes has no form): two games with
        equal forms are the same game, and a save's parse has this game's form only if it is
        this game's data."""
        if self._scenario_bytes is None:
            from .scenario import plain_data_key, sorted_data
            try:
                # Sorted, not through JSON: JSON would make a tuple the list, an int key the
                # string, a numpy float the float a save's parse gives, and lend a load this
                # game's data of other types; as it is, only data JSON gives back unchanged
                # can equal a parse's (plain_data_key refuses subclasses and numpy's scalars).
                form = plain_data_key(sorted_data(self.scenario_data))
            except (TypeError, RecursionError):  # keys that do not sort, or too deep: no twin
                form = None
            self._scenario_bytes = form or b""  # b"": tried, none
        return self._scenario_bytes or None

    def _same_scenario(self, other: Game) -> bool:
        """Whether ``other``, a game of the same :meth:`_key`, plays the same scenario data."""
        if other.scenario_data is self.scenario_data:  # forks, replays and twins share it
            return True
        form = self._scenario_form()
        return form is not None and form == other._scenario_form()

    def _register_ladder(self) -> None:
        if self._dice_template is not None or not self._listed:
            # custom dice are not a seed: nothing else can have the same inputs; a copy made
            # only for its snapshots (_tight_ladder) is no game a load should start from
            return
        key = self._key()
        refs = _LADDERS.get(key)
        if refs is None:
            refs = _LADDERS[key] = []
        elif refs[-1]() is self:
            return  # already the most recent (every snapshot of a game registers it)
        refs[:] = [ref for ref in refs if (game := ref()) is not None and game is not self][1 - _LADDER_GAMES :]
        refs.append(weakref.ref(self))
        _LADDERS.move_to_end(key)
        while len(_LADDERS) > _LADDER_CACHE_SIZE:
            _LADDERS.popitem(last=False)

    def _start_point(self, choices: list[Answer]) -> tuple[_Snapshot, list[_Snapshot]] | None:
        """The latest snapshot on the path of ``choices`` and the ladder holding it (this
        game's, else that of the last game in this process with the same inputs), or ``None``."""
        if self._snapshots or self._dice_template is not None:
            ladders = [self._snapshots]
        else:
            ladders = [
                game._snapshots for game in _ladder_games(self._key())
                if game.ruleset is self.ruleset and self._same_scenario(game)
            ]
        best: tuple[_Snapshot, list[_Snapshot]] | None = None
        for ladder in ladders:
            for index in range(len(ladder) - 1, -1, -1):
                snap = ladder[index]
                if best is not None and snap.position <= best[0].position:
                    break
                if snap.position <= len(choices) and list(snap.choices) == choices[: snap.position]:
                    best = snap, ladder[: index + 1]
                    break
        return best

    def _restore(self, snap: _Snapshot, ladder: list[_Snapshot]) -> None:
        """Restart the procedure at ``snap`` (the last of ``ladder``, the snapshots on its path):
        a fresh context on a copy of what it saved."""
        state, scenario, dice, answered, enabled = snap.thaw()
        interrupts = InterruptStack(enabled=enabled, answered=answered)
        ctx = self._new_context(scenario, state, dice, interrupts, snap.events[: snap.n_events])
        self._log_base = snap
        self._skipped = None
        self.choices = list(snap.choices)
        self._snapshots = ladder
        self._procedure = self.ruleset.play(ctx)
        where = f"{self.ruleset.name}.play() restarted at checkpoint {snap.label!r} (answer {snap.position})"
        try:
            first = next(self._procedure)
        except StopIteration:
            raise CheckpointError(f"{where} ended without reaching it") from None
        if len(ctx._events) != snap.n_events:
            raise CheckpointError(
                f"{where} logged {ctx._events[snap.n_events].text!r} before reaching it: a restart "
                "must reach its checkpoint from the state alone, with no roll or event before it"
            )
        if not isinstance(first, Checkpoint) or first.label != snap.label:
            raise CheckpointError(
                f"{where} yielded {first!r} first: a restart must reach the same checkpoint before "
                "anything else (keep what the procedure has done in the state, and skip it there)"
            )
        self._advance(None)

    # -- what the rules hold (read them; only the rules change them) -----------------------
    @property
    def context(self) -> RulesContext[Any, Any]:
        """The rules context of the current play-through (what the rules see)."""
        assert self._ctx is not None, "the game has not started"
        return self._ctx

    @property
    def state(self) -> Any:
        """The ruleset's live game state."""
        return self.context.state

    @property
    def scenario(self) -> Any:
        """The structured scenario of this play-through. Read it: a scenario of one of the
        ruleset's :attr:`~wargamekit.ruleset.Ruleset.shared_types` is not copied per game or
        restart (it never changes once loaded), so a change made here would reach the game's
        replays and, where the ruleset shares it between games of equal data (aig), those."""
        return self.context.scenario

    @property
    def dice(self) -> Dice:
        """The dice service (every random draw goes through it)."""
        return self.context.dice

    @property
    def interrupts(self) -> InterruptStack:
        """The interrupt stack shared by every response window."""
        return self.context.interrupts

    @property
    def log(self) -> list[Event]:
        """Every event so far, oldest first."""
        return self.context._events

    @property
    def hooks(self) -> Any:
        """The plugin manager's hook relay (``game.hooks.some_hook(...)``), or ``None``."""
        return None if self.plugin_manager is None else self.plugin_manager.hook

    def _on_event(self, event: Event) -> None:
        if self._unannounced is not None:
            self._unannounced.append(event)
        else:
            self._announce(event)

    def _announce(self, event: Event) -> None:
        if self.plugin_manager is None or self._replaying:
            return
        hook = self.plugin_manager.hook.wargamekit_event
        if not hook.get_hookimpls():
            return
        # Observers get copies and a frozen record, never the game (or its live log): an
        # observer that could change the game would make replays depend on who watched.
        log = self.log
        index = next(i for i in range(len(log) - 1, -1, -1) if log[i] is event)
        observed = self._observed
        if observed and (len(observed) > index + 1 or log[len(observed) - 1] is not observed[-1][0]):
            observed.clear()  # the log was rebuilt (undo, a rejected answer): copy afresh
        observed.extend((e, attrs.evolve(e)) for e in log[len(observed) : index + 1])
        record = ObservedGame(
            ruleset=self.ruleset.name,
            ruleset_version=self.ruleset.version,
            scenario_name=self.scenario_name,
            seed=self.seed,
            log=tuple(copy for _, copy in observed),
        )
        hook(game=record, event=record.log[-1])

    # -- driving ---------------------------------------------------------------------------
    def _advance(self, value: Any, *, first: bool = False) -> None:
        try:
            item = next(self._procedure) if first else self._procedure.send(value)
            while isinstance(item, Checkpoint):
                self._reached(item)
                item = self._procedure.send(None)
        except StopIteration as stop:
            if not isinstance(stop.value, Outcome):
                raise TypeError(
                    f"{self.ruleset.name}.play() must return an Outcome, returned {stop.value!r}"
                ) from None
            self.pending = None
            self.outcome = stop.value
            result = f"{stop.value.winner} wins" if stop.value.winner else "a draw"
            self.context.event("end", f"Game over: {result} — {stop.value.reason}", **stop.value.to_json())
            return
        if not isinstance(item, Decision):
            raise TypeError(f"{self.ruleset.name}.play() yielded {item!r}, not a Decision")
        # A decision is asked once: one yielded again after its answer is sealed (see
        # decisions._seal) and could be neither read nor answered. Hot (every decision): looked
        # at only if it is the decision just answered (still pending here), the case of a rule
        # that asks again; one answered earlier is not looked for (a flag test of every lazy
        # menu yielded cost aig +0.25 %: 75.02 → 75.21 M instructions a game).
        if item is self.pending and _answered_before(item):
            raise _asked_again(item)
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
            OptionError: the ruleset cannot make the chosen option's label (a lazy label, or a
                lazy menu's, that makes no ``str``); nothing of the answer is recorded. (The
                answer reads only the label, which the log writes: a lazy menu's data, and a
                data error, come with the first read of the option.) Or the procedure, going
                on, asks again the decision just answered (a decision is asked once: see
                :func:`~wargamekit.decisions.ask`).
            StaleOptionError: (an ``OptionError``) the procedure, going on, read a part of an
                answered decision (this one or an older one) that was not made before its
                answer (see :class:`~wargamekit.decisions.LazyOptions`).

        Whatever is raised, the game is exactly as before the answer (if the ruleset raised,
        it is rebuilt by replay).

        Once the choice is logged the decision is *sealed*: a label, option or value of it not
        made by then raises :class:`~wargamekit.errors.StaleOptionError` when read later (see
        :class:`~wargamekit.decisions.LazyOptions`) — also if the rules then refuse the answer:
        the game, rebuilt, asks a fresh decision.
        """
        decision = self.pending
        if decision is None:
            raise GameOverError("the game is over; no decision is pending")
        if side is not None and side != decision.side:
            raise NotYourTurnError(f"{decision.prompt}: {decision.side!r} is asked, not {side!r}")
        # Hot: most answers (an index in range of a plain Choose): what check, value_of and
        # describe give, without the three calls. Anything else takes them (and their errors),
        # an index past the end too, whose check raises (a lazy menu's length is read from its
        # values: its len() is a Python call).
        in_range = False
        menu = None  # the lazy menu of an answer in range (sealed below)
        if type(decision) is Choose and type(answer) is int and answer >= 0:
            options = decision.options
            if type(options) is LazyOptions:
                if answer < len(options._values):
                    # the chosen option's label alone (the log's): nothing here reads its data
                    value, described = options._value_and_label(answer)
                    in_range = True
                    menu = options
            elif answer < len(options):
                option = options[answer]
                value = option.value
                public = option.public
                described = _label_of(option) if public is None else public
                in_range = True
        if in_range:
            canonical: Answer = answer
            plain = True  # (an int in range is plain JSON)
        else:
            canonical = decision.check(answer)
            value = decision.value_of(canonical)
            described = decision.describe(canonical)
            plain = type(canonical) is bool or is_plain_int(canonical)
        # (Described before anything is recorded: an option that cannot be made, or a label
        # that fails, leaves the game as it was.)
        ctx = self._ctx
        assert ctx is not None  # a decision is pending: the game has started
        # Events reach the game (to be told to observers once the answer stands) only if it
        # has a plugin manager (see _new_context); without one there is nothing to hold back.
        heard = ctx._sink is not None
        choices = self.choices
        before = len(choices)
        outer = self._unannounced
        if heard:
            self._unannounced = []
        choices.append(canonical)
        side = decision.side
        text = f"{side}: {decision.prompt} -> {described}"
        audience = (side,) if decision.secret else None
        if plain and type(side) is str:
            # Hot: every answer. The data as freezing would make it (keys in sorted order),
            # from values checked to be plain JSON: no copy, no walk (see logged_event); and
            # appended as ctx._append does, inline.
            event = logged_event("choice", text, {"answer": canonical, "side": side}, audience)
            ctx._events.append(event)
            if heard:
                ctx._sink(event)
        else:  # a subset's list (copied by the general path), or a custom decision's answer
            ctx.event("choice", text, audience=audience, side=side, answer=canonical)
        # The choice is logged (its label made): what of the decision is still unmade is never
        # made now, the state about to move on (see decisions._seal). A replay seals too.
        if menu is not None and menu._made is None:
            menu._answered = True  # (_seal's whole work for a lazy menu nobody read: hot)
        else:
            _seal(decision)
        try:
            self._advance(value)
        except Exception:
            # Whatever stopped the procedure (a rule refusing the choice, a scripted die
            # running out, a bug) left the state half-changed and the procedure dead: rebuild.
            self._unannounced = outer
            self._replay(self.choices[:before])
            raise
        except BaseException:
            self._unannounced = outer
            raise
        if heard:
            announced, self._unannounced = self._unannounced, outer
            assert announced is not None
            for event in announced:
                self._announce(event)

    def _replay(self, choices: list[Answer], *, where: str | None = None) -> None:
        """The one replay routine: restart and answer ``choices``, in place and silently for
        observers. If the replay fails, the game is put back exactly as it was.

        Raises:
            SaveError: (when ``where`` names the choices, as a load does) a choice does not
                replay; the message names it as ``{where}[i]``. Without ``where`` the error of
                the failing answer itself is raised.
        """
        before = {name: getattr(self, name) for name in _REPLAYED}
        quiet_before = self._replaying  # a replay inside ``silently()`` stays silent after it
        self._replaying = True
        try:
            start = self._start_point(choices)
            if start is None:
                self._start()
            else:
                self._restore(*start)
            for index in range(len(self.choices), len(choices)):
                choice = choices[index]
                if self.pending is None:
                    raise SaveError(f"{where or 'choice'}[{index}]: the game ended before this choice")
                try:
                    self.answer(choice)
                except (InvalidChoiceError, IllegalChoiceError) as exc:
                    if where is None:
                        raise
                    raise SaveError(f"{where}[{index}] does not replay: {exc}") from None
        except BaseException:
            for name, value in before.items():
                setattr(self, name, value)
            raise
        finally:
            self._replaying = quiet_before

    @contextlib.contextmanager
    def silently(self) -> Iterator[Game]:
        """Answers given inside the ``with`` block are a replay of answers already played:
        observers (``wargamekit_event``) are not told their events, as they are not told a
        load's, an undo's or a fork's. For stepping through a recorded game (the save viewer,
        :func:`wargamekit.viewer.write_viewer`); a game being played should be heard.
        The game is played exactly as outside the block (the log is the same).
        """
        before = self._replaying
        self._replaying = True
        try:
            yield self
        finally:
            self._replaying = before

    def play(
        self,
        players: Mapping[str, Player],
        *,
        max_decisions: int = DEFAULT_DECISION_LIMIT,
        before_ask: Callable[[Game, Decision], None] | None = None,
        after_answer: Callable[[Game], None] | None = None,
        retry: Collection[str] = (),
        on_illegal: Callable[[str, WargamekitError], None] | None = None,
        until: Callable[[Game], bool] | None = None,
    ) -> Outcome | None:
        """Let ``players`` (one per side) answer until the game ends (or ``until`` says stop):
        the one driving loop (the CLI, :mod:`wargamekit.testing` and the scripts build on it).

        Args:
            players: side → player.
            max_decisions: answers this call may give before the game is deemed endless.
            before_ask: called before a player is asked (a terminal prints the news there).
            after_answer: called after each answer stands (invariant checks, progress bars).
            retry: sides whose unreadable or illegal answers are reported to ``on_illegal``
                and asked again, instead of raised (humans at a terminal).
            on_illegal: told ``(side, error)`` for each retried answer.
            until: asked before each decision; ``True`` stops the loop there, the decision
                still pending (a script that draws the position after turn 2).

        Each player's read-only promise (see :class:`~wargamekit.players.Player`) is read once
        per call, when that player is first asked (a player seated in ``players`` during the
        call is asked from its side's next decision on).

        Returns:
            The outcome, or ``None`` when ``until`` stopped the game before its end.

        Raises:
            DecisionLimitError: more than ``max_decisions`` answers.
            QuitGame: a player quit; the game is exactly as before that decision.
        """
        missing = sorted(set(self.ruleset.sides) - set(players))
        if missing:
            raise InvalidChoiceError(f"no player for side(s) {missing}")
        # Each side's player and whether it made the read-only promise (a class attribute),
        # read once per player rather than at every decision; the player itself is looked up
        # at every decision (a hook may seat another).
        seats: dict[str, tuple[Player, bool]] = {}
        count = 0
        while self.pending is not None:
            decision = self.pending
            if until is not None and until(self):
                break
            if count >= max_decisions:
                raise DecisionLimitError(
                    f"{self.ruleset.name}: more than {max_decisions} decisions (seed {self.seed}): "
                    "the game seems endless"
                )
            if before_ask is not None:
                before_ask(self, decision)
            # the pending decision's side's view (as self.view(decision.side), a call less),
            # shared with the live state if the player promised only to read it. Every player,
            # the random bot included, answers through ``choose``: the benchmarks' random games
            # take the path every player takes.
            player = players[decision.side]
            seat = seats.get(decision.side)
            if seat is None or seat[0] is not player:
                seat = seats[decision.side] = (player, reads_view_only(player))
            shared = seat[1]
            view = _new_view(PlayerView)
            _init_view(view, self, decision.side, decision, shared=shared)
            answer = player.choose(decision, view)
            try:
                self.answer(answer)
            except (InvalidChoiceError, IllegalChoiceError) as exc:
                if decision.side not in retry:
                    raise
                if on_illegal is not None:
                    on_illegal(decision.side, exc)
                continue
            count += 1
            if after_answer is not None:
                after_answer(self)
        return self.outcome

    def view(self, side: str | None) -> PlayerView:
        """What ``side`` may see now (``None``: everything)."""
        decision = self.pending if self.pending is not None and self.pending.side == side else None
        return PlayerView(self, side, decision)

    # -- log -------------------------------------------------------------------------------
    def log_lines(self, side: str | None = None) -> list[str]:
        """The log as deterministic JSON lines (only what ``side`` may see, if given)."""
        return [e.to_json() for e in self.log if e.visible_to(side)]

    def log_text(self, side: str | None = None) -> str:
        """The log as one JSON-lines text (what determinism tests compare byte for byte)."""
        return "\n".join(self.log_lines(side)) + "\n"

    def _log_digest(self) -> str:
        """:func:`log_digest` of the whole log; after a restart at a snapshot, the snapshot's
        hash of the lines before it goes on with the lines since (the same bytes hashed)."""
        log = self.log
        base = self._log_base
        if base is None or not base.n_events or log[base.n_events - 1] is not base.events[base.n_events - 1]:
            return log_digest(e.to_json() for e in log)
        if base._saved:
            # The game that took the snapshot went on to log base.events, and its save hashed
            # them: lines that are the same (_same_line) have that hash, at half a line's cost.
            n, hashed = base._saved[0]
            if n == len(log) and all(map(_same_line, log[base.n_events :], base.events[base.n_events : n])):
                return "sha256:" + hashed.hexdigest()
        hasher = base.prefix_digest().copy()
        if len(log) > base.n_events:
            hasher = log_hasher((e.to_json() for e in log[base.n_events :]), hasher)
        return "sha256:" + hasher.hexdigest()

    def _saved_digest(self) -> str:
        """:meth:`_log_digest`, hashing the log once while seeding on the way the log hash of
        each snapshot without one (:meth:`_Snapshot.prefix_digest`): the first load of a save
        then hashes only the lines since the snapshot it restarts at, not the whole log again.
        A snapshot of a copy's log (the checkpoints :meth:`_tight_ladder` added) goes on from
        the hash of the snapshot its copy restarted at, over its own events since."""
        log = self.log
        base = self._log_base
        start, hasher = 0, None
        if base is not None and base.n_events and log[base.n_events - 1] is base.events[base.n_events - 1]:
            start, hasher = base.n_events, base.prefix_digest()
        seeded: list[_Snapshot] = []  # with a hash, of this log or a copy's that began with it
        for snap in self._snapshots:
            n = snap.n_events
            if snap._digest or not n:
                seeded.append(snap)
            elif start <= n <= len(log) and log[n - 1] is snap.events[n - 1]:
                hasher = log_hasher((e.to_json() for e in log[start:n]), hasher)
                snap._digest.append(hasher)
                start = n
                seeded.append(snap)
            else:
                for earlier in reversed(seeded):
                    m = earlier.n_events
                    if m and m <= n and earlier._digest and snap.events[m - 1] is earlier.events[m - 1]:
                        snap._digest.append(log_hasher((e.to_json() for e in snap.events[m:n]), earlier._digest[0]))
                        seeded.append(snap)
                        break
        hasher = log_hasher((e.to_json() for e in log[start:]), hasher)
        for snap in self._snapshots:
            if snap.events is log:  # this play-through's: a load restarting there may compare with it
                snap._saved[:] = [(len(log), hasher)]
        return "sha256:" + hasher.hexdigest()

    # -- saves, undo, fork -----------------------------------------------------------------
    def _tight_ladder(self) -> list[_Snapshot]:
        """This game's snapshots, ending at the latest checkpoint it has passed.

        The ladder skips checkpoints within ``SNAPSHOT_SPACING`` answers of its last snapshot,
        so the answers since that one are replayed here on a copy that snapshots every
        checkpoint (once per position: a second call with no answer between costs nothing). A
        game started with ``snapshots=False`` took none: it is replayed whole."""
        ladder = self._snapshots
        if ladder and ladder[-1].position == len(self.choices):
            return ladder  # its latest snapshot is at the present: nothing to replay for
        if not ladder and self._snapshot_spacing is not None:
            return ladder  # no checkpoint passed (or none in the ruleset)
        if ladder and (self._skipped is None or self._skipped <= ladder[-1].position):
            return ladder  # no checkpoint passed since its last snapshot: a replay would add none
        if self._tight is not None and self._tight[0] is ladder and self._tight[1] == len(self.choices):
            return ladder  # tightened already, and neither answered nor replayed since
        other = self._unplayed_copy(snapshot_spacing=1)
        other._listed = False  # a copy made for its snapshots: not a game a load should start from
        try:
            other._replay(list(self.choices))
        except Exception:  # noqa: BLE001 - the game's own ladder will do
            return ladder
        return other._snapshots

    def _forget_ladder(self) -> None:
        """Take this game out of the ladders a load in this process may start from."""
        if self._ladder_key is None:
            return
        refs = _LADDERS.get(self._ladder_key)
        if refs is not None:
            refs[:] = [ref for ref in refs if ref() is not self]
            if not refs:
                del _LADDERS[self._ladder_key]

    def save(self, *, snapshots: SnapshotCache | None = None) -> SaveFile:
        """The save of this game (write it with :meth:`SaveFile.to_json`).

        A save is where a load of it will restart: the game's snapshot ladder is first made to
        reach the latest checkpoint it has passed (the answers since its last snapshot replayed
        once on a copy), so a load of the save in this process, and an undo or a fork near the
        present, restart there rather than up to ``SNAPSHOT_SPACING`` answers before. A game
        started with ``snapshots=False`` is left without.

        Args:
            snapshots: a snapshot cache to keep this game's latest checkpoint snapshots in, so
                a load of the save in another process starts there instead of at the first
                answer (see :mod:`wargamekit.snapshot_cache`). ``None`` (the default): none.
                A cache that cannot be written is skipped: the save is made all the same.
        """
        if self._dice_template is not None:
            raise SaveError("a game on a custom dice service cannot be saved (its dice are not a seed)")
        from .plugins import addons_in_effect
        from .scenario import copy_data  # deepcopy's result for plain data, in a fraction of its time

        if self._snapshot_spacing is not None:
            tight = self._tight_ladder()
            if tight is not self._snapshots:
                # the copy's ladder: this game's snapshots, then those of the checkpoints since
                self._snapshots = tight
                self._tight = (tight, len(self.choices))
        if snapshots is not None:
            from . import snapshot_cache  # here: plain saves do not import it

            cache = snapshot_cache._active(snapshots)
            if cache is not None:
                snapshot_cache._store(cache, self)
        return SaveFile(
            format=SAVE_FORMAT,
            ruleset=self.ruleset.name,
            ruleset_version=self.ruleset.version,
            scenario_name=self.scenario_name,
            scenario=_saved_scenario(self.scenario_data),
            seed=self.seed,
            options=dict(self.options),
            choices=copy_data(self.choices),
            addons=list(addons_in_effect(self.plugin_manager)),
            log_digest=self._saved_digest(),
        )

    @classmethod
    def load(
        cls,
        save: SaveFile | str | Path,
        *,
        rulesets: Mapping[str, Ruleset] | None = None,
        plugin_manager: pluggy.PluginManager | None | Literal["saved"] = "saved",
        snapshots: SnapshotCache | None = None,
    ) -> Game:
        """Rebuild a game by replaying a save.

        A game runs with the add-ons it was started with: by default (``"saved"``) the
        installed add-ons the save records, by entry-point name (none if it records none, as
        :meth:`new` without a ``plugin_manager``). Given a manager, its add-ons in effect must
        be exactly the recorded ones.

        Args:
            save: a :class:`SaveFile`, or the path of a save file.
            rulesets: name → ruleset; by default the installed rulesets.
            plugin_manager: ``"saved"`` (the default), a manager, or ``None`` (no plugins).
            snapshots: a snapshot cache (:mod:`wargamekit.snapshot_cache`) to start from: the
                latest entry on the save's path is restored and only the answers since are
                replayed; the log digest is checked as ever, and after an entry that replays
                to another log the game is replayed from the first answer (the entry deleted
                if that replay gives the save's log). A load that
                replays from further back writes the game's latest snapshots there. ``None``
                (the default): no cache; a load in the same process still starts from the
                snapshots of a game played there with the same inputs.

        Raises:
            SaveError: the file is malformed; its ruleset is missing or another version; an
                add-on it records is missing or another version, or the game has one it does
                not record; its choices do not replay; or they replay to another log than
                the one saved (a changed seed, answer, ruleset or add-on). Nothing is
                half-loaded.
        """
        if isinstance(save, (str, Path)):
            save = SaveFile.read(save)
        elif not isinstance(save, SaveFile):
            raise SaveError(f"expected a SaveFile or a save file's path, got {save!r}")
        if save.format != SAVE_FORMAT:  # a SaveFile built in code skips the reader's check
            raise SaveError(f"$.format: unsupported save format {save.format!r} (this wargamekit reads format {SAVE_FORMAT})")
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
        if save.scenario_name is not None:
            _check_scenario_name(ruleset, save.scenario_name)
        if isinstance(plugin_manager, str) and plugin_manager != "saved":
            raise TypeError(f"plugin_manager: expected 'saved', a plugin manager or None, got {plugin_manager!r}")
        manager = _saved_plugin_manager(save) if plugin_manager == "saved" else plugin_manager
        _check_addons(save, manager)
        cache = None
        suspect = None  # an entry that went on to another log than the save's
        if snapshots is not None:
            from . import snapshot_cache  # here: plain loads do not import it

            cache = snapshot_cache._active(snapshots)
        if cache is not None:
            start = cls._from_cache(cache, ruleset, manager, save)
            if isinstance(start, Game):
                return start
            suspect = start
        try:
            game = cls._prepare(
                ruleset, save.scenario, seed=save.seed, options=save.options, dice=None,
                plugin_manager=manager, twin=True, saved_name=save.scenario_name,
            )
            game.scenario_name = save.scenario_name
            game._replay(list(save.choices), where="$.choices")
        except SaveError:
            raise
        except WargamekitError as exc:
            raise SaveError(f"the save does not load: {exc}") from None
        digest = game._log_digest()
        if digest != save.log_digest:
            raise SaveError(
                f"$.log_digest: the save's choices replay to another log than the one saved "
                f"({digest[:19]}… instead of {save.log_digest[:19]}…): the seed, an answer, the "
                f"ruleset {save.ruleset} {save.ruleset_version} or an add-on is not what wrote it"
            )
        if cache is not None:
            from . import snapshot_cache

            if suspect is not None:
                # The replay from the first answer gave the save's log, so the entry was wrong,
                # not the save (a save with a wrong digest raised above and left the entry be).
                cache.stats.stale += 1
                cache.discard(suspect)
            if game._snapshots and game._log_base is not game._snapshots[-1]:
                snapshot_cache._store(cache, game)  # replayed past its latest snapshot: keep that one
        return game

    @classmethod
    def _from_cache(
        cls, cache: SnapshotCache, ruleset: Ruleset, manager: pluggy.PluginManager | None, save: SaveFile,
    ) -> Game | str | None:
        """``save`` loaded from the latest entry of ``cache`` on its path; else the caller
        replays it from the first answer, given ``None`` (no entry) or the name of an entry
        that went on to another log than the save's (or whose answers since did not replay):
        the caller deletes that entry only if its own replay gives the save's log, since a
        save with a wrong digest disagrees with a good entry too."""
        from . import snapshot_cache

        if _twin(ruleset, save.scenario, seed=save.seed, scenario_name=save.scenario_name, options=save.options,
                 plugin_manager=manager) is not None:
            return None  # a game of this process with these inputs: its ladder is in memory
        try:
            seed = _check_seed(save.seed)
            options = ruleset.resolve_options(save.options)
            key = _ladder_key(ruleset, manager, seed, save.scenario_name, options)
            scenario_json = _scenario_json(save.scenario)
        except (WargamekitError, TypeError, ValueError):
            return None  # refused, in its usual words, by the ordinary path
        restored = snapshot_cache._restore(cache, ruleset, manager, save, scenario_json, options, seed)
        if restored is None:
            return None
        from .scenario import copy_data

        game = cls(
            ruleset=ruleset,
            scenario_data=copy_data(save.scenario),
            scenario_name=save.scenario_name,
            seed=seed,
            options=options,
            plugin_manager=manager,
            # the entry's name covers the scenario data and the code: this is what it loads to
            scenario_template=restored.scenario_template,
            snapshots=restored.ladder,
            ladder_key=key,
        )
        try:
            game._replay(list(save.choices), where="$.choices")
            stale = game._log_digest() != save.log_digest
        except Exception:  # noqa: BLE001 - whatever the entry did, the ordinary load decides
            stale = True
        if stale:  # the log is the truth: the entry or the save is wrong, the caller's replay says which
            game._forget_ladder()  # its snapshots must not lend a replay their state
            cache.stats.hits -= 1
            cache.stats.misses += 1
            cache.stats.last_position = None
            return restored.name
        game._register_ladder()  # a later load in this process starts from it, without the disk
        return game

    def replay(self, choices: list[Answer] | None = None) -> Game:
        """A new game with the same inputs, replayed through ``choices`` (default: all)."""
        other = self._unplayed_copy(self._snapshot_spacing)
        other._replay(list(self.choices if choices is None else choices))
        return other

    def _unplayed_copy(self, snapshot_spacing: int | None) -> Game:
        """A game with this one's inputs and ladder, not started: what a replay, a fork or a
        copy made for its snapshots (the snapshot cache's) replays on."""
        return type(self)(
            ruleset=self.ruleset,
            scenario_data=self.scenario_data,
            scenario_name=self.scenario_name,
            seed=self.seed,
            options=dict(self.options),
            plugin_manager=self.plugin_manager,
            dice_template=self._dice_template,
            scenario_template=self._scenario_template,
            # snapshots are immutable: the copy starts from this game's ladder
            snapshots=list(self._snapshots),
            snapshot_spacing=snapshot_spacing,
            ladder_key=self._ladder_key,
            scenario_bytes=self._scenario_bytes,
        )

    def fork(self) -> Game:
        """An independent copy at the same position (for search bots and what-ifs)."""
        return self.replay()

    def undo(self, n: int = 1) -> None:
        """Take back the last ``n`` answers, in place, by replay.

        Raises:
            InvalidChoiceError: ``n`` is negative or more than the answers given.
        """
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= len(self.choices):
            raise InvalidChoiceError(f"cannot undo {n!r} of {len(self.choices)} choices")
        self._replay(self.choices[: len(self.choices) - n])


def _weak_sink(game: Game) -> Callable[[Event], None]:
    """``game._on_event`` through a weak reference (see ``wargamekit.events._Recorder``)."""
    ref = weakref.ref(game)

    def sink(event: Event) -> None:
        owner = ref()
        if owner is not None:
            owner._on_event(event)

    return sink


def _ladder_key(
    ruleset: Ruleset, plugin_manager: Any, seed: int, scenario_name: str | None, options: Mapping[str, Any]
) -> tuple[Any, ...]:
    """The games of these inputs but the scenario's data (ids are safe: a live game holds both
    objects); the options as in a save, keys sorted (JSON tells ``1`` from ``true``)."""
    return (id(ruleset), id(plugin_manager), seed, scenario_name, json.dumps(options, sort_keys=True, default=repr))


def _scenario_json(scenario: Mapping[str, Any]) -> str:
    """Scenario data as a save writes it: JSON, keys sorted (what names a snapshot cache entry)."""
    return json.dumps(scenario, sort_keys=True, default=repr)


def _same_line(event: Event, other: Event) -> bool:
    """Whether ``event.to_json() == other.to_json()`` is sure without writing either: the same
    kind, text and audience, and data equal in :mod:`marshal`'s version-2 bytes (equal values
    of equal types in the same order: the same JSON). ``False`` may be a line that is the same
    (keys in another order): the caller then writes the lines."""
    if event is other:
        return True
    if (
        type(event.kind) is not str or type(event.text) is not str
        or event.kind != other.kind or event.text != other.text or event.audience != other.audience
    ):
        return False
    data = _marshal_form(event.data)
    return data is not None and data == _marshal_form(other.data)


def _saved_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of scenario data for a save, its keys sorted as the save's JSON writes them, so a
    save loaded as it is (not through its JSON) finds the live game it came from as a parsed one
    does (see :meth:`Game._scenario_form`); data whose keys do not sort is copied as it is."""
    from .scenario import copy_data, sorted_data

    try:
        sorted_copy: dict[str, Any] = sorted_data(data)
    except (TypeError, RecursionError):
        return copy_data(data)
    return sorted_copy


def _marshal_form(data: Any) -> bytes | None:
    """An event's ``data`` in :mod:`marshal`'s version-2 bytes, or ``None`` if it holds a type
    marshal refuses. For event data only, which freezing made of exact JSON types: marshal
    writes anything with a buffer (a numpy scalar, ``bytes``) as its raw bytes, so data of other
    types goes through :func:`wargamekit.scenario.plain_data_key`, which tests for plain data first."""
    try:
        return marshal.dumps(data, 2)
    except ValueError:
        return None


def _twin(
    ruleset: Ruleset, scenario: Mapping[str, Any], *, seed: Any, scenario_name: Any,
    options: Mapping[str, Any] | None, plugin_manager: Any,
) -> Game | None:
    """The live game of this process (its ladder's) with exactly these inputs, or ``None``.

    ``scenario`` is a save's data: it is compared as it is (a save parsed from its file has its
    keys sorted, as :meth:`Game._scenario_form` puts the live game's), so data with its keys in
    another order, or ``1`` where the game has ``1.0`` or ``True``, finds no twin: the load
    checks and structures it anew."""
    if not _LADDERS:
        return None
    try:
        merged = ruleset.resolve_options(options)
        key = _ladder_key(ruleset, plugin_manager, _check_seed(seed), scenario_name, merged)
        hash(key)  # a scenario name built in code may be anything
    except (WargamekitError, TypeError, ValueError):
        return None  # refused (in its usual order) by the ordinary path
    games = [game for game in _ladder_games(key) if game.ruleset is ruleset and game._scenario_template is not None]
    if not games:
        return None
    from .scenario import plain_data_key

    form = plain_data_key(scenario)
    if form is None:
        return None
    for game in games:
        if game._scenario_form() == form:
            return game
    return None


def _ladder_games(key: tuple[Any, ...]) -> list[Game]:
    """The live games :data:`_LADDERS` holds for ``key``, most recent first."""
    refs = _LADDERS.get(key, ())
    return [game for ref in reversed(refs) if (game := ref()) is not None]


#: ruleset -> the names of its bundled scenarios that a load found: checked once per process
#: (bundled files do not change under it), not by a copy of the scenario's data at every load
_KNOWN_SCENARIOS: weakref.WeakKeyDictionary[Ruleset, set[str]] = weakref.WeakKeyDictionary()


def _check_scenario_name(ruleset: Ruleset, name: str) -> None:
    """Refuse a save naming a scenario the ruleset does not bundle."""
    try:
        known = _KNOWN_SCENARIOS.setdefault(ruleset, set())
    except TypeError:  # a ruleset that is not hashable: checked every time
        known = set()
    if isinstance(name, str) and name in known:
        return
    try:
        ruleset.scenario_data(name)  # that it exists
    except UnknownScenarioError as exc:
        raise SaveError(f"$.scenario_name: {exc}") from None
    if isinstance(name, str):
        known.add(name)


def _saved_plugin_manager(save: SaveFile) -> pluggy.PluginManager | None:
    """The manager a save asks for: its recorded add-ons, installed, by name (``None`` for
    none, as :meth:`Game.new` by default)."""
    if not save.addons:
        return None
    from .errors import UnknownAddonError
    from .plugins import plugin_manager

    try:
        return plugin_manager(addons=[addon.name for addon in save.addons])
    except UnknownAddonError as exc:
        raise SaveError(f"$.addons: the save was played with add-ons {_names(save.addons)}: {exc}") from None


def _names(addons: Any) -> str:
    return ", ".join(str(a) for a in addons) or "none"


def _check_addons(save: SaveFile, manager: pluggy.PluginManager | None) -> None:
    """Refuse a manager whose add-ons in effect are not exactly the save's."""
    if manager is None and not save.addons:
        return  # none recorded, none running (the import and the sets below cost a load ~10 µs)
    from .plugins import addons_in_effect

    saved = {a.name: a for a in save.addons}
    running = {a.name: a for a in addons_in_effect(manager)}
    problems = []
    missing = [saved[n] for n in sorted(saved.keys() - running.keys())]
    if missing:
        problems.append(f"it was played with add-on(s) {_names(missing)}, which this game does not run with")
    extra = [running[n] for n in sorted(running.keys() - saved.keys())]
    if extra:
        problems.append(f"this game runs with add-on(s) {_names(extra)}, which the save was not played with")
    for name in sorted(saved.keys() & running.keys()):
        if saved[name] != running[name]:
            problems.append(f"add-on {saved[name]} wrote it; this game runs {running[name]}")
    if problems:
        raise SaveError("$.addons: " + "; ".join(problems))


class _ReadOnlyOptions(Mapping[str, Any]):
    """The options as rules see them: readable, never changed behind the save's back."""

    __slots__ = ("_options",)

    def __init__(self, options: Mapping[str, Any]) -> None:
        self._options = dict(options)

    def __getitem__(self, name: str) -> Any:
        return self._options[name]

    def __iter__(self) -> Any:
        return iter(self._options)

    def __len__(self) -> int:
        return len(self._options)

    def __repr__(self) -> str:
        return f"options({self._options!r})"
