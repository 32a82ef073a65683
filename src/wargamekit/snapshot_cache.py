"""A local cache of checkpoint snapshots: a save loads in a fresh process without replaying
from its first answer (issue 9).

A save is a replay (:mod:`wargamekit.saves`): it holds no game state, because state pickled
into a file someone hands you would run code when read, and a safe, versioned format for
every ruleset's state would have to be written by hand. A :class:`SnapshotCache` keeps the
snapshots instead on the local disk, trusted the way Python trusts its ``__pycache__``:

* an **entry** is the latest one or two checkpoint snapshots of a game's ladder (see
  "Checkpoints" in ``docs/design.md``) with the log up to them, written when a game is saved
  (``Game.save(snapshots=cache)``) or loaded by a replay (``Game.load(..., snapshots=cache)``).
  What every game of the scenario shares — the structured scenario and the ruleset's shared
  objects that are not small (a map, a board) — is pickled apart in the entry (its *scenario
  part*), the same bytes for every game of the scenario: the derived caches they hold (attrs
  fields marked :data:`wargamekit.view.CACHE`, which depend on the queries a game ran) are
  kept beside it and put back when it is unpickled. A cache object unpickles a scenario part
  once and hands the same objects to every game it loads after, as the snapshots of one
  process share them;
* its **name** is a SHA-256 of everything the snapshot depends on: the cache format, the
  wargamekit version, the ruleset's name and version, the add-ons in effect and their versions,
  a fingerprint of the installed code (the path, size and modification time of every file in
  the core's, the ruleset's and the add-ons' packages but ``__pycache__`` and ``*.pyc``: their
  code and the rule data they ship, such as ``.toml`` tables; the Python version; the
  installed distributions' names and versions), the scenario data, the options, the seed and
  the answers up to the snapshot; any other name (not 64 lowercase hexadecimal digits) is a
  miss, never a path;
* its **content** is pickled and signed with HMAC-SHA256 under a random key of this user's,
  kept in the cache directory (mode 0600, opened without following a symbolic link): an entry
  whose signature does not verify is deleted and never unpickled. A directory that is not
  this user's, or that others may write to, is not used at all;
* the **log stays the truth**: a load restores the entry, replays the answers since and checks
  the save's log digest as every load does; on a mismatch (or an answer that no longer
  replays) the game replays from its first answer, and the entry is deleted if that replay
  gives the save's log (a save with a wrong digest fails to load and leaves the entry be).

A broken cache (a directory that cannot be written, a truncated or foreign file) never breaks
a load: it is a miss, and the load replays. Writes are atomic (a temporary dot-file renamed
over the entry), and the cache is bounded (the least recently used entries go past
:data:`DEFAULT_MAX_BYTES`; a temporary file is never counted nor deleted while it may still be
written, and one older than :data:`ORPHAN_AGE_S`, left by a process that died, is deleted).

The Python API uses no cache unless given one (a library does not write to its user's disk
unasked); the command line uses :meth:`SnapshotCache.user`, in
``platformdirs.user_cache_dir("wargamekit")`` or :envvar:`WARGAMEKIT_CACHE_DIR`.
:envvar:`WARGAMEKIT_NO_CACHE` set to ``1`` switches every snapshot cache off, one passed in
code included.

>>> import tempfile
>>> cache = SnapshotCache(tempfile.mkdtemp())
>>> cache.put("ab" * 32, b"payload")
True
>>> cache.get("ab" * 32)
b'payload'
>>> cache.get("cd" * 32) is None
True
"""

from __future__ import annotations

import contextlib
import copyreg
import hashlib
import hmac
import io
import itertools
import json
import os
import pickle
import re
import secrets
import site
import stat
import sys
import sysconfig
import tempfile
import time
import types
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
from attrs import define, frozen

from . import _fastpickle
from .dice import Roll
from .dice import _set_audience as _set_roll_audience
from .dice import _set_faces as _set_roll_faces
from .dice import _set_kind as _set_roll_kind
from .dice import _set_purpose as _set_roll_purpose
from .dice import _set_value as _set_roll_value
from .events import Event, _set_audience, _set_data, _set_kind, _set_text, json_default
from .view import CACHE

if TYPE_CHECKING:
    import pluggy

    from .game import Game, _Snapshot
    from .ruleset import Ruleset
    from .saves import SaveFile

