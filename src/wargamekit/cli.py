"""The ``wargamekit`` command: list, play, resume, replay and check the installed rulesets.

Commands:

* ``wargamekit rulesets`` — the installed rulesets (name, version, description) and add-ons;
  a plugin left out (it fails to import, or its hooks fail validation) or a hook that matches
  no hookspec is one ``warning:`` line naming the plugin.
* ``wargamekit play RULESET`` — play a game to the end: bots, random players or humans at this
  terminal, on a bundled scenario or a scenario file; print the log and the result; write a
  save and an SVG of the final position. Add-ons run only when asked for (``--addon NAME``);
  the save records them.
* ``wargamekit resume SAVE`` — carry on a game saved before its end (with the save's add-ons).
* ``wargamekit replay SAVE`` — replay a save and print one side's view of its log
  (``--as SIDE``; by default the public view) and its result.
* ``wargamekit view SAVE`` — write a self-contained HTML page to step through a save in a
  browser (``--as SIDE``; by default the public view).
* ``wargamekit validate SCENARIO`` — check a scenario file (``--addon NAME``: with an add-on it needs).
* ``wargamekit odds RULESET ...`` — the ruleset's own odds calculator.
* ``wargamekit simulate RULESET`` — a balance study: many seeded bot games on every core (or a
  Dask or Ray cluster), results as Parquet, a report of win rates (see :mod:`wargamekit.simulate`).

Hidden information stays hidden at the terminal: when a human plays, ``?`` and ``--svg`` show
that human's view (``--svg-view all`` asks for the all-seeing picture).

Saves and snapshots: ``play --save``/``resume --save`` keep the game's latest checkpoint snapshots
in the user's snapshot cache (:meth:`wargamekit.snapshot_cache.SnapshotCache.user`:
``platformdirs.user_cache_dir("wargamekit")``, or :envvar:`WARGAMEKIT_CACHE_DIR`), and ``resume``,
``replay`` and ``view`` load a save from there instead of replaying it from its first answer
when the cache holds it (the log digest is checked all the same). ``WARGAMEKIT_NO_CACHE=1``
switches that off; deleting the directory is always safe.

Bad input (an unknown ruleset, a bad scenario or save, an unknown option, an illegal answer)
prints one line starting with ``error:`` to standard error and exits with status 2.

The rulesets come from :func:`installed_rulesets` and the hooks from :func:`plugin_manager`;
both are module-level functions so tests (and embedding applications) can substitute their own.
"""

from __future__ import annotations

import secrets
import shlex
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from . import __version__
from . import plugins as _plugins
from .errors import InvalidChoiceError, QuitGame, ScenarioError, WargamekitError
from .game import Game
from .players import STOPS, Player, RandomBot, TerminalPlayer, UndoRequest, bot_seed
from .plugins import find_ruleset
from .ruleset import Ruleset
from .scenario import read_toml_file

if TYPE_CHECKING:
    import pluggy
    from rich.console import Console

    from .events import Event

__all__ = ["EXIT_BAD_INPUT", "cli", "installed_rulesets", "main", "plugin_manager"]

#: The exit status for bad input (like click's usage errors).
EXIT_BAD_INPUT = 2

#: The player kinds every ruleset has; ``bot`` falls back to ``random`` if a ruleset has none.
BUILTIN_PLAYERS = ("human", "random", "bot")


def installed_rulesets() -> dict[str, Ruleset]:
    """The rulesets the command offers (by default every installed one)."""
    return _plugins.installed_rulesets()


def plugin_manager(addons: Sequence[str] = ()) -> pluggy.PluginManager:
    """The plugin manager games are played with: the installed rulesets and the add-ons asked
    for by name (none by default, as :meth:`Game.new <wargamekit.game.Game.new>`)."""
    if not addons:
        return _plugins.installed_plugin_manager()
    return _plugins.plugin_manager(addons=list(addons))


def _warn_plugins(pm: Any) -> None:
    """One ``warning:`` line per plugin left out or hook matching no hookspec."""
    for problem in [*getattr(pm, "load_errors", []), *getattr(pm, "warnings", [])]:
        click.echo(f"warning: {problem}", err=True)


class CliError(click.ClickException):
    """Bad input found by the command itself (reported as one ``error:`` line)."""

    exit_code = EXIT_BAD_INPUT


def _one_line(message: str) -> str:
    return "; ".join(part.strip() for part in message.strip().splitlines() if part.strip())


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    click.echo(f"error: {_one_line(message)}", err=True)
    sys.exit(code)


