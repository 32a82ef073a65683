"""wargamekit.rl (issue 14, part 2): every ruleset as a PettingZoo AEC environment, decisions as
masked discrete actions, observations that hold only what a side may see, and a Gymnasium
single-agent wrapper."""

from __future__ import annotations

import copy
import warnings
from itertools import combinations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from leaky import Loadout
from pettingzoo.test import api_test, seed_test
from rulesets import DiceRace

from wargamekit import Choose, ChooseNumber, ChooseSubset, Game, RandomBot, YesNo, hookimpl, plugin_manager, rl
from wargamekit.decisions import Option
from wargamekit.errors import GameOverError, IllegalChoiceError, InvalidChoiceError
from wargamekit.players import bot_seed
from wargamekit.plugins import installed_rulesets
from wargamekit.rl import ActionCursor, ActionSpaceError, IllegalActionError, ObservationEncoder, actions_for

#: a short scenario of every bundled ruleset (and the tutorial's skirmish)
SHORT = {
    "aig": "default",
    "lnl": "combined_arms",
    "maneuver_locale": "training",
    "mttt_rpg": "duel",
    "skirmish": "default",
    "tank_solo": "duel",
}

#: What PettingZoo's api_test recommends and these envs knowingly do otherwise: the agents are
#: the ruleset's sides by name (not ``player_0``), and the observation is the masked-action
#: convention's ``Dict(observation, action_mask)`` (not a bare array or Box).
ALLOWED_WARNINGS = (
    "We recommend agents to be named in the format",
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)


#: Every hex woods (as the skirmish's own conformance test): units stay hidden until an enemy
#: comes within 3 hexes (7. Concealment), so their decisions are secrets to fork.
FOREST = {"title": "Forest", "width": 10, "height": 8, "turns": 3,
          "terrain": {"woods": [f"{c:02d}{r:02d}" for c in range(1, 11) for r in range(1, 9)]},
          "units": [{"name": "B1", "side": "blue", "hex": "0102"}, {"name": "B2", "side": "blue", "hex": "0107"},
                    {"name": "R1", "side": "red", "hex": "1002", "facing": 3},
                    {"name": "R2", "side": "red", "hex": "1007", "facing": 3}]}


def _only_allowed(caught: list[warnings.WarningMessage]) -> None:
    unexpected = sorted({str(w.message) for w in caught if not str(w.message).startswith(ALLOWED_WARNINGS)})
    assert not unexpected, unexpected


def test_every_bundled_ruleset_is_covered():
    """The table above names every installed ruleset (a new one must join the API test)."""
    assert set(SHORT) == set(installed_rulesets())