__all__ = [
    "CACHE_FORMAT",
    "DEFAULT_MAX_BYTES",
    "ENV_CACHE_DIR",
    "ENV_NO_CACHE",
    "ORPHAN_AGE_S",
    "CacheStats",
    "SnapshotCache",
    "cache_disabled",
    "code_fingerprint",
]

#: The entry format; part of every entry's name, so another format's entries are never read.
CACHE_FORMAT = 2
#: The environment variable naming the cache directory (instead of the user's cache directory).
ENV_CACHE_DIR = "WARGAMEKIT_CACHE_DIR"
#: The environment variable that, set to anything but ``""`` or ``"0"``, switches every
#: snapshot cache off.
ENV_NO_CACHE = "WARGAMEKIT_NO_CACHE"
#: How many bytes of entries a cache keeps by default (least recently used go first).
DEFAULT_MAX_BYTES = 64 * 2**20
#: How old (in seconds) a temporary file of the cache must be to count as an orphan, left by a
#: process that died while writing it: a trim or :meth:`SnapshotCache.clear` deletes it.
ORPHAN_AGE_S = 3600

_MAGIC = b"WGKSNAP1"
_SIGNATURE_SIZE = 32  # HMAC-SHA256
_KEY_FILE = "key"
#: where the system has it, the key and the entries are opened without following a link
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_SUFFIX = ".snap"
#: the temporary files' prefixes (of an entry, of the key): dot-names, never entries
_TEMPORARY = (".tmp-", ".key-")
#: an entry's name: a SHA-256 in hexadecimal, so a name can hold no path nor anything not ASCII
_NAME = re.compile(r"[0-9a-f]{64}")
#: how many scenarios' constant objects a cache object keeps unpickled (see _scenario_objects)
_SCENARIOS_KEPT = 8
#: a shared object whose pickle is at least this long (a map, a board, a table) goes to the
#: entry's scenario part, unpickled once per cache object; a smaller one (a hex) stays inline
_SCENARIO_MIN_BYTES = 1024


def cache_disabled() -> bool:
    """Whether :envvar:`WARGAMEKIT_NO_CACHE` switches the snapshot caches off."""
    return os.environ.get(ENV_NO_CACHE, "") not in ("", "0")


@define
class CacheStats:
    """What a :class:`SnapshotCache` did in this process (tests and benchmarks read it).

    Attributes:
        hits: loads that restored an entry and went on from it.
        misses: loads that found no usable entry (they replayed from the first answer).
        rejected: entries deleted unread: a bad signature, a truncated or foreign file, or
            content that did not unpickle.
        stale: entries deleted because the load went on from them to another log than the
            save's and its replay from the first answer then gave the save's log (a save whose
            own digest is wrong deletes nothing).
        written: entries written.
        errors: disk errors met (each one a miss or an entry not written, never a failed load).
        last_position: the answers restored from the last entry used (``None`` after a miss).
    """

    hits: int = 0
    misses: int = 0
    rejected: int = 0
    stale: int = 0
    written: int = 0
    errors: int = 0
    last_position: int | None = None


