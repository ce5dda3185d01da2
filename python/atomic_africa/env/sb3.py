"""A stable-baselines3 ``VecEnv`` over the native vector environment.

:class:`AtomicAfricaSB3VecEnv` presents :class:`~atomic_africa.env.gymnasium_vector.AtomicAfricaVectorEnv`
(``num_envs`` games of a learner against a built-in or callable opponent, stepped together by the
native engine) in stable-baselines3's conventions, so that ``PPO``, sb3-contrib's ``MaskablePPO``,
``VecMonitor``, ``VecNormalize`` and ``evaluate_policy`` take it as it is:

- ``reset()`` returns the observations only (their infos are kept in ``reset_infos``); a seed is
  given beforehand with :meth:`~AtomicAfricaSB3VecEnv.seed` and used by the next ``reset()``.
- ``step_wait()`` returns ``(observations, rewards, dones, infos)``: ``dones`` is ``terminated |
  truncated``, ``infos`` a list of one dict per game. Games that end are replaced in the same step
  (the vector env's same-step autoreset), which is what SB3 expects: the returned observation is the
  new game's, and the finished game's last observation is ``infos[i]["terminal_observation"]``, with
  ``infos[i]["TimeLimit.truncated"]`` (True where the game was truncated rather than terminated) and
  ``infos[i]["final_info"]`` (the vector env's ``final_info`` of that game: ``winner``, 0, 1 or -1 for
  a draw; the learner's ``player``; ``game_seed`` with ``info_game_seed=True``).
  Every other entry of the vector env's info (``game_index`` of the game now being played, its
  ``game_seed`` with ``info_game_seed=True``, ...) is given per env where its ``_`` mask is set; the
  action masks are not copied there. The game seed is hidden information (it replays the opponent's
  hand and both decks' order): off by default, as in the vector env.
- :meth:`~AtomicAfricaSB3VecEnv.action_masks` returns the learner's legal actions, shape
  (num_envs, num_actions), and ``env_method("action_masks")`` one row per game (views of a buffer
  the engine writes the masks into at every step: valid until the next step or reset; copy them to
  keep them): the way sb3-contrib's ``get_action_masks`` and ``is_masking_supported`` find them on a
  ``VecEnv``.

The games share one batched environment, so ``get_attr`` returns the vector env's attribute once per
requested game, ``set_attr`` sets it for all games only (a per-game value is refused), ``env_method``
calls only the per-game methods (:attr:`AtomicAfricaSB3VecEnv.PER_GAME_METHODS`), and
``env_is_wrapped`` is False everywhere (no per-game Gymnasium wrappers exist).
"""
from __future__ import annotations

from .._optional import require

require("stable_baselines3", "sb3", "AtomicAfricaSB3VecEnv")  # before the imports below: one line naming the extra

import numbers
import operator

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from .gymnasium_vector import AtomicAfricaVectorEnv
from ..game.native.vector import VectorGame

__all__ = ["AtomicAfricaSB3VecEnv"]

class _MaskRows(np.ndarray):
    """The action masks as ``env_method("action_masks")`` gives them: one row per game, views of one
    (num_envs, num_actions) buffer. sb3-contrib's ``get_action_masks`` stacks the rows again with
    ``np.stack``; for exactly these rows (the list the adapter returned, in order) this type answers
    ``np.stack`` with a copy of the buffer, in one step instead of one per row. Everything else is
    plain numpy."""

    def __array_function__(self, func, types, args, kwargs):
        if func is np.stack and len(args) == 1 and not kwargs and type(args[0]) is list:
            rows = args[0]
            base = rows[0].base if rows else None
            if base is not None and len(rows) == len(getattr(base, "_rows", ())) \
                    and all(map(operator.is_, rows, base._rows)):
                return base.view(np.ndarray).copy()
        return super().__array_function__(func, types, args, kwargs)


