"""``wargamekit.state_rows.HexRows``: the row form a ruleset's state pickles its units in (issue 9)."""

from __future__ import annotations

import pytest
from attrs import define, field

from wargamekit.geometry import Hex
from wargamekit.state_rows import HexRows


@define
class _Piece:
    name: str
    hex: Hex
    marks: set[str] = field(factory=set)
    hits: int = 0


def test_rows_read_every_field_in_order_and_make_equal_objects_again():
    pieces = [_Piece("a", Hex(2, -1), {"moved"}, 1), _Piece("b", Hex(0, 3))]
    form = HexRows(_Piece)
    rows = form.rows(pieces)
    assert rows == (("a", 2, -1, {"moved"}, 1), ("b", 0, 3, set(), 0))
    again = list(form.objects(rows))
    assert again == pieces and all(type(p.hex) is Hex for p in again)
    assert again[0].marks is pieces[0].marks  # a row holds the field's own value (a pickle copies it)


def test_a_field_not_given_by_position_is_refused():
    @define
    class Keyword:
        hex: Hex
        hits: int = field(default=0, kw_only=True)

    @define
    class Derived:
        hex: Hex
        hits: int = field(init=False, default=0)

    for cls in (Keyword, Derived):
        with pytest.raises(TypeError, match="positional"):
            HexRows(cls)


@define
class _Post:
    at: Hex
    name: str


def test_the_hex_may_be_any_named_field_and_a_missing_one_is_refused_by_name():
    form = HexRows(_Post, hex_field="at")
    assert form.rows([_Post(Hex(1, 2), "x")]) == ((1, 2, "x"),)
    assert list(form.objects(form.rows([_Post(Hex(1, 2), "x")]))) == [_Post(Hex(1, 2), "x")]
    with pytest.raises(TypeError, match="no field 'hex'"):
        HexRows(_Post)


def test_rows_survive_a_pickle_and_keep_what_the_form_says_it_cannot():
    import pickle

    @define
    class Special(_Piece):
        pass

    form = HexRows(_Piece)
    rows = pickle.loads(pickle.dumps(form.rows([_Piece("a", Hex(2, -1), {"m"}, 3), Special("s", Hex(0, 0))])))
    again = list(form.objects(rows))
    assert again[0] == _Piece("a", Hex(2, -1), {"m"}, 3)
    assert type(again[1]) is _Piece  # a subclass comes back as the class of the form (its docs say so)
    with pytest.raises(AttributeError):
        form.rows([_Piece("undeployed", None)])  # type: ignore[arg-type]  # no hex: no row


# -- StateRows: a state's whole __reduce__ --------------------------------------------------

from wargamekit.state_rows import StateRows  # noqa: E402


@define
class _State:
    turn: int
    units: dict[str, _Piece]
    shared: list[str] = field(factory=list)
    title: str = ""

    def __reduce__(self):
        return _STATE_FORM.reduce(self)


_STATE_FORM = StateRows(_State, HexRows(_Piece))


def test_a_state_pickles_its_units_as_rows_and_loads_back_equal():
    """What ``__reduce__`` returns through the form: the other fields' values in order, the
    units' names and rows; the loaded state is equal, its units new objects in the same order,
    what the rows and the other fields share still shared (one pickle)."""
    import pickle

    from wargamekit._fastpickle import dumps

    marks = {"moved"}
    state = _State(3, {"b": _Piece("b", Hex(0, 3), marks), "a": _Piece("a", Hex(2, -1), marks, 1)}, ["x"], "t")
    loader, args = state.__reduce__()
    assert args[1:] == ("tests.test_hex_rows:_State", (3, ["x"], "t"), ("b", "a"),
                    (("b", 0, 3, {"moved"}, 0), ("a", 2, -1, {"moved"}, 1)))
    for data in (pickle.dumps(state), dumps(state)):
        back = pickle.loads(data)
        assert back == state and list(back.units) == ["b", "a"]
        assert back.units["a"].marks is back.units["b"].marks and back.units["a"] is not state.units["a"]


def test_a_state_loads_in_a_fresh_process_and_an_unknown_form_is_refused():
    """The loader finds the form by the class's key, importing its module as a fresh process
    must (the snapshot cache reads snapshots there); a key with no form is refused clearly."""
    import pickle
    import subprocess
    import sys

    from wargamekit._fastpickle import _FORMED, _make

    state = _State(1, {"a": _Piece("a", Hex(2, -1))})
    fresh = subprocess.run(
        [sys.executable, "-c", "import pickle, sys; print(repr(pickle.loads(sys.stdin.buffer.read())))"],
        input=pickle.dumps(state), capture_output=True, check=True,
    )
    assert fresh.stdout.decode().strip() == repr(state)
    with pytest.raises(pickle.UnpicklingError, match="no pickled form for 'tests.test_hex_rows:_Piece'"):
        _make(_FORMED, "tests.test_hex_rows:_Piece", (), (), ())
    with pytest.raises(TypeError, match="no field 'pieces'"):
        StateRows(_State, HexRows(_Piece), field="pieces")


def test_an_attribute_reader_reads_what_attrgetter_reads():
    """The compiled reader behind every pickled attrs instance and unit row gives the tuple an
    attrgetter of the same paths gives: names, dotted paths, one name, none; a path that is not
    plain identifiers (which plain attribute reads cannot spell) goes to the attrgetter."""
    import operator
    import types

    from wargamekit._fastpickle import attribute_reader

    @define
    class Slotted:
        name: str
        hex: Hex
        _hits: int = 0

    unit = Slotted("a", Hex(2, -1), 3)
    for paths in (["name", "hex", "_hits"], ["hex.q", "name", "hex.r"]):
        assert attribute_reader(paths)(unit) == operator.attrgetter(*paths)(unit)
    assert attribute_reader(["_hits"])(unit) == (3,)
    assert attribute_reader([])(unit) == ()
    odd = types.SimpleNamespace(**{"not-a-name": 1, "class": 2, "plain": 3})
    assert attribute_reader(["not-a-name", "plain"])(odd) == (1, 3)
    assert attribute_reader(["class"])(odd) == (2,)
    with pytest.raises(AttributeError):
        attribute_reader(["name", "missing"])(unit)
