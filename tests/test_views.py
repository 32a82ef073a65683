"""Views that cost little and still cannot change the game (Ruleset.view's contract)."""

from __future__ import annotations

import pytest
from rulesets import NoScenario

from wargamekit import Game, Outcome, Ruleset
from wargamekit.geometry import Hex
from wargamekit.view import detached_copy


def _skirmish_game() -> Game:
    from wargamekit_skirmish import Skirmish

    return Game.new(Skirmish(), seed=1)


def test_the_skirmish_view_cannot_change_the_game():
    game = _skirmish_game()
    before = game.log_text()
    seen = game.view("blue").state
    unit = next(iter(seen.units.values()))
    unit.steps, unit.hex = 0, Hex(0, 0)
    seen.destroyed["blue"] = 99
    with pytest.raises(ValueError, match="read-only"):
        seen.map.set_terrain(Hex(1, 1), 2)
    with pytest.raises(ValueError, match="read-only"):
        seen.map.terrain[0, 0] = 2
    live = game.state
    assert all(u.steps == 2 for u in live.units.values())
    assert live.destroyed == {"blue": 0, "red": 0}
    assert game.view("blue").state.units[unit.name].steps == 2
    assert game.log_text() == before


def test_the_skirmish_view_shares_one_read_only_map_per_game_and_copies_the_units():
    game = _skirmish_game()
    first, second = game.view("blue").state, game.view("red").state
    assert first.map is second.map, "one read-only copy of the map per game, not one per view"
    assert first.map is not game.state.map
    assert (first.map.terrain == game.state.map.terrain).all()
    assert all(first.units[n] is not game.state.units[n] for n in first.units)


def test_the_skirmish_view_still_leaves_out_exactly_the_units_a_side_cannot_see():
    """7. Concealment, through a whole game: a side's view holds the units ``fire.visible``
    says it sees, no more (and the all-seeing view every unit)."""
    from wargamekit.testing import play_random_game
    from wargamekit_skirmish import Skirmish, fire

    played = play_random_game(Skirmish(), seed=2)
    hidden_seen = 0
    for k in range(0, len(played.choices), 7):
        game = played.replay(played.choices[:k])
        state = game.state
        for side in ("blue", "red"):
            expected = {n for n, u in state.units.items() if fire.visible(state, u, side)}
            assert set(game.view(side).state.units) == expected
            hidden_seen += len(state.units) - len(expected)
        assert set(game.view(None).state.units) == set(state.units)
    assert hidden_seen > 0, "the game never hid a unit: the test would prove nothing"


def test_a_player_view_builds_its_state_once_and_only_when_read():
    calls = []

    class Counted(Ruleset):
        name = "counted"
        sides = ("a",)

        def setup(self, scenario, options):
            return {"n": 0}

        def play(self, ctx):
            yield from ()
            return Outcome(winner="a", reason="at once")

        def view(self, state, side):
            calls.append(side)
            return detached_copy(state)

    game = Game.new(Counted(), {}, seed=0)
    view = game.view("a")
    assert calls == []
    assert view.state == view.state == {"n": 0}
    assert calls == ["a"]


def test_detached_copy_shares_nothing_and_copies_what_pickle_refuses():
    state = {"units": [{"steps": 2}], "rule": lambda: "kept"}
    copied = detached_copy(state)
    copied["units"][0]["steps"] = 0
    assert state["units"][0]["steps"] == 2
    assert copied["rule"]() == "kept"


# -- field_copier: the views' field-by-field copy ------------------------------------------------

import attrs  # noqa: E402

from wargamekit.view import field_copier  # noqa: E402


@attrs.define
class _Plain:
    name: str
    hex: Hex
    orders: list[str] = attrs.Factory(list)
    seen: set[str] = attrs.Factory(set)
    notes: dict[str, int] = attrs.Factory(lambda: {"a": 1})
    kept: list[int] = attrs.Factory(list)


@attrs.define
class _Converted:
    values: dict[str, int] = attrs.field(converter=dict)
    acted: set[str] = attrs.Factory(set)


@attrs.frozen
class _Frozen:
    name: str
    tags: tuple[str, ...] = ()