class _Group(click.Group):
    """A group whose every failure from bad input is one ``error:`` line and exit status 2."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help())
            result = 0
        except click.ClickException as exc:
            _fail(exc.format_message())
        except click.Abort:
            _fail("aborted", code=1)
        except WargamekitError as exc:
            _fail(str(exc))
        if not standalone_mode:
            return result
        sys.exit(result if isinstance(result, int) else 0)


def _console() -> Console:
    # Built per command, so the console writes to whatever ``sys.stdout`` is at that moment
    # (click's test runner swaps it).
    from rich.console import Console

    return Console(highlight=False)


# -- inputs ----------------------------------------------------------------------------------


def _ruleset(name: str) -> Ruleset:
    return find_ruleset(name, installed_rulesets())


def _scenario(ruleset: Ruleset, given: str | None) -> str | dict[str, Any]:
    """A bundled scenario's name, or the raw data of a scenario file (checked here, so the
    error names the file)."""
    if given is None:
        return "default"
    path = Path(given)
    if path.suffix == ".toml" or path.is_file():
        data = ruleset.read_scenario_file(path)
        ruleset.load_scenario(data, source=str(path))
        return data
    try:
        ruleset.scenario_data(given)
    except LookupError:  # UnknownScenarioError, or a ruleset's own override's LookupError
        bundled = ", ".join(ruleset.scenario_names()) or "none"
        if path.is_dir():
            raise CliError(
                f"--scenario {given!r} is a directory, not a scenario file, and ruleset "
                f"{ruleset.name!r} has no bundled scenario of that name (bundled: {bundled})"
            ) from None
        raise CliError(
            f"ruleset {ruleset.name!r} has no bundled scenario {given!r} (bundled: {bundled}) "
            f"and there is no file {given!r}"
        ) from None
    return given


def _toml_scalar(text: str) -> Any:
    """``true`` → True, ``3`` → 3, ``"a b"`` → 'a b'; anything else is a plain string."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def _options(ruleset: Ruleset, pairs: Sequence[str]) -> dict[str, Any]:
    known = dict(ruleset.options())
    parsed: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise CliError(f"--option {pair!r}: write NAME=VALUE, e.g. --option veteran_gunner=true")
        if name not in known:
            raise CliError(
                f"ruleset {ruleset.name!r} has no option {name!r}; "
                f"it has {', '.join(known) or 'none'}"
            )
        parsed[name] = _toml_scalar(raw.strip())
        try:
            # The one option check (the game's): ``veteran_gunner=ture`` is no truthy string.
            ruleset.resolve_options({name: parsed[name]})
        except InvalidChoiceError:
            default = known[name]
            raise CliError(
                f"--option {name}: expected {type(default).__name__} like {_toml_repr(default)}, "
                f"got {raw.strip()!r}"
            ) from None
    return parsed


