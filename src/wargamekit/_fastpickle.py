"""``pickle.dumps`` for game states, a third faster on attrs classes (issue 9).

Snapshots at checkpoints and views' detached copies pickle the whole game state, which is mostly
slotted attrs instances (units, hexes, maps). attrs pickles those through its generated Python
``__getstate__`` (a dict comprehension per object); here the same instances reduce to their
field values read by one compiled reader (:func:`attribute_reader`), which attrs' own ``__setstate__`` reads
back (it accepts a tuple of the field values in field order). The loaded objects are the same;
any class that customises its pickling in any way takes pickle's ordinary path. Such a class is
named in the pickle by the key ``"module:qualname"`` (written once per pickle), not by pickle's
global reference, which imports the class's module on every pickle to check it: 16-26% of a
snapshot's cost in the bundled rulesets. Every object this module reduces is made again by one
loader, :func:`_make`, the one global such a pickle names (see there). The reductions are found through a
``dispatch_table`` that pickle reads in C, one small reducer per class made on its first instance
(:class:`_Reducers`), not a ``reducer_override`` called in Python for every object: the same bytes,
a mid-game snapshot 1.08-1.20x faster (issue 9). The pickler itself is kept from one pickle to the
next (:class:`_KeptPickler`): its memo emptied rather than grown again, no output stream made.

A ruleset's game state can pickle its units in a cheaper form still, as rows of plain values
(:class:`wargamekit.state_rows.HexRows`).

The dice's :class:`numpy.random.Generator` (PCG64) reduces to its bit generator's state, a
small dict: numpy's own reduce makes the loader seed a fresh PCG64 from the operating system's
entropy before setting the state (a quarter of a restart's thaw); here it is seeded from one
fixed seed sequence instead. Same state, same draws.

:func:`dumps_sharing` and :func:`loads_sharing` also keep instances of given types *by
reference*: a snapshot of a game state does not copy the map that never changes (a ruleset's
:attr:`~wargamekit.ruleset.Ruleset.shared_types`), it names the one object in memory.
"""

from __future__ import annotations

import copyreg
import io
import keyword
import operator
import pickle
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from .memo import remember

__all__ = ["attribute_reader", "dumps", "dumps_sharing", "loads_sharing"]

#: class -> its field getter, or ``False`` for a class pickled the ordinary way
_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]] | bool] = {}
#: class -> the arguments of :func:`_make` that make a bare instance of it (``_NEW`` and its key),
#: or ``(cls,)`` for a class its key does not lead back to (pickle's NEWOBJ, by global reference)
_NEW_ARGS: dict[type, tuple[Any, ...]] = {}
#: key (``"module:qualname"``) -> class, for :func:`_new`
_CLASSES: dict[str, type] = {}


def _class_of(key: str) -> type | None:
    """The class named ``key`` (``"module:qualname"``), imported as pickle would find it, or
    ``None`` if the name does not lead to a class."""
    cls = _CLASSES.get(key)
    if cls is None:
        import importlib

        module, _, qualname = key.partition(":")
        try:
            found: Any = importlib.import_module(module)
            for part in qualname.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError, ValueError):
            return None
        if not isinstance(found, type):
            return None
        cls = _CLASSES[key] = found
    return cls


def _new(key: str) -> Any:
    """A bare instance of the class named ``key`` (``cls.__new__(cls)``, what pickle's NEWOBJ
    makes): how attrs instances are made again. A class is named by a string, which a pickle
    writes once and refers back to after, rather than by pickle's global reference, which
    imports the class's module to check it on every pickle (2-4 µs a class: a third of a small
    snapshot's cost)."""
    cls = _class_of(key)
    if cls is None:
        raise pickle.UnpicklingError(f"no class {key!r}")
    return cls.__new__(cls)  # type: ignore[call-overload]  # (as NEWOBJ calls it)


#: "module:qualname" of a class with a pickled form of its own -> the loader of that form
#: (:class:`wargamekit.state_rows.StateRows` registers its states' here, when made)
_FORMS: dict[str, Callable[..., Any]] = {}


def _formed(key: str, *args: Any) -> Any:
    """The instance of the class named ``key`` that its form's loader makes of ``args``."""
    load = _FORMS.get(key)
    if load is None:
        _class_of(key)  # its module registers its form when imported (a load in a fresh process)
        load = _FORMS.get(key)
        if load is None:
            raise pickle.UnpicklingError(f"no pickled form for {key!r}")
    return load(*args)


