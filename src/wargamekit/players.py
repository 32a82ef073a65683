"""Players: anything that answers decisions.

The protocol is one method, ``choose(decision, view) -> answer``; a random bot, a heuristic bot,
a human at a terminal and a scripted test player are interchangeable.

>>> from wargamekit.decisions import Choose
>>> d = Choose.of("red", "Fire?", ["hold", "fire"])
>>> ScriptedPlayer(["fire"]).choose(d, None)
1
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from .decisions import Answer, Choose, ChooseNumber, ChooseSubset, Decision, YesNo
from .errors import InvalidChoiceError, QuitGame

if TYPE_CHECKING:
    from rich.console import Console

    from .view import PlayerView

__all__ = ["Player", "RandomBot", "ScriptedPlayer", "SeededBot", "TerminalPlayer", "bot_seed"]


def bot_seed(game_seed: int, side_index: int) -> int:
    """The seed of the bot playing side number ``side_index`` in a game seeded ``game_seed``.

    One formula for every driver (the CLI, :mod:`wargamekit.testing`, the scripts), so the same
    game seed reproduces the same bots everywhere.
    """
    return game_seed * 1009 + side_index + 1


@runtime_checkable
class Player(Protocol):
    """Answers decisions for one side."""

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        """Return an answer to ``decision`` (see :mod:`wargamekit.decisions` for the forms)."""
        ...


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

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        return decision.random_answer(self.rng)


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
        labels = [o.label for o in decision.options]

        def index(item: Any) -> Any:
            if isinstance(item, str):
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


class TerminalPlayer:
    """A human at a terminal: each decision is printed with its legal options and read back.

    Typing ``?`` shows the position (the ruleset's summary of this side's view); ``quit`` ends.
    """

    def __init__(self, console: Console | None = None, *, summary: Any = None) -> None:
        from rich.console import Console

        self.console = console or Console()
        self.summary = summary

    def _ask(self, text: str) -> str:
        answer = self.console.input(text).strip()
        if answer.lower() in {"quit", "q", "exit"}:
            raise QuitGame()
        return answer

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        from rich.table import Table

        c = self.console
        rule = f" [dim]({decision.rule})[/dim]" if decision.rule else ""
        c.print(f"\n[bold]{decision.side}[/bold]: {decision.prompt}{rule}")
        if isinstance(decision, (Choose, ChooseSubset)):
            table = Table(show_header=False, box=None, padding=(0, 1))
            for i, option in enumerate(decision.options):
                table.add_row(f"[cyan]{i}[/cyan]", option.label)
            c.print(table)
        while True:
            try:
                text = self._ask(self._prompt(decision))
                if text == "?":
                    if self.summary is not None:
                        c.print(self.summary(view))
                    continue
                return decision.check(self._parse(decision, text))
            except (InvalidChoiceError, ValueError) as exc:
                if isinstance(exc, QuitGame):
                    raise
                c.print(f"[red]{exc}[/red]")

    @staticmethod
    def _prompt(decision: Decision) -> str:
        if isinstance(decision, Choose):
            return f"choose 0-{len(decision.options) - 1} > "
        if isinstance(decision, ChooseSubset):
            return f"choose {decision.min_count}-{decision.upper} numbers separated by spaces > "
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
            raise InvalidChoiceError("answer y or n")
        try:
            if isinstance(decision, ChooseSubset):
                return [int(t) for t in text.replace(",", " ").split()]
            return int(text)
        except ValueError:
            raise InvalidChoiceError(f"{text!r} is not a whole number (or numbers)") from None