def _toml_repr(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _player_kinds(ruleset: Ruleset) -> list[str]:
    return list(dict.fromkeys([*BUILTIN_PLAYERS, *ruleset.bots()]))


def _players(
    ruleset: Ruleset, spec: str, seed: int, console: Console, stops: str = "playable"
) -> tuple[dict[str, Player], dict[str, str]]:
    """Players by side from ``bot,human``-style text, and the kind chosen for each side."""
    kinds = [k.strip() for k in spec.split(",")]
    sides = list(ruleset.sides)
    if len(kinds) != len(sides):
        raise CliError(
            f"--players {spec!r}: give one player per side, in order: {', '.join(sides)}"
        )
    offered = _player_kinds(ruleset)
    bots = ruleset.bots()
    players: dict[str, Player] = {}
    for index, (side, kind) in enumerate(zip(sides, kinds, strict=True)):
        # Each bot gets its own seed derived from the game's, so --seed reproduces everything.
        if kind == "human":
            players[side] = TerminalPlayer(console, summary=_summary_of(ruleset), stops=stops)
        elif kind in bots:
            players[side] = bots[kind](bot_seed(seed, index))
        elif kind in ("random", "bot"):
            players[side] = RandomBot(bot_seed(seed, index))
        else:
            raise CliError(f"--players: no player kind {kind!r}; {ruleset.name} offers {', '.join(offered)}")
    return players, dict(zip(sides, kinds, strict=True))


def _summary_of(ruleset: Ruleset) -> Any:
    def summary(view: Any) -> str:
        return ruleset.summary(view.state) or "(this ruleset has no summary of the position)"

    return summary


def _check_svg(ruleset: Ruleset, svg: Path | None) -> None:
    if svg is not None and type(ruleset).render_svg is Ruleset.render_svg:
        raise CliError(f"ruleset {ruleset.name!r} cannot draw SVG (it has no render_svg)")


# -- output ----------------------------------------------------------------------------------


def _print_event(console: Console, event: Event) -> None:
    style = "dim" if event.kind == "roll" else ("bold" if event.kind == "end" else None)
    console.print(event.text, style=style, markup=False, soft_wrap=True)


class _LogPrinter:
    """Prints the log as it grows, showing each side only what it may see.

    With no human at the terminal everything is shown. With humans, an event is shown when a
    human side that may see it is asked next (or at the end), and never twice — so two humans
    sharing a terminal each see their own secrets only when it is their turn.
    """

    def __init__(self, console: Console, game: Game, humans: Sequence[str], quiet: bool) -> None:
        self.console = console
        self.game = game
        self.humans = tuple(humans)
        self.quiet = quiet
        self.shown: set[int] = set()
        self.cursor = {side: 0 for side in self.humans}
        self.observer_cursor = 0

    def rewind(self) -> None:
        """After an undo the log is shorter: forget what was shown beyond its end, so the
        events played again are printed again."""
        end = len(self.game.log)
        self.shown = {i for i in self.shown if i < end}
        self.cursor = {side: min(c, end) for side, c in self.cursor.items()}
        self.observer_cursor = min(self.observer_cursor, end)

    def skip_to_end(self) -> None:
        """Treat the log so far as already shown (resuming a save prints no old events)."""
        self.observer_cursor = len(self.game.log)
        self.shown.update(range(len(self.game.log)))
        self.cursor = {side: len(self.game.log) for side in self.humans}

    def flush(self, side: str | None = None) -> None:
        """Print what is new: for ``side`` (a human about to be asked), or for observers."""
        log = self.game.log
        if not self.humans:
            if not self.quiet:
                for event in log[self.observer_cursor :]:
                    _print_event(self.console, event)
            self.observer_cursor = len(log)
            return
        sides = self.humans if side is None else (side,)
        start = min(self.cursor[s] for s in sides)
        for index in range(start, len(log)):
            event = log[index]
            if index not in self.shown and any(event.visible_to(s) for s in sides):
                self.shown.add(index)
                if not self.quiet:
                    _print_event(self.console, event)
        for s in sides:
            self.cursor[s] = len(log)


def _result_line(game: Game) -> str:
    outcome = game.outcome
    if outcome is None:
        asked = game.pending.side if game.pending is not None else "nobody"
        return f"result: unfinished after {len(game.choices)} choices ({asked} to answer)"
    winner = f"{outcome.winner} wins" if outcome.winner else "a draw"
    scores = ", ".join(f"{side} {_number(score)}" for side, score in sorted(outcome.scores.items()))
    return f"result: {winner} — {outcome.reason}" + (f" (scores: {scores})" if scores else "")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _write(path: Path, text: str, what: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write the {what} to {path}: {exc.strerror}") from None


#: ``--svg-view`` / ``--as`` value for the all-seeing view.
ALL = "all"
#: ``--as`` value for what every side sees.
PUBLIC = "public"


def _write_outputs(game: Game, save: Path | None, svg: Path | None, svg_side: str | None = None) -> None:
    """Write the save and the picture (drawn as ``svg_side`` sees it; ``None``: all-seeing)."""
    if save is not None:
        from .snapshot_cache import SnapshotCache

        # the user's snapshot cache keeps the latest snapshots: loading this save starts there
        _write(save, game.save(snapshots=SnapshotCache.user()).to_json() + "\n", "save")
    if svg is not None:
        picture = game.ruleset.render_svg(game.state, side=svg_side)
        if picture is None:
            raise CliError(f"ruleset {game.ruleset.name!r} drew no SVG of this position")
        _write(svg, picture, "SVG")


def _svg_side(ruleset: Ruleset, svg: Path | None, svg_view: str | None, humans: Sequence[str]) -> str | None:
    """Whose view ``--svg`` draws: ``--svg-view`` if given, else the one human's (a picture
    of everything would show a human the opponent's secrets), else all (bots only)."""
    if svg_view is not None:
        if svg_view != ALL and svg_view not in ruleset.sides:
            raise CliError(f"--svg-view {svg_view!r}: give a side ({', '.join(ruleset.sides)}) or {ALL!r}")
        return None if svg_view == ALL else svg_view
    if svg is None or not humans:
        return None
    if len(humans) > 1:
        raise CliError(
            f"--svg: several humans play ({', '.join(humans)}); say whose view to draw with "
            f"--svg-view SIDE (or --svg-view {ALL} for everything)"
        )
    return humans[0]


# -- the game loop ---------------------------------------------------------------------------


def _drive(
    game: Game,
    players: Mapping[str, Player],
    humans: Sequence[str],
    console: Console,
    *,
    quiet: bool,
    resumed: bool = False,
    on_answer: Callable[[Game], None] | None = None,
) -> str:
    """Answer decisions until the game ends, on :meth:`Game.play` (the one driving loop);
    ``"over"``, ``"quit"``, ``"interrupted"`` (Ctrl-C) or ``"eof"``.

    A human's ``undo`` (:class:`~wargamekit.players.UndoRequest`) takes back that side's last
    answer and every answer after it (:meth:`Game.undo`), and play goes on from there."""
    printer = _LogPrinter(console, game, humans, quiet)
    if resumed:
        printer.skip_to_end()
    if humans and not quiet:
        console.print(
            f"You play {', '.join(humans)}. Type the number of an option; ? shows the position, "
            "the rule and the commands; undo takes back your last answer; quit or Ctrl-C stops "
            "and saves.",
            markup=False,
            soft_wrap=True,
        )

    def before_ask(game: Game, decision: Any) -> None:
        human = decision.side in humans
        if human or not humans:
            # With humans at the terminal, events wait for a human who may see them.
            printer.flush(decision.side if human else None)

    def on_illegal(side: str, error: WargamekitError) -> None:
        # The game is exactly as before the answer: tell the human and ask again.
        console.print(str(error), style="red", markup=False)

    while True:
        try:
            game.play(players, before_ask=before_ask, after_answer=on_answer, retry=humans, on_illegal=on_illegal)
        except UndoRequest as request:
            _undo(game, request.side, console)
            printer.rewind()
            continue
        except QuitGame as stop:
            return "interrupted" if "Ctrl-C" in str(stop) else "quit"
        except KeyboardInterrupt:
            # Ctrl-C while the bots played: the answer being worked out may be half-applied,
            # so rebuild the position from the answers that stand (as a load would).
            _settle(game)
            return "interrupted"
        except EOFError:
            return "eof"
        break
    printer.flush()
    return "over"


def _undo(game: Game, side: str, console: Console) -> None:
    """Take back ``side``'s last answer and every answer after it (the bots' included)."""
    answered = [e.data.get("side") for e in game.log if e.kind == "choice"]
    count = next((n for n, who in enumerate(reversed(answered), start=1) if who == side), None)
    if count is None or count > len(game.choices):
        console.print(f"{side} has no answer to take back", style="red", markup=False)
        return
    game.undo(count)
    console.print(f"took back {count} answer(s), back to {side}'s last decision", style="dim", markup=False)


def _settle(game: Game) -> None:
    """After an interrupt inside the rules: replay the answers that stand, dropping the last
    one if it no longer replays."""
    try:
        game.undo(0)
    except WargamekitError:
        game.undo(1)


def _drive_with_status(
    game: Game,
    players: Mapping[str, Player],
    humans: Sequence[str],
    console: Console,
    *,
    quiet: bool,
    resumed: bool = False,
) -> str:
    """:func:`_drive`, with a live count of decisions on a terminal when nothing else shows
    that the bots are still playing (``--quiet``)."""
    if not (quiet and not humans and console.is_terminal):
        return _drive(game, players, humans, console, quiet=quiet, resumed=resumed)
    with console.status(f"{game.ruleset.name}: playing…") as status:

        def count(game: Game) -> None:
            status.update(f"{game.ruleset.name}: playing… {len(game.choices)} decisions")

        return _drive(game, players, humans, console, quiet=quiet, resumed=resumed, on_answer=count)


def _finish(
    game: Game,
    status: str,
    console: Console,
    save: Path | None,
    svg: Path | None,
    svg_side: str | None = None,
    *,
    kinds: Mapping[str, str] | None = None,
    stops: str = "playable",
) -> None:
    """Write the outputs and print the result; a game stopped before its end says how to go
    on with the same players (a human game stopped without ``--save`` is saved to
    :func:`_default_save`)."""
    humans = [side for side, kind in (kinds or {}).items() if kind == "human"]
    if status != "over" and save is None and humans and not game.over:
        save = _default_save(game)
    _write_outputs(game, save, svg, svg_side)
    console.print(_result_line(game), markup=False, soft_wrap=True)
    if status != "over":
        why = " (Ctrl-C)" if status == "interrupted" else ""
        where = ""
        if save is not None and not game.over:
            command = f"wargamekit resume {shlex.quote(str(save))}"
            if kinds:
                command += f" --players {','.join(kinds.values())}"
            if humans:
                command += f" --save {shlex.quote(str(save))}"
            if stops != "playable":
                command += f" --stops {stops}"
            where = f"; saved to {save}; resume with: {command}"
        console.print(f"stopped before the end{why}{where}", markup=False, soft_wrap=True)
    if status == "eof":
        raise CliError("the input ended before the game did (type quit to stop a game)")


def _default_save(game: Game) -> Path:
    """Where a human game stopped without ``--save`` is saved: the current directory."""
    return Path(f"wargamekit-{game.ruleset.name}-{game.seed}.save.json")


# -- commands --------------------------------------------------------------------------------

_save_option = click.option(
    "--save", type=click.Path(dir_okay=False, path_type=Path), help="Write a save file (JSON) at the end."
)
_svg_option = click.option(
    "--svg", type=click.Path(dir_okay=False, path_type=Path), help="Draw the final position (SVG)."
)
_svg_view_option = click.option(
    "--svg-view",
    metavar="SIDE|all",
    help="Whose view --svg draws (default: the human's when one plays, else all).",
)
_quiet_option = click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
_stops_option = click.option(
    "--stops",
    type=click.Choice(STOPS),
    default="playable",
    show_default=True,
    help="When a human is asked a response window: only when a response is playable, or at "
    "every window (all: full control).",
)
_players_option = click.option(
    "--players",
    default="bot,bot",
    show_default=True,
    help="One player per side, in the ruleset's side order: human, random, bot, or a bot the "
    "ruleset names.",
)


@click.group(cls=_Group, name="wargamekit")
@click.version_option(__version__, prog_name="wargamekit")
def cli() -> None:
    """Play and check tabletop wargames built with wargamekit."""


@cli.command()
def rulesets() -> None:
    """List the installed rulesets."""
    from rich.table import Table

    console = _console()
    found = installed_rulesets()
    # Every installed plugin, add-ons included, is loaded and checked here, so a broken one is
    # reported (by name) even though no game would load it unasked.
    everything = _plugins.plugin_manager(addons="all")
    addons = [a for a in _plugins.installed_addons() if everything.get_plugin(a.name) is not None]
    if not console.is_terminal:
        width = max((len(name) for name in found), default=0)
        for name, ruleset in found.items():
            click.echo(f"{name:<{width}}  {ruleset.version}  {ruleset.description}")
        for addon in addons:
            click.echo(f"add-on {addon.name}  {addon.distribution or '?'} {addon.version or '?'}")
    else:
        table = Table("ruleset", "version", "description")
        for name, ruleset in found.items():
            table.add_row(name, ruleset.version, ruleset.description)
        for addon in addons:
            table.add_row(f"add-on {addon.name}", addon.version or "?", addon.distribution or "?")
        console.print(table)
    _warn_plugins(everything)


@cli.command()
@click.argument("ruleset_name", metavar="RULESET")
@click.option("--scenario", metavar="FILE_OR_NAME", help="A bundled scenario's name or a TOML file.")
@click.option(
    "--seed", type=click.IntRange(min=0), help="The dice seed, 0 or more (default: a random one, printed)."
)
@_players_option
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="Set an optional rule (TOML value: true, 3, \"text\").")
@click.option("--addon", "addons", multiple=True, metavar="NAME", help="Run with an installed add-on (repeatable; none by default).")
@_save_option
@_svg_option
@_svg_view_option
@_quiet_option
@_stops_option
def play(
    ruleset_name: str,
    scenario: str | None,
    seed: int | None,
    players: str,
    option_pairs: tuple[str, ...],
    addons: tuple[str, ...],
    save: Path | None,
    svg: Path | None,
    svg_view: str | None,
    quiet: bool,
    stops: str,
) -> None:
    """Play RULESET to the end and print the log and the result."""
    console = _console()
    ruleset = _ruleset(ruleset_name)
    chosen_scenario = _scenario(ruleset, scenario)
    options = _options(ruleset, option_pairs)
    _check_svg(ruleset, svg)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    team, kinds = _players(ruleset, players, seed, console, stops)
    humans = [side for side, kind in kinds.items() if kind == "human"]
    svg_side = _svg_side(ruleset, svg, svg_view, humans)
    manager = plugin_manager(addons)
    _warn_plugins(manager)
    game = Game.new(ruleset, chosen_scenario, seed=seed, options=options, plugin_manager=manager)
    if not quiet:
        scenario_label = game.scenario_name or str(scenario)
        cast = ", ".join(f"{side}: {kind}" for side, kind in kinds.items())
        console.print(
            f"{ruleset.name} {ruleset.version} — scenario {scenario_label}, seed {seed} — {cast}",
            markup=False,
            soft_wrap=True,
        )
    status = _drive_with_status(game, team, humans, console, quiet=quiet)
    _finish(game, status, console, save, svg, svg_side, kinds=kinds, stops=stops)


def _load(save_file: Path) -> Game:
    """Load a save with the add-ons it records (refused, naming them, if any is missing)."""
    from .saves import SaveFile

    saved = SaveFile.read(save_file)
    try:
        manager = plugin_manager([addon.name for addon in saved.addons])
    except WargamekitError as exc:
        raise CliError(
            f"{save_file}: the save was played with add-on(s) "
            f"{', '.join(str(a) for a in saved.addons)}: {exc}"
        ) from None
    _warn_plugins(manager)
    from .snapshot_cache import SnapshotCache

    # from the user's snapshot cache if it holds this game (the log digest is checked either way)
    return Game.load(saved, rulesets=installed_rulesets(), plugin_manager=manager, snapshots=SnapshotCache.user())


@cli.command()
@click.argument("save_file", metavar="SAVE", type=click.Path(dir_okay=False, path_type=Path))
@_players_option
@_save_option
@_svg_option
@_svg_view_option
@_quiet_option
@_stops_option
def resume(
    save_file: Path,
    players: str,
    save: Path | None,
    svg: Path | None,
    svg_view: str | None,
    quiet: bool,
    stops: str,
) -> None:
    """Carry on a game saved before its end (with the add-ons the save records)."""
    console = _console()
    game = _load(save_file)
    _check_svg(game.ruleset, svg)
    team, kinds = _players(game.ruleset, players, game.seed + len(game.choices), console, stops)
    humans = [side for side, kind in kinds.items() if kind == "human"]
    svg_side = _svg_side(game.ruleset, svg, svg_view, humans)
    if not quiet:
        console.print(
            f"{game.ruleset.name} {game.ruleset.version} — resuming {save_file} after "
            f"{len(game.choices)} choices",
            markup=False,
            soft_wrap=True,
        )
    status = _drive_with_status(game, team, humans, console, quiet=quiet, resumed=True)
    _finish(game, status, console, save, svg, svg_side, kinds=kinds, stops=stops)


@cli.command()
@click.argument("save_file", metavar="SAVE", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--as",
    "as_side",
    default=PUBLIC,
    show_default=True,
    metavar="SIDE|public|all",
    help="Whose view of the log to print (and to draw with --svg): a side, what every side "
    "sees, or everything.",
)
@_svg_option
@_quiet_option
def replay(save_file: Path, as_side: str, svg: Path | None, quiet: bool) -> None:
    """Replay a save file; print one side's view of its log, and its result."""
    console = _console()
    game = _load(save_file)
    _check_svg(game.ruleset, svg)
    if as_side not in (PUBLIC, ALL, *game.ruleset.sides):
        raise CliError(f"--as {as_side!r}: give a side ({', '.join(game.ruleset.sides)}), {PUBLIC!r} or {ALL!r}")
    if svg is not None and as_side == PUBLIC:
        # A ruleset draws a side's view or everything; there is no "public" picture to draw.
        raise CliError(f"--svg: the public view has no picture; pass --as SIDE or --as {ALL}")
    side = None if as_side in (PUBLIC, ALL) else as_side
    if as_side == PUBLIC:
        shown = [e for e in game.log if e.audience is None]
        whose = "the public view (what every side sees; --as SIDE or --as all for more)"
    elif as_side == ALL:
        shown = list(game.log)
        whose = "everything, every side's secrets included"
    else:
        shown = [e for e in game.log if e.visible_to(as_side)]
        whose = f"{as_side}'s view"
    if not quiet:
        console.print(
            f"{game.ruleset.name} {game.ruleset.version} — scenario "
            f"{game.scenario_name or 'from the save'}, seed {game.seed} — replaying "
            f"{len(game.choices)} choices — showing {whose}",
            markup=False,
            soft_wrap=True,
        )
        for event in shown:
            _print_event(console, event)
    _write_outputs(game, None, svg, side)
    console.print(_result_line(game), markup=False, soft_wrap=True)


@cli.command()
@click.argument("save_file", metavar="SAVE", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--as",
    "as_side",
    default=PUBLIC,
    show_default=True,
    metavar="SIDE|public|all",
    help="Whose view to show: a side, what every side sees, or everything (every side's secrets).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The HTML file to write (default: SAVE with the suffix .html).",
)
def view(save_file: Path, as_side: str, out: Path | None) -> None:
    """Write a self-contained HTML viewer of a save: step through the map and the log."""
    from .viewer import write_viewer

    game = _load(save_file)
    if as_side not in (PUBLIC, ALL, *game.ruleset.sides):
        raise CliError(f"--as {as_side!r}: give a side ({', '.join(game.ruleset.sides)}), {PUBLIC!r} or {ALL!r}")
    target = out if out is not None else save_file.with_suffix(".html")
    _write(target, write_viewer(game, as_side), "viewer")
    click.echo(f"wrote {target} ({as_side} view of {len(game.choices)} choices)")


@cli.command()
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--ruleset", "ruleset_name", metavar="NAME", help="The ruleset (default: the file's top-level `ruleset` key).")
@click.option("--addon", "addons", multiple=True, metavar="NAME",
              help="An installed add-on the scenario is for (repeatable): what it adds counts as known.")
def validate(scenario: Path, ruleset_name: str | None, addons: tuple[str, ...] = ()) -> None:
    """Check a scenario file: print "ok" or the error."""
    data = read_toml_file(scenario)
    named = data.get("ruleset")
    name = ruleset_name if ruleset_name is not None else named
    if ruleset_name is None and named is not None and not isinstance(named, str):
        raise CliError(f"{scenario}: $.ruleset: expected the ruleset's name (a string), got {named!r}")
    if not isinstance(name, str):
        raise CliError(f"{scenario}: name the ruleset with --ruleset (the file has no top-level `ruleset = \"...\"`)")
    ruleset = _ruleset(name)
    # The same reading as ``Ruleset.load_scenario_file``: what validate passes, a game loads.
    structured = ruleset.load_scenario_file(scenario)
    # Setting up catches what only the ruleset's own cross-checks see (setup rolls no dice).
    ruleset.setup(structured, dict(ruleset.options()))
    # Starting a game (to its first decision, with the add-ons named) catches what a ruleset
    # checks only where a game's add-ons are known (maneuver_locale's arms).
    try:
        Game.new(ruleset, ruleset.read_scenario_file(scenario), plugin_manager=plugin_manager(addons))
    except ScenarioError as exc:
        if exc.source is not None:
            raise
        raise ScenarioError(exc.reason, path=exc.path, source=str(scenario)) from None
    click.echo("ok")


@cli.command(
    context_settings={"ignore_unknown_options": True},
    add_help_option=False,
)
@click.argument("ruleset_name", metavar="RULESET", required=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def odds(ctx: click.Context, ruleset_name: str | None, args: tuple[str, ...]) -> None:
    """Exact odds: run RULESET's own odds command with ARGS (try RULESET --help)."""
    if ruleset_name in (None, "--help", "-h"):
        click.echo(ctx.get_help())
        return
    assert ruleset_name is not None
    ruleset = _ruleset(ruleset_name)
    command = ruleset.odds_command()
    if command is None:
        raise CliError(f"ruleset {ruleset.name!r} has no odds command")
    prog = f"{ctx.find_root().info_name} odds {ruleset.name}"
    code = command.main(args=list(args), prog_name=prog, standalone_mode=False)
    if isinstance(code, int) and code:
        ctx.exit(code)


@cli.command()
@click.argument("ruleset_name", metavar="RULESET")
@click.option("--scenario", metavar="FILE_OR_NAME", default="default", show_default=True, help="A bundled scenario's name or a TOML file.")
@click.option("--players", default="bot,random", show_default=True, help="One player kind per side, in the ruleset's side order: random, bot, or a bot the ruleset names.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, help="How many games.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="The study seed (game i's seed is derived from it).")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="Set an optional rule (repeatable).")
@click.option("--against", "against_pairs", multiple=True, metavar="NAME=VALUE", help="Also run the study with these options changed, and compare the two (repeatable).")
@click.option("--alternate/--fixed-sides", default=False, show_default=True, help="Rotate the players through the sides game by game.")
@click.option("--workers", type=click.IntRange(min=1), help="Local processes (default: every core).")
@click.option("--backend", type=click.Choice(["local", "dask", "ray"]), default="local", show_default=True, help="Where the games are played.")
@click.option("--address", metavar="ADDRESS", help="The cluster: a Dask scheduler (tcp://host:8786) or a Ray head (host:6379, auto).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the results (one row per game) as Parquet; an interrupted study resumes from here.")
@click.option("--restart", is_flag=True, help="Ignore the chunks an interrupted study left next to --out.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), help="Write a self-contained HTML report with plots.")
@click.option("--keep-saves", type=click.Path(file_okay=False, path_type=Path), help="Write every game's save to this directory.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate(
    ruleset_name: str,
    scenario: str,
    players: str,
    games: int,
    seed: int,
    option_pairs: tuple[str, ...],
    against_pairs: tuple[str, ...],
    alternate: bool,
    workers: int | None,
    backend: str,
    address: str | None,
    out: Path | None,
    restart: bool,
    report_path: Path | None,
    keep_saves: Path | None,
    quiet: bool,
) -> None:
    """Play a balance study of RULESET (many seeded bot games) and report the win rates."""
    from .simulate import Study, compare, html_report, print_report, summarize

    console = _console()
    ruleset = _ruleset(ruleset_name)
    _scenario(ruleset, scenario)
    options = _options(ruleset, option_pairs)
    kinds = tuple(k.strip() for k in players.split(","))
    study = Study(ruleset.name, players=kinds, games=games, scenario=scenario, seed=seed, options=options, alternate=alternate)
    studies = [(study, out, keep_saves, _describe(option_pairs) or "as given")]
    if against_pairs:
        changes = _options(ruleset, against_pairs)
        other = study.with_options(**changes)
        base = ruleset.resolve_options(options)
        studies[0] = (study, out, keep_saves, ", ".join(f"{k}={_toml_repr(base[k])}" for k in changes))
        studies.append((other, _beside(out, "against"), _beside(keep_saves, "against"), _describe(against_pairs)))
    tables = []
    for one, target, saves, label in studies:
        tables.append(_run_with_progress(console, one, label, quiet=quiet, out=target, workers=workers,
                                         backend=backend, address=address, resume=not restart, keep_saves=saves))
    summaries = [summarize(t) for t in tables]
    labels = (studies[0][3], studies[1][3]) if len(studies) == 2 else ("first", "second")
    print_report(console, summaries[0])
    if len(summaries) == 2:
        print_report(console, summaries[1], compare(summaries[0], summaries[1]), labels)
    if report_path is not None:
        page = html_report(tables, [s[3] for s in studies], title=f"Balance study: {ruleset.name}, scenario {scenario}")
        _write(report_path, page, "report")


def _describe(pairs: Sequence[str]) -> str:
    return ", ".join(p.strip() for p in pairs)


def _beside(path: Path | None, tag: str) -> Path | None:
    """``results.parquet`` → ``results-against.parquet`` (the compared study's own file)."""
    return None if path is None else path.with_name(f"{path.stem}-{tag}{path.suffix}")


def _run_with_progress(console: Console, study: Any, label: str, *, quiet: bool, **run: Any) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from .simulate import run_study

    if quiet:
        return run_study(study, **run)
    columns = (
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
    )
    import time

    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(f"{study.ruleset} ({label})", total=study.games, rate="–")
        started: list[float] = []

        def on_chunk(done: int, total: int) -> None:
            # games/s counts this run's games only (a resumed study's earlier ones were not played now).
            if not started:
                started.extend([time.perf_counter(), float(done)])
            elapsed = time.perf_counter() - started[0]
            rate = f"{(done - started[1]) / elapsed:.1f}" if elapsed > 0 and done > started[1] else "–"
            progress.update(task, completed=done, rate=rate)

        return run_study(study, on_chunk=on_chunk, **run)


def main(argv: Sequence[str] | None = None) -> None:
    """The console-script entry point."""
    cli.main(args=argv, prog_name="wargamekit")
