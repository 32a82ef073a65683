"""The save format: everything needed to replay a game, as deterministic JSON.

A save is a replay: the ruleset (and its version), the add-ons in effect (and their versions),
the scenario data, the seed, the optional rules and the recorded answers — and a digest of the
log they produced, so a load that replays to anything else is refused rather than silently
accepted. :meth:`SaveFile.read` and :meth:`SaveFile.from_json` reject a
bad file with a :class:`~wargamekit.errors.SaveError` naming the path to the bad field, whatever
the file holds (not UTF-8, not JSON, nested too deeply, the wrong shape, another format).

>>> SaveFile.from_json("5")
Traceback (most recent call last):
...
wargamekit.errors.SaveError: save: $: expected a JSON object, got int
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from attrs import field, frozen

from .errors import SaveError, ScenarioError
from .events import json_default

__all__ = ["SAVE_FORMAT", "AddonRecord", "SaveFile", "log_digest", "log_hasher"]

#: The save format this wargamekit writes and reads (3: the add-ons in effect and the digest of
#: the log are recorded; 2 had neither).
SAVE_FORMAT = 3


def log_digest(lines: Iterable[str]) -> str:
    """The SHA-256 of a log's JSON lines (as :meth:`Game.log_text <wargamekit.game.Game.log_text>`
    joins them), written ``"sha256:<hex>"``.

    >>> log_digest(['{"kind": "x"}'])[:15]
    'sha256:08c6d064'
    """
    text = "\n".join(lines) + "\n"
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def log_hasher(lines: Iterable[str], start: Any = None) -> Any:
    """A SHA-256 hasher fed ``lines`` as :func:`log_digest` feeds them, after what ``start``
    (another such hasher, left unchanged) was fed: the digest of a log can go on from the
    digest of its first part. Lines fed in parts give the digest of all of them at once.

    >>> first = log_hasher(['{"kind": "x"}'])
    >>> "sha256:" + log_hasher(['{"kind": "y"}'], first).hexdigest() == log_digest(['{"kind": "x"}', '{"kind": "y"}'])
    True
    """
    hasher = hashlib.sha256() if start is None else start.copy()
    text = "\n".join(lines)
    if text or start is None:
        hasher.update((text + "\n").encode("utf-8"))
    return hasher


@frozen
class AddonRecord:
    """An add-on in effect in a game, as a save records it (see
    :func:`wargamekit.plugins.addons_in_effect`).

    Attributes:
        name: the plugin's name in the manager: an entry point's name (what ``--addon``
            takes), or for a plugin object registered in code its ``module.Class`` name.
        distribution: the distribution that installed it (``None`` for one registered in code).
        version: that distribution's version (``None`` likewise).
    """

    name: str
    distribution: str | None = None
    version: str | None = None

    def __str__(self) -> str:
        return repr(self.name) if self.distribution is None else f"{self.name!r} ({self.distribution} {self.version})"


def _supported(_instance: Any, _attribute: Any, value: int) -> None:
    if value != SAVE_FORMAT:
        raise SaveError(f"$.format: unsupported save format {value!r} (this wargamekit reads format {SAVE_FORMAT})")


@frozen
class SaveFile:
    """Everything needed to reproduce a game: the log is replayed from this.

    Attributes:
        format: the save format version (:data:`SAVE_FORMAT`; another is refused).
        ruleset: the ruleset's registry name.
        ruleset_version: the version that wrote the save; another version refuses to load it.
        addons: the add-ons in effect, sorted by name; a load with others (or none, or
            other versions) is refused.
        scenario_name: the bundled scenario's name, or ``None`` for an inline/file scenario.
        scenario: the raw scenario data, so a save is self-contained.
        seed: the dice seed.
        options: optional rules switched on or off.
        choices: the recorded answers, in order.
        log_digest: :func:`log_digest` of the whole log the game had when saved; a load that
            replays to another log is refused.
    """

    format: int = field(validator=_supported)
    ruleset: str
    ruleset_version: str
    scenario_name: str | None
    scenario: dict[str, Any]
    seed: int
    options: dict[str, Any]
    choices: list[Any]
    addons: list[AddonRecord]
    log_digest: str

    def to_json(self) -> str:
        """Serialise (deterministically) to JSON text."""
        from .scenario import converter

        return json.dumps(
            converter.unstructure(self), sort_keys=True, indent=1, ensure_ascii=False, default=json_default
        )

    @classmethod
    def from_json(cls, text: str, *, source: str | None = None) -> SaveFile:
        """Parse JSON text, rejecting a malformed file with the path to the bad field."""
        from .scenario import structure

        where = source or "save"
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveError(f"{where}: not JSON: {exc}") from None
        except RecursionError:
            raise SaveError(f"{where}: not a save: nested too deeply to read") from None
        if not isinstance(data, dict):
            raise SaveError(f"{where}: $: expected a JSON object, got {type(data).__name__}")
        # Before the fields: another format's fields would only be reported as unknown.
        if "format" in data and data["format"] != SAVE_FORMAT:
            raise SaveError(
                f"{where}: $.format: unsupported save format {data['format']!r} "
                f"(this wargamekit reads format {SAVE_FORMAT})"
            )
        try:
            return structure(data, cls, source=where)
        except ScenarioError as exc:
            raise SaveError(str(exc)) from None
        except RecursionError:
            raise SaveError(f"{where}: not a save: nested too deeply to read") from None

    @classmethod
    def read(cls, path: str | Path) -> SaveFile:
        """Read a save file (UTF-8 JSON)."""
        path = Path(path)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise SaveError(f"{path}: cannot read: {exc.strerror}") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveError(f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason}); saves are UTF-8 JSON") from None
        return cls.from_json(text, source=str(path))
