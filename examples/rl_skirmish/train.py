"""Train a small agent for the skirmish's blue side against the random bot, on CPU, numpy only.

The agent is a linear softmax policy over the action slots (REINFORCE with a running-mean
baseline): an action's score is ``theta[kind] . row``, where ``kind`` is the pending decision's
kind (the one-hot in the observation's decision block) and ``row`` the option's row of the
observation's option block (see :doc:`/rl`). Masked actions get no probability. It reads
nothing but the observation, so it plays through :func:`wargamekit.rl.single_agent` exactly as
any learner would.

Run it (about four minutes on one core)::

    uv run python examples/rl_skirmish/train.py --train 600 --eval 200

It prints the win rate of the untrained policy (uniform over the legal actions, i.e. the
random bot) and of the trained one against the random bot over ``--eval`` games (seeds not
used in training), each with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np

from wargamekit import rl

TRAIN_SEEDS = 1_000_000  # training games use seeds from here; evaluation uses 0, 1, 2, ...


class LinearPolicy:
    """Softmax over the legal action slots of ``theta[kind] . option_row``."""

    def __init__(self, game: Any, side: str) -> None:
        aec = game.aec
        self.layout = aec.layout(side)
        self.slots = aec.slots
        self.kinds = len(aec.kinds) + 1  # the listed kinds and "other"
        self.width = (self.layout["options"].stop - self.layout["options"].start) // self.slots
        self.theta = np.zeros((self.kinds, self.width))

    def _parts(self, obs: dict[str, np.ndarray]) -> tuple[int, np.ndarray, np.ndarray]:
        vector = obs["observation"]
        block = vector[self.layout["decision"]]
        kind = int(np.argmax(block[4 : 4 + self.kinds]))
        rows = vector[self.layout["options"]].reshape(self.slots, self.width)
        rows = np.vstack([rows, np.zeros((1, self.width))])  # the stop action's row
        return kind, rows, obs["action_mask"].astype(bool)

    def probabilities(self, obs: dict[str, np.ndarray]) -> tuple[int, np.ndarray, np.ndarray]:
        """``(kind, rows, p)``: the decision's kind, the option rows and each action's probability."""
        kind, rows, mask = self._parts(obs)
        logits = np.where(mask, rows @ self.theta[kind], -np.inf)
        logits -= logits[mask].max()
        p = np.exp(logits)
        return kind, rows, p / p.sum()


def play(game: Any, policy: LinearPolicy, seed: int, rng: np.random.Generator | None, greedy: bool = False
         ) -> tuple[float, list[tuple[int, np.ndarray, np.ndarray, int]]]:
    """One game; returns the reward and the trajectory ``(kind, rows, p, action)``."""
    obs, _ = game.reset(seed=seed)
    trajectory = []
    while True:
        kind, rows, p = policy.probabilities(obs)
        action = int(np.argmax(p)) if greedy or rng is None else int(rng.choice(len(p), p=p))
        trajectory.append((kind, rows, p, action))
        obs, reward, terminated, truncated, _ = game.step(action)
        if terminated or truncated:
            return float(reward), trajectory


def train(games: int, *, learning_rate: float = 0.05, seed: int = 0, opponent: str = "random",
          log_every: int = 0) -> tuple[Any, LinearPolicy]:
    """REINFORCE for ``games`` games; returns the environment and the trained policy."""
    game = rl.single_agent("skirmish", side="blue", opponent=opponent)
    policy = LinearPolicy(game, "blue")
    rng = np.random.default_rng(seed)
    baseline, wins = 0.0, 0
    for episode in range(games):
        reward, trajectory = play(game, policy, TRAIN_SEEDS + episode, rng)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        wins += reward > 0
        gradient = np.zeros_like(policy.theta)
        for kind, rows, p, action in trajectory:
            # d log p(action) / d theta[kind] = row(action) - E_p[row]
            gradient[kind] += rows[action] - p @ rows
        policy.theta += learning_rate * advantage * gradient / max(len(trajectory), 1) ** 0.5
        if log_every and (episode + 1) % log_every == 0:
            print(f"  game {episode + 1}: won {wins} of the last {log_every}", flush=True)
            wins = 0
    return game, policy


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate.

    >>> low, high = wilson(150, 200)
    >>> round(low, 3), round(high, 3)
    (0.686, 0.805)
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def evaluate(game: Any, policy: LinearPolicy, games: int, *, greedy: bool = True) -> tuple[int, int, int]:
    """``(wins, draws, losses)`` over seeds ``0 .. games - 1``."""
    wins = draws = 0
    rng = np.random.default_rng(12345)
    for seed in range(games):
        reward, _ = play(game, policy, seed, rng, greedy=greedy)
        wins += reward > 0
        draws += reward == 0
    return wins, draws, games - wins - draws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=int, default=600, help="training games")
    parser.add_argument("--eval", type=int, default=200, help="evaluation games")
    parser.add_argument("--seed", type=int, default=0, help="the learner's sampling seed")
    args = parser.parse_args()
    start = time.perf_counter()
    game, policy = train(args.train, seed=args.seed, log_every=max(args.train // 6, 1))
    trained_at = time.perf_counter()
    untrained = LinearPolicy(game, "blue")
    for name, agent, greedy in (("untrained (uniform over legal actions)", untrained, False),
                                ("trained", policy, True)):
        wins, draws, losses = evaluate(game, agent, args.eval, greedy=greedy)
        low, high = wilson(wins, args.eval)
        print(f"{name}: blue won {wins} of {args.eval} against the random bot ({draws} draws, {losses} losses): "
              f"{wins / args.eval:.1%}, 95% interval {low:.1%} to {high:.1%}")
    print(f"training {trained_at - start:.0f} s, evaluation {time.perf_counter() - trained_at:.0f} s")
    print("theta (rows: kinds", [*game.aec.kinds, "other"], "):")
    print(np.array2string(policy.theta, precision=2, suppress_small=True))


if __name__ == "__main__":
    main()
