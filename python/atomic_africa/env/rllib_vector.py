"""A batched RLlib environment: ``num_envs`` games stepped by one engine call per RLlib env step.

:class:`AtomicAfricaRLlibVectorEnv` is a Gymnasium ``VectorEnv`` in the layout RLlib's
``SingleAgentEnvRunner`` (new API stack) steps: the learner plays one side of every game against a
built-in (or batched callable) opponent, as in
:class:`~atomic_africa.env.gymnasium_vector.AtomicAfricaVectorEnv`, whose engine calls it makes. RLlib
builds it once per env runner, with ``num_envs`` set to ``num_envs_per_env_runner``, when the config
says the env class already returns a vector env::

    config = (PPOConfig()
              .environment(AtomicAfricaRLlibVectorEnv, env_config={"opponent": "random"})
              .env_runners(num_envs_per_env_runner=256, gym_env_vectorize_mode="vector_entry_point")
              .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule)))

(With RLlib's default ``"sync"`` mode RLlib would build one env per game and step them one by one:
the constructor refuses that, naming the setting.) What differs from ``AtomicAfricaVectorEnv``:

- Observation per env: a Dict ``{"observations": Box float32, "action_mask": Box(0, 1,
  (num_actions,), uint8)}``, the form RLlib's action-masking module (``ActionMaskingTorchRLModule``,
  in ``ray.rllib.examples``) reads: ``"observations"`` is the vector env's observation (learner's
  ``view``, ``observation="compact"`` if asked), ``"action_mask"`` 1 at the legal actions. The mask
  is the engine's own bytes (uint8: a float32 copy would cost a fifth of the step; torch's ``log``
  of it is the float mask's).
- Autoreset: :attr:`gymnasium.vector.AutoresetMode.NEXT_STEP`, the mode RLlib's env runner expects.
  A game that ends in a step returns its final observation (mask all zero), its reward and
  ``terminated``; at the next step that env ignores its action and returns the first observation of
  its next game (reward 0), which the engine had already started and played to the learner's turn.
- Infos: only what is asked for, empty by default. RLlib's ``DictInfoToList`` makes one Python dict
  per env and step and loops over every env for each key (a key present at every step would cost
  the step more than a tenth), and the reward already tells a game's end (+1 / -1 / 0 without
  shaping). With ``info_winner=True``: ``winner`` (0, 1, -1 for a draw) where a game ended; with
  ``player="random"``: ``player`` (the learner's side) where a game ended or started (a reset, or
  the step after an end); with ``info_game_seed=True``: ``game_seed`` there too; with
  ``skip_forced=True``: ``skipped`` at every step. Each key comes with its ``_`` mask.
- An illegal action raises :class:`~atomic_africa.game.IllegalActionError` and changes nothing, as
  in the vector env: use a masking module (RLlib's ``random_actions`` sampling ignores masks).

Seeds: ``reset(seed=s)`` starts env ``i`` at ``Game(scenario, VectorGame.episode_seed(s, i, 0))``,
and each env's next games follow (RLlib seeds its first reset with ``config.debugging(seed=...)``
plus the runner's index; without a seed the games come from fresh entropy).
"""
from __future__ import annotations

from .._optional import require

require("gymnasium", "gym", "AtomicAfricaRLlibVectorEnv")  # before the imports below: one line naming the extra

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ._common import check_flag
from .gymnasium_vector import AtomicAfricaVectorEnv

__all__ = ["AtomicAfricaRLlibVectorEnv", "CONFIG_KEYS"]

#: The keys of an env_config (and the constructor's keywords): those of AtomicAfricaVectorEnv, and
#: ``info_winner``.
CONFIG_KEYS = ("num_envs", "scenario", "player", "rules", "opponent", "threads", "view", "shaping",
               "skip_forced", "observation", "info_game_seed", "search", "info_winner")


