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
