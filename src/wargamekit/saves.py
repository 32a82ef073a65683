"""The save format: everything needed to replay a game, as deterministic JSON.

A save is a replay: the ruleset (and its version), the scenario data, the seed, the optional
rules and the recorded answers. :meth:`SaveFile.read` and :meth:`SaveFile.from_json` reject a
bad file with a :class:`~wargamekit.errors.SaveError` naming the path to the bad field, whatever
the file holds (not UTF-8, not JSON, nested too deeply, the wrong shape, another format).

>>> SaveFile.from_json("5")
Traceback (most recent call last):
...
wargamekit.errors.SaveError: save: $: expected a JSON object, got int
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from attrs import field, frozen

from .errors import SaveError, ScenarioError
from .events import json_default

__all__ = ["SAVE_FORMAT", "SaveFile"]

#: The save format this wargamekit writes and reads (2: rules receive a context, decisions
#: carry kinds; answers are recorded as before).
SAVE_FORMAT = 2


def _supported(_instance: Any, _attribute: Any, value: int) -> None:
    if value != SAVE_FORMAT:
        raise ValueError(f"unsupported save format {value!r} (this wargamekit reads format {SAVE_FORMAT})")


@frozen
class SaveFile:
    """Everything needed to reproduce a game: the log is replayed from this.

    Attributes:
        format: the save format version (:data:`SAVE_FORMAT`; another is refused).
        ruleset: the ruleset's registry name.
        ruleset_version: the version that wrote the save; another version refuses to load it.
        scenario_name: the bundled scenario's name, or ``None`` for an inline/file scenario.
        scenario: the raw scenario data, so a save is self-contained.
        seed: the dice seed.
        options: optional rules switched on or off.
        choices: the recorded answers, in order.
    """

    format: int = field(validator=_supported)
    ruleset: str
    ruleset_version: str
    scenario_name: str | None
    scenario: dict[str, Any]
    seed: int
    options: dict[str, Any]
    choices: list[Any]

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
