"""The snapshot cache: a save loaded in a fresh process restarts at a cached checkpoint snapshot
(issue 9), and whatever the cache holds, the log stays the truth.

Each test has a cache directory of its own (``tmp_path``); the fresh processes are real
``subprocess`` runs of Python that count the answers their load replays.
"""

from __future__ import annotations

import json
import os
import pickle
import stat
import subprocess
import sys
import time
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from wargamekit import Game, SaveFile, snapshot_cache
from wargamekit import game as game_module
from wargamekit.cli import cli
from wargamekit.players import RandomBot, bot_seed
from wargamekit.plugins import installed_rulesets
from wargamekit.snapshot_cache import ENV_CACHE_DIR, ENV_NO_CACHE, SnapshotCache
from wargamekit.view import CACHE

RULESETS = sorted(installed_rulesets())

#: a fresh process: loads the save at argv[2] with the cache at argv[1], then again with no
#: cache (and no game of its inputs in the process), counting the answers each load gives;
#: prints them, the cache's figures and the logs
_CHILD = """
import json, sys
from wargamekit import Game
from wargamekit import game as game_module
from wargamekit.snapshot_cache import SnapshotCache

answered = 0
original = Game.answer

def counting(self, *args, **kwargs):
    global answered
    answered += 1
    return original(self, *args, **kwargs)

Game.answer = counting
cache = SnapshotCache(sys.argv[1])
cached = Game.load(sys.argv[2], snapshots=cache)
cached_answers, answered = answered, 0
game_module._LADDERS.clear()
replayed = Game.load(sys.argv[2])
print(json.dumps({
    "cached": {"answers": cached_answers, "log": cached.log_text()},
    "hits": cache.stats.hits,
    "restored_at": cache.stats.last_position,
    "uncached": {"answers": answered, "log": replayed.log_text()},
}))
"""


def _fresh_loads(cache_dir: Path, save_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != ENV_NO_CACHE}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(cache_dir), str(save_path)],
        check=True, capture_output=True, text=True, env=env,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _played(name: str, answers: int = 80, seed: int = 0) -> Game:
    """A random-bot game of ``name`` stopped after ``answers`` answers (or at its end)."""
    ruleset = installed_rulesets()[name]
    game = Game.new(ruleset, seed=seed)
    players = {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(ruleset.sides)}
    game.play(players, until=lambda g: len(g.choices) >= answers)
    return game