def _attrs_pickled(cls: type) -> bool:
    """Whether ``cls`` pickles exactly through attrs' generated slotted-class state methods."""
    getstate = getattr(cls, "__getstate__", None)
    setstate = getattr(cls, "__setstate__", None)
    return (
        attrs.has(cls)
        and "__slots__" in cls.__dict__  # not a plain subclass with a __dict__ of its own
        and getattr(getstate, "__name__", "") == "slots_getstate"
        and getattr(setstate, "__name__", "") == "slots_setstate"
        and getattr(getstate, "__module__", "") == getattr(setstate, "__module__", "") == "attr._make"
        and cls.__reduce_ex__ is object.__reduce_ex__
        and cls.__reduce__ is object.__reduce__
        and not hasattr(cls, "__getnewargs_ex__")
        and not hasattr(cls, "__getnewargs__")
        and cls not in copyreg.dispatch_table
    )


def attribute_reader(paths: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """A function of one object that returns the tuple of its attributes at ``paths`` (names,
    or dotted paths such as ``"hex.q"``), in order.

    Hot (issue 9): snapshots read every field of every attrs instance and unit row this way.
    The function is made of plain attribute reads (``lambda o: (o.name, o.hex.q, ...)``,
    compiled once), which CPython specialises to direct slot reads once warm; an
    :func:`operator.attrgetter` of the same names looks each one up in full on every call,
    about twice the instructions (an aig unit's 27 fields: ~6,200 against ~3,000, session 28).
    A path that is not made of plain identifiers gets the attrgetter.

    >>> import attrs
    >>> from wargamekit.geometry import Hex
    >>> @attrs.frozen
    ... class Counter:
    ...     name: str
    ...     hex: Hex
    >>> attribute_reader(["name", "hex.q", "hex.r"])(Counter("a", Hex(2, -1)))
    ('a', 2, -1)
    """
    if not paths:
        return lambda obj: ()
    if not all(part.isidentifier() and not keyword.iskeyword(part) and not part.startswith("__")
               for path in paths for part in path.split(".")):
        if len(paths) == 1:
            one = operator.attrgetter(paths[0])
            return lambda obj: (one(obj),)  # attrgetter of one name is no tuple
        return operator.attrgetter(*paths)
    reads = "".join(f"o.{path}, " for path in paths)
    reader: Callable[[Any], tuple[Any, ...]] = eval(f"lambda o: ({reads})", {})  # (names checked above)
    return reader


def _getter(cls: type) -> Callable[[Any], tuple[Any, ...]] | bool:
    getter: Callable[[Any], tuple[Any, ...]] | bool = False
    if _attrs_pickled(cls):
        # attrs' state: every field but __weakref__, in field order (inherited ones first)
        names = [a.name for a in cls.__attrs_attrs__ if a.name != "__weakref__"]  # type: ignore[attr-defined]
        if names:
            getter = attribute_reader(names)
    if getter is not False:
        key = f"{cls.__module__}:{cls.__qualname__}"
        # Named by key only if the key leads back to it (not a local class); else by pickle's
        # own global reference, which fails as it always did.
        _NEW_ARGS[cls] = (_NEW, key) if _class_of(key) is cls else (cls,)
    _GETTERS[cls] = getter
    return getter


#: the bit generator's seed before its state is set (any seed will do: the state replaces it);
#: one sequence built once, so no load hashes a seed or reads the system's entropy
_ANY_SEED = np.random.SeedSequence(0)


def _pcg64_generator(state: Any) -> np.random.Generator:
    """A PCG64 generator at ``state``, its bit generator's ``state`` dict (what the dice's
    generator reduces to)."""
    bit_generator = np.random.PCG64(_ANY_SEED)
    bit_generator.state = state
    return np.random.Generator(bit_generator)


def _shared(index: int) -> Any:
    """Stands in the pickle for a shared object: :func:`loads_sharing` resolves it."""
    raise pickle.UnpicklingError("a pickle with shared objects must be read by loads_sharing")


#: What :func:`_make` makes, by its first argument: an attrs instance (bare, then attrs'
#: ``__setstate__``), an instance by its class's own form, the dice's generator, a shared object.
_NEW, _FORMED, _GENERATOR, _SHARED = range(4)
_MAKERS: tuple[Callable[..., Any], ...] = (_new, _formed, _pcg64_generator, _shared)


def _make(how: int, *args: Any) -> Any:
    """``_MAKERS[how](*args)``: the loader every reduction of this module names.

    Hot (issue 9): pickle writes each global a pickle names once, and imports the global's
    module again to check it, ~5,500 instructions a global; a snapshot named four (a class's
    bare instance, a state's rows, the dice's generator, a shared object), ~5 % of its cost. One
    global for all saves three of them; a load pays one Python call more per object made.
    """
    return _MAKERS[how](*args)


class _Pickler(pickle.Pickler):
    """The per-object form of the dispatch-table pickler (:class:`_KeptPickler`; the same
    bytes), which the snapshot cache's entry pickler extends with its own ``reducer_override``."""

    #: types whose instances are kept by reference, and the instances met so far
    shared_types: frozenset[type] = frozenset()
    shared: list[Any]

    def reducer_override(self, obj: Any) -> Any:
        # Called by pickle for every object that is not a builtin container or scalar (after
        # the memo: an object met twice is reduced once).
        cls = type(obj)
        if cls in self.shared_types:
            self.shared.append(obj)
            return (_make, (_SHARED, len(self.shared) - 1))
        if cls in copyreg.dispatch_table:
            return NotImplemented  # registered with copyreg: pickle's way, as the table's
        getter = _GETTERS.get(cls)
        if getter is None:
            getter = _getter(cls)
        if getter is False:
            if cls is np.random.Generator and type(obj.bit_generator) is np.random.PCG64:
                return (_make, (_GENERATOR, obj.bit_generator.state))  # the dice's generator
            return NotImplemented
        # What object.__reduce_ex__ gives (cls.__new__, then attrs' __setstate__), with the
        # state as the tuple of field values instead of a dict built in Python, and the class
        # named by a key (see _new).
        args = _NEW_ARGS[cls]
        if args[0] is cls:
            return (copyreg.__newobj__, args, getter(obj))  # type: ignore[attr-defined,operator]
        return (_make, args, getter(obj))  # type: ignore[operator]


#: What every reduction of an ordinary object is: pickle's own default, ``obj.__reduce_ex__(5)``
#: (a C call, as pickle makes it when no table names the class).
_reduce_ex = operator.methodcaller("__reduce_ex__", pickle.HIGHEST_PROTOCOL)


def _generator_reducer(obj: np.random.Generator) -> Any:
    if type(obj.bit_generator) is np.random.PCG64:
        return (_make, (_GENERATOR, obj.bit_generator.state))  # the dice's generator
    return _reduce_ex(obj)


def _attrs_reducer(cls: type, getter: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], Any]:
    """What :meth:`_Pickler.reducer_override` gives for an instance of ``cls``, as one small
    function of the instance."""
    args = _NEW_ARGS[cls]
    new = copyreg.__newobj__ if args[0] is cls else _make  # type: ignore[attr-defined]

    def reduce(obj: Any) -> Any:
        return (new, args, getter(obj))

    return reduce


