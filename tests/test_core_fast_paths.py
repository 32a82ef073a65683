"""The core's fast paths for decision data and event data give exactly what the general paths
give (issue 9: the per-answer overhead is cut without changing a log byte)."""

from __future__ import annotations

import enum
import json
import math
import operator
import re

import numpy as np
import pytest
from rule_events import rule_event
from rulesets import NoScenario

from wargamekit import Outcome, Ruleset, YesNo
from wargamekit.decisions import Choose, ChooseSubset, Data, Option, _freeze, freeze_data
from wargamekit.events import Event, json_default


def _round_trip(data: dict) -> dict:
    """What an event's data was before the fast path: a JSON round trip."""
    return json.loads(json.dumps(data, sort_keys=True, ensure_ascii=False, default=json_default))


def _same(a, b) -> bool:
    """Equal, of the same types all the way down, with dict keys in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


EVENT_DATA = [
    {},
    {"purpose": "fire", "dice": "2d6", "faces": [3, 4], "value": 7},
    {"z": 1, "a": {"y": [1, (2, 3)], "b": None}, "m": True, "f": -0.0, "g": 2.5, "s": "ü\u2028"},
    {"inf": math.inf, "nan": math.nan, "deep": [[{"k": [{}]}]]},
    {"np": np.int64(3), "arr": np.arange(3), "f32": np.float32(0.5)},  # the general path's numpy
    {"big": 10**5},
]


@pytest.mark.parametrize("data", EVENT_DATA)
def test_event_data_is_the_json_round_trip(data):
    """An event's data is exactly the JSON round trip of what was logged: types, values and
    key order (tuples become lists, keys sorted), and a detached copy."""
    event = Event("k", "text", data)
    assert _same(event.data, _round_trip(data))
    assert event.to_json() == json.dumps(
        {"audience": None, "data": _round_trip(data), "kind": "k", "text": "text"},
        sort_keys=True, ensure_ascii=False,
    )


def test_event_data_is_detached_from_the_caller():
    faces = [1, 2]
    nested = {"faces": faces}
    event = Event("roll", "r", {"nested": nested})
    faces.append(3)
    nested["more"] = 1
    assert event.data == {"nested": {"faces": [1, 2]}}


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"x": object()}, TypeError),  # not JSON
        ({"x": {1: "a", "b": 2}}, TypeError),  # keys of mixed types cannot be sorted
        ({"x": {(1, 2): "a"}}, TypeError),  # a tuple key is not JSON
        ({"x": {1, 2}}, TypeError),  # a set is not JSON
    ],
)
def test_event_data_that_is_not_json_is_refused_as_before(data, error):
    with pytest.raises(error):
        _round_trip(data)
    with pytest.raises(error):
        Event("k", "t", data)


def test_event_data_with_non_string_keys_is_converted_as_json_does():
    """JSON turns int, bool and None keys into strings; the fast path leaves that to it."""
    data = {"x": {1: "a", 2: "b"}, "t": {True: 1}}
    assert _same(Event("k", "t", data).data, _round_trip(data))


def test_event_data_with_a_cycle_is_refused_as_before():
    cyclic: list = []
    cyclic.append(cyclic)
    with pytest.raises(ValueError, match="Circular reference"):
        Event("k", "t", {"loop": cyclic})


def test_event_data_with_an_integer_too_long_for_text_is_refused_as_before():
    with pytest.raises(ValueError):
        Event("k", "t", {"n": 10**5000})


DECISION_DATA = [
    {"unit": "A1", "action": "move", "hex": "0304"},
    {"unit": "A1", "to": [3, 4], "path": ((1, 2), [3, 4]), "n": None, "f": 1.5, "ok": False},
    {"respond": freeze_data({"name": "dodge"}), "nested": {"a": {"b": [{"c": 1}]}}},
    {"np": np.int64(2), "arr_item": np.float64(0.25)},
    {"raw": Data({"inner": [1, 2]})},  # a Data built by hand is frozen again, inside out
    # lists and tuples of scalars only (checked in one pass), and mixed ones
    {"units": ["A1", "A2", "B1"], "ids": (1, 2.5, None, True, "x"), "empty": [], "none": ()},
    {"mixed": [1, [2, 3], "x", {"k": [4]}], "deep": ((1, (2, [3])),), "np": [1, np.int64(2)]},
]


@pytest.mark.parametrize("data", DECISION_DATA)
def test_freeze_data_fast_path_equals_the_general_one(data):
    frozen = freeze_data(data)
    assert _same(frozen, _freeze(data, "data"))
    assert type(frozen) is Data
    assert hash(frozen) == hash(_freeze(data, "data"))
    assert _same(Option(0, "x", data=data).data, frozen)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"a": {"b": [1, object()]}}, r"data\.a\.b\[1\]: <object object at .*> is not JSON data"),
        ({"a": {1: 2}}, r"data\.a: key 1 is not a string"),
        ({"a": {1, 2}}, r"data\.a: \{1, 2\} is not JSON data"),
    ],
)
def test_freeze_data_still_names_where_bad_data_is(data, message):
    with pytest.raises(TypeError, match=message):
        freeze_data(data)


# -- snapshots' and views' pickling (wargamekit._fastpickle) ----------------------------------

import pickle  # noqa: E402

import attrs  # noqa: E402

from wargamekit._fastpickle import _GETTERS, dumps  # noqa: E402
from wargamekit.geometry import Hex  # noqa: E402
from wargamekit.state_rows import HexRows, StateRows  # noqa: E402


@attrs.define
class _Unit:
    name: str
    hex: Hex
    steps: int = 2
    parent: object = None


@attrs.frozen(cache_hash=True)
class _Frozen:
    value: tuple


@attrs.define
class _Derived(_Unit):
    extra: list = attrs.Factory(list)


@attrs.define
class _One:
    only: int


@attrs.define
class _Custom:
    """Pickles its own way: the fast path must leave it alone."""

    secret: int

    def __getstate__(self):
        return {"secret": -self.secret}

    def __setstate__(self, state):
        object.__setattr__(self, "secret", -state["secret"])


@attrs.define(slots=False)
class _Dicty:
    value: int


def _normalised(obj) -> bytes:
    return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


def test_fast_pickle_loads_back_what_plain_pickle_does():
    """Whatever the fast pickler writes, ``pickle.loads`` reads back to objects that pickle
    exactly as those of a plain pickle do: same fields, same sharing, cycles kept."""
    shared = Hex(1, 2)
    unit = _Unit("A", shared)
    unit.parent = unit  # a cycle
    state = {
        "units": [unit, _Unit("B", shared, 1)],
        "frozen": _Frozen((1, 2)),
        "derived": _Derived("C", Hex(0, 0), extra=[1]),
        "one": _One(3),
        "custom": _Custom(5),
        "dicty": _Dicty(7),
    }
    fast = pickle.loads(dumps(state))
    plain = pickle.loads(_normalised(state))
    assert _normalised(fast) == _normalised(plain)
    assert fast["units"][0].parent is fast["units"][0]
    assert fast["units"][0].hex is fast["units"][1].hex
    assert fast["custom"].secret == 5
    assert hash(fast["frozen"]) == hash(_Frozen((1, 2)))
    assert fast["derived"] == state["derived"] and fast["one"] == state["one"]
    assert _GETTERS[_Unit] and _GETTERS[_Frozen] and _GETTERS[_Derived] and _GETTERS[_One]
    assert _GETTERS[_Custom] is False and _GETTERS[_Dicty] is False


def test_sharing_pickle_keeps_shared_types_by_reference_and_copies_the_rest():
    """``dumps_sharing``: instances of the shared types come back as the same objects (once
    each, however often they are referred to); everything else is copied as ``dumps`` copies."""
    from wargamekit._fastpickle import dumps_sharing, loads_sharing

    board = _Frozen((1, 2))
    unit = _Unit("A", Hex(1, 2), parent=board)
    state = {"board": board, "units": [unit], "again": board, "one": _One(3)}
    data, shared = dumps_sharing(state, frozenset({_Frozen}))
    assert shared == (board,) and shared[0] is board
    back = loads_sharing(data, shared)
    assert back["board"] is board and back["again"] is board and back["units"][0].parent is board
    assert back["units"][0] is not unit and back["units"][0].name == "A" and back["one"] == _One(3)
    back["units"][0].steps = 0
    assert unit.steps == 2, "the copy shares nothing mutable with the original"
    with pytest.raises(pickle.UnpicklingError, match="loads_sharing"):
        pickle.loads(data)  # the bytes alone do not hold the shared object
    plain, none = dumps_sharing(state, frozenset())
    assert none == () and pickle.loads(plain)["board"] == board


@attrs.define
class _Army:
    """A state pickled by its rows (``StateRows``)."""

    turn: int
    units: dict[str, _Unit]

    def __reduce__(self):
        return _ARMY_FORM.reduce(self)


_ARMY_FORM = StateRows(_Army, HexRows(_Unit))


def _globals_named(data: bytes) -> list[str]:
    """The globals (``module.name``) a pickle names, in order."""
    import pickletools

    names, strings = [], []
    for op, arg, _ in pickletools.genops(data):
        if "UNICODE" in op.name:
            strings.append(arg)
        elif op.name == "STACK_GLOBAL":  # (module and name: the last two strings written)
            names.append(".".join(strings[-2:]))
        assert op.name != "GLOBAL"  # (protocol 4 and up)
    return names


def test_a_pickle_names_one_global_for_every_kind_of_object_it_makes():
    """Every object the fast pickle reduces — attrs instances of two classes, a state by its
    rows, the dice's generator, a shared object — is made again by one loader, so the pickle
    names one global (pickle imports each global's module again to check it, at every pickle:
    a snapshot's hot path); the copy loads back equal, with ``pickle.loads`` when nothing is
    shared, and in a fresh interpreter."""
    import subprocess
    import sys

    from wargamekit._fastpickle import dumps_sharing, loads_sharing
    from wargamekit.dice import SeededDice

    dice = SeededDice(5)
    dice.d6("warm up")
    board = _Frozen((1, 2))
    parts = (_Army(2, {"a": _Unit("a", Hex(2, -1), 1)}), [_Unit("A", Hex(1, 2)), _One(3)], dice, board)

    data, shared = dumps_sharing(parts, frozenset({_Frozen}))
    assert _globals_named(data) == ["wargamekit._fastpickle._make"] and shared == (board,)
    back = loads_sharing(data, shared)
    assert back[:2] == parts[:2] and back[3] is board
    assert back[2]._rng.bit_generator.state == dice._rng.bit_generator.state
    plain = dumps(parts[:3])
    assert _globals_named(plain) == ["wargamekit._fastpickle._make"]
    assert pickle.loads(plain)[:2] == parts[:2]
    fresh = subprocess.run(  # (a class of the core's: a fresh interpreter imports its module)
        [sys.executable, "-c", "import pickle, sys; d, h = pickle.loads(sys.stdin.buffer.read()); print(d.d6('x'), h)"],
        input=dumps((dice, Hex(7, 8))), capture_output=True, check=True,
    )
    assert fresh.stdout.decode().strip() == f"{dice.d6('x')} {Hex(7, 8)}"


def test_a_sharing_load_leaves_no_cycle_for_the_collector():
    """A load with shared objects frees its unpickler (and the unpickler's memo of every object
    it made) when it returns: the loader it names holds no reference back to the unpickler, so
    a restart's copy is not kept alive until the collector runs."""
    import gc

    from wargamekit._fastpickle import dumps_sharing, loads_sharing
    from wargamekit.dice import SeededDice

    parts = (_Army(2, {"a": _Unit("a", Hex(2, -1), 1)}), [_Unit("A", Hex(1, 2))], SeededDice(5), _Frozen((1,)))
    data, shared = dumps_sharing(parts, frozenset({_Frozen}))
    assert shared
    gc.collect()
    gc.disable()
    try:
        assert loads_sharing(data, shared)[:2] == parts[:2]
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_every_snapshot_of_a_game_names_one_global_and_restarts_as_a_replay_does():
    """In play: every snapshot of a skirmish game (its state, its shared map and scenario, the
    dice) names only the fast pickle's loader, and a fork, an undo and a load restarting from
    those snapshots give the log a replay from the first answer gives."""
    from wargamekit import Game, SaveFile
    from wargamekit.testing import play_random_game
    from wargamekit_skirmish import Skirmish

    game = play_random_game(Skirmish(), seed=4)
    snapshots = [s for s in game._snapshots if s.pickled]
    assert len(snapshots) > 5 and all(s.shared for s in snapshots)
    assert {tuple(_globals_named(s.frozen)) for s in snapshots} == {("wargamekit._fastpickle._make",)}
    for back in (5, 17, 40):
        position = len(game.choices) - back
        forked = game.replay(game.choices[:position])
        undone = game.fork()
        undone.undo(back)
        loaded = Game.load(SaveFile.from_json(undone.save().to_json()), rulesets={"skirmish": game.ruleset})
        replayed = Game.new(game.ruleset, seed=game.seed, snapshots=False)
        for choice in game.choices[:position]:
            replayed.answer(choice)
        assert forked.log_text() == undone.log_text() == loaded.log_text() == replayed.log_text()


def test_fast_pickle_refuses_what_pickle_refuses():
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        dumps(_One(lambda: 1))


def test_fast_pickle_names_a_class_by_a_key_written_once_and_a_local_class_as_before():
    """An attrs instance is made again by ``_make(_NEW, "module:qualname")``: the key is written once
    per pickle (then referred back to), and no global reference of the class is written (which
    imports its module to check it); the objects load back as before, in a fresh interpreter
    too (the snapshot cache reads snapshots there). A class its key does not lead back to (a
    local one) keeps pickle's own global reference, and is refused as before."""
    import pickletools
    import subprocess
    import sys

    import attrs

    from wargamekit._fastpickle import _NEW, _NEW_ARGS, _new

    data = dumps([_Unit("A", Hex(1, 2)), _Unit("B", Hex(3, 4)), _Frozen((5,))])
    ops = [(op.name, arg) for op, arg, _ in pickletools.genops(data)]
    key = f"{_Unit.__module__}:{_Unit.__qualname__}"
    assert _NEW_ARGS[_Unit] == (_NEW, key)
    assert [arg for name, arg in ops if name in ("SHORT_BINUNICODE", "BINUNICODE")].count(key) == 1
    assert "NEWOBJ" not in {name for name, _ in ops}  # every class of the list is named by key
    back = pickle.loads(data)
    assert [(u.name, u.hex) for u in back[:2]] == [("A", Hex(1, 2)), ("B", Hex(3, 4))] and back[2] == _Frozen((5,))
    assert type(_new(key)) is _Unit
    with pytest.raises(pickle.UnpicklingError, match="no class 'nowhere:Nothing'"):
        _new("nowhere:Nothing")
    fresh = subprocess.run(
        [sys.executable, "-c", "import pickle, sys; print(repr(pickle.loads(sys.stdin.buffer.read())[0]))"],
        input=dumps([Hex(7, 8)]), capture_output=True, check=True,
    )
    assert fresh.stdout.strip() == repr(Hex(7, 8)).encode()

    @attrs.define
    class Local:
        x: int = 1

    with pytest.raises((pickle.PicklingError, AttributeError)):
        dumps(Local())
    assert _NEW_ARGS[Local] == (Local,)



def test_the_dice_generator_pickles_as_its_state_and_draws_on_alike():
    """The seeded dice's PCG64 generator reduces to its state (no entropy read on load): the
    copy has the same state, draws the same numbers from there, and stays one object where the
    original was referred to twice; the original is not disturbed."""
    from wargamekit._fastpickle import _pcg64_generator
    from wargamekit.dice import SeededDice

    dice = SeededDice(11)
    for _ in range(7):
        dice.d6("warm up")
    rng = dice._rng
    while not rng.bit_generator.state["has_uint32"]:  # half a 64-bit draw left buffered
        rng.integers(0, 10, dtype=np.uint32)
    data = dumps({"dice": dice, "again": rng})
    assert b"PCG64" in data
    back = pickle.loads(data)
    assert back["again"] is back["dice"]._rng
    assert back["again"].bit_generator.state == rng.bit_generator.state
    assert [back["dice"].d6("x") for _ in range(20)] == [dice.d6("x") for _ in range(20)]
    assert back["again"].integers(0, 10, 5, dtype=np.uint32).tolist() == rng.integers(0, 10, 5, dtype=np.uint32).tolist()
    assert type(_pcg64_generator(rng.bit_generator.state).bit_generator) is np.random.PCG64
    # another bit generator takes numpy's own reduce
    other = np.random.Generator(np.random.MT19937(3))
    assert b"_make" not in dumps(other)
    assert pickle.loads(dumps(other)).bit_generator.state["state"]["pos"] == other.bit_generator.state["state"]["pos"]

class _Colour(enum.Enum):
    RED = 1


class _Shared:
    """A type of shared objects for ``dumps_sharing`` (none of which the tests pickle)."""


class _Registered:
    """Pickles through a reducer registered with copyreg (after the pickler first met it)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __reduce__(self):
        return (_Registered, (self.value,))


def _old_pickle(obj, shared_types=frozenset()):
    """What the per-object ``reducer_override`` pickler (the form before the dispatch table)
    writes, and the shared objects it lists."""
    import io

    from wargamekit._fastpickle import _Pickler

    buffer = io.BytesIO()
    pickler = _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.shared_types, pickler.shared = shared_types, []
    pickler.dump(obj)
    return buffer.getvalue(), tuple(pickler.shared)


def test_the_dispatch_table_pickles_byte_for_byte_as_the_per_object_reducer():
    """``dumps`` and ``dumps_sharing`` reduce through a ``dispatch_table`` filled class by class
    (a hot path): the bytes, and the shared objects listed, are those of the per-object
    ``reducer_override`` they replace, for attrs instances (named by key or local), classes
    pickling their own way, frozen data, enum members, classes themselves (by name), the dice's
    generator and another generator, a copyreg registration made after the class was first
    pickled, and shared types."""
    import copyreg

    from wargamekit._fastpickle import dumps_sharing, loads_sharing
    from wargamekit.dice import SeededDice

    board = _Frozen((1, 2))
    unit = _Unit("A", Hex(1, 2), parent=board)
    unit2 = _Unit("B", Hex(1, 2), parent=unit)
    state = {
        "units": [unit, unit2, _Derived("C", Hex(0, 0), extra=[1])], "board": board, "again": board,
        "one": _One(3), "custom": _Custom(5), "dicty": _Dicty(7), "data": freeze_data({"a": [1, {"b": 2}]}),
        "colour": _Colour.RED, "classes": (_Unit, _Colour, int), "dice": SeededDice(4),
        "mt": np.random.Generator(np.random.MT19937(3)), "registered": _Registered(1),
    }
    for shared_types in (frozenset(), frozenset({_Frozen}), frozenset({_Frozen, _Unit})):
        expected, expected_shared = _old_pickle(state, shared_types)
        data, shared = dumps_sharing(state, shared_types)
        assert data == expected and shared == expected_shared and all(map(operator.is_, shared, expected_shared))
        assert _normalised(loads_sharing(data, shared)) == _normalised(loads_sharing(expected, expected_shared))
    assert dumps(state) == _old_pickle(state)[0]
    copyreg.pickle(_Registered, lambda r: (_Registered, (r.value + 100,)))
    try:
        assert dumps(state) == _old_pickle(state)[0]
        assert pickle.loads(dumps(state))["registered"].value == 101
    finally:
        del copyreg.dispatch_table[_Registered]
    assert pickle.loads(dumps(state))["registered"].value == 1
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        dumps_sharing({"bad": _One(lambda: 1)}, frozenset({_Frozen}))


class _PicklesInside:
    """Pickles something else while it is pickled (a reducer that pickles)."""

    def __init__(self, inner: object, shared_types: frozenset = frozenset()) -> None:
        self.inner, self.shared_types = inner, shared_types

    def __reduce__(self):
        from wargamekit._fastpickle import dumps_sharing

        data, shared = dumps_sharing(self.inner, self.shared_types)
        return (_Holder, (data, len(shared)))


@attrs.define
class _Holder:
    data: bytes
    n_shared: int


def test_the_kept_picklers_pickle_as_fresh_ones_and_keep_nothing():
    """``dumps`` and ``dumps_sharing`` keep their picklers from pickle to pickle (a hot path):
    every pickle is the bytes a fresh pickler writes, with its own shared objects, however
    many came before it (the memo is emptied, not carried over), after one that failed, from
    inside another (a reducer that pickles gets a pickler of its own), and past a 64 KiB frame
    (the pickler hands its bytes over in pieces); and no pickled object is kept alive."""
    import gc
    import weakref

    from wargamekit._fastpickle import _KEPT, dumps_sharing, loads_sharing

    board = _Frozen((1, 2))
    state = {"units": [_Unit("A", Hex(1, 2), parent=board), _Unit("B", Hex(1, 2))], "board": board, "again": board}
    for shared_types in (frozenset(), frozenset({_Frozen})):
        expected = _old_pickle(state, shared_types)
        for _ in range(3):
            data, shared = dumps_sharing(state, shared_types)
            assert (data, shared) == expected and all(map(operator.is_, shared, expected[1]))
        with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
            dumps_sharing({"bad": _One(lambda: 1), "board": board}, shared_types)
        assert dumps_sharing(state, shared_types) == expected
        inside = {"outer": board, "inner": _PicklesInside(state, shared_types), "after": _One(4)}
        data, shared = dumps_sharing(inside, shared_types)
        assert shared == expected[1]  # the outer pickle's board only: the inner one listed its own
        back = loads_sharing(data, shared)
        assert back["inner"] == _Holder(expected[0], len(expected[1])) and back["after"] == _One(4)
    assert len(_KEPT) == 1  # the kept one, and the inner pickle's own not kept beside it
    big = [_One(n) for n in range(20_000)]
    assert dumps(big) == _old_pickle(big)[0] and len(dumps(big)) > 2**17
    unit = _Unit("C", Hex(0, 0))
    gone = weakref.ref(unit)
    dumps_sharing([unit], frozenset({_Frozen}))
    dumps([unit])
    del unit
    gc.collect()
    assert gone() is None


def test_a_copyreg_registration_replaced_removed_or_made_for_an_attrs_class_is_followed():
    """Every pickler form follows copyreg as pickle does, whatever happened since a class was
    first pickled: a registration replaced by another (same count of registrations), one
    removed while another is made, and one made for an attrs class the fast path knows. The
    kept picklers of ``dumps_sharing`` (one per set of shared types, made by the first pickle
    below) follow it too: their tables copied the reducers of the moment they were made."""
    import copyreg

    from wargamekit._fastpickle import dumps_sharing, loads_sharing

    shared_types = frozenset({_Shared})

    def both(obj):  # the table form, the per-object form (the snapshot cache's base), the
        # sharing form (a snapshot's), pickle
        return (pickle.loads(dumps(obj)), pickle.loads(_old_pickle(obj)[0]),
                loads_sharing(*dumps_sharing(obj, shared_types)), pickle.loads(pickle.dumps(obj)))

    registered, one = _Registered(1), _One(1)
    assert [r.value for r in both(registered)] == [1] * 4 and [o.only for o in both(one)] == [1] * 4
    try:
        copyreg.pickle(_Registered, lambda r: (_Registered, (r.value + 100,)))
        assert [r.value for r in both(registered)] == [101] * 4
        copyreg.pickle(_Registered, lambda r: (_Registered, (r.value + 1000,)))  # replaced: same count
        assert [r.value for r in both(registered)] == [1001] * 4
        del copyreg.dispatch_table[_Registered]
        copyreg.pickle(_One, lambda o: (_One, (o.only + 10,)))  # removed one, made one for attrs
        assert [r.value for r in both(registered)] == [1] * 4
        assert [o.only for o in both(one)] == [11] * 4
    finally:
        copyreg.dispatch_table.pop(_Registered, None)
        copyreg.dispatch_table.pop(_One, None)
    assert [o.only for o in both(one)] == [1] * 4
    assert dumps(one) == _old_pickle(one)[0]


def test_choose_of_builds_the_options_option_would():
    """``Choose.of`` builds its options through the slots (a hot path); they are exactly the
    options ``Option(value, label, data=...)`` gives."""
    from wargamekit import Choose

    given = Option("kept", "Kept", public="K", data={"k": 1})
    d = Choose.of("red", "Which?", ["a", ("b", 2), given], label=str,
                  data=lambda v: None if v == "a" else {"v": list(v)})
    expected = (Option("a", "a"), Option(("b", 2), "('b', 2)", data={"v": ["b", 2]}), given)
    assert d.options == expected
    assert [repr(o) for o in d.options] == [repr(o) for o in expected]
    assert d.options[2] is given
    assert all(type(o.data) is Data for o in d.options)
    with pytest.raises(TypeError, match=r"data\.v: <object object at .*> is not JSON data"):
        Choose.of("red", "Which?", [object()], data=lambda v: {"v": v})


def test_the_logs_events_are_the_events_event_would_build():
    """``RulesContext.event`` builds events through the slots (a hot path); they are exactly
    ``Event(kind, text, data, audience)``, errors included."""
    from wargamekit.events import new_event

    for audience in (None, "red", ("red", "blue"), ["blue"]):
        made = new_event("roll", "r: d6 [3] = 3", {"faces": (3,), "value": 3}, audience)
        built = Event("roll", "r: d6 [3] = 3", {"faces": (3,), "value": 3}, audience)
        assert made == built and repr(made) == repr(built) and made.to_json() == built.to_json()
    with pytest.raises(TypeError, match="is not JSON data"):
        new_event("k", "t", {"x": object()}, None)


def test_a_response_s_option_data_is_what_freezing_it_gives():
    """``Response.option_data`` wraps flat data (frozen already) without freezing it again; data
    with nested values, and no data, take freeze_data: the same option data either way."""
    from wargamekit import Response

    for data in ({"id": 3, "name": "Ward", "target": None, "cost": 1.5, "playable": False}, {"to": [1, 2], "x": {"y": 1}}):
        response = Response("Ward", "blue", resolve=lambda: None, data=data)
        assert response.option_data() == freeze_data({"respond": freeze_data(data)})
        assert response.option_data() == {"respond": dict(response.data)}
    nameless = Response("Ward", "blue", resolve=lambda: None)
    assert nameless.option_data() == {"respond": {"name": "Ward"}}


def _choice_sample(rng: np.random.Generator, count: int, size: int) -> list[int]:
    """What the random bot's subset sample was before the fast path: ``Generator.choice``."""
    return sorted(int(i) for i in rng.choice(count, size=size, replace=False))


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 5, 7, 8, 13, 64, 10000, 10001])
def test_subset_sample_is_generator_choice_draw_for_draw(count):
    """``_random_subset`` gives what ``rng.integers`` and ``rng.choice(count, size,
    replace=False)`` give, sorted, and leaves the generator in the same state (the 32-bit
    half-draw buffer included), for every size range up to 8 options (spread above), from
    fresh and part-used generators."""
    from wargamekit.decisions import _random_subset

    if count <= 8:
        ranges = [(low, high) for high in range(count + 1) for low in range(high + 1)]
    else:
        ranges = [(0, count), (1, 3), (count // 50, count // 50 + 2), (count - 1, count), (count, count)]
    for low, high in ranges:
        for seed in range(6):
            ours, numpy_calls = (np.random.Generator(np.random.PCG64(seed)) for _ in range(2))
            if seed % 2:  # leave half a 64-bit draw in the buffer first
                ours.integers(0, 6)
                numpy_calls.integers(0, 6)
            for _ in range(3):
                size = int(numpy_calls.integers(low, high + 1))
                expected = _choice_sample(numpy_calls, count, size)
                assert _random_subset(ours, count, low, high) == expected
                assert ours.bit_generator.state == numpy_calls.bit_generator.state
            assert ours.integers(0, 1000) == numpy_calls.integers(0, 1000)


def test_bounded_draw_rejects_as_numpy_does():
    """The rare rejection of Lemire's method (a 32-bit draw in the biased sliver) is numpy's:
    a bound whose sliver is large (2**31 + 1 values) rejects about half the draws."""
    from wargamekit.decisions import _bounded

    ours, numpy_calls = np.random.Generator(np.random.PCG64(3)), np.random.Generator(np.random.PCG64(3))
    draws = ours.bit_generator.ctypes
    for bound in [2**31, 2**31 + 5, 3 * 2**30, 6, 2**32 - 2]:
        for _ in range(200):
            assert _bounded(draws.next_uint32, draws.state, bound) == numpy_calls.integers(0, bound + 1)
    assert ours.bit_generator.state == numpy_calls.bit_generator.state


def test_random_subset_answers_are_those_of_generator_choice():
    """The random bot's subset answers (the draws the logs depend on) are those of the form
    that called ``Generator.choice``, constraints and retries included."""

    def reference(decision: ChooseSubset, rng: np.random.Generator) -> list[int]:
        while True:  # every constraint below has a legal subset that random sampling finds
            size = int(rng.integers(decision.min_count, decision.upper + 1))
            picked = _choice_sample(rng, len(decision.options), size)
            if decision.constraint is None or not decision.constraint(decision.value_of(picked)):
                return picked

    decisions = [
        ChooseSubset(side="a", prompt="p", options=[Option(i, str(i)) for i in range(n)], min_count=low,
                     max_count=high, constraint=constraint)
        for n, low, high, constraint in [
            (1, 0, 1, None), (2, 1, 2, None), (3, 0, 3, lambda v: None if sum(v) % 2 else "odd sums only"),
            (6, 1, 3, None), (9, 0, None, lambda v: None if len(v) != 4 else "not four"), (4, 4, 4, None),
        ]
    ]
    ours, theirs = np.random.Generator(np.random.PCG64(7)), np.random.Generator(np.random.PCG64(7))
    for _ in range(300):
        for decision in decisions:
            assert decision.random_answer(ours) == reference(decision, theirs)
    assert ours.bit_generator.state == theirs.bit_generator.state


def test_random_answers_are_those_of_generator_integers():
    """Every random answer (Choose, ChooseNumber, YesNo) is the one ``rng.integers`` gave, and
    leaves the generator where it did: one option or one number draws nothing, a range wider
    than 32 bits, or bounds given as numpy integers (subset sizes too), is numpy's own call."""
    from wargamekit.decisions import ChooseNumber, YesNo

    cases = [
        (Choose.of("a", "p", list(range(n))), lambda rng, n=n: int(rng.integers(0, n))) for n in (1, 2, 3, 6, 1000)
    ] + [
        (ChooseNumber(side="a", prompt="p", low=low, high=high), lambda rng, low=low, high=high: int(rng.integers(low, high + 1)))
        for low, high in ((3, 3), (-5, 4), (0, 2**31), (1, 2**32 - 1), (0, 2**40), (np.int64(0), np.int64(2**32 - 2)))
    ] + [(YesNo(side="a", prompt="p"), lambda rng: bool(rng.integers(0, 2)))] + [
        (ChooseSubset(side="a", prompt="p", options=[Option(i, str(i)) for i in range(5)], min_count=np.int64(1),
                      max_count=np.int64(3)),
         lambda rng: _choice_sample(rng, 5, int(rng.integers(1, 4))))
    ]
    ours, numpy_calls = np.random.Generator(np.random.PCG64(11)), np.random.Generator(np.random.PCG64(11))
    for _ in range(200):
        for decision, reference in cases:
            answer = decision.random_answer(ours)
            expected = reference(numpy_calls)
            assert answer == expected and type(answer) is type(expected)
    assert ours.bit_generator.state == numpy_calls.bit_generator.state


# -- the hand-built Choose, lazy labels without a subclass, the answer's fast path ------------


def _choose_by_attrs(**fields) -> Choose:
    """The Choose attrs' own __init__ would build (the converters, then __attrs_post_init__):
    what ``Choose.__init__``, written by hand for speed, must equal."""
    import attrs

    from wargamekit.decisions import _option_tuple

    made = object.__new__(Choose)
    for a in attrs.fields(Choose):
        value = fields.get(a.name, a.default)
        if a.name == "context":
            value = freeze_data(value)
        elif a.name == "options":
            value = _option_tuple(value)
        object.__setattr__(made, a.name, value)
    made.__attrs_post_init__()
    return made


@pytest.mark.parametrize(
    "fields",
    [
        {"side": "red", "prompt": "Fire at?", "options": [Option(1, "one"), Option(2, "two", data={"t": 2})]},
        {"side": "blue", "prompt": "Move?", "rule": "6.2", "secret": True, "kind": "demo.move",
         "context": {"unit": "A1", "to": [3, 4]}, "options": (Option("a", "A", public="?"),)},
    ],
)
def test_a_hand_built_choose_is_the_choose_attrs_builds(fields):
    import copy
    import pickle

    import attrs

    made, expected = Choose(**fields), _choose_by_attrs(**fields)
    assert made == expected and hash(made) == hash(expected) and repr(made) == repr(expected)
    assert type(made.options) is tuple and type(made.context) is Data
    assert pickle.loads(pickle.dumps(made)) == made and copy.deepcopy(made) == made
    assert attrs.evolve(made, prompt="Again?") == _choose_by_attrs(**{**fields, "prompt": "Again?"})


def test_a_hand_built_choose_refuses_what_it_refused():
    with pytest.raises(ValueError, match=r"Fire at\? \[8\.1\]: a Choose needs at least one option"):
        Choose(side="red", prompt="Fire at?", rule="8.1", options=[])
    with pytest.raises(TypeError, match=r"data\.unit: <object object at .*> is not JSON data"):
        Choose(side="red", prompt="Fire at?", context={"unit": object()}, options=[Option(1, "one")])
    with pytest.raises(TypeError):
        Choose(side="red", prompt="Fire at?")  # type: ignore[call-arg]  # options are required


def test_a_die_s_name_is_made_once_and_pickles_as_before():
    import pickle

    from wargamekit.dice import Die

    die = Die(3, 17)
    assert die.name == "d[3-17]" and die.name is die.name
    assert (Die(1, 6).name, Die(0, 9).name) == ("d6", "d10(0-9)")
    assert die.__getstate__() == {"low": 3, "high": 17} and pickle.loads(pickle.dumps(die)) == die


def test_a_hand_built_choose_names_itself_in_its_lazy_menu_s_errors():
    from wargamekit import LazyOptions
    from wargamekit.errors import OptionError

    menu = LazyOptions(["a"], label=lambda v: 3)  # type: ignore[arg-type, return-value]
    d = Choose(side="red", prompt="Pick", rule="2.1", options=menu)
    assert d.options is menu
    with pytest.raises(OptionError, match=r"Pick \[2\.1\]: option 0 \('a'\)"):
        d.options[0]  # noqa: B018


def test_a_lazy_option_is_an_option_as_built_with_its_text():
    """A lazy label leaves the label slot unset (``Option.__getattr__`` makes it): the option
    is an ``Option`` throughout, and reads, compares, hashes, prints and pickles as one
    built with the text."""
    import copy
    import pickle

    made: list[int] = []
    lazy = Option(("fire", 2), lambda: made.append(1) or "fire (58%)", data={"target": 2})
    text = Option(("fire", 2), "fire (58%)", data={"target": 2})
    assert type(lazy) is Option and made == []
    assert lazy.data == text.data and made == []  # data, value and public are plain slots
    assert repr(lazy) == repr(text) and made == [1]
    assert lazy == text and hash(lazy) == hash(text) and lazy.label == "fire (58%)" and made == [1]
    for other in (Option(1, lambda: "x"), Option(1, lambda: "x")):
        assert pickle.loads(pickle.dumps(other)) == Option(1, "x") == copy.copy(other)
    with pytest.raises(AttributeError, match="'Option' object has no attribute 'lable'"):
        text.lable  # type: ignore[attr-defined]  # noqa: B018
    assert not hasattr(Option(1, "x"), "missing")


def test_the_answer_fast_path_gives_what_check_and_value_of_give():
    """``Game.answer`` takes a plain Choose's in-range ``int`` index without ``check`` and
    ``value_of``: the same log as answers that take them (a numpy index), and the same errors."""
    from rulesets import DiceRace

    from wargamekit import Game, InvalidChoiceError

    fast, slow = Game.new(DiceRace(), seed=4), Game.new(DiceRace(), seed=4)
    for index in [0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0]:
        if fast.over:
            break
        before = fast.log_text()
        for bad in (2, -1, 1.0, "0", None) if type(fast.pending) is Choose else ():
            with pytest.raises(InvalidChoiceError):
                fast.answer(bad)
            assert fast.log_text() == before
        answer = int(index) if type(fast.pending) is Choose else True  # (a YesNo: race on)
        fast.answer(answer)
        slow.answer(np.int64(answer) if type(slow.pending) is Choose else answer)
        assert fast.log_text() == slow.log_text() and fast.choices == slow.choices
        assert all(type(c) is type(d) for c, d in zip(fast.choices, slow.choices, strict=True))
    assert fast.over and len(fast.choices) == 7  # (red reached the target)


class _BadMenu(NoScenario):
    """One lazy menu (with lazy labels) whose third option's label is no ``str`` and whose
    fourth option's data is not JSON, then a public/secret menu: answering the bad label must
    leave the game as it was; the bad data is no concern of the answer's (nobody reads it)."""

    name = "bad_menu"
    version = "1"
    sides = ("red", "blue")

    def play(self, ctx):
        first = yield Choose.of("red", "Pick?", [1, 2, 3, 4], rule="T1", lazy=True, lazy_labels=True,
                                label=lambda v: f"pick {v}" if v != 3 else v,
                                data=lambda v: {"v": v if v != 4 else object()})
        second = yield Choose(side="blue", prompt="Hide?", rule="T2",
                              options=[Option("a", "A (secret)", public="A"), Option("b", "B")])
        ctx.event("done", f"{first} {second}", first=first, second=second)
        return Outcome(None, "done", {})


def test_an_answer_whose_option_cannot_be_made_leaves_the_game_as_it_was():
    """The answer's fast path makes the chosen option's label (a lazy menu's, lazy itself here)
    before anything is recorded: a label that is no ``str`` raises ``OptionError`` and the game
    is as before (no choice recorded, nothing logged), so the game goes on and replays; the log
    is what ``describe`` writes (the public label where given). The answer reads no data: an
    option whose data is not JSON is answered, and its error comes with the option's first read."""
    from wargamekit import Game, OptionError

    game = Game.new(_BadMenu(), seed=1)
    menu = game.pending
    with pytest.raises(OptionError, match=r"a lazy option label must make a str.* made 3"):
        game.answer(2)
    assert game.choices == [] and game.log == [] and game.pending is menu
    with pytest.raises(OptionError, match=r"Pick\? \[T1\]: option 3 \(4\): data.v: .* is not JSON data"):
        menu.options[3]  # noqa: B018 - the read (while the decision is pending) is what raises
    game.answer(3)  # (the answer reads no data)
    game.answer(0)
    assert game.choices == [3, 0] and game.over
    assert [event.text for event in game.log if event.kind == "choice"] == ["red: Pick? -> pick 4", "blue: Hide? -> A"]
    slow = Game.new(_BadMenu(), seed=1)
    slow.answer(np.int64(3))  # (the general path: check, value_of, describe)
    slow.answer(np.int64(0))
    assert slow.log_text() == game.log_text() and Game.load(game.save(), rulesets={"bad_menu": _BadMenu()}).log_text() == game.log_text()


@pytest.mark.parametrize(
    "data",
    [None, {}, {"target": "crow"}, {"a": 1, "b": 2.5, "c": None, "d": True}, {"to": [3, 4]},
     {"n": np.int64(3)}, {1: "x"}, {"e": _Colour.RED}, Data({"k": 1}), {"nested": {"a": (1, 2)}}],
)
def test_an_option_s_inline_data_freezing_is_freeze_data(data):
    """``Option.__init__`` freezes a flat dict of exact scalars inline (a hot path): the same
    data as ``freeze_data`` (type, items, key order), and the same errors otherwise."""
    try:
        expected = freeze_data(data)
    except TypeError as exc:
        with pytest.raises(TypeError, match=re.escape(str(exc))):
            Option("x", "X", data=data)
        return
    made = Option("x", "X", data=data).data
    assert type(made) is Data and made == expected and list(made) == list(expected)
    assert repr(made) == repr(expected)


def test_a_single_die_s_fast_path_rolls_and_logs_what_the_general_path_does():
    """``SeededDice.roll`` draws one die of its own class in one call (a hot path); a subclass
    takes ``Dice.roll`` (``_face``, then ``_record``): the same faces, rolls, events and
    generator state, for every die (numpy integers and one-face dice included)."""
    from wargamekit.dice import D6, D10_ZERO, D20, Die, SeededDice
    from wargamekit.events import _Recorder

    class General(SeededDice):
        pass

    fast, general = SeededDice(11), General(11)
    logs: tuple[list, list] = ([], [])
    fast.on_roll, general.on_roll = _Recorder(logs[0], None).roll, _Recorder(logs[1], None).roll
    dice = [D6, D10_ZERO, D20, Die(3, 3), Die(-5, 5), Die(np.int64(1), np.int64(6)), Die(0, 2**40)]
    for index in range(60):
        die = dice[index % len(dice)]
        with fast.secret("red") if index % 7 == 0 else _nothing(), general.secret("red") if index % 7 == 0 else _nothing():
            assert fast.roll(die, f"draw {index}") == general.roll(die, f"draw {index}")
    assert fast.nd6(3, "three") == general.nd6(3, "three")
    assert fast.rolls == general.rolls
    assert [e.to_json() for e in logs[0]] == [e.to_json() for e in logs[1]] and len(logs[0]) == 61
    assert fast._rng.bit_generator.state == general._rng.bit_generator.state


def _nothing():
    import contextlib

    return contextlib.nullcontext()


def test_a_subset_answer_reads_alike_as_a_list_and_as_any_other_sequence():
    """``ChooseSubset.check`` takes a list without the ``Sequence`` test (a hot path): a list,
    a tuple, a numpy array and a range give the same canonical answer; what is no list of
    indices is refused as before."""
    from wargamekit import InvalidChoiceError

    subset = ChooseSubset(side="red", prompt="Which?", options=[Option(i, str(i)) for i in range(5)], max_count=3)
    for given in ([3, 0], (3, 0), np.array([3, 0]), [np.int64(3), 0]):
        assert subset.check(given) == [0, 3] and all(type(i) is int for i in subset.check(given))
    assert subset.check(range(2)) == [0, 1]
    for bad, message in (("03", "expected a list of option indices"), (3, "expected a list of option indices"),
                         ([True], "True is not an option index"), ([5], "5 is not one of 0..4"),
                         ([1, 1], "an option is chosen twice")):
        with pytest.raises(InvalidChoiceError, match=message):
            subset.check(bad)


# -- objects built by plain writes on a builder subclass (_fastbuild) ---------------------------


def _by_setters(cls, **fields):
    """``cls`` with ``fields`` written through object's own setter: what the slots' setters and
    attrs' ``__init__`` give, which the builders must equal."""
    made = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(made, name, value)
    return made


def _same_built(made, expected) -> None:
    """The same object in every way a reader can tell: class, fields, equality, repr, pickle."""
    import copy
    import pickle

    assert type(made) is type(expected)
    assert made == expected and repr(made) == repr(expected)
    for name in type(expected).__slots__:
        if name != "__weakref__":
            assert getattr(made, name, "unset") == getattr(expected, name, "unset"), name
    assert pickle.dumps(made) == pickle.dumps(expected)
    assert copy.deepcopy(made) == expected
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.kind = "changed"  # frozen, as any instance of the class


def test_the_builder_of_a_frozen_class_makes_instances_of_that_class():
    from wargamekit._fastbuild import builder

    @attrs.frozen
    class Point:
        x: int
        y: int

    Builder = builder(Point)
    assert issubclass(Builder, Point) and Builder.__slots__ == () and Builder is not Point
    point = object.__new__(Builder)
    point.x, point.y = 1, 2
    point.__class__ = Point
    assert type(point) is Point and point == Point(1, 2) and hash(point) == hash(Point(1, 2))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        point.x = 3  # type: ignore[misc]


def test_the_sequencers_turns_and_the_polls_timing_points_are_those_their_classes_build():
    """A preset's ``Turn`` and a poll's ``TimingPoint``, built by plain writes on a builder
    subclass (hot: one a turn, one a poll of a side), are exactly what their classes build."""
    from wargamekit.interrupts import Response, TimingPoint, _timing_point
    from wargamekit.sequencing import Turn, _turn

    for args in [(("red",), "impulse 3: red", 3), (("L1", "L2"), "leader value 2: red", 2, None, None, ("L1",)),
                 ((), "turn 1 / combat / aimed", 1, "combat", "aimed")]:
        _same_built(_turn(*args), Turn(*args))
    top = Response("Zap", "blue", dict, key="zap")  # (a resolve that pickles)
    for args in [("spell cast", None, 0), ("resolution of Zap", top, 1)]:
        _same_built(_timing_point(*args), TimingPoint(*args))


def test_a_checkpoint_and_a_snapshot_are_those_their_classes_build():
    """A procedure's ``Checkpoint`` and the game's ``_Snapshot``, built by plain writes on a
    builder subclass (hot: every checkpoint, every snapshot), are exactly what their classes
    build; a snapshot's two memo lists are its own."""
    from wargamekit.context import Checkpoint, RulesContext
    from wargamekit.dice import SeededDice
    from wargamekit.game import _new_snapshot, _Snapshot
    from wargamekit.interrupts import InterruptStack

    ctx = RulesContext(ruleset=Ruleset(), scenario=None, options={}, state=None, dice=SeededDice(0),
                       interrupts=InterruptStack())
    _same_built(ctx.checkpoint("turn 3"), Checkpoint("turn 3"))
    events = [Event("hit", "red hits", {"side": "red"})]
    args = (8, "turn 3", (0, [1, 2], True), events, 1, [], 0, b"frozen", True, ("shared",))
    made, expected = _new_snapshot(*args), _Snapshot(*args)
    _same_built(made, expected)
    assert made._digest == [] and made._saved == [] and made._digest is not _new_snapshot(*args)._digest
    assert made.prefix_digest().hexdigest() == expected.prefix_digest().hexdigest()


def _empty_key_orders(kept=None) -> None:
    """Empty ``events._KEY_ORDERS`` in place but for ``kept`` (``ctx.event`` holds the dict
    itself, so it is not replaced; a memo, it learns again whatever a test leaves in it)."""
    from wargamekit import events

    events._KEY_ORDERS.clear()
    events._KEY_ORDERS.update(kept or {})


def test_the_core_s_events_are_those_the_slots_setters_build():
    """Every event the core builds fast (a rule's, the general path's, an answer's, a roll's)
    is an ``Event`` exactly as ``Event(...)`` builds it."""
    from wargamekit.dice import D6, SeededDice
    from wargamekit.events import _Recorder, logged_event, new_event

    data = {"side": "red", "value": 3}
    for audience, frozen_audience in ((None, None), ("red", ("red",)), (["red", "blue"], ("red", "blue"))):
        expected = _by_setters(Event, kind="hit", text="red hits", data=data, audience=frozen_audience)
        _same_built(new_event("hit", "red hits", data, audience), expected)
        _same_built(rule_event("hit", "red hits", dict(data), audience), expected)
        _same_built(logged_event("hit", "red hits", dict(data), frozen_audience), expected)
        _same_built(Event("hit", "red hits", data, audience), expected)
    log: list[Event] = []
    dice = SeededDice(5)
    dice.on_roll = _Recorder(log, None).roll
    face = dice.d6("red fires")
    _same_built(log[0], Event("roll", f"red fires: d6 [{face}] = {face}",
                        {"dice": "d6", "faces": [face], "purpose": "red fires", "value": face}))
    from wargamekit.dice import Roll

    _same_built(dice.rolls[0], Roll("red fires", "d6", (face,), face))
    with dice.secret("blue"):
        dice.roll(D6, "hidden", 2)
    assert type(dice.rolls[-1]) is Roll and dice.rolls[-1].audience == ("blue",)


@pytest.mark.parametrize("label", ["Fire at the fox", "lazy"])
@pytest.mark.parametrize("data", [None, {}, {"target": "fox"}, {"to": [3, 4]}])
@pytest.mark.parametrize("public", [None, "a target"])
def test_an_option_is_what_the_slots_setters_build(label, data, public):
    """``Option.__init__`` writes an Option as its builder (a hot path): the same option, lazy
    label or not, as the slots' setters make, for every form of data; so are those of
    ``Choose.of`` and of a lazy menu."""
    from wargamekit import LazyOptions

    lazy = label == "lazy"
    made = Option("fox", (lambda: "Fire at the fox") if lazy else label, public, data)
    if lazy:
        assert made._make_label is not None  # not made yet
    expected = _by_setters(Option, value="fox", label="Fire at the fox", public=public, data=freeze_data(data),
                           _make_label=None)
    _same_built(made, expected)
    if public is None:
        for option in (Choose.of("red", "Fire at?", ["fox"], label=lambda v: "Fire at the fox",
                                 data=lambda v: data, lazy_labels=lazy).options[0],
                       LazyOptions(["fox"], label=lambda v: "Fire at the fox", data=lambda v: data,
                                   lazy_labels=lazy)[0]):
            _same_built(option, expected)


def test_an_option_refuses_what_it_refused():
    with pytest.raises(TypeError, match=r"data\.x: <object object at .*> is not JSON data"):
        Option(1, "one", data={"x": object()})
    with pytest.raises(TypeError, match="expected a mapping"):
        Option(1, "one", data=[1])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Option(1, "one", None, None, 5)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Option(1)  # type: ignore[call-arg]


def test_a_subclass_of_option_or_choose_is_built_through_the_setters_as_before():
    """A subclass takes no builder (its instances are of its own class): it is built as
    before, and a lazy label is still refused for it."""

    @attrs.frozen(init=False)
    class Marked(Option):
        pass

    @attrs.frozen
    class Tagged(Option):
        tag: str = "t"

    marked = Marked(1, "one", data={"k": 1})
    assert type(marked) is Marked and (marked.value, marked.label, marked.data) == (1, "one", {"k": 1})
    assert marked == Option(1, "one", data={"k": 1})
    with pytest.raises(TypeError, match="Marked: a lazy label is for an Option itself"):
        Marked(1, lambda: "one")
    tagged = Tagged(1, "one", None, freeze_data({"k": 1}), "x")  # attrs' own __init__
    assert type(tagged) is Tagged and tagged.tag == "x" and tagged.label == "one"

    @attrs.frozen(kw_only=True, init=False)
    class Menu(Choose):
        pass

    fields = {"side": "red", "prompt": "Fire at?", "rule": "R1", "kind": "range.target",
              "context": {"n": 1}, "options": [Option(1, "one")]}
    menu = Menu(**fields)
    assert type(menu) is Menu
    assert attrs.astuple(menu, recurse=False) == attrs.astuple(_choose_by_attrs(**fields), recurse=False)
    with pytest.raises(ValueError, match="a Choose needs at least one option"):
        Menu(**{**fields, "options": []})


def test_a_choose_whose_data_is_refused_is_not_left_a_builder():
    """``Choose.__init__`` turns a builder back into a Choose whatever happens (the object is
    dropped with the error, but nothing may see a builder)."""
    from wargamekit.decisions import _ChooseBuilder

    seen = []

    class Odd(dict):
        def items(self):
            seen.append(self)
            raise RuntimeError("no")

    with pytest.raises(Exception):  # noqa: B017, PT011 - whatever freezing raises
        Choose(side="red", prompt="P", context=Odd(a=1), options=[Option(1, "one")])
    assert not any(type(o) is _ChooseBuilder for o in __import__("gc").get_objects())


def test_no_builder_is_left_behind_when_what_it_would_hold_is_refused():
    """Events, options of ``Choose.of`` and of lazy menus make what can fail (data, audience,
    label) before their builder: a refusal leaves no half-built builder for the traceback to
    hold (nothing may ever see one)."""
    import gc

    from wargamekit.decisions import _OptionBuilder
    from wargamekit.events import _EventBuilder, new_event

    def builders() -> list[object]:
        return [o for o in gc.get_objects() if type(o) in (_EventBuilder, _OptionBuilder)]

    bad = {"unit": object()}
    with pytest.raises(TypeError) as refused_event:
        new_event("x", "text", bad, None)
    with pytest.raises(TypeError) as refused_owned:
        rule_event("x", "text", dict(bad), None)
    with pytest.raises(TypeError) as refused_option:
        Choose.of(side="red", prompt="P", values=[1], label=str, data=lambda v: bad)
    lazy = Choose.of(side="red", prompt="P", values=[1, 2], label=str, data=lambda v: bad, lazy=True)
    with pytest.raises(TypeError) as refused_lazy:
        lazy.options[1]
    held = (refused_event, refused_owned, refused_option, refused_lazy)  # tracebacks kept alive
    assert all(info.value for info in held) and builders() == []


def test_the_chosen_option_s_label_is_made_as_reading_it_makes_it():
    """The game and ``Choose.describe`` make a lazy label without the miss that sends a read
    to ``Option.__getattr__`` (a hot path): the same text, made once and kept, the same error
    for a label that makes no str, and a subclass's label read as before."""
    from wargamekit.decisions import _label_of
    from wargamekit.errors import OptionError

    made: list[str] = []
    lazy = Option("fox", lambda: made.append("fox") or "Fire at the fox")
    assert _label_of(lazy) == "Fire at the fox" and lazy.label == "Fire at the fox" and made == ["fox"]
    assert _label_of(lazy) == "Fire at the fox" and made == ["fox"] and lazy._make_label is None
    assert _label_of(Option(1, "one")) == "one"
    menu = Choose(side="red", prompt="P", options=[Option(0, lambda: "zero"), Option(1, "one", public="a unit")])
    assert (menu.describe(0), menu.describe(1)) == ("zero", "a unit")
    bad = Option(2, lambda: 42)  # type: ignore[arg-type, return-value]
    with pytest.raises(OptionError, match="a lazy option label must make a str.* made 42") as via_fast:
        _label_of(bad)
    with pytest.raises(OptionError, match=re.escape(str(via_fast.value))):
        _ = bad.label

    @attrs.frozen
    class Tagged(Option):
        tag: str = "t"

    tagged = Tagged(1, "one", None, freeze_data({}), "x")  # attrs' __init__: _make_label unset
    assert _label_of(tagged) == "one"


# -- AlternatingImpulses asks the side whose impulse it is first (issue 9) ----------------------
import hypothesis  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from wargamekit.sequencing import AlternatingImpulses, TurnResult  # noqa: E402


def _impulses_by_asking_everyone(sides, can_act, pass_limit, unable, script):
    """The impulses as the general algorithm takes them (before the fast path): every side's
    ``can_act`` asked before each impulse. ``script`` is what each impulse reports: ``"act"``,
    ``"pass"`` or ``"end"`` (``TurnResult(end=True)``: the phase is over, as if the pass limit had
    been reached). Returns one record per ``next_turn``: ``("turn", side, impulse, passes after
    its end_turn, cursor)``; once no side is given the turn, ``("none", passes, impulse, cursor)``
    for that call and for one more call (an ended phase stays ended, its state untouched)."""
    n, cursor, passes, impulse, trace = len(sides), 0, 0, 0, []
    for reported in script:
        side = None
        while passes < pass_limit:
            able = [can_act(s, impulse) for s in sides]
            if not any(able):
                break  # nobody can act: the cursor and the pass count stay where they are
            here, cursor = sides[cursor % n], (cursor + 1) % n
            if able[sides.index(here)]:
                side = here
                break
            if unable == "pass":
                passes += 1
        if side is None:
            trace += [("none", passes, impulse, cursor)] * 2
            break
        impulse += 1
        passes = pass_limit if reported == "end" else passes + 1 if reported == "pass" else 0
        trace.append(("turn", side, impulse, passes, cursor))
    return trace


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(
    n_sides=st.integers(1, 3),
    able=st.lists(st.lists(st.booleans(), min_size=3, max_size=3), min_size=1, max_size=12),
    # "end" less often than the others, so that most scripts still run into the pass limit or
    # into nobody being able to act before an impulse ends the phase.
    script=st.lists(st.sampled_from(["act", "pass", "act", "pass", "end"]), min_size=0, max_size=14),
    pass_limit=st.integers(1, 4),
    unable=st.sampled_from(["skip", "pass"]),
)
def test_alternating_impulses_give_the_turns_of_asking_every_side(n_sides, able, script, pass_limit, unable):
    """OPS 1's alternation (Lock 'n Load; the skirmish's 3.2): asking the side whose impulse it is
    first, and the others only when it cannot act, gives the same sides, impulse numbers, labels,
    pass counts and cursor as asking every side before each impulse, whatever the sides can do (a
    scripted table of who can act after each impulse) and however the impulses end (acting,
    passing, or ending the phase with ``TurnResult(end=True)``); and once the phase is over,
    ``next_turn`` keeps answering ``None`` without moving the cursor or the counts."""
    sides = ("a", "b", "c")[:n_sides]

    def can_act(side, impulse):
        return able[min(impulse, len(able) - 1)][sides.index(side)]

    expected = _impulses_by_asking_everyone(sides, can_act, pass_limit, unable, script)
    impulses = AlternatingImpulses(sides, can_act=lambda s: can_act(s, impulses.impulse), pass_limit=pass_limit,
                                   unable=unable)
    got = []
    for reported in script:
        turn = impulses.next_turn()
        if turn is None:
            got.append(("none", impulses.consecutive_passes, impulses.impulse, impulses._cursor))
            assert impulses.next_turn() is None  # asked again, the phase stays over
            got.append(("none", impulses.consecutive_passes, impulses.impulse, impulses._cursor))
            break
        assert turn.label == f"impulse {turn.number}: {turn.actor}" and turn.number == impulses.impulse
        impulses.end_turn(turn, TurnResult(passed=reported == "pass", end=reported == "end"))
        got.append(("turn", turn.actor, turn.number, impulses.consecutive_passes, impulses._cursor))
    assert got == expected


from wargamekit import events as events_module  # noqa: E402


@pytest.mark.parametrize(
    "line",
    [
        {"audience": None, "data": {}, "kind": "k", "text": ""},
        {"audience": ["A", "B"], "data": {"z": [1, 2.5, None, True], "a": {"é": "ü", "n": -0.0}}, "kind": "roll",
         "text": "naïve \u2014 \"quoted\"\n"},
        {"audience": ["A"], "data": {"big": 2**80, "nan": float("nan"), "inf": float("-inf")}, "kind": "x", "text": "t"},
    ],
)
def test_a_log_line_through_the_encoder_made_once_is_what_json_dumps_gives(line):
    """``Event.to_json``'s line comes from one C encoder made once (``events._json_line``): the
    same text ``json.dumps(sort_keys=True, ensure_ascii=False)`` gives, byte for byte."""
    assert events_module._C_LINE is not None  # CPython has the accelerator: the fast path is what runs
    assert events_module._json_line(line) == json.dumps(line, sort_keys=True, ensure_ascii=False)


def test_the_encoder_made_once_refuses_what_dumps_refuses_and_is_clean_after():
    """An object JSON cannot hold raises ``TypeError`` and a circular one ``ValueError``, as
    ``json.dumps`` does; the circular-reference record is left empty after either, so the next
    line (holding the same list) encodes rather than being taken for a cycle."""
    shared = [1, 2]
    with pytest.raises(TypeError):
        events_module._json_line({"data": {"a": shared, "b": object()}})
    assert events_module._LINE_MARKERS == {}
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        events_module._json_line({"data": loop})
    assert events_module._LINE_MARKERS == {}
    assert events_module._json_line({"data": {"a": shared, "b": shared}}) == '{"data": {"a": [1, 2], "b": [1, 2]}}'


KEY_SETS = [
    ("side", "answer"),  # out of order
    ("answer", "side"),  # in order already: the dict itself is kept
    ("z", "a", "m", "b"),
    ("unit", "hex", "steps", "side", "to"),
    ("a", "B", "_", "é", "10", "9"),  # sorted as str sorts them (code points), not as words
]


@pytest.mark.parametrize("keys", KEY_SETS)
@pytest.mark.parametrize("held", [(1, "x"), ([1, 2], {"b": 1, "a": (2,)})])
def test_event_data_keys_are_sorted_alike_whether_their_order_is_known_or_not(monkeypatch, keys, held):
    """Event data's keys are sorted once per key set and the order kept (``_KEY_ORDERS``): a
    rule's event (its own ``**data``) and ``Event(...)`` give the keys in the sorted order the
    first time a key set is seen, every later time, and once the memo is full (it is emptied
    and learns again: key sets that never recur cannot fill it for good), for data of scalars
    (ordered through the memo) and of containers (copied in the memo's order; nested dicts
    sorted)."""
    from wargamekit import events
    _empty_key_orders()
    data = {key: held[i % 2] for i, key in enumerate(keys)}
    expected = _round_trip(data)
    assert list(expected) == sorted(keys)
    for _ in range(2):  # the key set unknown, then known
        assert _same(rule_event("k", "t", dict(data), None).data, expected)
        assert _same(Event("k", "t", data).data, expected)
    assert events._KEY_ORDERS[keys] == (None if list(keys) == sorted(keys) else tuple(sorted(keys)))
    stale = {("never", "again"): None, ("nor", "this"): ("nor", "this")}
    _empty_key_orders(stale)
    monkeypatch.setattr(events, "_KEY_ORDERS_LIMIT", len(stale))  # full: emptied, then learns again
    assert _same(rule_event("k", "t", dict(data), None).data, expected)
    assert _same(Event("k", "t", data).data, expected)
    assert list(events._KEY_ORDERS) == [keys]


def test_a_rule_s_event_looks_its_key_order_up_in_the_events_memo(monkeypatch):
    """``ctx.event`` (``events._record_event``) sorts a key set once: a second event of the same
    unsorted keys is ordered from the events module's key-order memo (review T3 of round core11:
    a lookup that never hit passed every other test)."""
    from wargamekit import events

    _empty_key_orders()
    sorted_ones = []

    key_order = events._key_order

    def counting(keys):
        sorted_ones.append(keys)
        return key_order(keys)

    monkeypatch.setattr(events, "_key_order", counting)
    for _ in range(3):
        assert list(rule_event("k", "t", {"z": 1, "a": 2}, None).data) == ["a", "z"]
    assert sorted_ones == [("z", "a")]


def test_a_key_order_kept_for_one_key_set_is_not_taken_for_another():
    """Key sets with the same keys in another order, or one key more, have orders of their own."""
    for data in ({"b": 1, "a": 2}, {"a": 2, "b": 1}, {"b": 1, "a": 2, "c": 3}, {"c": 3, "b": 1, "a": 2}):
        made = rule_event("k", "t", dict(data), None).data
        assert list(made) == sorted(data) and made == data


class _StrKey(str):
    """A ``str`` subclass, as a ``StrEnum`` member is: ``**data`` keeps it as the key."""


@pytest.mark.parametrize("held", [1, [1]])
@pytest.mark.parametrize("keys", [("k",), ("a", "k"), ("k", "a")])
@pytest.mark.parametrize("subclass_first", [True, False])
def test_a_str_subclass_key_gives_plain_strings_and_teaches_the_key_memo_nothing(monkeypatch, held, keys,
                                                                                 subclass_first):
    """A rule's event whose key is a ``str`` subclass gets the plain strings ``Event(...)``
    gives it, and leaves no order in ``_KEY_ORDERS`` that a later event of equal plain keys
    would be rebuilt with (such keys compare equal to the plain ones): whichever comes first,
    every event's keys are exact ``str``, in sorted order, as the constructor's."""
    from wargamekit import events
    _empty_key_orders()
    subclassed = {(_StrKey(k) if k == "k" else k): held for k in keys}
    plain = {k: held for k in keys}
    for data in ([subclassed, plain] if subclass_first else [plain, subclassed]):
        made = rule_event("kind", "text", dict(data), None).data
        expected = Event("kind", "text", data).data
        assert made == expected and list(made) == list(expected) == sorted(keys)
        assert {type(key) for key in made} == {type(key) for key in expected} == {str}
    assert all(type(key) is str for kept in events._KEY_ORDERS for key in kept)


def test_choose_of_builds_the_choose_its_class_would():
    """``Choose.of`` writes a plain Choose through its builder, not through a call of the class
    (a hot path): the same Choose as ``Choose(...)`` with those options, lazy menu or not, with
    the same errors; a subclass's ``of`` still builds that subclass through its class."""
    import attrs

    fields = {"side": "blue", "prompt": "Move?", "rule": "6.2", "secret": True, "kind": "demo.move",
              "context": {"unit": "A1", "to": [3, 4]}}
    made = Choose.of(**fields, values=["a", "b"], data=lambda v: {"to": v})
    expected = Choose(**fields, options=[Option("a", "a", data={"to": "a"}), Option("b", "b", data={"to": "b"})])
    assert type(made) is Choose and made == expected and repr(made) == repr(expected)
    assert attrs.astuple(made, recurse=False) == attrs.astuple(expected, recurse=False)
    lazy = Choose.of(**fields, values=["a", "b"], data=lambda v: {"to": v}, lazy=True)
    assert type(lazy) is Choose and lazy == expected and lazy.options._where() == "Move? [6.2]"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"Fire at\? \[8\.1\]: a Choose needs at least one option"):
        Choose.of("red", "Fire at?", [], rule="8.1")
    with pytest.raises(TypeError, match=r"data\.unit: <object object at .*> is not JSON data"):
        Choose.of("red", "Fire at?", [1], context={"unit": object()})

    @attrs.frozen(kw_only=True)
    class Menu(Choose):
        pass

    menu = Menu.of(**fields, values=["a", "b"], data=lambda v: {"to": v})
    assert type(menu) is Menu
    assert attrs.astuple(menu, recurse=False) == attrs.astuple(expected, recurse=False)
    with pytest.raises(ValueError, match=r"Fire at\? \[8\.1\]: a Choose needs at least one option"):
        Choose.of("red", "Fire at?", [], rule="8.1", lazy=True)


# -- the random bot's answer, the answer's range check, the ask, the random game's side check --


def test_the_random_bot_answers_a_choose_with_the_draw_random_answer_makes():
    """``RandomBot.choose`` draws a plain Choose's answer itself, from the generator's draw
    function read once: the answers and the generator's state are those of ``random_answer``
    on a twin generator (eager and lazy menus, one option or many); a generator put in the
    bot's place is drawn from from then on; a copy or pickle of the bot (which cannot hold the
    ctypes draw function) answers on as the bot does."""
    import copy
    import pickle

    from wargamekit.players import RandomBot

    decisions = [Choose.of("a", "p", list(range(n)), lazy=lazy) for n in (1, 2, 3, 7, 1000) for lazy in (False, True)]
    decisions.append(ChooseSubset(side="a", prompt="p", options=[Option(i, str(i)) for i in range(5)]))
    bot, twin = RandomBot(5), np.random.Generator(np.random.PCG64(5))
    for _ in range(50):
        for decision in decisions:
            assert bot.choose(decision, None) == decision.random_answer(twin)  # type: ignore[arg-type]
    assert bot.rng.bit_generator.state == twin.bit_generator.state
    bot.rng, twin = np.random.Generator(np.random.PCG64(6)), np.random.Generator(np.random.PCG64(6))
    assert [bot.choose(decisions[-2], None) for _ in range(20)] == [decisions[-2].random_answer(twin) for _ in range(20)]  # type: ignore[arg-type]
    menu = decisions[-2]
    for other in (copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))):
        twin = copy.deepcopy(bot.rng)
        assert other.rng is not bot.rng
        assert [other.choose(menu, None) for _ in range(20)] == [menu.random_answer(twin) for _ in range(20)]  # type: ignore[arg-type]


