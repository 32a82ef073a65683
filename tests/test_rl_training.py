"""The RL example (examples/rl_skirmish/train.py) runs: a handful of training games change the
policy, and the evaluation counts every game once."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

SCRIPT = Path(__file__).parents[1] / "examples" / "rl_skirmish" / "train.py"


def _load():
    spec = importlib.util.spec_from_file_location("rl_skirmish_train", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_few_training_games_run_and_learn_something():
    train = _load()
    game, policy = train.train(4, seed=1)
    assert policy.theta.shape == (len(game.aec.kinds) + 1, 6)
    assert np.abs(policy.theta).sum() > 0  # REINFORCE moved the weights (every game ends +1 or -1 or 0)
    wins, draws, losses = train.evaluate(game, policy, 2)
    assert wins + draws + losses == 2


def test_the_policy_gives_masked_actions_no_probability():
    train = _load()
    game, policy = train.train(0)
    policy.theta[:] = np.random.default_rng(0).normal(size=policy.theta.shape)
    obs, _ = game.reset(seed=3)
    for _ in range(20):
        _, _, p = policy.probabilities(obs)
        assert np.all(p[obs["action_mask"] == 0] == 0) and np.isclose(p.sum(), 1.0)
        obs, _, terminated, truncated, _ = game.step(int(np.argmax(p)))
        if terminated or truncated:
            break


def test_wilson_interval():
    train = _load()
    low, high = train.wilson(196, 200)
    assert round(low, 3) == 0.950 and round(high, 3) == 0.992
