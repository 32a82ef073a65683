"""Loads from the snapshot cache with and without the scenario's objects already unpickled.

Run: ``uv run pytest benchmarks/test_bench_cache.py -p no:cacheprovider --benchmark-enable``

``test_cached_load`` loads the save of a random-bot game at decision 200 (as
``test_bench_games.py::test_restart`` does, the same games) from the
:class:`~wargamekit.snapshot_cache.SnapshotCache` its save wrote, with no game of its inputs in
the process, in two ways:

* ``shared`` — every load through the same cache object, as ``test_restart``'s
  ``load_cached`` does and a server holding one cache would: from the second load on, the
  entry's scenario part (the structured scenario, the map or board) is the one this cache
  object already unpickled, its derived caches built by the games before;
* ``unpickled`` — every load through a new cache object, as the first load of a fresh process
  is: the scenario part is unpickled and the derived caches the entry keeps beside it (a map's
  movement graphs, lines of sight) are put back.

Both also time the ten answers after the load (``extra_info["next_answers_cpu_s"]``), against
the same answers after an in-process load (``next_answers_in_process_cpu_s``): what a load
leaves cold shows there.

``extra_info`` has the cost in *ordinary answers* (the game's own answers given one by one on a
fresh game, the average of the first 200; CPU time, interleaved in the same passes, medians),
and the baselines measured in the same run: the in-process load (a live game of the same inputs
lends its snapshots: what a cached load tries to match) and the replay from the start (what it
replaces). Nothing here asserts on timings.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import pytest

from wargamekit import Game, SaveFile
from wargamekit import game as game_module
from wargamekit.plugins import installed_rulesets
from wargamekit.snapshot_cache import SnapshotCache

RULESETS = sorted(installed_rulesets())
AT = 200
NEXT = 10
TARGET_ANSWERS = 20
@pytest.mark.parametrize("scenario_objects", ["shared", "unpickled"])
@pytest.mark.parametrize("name", RULESETS)
def test_cached_load(benchmark, name, scenario_objects, tmp_path, long_games):
    played, scenario = long_games.game(name, AT + NEXT)
    ruleset = played.ruleset
    choices = played.choices[:AT]
    after = played.choices[AT : AT + NEXT]
    rulesets = {ruleset.name: ruleset}

    def answers_cpu_s() -> float:
        return long_games.answers_cpu_s(played, scenario, AT)

    game = Game.new(ruleset, scenario, seed=played.seed)
    for choice in choices:
        game.answer(choice)
    directory = tmp_path / "snapshots"
    text = game.save(snapshots=SnapshotCache(directory)).to_json()
    held = SnapshotCache(directory)

    def cached_load() -> Game:
        game_module._LADDERS.clear()
        cache = held if scenario_objects == "shared" else SnapshotCache(directory)
        loaded = Game.load(SaveFile.from_json(text), rulesets=rulesets, snapshots=cache)
        assert cache.stats.last_position is not None, "the load missed the cache"
        return loaded

    def in_process_load() -> Game:  # the played game is alive: the load starts from its snapshots
        return Game.load(SaveFile.from_json(text), rulesets=rulesets)

    def in_process_cpu_s() -> float:
        game._register_ladder()  # (not timed) the played game, which cached_load's clear forgot
        return long_games.cpu_once(in_process_load)

    def next_answers_in_process_cpu_s() -> float:
        game._register_ladder()
        return next_answers_cpu_s(in_process_load)

    def full_replay() -> Game:
        game_module._LADDERS.clear()
        return Game.load(SaveFile.from_json(text), rulesets=rulesets)

    def next_answers_cpu_s(load: Callable[[], Game]) -> float:
        loaded = load()
        t0 = time.process_time()
        for choice in after:
            loaded.answer(choice)
        return time.process_time() - t0

    result = benchmark.pedantic(cached_load, rounds=20, warmup_rounds=1)
    assert result.log_text() == game.log_text()
    per_answer, costs, in_process, next_cached, next_in_process = [], [], [], [], []
    for _ in range(5):
        per_answer.append(answers_cpu_s() / AT)
        costs.extend(long_games.cpu_once(cached_load) for _ in range(4))
        next_cached.append(next_answers_cpu_s(cached_load))
        in_process.extend(in_process_cpu_s() for _ in range(4))
        next_in_process.append(next_answers_in_process_cpu_s())
    replay_s = statistics.median(long_games.cpu_once(full_replay) for _ in range(3))
    game_module._LADDERS.clear()
    answer_s, cost_s = statistics.median(per_answer), statistics.median(costs)
    in_process_s = statistics.median(in_process)
    benchmark.extra_info.update(
        scenario="default" if scenario is None else f"default with {long_games.longer[name]}",
        seed=played.seed,
        ordinary_answer_cpu_s=answer_s,
        cost_cpu_s=cost_s,
        cost_in_answers=cost_s / answer_s,
        target_answers=TARGET_ANSWERS,
        cost_in_answers_over_target=cost_s / answer_s / TARGET_ANSWERS,
        in_process_load_in_answers=in_process_s / answer_s,
        in_process_over_ours=in_process_s / cost_s,
        full_replay_cpu_s=replay_s,
        full_replay_over_ours=replay_s / cost_s,
        next_answers_cpu_s=statistics.median(next_cached),
        next_answers_in_process_cpu_s=statistics.median(next_in_process),
    )