class _LazyPick(NoScenario):
    """A lazy menu of three, then a lazy menu of one (asked through ``ctx.ask``: answered by
    itself), then a YesNo through ``ctx.ask``."""

    name = "lazy_pick"
    version = "1"
    sides = ("red", "blue")

    def play(self, ctx):
        made = []

        def data(v):
            made.append(v)
            return {"v": v}

        first = yield from ctx.ask(Choose.of("red", "Pick?", ["a", "b", "c"], rule="T1", lazy=True, data=data))
        only = yield from ctx.ask(Choose.of("blue", "Only?", ["z"], lazy=True, data=data))
        sure = yield from ctx.ask(YesNo(side="blue", prompt="Sure?"))
        ctx.event("done", "done", first=first, only=only, sure=sure, made="".join(made))
        return Outcome(None, "done", {})


def test_an_index_past_a_lazy_menu_s_end_is_refused_as_before():
    """``Game.answer`` reads a plain Choose's option without asking its length first (a lazy
    menu's ``len()`` is a Python call): an index past the end still takes the general path's
    check, with its error, and leaves the game as it was; a negative index too. ``ctx.ask``
    answers a lazy menu of one itself without making its option, and asks anything else."""
    from wargamekit import Game, InvalidChoiceError

    game = Game.new(_LazyPick(), seed=1)
    for bad in (3, 10**30, -1):
        with pytest.raises(InvalidChoiceError, match=rf"Pick\? \[T1\]: {bad} is not one of 0\.\.2"):
            game.answer(bad)
        assert game.choices == [] and game.log == [] and game.pending.rule == "T1"
    game.answer(2)
    assert type(game.pending) is YesNo
    game.answer(True)
    assert game.over and game.choices == [2, True]
    assert game.log[-3].data == {"answer": True, "side": "blue"}
    # (no data made: the answer reads the chosen option's label alone, the menu of one nothing)
    assert game.log[-2].data == {"first": "c", "made": "", "only": "z", "sure": True}