class _Reducers(dict[type, Callable[[Any], Any]]):
    """A pickler's ``dispatch_table``: class -> its reducer, found on the class's first instance.

    Hot (issue 9): pickle looks the class up in C, for each object it does not handle natively,
    and calls its reducer; a ``reducer_override`` was a Python call for every such object (a
    Data dict, an enum member, every attrs instance), which then looked the class up in Python.
    A class pickled the ordinary way gets pickle's own default (``__reduce_ex__``, or what
    :mod:`copyreg` registers for it) as a C call. Classes themselves (instances of a
    metaclass) are left to pickle's global reference, as without a table.
    """

    def __missing__(self, cls: type) -> Callable[[Any], Any]:
        if isinstance(cls, type) and issubclass(cls, type):
            raise KeyError(cls)  # a class: pickle saves it by its global name (not cached)
        registered = copyreg.dispatch_table.get(cls)
        if registered is not None:
            reducer: Callable[[Any], Any] = registered
        elif cls is np.random.Generator:
            reducer = _generator_reducer
        else:
            getter = _GETTERS.get(cls)
            if getter is None:
                getter = _getter(cls)
            reducer = _reduce_ex if getter is False else _attrs_reducer(cls, getter)  # type: ignore[arg-type]
        _TABLE[cls] = self[cls] = reducer
        return reducer


#: the reducers of every class met so far (the table of a pickler that shares nothing)
_TABLE = _Reducers()
#: copyreg's registrations when _TABLE was filled: a registration made, replaced or removed
#: since must be seen, so the table is then started afresh (a comparison of two small dicts in
#: C per pickle; a count alone misses a replacement)
_REGISTERED = [dict(copyreg.dispatch_table)]


def _table() -> _Reducers:
    if copyreg.dispatch_table != _REGISTERED[0]:
        _TABLE.clear()
        _KEPT_SHARING.clear()  # (their tables copied _TABLE's reducers)
        _REGISTERED[0] = dict(copyreg.dispatch_table)
    return _TABLE