class SnapshotCache:
    """A directory of signed snapshot entries (see the module's documentation).

    Args:
        directory: where the entries and the signing key live (created, mode 0700, if
            missing; one that exists must be this user's and writable by nobody else).
        max_bytes: how many bytes of entries to keep; past it, the least recently used go.

    Nothing here raises on a disk error nor on a bad name: the cache counts a disk error
    (:attr:`stats`) and acts as if it held nothing, and a name that is not 64 lowercase
    hexadecimal digits (what the game's entries are named) is an entry it does not hold. A
    directory that is not this user's or that others may write to (on POSIX) makes the cache
    unusable (a miss for every load; counted in ``stats.errors``).

    The scenario's constant objects that an entry holds (its structured scenario, a map, a
    board: see :func:`_store`) are unpickled once per cache object for as long as it keeps
    them (the last :data:`_SCENARIOS_KEPT` kept), and then shared by every game loaded from
    it, as the snapshots of one process share them.
    """

    def __init__(self, directory: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.directory = Path(directory)
        self.max_bytes = max_bytes
        self.stats = CacheStats()
        self._prefix = os.path.join(self.directory, "")
        self._key: bytes | None = None
        self._broken = False
        #: a verified entry's scenario part (its bytes) -> the objects it unpickled to
        self._scenarios: OrderedDict[bytes, tuple[Any, ...]] = OrderedDict()

    def __repr__(self) -> str:
        return f"SnapshotCache({str(self.directory)!r})"

    @classmethod
    def user(cls) -> SnapshotCache | None:
        """The cache the command line uses: :envvar:`WARGAMEKIT_CACHE_DIR`, else
        ``snapshots`` in ``platformdirs.user_cache_dir("wargamekit")``; ``None`` when
        :envvar:`WARGAMEKIT_NO_CACHE` switches caches off."""
        if cache_disabled():
            return None
        where = os.environ.get(ENV_CACHE_DIR)
        if where:
            return cls(where)
        import platformdirs

        return cls(Path(platformdirs.user_cache_dir("wargamekit")) / "snapshots")

    # -- the signing key ---------------------------------------------------------------------
    def _signing_key(self) -> bytes | None:
        """This user's key (made on first use, mode 0600), or ``None`` if the cache is unusable:
        a directory that cannot be made, that is not this user's or that others may write to
        (they could swap the key or the entries), a key file others may read or write or that
        is a symbolic link."""
        if self._key is not None or self._broken:
            return self._key
        path = self.directory / _KEY_FILE
        try:
            # mkdir's mode applies only to a directory it makes: one that exists (named by
            # WARGAMEKIT_CACHE_DIR, say) is checked as found.
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            where = os.stat(self.directory)
            if os.name == "posix" and (where.st_uid != os.getuid() or where.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
                raise PermissionError(f"{self.directory}: not this user's, or writable by others")
            try:
                fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
            except FileNotFoundError:
                self._make_key(path)
                fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
            try:
                info = os.fstat(fd)
                key = os.read(fd, 64)
            finally:
                os.close(fd)
            # A key anyone else can read lets them sign entries this user will unpickle.
            if os.name == "posix" and (info.st_mode & 0o077 or info.st_uid != os.getuid()):
                raise PermissionError(f"{path}: readable or writable by others, or not this user's")
            if len(key) != 32:
                raise ValueError(f"{path}: not a key ({len(key)} bytes)")
        except (OSError, ValueError):
            self.stats.errors += 1
            self._broken = True
            return None
        self._key = key
        return key

    def _make_key(self, path: Path) -> None:
        # Written in full under a temporary name, then linked into place: a process racing
        # this one reads either no key or the whole of one, and the first link wins.
        fd, temporary = tempfile.mkstemp(dir=self.directory, prefix=".key-")
        try:
            os.write(fd, secrets.token_bytes(32))  # mkstemp made it 0600
            os.close(fd)
            with contextlib.suppress(FileExistsError):
                os.link(temporary, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temporary)

    # -- entries -----------------------------------------------------------------------------
    def _path(self, name: str) -> str:
        # a string, not a Path: a load probes a name per answer
        return self._prefix + name + _SUFFIX

    def _signature(self, key: bytes, name: str, payload: bytes | memoryview) -> bytes:
        # The entry's name is signed with its content: an entry renamed to another's name fails.
        mac = hmac.new(key, name.encode("ascii") + b"\0", hashlib.sha256)
        mac.update(payload)
        return mac.digest()

    def get(self, name: str) -> bytes | None:
        """The content of entry ``name`` if it is there and its signature verifies; an entry
        that does not verify is deleted (counted in ``stats.rejected``), never returned.
        ``None`` for a name no entry can have."""
        content = self._read(name)
        return None if content is None else bytes(content)

    def _read(self, name: str) -> memoryview | None:
        """What :meth:`get` returns, as a view of the bytes read (a load unpickles it: no copy
        of an entry of a hundred kilobytes)."""
        if not _valid(name):
            return None
        key = self._signing_key()
        if key is None:
            return None
        path = self._path(name)
        try:
            fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
        except FileNotFoundError:
            return None
        except OSError:
            self.stats.errors += 1
            return None
        try:
            with os.fdopen(fd, "rb") as file:
                data = file.read()
        except OSError:
            self.stats.errors += 1
            return None
        head = len(_MAGIC) + _SIGNATURE_SIZE
        view = memoryview(data)
        if (
            len(data) < head
            or data[: len(_MAGIC)] != _MAGIC
            or not hmac.compare_digest(data[len(_MAGIC) : head], self._signature(key, name, view[head:]))
        ):
            self.reject(name)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: the last to be trimmed
        return view[head:]

    def put(self, name: str, payload: bytes) -> bool:
        """Write entry ``name`` (atomically), then trim the cache to its size; ``False`` if it
        could not be written or ``name`` is no entry's name."""
        if not _valid(name):
            return False
        key = self._signing_key()
        if key is None:
            return False
        try:
            fd, temporary = tempfile.mkstemp(dir=self.directory, prefix=_TEMPORARY[0], suffix=_SUFFIX)
            try:
                with os.fdopen(fd, "wb") as file:
                    file.write(_MAGIC)
                    file.write(self._signature(key, name, payload))
                    file.write(payload)
                os.replace(temporary, self._path(name))
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError:
            self.stats.errors += 1
            return False
        self.stats.written += 1
        self._trim()
        return True

    def _scenario_objects(self, data: bytes, caches: bytes) -> tuple[Any, ...]:
        """The objects of an entry's scenario part ``data`` (bytes of an entry that verified):
        unpickled the first time, with the derived ``caches`` the entry kept apart, then the
        same objects (their caches as the games since left them) for every entry holding
        those bytes. Hot: unpickling a map or a board was a third of a load from the cache."""
        found = self._scenarios.get(data)
        if found is None:
            found = pickle.loads(data)
            for index, values in pickle.loads(caches):
                for name, value in values.items():
                    object.__setattr__(found[index], name, value)  # as attrs' own __init__ sets slots
            self._scenarios[data] = found
            if len(self._scenarios) > _SCENARIOS_KEPT:
                self._scenarios.popitem(last=False)
        else:
            self._scenarios.move_to_end(data)
        return found

    def discard(self, name: str) -> None:
        """Delete entry ``name`` if it is there (nothing for a name no entry can have)."""
        if _valid(name):
            with contextlib.suppress(OSError):
                os.unlink(self._path(name))

    def reject(self, name: str) -> None:
        """Delete entry ``name`` as unusable (counted in ``stats.rejected``; nothing for a
        name no entry can have)."""
        if _valid(name):
            self.stats.rejected += 1
            self.discard(name)

    def entries(self) -> list[Path]:
        """The entries' files (unordered)."""
        try:
            return [Path(e.path) for e in os.scandir(self.directory) if e.name.endswith(_SUFFIX)
                    and not e.name.startswith(".")]
        except OSError:
            return []

    def clear(self) -> None:
        """Delete every entry and every orphaned temporary file (the key stays, and so does a
        temporary file another process may still be writing)."""
        for path in self.entries():
            with contextlib.suppress(OSError):
                path.unlink()
        with contextlib.suppress(OSError):
            for entry in os.scandir(self.directory):
                self._drop_orphan(entry)

    def _drop_orphan(self, entry: os.DirEntry[str]) -> None:
        """Delete ``entry`` if it is a temporary file older than :data:`ORPHAN_AGE_S`."""
        if entry.name.startswith(_TEMPORARY):
            with contextlib.suppress(OSError):
                if time.time() - entry.stat(follow_symlinks=False).st_mtime > ORPHAN_AGE_S:
                    os.unlink(entry.path)

    def _trim(self) -> None:
        """Delete the least recently used entries beyond :attr:`max_bytes`, and orphaned
        temporary files. A temporary file (a dot-name) is not an entry: another process may be
        writing it, and deleting it would fail that process's rename."""
        found = []
        total = 0
        try:
            for entry in os.scandir(self.directory):
                if entry.name.startswith("."):
                    self._drop_orphan(entry)
                elif entry.name.endswith(_SUFFIX):
                    info = entry.stat()
                    found.append((info.st_mtime_ns, info.st_size, entry.path))
                    total += info.st_size
        except OSError:
            return
        if total <= self.max_bytes:
            return
        for _, size, path in sorted(found):
            with contextlib.suppress(OSError):
                os.unlink(path)
                total -= size
            if total <= self.max_bytes:
                break


def _valid(name: object) -> bool:
    """Whether ``name`` can name an entry (so it maps to a file in the cache and nowhere else)."""
    return type(name) is str and _NAME.fullmatch(name) is not None


def _active(cache: SnapshotCache | None) -> SnapshotCache | None:
    """``cache`` unless :envvar:`WARGAMEKIT_NO_CACHE` switches caches off."""
    return None if cache is None or cache_disabled() else cache


# -- what an entry's name depends on ---------------------------------------------------------
#: package root (or module file) -> its files' fingerprint, for this process
_FINGERPRINTS: dict[str, str] = {}
_ENVIRONMENT: list[str] = []


def _tree_fingerprint(root: str) -> str:
    """SHA-256 of the path, size and ``mtime_ns`` of every file under ``root`` (a package
    directory) but ``__pycache__`` and compiled ``*.pyc``, or of ``root`` itself (a module
    file): what ``__pycache__`` checks of the code, and the rule data a package ships beside
    it (``.toml`` tables, maps) that a snapshot depends on as much."""
    found = _FINGERPRINTS.get(root)
    if found is not None:
        return found
    lines = []
    if os.path.isdir(root):
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if not name.endswith((".pyc", ".pyo")):
                    path = os.path.join(folder, name)
                    info = os.stat(path)
                    lines.append(f"{os.path.relpath(path, root)}\0{info.st_size}\0{info.st_mtime_ns}")
    else:
        info = os.stat(root)
        lines.append(f"{root}\0{info.st_size}\0{info.st_mtime_ns}")
    found = _FINGERPRINTS[root] = hashlib.sha256(f"{root}\n{chr(10).join(lines)}".encode()).hexdigest()
    return found


def _module_root(module_name: str) -> str | None:
    """The directory of ``module_name``'s top-level package, or its file; ``None`` if it has
    no file (``__main__`` run interactively, a module built in code)."""
    top = sys.modules.get(module_name.split(".")[0])
    if top is None:
        return None
    paths = list(getattr(top, "__path__", None) or [])
    if paths:
        return os.path.abspath(paths[0]) if len(paths) == 1 else None  # a namespace package: unknown
    file = getattr(top, "__file__", None)
    return os.path.abspath(file) if file else None


def _environment() -> str:
    """The Python version and the installed distributions (their ``*.dist-info`` names, which
    carry their versions), read once per process: a library upgraded under the cache (numpy's
    generator, a ruleset's dependency) makes every entry another name."""
    if not _ENVIRONMENT:
        names: list[str] = []
        for entry in _distribution_dirs(sys.path):
            with contextlib.suppress(OSError):
                names.extend(f"{entry}/{n}" for n in os.listdir(entry) if n.endswith((".dist-info", ".egg-info")))
        _ENVIRONMENT.append(hashlib.sha256("\n".join([sys.version, *sorted(names)]).encode()).hexdigest())
    return _ENVIRONMENT[0]


def _distribution_dirs(path: Sequence[str]) -> list[str]:
    """The entries of ``path`` where distributions may be installed: not the current
    directory (where a command runs is no part of its code), and not a directory inside a
    site directory. Why the latter: a package may add its own vendored directory to
    ``sys.path`` when imported (Ray adds ``ray/thirdparty_files``), which would make a process
    that imported it name every entry differently from one that did not; what such a
    directory holds comes with its package, whose version the site directory lists."""
    sites = {os.path.abspath(p) for p in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])}
    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    if user_site:
        sites.add(os.path.abspath(user_site))
    kept = []
    for entry in path:
        if not entry:
            continue
        full = os.path.abspath(entry)
        if not any(full.startswith(s + os.sep) for s in sites):
            kept.append(entry)
    return kept