def test_a_random_game_names_a_side_asked_with_no_player():
    """``play_random_game`` checks the side of every decision without a call per decision: a
    decision asked of a side the ruleset does not have fails, naming it, before anyone answers."""
    from wargamekit.testing import play_random_game

    class Stray(NoScenario):
        name = "stray"
        version = "1"
        sides = ("red", "blue")

        def play(self, ctx):
            yield Choose.of("red", "Go?", ["yes", "no"], kind="stray.go", data=lambda v: {"go": v})
            yield Choose.of("green", "Go?", ["yes", "no"], kind="stray.go", data=lambda v: {"go": v})
            return Outcome(None, "done", {})

    for structured in (False, True):
        with pytest.raises(AssertionError, match="decision asked of unknown side 'green'"):
            play_random_game(Stray(), seed=1, structured=structured, check_invariants=False)


def test_a_frozen_context_or_response_data_is_taken_as_freeze_data_takes_it():
    """``Choose.of`` and ``Response`` take a context or data given frozen (``Data``) without
    ``freeze_data``'s call: what that call gives (the very object), and the same decision and
    response as from the plain dict."""
    from wargamekit.interrupts import Response

    frozen_context = Data({"unit": "A1", "n": 2})
    assert freeze_data(frozen_context) is frozen_context
    decision = Choose.of("red", "Pick?", [1, 2], context=frozen_context, lazy=True)
    assert decision.context is frozen_context
    assert decision == Choose.of("red", "Pick?", [1, 2], context={"unit": "A1", "n": 2})
    response = Response("bolt", "red", resolve=lambda: None, data=frozen_context)
    assert response.data is frozen_context
    assert response.data == Response("bolt", "red", resolve=lambda: None, data={"unit": "A1", "n": 2}).data
