"""Balance studies: play thousands of seeded bot games of a ruleset, on every local core or a
Dask or Ray cluster, and report who wins how often (see :doc:`/balance`).

>>> from wargamekit.simulate import Study, run_study, summarize
>>> study = Study("skirmish", players=("bot", "random"), games=4, seed=7)
>>> table = run_study(study, workers=1)
>>> table.num_rows, table.column("game").to_pylist()
(4, [0, 1, 2, 3])
>>> summarize(table).games
4

A study is reproducible: game ``i`` is seeded :func:`game_seed(study.seed, i) <game_seed>`
and its bots :func:`bot_seed(game seed, side index) <wargamekit.players.bot_seed>`, so the
rows are the same with any number of workers and on any backend.
"""

from .report import Comparison, Rate, Summary, compare, html_report, print_report, summarize, wilson
from .runner import BACKENDS, chunk_size, play_chunk, run_study
from .study import Study, StudyError, game_seed, make_player, play_game, player_kinds

__all__ = [
    "BACKENDS",
    "Comparison",
    "Rate",
    "Study",
    "StudyError",
    "Summary",
    "chunk_size",
    "compare",
    "game_seed",
    "html_report",
    "make_player",
    "play_chunk",
    "play_game",
    "player_kinds",
    "print_report",
    "run_study",
    "summarize",
    "wilson",
]
