"""PettingZoo AEC environment over :class:`atomic_africa.game.Game`.

Agents ``"player_0"`` and ``"player_1"`` (game players 0 and 1). Each observation is a dict, as in
PettingZoo's classic games: ``"observation"`` is ``game.observation(player)`` (float32, only what that
player may see) and ``"action_mask"`` an int8 vector over the flat action space, 1 at the legal
actions of the agent to move and all zeros for the other agent; both, and the actions, in the
agent's ``view`` (``"relative"``, the default: player 1's table turned by 180 degrees so each agent
sees its own deployment at the bottom, action ids mapped to match,
:class:`~atomic_africa.game.side_view.SideView`; or ``"absolute"``, the engine's frame). Rewards
are 0 until the game ends, then +1 / -1 (win / loss) or 0 / 0 (draw). ``reset(seed=s)`` starts ``Game(scenario, s)``.

Why AEC only: the game is turn-based with a data-dependent turn order (a player often decides
several times in a row: orders, declaration, target, destination), so agents never act
simultaneously. A Parallel form would have to invent a no-op action for the idle player, which is
not an action of the game; PettingZoo's ``aec_to_parallel`` requires ``is_parallelizable``, which
this environment is not. Use :func:`env` (the AEC env with PettingZoo's standard wrappers).
"""
from __future__ import annotations

from .._optional import require

# Before the imports below, so that a missing package is one line naming the extra.
require("pettingzoo", "pettingzoo", "the PettingZoo environment")
require("gymnasium", "pettingzoo", "the PettingZoo environment")

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..game import Game, IllegalActionError
from ..game.side_view import SideView
from ._common import (AGENT_NAMES, Battles, EpisodeSeeds, action_id, observation_box, observation_columns,
                      text_render)
from .shaping import game_totals, potentials, shaping_config, start_figures

__all__ = ["env", "raw_env", "AtomicAfricaAEC"]


