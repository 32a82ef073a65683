"""Hidden information (开场阶段 3: special-round markers face down, 对方不可见具体种类): what the
opponent's view may and may not show (issue 12's leaks)."""

from __future__ import annotations

from wargamekit import Game, ScriptedDice
from wargamekit.testing import check_non_interference
from wargamekit_tank_solo import TankSolo

RULESET = TankSolo()


def test_preset_loadout_is_redacted_in_the_scenario_of_the_opponents_view(new_game):
    """A preset loadout is scenario data; ``view("A").state.scenario.forces["B"]`` must not show
    B's rounds (it showed ``["fin", "hesh"]`` while the tanks showed ``hidden``)."""
    game = new_game([("pz4h", "0603", "S")], [("tiger", "0607", "N", ["fin", "hesh"])], dice=[3])
    a_view = game.view("A").state
    assert a_view.scenario.forces["B"][0].specials == ["hidden", "hidden"]
    assert a_view.tank(2).specials == ["hidden", "hidden"]
    assert game.view("B").state.scenario.forces["B"][0].specials == ["fin", "hesh"]
    assert game.state.scenario.forces["B"][0].specials == ["fin", "hesh"]  # the game's own is untouched
    assert "fin" not in repr(a_view) and "hesh" not in repr(a_view)


def test_loading_shows_the_marker_not_the_kind(pick):
    """开场阶段 3: placing a marker is public (``marker``), its kind is not (``load``)."""
    data = {"map": "pravda", "forces": {"A": [{"model": "pz4h"}], "B": [{"model": "tiger"}]}}
    game = Game.new(RULESET, data, dice=ScriptedDice([]))
    for label in ("north", "at 0601", "face S", "at 0612", "face N"):
        pick(game, label)
    pick(game, "load HESH")
    b_log = game.view("B").log
    assert [e.kind for e in b_log if e.kind in ("marker", "load")] == ["marker"]
    assert [e.data for e in b_log if e.kind == "marker"] == [{"side": "A", "tank": 1}]
    assert "HESH" not in "".join(e.text for e in b_log)


def test_the_opponents_view_does_not_depend_on_the_kinds_loaded():
    """The non-interference check forks each secret loading choice: B's view, log, decisions
    and picture are the same whichever kind A loads (only the marker is public)."""
    pairs = check_non_interference(RULESET, "default", seeds=[5], reveals={"marker", "loaded"})
    assert pairs > 0


def test_replay_of_a_save_does_not_print_the_loadouts(tmp_path):
    """``wargamekit replay SAVE`` printed both sides' secret loadout lines, so a player could
    quit, replay and resume knowing the opponent's rounds. The public view (the default) shows
    the markers only; ``--as A`` shows A's own loadout and still not B's."""
    from click.testing import CliRunner

    from wargamekit.cli import cli
    from wargamekit.testing import play_random_game

    game = play_random_game(RULESET, "default", seed=3, options={"surrender": False})
    loads = {side: [e.text for e in game.log if e.kind == "load" and e.audience == (side,)] for side in ("A", "B")}
    assert loads["A"] and loads["B"]
    path = tmp_path / "game.json"
    path.write_text(game.save().to_json(), encoding="utf-8")
    public = CliRunner().invoke(cli, ["replay", str(path)])
    assert public.exit_code == 0, public.output
    assert "face-down special-round marker" in public.output
    assert not any(text in public.output for side in ("A", "B") for text in loads[side])
    as_a = CliRunner().invoke(cli, ["replay", str(path), "--as", "A"])
    assert as_a.exit_code == 0, as_a.output
    assert all(text in as_a.output for text in loads["A"]) and not any(text in as_a.output for text in loads["B"])


def test_the_shared_view_hides_the_rounds_and_shares_the_rest(new_game):
    """开场阶段 3 for a bot that promised only to read its view (``reads_view_only``):
    ``TankSolo.shared_view`` shows what ``view`` shows — the opponent's rounds, carried and
    preset, as ``hidden`` markers — but hands out the live tanks where nothing is hidden, and
    the live state itself to the side whose opponent has no round."""
    game = new_game([("pz4h", "0603", "S")], [("tiger", "0607", "N", ["fin", "hesh"])], dice=[3])
    state = game.state
    a_sees = RULESET.shared_view(state, "A")
    assert a_sees is not state
    assert a_sees.tank(2).specials == ["hidden", "hidden"] and a_sees.tank(2) is not state.tank(2)
    assert a_sees.scenario.forces["B"][0].specials == ["hidden", "hidden"]
    assert a_sees.tank(1) is state.tank(1)  # A's own tank: the live one
    assert "fin" not in repr(a_sees) and "hesh" not in repr(a_sees)
    assert state.tank(2).specials == ["fin", "hesh"]  # the game's own is untouched
    assert RULESET.shared_view(state, "B") is state  # A carries no round: nothing to hide from B
    for side in ("A", "B", None):
        assert repr(RULESET.shared_view(state, side)) == repr(RULESET.view(state, side))
