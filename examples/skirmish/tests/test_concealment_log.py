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