def code_fingerprint(ruleset: Ruleset, plugin_manager: pluggy.PluginManager | None) -> str | None:
    """A fingerprint of the installed code a game of ``ruleset`` with ``plugin_manager``'s
    add-ons runs: the core's, the ruleset's and the add-ons' packages (the path, size and
    modification time of every file but ``__pycache__``, so rule data too) and the
    environment (Python, installed distributions). Computed once per package per process.
    ``None`` if some of that code has no file to fingerprint (then no entry is written or
    read).
    """
    from .plugins import addons_in_effect

    modules = ["wargamekit", type(ruleset).__module__]
    if plugin_manager is not None:
        for addon in addons_in_effect(plugin_manager):
            plugin = plugin_manager.get_plugin(addon.name)
            modules.append(plugin.__name__ if isinstance(plugin, types.ModuleType) else type(plugin).__module__)
    parts = [_environment()]
    for module in modules:
        root = _module_root(module)
        if root is None:
            return None
        try:
            parts.append(_tree_fingerprint(root))
        except OSError:
            return None
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


_ANSWER_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=json_default)


def _game_hasher(
    ruleset: Ruleset, plugin_manager: pluggy.PluginManager | None, scenario_json: str,
    options: Mapping[str, Any], seed: int,
) -> Any:
    """A SHA-256 hasher fed everything an entry's name depends on but the answers, or ``None``
    when the code cannot be fingerprinted. ``scenario_json`` is the scenario data as JSON with
    sorted keys (the game's ladder key holds it: a load writes it once)."""
    from . import __version__
    from .plugins import addons_in_effect

    code = code_fingerprint(ruleset, plugin_manager)
    if code is None:
        return None
    head = [
        CACHE_FORMAT, __version__, ruleset.name, ruleset.version,
        [[a.name, a.distribution, a.version] for a in addons_in_effect(plugin_manager)],
        code, seed, options,
    ]
    hasher = hashlib.sha256()
    hasher.update(json.dumps(head, sort_keys=True, default=repr).encode())
    hasher.update(b"\n")
    hasher.update(scenario_json.encode())
    hasher.update(b"\n")
    return hasher


