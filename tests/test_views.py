"""Views that cost little and still cannot change the game (Ruleset.view's contract)."""

from __future__ import annotations

import pytest

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
