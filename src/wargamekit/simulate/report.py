"""What a study's results say: win rates with 95 % confidence intervals, game lengths, scores,
and the comparison of two configurations — as a terminal table and a self-contained HTML page."""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from attrs import frozen

if TYPE_CHECKING:
    import pyarrow as pa
    from rich.console import Console

__all__ = ["Comparison", "Rate", "Summary", "compare", "html_report", "print_report", "summarize", "wilson"]


@frozen
class Rate:
    """A proportion with its 95 % Wilson score interval.

    Attributes:
        label: what is counted (``"A wins"``, ``"cautious wins"``, ``"draw"``).
        count: how many games.
        total: out of how many.
        low: the interval's lower end.
        high: its upper end.
    """

    label: str
    count: int
    total: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        """``count / total`` (0 for no games)."""
        return self.count / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"{self.rate:.1%} [{self.low:.1%}, {self.high:.1%}]"


def wilson(label: str, count: int, total: int) -> Rate:
    """``count`` of ``total`` with its 95 % Wilson interval (scipy's ``binomtest``).

    >>> r = wilson("A wins", 60, 100)
    >>> round(r.low, 3), round(r.high, 3)
    (0.502, 0.691)
    """
    from scipy.stats import binomtest

    if total == 0:
        return Rate(label, 0, 0, 0.0, 1.0)
    interval = binomtest(count, total).proportion_ci(confidence_level=0.95, method="wilson")
    return Rate(label, count, total, float(interval.low), float(interval.high))


@frozen
class Summary:
    """A study's results in brief.

    Attributes:
        title: ruleset, scenario and options.
        games: games played.
        sides: win rate of each side (and of draws, last).
        players: win rate of each player kind (when the seats alternate, the fair comparison).
        mean_scores: mean score per side.
        player_scores: mean score per player kind (of the side it played), when the study
            has more than one kind.
        mean_decisions: mean answers per game.
        mean_turns: mean turns per game (``None`` if the ruleset records no turn).
        reasons: how games ended, most common first, as ``(reason, count)``.
    """

    title: str
    games: int
    sides: tuple[Rate, ...]
    players: tuple[Rate, ...]
    mean_scores: tuple[tuple[str, float], ...]
    player_scores: tuple[tuple[str, float], ...]
    mean_decisions: float
    mean_turns: float | None
    reasons: tuple[tuple[str, int], ...]


def _sides(table: pa.Table) -> list[str]:
    return [name.removeprefix("player_") for name in table.column_names if name.startswith("player_")]


def _title(table: pa.Table) -> str:
    if table.num_rows == 0:
        return "no games"
    first = table.slice(0, 1).to_pylist()[0]
    return f"{first['ruleset']} {first['version']} — scenario {first['scenario']} — options {first['options']}"


def summarize(table: pa.Table) -> Summary:
    """The :class:`Summary` of a results table (from :func:`~wargamekit.simulate.run_study` or
    read back from its Parquet file)."""
    from collections import Counter

    n = table.num_rows
    sides = _sides(table)
    winners = Counter(table.column("winner").to_pylist()) if n else Counter()
    by_player = Counter(table.column("winner_player").to_pylist()) if n else Counter()
    kinds = list(dict.fromkeys(k for s in sides for k in table.column(f"player_{s}").to_pylist()))
    side_rates = [wilson(f"{side} wins", winners[side], n) for side in sides]
    side_rates.append(wilson("draw", winners[None], n))
    player_rates = [wilson(f"{kind} wins", by_player[kind], n) for kind in kinds] if len(kinds) > 1 else []
    scores = tuple((s, _mean(table.column(f"score_{s}").to_pylist())) for s in sides)
    earned: dict[str, list[float]] = {kind: [] for kind in kinds}
    for s in sides:
        for kind, score in zip(table.column(f"player_{s}").to_pylist(), table.column(f"score_{s}").to_pylist(), strict=True):
            earned[kind].append(score)
    player_scores = tuple((kind, _mean(earned[kind])) for kind in kinds) if len(kinds) > 1 else ()
    turns = [t for t in table.column("turns").to_pylist() if t is not None] if n else []
    reasons = Counter(table.column("reason").to_pylist()) if n else Counter()
    return Summary(
        title=_title(table),
        games=n,
        sides=tuple(side_rates),
        players=tuple(player_rates),
        mean_scores=scores,
        player_scores=player_scores,
        mean_decisions=_mean(table.column("decisions").to_pylist()) if n else 0.0,
        mean_turns=_mean(turns) if turns else None,
        reasons=tuple((str(r), c) for r, c in reasons.most_common()),
    )