class AtomicAfricaRLlibVectorEnv(AtomicAfricaVectorEnv):
    """``num_envs`` games of the learner against ``opponent`` for RLlib's single-agent env runner.

    Parameters
    ----------
    config : dict or EnvContext, optional
        RLlib's env_config, with ``num_envs`` (RLlib adds ``num_envs_per_env_runner`` in
        ``"vector_entry_point"`` mode); keys of :data:`CONFIG_KEYS`, meaning what
        :class:`~atomic_africa.env.gymnasium_vector.AtomicAfricaVectorEnv` makes of them, and
        ``info_winner`` (bool, default False: ``winner`` in the info where a game ended).
    **kwargs
        The same keys as keywords (they override ``config``).

    Attributes
    ----------
    single_observation_space : gymnasium.spaces.Dict
        ``{"observations": Box float32, "action_mask": Box(0, 1, (num_actions,), uint8)}``.

    Raises
    ------
    ValueError
        On an unknown key, a missing ``num_envs`` (RLlib's ``"sync"`` vectorize mode), or any value
        the vector env refuses (the message names it).
    TypeError
        As the vector env raises it.
    """

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, config=None, **kwargs):
        opts = {**dict(config or {}), **kwargs}
        unknown = sorted(set(opts) - set(CONFIG_KEYS))
        if unknown:
            raise ValueError(f"env_config: unknown key(s) {', '.join(map(repr, unknown))}; allowed "
                             f"{', '.join(map(repr, CONFIG_KEYS))}")
        if "num_envs" not in opts:
            raise ValueError("num_envs: missing. This class is a vector env: give RLlib "
                             "config.env_runners(gym_env_vectorize_mode='vector_entry_point', "
                             "num_envs_per_env_runner=N), which passes num_envs=N (RLlib's default "
                             "'sync' mode would build and step one env per game)")
        self.info_winner = check_flag(opts.pop("info_winner", False), "info_winner")
        super().__init__(**opts)
        n = self.vector_game.num_actions
        self.single_observation_space = spaces.Dict({
            "observations": self.single_observation_space,
            "action_mask": spaces.Box(0, 1, (n,), np.uint8)})
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._pending = None    # bool (num_envs,): games that ended at the last step (None: none)

    def _lean_info(self, starting, skipped, ended=None, out=None, finished_seeds=None) -> dict:
        """The info of a reset or step (see the module notes): start entries at ``starting``, end
        entries at ``ended`` (bool arrays or None; ``out`` holds the finished games' winners and
        learner sides, ``finished_seeds`` their seeds), ``skipped`` everywhere with ``skip_forced``."""
        info = {}
        if ended is not None and self.info_winner:
            info["winner"], info["_winner"] = out.winners, ended     # 0 where no game ended
        if self.player != "random" and not self.info_game_seed:
            both = None
        else:
            both = ended if starting is None else (starting if ended is None else ended | starting)
        if both is not None and self.player == "random":
            player = self.players.copy()
            if ended is not None:
                player[ended] = out.final_players[ended]
            info["player"], info["_player"] = player, both
        if both is not None and self.info_game_seed:
            seeds = self._seeds.copy()
            if ended is not None:
                seeds[ended] = finished_seeds[ended]
            info["game_seed"], info["_game_seed"] = seeds, both
        if self.skip_forced:
            info["skipped"], info["_skipped"] = skipped, self._ones.copy()
        return info

    def _observation(self, obs, masks) -> dict:
        return {"observations": obs, "action_mask": masks.view(np.uint8)}

    def reset(self, *, seed=None, options=None):
        """Start a game in every env; the opponent moves until it is the learner's turn in each.

        Parameters
        ----------
        seed : int, optional
            Env ``i`` plays ``Game(scenario, VectorGame.episode_seed(seed, i, 0))``; without it
            every env starts its next game.
        options : dict, optional
            As the vector env takes it (no partial reset).

        Returns
        -------
        (dict of ndarray, dict)
            Observations ``{"observations": (num_envs, obs_size) float32, "action_mask":
            (num_envs, num_actions) uint8}`` and the start info (see the module notes).
        """
        obs, full = super().reset(seed=seed, options=options)
        self._pending = None
        return (self._observation(obs, self._masks),
                self._lean_info(self._ones, full.get("skipped")))

    def step(self, actions):
        """Apply the learner's action in every game but those that ended at the last step, then the
        opponent's until the learner decides again in each; those that ended start their next game.

        Parameters
        ----------
        actions : array-like of int, shape (num_envs,)
            One legal action per game (ignored, any value, in the envs whose game ended at the
            last step).

        Returns
        -------
        (dict of ndarray, ndarray of float64, ndarray of bool, ndarray of bool, dict)
            Observations (a game that ended: its final one, mask all zero; the step after: its next
            game's first), rewards, terminated, truncated (always False) and the lean info.

        Raises
        ------
        RuntimeError
            Before :meth:`reset`.
        ValueError, TypeError
            If ``actions`` has the wrong shape or is not integer.
        IllegalActionError
            If an action is illegal in its game (nothing changes in any game).
        """
        pending = self._pending
        obs, out, finished_seeds = self._learner_turn(actions, pending)
        ended = out.ended
        if np.count_nonzero(ended):
            idx = np.flatnonzero(ended)
            final_obs = out.final_obs
            for i in idx.tolist():          # the finished games' last views
                obs[i] = final_obs[i]
            self._masks[idx] = False     # nothing is legal there; the next step ignores them
            self._pending = ended.copy()     # the returned array is the caller's
        else:
            ended = self._pending = None
        info = self._lean_info(pending, out.skipped if self.skip_forced else None, ended, out, finished_seeds)
        return (self._observation(obs, self._masks), out.reward,
                out.ended, np.zeros(self.num_envs, dtype=bool), info)