_INT = frozenset({int})


def _answer_line(answer: Any) -> bytes:
    """``answer`` as a line of compact JSON with sorted keys. Most answers are indices (written
    by the caller), lists of indices or yes/no: those are written here without the encoder,
    whose every call costs a microsecond (a third of naming a save's entries)."""
    if type(answer) is list and set(map(type, answer)) <= _INT:
        return (str(answer).replace(" ", "") + "\n").encode()  # "[0, 1]": the JSON but its spaces
    if type(answer) is bool:
        return b"true\n" if answer else b"false\n"
    return (_ANSWER_ENCODER.encode(answer) + "\n").encode()


def _names(hasher: Any, answers: Sequence[Any]) -> Iterator[tuple[int, str]]:
    """``(position, entry name)`` for every position len(answers)..1, latest first, the name
    covering the answers before it (``hasher`` fed them after what it holds)."""
    # One answer a line (JSON text holds no raw newline, so the prefixes are unambiguous).
    lines = [b"%d\n" % answer if type(answer) is int else _answer_line(answer) for answer in answers]
    ends = list(itertools.accumulate(map(len, lines), initial=0))
    text = memoryview(b"".join(lines))  # prefixes without copies
    # Hashed afresh from the start for each name, latest first: a load probes a few names
    # near its end before it finds its entry, and one C call hashing a prefix costs less than
    # a Python step per answer to name them all.
    for position in range(len(answers), 0, -1):
        named = hasher.copy()
        named.update(text[: ends[position]])
        yield position, named.hexdigest()


