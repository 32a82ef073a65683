"""Scenario files: TOML, structured into attrs classes with cattrs, rejected with a path.

A ruleset declares its scenario as attrs classes; :func:`structure` turns raw TOML data into
them, refusing unknown keys and wrong types with a :class:`~wargamekit.errors.ScenarioError`
that names the path to the bad field (``$.units[2].hex``).

>>> from attrs import frozen
>>> @frozen
... class Unit:
...     name: str
...     strength: int
>>> structure([{"name": "Guard", "strength": 3}, {"name": "Line", "strength": "x"}], list[Unit])
Traceback (most recent call last):
...
wargamekit.errors.ScenarioError: $[1].strength: invalid value for type, expected int
"""

from __future__ import annotations

import copy
import datetime
import marshal
import tomllib
from pathlib import Path
from sys import intern
from typing import Any, TypeVar

import cattrs
import cattrs.v

from .errors import HexLabelError, ScenarioError
from .geometry.hex import Hex, HexLabels
from .memo import remember

__all__ = ["converter", "copy_data", "map_hex", "read_toml_file", "read_toml_text", "structure"]

T = TypeVar("T")

#: The converter used for scenarios and saves: unknown keys are errors, so typos are caught.
converter = cattrs.Converter(forbid_extra_keys=True)


def _strict_int(value: Any, _type: type) -> int:
    # cattrs would turn "3" or 3.7 into 3; a scenario with a string for a number is a mistake.
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected int, got {type(value).__name__}")
    return value


def _strict_float(value: Any, _type: type) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected float, got {type(value).__name__}")
    return float(value)


def _strict_str(value: Any, _type: type) -> str:
    if type(value) is str:
        # Interned (issue 9): a parse makes one string per occurrence (ten equal "us" in an LnL
        # state), which a snapshot's pickle writes out one by one, where a second reference to
        # one object is two bytes from its memo. Interning never changes a value (a subclass,
        # which sys.intern refuses, is kept as it is).
        return intern(value)
    if not isinstance(value, str):
        raise TypeError(f"expected str, got {type(value).__name__}")
    return value


def _strict_bool(value: Any, _type: type) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected bool, got {type(value).__name__}")
    return value


converter.register_structure_hook(int, _strict_int)
converter.register_structure_hook(float, _strict_float)
converter.register_structure_hook(str, _strict_str)
converter.register_structure_hook(bool, _strict_bool)


def _not_a_table(exc: BaseException) -> str | None:
    # cattrs structures a class from anything with ``.keys()``; a list or a number where a
    # table belongs fails with "'list' object has no attribute 'keys'", which names nothing.
    if isinstance(exc, AttributeError) and exc.name == "keys" and exc.obj is not None:
        return f"expected a table (an object), got {type(exc.obj).__name__}"
    return None


def _format_exception(exc: BaseException, type_: type | None) -> str:
    # A validator's ValueError carries the rule's own reason ("drill must be poor, average or
    # elite"); cattrs' default would reduce it to "invalid value".
    if type(exc) is ValueError and str(exc):
        return f"invalid value: {exc}"
    return _not_a_table(exc) or cattrs.v.format_exception(exc, type_)


def structure(data: Any, cls: type[T], *, source: str | None = None) -> T:
    """Structure ``data`` into ``cls``, or raise :class:`ScenarioError` with the first bad path."""
    try:
        return converter.structure(data, cls)
    except Exception as exc:  # cattrs raises ExceptionGroups of many kinds
        messages = (
            cattrs.transform_error(exc, path="$", format_exception=_format_exception)
            if isinstance(exc, cattrs.BaseValidationError)
            else [_not_a_table(exc) or str(exc)]
        )
        first = messages[0] if messages else str(exc)
        message, _, path = first.rpartition(" @ ")
        if not message:
            message, path = first, "$"
        more = f" (and {len(messages) - 1} more)" if len(messages) > 1 else ""
        raise ScenarioError(message + more, path=path, source=source) from None


#: values :func:`copy_data` shares rather than copies (immutable, as TOML and JSON give them)
_SHARED = frozenset({str, int, float, bool, type(None), datetime.datetime, datetime.date, datetime.time})


def copy_data(value: Any) -> Any:
    """A detached copy of raw scenario data: what :func:`copy.deepcopy` gives, in a fraction of
    the time for plain data (dicts and lists are rebuilt in order, immutable scalars shared;
    anything else is deep-copied). Hot: every game built from data copies it.

    >>> data = {"units": [{"name": "Guard"}]}
    >>> copied = copy_data(data)
    >>> copied == data and copied["units"][0] is not data["units"][0]
    True
    """
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _SHARED else copy_data(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _SHARED else copy_data(item) for item in value]
    if kind in _SHARED:
        return value
    return copy.deepcopy(value)


def sorted_data(value: Any) -> Any:
    """:func:`copy_data` with every dict's keys sorted, as a save's JSON writes them (so the
    copy is what parsing that JSON gives, for data JSON can hold).

    Raises:
        TypeError: a dict whose keys do not sort (of mixed types).

    >>> sorted_data({"b": [{"d": 1, "c": 2}], "a": None})
    {'a': None, 'b': [{'c': 2, 'd': 1}]}
    """
    kind = type(value)
    if kind is dict:
        return {key: sorted_data(value[key]) for key in sorted(value)}
    if kind is list:
        return [sorted_data(item) for item in value]
    if kind in _SHARED:
        return value
    return copy.deepcopy(value)


