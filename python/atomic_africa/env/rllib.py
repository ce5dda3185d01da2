"""An RLlib multi-agent environment for self-play: both sides are agents (``"player_0"``, ``"player_1"``).

:class:`AtomicAfricaMultiAgentEnv` is a ``ray.rllib.env.multi_agent_env.MultiAgentEnv`` (RLlib's new
API stack) over the native engine (:class:`~atomic_africa.game.VectorGame` holding one game):

- Turn-based: after ``reset`` and each ``step`` only the agent to move receives an observation, and
  ``step`` takes an action from that agent only. A player often decides several times in a row
  (orders, declaration, target, destination); its next observation then follows its own action.
- Observation per agent: a Dict ``{"observations": Box, "action_mask": Box(0, 1, (num_actions,),
  float32)}``, as RLlib's action-masking example module (``ActionMaskingTorchRLModule``) expects:
  ``"observations"`` is ``game.observation(player)`` and ``"action_mask"`` 1.0 at the legal actions.
  Action: ``Discrete(num_actions)``. Observations, masks and actions are in each agent's ``view``:
  ``"relative"`` (the default: each side sees the table from its own deployment edge, so one policy
  can play both) or ``"absolute"`` (:class:`~atomic_africa.game.side_view.SideView`).
- Rewards: 0 to the agent that acted until the game ends; at the end both agents receive a final
  observation (their own view, mask all zero) and their return (+1 / -1, or 0 / 0 for a draw: the sum
  is 0), ``terminateds["__all__"]`` is True, and both infos carry ``winner`` (0, 1, -1 for a draw)
  (and ``game_seed`` with ``info_game_seed``). Games end by the turn limit in the rules, so
  ``truncateds["__all__"]`` stays False.
- An illegal action (not in the mask) ends the episode by default (``illegal_action="lose"``, as
  PettingZoo's ``TerminateIllegalWrapper``): the agent that played it receives ``illegal_reward``, the
  other 0, and its info ``illegal_action=True``; the game is left as it was. RLlib's own environment
  check steps an unmasked random action, so this is what makes it pass.
  ``illegal_action="raise"`` raises :class:`~atomic_africa.game.IllegalActionError` instead.
- Seeds: ``reset(seed=s)`` plays ``Game(scenario, VectorGame.episode_seed(s, 0, 0))`` and the k-th
  unseeded ``reset()`` after it episode k (``info["game_index"]`` is k; with ``info_game_seed``,
  ``info["game_seed"]`` replays any game alone). The game seed is hidden information (it replays the
  opponent's hand and both decks' order): the infos hold it only with ``info_game_seed=True``. The
  config's ``seed`` starts that stream before any seeded reset (fresh entropy without it); built by
  RLlib from an ``EnvContext``, each copy's stream is ``seed`` spawned by its ``(worker_index,
  vector_index)``, so copies do not play the same games. RLlib's ``config.debugging(seed=...)`` seeds
  every copy through ``reset(seed=...)`` instead.

Why the native engine rather than :class:`~atomic_africa.game.Game`: its rules and observations are
the same (checked against the Python reference in the test suite), and a masked random self-play loop
runs about 3.3 times as many steps/s on it as on the PettingZoo env over ``Game`` (11,000 against
3,400 on the default battle), which is the point of a distributed trainer; one ``VectorGame`` per
env keeps RLlib's own vectorisation (``num_envs_per_env_runner``) and its per-copy seeding unchanged.
RLlib steps those copies one by one; for the learner against a built-in opponent,
:class:`~atomic_africa.env.rllib_vector.AtomicAfricaRLlibVectorEnv` steps all of an env runner's
games in one engine call.
"""
from __future__ import annotations

from .._optional import require

require("ray.rllib", "rllib", "the RLlib environment")  # before the imports below: one line naming the extra

import numbers

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from ..game import IllegalActionError
from ..game.actions import legal_ids_text
from ..game.side_view import SideView
from ..game.native.vector import VectorGame
from ._common import AGENT_NAMES, observation_box, observation_columns, sampler_of
from ..game.native.mixed import MixedVectorGame
from .shaping import potentials, shaping_config, start_figures

__all__ = ["AtomicAfricaMultiAgentEnv", "CONFIG_KEYS"]