# -- entries of games ------------------------------------------------------------------------
@frozen
class _Restored:
    """An entry restored for a load: where it was found and what a game starts from."""

    name: str
    scenario_template: Any
    ladder: list[_Snapshot]


@frozen
class _InScenario:
    """Stands in an entry's shared objects for the one at ``index`` of its scenario part."""

    index: int




def _events_of(fields: list[tuple[Any, ...]]) -> list[Event]:
    """The events of ``(kind, text, data, audience)`` tuples (data as a JSON round trip gives
    it, as the log holds it). Hot: a cold load builds its whole log before the snapshot here;
    through the slots' setters, as the game's log builds events."""
    events: list[Event] = []
    new, append = object.__new__, events.append
    for kind, text, data, audience in fields:
        event = new(Event)
        _set_kind(event, kind)
        _set_text(event, text)
        _set_data(event, data)
        _set_audience(event, audience)
        append(event)
    return events


(_CACHE_MARK,) = CACHE  # the metadata key of a derived cache
_FACTORY: type[Any] = type(attrs.Factory(list))


def _returning(value: Any) -> Callable[[], Any]:
    return lambda: value


def _roll_fields(rolls: list[Roll]) -> list[Any]:
    """``rolls`` as tuples of their fields, which :func:`_rolls_of` reads back (as they are if
    one is not a plain :class:`~wargamekit.dice.Roll`)."""
    if all(type(roll) is Roll for roll in rolls):
        return [(r.purpose, r.kind, r.faces, r.value, r.audience) for r in rolls]
    return rolls


