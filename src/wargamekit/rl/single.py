"""A Gymnasium single-agent environment: one side learns, a named bot plays the others."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np

from ..errors import InvalidChoiceError
from ..players import Player, RandomBot, bot_seed
from ..ruleset import Ruleset
from .actions import IllegalActionError
from .aec import WargameEnv

if TYPE_CHECKING:
    import pluggy

__all__ = ["ILLEGAL", "SingleAgentEnv", "single_agent"]

#: What the wrapper does with an action its mask forbids: ``"raise"`` an
#: :class:`~wargamekit.rl.IllegalActionError` (nothing changes), or ``"lose"``: end the episode
#: (``terminated``) with the reward of a loss, -1, and ``info["illegal_action"] = True``.
ILLEGAL = ("raise", "lose")

#: a bot name, a player, or a factory ``seed -> player``
Opponent = str | Player | Callable[[int], Player]


class SingleAgentEnv(gymnasium.Env):
    """One side of a ruleset as a Gymnasium environment; build it with :func:`single_agent`.

    Observations and actions are those of the side in :class:`~wargamekit.rl.aec.WargameEnv`
    (``Dict(observation, action_mask)``, ``Discrete(N + 1)``); ``info["action_mask"]`` repeats
    the mask. The reward is 0 until the game ends, then the side's result (+1, -1, 0).

    Attributes:
        aec: the underlying PettingZoo environment (``aec.game`` is the game).
        side: the side this environment plays.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, aec: WargameEnv, side: str, opponent: Opponent, illegal: str) -> None:
        if side not in aec.possible_agents:
            raise InvalidChoiceError(f"{aec.ruleset.name} has no side {side!r}; its sides are {aec.possible_agents}")
        if illegal not in ILLEGAL:
            raise InvalidChoiceError(f"illegal: expected one of {list(ILLEGAL)}, got {illegal!r}")
        self.aec = aec
        self.side = side
        self.illegal = illegal
        self._factory = _opponent_factory(aec.ruleset, opponent)
        self.observation_space = aec.observation_space(side)
        self.action_space = aec.action_space(side)
        self.render_mode = aec.render_mode
        self._bots: dict[str, Player] = {}
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a game: ``seed`` is its dice seed (``None``: drawn from this env's generator);
        the opponents are seeded from it as every driver seeds bots
        (:func:`~wargamekit.players.bot_seed`). ``options`` is ignored, as in
        :meth:`WargameEnv.reset <wargamekit.rl.aec.WargameEnv.reset>`."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31))
        self.aec.reset(seed=game_seed)
        sides = self.aec.ruleset.sides
        self._bots = {s: self._factory(bot_seed(game_seed, i)) for i, s in enumerate(sides) if s != self.side}
        self._done = False
        self._play_others()
        obs, _, _, _, info = self._last()
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Take the side's action, then let the opponents answer until the side is asked again
        or the game ends.

        Raises:
            IllegalActionError: with ``illegal="raise"``, a masked action (nothing changes).
            GameOverError: the episode is over (call :meth:`reset`).
        """
        from ..errors import GameOverError

        if self._done:
            raise GameOverError("the episode is over; call reset()")
        try:
            self.aec.step(action)
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            self._done = True
            obs, _, _, _, info = self._last()
            return obs, -1.0, True, False, {**info, "illegal_action": True}
        self._play_others()
        obs, reward, terminated, truncated, info = self._last()
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, info

    def _play_others(self) -> None:
        aec = self.aec
        while not (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            agent = aec.agent_selection
            if agent == self.side:
                return
            decision = aec.game.pending
            assert decision is not None
            aec.answer(self._bots[agent].choose(decision, aec.game.view(agent)))

    def _last(self) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        obs = aec.observe(self.side)
        reward = float(aec._cumulative_rewards.get(self.side, 0.0))
        aec._cumulative_rewards[self.side] = 0.0
        info = {**aec.infos.get(self.side, {}), "action_mask": obs["action_mask"].copy()}
        return obs, reward, bool(aec.terminations[self.side]), bool(aec.truncations[self.side]), info

    def action_masks(self) -> np.ndarray:
        """The legal actions now (the name sb3-contrib's maskable algorithms look for)."""
        mask: np.ndarray = self.aec.observe(self.side)["action_mask"].astype(bool)
        return mask

    def render(self) -> str | None:
        """As :meth:`WargameEnv.render <wargamekit.rl.aec.WargameEnv.render>`."""
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release."""


def _opponent_factory(ruleset: Ruleset, opponent: Opponent) -> Callable[[int], Player]:
    if isinstance(opponent, str):
        if opponent == "random":
            return RandomBot
        bots = ruleset.bots()
        if opponent not in bots:
            raise InvalidChoiceError(
                f"{ruleset.name} has no bot {opponent!r}; it has {['random', *sorted(bots)]}"
            )
        return bots[opponent]
    if isinstance(opponent, Player) and not isinstance(opponent, type):
        return lambda _seed: opponent
    if callable(opponent):
        return opponent
    raise InvalidChoiceError(f"opponent: expected a bot's name, a player or a factory, got {opponent!r}")


def single_agent(
    ruleset: Ruleset | str,
    side: str | None = None,
    opponent: Opponent = "bot",
    scenario: str | Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    illegal: str = "raise",
    plugin_manager: pluggy.PluginManager | None = None,
    max_actions: int | None = None,
    max_steps: int | None = None,
    render_mode: str | None = None,
) -> SingleAgentEnv:
    """A Gymnasium environment in which one ``side`` of ``ruleset`` plays against a bot.

    Args:
        ruleset: a ruleset or an installed ruleset's name.
        side: the side to play (default: the ruleset's first).
        opponent: who plays the other sides: ``"random"``, the name of one of the ruleset's
            bots (``"bot"``, its best, by default), a :class:`~wargamekit.players.Player`, or a
            factory ``seed -> player``.
        scenario, options, plugin_manager, max_actions, max_steps, render_mode: as
            :func:`~wargamekit.rl.env`.
        illegal: what a masked action does (:data:`ILLEGAL`): ``"raise"`` (default) or
            ``"lose"``.

    Raises:
        InvalidChoiceError: an unknown side, bot or ``illegal`` policy (and what
            :func:`~wargamekit.rl.env` raises).
    """
    aec = WargameEnv(ruleset, scenario, options, None, plugin_manager=plugin_manager,
                     max_actions=max_actions, max_steps=max_steps, render_mode=render_mode)
    return SingleAgentEnv(aec, aec.possible_agents[0] if side is None else side, opponent, illegal)