def _mean(values: Sequence[Any]) -> float:
    values = [v for v in values if v is not None]
    return float(sum(values) / len(values)) if values else 0.0


@frozen
class Comparison:
    """One outcome's rate under two configurations and the significance of the difference.

    Attributes:
        label: the outcome (``"A wins"``).
        first: its rate in the first configuration.
        second: its rate in the second.
        p_value: two-sided p-value of the two-proportion test (a chi-squared test of the 2×2
            table without continuity correction, which is the pooled z-test).
    """

    label: str
    first: Rate
    second: Rate
    p_value: float

    @property
    def difference(self) -> float:
        """Second rate minus first."""
        return self.second.rate - self.first.rate


def compare(first: Summary, second: Summary) -> tuple[Comparison, ...]:
    """Compare every side's (and the draws') win rate between two studies."""
    from scipy.stats import chi2_contingency

    found = []
    for a, b in zip(first.sides, second.sides, strict=True):
        table = [[a.count, a.total - a.count], [b.count, b.total - b.count]]
        if min(sum(col) for col in zip(*table, strict=True)) == 0:
            p = 1.0  # the outcome never (or always) happened in either: no difference to test
        else:
            p = float(chi2_contingency(table, correction=False).pvalue)
        found.append(Comparison(a.label, a, b, p))
    return tuple(found)


# -- terminal ----------------------------------------------------------------------------------


def print_report(console: Console, summary: Summary, comparison: Sequence[Comparison] = (),
                 labels: tuple[str, str] = ("first", "second")) -> None:
    """Print ``summary`` (and a comparison) as rich tables."""
    from rich.table import Table

    console.print(f"{summary.title} — {summary.games} games", markup=False, soft_wrap=True)
    table = Table("outcome", "games", "rate", "95% CI")
    for rate in (*summary.sides, *summary.players):
        table.add_row(rate.label, str(rate.count), f"{rate.rate:.1%}", f"{rate.low:.1%} – {rate.high:.1%}")
    console.print(table)
    scores = ", ".join(f"{who} {score:.2f}" for who, score in (*summary.mean_scores, *summary.player_scores))
    turns = f", turns {summary.mean_turns:.1f}" if summary.mean_turns is not None else ""
    console.print(f"per game: scores {scores}; decisions {summary.mean_decisions:.1f}{turns}", markup=False)
    if comparison:
        cmp = Table("outcome", labels[0], labels[1], "difference", "p-value", title="comparison")
        for c in comparison:
            cmp.add_row(c.label, str(c.first), str(c.second), f"{c.difference:+.1%}", f"{c.p_value:.3g}")
        console.print(cmp)


# -- HTML --------------------------------------------------------------------------------------


