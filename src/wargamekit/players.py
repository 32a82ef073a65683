"""Players: anything that answers decisions.

The protocol is one method, ``choose(decision, view) -> answer``; a random bot, a heuristic bot,
a human at a terminal and a scripted test player are interchangeable.

>>> from wargamekit.decisions import Choose
>>> d = Choose.of("red", "Fire?", ["hold", "fire"])
>>> ScriptedPlayer(["fire"]).choose(d, None)
1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from .decisions import Answer, Choose, ChooseNumber, ChooseSubset, Decision, LazyOptions, Option, YesNo, _bounded
from .errors import InvalidChoiceError, QuitGame

if TYPE_CHECKING:
    from rich.console import Console

    from .view import PlayerView

__all__ = [
    "STOPS",
    "Player",
    "RandomBot",
    "ScriptedPlayer",
    "SeededBot",
    "TerminalPlayer",
    "UndoRequest",
    "auto_pass",
    "bot_seed",
    "is_pass",
    "playable",
    "reads_view_only",
    "why_not",
]


def bot_seed(game_seed: int, side_index: int) -> int:
    """The seed of the bot playing side number ``side_index`` in a game seeded ``game_seed``.

    One formula for every driver (the CLI, :mod:`wargamekit.testing`, the scripts), so the same
    game seed reproduces the same bots everywhere.
    """
    return game_seed * 1009 + side_index + 1


@runtime_checkable
class Player(Protocol):
    """Answers decisions for one side.

    **The read-only promise.** A player class may set ``reads_view_only = True`` (a class
    attribute; the optional part of the protocol): it promises that its ``choose`` never
    writes anything reachable from ``view.state`` and never reads a state it kept from an
    earlier call. The game then hands it the ruleset's
    :meth:`~wargamekit.ruleset.Ruleset.shared_view`, which may be the live state itself where
    the side may see all of it (no copy per decision), valid only during that ``choose``.
    Without the attribute (or with any value but ``True``) the player gets a copy
    (:meth:`~wargamekit.ruleset.Ruleset.view`) it may change freely. The promise is checked:
    :func:`wargamekit.testing.check_ruleset` plays games between each bundled bot that makes
    it and fails, naming the bot and the field, if one changes the state it was handed.

    >>> class Cautious(RandomBot):
    ...     reads_view_only = True  # only reads view.state; never keeps it
    >>> reads_view_only(Cautious()), reads_view_only(RandomBot())
    (True, False)
    """

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        """Return an answer to ``decision`` (see :mod:`wargamekit.decisions` for the forms)."""
        ...


def reads_view_only(player: object) -> bool:
    """Whether ``player`` makes the read-only promise (``reads_view_only = True``; see
    :class:`Player`), so it may be handed a view that shares the live state."""
    return getattr(player, "reads_view_only", False) is True


class SeededBot:
    """Base for bots: a seed and the bot's own generator (for tie-breaks and random choices).

    The generator is separate from the game's dice, so a bot's choices never change the dice a
    game rolls — and a replay of its recorded answers is exact. Subclasses implement
    :meth:`choose`; a bot factory for :meth:`~wargamekit.ruleset.Ruleset.bots` is the class itself.
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = np.random.Generator(np.random.PCG64(seed))

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class RandomBot(SeededBot):
    """Picks a uniformly random legal answer, from its own seeded generator."""

    #: (the generator, its 32-bit draw function, its state) once read, for :meth:`choose`
    _draws: tuple[np.random.Generator, Any, Any] | None = None

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        if type(decision) is Choose:
            # Hot: most answers. Choose.random_answer's draw, without its call, from the
            # generator's draw function read once (through numpy, as random_answer reads it
            # at every answer, reading it costs as much as the draw).
            draws = self._draws
            if draws is None or draws[0] is not self.rng:
                ctypes = self.rng.bit_generator.ctypes
                draws = self._draws = (self.rng, ctypes.next_uint32, ctypes.state)
            options = decision.options  # (a lazy menu's length from its values: its len() is a call)
            return _bounded(draws[1], draws[2], (len(options._values) if type(options) is LazyOptions else len(options)) - 1)
        return decision.random_answer(self.rng)

    def __getstate__(self) -> dict[str, Any]:
        # A pickle or copy holds the generator, never its ctypes draw function (which neither
        # pickles nor copies); a copy reads its own on its first answer.
        state = dict(self.__dict__)
        state.pop("_draws", None)
        return state