#: the scalars plain_data_key takes: exact types only (a subclass, a numpy scalar, bytes are not plain)
_KEYED_SCALARS = frozenset({str, int, float, bool, type(None)})
#: the containers plain_data_key walks into
_KEYED_CONTAINERS = frozenset({dict, list, tuple})
_KEYED_TYPES = _KEYED_SCALARS | _KEYED_CONTAINERS


def _plain(value: Any) -> bool:
    """Whether ``value`` is made of dicts, lists and tuples of exact ``str``, ``int``,
    ``float``, ``bool`` and ``None`` only (dict keys of those scalars)."""
    # The types of each container's items are gathered in C (map, set) and only containers are
    # walked into (the locale game's 8 KB of data, 93 containers: ~35-60 µs, twice marshal's).
    if type(value) not in _KEYED_CONTAINERS:
        return type(value) in _KEYED_SCALARS
    stack = [value]
    while stack:
        container = stack.pop()
        items: Any = container
        if type(container) is dict:
            if not _KEYED_SCALARS.issuperset(map(type, container)):
                return False
            items = container.values()
        kinds = set(map(type, items))
        if kinds <= _KEYED_SCALARS:
            continue
        if not kinds <= _KEYED_TYPES:
            return False
        stack.extend(item for item in items if type(item) in _KEYED_CONTAINERS)
    return True


def plain_data_key(data: Any) -> bytes | None:
    """Bytes that are equal for two raw data exactly when they are the same plain data — the
    same values of the same types in the same order (``1``, ``1.0`` and ``True`` differ, as do
    a list and a tuple, and dicts with their keys in another order) — or ``None`` for data that
    is not plain (see below). How a load finds the live game of a save's scenario data: the
    bytes depend on the values alone, not on which equal strings are one object (as a pickle's
    do), so a save's parsed data meets the game's.

    Plain data is dicts, lists and tuples of exact ``str``, ``int``, ``float``, ``bool`` and
    ``None``: what TOML and JSON give, but their dates. The bytes are :mod:`marshal`'s
    version 2, which writes no back-references, so they depend on the values alone; the test
    for plain data comes first because marshal writes anything with a buffer — a numpy scalar,
    ``bytes``, a ``bytearray`` — as its raw bytes, so ``np.float64(0.0)`` and ``np.int64(0)``
    would have one key, though a scenario's loader takes the one for a float and refuses the
    other.

    >>> plain_data_key({"a": 1}) == plain_data_key({"a": 1}), plain_data_key({"a": 1}) == plain_data_key({"a": 1.0})
    (True, False)
    >>> import numpy as np
    >>> plain_data_key({"bonus": np.float64(0.0)}) is None
    True
    """
    if not _plain(data):
        return None
    try:
        return marshal.dumps(data, 2)
    except ValueError:  # nested too deep for marshal: not kept
        return None


#: TOML text -> its parsed data, for bundled scenarios read again and again (every new game)
_PARSED: dict[str, dict[str, Any]] = {}


def read_toml_text(text: str, *, source: str | None = None, cache: bool = False) -> dict[str, Any]:
    """Parse TOML text; a syntax error becomes a :class:`ScenarioError`.

    With ``cache``, the parse of the same text is kept (bounded) and a fresh copy returned.
    """
    if cache:
        known = _PARSED.get(text)
        if known is None:
            known = remember(_PARSED, text, read_toml_text(text, source=source), 64)
        copied: dict[str, Any] = copy_data(known)
        return copied
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"not valid TOML: {exc}", source=source) from None
    except RecursionError:
        raise ScenarioError("not a scenario: nested too deeply to read", source=source) from None


def read_toml_file(path: str | Path) -> dict[str, Any]:
    """Read and parse a TOML file; an unreadable file becomes a :class:`ScenarioError`."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read the file: {exc.strerror}", source=str(path)) from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            f"not UTF-8 text (byte {exc.start}: {exc.reason}); TOML files are UTF-8", source=str(path)
        ) from None
    return read_toml_text(text, source=str(path))


def map_hex(labels: HexLabels, label: str, width: int, height: int, *, path: str, source: str | None = None) -> Hex:
    """The hex a scenario field names by its printed label, on a ``width`` x ``height`` map.

    Every ruleset checks its scenario's hexes this way, so the error is the same everywhere.

    Raises:
        ScenarioError: at ``path``, the label cannot be read or names a hex off the map.

    >>> from wargamekit.geometry import HexLabels
    >>> map_hex(HexLabels(base=1), "1109", 10, 8, path="$.units[2].hex", source="my.toml")
    Traceback (most recent call last):
    ...
    wargamekit.errors.ScenarioError: my.toml: $.units[2].hex: hex 1109 is off the 10 x 8 map
    """
    try:
        h = labels.parse(label)
    except HexLabelError as exc:
        raise ScenarioError(str(exc), path=path, source=source) from None
    col, row = h.to_offset(labels.layout)
    if not (0 <= col < width and 0 <= row < height):
        raise ScenarioError(f"hex {label} is off the {width} x {height} map", path=path, source=source)
    return h