def env(**kwargs):
    """The AEC environment wrapped as PettingZoo's classic games are: an illegal action ends the
    game with reward -1 for the agent that played it, out-of-range actions assert, and the call
    order is enforced.

    Parameters
    ----------
    **kwargs
        Passed to :class:`AtomicAfricaAEC` (``scenario``, ``rules``, ``render_mode``, ``view``,
        ``skip_forced``, ``shaping``, ``observation``).

    Returns
    -------
    pettingzoo.utils.wrappers.OrderEnforcingWrapper
        The wrapped environment.
    """
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class AtomicAfricaAEC(AECEnv, EzPickle):
    """The unwrapped AEC environment (see the module notes).

    Parameters
    ----------
    scenario : Scenario, path, dict, None, list or ScenarioSampler
        The scenario (the packaged default if ``None``); a list or a
        :class:`~atomic_africa.game.scenarios.ScenarioSampler`: a battle per episode, drawn from
        the game seed, in the sampler's padded layout (as the Gymnasium envs).
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.
    render_mode : {None, "ansi", "human"}
        ``"ansi"``: :meth:`render` returns a text picture; ``"human"`` prints it.
    view : {"relative", "absolute"}
        The frame of each agent's observation, mask and actions (see the module notes).
    skip_forced : bool
        ``True``: a decision with a single legal action (of either agent) is played by the env in
        ``reset``/``step``, so the selected agent always has a choice (or the game is over);
        ``infos[agent]["skipped"]`` counts each agent's decisions played so in the last call.
        Off by default.
    shaping : None, True, dict or RewardShaping
        Potential-based reward shaping (:mod:`atomic_africa.env.shaping`) for both agents: when an
        agent is selected again (or the game ends) it receives ``gamma * Phi(s') - Phi(s)`` of its
        own potential, ``s`` the state at its last decision, ``s'`` now (``Phi`` = 0 at the end), so
        each agent's terms telescope over its own decisions. Off by default.
    observation : {"full", "compact"}
        ``"compact"``: only the features not constant for the scenario.

    Raises
    ------
    ValueError
        On an invalid ``render_mode``, ``view``, ``shaping`` value or ``observation``.
    TypeError
        On a non-bool ``skip_forced`` or a ``shaping`` of another type.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "atomic_africa_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, scenario=None, rules=None, render_mode=None, view: str = "relative",
                 skip_forced: bool = False, shaping=None, observation: str = "full"):
        EzPickle.__init__(self, scenario, rules, render_mode, view, skip_forced, shaping, observation)
        super().__init__()
        if not isinstance(skip_forced, (bool, np.bool_)):
            raise TypeError(f"skip_forced: expected a bool, got {type(skip_forced).__name__} {skip_forced!r}")
        self.skip_forced = bool(skip_forced)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode: {render_mode!r} is not supported; allowed None, "
                             f"{', '.join(map(repr, self.metadata['render_modes']))}")
        self.render_mode = render_mode
        self.battles = Battles(scenario, rules)
        self.game_spec = self.battles.spec          # the current episode's battle
        layout = self.battles.layout
        self.view = SideView(layout, view)
        self.shaping = shaping_config(shaping)
        self._start_figures = start_figures(self.game_spec) if self.shaping is not None else None
        self._phi = [0.0, 0.0]          # each agent's Phi at its last decision (with shaping)
        self._columns = observation_columns(layout, observation)
        self.observation = observation
        self._seeds = EpisodeSeeds()
        self.possible_agents = list(AGENT_NAMES)
        self.agents = self.possible_agents[:]
        n = self._num_actions = layout.num_actions
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation_box(layout, self._columns),
                            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8)})
            for a in self.possible_agents}
        self.game = None
        self._reset_dicts()
        self.agent_selection = self.possible_agents[0]

    def _reset_dicts(self):
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}

    def observation_space(self, agent):
        """The Dict space (``observation``, ``action_mask``) of ``agent`` (``"player_0"``/``"player_1"``)."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The Discrete action space of ``agent``."""
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Start a game: ``seed`` (non-negative int, optional) is the game seed, else the next seed of
        the episode stream (see :class:`EpisodeSeeds`); ``options`` is ignored. A game that is over
        before its first decision (a scenario may give a side no order cards) starts terminated:
        rewards and ``infos`` as at any end, and ``player_0`` selected for its dead step."""
        game_seed = self._seeds.next(seed)
        self.game_spec = self.battles.start(game_seed)
        if self.shaping is not None:
            self._start_figures = start_figures(self.game_spec)
        self.game = Game(self.game_spec, game_seed)
        self.agents = self.possible_agents[:]
        self._reset_dicts()
        self._skip_forced()
        self._phi = [self._potential(0), self._potential(1)]
        if self.game.is_over:
            self.agent_selection = self.possible_agents[0]
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]

    def _potential(self, p: int) -> float:
        if self.shaping is None or self.game.is_over:
            return 0.0
        return float(potentials(game_totals(self.game), self._start_figures, p, self.shaping))

    def _shape(self):
        """With shaping: the terms of the agents whose transition ends now (the selected one, or both
        at the end) into ``self.rewards``."""
        if self.shaping is None:
            return
        for p in ((0, 1) if self.game.is_over else (self.game.current_player,)):
            now = self._potential(p)
            self.rewards[self.possible_agents[p]] += self.shaping.gamma * now - self._phi[p]
            self._phi[p] = now

    def observe(self, agent):
        """``{"observation": float32 vector, "action_mask": int8 vector}`` for ``agent`` (the mask is
        all zeros unless ``agent`` is to act)."""
        p = self.possible_agents.index(agent)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if not self.game.is_over and agent == self.agent_selection:
            mask[self.view.action_mask(self.battles.mask(self.game.action_mask()), p)] = 1
        obs = self.view.observation(self.battles.observation(self.game.observation(p)), p)
        return {"observation": obs if self._columns is None else obs[self._columns], "action_mask": mask}

    def step(self, action):
        """Apply ``action`` (int action id) of the selected agent; an illegal one raises
        :class:`~atomic_africa.game.IllegalActionError` unwrapped (see :func:`env`), and one that is
        not one integer action id a TypeError / ValueError naming ``action``."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return self._was_dead_step(action)
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0
        # IllegalActionError (a ValueError) leaves the game unchanged
        p = self.possible_agents.index(agent)
        if self.battles.sampler is None:
            self.view.apply(self.game, action_id(action, self._num_actions), p)
        else:
            a = action_id(action, self._num_actions)
            e = self.battles.to_engine(self.view.action_to_engine(a, p)) if 0 <= a < self._num_actions else -1
            if e < 0:
                raise IllegalActionError(f"action {a}: not an action of this battle ({self.view.view} view "
                                         f"of {agent}); allowed 0..{self._num_actions - 1} where legal")
            self.game.apply(e)
        self._skip_forced()
        if self.shaping is not None:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._shape()
        if self.game.is_over:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]
            if self.shaping is not None:
                self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _skip_forced(self):
        """With ``skip_forced``: play every decision with a single legal action, counted per agent
        in ``infos[agent]["skipped"]``."""
        if not self.skip_forced:
            return
        counts = [0, 0]
        while not self.game.is_over:
            legal = self.game.legal_actions()
            if len(legal) != 1:
                break
            counts[self.game.current_player] += 1
            self.game.apply(legal[0])
        for a, k in zip(self.possible_agents, counts):
            self.infos[a] = {**self.infos.get(a, {}), "skipped": k}

    def _finish(self):
        """The game is over: every agent terminated, with its return and the result."""
        for a, r in zip(self.possible_agents, self.game.returns()):
            self.rewards[a] = r + (self.rewards[a] if self.shaping is not None else 0)
        self.terminations = dict.fromkeys(self.agents, True)
        result = self.game.result
        for a in self.agents:
            self.infos[a] = {**self.infos[a], "winner": -1 if result.winner is None else result.winner,
                             "reason": result.reason}
        self._accumulate_rewards()

    def render(self):
        """The text picture of the game with ``"ansi"``; ``"human"`` prints it; otherwise ``None``."""
        if self.render_mode is None or self.game is None:
            return None
        text = text_render(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        """Nothing to release."""
        pass


raw_env = AtomicAfricaAEC
