"""The :class:`Ruleset` base class: what a ruleset plugin provides to the core.

A ruleset is an object (usually one instance per plugin) that a plugin returns from the
:func:`~wargamekit.hookspecs.wargamekit_rulesets` hook. The core calls only the methods below;
everything else about the ruleset is its own business.

The one method that does the work is :meth:`Ruleset.play`: a generator that runs the whole game
on a :class:`~wargamekit.context.RulesContext`, yielding :class:`~wargamekit.decisions.Decision`
objects and returning an :class:`~wargamekit.events.Outcome`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from .decisions import Decision
from .errors import InvalidChoiceError, ScenarioError, UnknownScenarioError
from .events import Outcome

if TYPE_CHECKING:
    import click

    from .context import RulesContext
    from .players import Player

__all__ = ["Procedure", "Ruleset", "other_side", "other_sides", "same_kind"]

#: A rule procedure: yields decisions, receives the chosen values, returns a result.
Procedure = Generator[Decision, Any, Any]


def other_sides(sides: tuple[str, ...] | list[str], side: str) -> tuple[str, ...]:
    """Every side of ``sides`` but ``side``, in order.

    Raises:
        ValueError: ``side`` is not one of ``sides``.

    >>> other_sides(("red", "blue", "green"), "blue")
    ('red', 'green')
    """
    if side not in sides:
        raise ValueError(f"{side!r} is not one of the sides {tuple(sides)}")
    return tuple(s for s in sides if s != side)


def other_side(sides: tuple[str, ...] | list[str], side: str) -> str:
    """The opponent of ``side`` among two ``sides``.

    Raises:
        ValueError: ``side`` is not one of ``sides``, or there are not exactly two sides.

    >>> other_side(("austria", "france"), "france")
    'austria'
    """
    others = other_sides(sides, side)
    if len(others) != 1:
        raise ValueError(f"{len(sides)} sides: 'the other side' of {side!r} is ambiguous")
    return others[0]


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
    import numpy as np

    return value.item() if isinstance(value, np.generic) else value


#: (scenario package, name) -> the bundled scenario file's text, read once per process
_BUNDLED: dict[tuple[str, Any], str] = {}


class Ruleset:
    """Base class for rulesets. Subclass it and override what your rules need.

    Class attributes:
        name: the ruleset's registry name (``"tank_solo"``); lower case, no spaces.
        version: the ruleset's version; saves record it and refuse to load under another.
        description: one line for ``wargamekit rulesets``.
        sides: the sides, in the rulebook's order.
        scenario_type: the attrs class a scenario file structures into (via cattrs).
        scenario_package: the package holding bundled scenario TOML files (``default.toml``
            must exist there), read with :mod:`importlib.resources`.
        shared_types: types whose instances never change once :meth:`setup` has built them (a
            static map, a frozen scenario): a snapshot at a checkpoint keeps a reference to them
            instead of a copy, so every restart holds the same objects, and a scenario of such a
            type is not copied for each (re)start of a game. Default: none (every snapshot
            copies the whole state and scenario).
    """

    name: ClassVar[str] = ""
    version: ClassVar[str] = "0"
    description: ClassVar[str] = ""
    sides: ClassVar[tuple[str, ...]] = ()
    scenario_type: ClassVar[type | None] = None
    scenario_package: ClassVar[str | None] = None
    shared_types: ClassVar[tuple[type, ...]] = ()

    @property
    def shared_type_set(self) -> frozenset[type]:
        """:attr:`shared_types` as a set (what the snapshot pickler looks classes up in)."""
        return frozenset(self.shared_types)

    # -- scenarios -------------------------------------------------------------------------
    def scenario_names(self) -> list[str]:
        """Names of the bundled scenarios (file stems under :attr:`scenario_package`)."""
        if self.scenario_package is None:
            return []
        root = resources.files(self.scenario_package)
        return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml"))

    def scenario_data(self, name: str = "default") -> dict[str, Any]:
        """The raw data of a bundled scenario, as parsed from its TOML file."""
        from .scenario import read_toml_text

        if self.scenario_package is None:
            raise UnknownScenarioError(f"ruleset {self.name!r} bundles no scenarios")
        # Read once per process (bundled files do not change under it): every Game.new and
        # load asks again; each gets its own copy.
        key = (self.scenario_package, name)
        try:
            text = _BUNDLED.get(key)
        except TypeError:  # an unhashable name: refused below
            text = None
        if text is None:
            if not isinstance(name, str) or name not in self.scenario_names():
                raise UnknownScenarioError(
                    f"ruleset {self.name!r} has no scenario {name!r}; it has {self.scenario_names()}"
                )
            resource = resources.files(self.scenario_package) / f"{name}.toml"
            text = _BUNDLED[key] = resource.read_text(encoding="utf-8")
        return read_toml_text(text, source=f"{self.name}:{name}", cache=True)

    def load_scenario(self, data: Mapping[str, Any], *, source: str | None = None) -> Any:
        """Structure raw scenario data into :attr:`scenario_type`, or raise
        :class:`~wargamekit.errors.ScenarioError` naming the bad field's path.

        Override to add cross-field checks (raise ``ScenarioError`` with a path)."""
        from .scenario import structure

        if self.scenario_type is None:
            return dict(data)
        return structure(data, self.scenario_type, source=source)

    def read_scenario_file(self, path: str | Path) -> dict[str, Any]:
        """The raw data of a scenario TOML file written for this ruleset.

        A file may name its ruleset with a top-level ``ruleset = "name"`` key (what
        ``wargamekit validate`` reads to know which ruleset to ask). It is dropped here unless
        the ruleset's own scenario type has a ``ruleset`` field; a file naming another ruleset
        is refused.

        Raises:
            ScenarioError: the file cannot be read, is not TOML, or is for another ruleset.
        """
        from .scenario import read_toml_file

        data = read_toml_file(path)
        scenario_type = self.scenario_type
        if scenario_type is not None and attrs.has(scenario_type) and "ruleset" in attrs.fields_dict(scenario_type):
            return data
        named = data.get("ruleset")
        if named is None:
            return data
        if named != self.name:
            raise ScenarioError(
                f"the scenario is for ruleset {named!r}, not {self.name!r}", path="$.ruleset", source=str(path)
            )
        return {k: v for k, v in data.items() if k != "ruleset"}

    def load_scenario_file(self, path: str | Path) -> Any:
        """Read and structure a scenario TOML file (see :meth:`read_scenario_file`)."""
        return self.load_scenario(self.read_scenario_file(path), source=str(path))

    # -- optional rules --------------------------------------------------------------------
    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every optional rule with its value: the defaults of :meth:`options`, overridden by
        ``given``. The one place options are checked (the game, saves and the CLI use it).

        Raises:
            InvalidChoiceError: an unknown option, or a value of the wrong kind (``"yes"`` for
                a true/false rule).
        """
        known = dict(self.options())
        if given is not None and not isinstance(given, Mapping):
            raise InvalidChoiceError(f"options: expected a mapping of names to values, got {given!r}")
        chosen = {name: _plain(value) for name, value in (given or {}).items()}
        unknown = sorted(set(chosen) - set(known), key=str)
        if unknown:
            raise InvalidChoiceError(
                f"ruleset {self.name!r} has no option {', '.join(map(repr, unknown))}; "
                f"it has {sorted(known) or 'none'}"
            )
        for name, value in chosen.items():
            # A save or caller giving "yes" for a true/false rule must not pass as truthy.
            if not same_kind(value, known[name]):
                raise InvalidChoiceError(
                    f"ruleset {self.name!r} option {name!r}: expected "
                    f"{type(known[name]).__name__} like {known[name]!r}, got {value!r}"
                )
        return {**known, **chosen}

    # -- sides -----------------------------------------------------------------------------
    def other_sides(self, side: str) -> tuple[str, ...]:
        """Every side but ``side``, in the ruleset's order.

        Raises:
            ValueError: ``side`` is not a side of this ruleset.
        """
        if side not in self.sides:
            raise ValueError(f"ruleset {self.name!r} has no side {side!r}; its sides are {self.sides}")
        return other_sides(self.sides, side)

    def other_side(self, side: str) -> str:
        """The opponent of ``side`` (for two-sided rulesets).

        Raises:
            ValueError: ``side`` is unknown, or the ruleset does not have exactly two sides.
        """
        if side not in self.sides:
            raise ValueError(f"ruleset {self.name!r} has no side {side!r}; its sides are {self.sides}")
        return other_side(self.sides, side)

    # -- the game --------------------------------------------------------------------------
    def setup(self, scenario: Any, options: Mapping[str, Any]) -> Any:
        """Build the initial game state from a structured scenario (no dice here: use
        :meth:`play` for anything random, so the log records it)."""
        raise NotImplementedError(f"ruleset {self.name!r} does not implement setup()")

    def play(self, ctx: RulesContext[Any, Any]) -> Generator[Decision, Any, Outcome]:
        """The whole game as a procedure on the rules context: yield decisions, receive the
        chosen values, return the outcome.

        It may also yield checkpoints (``yield ctx.checkpoint("turn 3")``): places where play
        can restart from the state alone. The game then also calls ``play`` on a fresh context
        holding a copy of the state saved at a checkpoint, and the procedure must reach that
        checkpoint first and go on exactly as before (see
        :meth:`RulesContext.checkpoint <wargamekit.context.RulesContext.checkpoint>`). Without
        checkpoints, ``play`` only ever starts on the state :meth:`setup` built."""
        raise NotImplementedError(f"ruleset {self.name!r} does not implement play()")
        yield  # pragma: no cover

    # -- information -----------------------------------------------------------------------
    def view(self, state: Any, side: str | None) -> Any:
        """What ``side`` may see of ``state`` (``None``: an omniscient observer).

        The contract: **return something the player cannot use to change the game**, with
        nothing hidden from ``side`` in it. Nothing mutable reachable from the result may be
        part of the live state; immutable parts (frozen attrs values such as hexes, tuples,
        numpy arrays made read-only) may be shared.

        A bot reads a view at every decision it is asked (a :class:`~wargamekit.view.PlayerView`
        builds it on first read and keeps it), so keep it cheap: copy only what changes in
        play and is mutable (units, counters), leave out or mask what is hidden, share what is
        immutable, and hand out one read-only copy, made once per game, of a large part that
        never changes after setup (a map). Do not deep-copy a whole large state per call.
        :mod:`wargamekit.view` has the copies: :func:`~wargamekit.view.field_copier` for one
        record, :func:`~wargamekit.view.dict_copier` and :func:`~wargamekit.view.list_copier`
        for a whole dict or list of them in one call, :func:`~wargamekit.view.masked_copier` for
        what a side sees of a hidden one (the fields it may see, every other at its default).

        The default shows everything, as a :func:`~wargamekit.view.detached_copy` of the whole
        state: correct, but it copies the map with the units; override it when the rules hide
        information or the state is large.
        """
        from .view import detached_copy

        return detached_copy(state)

    def shared_view(self, state: Any, side: str | None) -> Any:
        """What ``side`` may see of ``state``, for a player that promised never to write its
        view (``reads_view_only``, see :class:`wargamekit.players.Player`): the same content as
        :meth:`view` — nothing hidden from ``side`` in it — but free to **share** mutable
        parts with the live state, since that player only reads it, and only during the
        :meth:`~wargamekit.players.Player.choose` call it is handed to (the live state goes
        on changing after it).

        A ruleset whose ``side`` may see everything returns ``state`` itself (AIG, LnL, MTTT):
        no copy at all. One that hides a few records shares the rest and copies only those it
        masks (the tank game's opponent's special rounds). The default is :meth:`view`: a
        ruleset that does not override this hands out copies, as before.

        The contract is checked, not assumed: :func:`wargamekit.testing.check_ruleset` plays
        games between every bundled bot that makes the promise and requires, at each decision
        the bot reads, this method's result to equal :meth:`view`'s by content (so it hides
        exactly what the view hides, which the non-interference check proves leak-free) and
        the bot to leave the state it was handed unchanged.
        """
        return self.view(state, side)

    def check_invariants(self, state: Any) -> None:
        """Raise :class:`AssertionError` if ``state`` breaks a rule's invariant (used by the
        conformance check after every decision)."""

    def summary(self, state: Any) -> str:
        """A few lines describing the position, for the terminal."""
        return ""

    def render_svg(self, state: Any, side: str | None = None) -> str | None:
        """An SVG picture of the position as ``side`` sees it, or ``None`` if not supported."""
        return None

    def options(self) -> Mapping[str, Any]:
        """Optional rules and their defaults (``{"veteran_gunner": False, …}``)."""
        return {}

    def bots(self) -> Mapping[str, Callable[[int], Player]]:
        """Named bot factories (``seed -> Player``) beside the built-in ``random``.

        The CLI's ``bot`` means the ruleset's best bot: provide it under the name ``"bot"``.
        """
        return {}

    def odds_command(self) -> click.Command | None:
        """A click command answering "what are my odds?" questions for this ruleset.

        The CLI mounts it as ``wargamekit odds RULESET [ARGS]``; the command prints exact
        probabilities computed with :mod:`wargamekit.odds`. ``None``: the ruleset has none.
        """
        return None

    def __repr__(self) -> str:
        return f"<Ruleset {self.name} {self.version}>"