def test_field_copier_copies_every_field_and_fresh_containers_but_those_skipped():
    original = _Plain("A", Hex(1, 2), ["hold"], {"x"}, {"b": 2}, [7])
    copy_plain = field_copier(_Plain, skip=("kept",))
    assert copy_plain.__code__.co_filename == "<copy of _Plain>", "a plain class gets its own copy function"
    copied = copy_plain(original)
    assert copied == original and copied is not original
    assert copied.orders is not original.orders and copied.seen is not original.seen
    assert copied.notes is not original.notes
    assert copied.kept is original.kept, "skipped: the caller copies it"
    assert copied.hex is original.hex, "immutable values are shared"
    copied.orders.append("fire")
    assert original.orders == ["hold"]


def test_field_copier_goes_through_init_where_init_does_more_than_assign():
    converted = _Converted({"a": 1}, {"x"})
    copied = field_copier(_Converted)(converted)
    assert copied == converted and copied.values is not converted.values and copied.acted is not converted.acted
    frozen = _Frozen("A", ("t",))
    assert field_copier(_Frozen)(frozen) == frozen


# -- bulk and masked copiers: one call per dict or list of records, hidden records by a whitelist --

from wargamekit import Choose  # noqa: E402
from wargamekit.testing import check_non_interference  # noqa: E402
from wargamekit.view import dict_copier, list_copier, masked_copier  # noqa: E402


def test_dict_and_list_copiers_copy_every_record_as_field_copier_does():
    records = {"b": _Plain("B", Hex(0, 1), ["hold"], {"x"}, {"c": 3}, [1]), "a": _Plain("A", Hex(1, 2))}
    copy_dict = dict_copier(_Plain, skip=("kept",))
    assert copy_dict.__code__.co_filename == "<copy of a dict of _Plain>", "one function for the whole dict"
    copied = copy_dict(records)
    assert copied == records and list(copied) == ["b", "a"], "same keys, same order"
    for name, original in records.items():
        seen = copied[name]
        assert seen is not original and seen.orders is not original.orders and seen.seen is not original.seen
        assert seen.notes is not original.notes and seen.kept is original.kept and seen.hex is original.hex
    copied["b"].orders.append("fire")
    copied["b"].name = "Z"
    assert records["b"].orders == ["hold"] and records["b"].name == "B"
    copy_list = list_copier(_Plain)
    listed = copy_list(records.values())
    assert listed == list(records.values()) and all(s is not o for s, o in zip(listed, records.values(), strict=True))
    assert listed[0].kept is not records["b"].kept, "not skipped: copied"
    assert copy_dict({}) == {} and copy_list([]) == []


def test_bulk_copiers_go_through_init_where_init_does_more_than_assign():
    records = {"x": _Converted({"a": 1}, {"s"})}
    copied = dict_copier(_Converted)(records)
    assert copied == records and copied["x"].values is not records["x"].values
    assert list_copier(_Frozen)([_Frozen("A")]) == [_Frozen("A")]


@attrs.define
class _Piece:
    id: str
    side: str
    strength: int | None
    locale: str
    origin: str = ""
    history: list[int] = attrs.Factory(list)


def test_masked_copier_shows_what_is_kept_masks_what_is_masked_and_defaults_the_rest():
    hide = masked_copier(_Piece, keep=("id", "side", "locale"), mask={"strength": None})
    piece = _Piece("F-2", "french", 3, "Marengo", origin="F02", history=[4])
    seen = hide(piece)
    assert seen == _Piece("F-2", "french", None, "Marengo")
    assert seen.history == [] and seen.history is not hide(piece).history, "a factory default made afresh"
    assert piece.strength == 3 and piece.history == [4], "the original is untouched"
    # a class that is not plain goes through its __init__ with the shown fields
    assert masked_copier(_Frozen, keep=("name",))(_Frozen("A", ("t",))) == _Frozen("A")


def test_masked_copier_refuses_a_field_it_cannot_fill_and_a_field_that_does_not_exist():
    with pytest.raises(ValueError, match="strength has no default"):
        masked_copier(_Piece, keep=("id", "side", "locale"))
    with pytest.raises(ValueError, match="no such field: colour"):
        masked_copier(_Piece, keep=("id", "side", "locale", "colour"), mask={"strength": None})


@attrs.define
class _Crate:
    name: str
    side: str
    content: str = ""
    opened: bool = False


@attrs.define
class _Crates:
    crates: dict[str, _Crate]
    turn: int = 0