class AtomicAfricaSB3VecEnv(VecEnv):
    """``num_envs`` games of the learner against ``opponent``, as a stable-baselines3 ``VecEnv``.

    Parameters
    ----------
    num_envs, scenario, opponent, player, rules
        As :class:`~atomic_africa.env.gymnasium_vector.AtomicAfricaVectorEnv` takes them.
    info_game_seed : bool
        ``True``: each env's info holds ``game_seed`` (and its ``final_info`` the finished game's), as
        the vector env's option. Off by default: a seed replays the opponent's hidden cards.
    seed : int, optional
        Seed of the first ``reset()`` (as :meth:`seed` would set it); without it the first games come
        from fresh entropy.
    **env_kwargs
        Passed to :class:`~atomic_africa.env.gymnasium_vector.AtomicAfricaVectorEnv` unchanged
        (``threads``, ...).

    Attributes
    ----------
    vector_env : AtomicAfricaVectorEnv
        The native vector environment underneath.
    observation_space, action_space : gymnasium.Space
        One game's spaces (SB3's convention for a ``VecEnv``).

    Raises
    ------
    ValueError, TypeError
        As the vector env raises them, naming the argument; on an invalid ``seed``.
    """

    #: The methods ``env_method`` calls per game: their result has one row per game.
    PER_GAME_METHODS = ("action_masks",)

    def __init__(self, num_envs: int = 1, scenario=None, opponent="random", player=0, rules=None,
                 seed=None, info_game_seed: bool = False, **env_kwargs):
        venv = AtomicAfricaVectorEnv(num_envs=num_envs, scenario=scenario, opponent=opponent, player=player,
                                     rules=rules, info_game_seed=info_game_seed, **env_kwargs)
        self._wrap(venv, seed)

    @classmethod
    def from_vector_env(cls, vector_env: AtomicAfricaVectorEnv, seed=None) -> AtomicAfricaSB3VecEnv:
        """Present an existing vector env to SB3 (it is used, not copied: do not step it directly).

        Parameters
        ----------
        vector_env : AtomicAfricaVectorEnv
            The environment (not wrapped by Gymnasium's vector wrappers: their infos differ).
        seed : int, optional
            Seed of the first ``reset()``.

        Returns
        -------
        AtomicAfricaSB3VecEnv

        Raises
        ------
        TypeError
            If ``vector_env`` is not an :class:`AtomicAfricaVectorEnv`.
        """
        if not isinstance(vector_env, AtomicAfricaVectorEnv):
            raise TypeError(f"vector_env: expected an AtomicAfricaVectorEnv, got {type(vector_env).__name__}")
        if vector_env.metadata.get("autoreset_mode") is not AutoresetMode.SAME_STEP:
            raise ValueError(f"vector_env: a {type(vector_env).__name__} resets games at the next step; "
                             f"SB3 needs the same-step autoreset of AtomicAfricaVectorEnv")
        self = cls.__new__(cls)
        self._wrap(vector_env, seed)
        return self

    def _wrap(self, venv: AtomicAfricaVectorEnv, seed) -> None:
        seed = self._check_seed(seed)
        self.vector_env = venv
        self._actions = None
        self._dicts = None          # each env's dict of its current game's entries (see _entries)
        self._skipped = None        # with skip_forced: the counts in those dicts
        self._link_mask_buffer()
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)
        self._next_seed = seed

    def _link_mask_buffer(self) -> None:
        """The buffer the engine writes the learner's masks into at every step (the vector env's
        ``_mask_out``), and its row views, made once: ``env_method("action_masks")`` hands out these
        rows, with no copy (:class:`_MaskRows`)."""
        venv = self.vector_env
        buf = self._mask_buffer = np.zeros((venv.num_envs, venv.vector_game.num_actions),
                                           dtype=bool).view(_MaskRows)
        buf._rows = list(buf)
        venv._mask_out = buf.view(np.ndarray)

    @staticmethod
    def _check_seed(seed):
        if seed is None:
            return None
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
            raise ValueError(f"seed: expected None or a non-negative int, got {seed!r}")
        return int(seed)

    # -- stepping -------------------------------------------------------------------------------
    def seed(self, seed=None) -> list:
        """Seed the next ``reset()``: game ``k`` of env ``i`` is then
        ``Game(scenario, VectorGame.episode_seed(seed, i, k))``.

        Parameters
        ----------
        seed : int, optional
            Non-negative; ``None`` leaves the next ``reset()`` unseeded (it starts every env's next
            game; no global random state is drawn from).

        Returns
        -------
        list
            The game seed of each env's first game after the next ``reset()`` (``None`` each
            without a seed).
        """
        seed = self._check_seed(seed)
        self._next_seed = seed
        if seed is None:
            return [None] * self.num_envs
        return [VectorGame.episode_seed(seed, i, 0) for i in range(self.num_envs)]

    def set_options(self, options=None) -> None:
        """Reset options are not supported (the vector env takes none); ``None`` or ``{}`` is accepted.

        Raises
        ------
        ValueError
            On any non-empty options.
        """
        if options is None or options == {} or (isinstance(options, list) and not any(options)):
            return
        raise ValueError(f"options: {options!r} is not supported; the native vector env takes no reset options")

    def reset(self) -> np.ndarray:
        """Start a game in every env (seeded by the last :meth:`seed`, if any, which is then used up).

        Returns
        -------
        ndarray of float32, shape (num_envs, obs_size)
            The learner's observations; ``reset_infos`` holds one info dict per env.
        """
        obs, info = self.vector_env.reset(seed=self._next_seed)
        self._next_seed = None
        self._actions = None
        self._skipped = info.get("skipped")
        self._dicts = self._entries(range(self.num_envs))
        self.reset_infos = list(self._dicts)
        return obs

    def step_async(self, actions) -> None:
        """Keep the actions (one per env) for :meth:`step_wait`."""
        self._actions = actions

    def step_wait(self):
        """Step every game with the actions given to :meth:`step_async`.

        Returns
        -------
        (ndarray of float32, ndarray of float32, ndarray of bool, list of dict)
            Observations (num_envs, obs_size) (a finished game's replacement), rewards, dones
            (terminated or truncated) and one info dict per env (see the module notes).

        Raises
        ------
        RuntimeError
            Without a pending :meth:`step_async`, or before :meth:`reset`.
        ValueError, TypeError, IllegalActionError
            As :meth:`AtomicAfricaVectorEnv.step` raises them (nothing changes).
        """
        if self._actions is None:
            raise RuntimeError("step_wait() called without step_async(actions)")
        actions, self._actions = self._actions, None
        # the vector env's step without its info dict: the infos are made here, per env
        obs, out, finished_seeds = self.vector_env._learner_turn(actions)
        return obs, out.reward.astype(np.float32), out.ended, self._infos(out, finished_seeds)

    def _entries(self, envs) -> list:
        """The dicts of the entries every env's info has, for the envs ``envs`` (a range or a list):
        ``game_seed`` (with ``info_game_seed``), ``game_index``, ``player`` and ``skipped`` (with
        ``skip_forced``) of each one's current game, as the vector env's info gives them."""
        venv = self.vector_env
        rows = envs if isinstance(envs, range) else np.asarray(envs, dtype=np.int64)
        columns = {}
        if venv.info_game_seed:
            columns["game_seed"] = venv._seeds[rows].tolist()
        columns["game_index"] = venv.vector_game.episodes[rows].tolist()
        columns["player"] = venv.players[rows].tolist()
        if venv.skip_forced:
            columns["skipped"] = self._skipped[rows].tolist()
        keys = tuple(columns)
        return [dict(zip(keys, row)) for row in zip(*columns.values())]

    def _infos(self, out, finished_seeds) -> list:
        """SB3's list of per-env info dicts after a step, at a cost that does not grow with the
        number of envs where no game ended. Each env keeps the dict of its current game's entries
        (:meth:`_entries`), made again only where a game ended (or, with ``skip_forced``, the count
        changed): the dict of a game still running may be the same object as at the last step, so
        copy it before changing it (as SB3's ``VecMonitor`` does). A finished game's env gets a new
        dict: its next game's entries, ``terminal_observation``, ``TimeLimit.truncated`` (False:
        games end by the turn limit in the rules) and ``final_info`` (``winner``, ``game_seed`` with
        ``info_game_seed``, ``player``: the vector env's ``final_info``)."""
        ended = out.ended
        changed = ended
        if self.vector_env.skip_forced:
            changed = changed | (out.skipped != self._skipped)
            self._skipped = out.skipped
        envs = np.flatnonzero(changed).tolist()
        if envs:
            for i, d in zip(envs, self._entries(envs)):
                self._dicts[i] = d
        infos = list(self._dicts)
        if not envs:
            return infos
        seeds = self.vector_env.info_game_seed
        for i in np.flatnonzero(ended).tolist():
            final = {"winner": int(out.winners[i])}
            if seeds:
                final["game_seed"] = int(finished_seeds[i])
            final["player"] = int(out.final_players[i])
            infos[i] = {**infos[i], "final_info": final, "terminal_observation": out.final_obs[i],
                        "TimeLimit.truncated": False}
        return infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game.

        Returns
        -------
        ndarray of bool, shape (num_envs, num_actions)
            All False before :meth:`reset`.
        """
        return self.vector_env.action_masks()

    def __getstate__(self):
        d = dict(self.__dict__)
        d["_mask_buffer"] = None        # made again on unpickling (its row list is not pickled)
        return d

    def __setstate__(self, d):
        self.__dict__.update(d)
        masks = self.vector_env._masks
        self._link_mask_buffer()
        if masks is not None:           # the unpickled env's current masks, in the new buffer
            np.copyto(self._mask_buffer.view(np.ndarray), masks)
            self.vector_env._masks = self.vector_env._mask_out

    def close(self) -> None:
        """Close the vector env."""
        self.vector_env.close()

    # -- the per-env interface of a VecEnv, over one batched env --------------------------------
    def _indices(self, indices) -> list:
        if indices is None:
            return range(self.num_envs)
        idx = list(self._get_indices(indices))
        for i in idx:
            if isinstance(i, (bool, np.bool_)) or not isinstance(i, numbers.Integral) \
                    or not 0 <= i < self.num_envs:
                raise IndexError(f"indices: {i!r} is not an env index; allowed 0..{self.num_envs - 1}")
        return [int(i) for i in idx]

    def get_attr(self, attr_name: str, indices=None) -> list:
        """The vector env's attribute ``attr_name`` (shared by every game), once per requested env.

        Raises
        ------
        AttributeError
            If the vector env has no such attribute (so ``has_attr`` is False).
        """
        value = getattr(self.vector_env, attr_name)
        return [value] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        """Set the vector env's attribute ``attr_name`` for every game.

        Raises
        ------
        ValueError
            If ``indices`` is not every env (the games share one environment).
        """
        idx = self._indices(indices)
        if sorted(set(idx)) != list(range(self.num_envs)):
            raise ValueError(f"indices: {indices!r}; the games share one batched environment, so "
                             f"{attr_name!r} can only be set for all of them (indices=None)")
        setattr(self.vector_env, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        """Call the per-game method ``method_name`` (:attr:`PER_GAME_METHODS`): one result per env.

        Raises
        ------
        ValueError
            For any other method (call it on ``vector_env``, which holds every game).
        """
        if method_name not in self.PER_GAME_METHODS:
            raise ValueError(f"method_name: {method_name!r} is not a per-game method; allowed "
                             f"{', '.join(map(repr, self.PER_GAME_METHODS))} (other methods act on "
                             f"all games at once: call them on .vector_env)")
        venv = self.vector_env
        if indices is None and not method_args and not method_kwargs and venv._masks is not None \
                and venv._masks is venv._mask_out:
            # the rows of the buffer the engine wrote the masks into: valid until the next step or
            # reset, which overwrites the buffer (np.stack of them is a copy, as sb3-contrib needs)
            return list(self._mask_buffer._rows)
        rows = getattr(self.vector_env, method_name)(*method_args, **method_kwargs)
        return [rows[i] for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list:
        """False for every env: the games are rows of one native env, never wrapped one by one."""
        return [False] * len(self._indices(indices))

    def get_images(self):
        """Not available: the games have no pictures (replay a game's seed with a ``Game``)."""
        raise NotImplementedError("get_images: the games are not rendered; replay a game's seed "
                                  "(info['game_seed'] with info_game_seed=True) with atomic_africa.Game "
                                  "for a text picture")