@pytest.mark.parametrize("name", sorted(SHORT))
def test_pettingzoo_api_and_seed_tests_pass(name):
    """PettingZoo's own API test and seed test pass for every bundled ruleset."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env(name, SHORT[name], seed=1), num_cycles=40)
        seed_test(lambda: rl.env(name, SHORT[name]), num_cycles=40)
    _only_allowed(caught)


def test_api_test_passes_with_an_addon():
    """tank_solo with the tank_apcr add-on (a fourth special round) is an env like any other."""
    pm = plugin_manager(addons=["tank_apcr"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env("tank_solo", "duel", seed=2, plugin_manager=pm), num_cycles=30)
    _only_allowed(caught)


def test_every_bundled_ruleset_has_its_own_encoder():
    """Each bundled ruleset registers a real encoder through the hook (not the generic one)."""
    for name in SHORT:
        encoder = rl.encoder_for(installed_rulesets()[name])
        assert type(encoder) is not rl.GenericEncoder, name
        assert encoder.kinds and all(k.startswith(f"{name}.") for k in encoder.kinds)


def _play_actions(env: rl.WargameEnv, seed: int, limit: int) -> None:
    """Answer ``limit`` decisions of ``env`` as seeded random bots would, through actions."""
    bots = {s: RandomBot(bot_seed(seed, i)) for i, s in enumerate(env.possible_agents)}
    for _ in range(limit):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return
        decision = env.game.pending
        answer = decision.check(bots[agent].choose(decision, env.game.view(agent)))
        for action in actions_for(decision, answer, env.slots):
            assert env.observe(agent)["action_mask"][action] == 1
            env.step(action)


@pytest.mark.parametrize("name", sorted(SHORT))
def test_a_seeded_env_plays_the_same_game_as_game(name):
    """The env with seed s, given the actions that encode seeded random bots' answers, plays
    exactly Game.new(seed=s) with those bots: the same choices and a byte-identical log."""
    env = rl.env(name, SHORT[name], seed=5)
    env.reset()
    _play_actions(env, 5, 120)
    game = Game.new(name, SHORT[name], seed=5)
    bots = {s: RandomBot(bot_seed(5, i)) for i, s in enumerate(game.ruleset.sides)}
    played = len(env.game.choices)
    game.play(bots, until=lambda g: len(g.choices) >= played)
    assert game.choices == env.game.choices
    assert game.log_text() == env.game.log_text()


def test_reset_seeds_are_reproducible():
    """reset(seed=s) plays seed s; reset() after it draws the same next seeds every time."""
    first, second = rl.env("skirmish"), rl.env("skirmish")
    for env in (first, second):
        env.reset(seed=9)
        assert env.game.seed == 9
        env.reset()
    assert first.game.seed == second.game.seed
    seeded = rl.env("skirmish", seed=4)
    seeded.reset()
    assert seeded.game.seed == 4


def _clone(cursor):
    probe = copy.copy(cursor)
    probe.picked = list(cursor.picked)
    return probe


def _reachable(cursor_factory, slots):
    """Every answer reachable through the masks, and a check that each masked-out action is
    refused at every step (with the cursor unchanged)."""
    found = []

    def walk(cursor):
        mask = cursor.mask()
        for action in range(slots + 1):
            probe = _clone(cursor)
            if not mask[action]:
                before = (list(probe.picked), probe.prefix, probe.given)
                with pytest.raises(IllegalActionError, match="masked out"):
                    probe.apply(action)
                assert (probe.picked, probe.prefix, probe.given) == before
                continue
            result = probe.apply(action)
            if result is None:
                walk(probe)
            else:
                found.append(result)

    walk(cursor_factory())
    return found


def test_a_constrained_subset_mask_allows_exactly_the_legal_subsets():
    """A subset with a constraint: the answers reachable through the masks are exactly the
    subsets the decision accepts, and every masked-out action is refused."""
    values = [3, 5, 8, 13, 21]
    decision = ChooseSubset(side="a", prompt="Which?", options=[Option(v, str(v)) for v in values],
                            min_count=1, max_count=3,
                            constraint=lambda picked: None if sum(picked) % 2 == 0 else "an odd total")
    legal = set()
    for size in range(0, 6):
        for combo in combinations(range(5), size):
            try:
                legal.add(tuple(decision.check(list(combo))))
            except IllegalChoiceError:
                pass
    reached = _reachable(lambda: ActionCursor(decision, 6), 6)
    assert {tuple(r) for r in reached} == legal
    assert (0, 1) in legal and (0,) not in legal  # 3+5 even; 3 alone odd


def test_an_unconstrained_subset_mask_respects_the_counts():
    decision = ChooseSubset(side="a", prompt="Which?", options=[Option(i, str(i)) for i in range(4)],
                            min_count=2, max_count=2)
    reached = {tuple(r) for r in _reachable(lambda: ActionCursor(decision, 4), 4)}
    assert reached == set(combinations(range(4), 2))


def test_a_number_wider_than_the_space_is_given_in_digits():
    """38 values in 5 slots: three base-5 digits, masked so every value 3..40 and nothing else
    is reachable; actions_for gives the digits of a value."""
    decision = ChooseNumber(side="a", prompt="How many?", low=3, high=40)
    reached = _reachable(lambda: ActionCursor(decision, 5), 5)
    assert sorted(reached) == list(range(3, 41))
    assert actions_for(decision, 40, 5) == [1, 2, 2]  # 37 = 1*25 + 2*5 + 2


def test_choose_and_yes_no_masks():
    choose = Choose.of("a", "Which?", ["x", "y", "z"])
    assert ActionCursor(choose, 5).mask().tolist() == [1, 1, 1, 0, 0, 0]
    assert sorted(_reachable(lambda: ActionCursor(choose, 5), 5)) == [0, 1, 2]
    yes_no = YesNo(side="a", prompt="Fire?")
    assert sorted(_reachable(lambda: ActionCursor(yes_no, 3), 3)) == [False, True]


def test_too_many_options_fail_loudly():
    """A decision with more options than the slots is refused, never truncated."""
    with pytest.raises(ActionSpaceError, match="5 options do not fit the action space's 4 slots"):
        ActionCursor(Choose.of("a", "Which?", list("abcde")), 4)
    env = rl.env("skirmish", seed=0, max_actions=8)
    with pytest.raises(ActionSpaceError, match="skirmish: skirmish.move: .* options do not fit"):
        env.reset()
        while True:
            env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))


def test_a_masked_action_raises_and_changes_nothing():
    env = rl.env("skirmish", seed=3)
    env.reset()
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    log = env.game.log_text()
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=r"action \d+ is masked out \(legal now: \[0, 1, 2, 3\]\)"):
        env.step(bad)
    with pytest.raises(IllegalActionError, match="an action is a whole number"):
        env.step("1")
    assert env.game.log_text() == log and env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["action_mask"], mask)


def test_bad_arguments_are_refused():
    with pytest.raises(InvalidChoiceError, match="max_actions"):
        rl.env("skirmish", max_actions=1)
    with pytest.raises(InvalidChoiceError, match="max_steps"):
        rl.env("skirmish", max_steps=0)
    with pytest.raises(InvalidChoiceError, match="has no side 'green'"):
        rl.single_agent("skirmish", side="green")
    with pytest.raises(InvalidChoiceError, match="has no bot 'genius'"):
        rl.single_agent("skirmish", opponent="genius")
    with pytest.raises(InvalidChoiceError, match="illegal"):
        rl.single_agent("skirmish", illegal="ignore")


def test_max_steps_truncates():
    env = rl.env("skirmish", seed=1, max_steps=5)
    env.reset()
    for _ in range(5):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_rewards_are_the_result_of_the_game():
    """+1 to the winner, -1 to the loser at the end (0 before it and on a draw)."""
    env = rl.env("skirmish", seed=2)
    env.reset()
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(5000):
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = env.game.outcome
    expected = {s: 0.0 if outcome.winner is None else (1.0 if s == outcome.winner else -1.0) for s in rewards}
    assert rewards == expected


@pytest.mark.parametrize(("name", "scenario", "reveals"), [
    ("skirmish", "forest", {"move"}),
    ("maneuver_locale", "training", {"reveal", "move", "declare"}),
])
def test_observations_do_not_depend_on_the_opponents_secrets(name, scenario, reveals):
    """The observation is identical across every alternative of an opponent's secret decision
    or roll that the rules did not reveal (the non-interference check, on the encoded vector)."""
    env = rl.env(name, FOREST if scenario == "forest" else scenario)
    pairs = rl.check_observation_non_interference(env, seeds=range(1), positions=3, alternatives=3,
                                                  reveals=reveals)
    assert pairs > 0


class _PeekingEncoder(ObservationEncoder):
    """Cheats: reads the live game behind the view (b's loaded round)."""

    def view_bounds(self, view):
        return rl.unit_bounds(1)

    def encode(self, view):
        round_ = view._game.state.rounds["b"]
        return np.array([0.0 if round_ is None else ["ap", "he", "smoke"].index(round_) / 2], np.float32)


class _PeekingPlugin:
    @hookimpl
    def wargamekit_observation_encoder(self, ruleset):
        return _PeekingEncoder()


def test_the_check_catches_an_encoder_that_peeks_at_the_state():
    honest = rl.env(Loadout())
    assert rl.check_observation_non_interference(honest, seeds=range(1)) > 0
    leaky = rl.env(Loadout(), plugin_manager=plugin_manager(load_entry_points=False, plugins=[_PeekingPlugin()]))
    with pytest.raises(AssertionError, match="a's observation depends on a secret of b"):
        rl.check_observation_non_interference(leaky, seeds=range(1))


def test_a_ruleset_without_an_encoder_gets_the_generic_one():
    env = rl.env(Loadout())
    assert type(env.encoder) is rl.GenericEncoder
    env.reset(seed=0)
    obs = env.observe("b")
    layout = env.layout("b")
    assert obs["observation"][layout["view"]].tolist()[:3] == [0.0, 1.0, 1.0]  # side b, the constant
    assert obs["action_mask"].tolist()[:3] == [1, 1, 1]


@pytest.mark.parametrize("ruleset", [DiceRace(), Loadout()], ids=["dice_race", "loadout"])
def test_a_ruleset_without_an_encoder_passes_the_api_tests_too(ruleset):
    """The generic encoder makes any ruleset an env: PettingZoo's tests pass for two small
    rulesets of the core's tests, which write nothing for RL."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env(ruleset, seed=0), num_cycles=40)
        seed_test(lambda: rl.env(ruleset), num_cycles=40)
    _only_allowed(caught)


def test_the_single_agent_wrapper_passes_gymnasiums_check_env():
    """check_env samples actions without the mask, so it runs with illegal="lose"."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(rl.single_agent("skirmish", side="red", opponent="random", illegal="lose"), skip_render_check=True)
    assert not [w for w in caught if "action_mask" not in str(w.message)], [str(w.message) for w in caught]


def test_the_single_agent_wrapper_plays_against_a_named_bot():
    """blue plays masked random actions against the greedy bot to the end; the bot's answers
    are the greedy bot's, seeded as every driver seeds it; a masked action raises."""
    game = rl.single_agent("skirmish", side="blue", opponent="greedy")
    obs, info = game.reset(seed=7)
    assert game.aec.game.pending.side == "blue"
    with pytest.raises(IllegalActionError):
        game.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    rng = np.random.default_rng(1)
    total, done = 0.0, False
    while not done:
        obs, reward, terminated, truncated, info = game.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        done = terminated or truncated
    outcome = game.aec.game.outcome
    assert total == (0.0 if outcome.winner is None else 1.0 if outcome.winner == "blue" else -1.0)
    with pytest.raises(GameOverError):
        game.step(0)
    # The red answers were the greedy bot's own.
    replay = Game.new("skirmish", seed=7)
    from wargamekit_skirmish.bots import GreedyBot

    red = GreedyBot(bot_seed(7, 1))
    for answer in game.aec.game.choices:
        if replay.pending.side == "red":
            assert red.choose(replay.pending, replay.view("red")) == answer
        replay.answer(answer)
    assert replay.log_text() == game.aec.game.log_text()


def test_interrupt_windows_and_secret_decisions_go_to_their_side():
    """A reaction-fire window (6. Reaction fire) is offered to one side in the middle of the
    other's activation: that side is the agent to act, its decision block says so, and the
    active side's mask is zero meanwhile; an activation (secret while hidden, 7. Concealment)
    is flagged secret in the decision block."""
    env = rl.env("skirmish", seed=0)
    env.reset()
    kinds = env.kinds
    base = 4 + len(kinds) + 1
    rng = np.random.default_rng(3)
    seen_secret = seen_window = False
    for _ in range(400):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        decision = env.game.pending
        block = env.observe(agent)["observation"][env.layout(agent)["decision"]]
        assert block[4 + kinds.index(decision.kind)] == 1.0
        if decision.secret:
            seen_secret = True
            assert block[base + 1] == 1.0
        if decision.kind == "skirmish.reaction_fire":
            seen_window = True
            mover = env.game.state.units[env.game.state.active]
            assert agent == decision.side != mover.side
            assert not env.observe(mover.side)["action_mask"].any()
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        if seen_secret and seen_window:
            break
    assert seen_secret and seen_window


@pytest.mark.parametrize(("name", "scenario"), [("lnl", "combined_arms"), ("maneuver_locale", "training")])
def test_masks_of_the_rulesets_own_subset_decisions_are_exact(name, scenario):
    """On the rulesets' own constrained subset decisions (LnL's units moving together,
    maneuver_locale's groups and declarations), the answers reachable through the masks are
    exactly the subsets the decision accepts."""
    env = rl.env(name, scenario, seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(3000):
        agent = env.agent_selection
        if env.terminations[agent] or checked >= 4:
            break
        decision = env.game.pending
        if isinstance(decision, ChooseSubset) and decision.constraint is not None and env._cursor.picked == []:
            legal = set()
            for size in range(len(decision.options) + 1):
                for combo in combinations(range(len(decision.options)), size):
                    try:
                        legal.add(tuple(decision.check(list(combo))))
                    except IllegalChoiceError:
                        pass
            reached = _reachable(lambda d=decision: ActionCursor(d, env.slots), env.slots)
            assert {tuple(r) for r in reached} == legal
            checked += 1
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    assert checked >= 1