def _rolls_of(fields: list[Any]) -> list[Roll]:
    """The rolls :func:`_roll_fields` wrote. Through the slots' setters, as the dice record
    them: attrs' ``__setstate__`` would be a Python call per roll."""
    if not fields or type(fields[0]) is not tuple:
        return fields
    rolls: list[Roll] = []
    new, append = object.__new__, rolls.append
    for purpose, kind, faces, value, audience in fields:
        roll = new(Roll)
        _set_roll_purpose(roll, purpose)
        _set_roll_kind(roll, kind)
        _set_roll_faces(roll, faces)
        _set_roll_value(roll, value)
        _set_roll_audience(roll, audience)
        append(roll)
    return rolls


#: attrs class -> (the position and name of each field marked CACHE, a maker of its fresh
#: value), or ``None``: a class with no such field, or one whose fresh value is not known
_FRESH: dict[type, tuple[tuple[int, str, Callable[[], Any]], ...] | None] = {}


def _fresh_caches(cls: type) -> tuple[tuple[int, str, Callable[[], Any]], ...] | None:
    """Where ``cls`` (pickled field by field: see :mod:`wargamekit._fastpickle`) keeps derived
    caches (fields marked :data:`wargamekit.view.CACHE`) and how a fresh instance starts them."""
    fresh: list[tuple[int, str, Callable[[], Any]]] = []
    getter = _fastpickle._GETTERS.get(cls)
    if getter is None:
        getter = _fastpickle._getter(cls)
    if getter is not False:
        # the fields in _fastpickle's order (attrs' state: every field but __weakref__)
        fields = [a for a in cls.__attrs_attrs__ if a.name != "__weakref__"]  # type: ignore[attr-defined]
        for position, attribute in enumerate(fields):
            if not attribute.metadata.get(_CACHE_MARK):
                continue
            default = attribute.default
            if default is attrs.NOTHING or isinstance(default, _FACTORY) and default.takes_self:
                fresh = []  # no fresh value known: the caches are kept
                break
            make = default.factory if isinstance(default, _FACTORY) else _returning(default)
            fresh.append((position, attribute.name, make))
    _FRESH[cls] = found = tuple(fresh) or None
    return found


def _derived_caches(objects: Sequence[Any]) -> list[tuple[int, dict[str, Any]]]:
    """The derived caches that :class:`_EntryPickler` leaves out of ``objects`` (by position
    and field name): an entry keeps them apart, for the load that unpickles its scenario part
    (rebuilding them costs more than reading them: AIG's movement graphs, 3 ms over the next
    answers of a fresh process)."""
    found = []
    for index, obj in enumerate(objects):
        cls = type(obj)
        fresh = _FRESH[cls] if cls in _FRESH else _fresh_caches(cls)
        if fresh is not None:
            found.append((index, {name: getattr(obj, name) for _, name, _ in fresh}))
    return found


class _EntryPickler(_fastpickle._Pickler):
    """The snapshot pickler, but derived caches (attrs fields marked
    :data:`wargamekit.view.CACHE`: a map's movement graphs and lines of sight) are written at
    the value a fresh instance starts them with: what they hold depends on the queries the game
    ran, so without them a scenario part is the same bytes for every game of the scenario
    (:func:`_derived_caches` keeps them apart)."""

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        fresh = _FRESH[cls] if cls in _FRESH else _fresh_caches(cls)
        if fresh is None:
            return super().reducer_override(obj)
        state = list(_fastpickle._GETTERS[cls](obj))  # type: ignore[operator]
        for position, _, make in fresh:
            state[position] = make()
        return (copyreg.__newobj__, (cls,), tuple(state))  # type: ignore[attr-defined]


def _dumps(obj: Any) -> bytes:
    buffer = io.BytesIO()
    _EntryPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()