class ScriptedPlayer:
    """Answers from a list, in order (for tests).

    Each entry is an answer in recorded form, or for :class:`~wargamekit.decisions.Choose` the
    option's label (a string); for :class:`~wargamekit.decisions.ChooseSubset` a list of labels
    or indices.
    """

    def __init__(self, answers: Iterable[Any]) -> None:
        self.answers = list(answers)
        self.position = 0

    def choose(self, decision: Decision, view: PlayerView | None) -> Answer:
        if self.position >= len(self.answers):
            raise InvalidChoiceError(f"{decision.prompt}: the script of answers ran out")
        raw = self.answers[self.position]
        self.position += 1
        return resolve_labels(decision, raw)


def resolve_labels(decision: Decision, raw: Any) -> Any:
    """Turn option labels into indices for choose/subset decisions; leave other answers alone."""
    if isinstance(decision, (Choose, ChooseSubset)):

        def index(item: Any) -> Any:
            if isinstance(item, str):
                # Read only for an answer given as a label, so an index leaves lazy labels unmade.
                labels = [o.label for o in decision.options]
                if item not in labels:
                    raise InvalidChoiceError(f"{decision.prompt}: no option {item!r}; options are {labels}")
                found = [i for i, label in enumerate(labels) if label == item]
                if len(found) > 1:
                    raise InvalidChoiceError(
                        f"{decision.prompt}: {item!r} is the label of options {found}; give the index"
                    )
                return found[0]
            return item

        if isinstance(decision, Choose):
            return index(raw)
        if isinstance(raw, str):
            # Iterating the string would look up each letter as a label.
            raise InvalidChoiceError(f"{decision.prompt}: give a list of labels or indices, not {raw!r}")
        return [index(i) for i in raw]
    return raw


class UndoRequest(Exception):  # noqa: N818 - a request, like QuitGame, not a failure
    """A human typed ``undo``: the driver takes back that side's last answer (and every answer
    given after it) with :meth:`~wargamekit.game.Game.undo` and asks again.

    Raised by :meth:`TerminalPlayer.choose` before any answer is given, so the game is
    unchanged; :func:`wargamekit.game.Game.play` lets it through to the driver.
    """

    def __init__(self, side: str) -> None:
        super().__init__(f"{side} asks to take back their last answer")
        self.side = side


#: The stop settings of :class:`TerminalPlayer` (like digital card games' auto-pass):
#: ``"playable"`` asks a response window only when an offered response can actually be played;
#: ``"all"`` asks at every window the rules open (full control).
STOPS = ("playable", "all")


def is_pass(option: Option) -> bool:
    """Whether ``option`` is a response window's pass (its data is ``{"pass": True}``)."""
    return bool(option.data) and option.data.get("pass") is True


def _flags(option: Option) -> Mapping[str, Any]:
    """Where a response's flags are: the response's own data (``{"respond": data}``, see
    :meth:`~wargamekit.interrupts.Response.option_data`), or the option's data itself."""
    data: Mapping[str, Any] = option.data or {}
    inner = data.get("respond")
    return inner if isinstance(inner, Mapping) else data


def playable(option: Option) -> bool:
    """Whether a response is worth stopping for now.

    A ruleset marks a response that is legal but would do nothing now, or is offered at a
    point where nothing calls for an answer, with ``"playable": False`` and a ``"why"`` in its
    data (the :class:`~wargamekit.interrupts.Response`'s data); anything else counts as
    playable.
    """
    return _flags(option).get("playable") is not False


def why_not(option: Option) -> str:
    """The ruleset's reason a response is not :func:`playable` (``"no effect now"`` if none)."""
    return str(_flags(option).get("why", "no effect now"))