class _KeptPickler:
    """A pickler of one ``dispatch_table``, kept from pickle to pickle.

    Hot (issue 9): a game pickles a snapshot every eight answers or so. A new pickler, its memo
    and its output stream (a :class:`io.BytesIO`, which copied the bytes twice) cost ~17,000
    instructions a pickle (7,000 kept), and its memo grew again from 64 entries to the 300-odd
    objects of a state at every pickle: 3-9 % of a snapshot. A kept pickler's memo is only emptied, and
    its bytes come to a list's ``append`` as the pickler hands them over (in one piece, or in
    64 KiB frames for a large pickle). Taken from its list by ``list.pop`` (atomic), so a pickle
    that starts while one is under way (another thread, or a reducer that pickles) makes its own,
    which is dropped after.
    """

    def __init__(self, table: _Reducers, shared_types: frozenset[type] = frozenset()) -> None:
        self.chunks: list[bytes] = []
        self.write = self.chunks.append  # (the pickler's output file is this object)
        self.pickler = pickle.Pickler(self, pickle.HIGHEST_PROTOCOL)
        #: the shared objects this pickle has named so far (see dumps_sharing)
        self.shared: list[Any] = []
        if shared_types:
            # This pickler's own table: the shared types' instances go to its list (pickle's
            # memo sees an object once, so each is listed once).
            table = _Reducers(table)
            for cls in shared_types:
                table[cls] = self._share
        self.pickler.dispatch_table = table

    def _share(self, obj: Any) -> Any:
        self.shared.append(obj)
        return (_make, (_SHARED, len(self.shared) - 1))

    def dump(self, obj: Any) -> bytes:
        chunks = self.chunks
        try:
            self.pickler.dump(obj)
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)
        finally:
            self.pickler.clear_memo()  # (the memo holds every object pickled)
            chunks.clear()


#: kept picklers of _TABLE, and of dumps_sharing's tables by shared types (emptied by _table)
_KEPT: list[_KeptPickler] = []
_KEPT_SHARING: dict[frozenset[type], list[_KeptPickler]] = {}


def _kept_dump(kept_ones: list[_KeptPickler], table: _Reducers, shared_types: frozenset[type],
               obj: Any) -> tuple[bytes, tuple[Any, ...]]:
    """Pickle ``obj`` with a pickler taken from ``kept_ones`` (or a new one, if none is kept or
    it is in use), put back after unless one is kept already (a pickle's own is dropped)."""
    try:
        kept = kept_ones.pop()
    except IndexError:  # none kept, or in use
        kept = _KeptPickler(table, shared_types)
    try:
        return kept.dump(obj), tuple(kept.shared)
    finally:
        kept.shared.clear()
        if not kept_ones:
            kept_ones.append(kept)


def dumps(obj: Any) -> bytes:
    """``pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)``, faster on attrs instances
    (:func:`pickle.loads` reads it back to the same objects)."""
    return _kept_dump(_KEPT, _table(), frozenset(), obj)[0]


def dumps_sharing(obj: Any, shared_types: frozenset[type]) -> tuple[bytes, tuple[Any, ...]]:
    """Like :func:`dumps`, but instances of ``shared_types`` are not copied: the bytes refer to
    them by position in the returned tuple, which :func:`loads_sharing` needs back. For objects
    that never change while the bytes live (a game's static map), so a snapshot need not copy
    them; only in the process that pickled them (the objects are in memory, not in the bytes).

    >>> import attrs
    >>> @attrs.frozen
    ... class Map:
    ...     hexes: tuple[int, ...]
    >>> board = Map((1, 2, 3))
    >>> data, shared = dumps_sharing({"map": board, "units": [1, 2]}, frozenset({Map}))
    >>> back = loads_sharing(data, shared)
    >>> back["map"] is board, back["units"] == [1, 2]
    (True, True)
    """
    if not shared_types:
        return dumps(obj), ()
    table = _table()
    kept_ones = _KEPT_SHARING.get(shared_types)
    if kept_ones is None:
        kept_ones = remember(_KEPT_SHARING, shared_types, [], 16)  # a ruleset's set each (tests make more)
    return _kept_dump(kept_ones, table, shared_types, obj)


class _SharingUnpickler(pickle.Unpickler):
    def __init__(self, data: bytes, shared: tuple[Any, ...]) -> None:
        super().__init__(io.BytesIO(data))
        # _MAKERS with a shared object's reference made into shared[index] (_SHARED is last)
        makers: tuple[Callable[..., Any], ...] = (*_MAKERS[:_SHARED], shared.__getitem__)

        def make(how: int, *args: Any) -> Any:
            return makers[how](*args)

        # A function that holds no reference to the unpickler: a bound method would, from the
        # unpickler's memo, a cycle that kept it and its memo of the whole copy alive until the
        # collector ran.
        self._make = make

    def find_class(self, module: str, name: str) -> Any:
        # once per pickle (pickle memoizes the global)
        if module == __name__ and name == "_make":
            return self._make
        return super().find_class(module, name)


def loads_sharing(data: bytes, shared: tuple[Any, ...]) -> Any:
    """Read back what :func:`dumps_sharing` wrote, with ``shared``, the tuple it returned."""
    if not shared:
        return pickle.loads(data)
    return _SharingUnpickler(data, shared).load()