def _store(cache: SnapshotCache, game: Game) -> bool:
    """Write ``game``'s latest snapshots (the last two of its ladder) to ``cache``, named by
    the latest's inputs and answers; ``False`` if there is none, it cannot be pickled, the
    code cannot be fingerprinted or the disk refuses.

    The entry's **scenario part** holds what every game of the scenario shares: the structured
    scenario and the snapshots' shared objects (the ruleset's
    :attr:`~wargamekit.ruleset.Ruleset.shared_types`) that are not small (a map, a board: not
    a hex), pickled on their own without their derived caches, which the entry keeps beside
    it; the snapshots name them by position (:class:`_InScenario`). A load unpickles a
    scenario part (and puts its caches back) once per cache object
    (:meth:`SnapshotCache._scenario_objects`).
    """
    if game._dice_template is not None or game.pending is None and game.outcome is None:
        return False
    if cache._signing_key() is None:
        return False  # an unusable cache: not worth the replay _tight_ladder may do
    # (Game.save has made a game's own ladder tight already; one started with
    # snapshots=False is replayed whole here, once: a few milliseconds at save time, against as
    # many answers replayed at every load of the entry.)
    ladder = [snap for snap in game._tight_ladder() if snap.pickled and snap.position <= len(game.choices)][-2:]
    if not ladder:
        return False
    latest = ladder[-1]
    if list(latest.choices) != game.choices[: latest.position] or latest.position == 0:
        return False
    from .game import _scenario_json

    hasher = _game_hasher(game.ruleset, game.plugin_manager, _scenario_json(game.scenario_data), game.options,
                          game.seed)
    if hasher is None:
        return False
    name = next(_names(hasher, latest.choices))[1]
    events = latest.events[: latest.n_events]
    try:
        constant = [game._scenario_template]
        at = {id(game._scenario_template): 0}
        for snap in ladder:
            for obj in snap.shared:
                if id(obj) not in at and len(_dumps(obj)) >= _SCENARIO_MIN_BYTES:
                    at[id(obj)] = len(constant)
                    constant.append(obj)
        payload = _fastpickle.dumps({
            "scenario": _dumps(tuple(constant)),
            "caches": _fastpickle.dumps(_derived_caches(constant)),
            "snapshots": [
                (s.position, s.label, s.n_events, s.n_rolls, s.frozen,
                 tuple(_InScenario(at[id(obj)]) if id(obj) in at else obj for obj in s.shared))
                for s in ladder
            ],
            "rolls": _roll_fields(latest.rolls[: latest.n_rolls]),
            # The log's lines, hashed by the load's digest check (``Event.to_json`` of the
            # events stored beside them, which restore the log faster than parsing the lines).
            "lines": "\n".join(e.to_json() for e in events).encode(),
            "events": [(e.kind, e.text, e.data, e.audience) for e in events],
        })
    except Exception:  # noqa: BLE001 - a shared object pickle refuses: no entry, as for a lambda
        return False
    return cache.put(name, payload)


def _restore(
    cache: SnapshotCache, ruleset: Ruleset, plugin_manager: pluggy.PluginManager | None, save: SaveFile,
    scenario_json: str, options: Mapping[str, Any], seed: int,
) -> _Restored | None:
    """The latest entry on the path of ``save``'s answers, restored as a snapshot ladder, or
    ``None`` (a miss: counted in ``cache.stats``). ``scenario_json``: ``save.scenario`` as
    JSON with sorted keys."""
    from .game import _Snapshot

    hasher = _game_hasher(ruleset, plugin_manager, scenario_json, options, seed) if cache._signing_key() else None
    if hasher is not None:
        for position, name in _names(hasher, save.choices):
            payload = cache._read(name)
            if payload is None:
                continue
            try:
                content = pickle.loads(payload)  # signed by this user's key: written by this cache
                constant = cache._scenario_objects(content["scenario"], content["caches"])
                events = _events_of(content["events"])
                rolls = _rolls_of(content["rolls"])
                choices = tuple(save.choices[:position])
                ladder = [
                    _Snapshot(at, label, choices[:at], events, n_events, rolls, n_rolls, frozen, True,
                              tuple(constant[obj.index] if type(obj) is _InScenario else obj for obj in shared))
                    for at, label, n_events, n_rolls, frozen, shared in content["snapshots"]
                ]
                latest = ladder[-1]
                if latest.position != position or latest.n_events != len(events) or latest.n_rolls != len(rolls):
                    raise ValueError("an entry that does not match its name")
                if events:  # the log's hash up to the snapshot (as log_hasher feeds it)
                    prefix = hashlib.sha256(content["lines"])
                    prefix.update(b"\n")
                    latest._digest.append(prefix)
            except Exception:  # noqa: BLE001 - whatever it holds, a bad entry is a miss
                cache.reject(name)
                break
            cache.stats.hits += 1
            cache.stats.last_position = position
            return _Restored(name, constant[0], ladder)
    cache.stats.misses += 1
    cache.stats.last_position = None
    return None