def auto_pass(decision: Decision) -> int | None:
    """The index of the pass option, if ``decision`` is a response window in which no offered
    response is playable (see :func:`playable`); else ``None``.

    >>> from wargamekit.decisions import Option
    >>> d = Choose(side="a", prompt="respond?", options=[Option(None, "pass", data={"pass": True}),
    ...            Option("heal", "heal Sayo", data={"spell": "heal", "playable": False})])
    >>> auto_pass(d)
    0
    """
    if not isinstance(decision, Choose):
        return None
    passes = [i for i, o in enumerate(decision.options) if is_pass(o)]
    if len(passes) != 1:
        return None
    if any(playable(o) for i, o in enumerate(decision.options) if i != passes[0]):
        return None
    return passes[0]


_HELP = (
    "Commands: a number (or p to pass a response window) answers; ? shows the position and the "
    "rule asking; rules shows the rule; undo takes back your last answer; stops all / stops "
    "playable switches full control of response windows; quit (or Ctrl-C) stops and saves."
)


class TerminalPlayer:
    """A human at a terminal: each decision is printed with its legal options and read back.

    Everything is printed as plain text (never as console markup), so a label such as
    ``Tiger [fired]`` reaches the screen as written. Typing ``?`` shows the position (the
    ruleset's summary of this side's view) and the rule asking; ``rules`` the rule alone;
    ``undo`` raises :class:`UndoRequest`; ``quit`` or Ctrl-C raises
    :class:`~wargamekit.errors.QuitGame`. A response window's pass is typed ``p``, so a digit
    never means "pass" in one menu and something else in the next. An option whose data says
    ``"concede": True`` is confirmed before it is given.

    Args:
        console: where to print and read (default: a new rich console).
        summary: ``summary(view) -> str``, what ``?`` prints.
        stops: ``"playable"`` (default: a response window in which nothing offered is
            playable is passed without asking, and the pass is printed) or ``"all"``.
    """

    def __init__(self, console: Console | None = None, *, summary: Any = None, stops: str = "playable") -> None:
        from rich.console import Console

        if stops not in STOPS:
            raise InvalidChoiceError(f"stops: expected one of {list(STOPS)}, got {stops!r}")
        self.console = console or Console()
        self.summary = summary
        self.stops = stops
        self._told_auto_pass = False

    def _say(self, text: str, style: str | None = None) -> None:
        # markup=False: the text is the ruleset's, and "[fired]" is a marker, not a style.
        self.console.print(text, style=style, markup=False, highlight=False, soft_wrap=True)

    def _ask(self, text: str) -> str:
        from rich.text import Text

        try:
            answer = self.console.input(Text(text)).strip()
        except KeyboardInterrupt:
            # Ctrl-C at the prompt stops like quit (the driver saves); nothing was answered.
            raise QuitGame("interrupted (Ctrl-C)") from None
        if answer.lower() in {"quit", "q", "exit"}:
            raise QuitGame()
        return answer

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        from rich.table import Table
        from rich.text import Text

        if self.stops == "playable":
            index = auto_pass(decision)
            if index is not None:
                if not self._told_auto_pass:
                    # Said once: the log shows each pass, and the reasons are in the options' data.
                    assert isinstance(decision, Choose)
                    reasons = sorted({why_not(o) for o in decision.options if not is_pass(o)})
                    self._say(f"({decision.side} passes response windows where nothing calls for an answer, "
                              f"e.g. {decision.prompt.removesuffix(' respond?').rstrip(':')}: {'; '.join(reasons)}. "
                              "Type stops all at a prompt to be asked at every window.)", style="dim")
                    self._told_auto_pass = True
                return index
        self._say(f"\n{decision.side}: {decision.prompt}", style="bold")
        if isinstance(decision, (Choose, ChooseSubset)):
            table = Table(show_header=False, box=None, padding=(0, 1))
            for key, option in self._keys(decision):
                table.add_row(Text(key, style="cyan"), Text(option.label))
            self.console.print(table)
        while True:
            try:
                text = self._ask(self._prompt(decision))
                command = text.lower()
                if command in {"?", "help", "h"}:
                    if self.summary is not None:
                        self._say(self.summary(view))
                    if decision.rule:
                        self._say(f"rule: {decision.rule}", style="dim")
                    self._say(_HELP, style="dim")
                    continue
                if command in {"rules", "rule"}:
                    self._say(f"rule: {decision.rule}" if decision.rule else "rule: (not given)", style="dim")
                    continue
                if command == "undo":
                    raise UndoRequest(decision.side)
                if command.startswith("stops"):
                    wanted = command.removeprefix("stops").strip()
                    if wanted in STOPS:
                        self.stops = wanted
                        self._say(f"stops: {wanted}", style="dim")
                    else:
                        self._say(f"stops: now {self.stops}; type stops all (full control) or stops playable",
                                  style="dim")
                    continue
                answer = decision.check(self._parse(decision, text))
                if not self._confirmed(decision, answer):
                    continue
                return answer
            except (InvalidChoiceError, ValueError) as exc:
                if isinstance(exc, QuitGame):
                    raise
                self._say(str(exc), style="red")

    @staticmethod
    def _keys(decision: Choose | ChooseSubset) -> list[tuple[str, Option]]:
        """What the human types for each option: its index, or ``p`` for a window's pass."""
        return [("p" if isinstance(decision, Choose) and is_pass(o) else str(i), o)
                for i, o in enumerate(decision.options)]

    def _confirmed(self, decision: Decision, answer: Answer) -> bool:
        """A concession is asked twice: one mistyped digit must not end the game."""
        if not isinstance(decision, Choose) or not isinstance(answer, int):
            return True
        option = decision.options[answer]
        if not (option.data and option.data.get("concede") is True):
            return True
        reply = self._ask(f"{option.label}: this ends the game. Really concede? (yes/no) > ")
        if reply.lower() in {"y", "yes"}:
            return True
        self._say("not conceded; choose again", style="dim")
        return False

    @staticmethod
    def _prompt(decision: Decision) -> str:
        if isinstance(decision, Choose):
            keys = [k for k, _ in TerminalPlayer._keys(decision)]
            numbers = [k for k in keys if k != "p"]
            shown = f"{numbers[0]}-{numbers[-1]}" if len(numbers) > 1 else (numbers[0] if numbers else "")
            if "p" in keys:
                shown = f"{shown} or p (pass)" if shown else "p (pass)"
            return f"choose {shown} > "
        if isinstance(decision, ChooseSubset):
            empty = " (Enter alone for none)" if decision.min_count == 0 else ""
            return f"choose {decision.min_count}-{decision.upper} numbers separated by spaces{empty} > "
        if isinstance(decision, ChooseNumber):
            return f"number {decision.low}-{decision.high} > "
        return "yes or no > "

    @staticmethod
    def _parse(decision: Decision, text: str) -> Any:
        if isinstance(decision, YesNo):
            if text.lower() in {"y", "yes"}:
                return True
            if text.lower() in {"n", "no"}:
                return False
            raise InvalidChoiceError("answer y or n" if text else "an empty answer: type y or n")
        if isinstance(decision, Choose):
            keys = dict(TerminalPlayer._keys(decision))
            if text.lower() in {"p", "pass"} and "p" in keys:
                return next(i for i, o in enumerate(decision.options) if is_pass(o))
            if not text:
                raise InvalidChoiceError(f"an empty answer: {TerminalPlayer._prompt(decision).removesuffix(' > ')}"
                                         " (? shows the position and help)")
            if text.isdigit() and int(text) < len(decision.options) and is_pass(decision.options[int(text)]):
                raise InvalidChoiceError(f"{text} is not an option here: type p to pass")
        if not text and not isinstance(decision, ChooseSubset):
            raise InvalidChoiceError("an empty answer: type a number (? shows the position and help)")
        try:
            if isinstance(decision, ChooseSubset):
                return [int(t) for t in text.replace(",", " ").split()]
            return int(text)
        except ValueError:
            raise InvalidChoiceError(f"{text!r} is not a whole number (or numbers)") from None
