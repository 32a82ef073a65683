"""Hidden information (开场阶段 3: special-round markers face down, 对方不可见具体种类): what the
opponent's view may and may not show (issue 12's leaks)."""

from __future__ import annotations

import pytest

from wargamekit import Game, RandomBot, ScriptedDice
from wargamekit.players import bot_seed
from wargamekit.testing import check_non_interference, check_read_only_views
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
    preset, as ``hidden`` markers — in a frame of its own that shares the side's own live
    tanks and copies every opponent tank (one with no round yet may be loaded later)."""
    game = new_game([("pz4h", "0603", "S")], [("tiger", "0607", "N", ["fin", "hesh"])], dice=[3])
    state = game.state
    a_sees = RULESET.shared_view(state, "A")
    assert a_sees is not state
    assert a_sees.tank(2).specials == ["hidden", "hidden"] and a_sees.tank(2) is not state.tank(2)
    assert a_sees.scenario.forces["B"][0].specials == ["hidden", "hidden"]
    assert a_sees.tank(1) is state.tank(1)  # A's own tank: the live one
    assert "fin" not in repr(a_sees) and "hesh" not in repr(a_sees)
    assert state.tank(2).specials == ["fin", "hesh"]  # the game's own is untouched
    b_sees = RULESET.shared_view(state, "B")  # A carries no round, but may: B gets a frame too
    assert b_sees is not state and b_sees.tanks is not state.tanks
    assert b_sees.tank(2) is state.tank(2) and b_sees.tank(1) is not state.tank(1)
    assert RULESET.shared_view(state, None) is state  # the referee's view hides nothing
    for side in ("A", "B", None):
        assert repr(RULESET.shared_view(state, side)) == repr(RULESET.view(state, side))


def test_a_shared_view_kept_from_before_the_rounds_are_loaded_never_shows_them():
    """开场阶段 3: a shared view handed out before the opponent loads its rounds (nothing to
    mask yet) holds no live object that later shows them, so even a bot that broke the promise
    by keeping it would read no kind; and the conformance check catches such a bot."""
    game = Game.new(RULESET, "default", seed=3)
    early = {side: RULESET.shared_view(game.state, side) for side in ("A", "B")}
    bots = {side: RandomBot(bot_seed(3, i)) for i, side in enumerate(("A", "B"))}
    game.play(bots)
    assert any(t.specials for t in game.state.tanks)  # rounds were loaded after the early views
    for side, seen in early.items():
        assert not any(t.specials for t in seen.tanks if t.side != side)
        assert not any(t is k for t in game.state.tanks if t.side != side for k in seen.tanks)

    class Keeper(RandomBot):
        reads_view_only = True
        kept: object = None

        def choose(self, decision, view):
            if self.kept is None:
                self.kept = view.state
            return super().choose(decision, view)

    with pytest.raises(AssertionError, match=r"bot 'keeper' \(Keeper, A\) promised to read its view only "
                                             r"\(reads_view_only\) but kept the state it was handed"):
        check_read_only_views(RULESET, "default", players={"keeper": Keeper})
