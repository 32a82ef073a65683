"""7. Concealment in the log: hidden units' activations and moves do not reach the enemy."""

from wargamekit.testing import play_random_game
from wargamekit_skirmish.ruleset import Skirmish


def test_hidden_moves_are_logged_for_the_mover_only():
    """7: a move the enemy cannot see is in the mover's log and not in the enemy's."""
    ruleset = Skirmish()
    hidden_moves = 0
    for seed in range(12):  # random games; the facing menu order (clockwise) changed which seeds hide a move
        game = play_random_game(ruleset, seed=seed)
        for event in game.log:
            if event.kind == "move" and event.audience is not None:
                hidden_moves += 1
                (mover,) = event.audience
                enemy = next(s for s in ruleset.sides if s != mover)
                assert event in game.view(mover).log
                assert event not in game.view(enemy).log
        for side in ruleset.sides:
            enemy = next(s for s in ruleset.sides if s != side)
            secret_choices = [e for e in game.log if e.kind == "choice" and e.audience == (side,)]
            assert secret_choices, "activation, move and facing are secret decisions"
            assert not any(e in game.view(enemy).log for e in secret_choices)
    assert hidden_moves > 0, "the seeds must include at least one move out of the enemy's sight"


def _scenario(units, woods):
    return {"title": "test", "width": 6, "height": 4, "turns": 1, "first": "blue",
            "terrain": {"woods": list(woods)}, "units": units}


def _choice_audiences(game):
    return [(e.data["answer"], e.audience) for e in game.log if e.kind == "choice"]


def test_a_seen_units_facing_and_fire_choices_are_public_a_hidden_ones_secret_7():
    """7: what a unit does is secret only while the enemy cannot see it. A (open ground) faces
    and holds fire in public; H (in woods, no enemy within 3 hexes) does both in secret."""
    from wargamekit import Game, ScriptedDice

    units = [{"name": "A", "side": "blue", "hex": "0101"}, {"name": "H", "side": "blue", "hex": "0104"},
             {"name": "R", "side": "red", "hex": "0601", "facing": 3}]
    game = Game.new(Skirmish(), _scenario(units, ["0104"]), options={"reaction_fire": False}, dice=ScriptedDice([]))
    for label in ("A", "0101", "north", "hold fire"):  # blue activates A: stays, faces north, holds fire
        game.answer(game.pending.labels.index(label))
    assert [a for _, a in _choice_audiences(game)] == [("blue",), ("blue",), None, None]
    while game.pending.side != "blue":  # red's R: stays, faces north-east... holds fire
        game.answer(0)
    before = len(_choice_audiences(game))
    for label in ("H", "0104", "north", "hold fire"):  # H stays hidden in the woods
        game.answer(game.pending.labels.index(label))
    assert [a for _, a in _choice_audiences(game)[before:]] == [("blue",)] * 4


def test_the_enemy_does_not_learn_which_hidden_unit_is_acting_7():
    """7: the enemy's view names the acting unit only if it can see it."""
    from wargamekit import Game, ScriptedDice

    units = [{"name": "H", "side": "blue", "hex": "0104"}, {"name": "R", "side": "red", "hex": "0601", "facing": 3}]
    game = Game.new(Skirmish(), _scenario(units, ["0104"]), options={"reaction_fire": False}, dice=ScriptedDice([]))
    game.answer(0)  # blue activates H (its only unit)
    assert game.state.active == "H"
    assert Skirmish().view(game.state, "blue").active == "H"
    assert Skirmish().view(game.state, "red").active is None


def test_no_view_depends_on_a_hidden_units_secrets():
    """The core's non-interference check on a forest where every unit starts hidden: the
    enemy's view, log, decisions and picture are the same whatever a hidden unit does (a move
    into sight is revealed by its public "move" event)."""
    from wargamekit.testing import check_non_interference

    woods = [f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 5)]
    units = [{"name": "A", "side": "blue", "hex": "0102"}, {"name": "B", "side": "blue", "hex": "0103"},
             {"name": "C", "side": "red", "hex": "0802", "facing": 3}, {"name": "D", "side": "red", "hex": "0803", "facing": 3}]
    forest = {**_scenario(units, woods), "width": 8, "turns": 2}
    for options in ({"reaction_fire": True}, {"reaction_fire": False}):
        assert check_non_interference(Skirmish(), forest, seeds=range(2), options=options, reveals={"move"}) > 20
