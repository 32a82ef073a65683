"""Every ruleset as a PettingZoo AEC environment (:func:`env`).

The agents are the ruleset's sides. The agent to act (``agent_selection``) is always the side
the pending decision belongs to, so interrupt windows (a response offered to the other side
mid-turn) and secret decisions need nothing special: the game asks, the env follows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from ..decisions import Choose, ChooseSubset
from ..errors import InvalidChoiceError
from ..game import Game, _resolve_ruleset
from ..ruleset import Ruleset
from .actions import ActionCursor, ActionSpaceError
from .encoding import GenericEncoder, ObservationEncoder, decision_block, decision_block_size

if TYPE_CHECKING:
    import pluggy

    from ..view import PlayerView

__all__ = ["WargameEnv", "encoder_for", "env"]


def encoder_for(ruleset: Ruleset, plugin_manager: pluggy.PluginManager | None = None) -> ObservationEncoder:
    """The observation encoder of ``ruleset``: the first plugin's answer to
    :func:`~wargamekit.hookspecs.wargamekit_observation_encoder` (asked of ``plugin_manager``,
    by default the installed plugins'), else a :class:`GenericEncoder`."""
    from ..plugins import installed_plugin_manager

    pm = installed_plugin_manager() if plugin_manager is None else plugin_manager
    found = pm.hook.wargamekit_observation_encoder(ruleset=ruleset)
    if found is None:
        return GenericEncoder(ruleset.sides)
    if not isinstance(found, ObservationEncoder):
        raise TypeError(f"{ruleset.name}: wargamekit_observation_encoder returned {found!r}, not an ObservationEncoder")
    return found


class WargameEnv(AECEnv):
    """A game of one ruleset and scenario as a PettingZoo AEC environment. Build it with
    :func:`env`; the arguments are documented there.

    Attributes:
        game: the :class:`~wargamekit.game.Game` being played (after :meth:`reset`).
        encoder: the ruleset's observation encoder.
        slots: ``N``, the option slots; the action space is ``Discrete(N + 1)``.
    """

    metadata = {"name": "wargamekit", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        ruleset: Ruleset | str,
        scenario: str | Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        *,
        plugin_manager: pluggy.PluginManager | None = None,
        max_actions: int | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.ruleset = _resolve_ruleset(ruleset)
        self.scenario = scenario
        self.game_options = dict(options or {})
        self.plugin_manager = plugin_manager
        self.encoder = encoder_for(self.ruleset, plugin_manager)
        if render_mode not in (None, "ansi"):
            raise InvalidChoiceError(f"render_mode: expected None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1):
            raise InvalidChoiceError(f"max_steps: expected a whole number 1 or more, got {max_steps!r}")
        self.max_steps = max_steps
        self.possible_agents = list(self.ruleset.sides)
        self._seed = seed
        self._seeds = np.random.default_rng(seed)
        # The spaces are declared from a first game's start as each side sees it (the seed does
        # not change them: the encoder's contract).
        probe = self._new_game(0 if seed is None else seed)
        views = {side: probe.view(side) for side in self.possible_agents}
        if max_actions is not None:
            if isinstance(max_actions, bool) or not isinstance(max_actions, int) or max_actions < 2:
                raise InvalidChoiceError(f"max_actions: expected a whole number 2 or more, got {max_actions!r}")
            self.slots = max_actions
        else:
            self.slots = max(self.encoder.action_count(v) for v in views.values())
        self.kinds = tuple(self.encoder.kinds)
        self._view_bounds = {s: self.encoder.view_bounds(v) for s, v in views.items()}
        self._option_bounds = {s: self.encoder.option_bounds(v) for s, v in views.items()}
        self.observation_spaces = {s: self._space(s) for s in self.possible_agents}
        self.action_spaces = {s: gymnasium.spaces.Discrete(self.slots + 1) for s in self.possible_agents}
        self.game: Game = probe
        self._cursor: ActionCursor | None = None
        self._steps = 0
        self.agents: list[str] = []

    # -- spaces ------------------------------------------------------------------------------
    def _space(self, side: str) -> gymnasium.spaces.Dict:
        dlow, dhigh = np.zeros(decision_block_size(len(self.kinds), self.slots), np.float32), None
        dhigh = np.ones_like(dlow)
        vlow, vhigh = self._view_bounds[side]
        olow, ohigh = self._option_bounds[side]
        low = np.concatenate([dlow, np.asarray(vlow, np.float32), np.tile(np.asarray(olow, np.float32), self.slots)])
        high = np.concatenate([dhigh, np.asarray(vhigh, np.float32), np.tile(np.asarray(ohigh, np.float32), self.slots)])
        return gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.slots + 1,), dtype=np.int8),
        })

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Dict(observation=Box(float32), action_mask=Box(int8, N + 1))`` (see :doc:`/rl`)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(N + 1)``: ``N`` option slots and the stop action of subsets."""
        return self.action_spaces[agent]

    def layout(self, agent: str) -> dict[str, slice]:
        """Where each block lies in ``agent``'s observation vector: ``decision``, ``view`` and
        ``options`` (``options`` holds ``N`` rows of the option width, row after row)."""
        d = decision_block_size(len(self.kinds), self.slots)
        v = len(self._view_bounds[agent][0])
        o = len(self._option_bounds[agent][0])
        return {"decision": slice(0, d), "view": slice(d, d + v), "options": slice(d + v, d + v + o * self.slots)}

    # -- the game ----------------------------------------------------------------------------
    def _new_game(self, seed: int) -> Game:
        return Game.new(self.ruleset, self.scenario, seed=seed, options=self.game_options,
                        plugin_manager=self.plugin_manager)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        Args:
            seed: the game's dice seed (the env then plays exactly ``Game.new(..., seed=seed)``).
                ``None``: the seed given to :func:`env` for the first game, then seeds drawn from
                a generator seeded by the last seed given (or fresh entropy, if none ever was).
            options: accepted for PettingZoo's API and ignored: the ruleset's options are fixed
                when the env is built, since the spaces may depend on them.
        """
        if seed is not None:
            game_seed = int(seed)
            self._seeds = np.random.default_rng(game_seed)
        elif self._seed is not None:
            game_seed = self._seed
        else:
            game_seed = int(self._seeds.integers(2**31))
        self._seed = None  # the constructor's seed serves the first game only
        self.game = self._new_game(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._follow()

    def _follow(self) -> None:
        """Point the env at the game's pending decision, or end the episode."""
        decision = self.game.pending
        if decision is None:
            outcome = self.game.outcome
            assert outcome is not None
            self._cursor = None
            rewards = self.encoder.rewards(outcome, tuple(self.possible_agents))
            self.rewards = {a: float(rewards.get(a, 0.0)) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"winner": outcome.winner, "reason": outcome.reason}
            self.agent_selection = self.agents[0]
            return
        self._cursor = ActionCursor(decision, self.slots, self.ruleset.name)
        self.agent_selection = decision.side

    def step(self, action: Any) -> None:
        """Take ``action`` for ``agent_selection`` (``None`` for an agent already done).

        Raises:
            IllegalActionError: the mask forbids ``action`` (nothing changes).
            ActionSpaceError: the next decision does not fit the action space.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        cursor = self._cursor
        assert cursor is not None
        picked, prefix, given = list(cursor.picked), cursor.prefix, cursor.given
        answer = cursor.apply(action)
        if answer is not None:
            try:
                self.game.answer(answer, side=agent)
            except BaseException:
                cursor.picked, cursor.prefix, cursor.given = picked, prefix, given
                raise
        self._stepped(agent, answered=answer is not None)

    def _stepped(self, agent: str, *, answered: bool) -> None:
        """The bookkeeping of a step that stood: rewards, the next agent, truncation."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if answered:
            self._follow()
        self._steps += 1
        if self.max_steps is not None and self._steps >= self.max_steps and not any(self.terminations.values()):
            self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def answer(self, answer: Any) -> None:
        """Give a whole recorded answer (as :meth:`Game.answer <wargamekit.game.Game.answer>`
        takes it) for ``agent_selection``'s pending decision, instead of actions step by step:
        how a bot plays its side in the same env (:func:`~wargamekit.rl.single_agent`).

        Raises:
            GameOverError: the episode is over.
            InvalidChoiceError, IllegalChoiceError: as ``Game.answer`` (nothing changes).
        """
        from ..errors import GameOverError

        agent = self.agent_selection
        if self._cursor is None or self.terminations[agent] or self.truncations[agent]:
            raise GameOverError(f"{self.ruleset.name}: the episode is over; no decision is pending")
        self.game.answer(answer, side=agent)
        self._stepped(agent, answered=True)

    # -- observations ------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its view encoded (see :doc:`/rl`) and its action mask (all
        zero unless it is to act)."""
        cursor = self._cursor if agent == self.agent_selection and not self.terminations.get(agent) else None
        view = self.game.view(agent)
        return {"observation": self._encode(agent, view, cursor),
                "action_mask": cursor.mask() if cursor is not None else np.zeros(self.slots + 1, np.int8)}

    def observation_of(self, game: Game, side: str) -> np.ndarray:
        """``side``'s observation vector of any ``game`` of this env's ruleset and scenario, as
        at the first step of its pending decision, with the mask appended (for checks that
        compare games, :mod:`wargamekit.rl.checks`)."""
        pending = game.pending
        cursor = ActionCursor(pending, self.slots, self.ruleset.name) if pending is not None and pending.side == side else None
        mask = cursor.mask() if cursor is not None else np.zeros(self.slots + 1, np.int8)
        return np.concatenate([self._encode(side, game.view(side), cursor), mask.astype(np.float32)])

    def _encode(self, agent: str, view: PlayerView, cursor: ActionCursor | None) -> np.ndarray:
        decision = view.decision if cursor is not None else None
        block = decision_block(decision, self.kinds, self.slots,
                               picked=tuple(cursor.picked) if cursor else (),
                               digits_left=cursor.digits_left if cursor else 0,
                               digits=cursor.digits if cursor else 0)
        features = np.asarray(self.encoder.encode(view), np.float32)
        width = len(self._option_bounds[agent][0])
        rows = np.zeros((self.slots, width), np.float32)
        if width and isinstance(decision, (Choose, ChooseSubset)):
            for index in range(len(decision.options)):
                rows[index] = self.encoder.encode_option(view, decision, index)
        if features.shape != self._view_bounds[agent][0].shape:
            raise ActionSpaceError(
                f"{self.ruleset.name}: the encoder gave {features.shape[0] if features.ndim == 1 else features.shape} "
                f"features, but declared {len(self._view_bounds[agent][0])}"
            )
        return np.concatenate([block, features, rows.reshape(-1)])

    def action_mask(self) -> np.ndarray:
        """The mask of ``agent_selection``'s legal actions now."""
        if self._cursor is None or self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return np.zeros(self.slots + 1, np.int8)
        return self._cursor.mask()

    # -- rendering ---------------------------------------------------------------------------
    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the ruleset's summary of the position (all-seeing)."""
        if self.render_mode != "ansi":
            return None
        return self.ruleset.summary(self.game.state) or f"{self.ruleset.name}: {len(self.game.choices)} decisions"

    def close(self) -> None:
        """Nothing to release (the game lives in this process)."""

    def __str__(self) -> str:
        return f"wargamekit_{self.ruleset.name}"