def _count_answers(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    count = [0]
    original = Game.answer

    def counting(self, *args, **kwargs):
        count[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Game, "answer", counting)
    return count


def _cold_load(save: SaveFile, cache: SnapshotCache | None) -> Game:
    """A load with no game of the save's inputs in this process (as in a fresh one)."""
    game_module._LADDERS.clear()
    return Game.load(save, snapshots=cache)


@pytest.fixture(autouse=True)
def _cache_on(monkeypatch):
    monkeypatch.delenv(ENV_NO_CACHE, raising=False)
    yield
    game_module._LADDERS.clear()


@pytest.mark.parametrize("name", RULESETS)
def test_a_fresh_process_restores_from_the_snapshot_with_the_same_log(tmp_path, name):
    game = _played(name)
    cache_dir = tmp_path / "cache"
    save_path = tmp_path / "game.save.json"
    save_path.write_text(game.save(snapshots=SnapshotCache(cache_dir)).to_json())
    assert len(SnapshotCache(cache_dir).entries()) == 1

    loads = _fresh_loads(cache_dir, save_path)
    assert loads["cached"]["log"] == game.log_text()  # byte for byte
    assert loads["hits"] == 1
    # proof: the load answered only the choices after the restored snapshot
    assert 0 < loads["restored_at"] <= len(game.choices)
    assert loads["cached"]["answers"] == len(game.choices) - loads["restored_at"]
    assert loads["cached"]["answers"] < len(game.choices)
    # the same process with no cache replays every answer to the same log
    assert loads["uncached"] == {"answers": len(game.choices), "log": game.log_text()}


def test_a_load_that_replays_writes_the_entry_the_next_load_starts_from(tmp_path, monkeypatch):
    game = _played("skirmish", 120)
    save = game.save()  # no cache: no entry
    cache = SnapshotCache(tmp_path)
    assert cache.entries() == []
    first = _cold_load(save, cache)
    assert (cache.stats.misses, cache.stats.written) == (1, 1)  # a miss, then the entry written
    answered = _count_answers(monkeypatch)
    second = _cold_load(save, cache)
    assert cache.stats.hits == 1 and answered[0] == len(game.choices) - cache.stats.last_position
    assert first.log_text() == second.log_text() == game.log_text()


def test_a_game_loaded_from_the_cache_undoes_forks_and_plays_on_as_the_original(tmp_path):
    game = _played("tank_solo", 60, seed=3)
    cache = SnapshotCache(tmp_path)
    save = game.save(snapshots=cache)
    loaded = _cold_load(save, cache)
    assert cache.stats.hits == 1
    assert loaded.fork().log_text() == game.log_text()
    loaded.undo(3)
    game.undo(3)
    assert loaded.log_text() == game.log_text()
    players = {side: RandomBot(bot_seed(9, i)) for i, side in enumerate(game.ruleset.sides)}
    assert loaded.play(players) == game.play({s: RandomBot(bot_seed(9, i)) for i, s in enumerate(game.ruleset.sides)})
    assert loaded.log_text() == game.log_text()


def _the_entry(cache: SnapshotCache) -> Path:
    (entry,) = cache.entries()
    return entry


def test_a_tampered_entry_is_never_unpickled(tmp_path, monkeypatch):
    game = _played("lnl", 60)
    cache = SnapshotCache(tmp_path)
    save = game.save(snapshots=cache)
    entry = _the_entry(cache)
    data = bytearray(entry.read_bytes())
    data[-10] ^= 0xFF  # one bit pattern of the content changed: the signature no longer holds
    entry.write_bytes(bytes(data))
    unpickled = []
    monkeypatch.setattr(snapshot_cache.pickle, "loads", lambda *a, **k: unpickled.append(a) or pickle.loads(*a, **k))
    answered = _count_answers(monkeypatch)
    loaded = _cold_load(save, cache)
    assert unpickled == []
    # deleted and counted as a miss; the replay wrote a good entry in its place
    assert (cache.stats.rejected, cache.stats.misses, cache.stats.hits, cache.stats.written) == (1, 1, 0, 2)
    assert entry.read_bytes() != bytes(data)
    assert answered[0] == len(game.choices)
    assert loaded.log_text() == game.log_text()


class _Payload:
    """What a forged entry would hold: unpickling it runs code (here: writes a file)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "ran"))


@pytest.mark.parametrize("forgery", ["other key", "renamed", "truncated", "foreign"])
def test_a_forged_renamed_or_broken_entry_runs_no_code_and_the_load_replays(tmp_path, forgery):
    game = _played("skirmish", 60)
    cache = SnapshotCache(tmp_path / "cache")
    save = game.save(snapshots=cache)
    entry = _the_entry(cache)
    marker = tmp_path / "marker"
    evil = pickle.dumps(_Payload(marker))
    if forgery == "other key":  # signed, but not with this user's key
        other = SnapshotCache(tmp_path / "elsewhere")
        other.put(entry.stem, evil)
        entry.write_bytes((tmp_path / "elsewhere" / entry.name).read_bytes())
    elif forgery == "renamed":  # a genuine entry of this cache under another entry's name
        cache.put("0" * 64, evil)
        entry.write_bytes((cache.directory / ("0" * 64 + ".snap")).read_bytes())
    elif forgery == "truncated":
        entry.write_bytes(entry.read_bytes()[:20])
    else:
        entry.write_bytes(evil)
    loaded = _cold_load(save, cache)
    assert not marker.exists()
    assert cache.stats.rejected == 1 and cache.stats.hits == 0
    assert loaded.log_text() == game.log_text()


def _restamped(cache: SnapshotCache, entry: Path, change) -> None:
    """Rewrite ``entry``'s content through ``change`` and sign it again with the cache's key:
    an entry under the right name that holds something else (a stale or buggy write)."""
    content = pickle.loads(cache.get(entry.stem))
    change(content)
    cache.put(entry.stem, pickle.dumps(content))


def test_a_stale_entry_is_detected_by_the_log_digest_and_the_load_replays(tmp_path, monkeypatch):
    early = _played("skirmish", 60, seed=2)
    cache = SnapshotCache(tmp_path)
    early.save(snapshots=cache)
    entry = _the_entry(cache)

    def other_dice(content):  # the same key, another state: the dice go on from another seed
        position, label, n_events, n_rolls, frozen, shared = content["snapshots"][-1]
        constant = pickle.loads(content["scenario"])  # the map and scenario the snapshot names
        shared = tuple(constant[o.index] if isinstance(o, snapshot_cache._InScenario) else o for o in shared)
        state, scenario, dice, answered, enabled = game_module.loads_sharing(frozen, shared)
        dice._rng = type(dice)(seed=12345)._rng
        frozen, shared = game_module.dumps_sharing((state, scenario, dice, answered, enabled), frozenset())
        content["snapshots"] = [(position, label, n_events, n_rolls, frozen, shared)]

    _restamped(cache, entry, other_dice)
    # the same game further on: the entry is on its path, and the answers since roll dice
    later = _played("skirmish", 110, seed=2)
    save = later.save()
    written = cache.stats.written
    answered = _count_answers(monkeypatch)
    loaded = _cold_load(save, cache)
    assert cache.stats.stale == 1 and cache.stats.hits == 0
    assert answered[0] > len(later.choices)  # went on from the entry, then from the start
    assert loaded.log_text() == later.log_text()
    assert entry.stem not in {path.stem for path in cache.entries()}  # deleted ...
    assert cache.stats.written == written + 1  # ... and the right one written by the replay


def test_a_stale_log_prefix_is_detected_too(tmp_path):
    game = _played("mttt_rpg", 70)
    cache = SnapshotCache(tmp_path)
    save = game.save(snapshots=cache)

    def other_line(content):
        kind, text, data, audience = content["events"][0]
        content["events"][0] = (kind, text + "!", data, audience)
        content["lines"] = content["lines"].replace(text.encode(), text.encode() + b"!", 1)

    _restamped(cache, _the_entry(cache), other_line)
    loaded = _cold_load(save, cache)
    assert cache.stats.stale == 1
    assert loaded.log_text() == game.log_text()


def test_the_cache_switched_off_writes_nothing_and_replays(tmp_path, monkeypatch):
    game = _played("maneuver_locale", 60)
    cache = SnapshotCache(tmp_path / "on")
    save = game.save(snapshots=cache)
    monkeypatch.setenv(ENV_NO_CACHE, "1")
    off = SnapshotCache(tmp_path / "off")
    assert game.save(snapshots=off) == save
    assert not (tmp_path / "off").exists()
    answered = _count_answers(monkeypatch)
    assert _cold_load(save, cache).log_text() == game.log_text()
    assert answered[0] == len(game.choices)
    assert cache.stats == snapshot_cache.CacheStats(written=1)  # never read
    assert SnapshotCache.user() is None
    answered[0] = 0
    assert _cold_load(save, None).log_text() == game.log_text()  # and the default: no cache
    assert answered[0] == len(game.choices)


def test_the_user_cache_is_the_environment_s_directory_or_the_platform_s(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_CACHE_DIR, str(tmp_path / "mine"))
    assert SnapshotCache.user().directory == tmp_path / "mine"
    monkeypatch.delenv(ENV_CACHE_DIR)
    import platformdirs

    assert SnapshotCache.user().directory == Path(platformdirs.user_cache_dir("wargamekit")) / "snapshots"
    monkeypatch.setenv(ENV_NO_CACHE, "0")  # "0" is not "off"
    assert SnapshotCache.user() is not None


def test_an_unusable_directory_never_breaks_a_save_or_a_load(tmp_path):
    game = _played("tank_solo", 40)
    blocked = tmp_path / "a file"
    blocked.write_text("not a directory")
    cache = SnapshotCache(blocked / "cache")  # cannot be made
    save = game.save(snapshots=cache)
    assert _cold_load(save, cache).log_text() == game.log_text()
    assert cache.stats.errors >= 1 and cache.stats.written == cache.stats.hits == 0


def test_a_key_others_may_read_disables_the_cache(tmp_path):
    cache = SnapshotCache(tmp_path)
    assert cache.put("ab" * 32, b"x")
    key = tmp_path / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    key.chmod(0o644)
    again = SnapshotCache(tmp_path)
    assert again.get("ab" * 32) is None and not again.put("cd" * 32, b"y")
    assert again.stats.errors == 1


def test_the_cache_keeps_to_its_size_dropping_the_least_recently_used(tmp_path):
    cache = SnapshotCache(tmp_path, max_bytes=2500)
    for index in range(4):
        assert cache.put(f"{index:064x}", bytes(1000))
        os.utime(cache.directory / f"{index:064x}.snap", ns=(index * 10**9, index * 10**9))
    assert cache.put("f" * 64, bytes(1000))
    kept = sorted(path.stem[-1] for path in cache.entries())
    assert kept == ["3", "f"]  # 2 entries of ~1 KB fit; the oldest went first
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary files left


def test_an_entry_depends_on_the_inputs_and_the_code(tmp_path, monkeypatch):
    game = _played("skirmish", 60)
    cache = SnapshotCache(tmp_path)
    save = game.save(snapshots=cache)
    # another seed, another name: the entry is not found (the save's own replay decides)
    other = _played("skirmish", 60, seed=1)
    _cold_load(other.save(), cache)
    assert cache.stats.misses == 1 and cache.stats.hits == 0
    # changed code: the fingerprint differs, so does every name
    monkeypatch.setattr(snapshot_cache, "_FINGERPRINTS", {})
    before = snapshot_cache.code_fingerprint(game.ruleset, None)
    module = Path(sys.modules[type(game.ruleset).__module__].__file__)
    info = module.stat()
    try:
        os.utime(module, ns=(info.st_atime_ns, info.st_mtime_ns + 1))
        monkeypatch.setattr(snapshot_cache, "_FINGERPRINTS", {})
        assert snapshot_cache.code_fingerprint(game.ruleset, None) != before
        cache.stats = snapshot_cache.CacheStats()
        _cold_load(save, cache)
        assert cache.stats.hits == 0
    finally:
        os.utime(module, ns=(info.st_atime_ns, info.st_mtime_ns))
        monkeypatch.setattr(snapshot_cache, "_FINGERPRINTS", {})


def test_the_command_line_keeps_and_uses_the_user_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_CACHE_DIR, str(tmp_path / "cache"))
    save = tmp_path / "game.json"
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "skirmish", "--seed", "4", "--players", "random,random", "--quiet",
                                 "--save", str(save)])
    assert result.exit_code == 0, result.output
    assert len(SnapshotCache(tmp_path / "cache").entries()) == 1
    game_module._LADDERS.clear()
    loads = []
    original = snapshot_cache._restore
    monkeypatch.setattr(snapshot_cache, "_restore", lambda *a, **k: loads.append(r := original(*a, **k)) or r)
    result = runner.invoke(cli, ["replay", str(save), "--quiet"])
    assert result.exit_code == 0, result.output
    assert len(loads) == 1 and loads[0] is not None  # restored from the entry


def test_a_game_with_an_add_on_loads_from_the_cache_keyed_on_the_add_on_s_code(tmp_path):
    from wargamekit import plugin_manager

    manager = plugin_manager(addons=["tank_apcr"])
    ruleset = installed_rulesets()["tank_solo"]
    game = Game.new(ruleset, seed=5, plugin_manager=manager)
    game.play({side: RandomBot(bot_seed(5, i)) for i, side in enumerate(ruleset.sides)},
              until=lambda g: len(g.choices) >= 50)
    cache = SnapshotCache(tmp_path)
    save = game.save(snapshots=cache)
    assert [a.name for a in save.addons] == ["tank_apcr"]
    loaded = _cold_load(save, cache)  # with the manager the save asks for, made afresh
    assert cache.stats.hits == 1 and loaded.log_text() == game.log_text()
    # the add-on's package is part of the code fingerprint
    assert snapshot_cache.code_fingerprint(ruleset, manager) != snapshot_cache.code_fingerprint(ruleset, None)


# -- review fixes (A1, A3, A4, A5, A6, D21) --------------------------------------------------
def test_every_file_of_a_package_but_compiled_code_is_fingerprinted(tmp_path, monkeypatch):
    package = tmp_path / "pkg"
    (package / "data").mkdir(parents=True)
    (package / "__pycache__").mkdir()
    (package / "__init__.py").write_text("")
    table = package / "data" / "vehicles.toml"
    table.write_text("armour = 3\n")

    def fingerprint() -> str:
        monkeypatch.setattr(snapshot_cache, "_FINGERPRINTS", {})
        return snapshot_cache._tree_fingerprint(str(package))

    before = fingerprint()
    # compiled code changes on its own (a first import writes it): no part of the fingerprint
    (package / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"compiled")
    (package / "stray.pyc").write_bytes(b"compiled")
    assert fingerprint() == before
    table.write_text("armour = 4\n")  # rule data edited: same size, another mtime
    os.utime(table, ns=(0, table.stat().st_mtime_ns + 1))
    assert fingerprint() != before


def test_a_ruleset_s_toml_data_edited_makes_its_entries_other_names(tmp_path, monkeypatch):
    game = _played("lnl", 60)
    cache = SnapshotCache(tmp_path)
    save = game.save(snapshots=cache)
    monkeypatch.setattr(snapshot_cache, "_FINGERPRINTS", {})
    before = snapshot_cache.code_fingerprint(game.ruleset, None)
    table = Path(sys.modules[type(game.ruleset).__module__].__file__).parent / "counters.toml"
    info = table.stat()
    try:
        os.utime(table, ns=(info.st_atime_ns, info.st_mtime_ns + 1))
        monkeypatch.setattr(snapshot_cache, "_FINGERPRINTS", {})
        assert snapshot_cache.code_fingerprint(game.ruleset, None) != before
        answered = _count_answers(monkeypatch)
        assert _cold_load(save, cache).log_text() == game.log_text()
        assert (cache.stats.hits, cache.stats.misses) == (0, 1)  # the old entry is not read
        assert answered[0] == len(game.choices)
    finally:
        os.utime(table, ns=(info.st_atime_ns, info.st_mtime_ns))
        monkeypatch.setattr(snapshot_cache, "_FINGERPRINTS", {})


@pytest.mark.skipif(os.name != "posix", reason="POSIX owners and modes")
@pytest.mark.parametrize("how", ["group-writable", "world-writable", "foreign-owned", "environment"])
def test_a_directory_others_may_write_to_is_not_used_and_the_load_replays(tmp_path, monkeypatch, how):
    game = _played("skirmish", 60)
    directory = tmp_path / "cache"
    save = game.save(snapshots=SnapshotCache(directory))  # an entry written while it was safe
    assert len(SnapshotCache(directory).entries()) == 1
    if how == "foreign-owned":
        if os.geteuid() != 0:
            pytest.skip("giving a directory to another user needs root")
        os.chown(directory, os.getuid() + 1, -1)
    else:
        directory.chmod(0o700 | (stat.S_IWOTH if how == "world-writable" else stat.S_IWGRP))
    if how == "environment":  # an existing directory named by the variable: mkdir's mode does nothing
        monkeypatch.setenv(ENV_CACHE_DIR, str(directory))
        cache = SnapshotCache.user()
    else:
        cache = SnapshotCache(directory)
    answered = _count_answers(monkeypatch)
    assert _cold_load(save, cache).log_text() == game.log_text()
    assert answered[0] == len(game.choices)  # replayed: the entry there was not read
    assert (cache.stats.hits, cache.stats.misses, cache.stats.written, cache.stats.errors) == (0, 1, 0, 1)
    assert cache.get(_the_entry(cache).stem) is None and not cache.put("ab" * 32, b"x")


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="no O_NOFOLLOW")
def test_a_key_file_that_is_a_symbolic_link_disables_the_cache(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    SnapshotCache(elsewhere).put("ab" * 32, b"x")  # a genuine key: 0600, this user's
    directory = tmp_path / "cache"
    directory.mkdir(mode=0o700)
    (directory / "key").symlink_to(elsewhere / "key")
    cache = SnapshotCache(directory)
    assert not cache.put("cd" * 32, b"y") and cache.get("ab" * 32) is None
    assert cache.stats.errors == 1 and cache.entries() == []


@pytest.mark.parametrize("name", [
    "../" + "a" * 64, "a" * 61 + "/..", "é" * 64, "ab" * 31 + "éé", 0, None, "A" * 64, "a" * 63, "a" * 65, "", "a" * 64 + "\n",
])
def test_a_name_no_entry_can_have_is_a_miss_and_never_leaves_the_cache(tmp_path, name):
    directory = tmp_path / "cache"
    cache = SnapshotCache(directory)
    victim = tmp_path / ("a" * 64 + ".snap")  # where "../aaa…" would lead
    victim.write_bytes(b"not the cache's")
    assert cache.put(name, b"payload") is False
    assert cache.get(name) is None
    cache.discard(name)
    cache.reject(name)
    assert victim.read_bytes() == b"not the cache's"
    assert [p.name for p in tmp_path.iterdir()] == [victim.name]  # nothing made, nothing deleted
    assert cache.entries() == [] and cache.stats == snapshot_cache.CacheStats()


def test_a_temporary_file_being_written_survives_a_trim_and_orphans_go(tmp_path):
    cache = SnapshotCache(tmp_path, max_bytes=2500)
    now = time.time_ns()
    for index in range(2):
        assert cache.put(f"{index:064x}", bytes(1000))
        os.utime(cache.directory / f"{index:064x}.snap", ns=(now + index, now + index))
    # another process's write in progress (a minute old: a slow disk) and two left by dead ones
    writing = tmp_path / ".tmp-writing.snap"
    writing.write_bytes(bytes(1000))
    os.utime(writing, ns=(now - 60 * 10**9, now - 60 * 10**9))
    orphans = [tmp_path / ".tmp-dead.snap", tmp_path / ".key-dead"]
    for orphan in orphans:
        orphan.write_bytes(bytes(10))
        old = now - (snapshot_cache.ORPHAN_AGE_S + 60) * 10**9
        os.utime(orphan, ns=(old, old))
    assert cache.put("f" * 64, bytes(1000))  # 3 entries of ~1 KB: the oldest entry goes
    assert writing.exists()  # neither counted nor deleted: its rename will find it
    assert sorted(path.stem[-1] for path in cache.entries()) == ["1", "f"]
    assert not any(orphan.exists() for orphan in orphans)
    # clear() deletes the entries and orphans, not the key nor a write in progress
    orphans[0].write_bytes(b"")
    os.utime(orphans[0], ns=(old, old))
    cache.clear()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".tmp-writing.snap", "key"]


def test_a_save_with_a_wrong_digest_leaves_a_good_entry_alone(tmp_path):
    import attrs

    from wargamekit.errors import SaveError

    game = _played("tank_solo", 60, seed=2)
    cache = SnapshotCache(tmp_path)
    save = game.save(snapshots=cache)
    entry = _the_entry(cache)
    forged = attrs.evolve(save, log_digest="sha256:" + "0" * 64)
    with pytest.raises(SaveError, match="log_digest"):
        _cold_load(forged, cache)
    assert entry.exists() and cache.stats.stale == 0  # the save was wrong, not the entry
    cache.stats = snapshot_cache.CacheStats()
    assert _cold_load(save, cache).log_text() == game.log_text()
    assert cache.stats.hits == 1


def test_the_module_s_public_names_are_its_all():
    public = {
        name for name, value in vars(snapshot_cache).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == snapshot_cache.__name__
    }
    assert public == {"CacheStats", "SnapshotCache", "cache_disabled", "code_fingerprint"}
    assert public <= set(snapshot_cache.__all__)


# -- the entry's scenario part (entry format 2) ------------------------------------------------
def _content(cache: SnapshotCache) -> dict:
    return pickle.loads(cache.get(_the_entry(cache).stem))


def test_the_map_s_derived_caches_are_kept_apart_and_it_is_unpickled_once_per_cache(tmp_path):
    game = _played("aig", 80)
    # A search of the map's own, as a leader's move asks: whether the game's first 80
    # answers searched depends on what the process met before (aig remembers searches per
    # map and position), and run alone this test must find a graph in the map's cache too.
    leader = next(iter(game.state.leaders.values()))
    game.state.map.reachable(leader.hex, 4, "leader")
    searched = dict(game.state.map._csr)
    assert searched  # the search left its graph in the map's cache
    cache = SnapshotCache(tmp_path)
    save = game.save(snapshots=cache)
    content = _content(cache)
    constant = pickle.loads(content["scenario"])
    (index,) = [i for i, obj in enumerate(constant) if type(obj) is type(game.state.map)]
    stored = constant[index]
    # the scenario part: the map's layers as played, its derived caches as a fresh map starts
    # them (the same bytes for every game of the scenario) ...
    assert stored._csr == {} and stored._graphs == {} and stored._los is None
    assert (stored.terrain == game.state.map.terrain).all() and stored.width == game.state.map.width
    # ... and the caches beside it, put back by the load that unpickles it
    assert dict(pickle.loads(content["caches"]))[index]["_csr"].keys() == searched.keys()
    first = _cold_load(save, cache)
    assert first.state.map._csr.keys() == searched.keys()
    second = _cold_load(save, cache)
    assert cache.stats.hits == 2
    assert first.state.map is second.state.map  # unpickled once by this cache object ...
    assert first.state.map is not game.state.map
    other = _cold_load(save, SnapshotCache(tmp_path))
    assert other.state.map is not first.state.map  # ... and again by another
    assert first.log_text() == second.log_text() == other.log_text() == game.log_text()
    # games sharing the map play on as the original
    players = {side: RandomBot(bot_seed(7, i)) for i, side in enumerate(game.ruleset.sides)}
    game.play(players, until=lambda g: len(g.choices) >= 160)
    for loaded in (first, second, other):
        for answer in game.choices[len(loaded.choices):]:
            loaded.answer(answer)
        assert loaded.log_text() == game.log_text()


def test_a_tampered_scenario_part_is_never_unpickled(tmp_path, monkeypatch):
    game = _played("skirmish", 60)
    cache = SnapshotCache(tmp_path)
    save = game.save(snapshots=cache)
    entry = _the_entry(cache)
    scenario = _content(cache)["scenario"]
    data = bytearray(entry.read_bytes())
    where = bytes(data).index(scenario) + len(scenario) // 2
    data[where] ^= 0xFF  # inside the map's pickle
    entry.write_bytes(bytes(data))
    unpickled = []
    monkeypatch.setattr(snapshot_cache.pickle, "loads", lambda *a, **k: unpickled.append(a) or pickle.loads(*a, **k))
    answered = _count_answers(monkeypatch)
    loaded = _cold_load(save, cache)
    assert unpickled == [] and cache._scenarios == {}
    assert (cache.stats.rejected, cache.stats.misses, cache.stats.hits) == (1, 1, 0)
    assert answered[0] >= len(game.choices)  # replayed from the first answer
    assert loaded.log_text() == game.log_text()


@pytest.mark.parametrize("change", ["missing", "empty", "another scenario's", "not a pickle"])
def test_an_entry_whose_scenario_part_is_missing_or_wrong_makes_the_load_replay(tmp_path, monkeypatch, change):
    game = _played("maneuver_locale", 60)
    cache = SnapshotCache(tmp_path)
    save = game.save(snapshots=cache)
    entry = _the_entry(cache)
    foreign = _played("tank_solo", 30)
    foreign.save(snapshots=SnapshotCache(tmp_path / "tank"))
    tank_scenario = _content(SnapshotCache(tmp_path / "tank"))["scenario"]

    def broken(content):  # signed again with the cache's key: a buggy write, not a forgery
        if change == "missing":
            del content["scenario"]
        elif change == "empty":
            content["scenario"] = pickle.dumps(())
        elif change == "another scenario's":  # a tank game's: too few objects for the snapshots
            content["scenario"] = tank_scenario
        else:
            content["scenario"] = b"\x80\x05garbage"

    _restamped(cache, entry, broken)
    written = cache.stats.written
    answered = _count_answers(monkeypatch)
    loaded = _cold_load(save, cache)
    assert loaded.log_text() == game.log_text()
    assert cache.stats.hits == 0 and cache.stats.rejected + cache.stats.stale == 1
    assert answered[0] >= len(game.choices)  # replayed from the first answer
    assert cache.stats.written == written + 1  # and the replay wrote a good entry again
    game_module._LADDERS.clear()
    assert _cold_load(save, SnapshotCache(tmp_path)).log_text() == game.log_text()


@attrs.define
class _Board:
    cells: list[int]
    index: dict[int, int] = attrs.field(factory=dict, metadata=CACHE)
    best: int | None = attrs.field(default=None, metadata=CACHE)


@attrs.define
class _Unknown:
    cells: list[int]
    derived: list[int] = attrs.field(metadata=CACHE)  # no default: kept as it is


def test_a_derived_cache_is_left_out_only_where_a_fresh_instance_knows_its_value():
    board = _Board([1, 2], {1: 0, 2: 1}, 2)
    back = pickle.loads(snapshot_cache._dumps(board))
    assert (back.cells, back.index, back.best) == ([1, 2], {}, None)
    assert board.index == {1: 0, 2: 1} and board.best == 2  # the original keeps its caches
    kept = pickle.loads(snapshot_cache._dumps(_Unknown([1], [1, 1])))
    assert (kept.cells, kept.derived) == ([1], [1, 1])


@pytest.mark.parametrize("answer", [0, -3, [], [0, 1], [-3, 10**20], [True], True, False, {"b": 1, "a": [1]}, "x", [1, "a"], 2.5, None])
def test_an_answer_names_entries_by_its_compact_json(answer):
    # the lines of answers an entry's name hashes: written without the encoder where they can be
    expected = (json.dumps(answer, sort_keys=True, separators=(",", ":")) + "\n").encode()
    line = b"%d\n" % answer if type(answer) is int else snapshot_cache._answer_line(answer)
    assert line == expected


def test_games_of_one_scenario_loaded_through_one_cache_share_its_objects(tmp_path):
    cache = SnapshotCache(tmp_path)
    games = [_played("skirmish", 60, seed=seed) for seed in (4, 5)]
    saves = [game.save(snapshots=cache) for game in games]
    loaded = [_cold_load(save, cache) for save in saves]
    assert cache.stats.hits == 2 and len(cache._scenarios) == 1  # one scenario part for both
    assert loaded[0].state.map is loaded[1].state.map
    assert loaded[0]._scenario_template is loaded[1]._scenario_template
    for game, again in zip(games, loaded, strict=True):
        assert again.log_text() == game.log_text()
        players = {side: RandomBot(bot_seed(3, i)) for i, side in enumerate(game.ruleset.sides)}
        game.play(players)
        for answer in game.choices[len(again.choices):]:
            again.answer(answer)
        assert again.log_text() == game.log_text()


def test_a_package_s_own_directory_on_sys_path_does_not_change_the_environment(tmp_path):
    """A package that puts its vendored directory on ``sys.path`` when imported (Ray adds
    ``ray/thirdparty_files``) must not make this process name entries unlike a process that
    never imported it: directories inside a site directory are left out; the site directory
    itself and directories elsewhere (``PYTHONPATH``) are kept."""
    import sysconfig

    from wargamekit.snapshot_cache import _distribution_dirs

    purelib = sysconfig.get_paths()["purelib"]
    vendored = os.path.join(purelib, "somepkg", "thirdparty_files")
    elsewhere = str(tmp_path)
    assert _distribution_dirs(["", purelib, vendored, elsewhere]) == [purelib, elsewhere]