#: The keys of an env_config (and the constructor's keywords), with their defaults.
CONFIG_KEYS = {"scenario": None, "rules": None, "seed": None, "illegal_action": "lose",
               "illegal_reward": -1.0, "threads": 1, "view": "relative", "shaping": None,
               "skip_forced": False, "observation": "full", "info_game_seed": False}


class AtomicAfricaMultiAgentEnv(MultiAgentEnv):
    """Both sides of one game as RLlib agents (see the module notes).

    Parameters
    ----------
    config : dict or EnvContext, optional
        RLlib's env_config; keys of :data:`CONFIG_KEYS`:
        ``scenario`` (Scenario, path, dict or None: the packaged default), ``rules`` (Rules or None),
        ``seed`` (non-negative int or None), ``illegal_action`` (``"lose"`` or ``"raise"``),
        ``illegal_reward`` (float), ``threads`` (threads of the native engine; ``scenario`` may also
        be a list or a :class:`~atomic_africa.game.scenarios.ScenarioSampler`: a battle drawn per
        episode from its seed, in the sampler's padded layout), ``view``
        (``"relative"`` or ``"absolute"``), ``shaping`` (None, True, a dict or a
        :class:`~atomic_africa.env.shaping.RewardShaping`: potential-based shaping for both agents,
        each receiving ``gamma * Phi(s') - Phi(s)`` of its own potential from its last observation
        to its next one, ``Phi`` = 0 at the end, as the PettingZoo env), ``skip_forced`` (bool:
        decisions with a single legal action, of either agent, played by the env; ``infos[agent]
        ["skipped"]`` counts an agent's since its last observation) and ``observation`` (``"full"``
        or ``"compact"``: only the features not constant for the scenario), the options of the
        Gymnasium and PettingZoo envs; ``info_game_seed`` (bool: the infos of a reset and of an
        episode's end hold ``game_seed``, the game's seed; off by default, since it replays the
        opponent's hidden cards, as in the Gymnasium envs).
    **kwargs
        The same keys as keywords (they override ``config``).

    Raises
    ------
    ValueError
        On an unknown key or an invalid value (the message names the key and what is allowed).
    """

    metadata = {"render_modes": []}

    def __init__(self, config=None, **kwargs):
        super().__init__()
        opts = {**dict(config or {}), **kwargs}
        unknown = sorted(set(opts) - set(CONFIG_KEYS))
        if unknown:
            raise ValueError(f"env_config: unknown key(s) {', '.join(map(repr, unknown))}; allowed "
                             f"{', '.join(map(repr, CONFIG_KEYS))}")
        opts = {**CONFIG_KEYS, **opts}
        if opts["illegal_action"] not in ("lose", "raise"):
            raise ValueError(f"illegal_action: {opts['illegal_action']!r}; allowed 'lose', 'raise'")
        r = opts["illegal_reward"]
        if isinstance(r, (bool, np.bool_)) or not isinstance(r, numbers.Real) or not np.isfinite(r):
            raise ValueError(f"illegal_reward: expected a finite number, got {r!r}")
        self.illegal_action, self.illegal_reward = opts["illegal_action"], float(r)
        if not isinstance(opts["skip_forced"], (bool, np.bool_)):
            raise ValueError(f"skip_forced: expected a bool, got {opts['skip_forced']!r}")
        self.skip_forced = bool(opts["skip_forced"])
        if not isinstance(opts["info_game_seed"], (bool, np.bool_)):
            raise ValueError(f"info_game_seed: expected a bool, got {opts['info_game_seed']!r}")
        self.info_game_seed = bool(opts["info_game_seed"])
        self.shaping = shaping_config(opts["shaping"])
        sampler = sampler_of(opts["scenario"], opts["rules"])
        stream = self._stream_seed(opts["seed"], config)
        self.vector_game = (VectorGame(opts["scenario"], 1, stream, rules=opts["rules"], threads=opts["threads"])
                            if sampler is None else MixedVectorGame(sampler, 1, stream, threads=opts["threads"]))
        self._mixed = sampler is not None
        vg = self.vector_game
        self.view = SideView(vg.spec, opts["view"])
        self._columns = observation_columns(vg.spec, opts["observation"])
        self._start_figures = (start_figures(vg.spec) if self.shaping is not None and not self._mixed else None)
        self._phi = [0.0, 0.0]      # each agent's Phi at its last observation (with shaping)
        self._skipped = [0, 0]      # each agent's decisions skipped since its last observation
        self.agents = self.possible_agents = list(AGENT_NAMES)
        n = vg.num_actions
        space = spaces.Dict({"observations": observation_box(vg.spec, self._columns),
                             "action_mask": spaces.Box(0.0, 1.0, (n,), np.float32)})
        self.observation_spaces = {a: space for a in self.agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.agents}
        self._no_mask = np.zeros(n, dtype=np.float32)
        self._fresh = True      # the engine holds a game not yet played (at start and after a game's end)
        self._mover = None      # the agent to move; None outside an episode
        self._mask = None       # its legal actions, in its view

    @staticmethod
    def _stream_seed(seed, config) -> int:
        """The engine's episode stream: ``seed`` (spawned by RLlib's copy index), else fresh entropy."""
        if seed is not None and (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral)
                                 or seed < 0):
            raise ValueError(f"seed: expected None or a non-negative int, got {seed!r}")
        key = tuple(int(getattr(config, k, 0) or 0) for k in ("worker_index", "vector_index"))
        if seed is not None and key == (0, 0):
            return int(seed)
        ss = np.random.SeedSequence(seed, spawn_key=key) if seed is not None else np.random.SeedSequence()
        return int(ss.generate_state(1, np.uint64)[0])

    # -- helpers --------------------------------------------------------------------------------
    def _obs(self, observation, mask) -> dict:
        if self._columns is not None:
            observation = observation[self._columns]
        return {"observations": observation, "action_mask": mask}

    def _seed_info(self, info: dict) -> dict:
        """``info`` with the game's seed when ``info_game_seed`` asks for it (hidden information)."""
        if self.info_game_seed:
            info["game_seed"] = self._game_seed
        return info

    def _potential(self, p: int) -> float:
        vg = self.vector_game
        start = vg.start_figures()[0] if self._mixed else self._start_figures
        return float(potentials(vg.side_totals()[0], start, p, self.shaping))

    def _skip(self):
        """With ``skip_forced``: play every single-legal-action decision; returns the last step's
        outputs (None if nothing was played) and whether a game ended."""
        vg, last = self.vector_game, None
        while self.skip_forced:
            mask = vg.action_masks()[0]
            legal = np.flatnonzero(mask)
            if legal.size != 1:
                break
            self._skipped[int(vg.current_player[0])] += 1
            last = vg.step(legal.astype(np.int64))
            if last[2][0]:
                return last, True
        return last, False

    def _turn(self, observation) -> dict:
        """``{agent to move: its observation dict}``; ``observation``: the engine's, for that agent."""
        vg = self.vector_game
        p = int(vg.current_player[0])
        self._mover = self.agents[p]
        self._mask = self.view.action_mask(vg.action_masks()[0], p)
        return {self._mover: self._obs(self.view.observation(observation, p), self._mask.astype(np.float32))}

    def _end(self, views, returns, infos):
        """Both agents' final observations, rewards, terminateds, truncateds and infos."""
        self._mover = None
        obs = {a: self._obs(self.view.observation(views[i], i), self._no_mask.copy())
               for i, a in enumerate(self.agents)}
        rewards = {a: float(returns[i]) for i, a in enumerate(self.agents)}
        terminateds = {**dict.fromkeys(self.agents, True), "__all__": True}
        truncateds = {**dict.fromkeys(self.agents, False), "__all__": False}
        return obs, rewards, terminateds, truncateds, infos

    def _why(self, agent: str, a: int) -> str:
        n = self.vector_game.num_actions
        if not 0 <= a < n:
            return f"action_dict[{agent!r}]: action {a} is out of range; allowed 0..{n - 1}"
        shown = legal_ids_text(self._mask)
        return (f"action_dict[{agent!r}]: action {a} is not legal ({self.view.view} view of {agent}); "
                f"legal: {shown}")

    # -- RLlib API ------------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """Start a game.

        Parameters
        ----------
        seed : int, optional
            Non-negative: play episode 0 of this seed. Without it, the next episode of the stream.
        options : dict, optional
            Ignored.

        Returns
        -------
        (dict, dict)
            The observation and info (``game_index``; ``game_seed`` with ``info_game_seed``) of the
            agent to move.
        """
        vg = self.vector_game
        if seed is not None:
            vg.reset(seed=seed)   # VectorGame checks the seed and names it
        elif not self._fresh:
            vg.reset()
        self._fresh = False
        self._game_seed = int(vg.episode_seeds[0])
        self._skipped = [0, 0]
        # a game whose forced opening decisions end it is replaced, as one over before any decision
        for _ in range(64):
            _, ended = self._skip()
            if not ended:
                break
            self._skipped = [0, 0]
            self._game_seed = int(vg.episode_seeds[0])
        if self.shaping is not None:
            self._phi = [self._potential(0), self._potential(1)]
        obs = self._turn(vg.observations()[0])
        info = self._seed_info({"game_index": int(vg.episodes[0])})
        if self.skip_forced:
            info["skipped"] = self._skipped[int(vg.current_player[0])]
            self._skipped[int(vg.current_player[0])] = 0
        return obs, {self._mover: info}

    def step(self, action_dict):
        """Apply the action of the agent to move.

        Parameters
        ----------
        action_dict : dict
            ``{agent_to_move: action}`` (an int action id).

        Returns
        -------
        (dict, dict, dict, dict, dict)
            Observations, rewards, terminateds, truncateds, infos (see the module notes).

        Raises
        ------
        RuntimeError
            Before :meth:`reset` or after the episode has ended.
        ValueError
            If ``action_dict`` is not one action of the agent to move.
        IllegalActionError
            On an illegal action with ``illegal_action="raise"`` (nothing changes).
        """
        if self._mover is None:
            raise RuntimeError("step() called outside an episode; call reset()")
        agent = self._mover
        if not isinstance(action_dict, dict) or list(action_dict) != [agent]:
            keys = list(action_dict) if isinstance(action_dict, dict) else type(action_dict).__name__
            raise ValueError(f"action_dict: expected {{{agent!r}: action}} (the agent to move only), got {keys}")
        a = action_dict[agent]
        if isinstance(a, np.ndarray) and a.shape == ():
            a = a.item()
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, numbers.Integral):
            raise ValueError(f"action_dict[{agent!r}]: expected an int action id, got {type(a).__name__} {a!r}")
        vg, a, p = self.vector_game, int(a), self.agents.index(agent)
        if not (0 <= a < vg.num_actions and self._mask[a]):
            if self.illegal_action == "raise":
                raise IllegalActionError(self._why(agent, a))
            views = [vg.observations(player=q)[0] for q in (0, 1)]
            returns = [self.illegal_reward if x == agent else 0.0 for x in self.agents]
            infos = {x: self._seed_info({}) for x in self.agents}
            infos[agent]["illegal_action"] = True
            return self._end(views, returns, infos)
        obs, rewards, term, _, info = vg.step(np.array([self.view.action_to_engine(a, p)], dtype=np.int64))
        if not term[0]:
            last, ended = self._skip()
            if last is not None:
                obs, rewards, term, _, info = last
        if term[0]:
            self._fresh = True   # the engine has already started the next game
            winner = int(info["winner"][0])
            infos = {x: self._seed_info({"winner": winner}) for x in self.agents}
            returns = [float(x) for x in rewards[0]]
            if self.shaping is not None:      # Phi(terminal) = 0
                returns = [r - self._phi[q] for q, r in enumerate(returns)]
            if self.skip_forced:
                for q, x in enumerate(self.agents):
                    infos[x]["skipped"] = self._skipped[q]
                self._skipped = [0, 0]
            return self._end(info["final_observation"][0], returns, infos)
        turn = self._turn(obs[0])
        q = int(vg.current_player[0])
        reward = {agent: 0.0}
        if self.shaping is not None:        # the agent now to move: its transition since its last observation
            now = self._potential(q)
            reward[self.agents[q]] = reward.get(self.agents[q], 0.0) + self.shaping.gamma * now - self._phi[q]
            self._phi[q] = now
        infos = {}
        if self.skip_forced:
            infos = {self.agents[q]: {"skipped": self._skipped[q]}}
            self._skipped[q] = 0
        return turn, reward, {"__all__": False}, {"__all__": False}, infos