def env(
    ruleset: Ruleset | str,
    scenario: str | Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    *,
    plugin_manager: pluggy.PluginManager | None = None,
    max_actions: int | None = None,
    max_steps: int | None = None,
    render_mode: str | None = None,
) -> WargameEnv:
    """A PettingZoo AEC environment playing ``ruleset`` (any installed ruleset).

    Args:
        ruleset: a ruleset or an installed ruleset's name.
        scenario: a bundled scenario's name (default ``"default"``) or raw scenario data.
        options: the ruleset's optional rules (fixed for the env's life).
        seed: the first game's seed (see :meth:`WargameEnv.reset`).
        plugin_manager: add-ons for the game and where the encoder hook is asked (default:
            no add-ons; the installed rulesets' encoders).
        max_actions: ``N``, the option slots, instead of the encoder's
            :meth:`~wargamekit.rl.ObservationEncoder.action_count`.
        max_steps: truncate an episode after this many steps (``None``: play to the end).
        render_mode: ``None`` or ``"ansi"`` (the ruleset's text summary).

    Raises:
        UnknownRulesetError, UnknownScenarioError, ScenarioError, InvalidChoiceError: as
            :meth:`Game.new <wargamekit.game.Game.new>`, or a bad ``max_actions``/``max_steps``.
    """
    return WargameEnv(ruleset, scenario, options, seed, plugin_manager=plugin_manager,
                      max_actions=max_actions, max_steps=max_steps, render_mode=render_mode)