def _svg(figure: Any) -> str:
    buffer = io.StringIO()
    # No date or tool stamp: the same results give the same page.
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _figures(tables: Sequence[pa.Table], summaries: Sequence[Summary], labels: Sequence[str]) -> list[tuple[str, str]]:
    try:
        import matplotlib
    except ImportError:  # pragma: no cover - depends on the install
        from .study import StudyError

        raise StudyError("the HTML report draws with matplotlib: pip install 'wargamekit[report]'") from None
    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable
    plt.rcParams["svg.hashsalt"] = "wargamekit"  # stable element ids
    figures = []
    # Win rates with their intervals, configurations side by side.
    fig, ax = plt.subplots(figsize=(7, 3.2))
    # Sides, draws, then player kinds (with alternating seats, the players' own win rates).
    outcomes = [r.label for r in (*summaries[0].sides, *summaries[0].players)]
    width = 0.8 / len(summaries)
    for k, (summary, label) in enumerate(zip(summaries, labels, strict=True)):
        xs = [i + (k - (len(summaries) - 1) / 2) * width for i in range(len(outcomes))]
        shown = (*summary.sides, *summary.players)
        rates = [r.rate for r in shown]
        errors = [[r.rate - r.low for r in shown], [r.high - r.rate for r in shown]]
        ax.bar(xs, rates, width, yerr=errors, capsize=4, label=label)
    ax.set_xticks(range(len(outcomes)), outcomes)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games (95% Wilson CI)")
    if len(summaries) > 1:
        ax.legend()
    figures.append(("Win rates per side", _svg(fig)))
    plt.close(fig)
    # Game length and scores, as histograms.
    for column, title in (("decisions", "Game length (decisions per game)"), ("turns", "Game length (turns per game)")):
        series = [[v for v in t.column(column).to_pylist() if v is not None] for t in tables]
        if not any(series):
            continue
        fig, ax = plt.subplots(figsize=(7, 2.8))
        ax.hist(series, bins=30, label=list(labels), histtype="step" if len(series) > 1 else "bar")
        ax.set_xlabel(column)
        ax.set_ylabel("games")
        if len(series) > 1:
            ax.legend()
        figures.append((title, _svg(fig)))
        plt.close(fig)
    sides = _sides(tables[0])
    fig, axes = plt.subplots(1, len(sides), figsize=(7, 2.8), squeeze=False)
    for ax, side in zip(axes[0], sides, strict=True):
        series = [t.column(f"score_{side}").to_pylist() for t in tables]
        ax.hist(series, bins=20, label=list(labels), histtype="step" if len(series) > 1 else "bar")
        ax.set_title(f"score of {side}")
        ax.set_xlabel("score")
    axes[0][0].set_ylabel("games")
    figures.append(("Score distributions", _svg(fig)))
    plt.close(fig)
    return figures


def _rates_table(summary: Summary) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(r.label)}</td><td>{r.count}</td><td>{r.rate:.1%}</td><td>{r.low:.1%} – {r.high:.1%}</td></tr>"
        for r in (*summary.sides, *summary.players)
    )
    scores = ", ".join(f"{html.escape(s)} {v:.2f}" for s, v in (*summary.mean_scores, *summary.player_scores))
    turns = f"; turns {summary.mean_turns:.1f}" if summary.mean_turns is not None else ""
    reasons = "".join(f"<li>{c} × {html.escape(r)}</li>" for r, c in summary.reasons[:8])
    return (
        f"<h3>{html.escape(summary.title)} — {summary.games} games</h3>"
        "<table><tr><th>outcome</th><th>games</th><th>rate</th><th>95% CI</th></tr>"
        f"{rows}</table><p>Per game: scores {scores}; decisions {summary.mean_decisions:.1f}{turns}.</p>"
        f"<details><summary>How games ended</summary><ul>{reasons}</ul></details>"
    )


def html_report(
    tables: Sequence[pa.Table], labels: Sequence[str] = ("study",), title: str = "Balance study"
) -> str:
    """A self-contained HTML page (inline SVG plots, no scripts, no network) of one study, or of
    two configurations compared."""
    summaries = [summarize(t) for t in tables]
    parts = [f"<h1>{html.escape(title)}</h1>"]
    for summary, label in zip(summaries, labels, strict=True):
        parts.append(f"<h2>{html.escape(label)}</h2>{_rates_table(summary)}")
    if len(summaries) == 2:
        rows = "".join(
            f"<tr><td>{html.escape(c.label)}</td><td>{c.first}</td><td>{c.second}</td>"
            f"<td>{c.difference:+.1%}</td><td>{c.p_value:.3g}</td></tr>"
            for c in compare(summaries[0], summaries[1])
        )
        parts.append(
            f"<h2>{html.escape(labels[0])} vs {html.escape(labels[1])}</h2>"
            f"<table><tr><th>outcome</th><th>{html.escape(labels[0])}</th><th>{html.escape(labels[1])}</th>"
            f"<th>difference</th><th>p-value</th></tr>{rows}</table>"
            "<p>p-value: two-proportion test (χ² on the 2×2 table, no continuity correction). "
            "Both configurations play the same game seeds.</p>"
        )
    for caption, svg in _figures(tables, summaries, labels):
        parts.append(f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>")
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .6em;text-align:right}"
        "td:first-child,th:first-child{text-align:left}figure{margin:1.5em 0}figcaption{font-weight:bold}"
        "svg{max-width:100%;height:auto}"
    )
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{style}</style></head><body>{''.join(parts)}</body></html>\n"
    )
