"""The :class:`Ruleset` base class: what a ruleset plugin provides to the core.

A ruleset is an object (usually one instance per plugin) that a plugin returns from the
:func:`~wargamekit.hookspecs.wargamekit_rulesets` hook. The core calls only the methods below;
everything else about the ruleset is its own business.

The one method that does the work is :meth:`Ruleset.play`: a generator that runs the whole game,
yielding :class:`~wargamekit.decisions.Decision` objects and returning an
:class:`~wargamekit.events.Outcome`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .decisions import Decision
from .events import Outcome

if TYPE_CHECKING:
    import click

    from .game import Game
    from .players import Player

__all__ = ["Procedure", "Ruleset"]

#: A rule procedure: yields decisions, receives the chosen values, returns a result.
Procedure = Generator[Decision, Any, Any]


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
    """

    name: ClassVar[str] = ""
    version: ClassVar[str] = "0"
    description: ClassVar[str] = ""
    sides: ClassVar[tuple[str, ...]] = ()
    scenario_type: ClassVar[type | None] = None
    scenario_package: ClassVar[str | None] = None

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
            raise LookupError(f"ruleset {self.name!r} bundles no scenarios")
        resource = resources.files(self.scenario_package) / f"{name}.toml"
        if not resource.is_file():
            raise LookupError(
                f"ruleset {self.name!r} has no scenario {name!r}; it has {self.scenario_names()}"
            )
        return read_toml_text(resource.read_text(encoding="utf-8"), source=f"{self.name}:{name}")

    def load_scenario(self, data: Mapping[str, Any], *, source: str | None = None) -> Any:
        """Structure raw scenario data into :attr:`scenario_type`, or raise
        :class:`~wargamekit.errors.ScenarioError` naming the bad field's path.

        Override to add cross-field checks (raise ``ScenarioError`` with a path)."""
        from .scenario import structure

        if self.scenario_type is None:
            return dict(data)
        return structure(data, self.scenario_type, source=source)

    def load_scenario_file(self, path: str | Path) -> Any:
        """Read and structure a scenario TOML file."""
        from .scenario import read_toml_file

        return self.load_scenario(read_toml_file(path), source=str(path))

    # -- the game --------------------------------------------------------------------------
    def setup(self, scenario: Any, options: Mapping[str, Any]) -> Any:
        """Build the initial game state from a structured scenario (no dice here: use
        :meth:`play` for anything random, so the log records it)."""
        raise NotImplementedError(f"ruleset {self.name!r} does not implement setup()")

    def play(self, game: Game) -> Generator[Decision, Any, Outcome]:
        """The whole game as a procedure: yield decisions, return the outcome."""
        raise NotImplementedError(f"ruleset {self.name!r} does not implement play()")
        yield  # pragma: no cover

    # -- information -----------------------------------------------------------------------
    def view(self, state: Any, side: str | None) -> Any:
        """What ``side`` may see of ``state`` (``None``: an omniscient observer).

        The default shows everything: override when the rules hide information. Return a fresh
        object — players must never be able to reach the live state through it.
        """
        import copy

        return copy.deepcopy(state)

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