class _CrateGame(NoScenario):
    """Side b secretly fills its crate; then side a decides whether to take it. The view shows
    the opponent's crate through a masked copier keeping ``shown`` (honest: name and side)."""

    name = "crates"
    version = "1.0"
    sides = ("a", "b")

    def __init__(self, shown: tuple[str, ...] = ("name", "side", "opened")) -> None:
        self.hide = masked_copier(_Crate, keep=shown)
        self.copy_crates = dict_copier(_Crate)
        self.copy_state = field_copier(_Crates)

    def setup(self, scenario, options):
        return _Crates({"x": _Crate("x", "b"), "y": _Crate("y", "a")})

    def play(self, ctx):
        content = yield Choose.of("b", "Fill the crate with?", ["gold", "lead", "sand"], secret=True,
                                  kind="crates.fill")
        ctx.state.crates["x"].content = content
        taken = yield Choose.of("a", "Take b's crate?", ["take", "leave"], kind="crates.take")
        return Outcome(winner="a" if taken == "take" and content == "gold" else "b", reason="the crate")

    def view(self, state, side):
        seen = self.copy_state(state)
        if side is None:
            seen.crates = self.copy_crates(state.crates)
        else:
            seen.crates = {n: self.copy_crates({n: c})[n] if c.side == side else self.hide(c)
                           for n, c in state.crates.items()}
        return seen


def test_a_masked_view_passes_non_interference_and_a_leaking_one_is_caught():
    """The copiers keep the contract only as the view uses them: a view hiding the opponent's
    crate through a masked copier passes the check; the same view keeping the secret field fails it."""
    assert check_non_interference(_CrateGame(), seeds=range(2)) > 0
    with pytest.raises(AssertionError, match="crates: a's view depends on a secret of b.*the view state"):
        check_non_interference(_CrateGame(shown=("name", "side", "opened", "content")), seeds=range(1))
    game = Game.new(_CrateGame(), {}, seed=0)
    game.answer(0)
    seen = game.view("a").state
    assert seen.crates["x"].content == "" and game.state.crates["x"].content == "gold"
    seen.crates["y"].opened = True
    assert not game.state.crates["y"].opened, "a's own crate is a copy too"


# -- copiers refuse bad input in every mode (review D23: raised, not asserted, so ``python -O`` checks too) --


@attrs.define
class _Derived:
    name: str
    total: int = attrs.field(init=False, default=0)


@attrs.define
class _Aliased:
    _secret: str = ""


def test_masked_copier_refuses_a_field_both_kept_and_masked():
    with pytest.raises(ValueError, match=r"masked_copier\(_Piece\): strength both kept and masked"):
        masked_copier(_Piece, keep=("id", "side", "locale", "strength"), mask={"strength": None})


def test_copiers_refuse_bad_input_with_clear_errors():
    with pytest.raises(TypeError, match=r"masked_copier\(_Piece\): keep: expected a tuple of field names, got 'id'"):
        masked_copier(_Piece, keep="id", mask={"strength": None})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"keep: 3 is not a field name"):
        masked_copier(_Piece, keep=("id", 3), mask={"strength": None})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"mask: expected a mapping of field names to values"):
        masked_copier(_Piece, keep=("id", "side", "locale"), mask=[("strength", None)])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"field_copier\(_Plain\): skip: expected a tuple of field names, got 'kept'"):
        field_copier(_Plain, skip="kept")  # type: ignore[arg-type]
    for copier in (field_copier, dict_copier, list_copier):
        with pytest.raises(ValueError, match=r"_copier\(_Derived\): every field must be an __init__ argument of its own name, not total"):
            copier(_Derived)
    with pytest.raises(ValueError, match=r"masked_copier\(_Aliased\): every field .* not _secret"):
        masked_copier(_Aliased, keep=("_secret",))


def test_copiers_check_their_input_under_python_O():
    """The checks are raised, not asserted: they hold with assertions off (``python -O``)."""
    import subprocess
    import sys

    script = (
        "import attrs\n"
        "from wargamekit.view import field_copier, masked_copier\n"
        "@attrs.define\n"
        "class P:\n"
        "    id: str\n"
        "    n: int | None = None\n"
        "    total: int = attrs.field(init=False, default=0)\n"
        "@attrs.define\n"
        "class Q:\n"
        "    id: str\n"
        "    n: int | None = None\n"
        "for call in (lambda: field_copier(P), lambda: masked_copier(Q, keep=('id', 'n'), mask={'n': None}),\n"
        "             lambda: masked_copier(Q, keep='id')):\n"
        "    try:\n"
        "        call()\n"
        "    except (TypeError, ValueError) as exc:\n"
        "        print(type(exc).__name__)\n"
        "    else:\n"
        "        print('accepted')\n"
    )
    run = subprocess.run([sys.executable, "-O", "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["ValueError", "ValueError", "TypeError"]
