"""What the RL adapter costs: whole games through :func:`wargamekit.rl.env` against the same
games played by :meth:`Game.play <wargamekit.game.Game.play>` (the baseline, measured in the
same run).

Run: ``uv run pytest benchmarks/test_bench_rl.py -p no:cacheprovider --benchmark-enable``

* ``test_env_games`` — seeded random bots' games (seeds 0-2 of a short scenario of each
  ruleset), played through the AEC env as a learner would: at every step the acting agent's
  observation is encoded (``last()``) and the bot's answer sent as its actions
  (:func:`~wargamekit.rl.actions_for`). The baseline plays the same games with ``Game.play``
  (same bots, same answers, no observations). ``extra_info`` has ``game_play_over_ours`` (below
  1: the env is slower; its inverse is the adapter's cost as a multiple of the bare game),
  ``env_steps_per_s`` and the observation's length.

Nothing here asserts on timings; the figures go to ``extra_info``.
"""

from __future__ import annotations

import pytest

from wargamekit import Game, RandomBot, rl
from wargamekit.players import bot_seed
from wargamekit.plugins import installed_rulesets

SHORT = {"aig": "default", "lnl": "combined_arms", "maneuver_locale": "training", "mttt_rpg": "duel",
         "skirmish": "default", "tank_solo": "duel"}
SEEDS = range(3)


def _env_games(env: rl.WargameEnv) -> int:
    steps = 0
    for seed in SEEDS:
        env.reset(seed=seed)
        bots = {s: RandomBot(bot_seed(seed, i)) for i, s in enumerate(env.possible_agents)}
        while True:
            agent = env.agent_selection
            env.last()
            if env.terminations[agent] or env.truncations[agent]:
                break
            decision = env.game.pending
            answer = decision.check(bots[agent].choose(decision, env.game.view(agent)))
            for action in rl.actions_for(decision, answer, env.slots):
                env.step(action)
                steps += 1
    return steps


def _plain_games(name: str) -> int:
    ruleset = installed_rulesets()[name]
    answers = 0
    for seed in SEEDS:
        game = Game.new(ruleset, SHORT[name], seed=seed)
        game.play({s: RandomBot(bot_seed(seed, i)) for i, s in enumerate(ruleset.sides)})
        answers += len(game.choices)
    return answers


@pytest.mark.parametrize("name", [n for n in sorted(SHORT) if n in installed_rulesets()])
def test_env_games(compare, benchmark, name):
    env = rl.env(name, SHORT[name])
    steps = compare(lambda: _env_games(env), {"game_play": lambda: _plain_games(name)}, rounds=3, ours_rounds=3)
    ours = benchmark.extra_info["ours_median_s"]
    benchmark.extra_info.update(
        scenario=SHORT[name],
        env_steps=steps,
        env_steps_per_s=steps / ours,
        observation_length=int(env.observation_space(env.possible_agents[0])["observation"].shape[0]),
        adapter_cost_multiple=ours / benchmark.extra_info["game_play_median_s"],
    )
