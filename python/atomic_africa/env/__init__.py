"""Reinforcement-learning adapters over the game: PettingZoo, Gymnasium, stable-baselines3, RLlib and
OpenSpiel.

- :mod:`.pettingzoo_env`: the PettingZoo AEC environment (``env()``, ``raw_env``) [pettingzoo].
- :mod:`.gymnasium_env`: :class:`AtomicAfricaEnv`, one side against a built-in opponent, registered
  as ``"AtomicAfrica-v0"`` [gymnasium].
- :mod:`.gymnasium_vector`: :class:`AtomicAfricaVectorEnv`, its batched twin over the native
  ``VectorGame`` (``gymnasium.make_vec("AtomicAfrica-v0", num_envs=n)``) [gymnasium].
- :mod:`.sampling`: :func:`masked_sample`, one uniformly random legal action per game of a batch
  (numpy only).
- :mod:`.shaping`: :class:`RewardShaping`, the potential-based reward shaping both Gymnasium envs
  offer (``shaping=``, off by default).
- :mod:`.sb3`: :class:`AtomicAfricaSB3VecEnv`, the vector env as a stable-baselines3 ``VecEnv``
  (masks for sb3-contrib's ``MaskablePPO``) [sb3].
- :mod:`.rllib`: :class:`AtomicAfricaMultiAgentEnv`, both sides as RLlib agents for self-play, masks
  in the observation as RLlib's action-masking module expects [rllib].
- :mod:`.rllib_vector`: :class:`AtomicAfricaRLlibVectorEnv`, the vector env in the layout of RLlib's
  single-agent env runner (next-step autoreset, masks in the observation): RLlib steps all the
  games of an env runner in one engine call [gym; used with rllib].
- :mod:`.open_spiel`: the game registered with ``pyspiel`` as ``"atomic_africa"`` (import it), for
  OpenSpiel's algorithms; :class:`~.open_spiel.OpenSpielISMCTSAgent`, OpenSpiel's ISMCTS bot as an
  agent of this package [open_spiel].

The native engine these run on is :class:`atomic_africa.game.VectorGame`; the built-in agents
are in :mod:`atomic_africa.agents`, the self-play job in :mod:`atomic_africa.selfplay`.

The adapters import their optional dependencies only when used; a missing one raises
:class:`~atomic_africa.MissingExtraError` (an ImportError) naming the extra that installs it
(``pip install 'atomic-africa[gym]'``, ``[pettingzoo]``, ``[ray]``, ``[parquet]``, ``[sb3]``, ``[rllib]``,
``[open_spiel]``;
``[rl]``: the first four).
"""
from __future__ import annotations

import importlib

from .._gymnasium import ENV_ID  # registered with Gymnasium by `import atomic_africa`

__all__ = ["ENV_ID", "AtomicAfricaEnv",
           "AtomicAfricaAEC", "pettingzoo_env", "gymnasium_env", "AtomicAfricaVectorEnv",
           "gymnasium_vector", "RewardShaping", "masked_sample", "AtomicAfricaSB3VecEnv", "AtomicAfricaMultiAgentEnv",
           "AtomicAfricaRLlibVectorEnv"]

_LAZY = {"AtomicAfricaEnv": ("gymnasium_env", "AtomicAfricaEnv"),
         "AtomicAfricaAEC": ("pettingzoo_env", "AtomicAfricaAEC"),
         "pettingzoo_env": ("pettingzoo_env", None), "gymnasium_env": ("gymnasium_env", None),
         "AtomicAfricaVectorEnv": ("gymnasium_vector", "AtomicAfricaVectorEnv"),
         "gymnasium_vector": ("gymnasium_vector", None),
         "RewardShaping": ("shaping", "RewardShaping"),
         "masked_sample": ("sampling", "masked_sample"),
         "AtomicAfricaSB3VecEnv": ("sb3", "AtomicAfricaSB3VecEnv"),
         "AtomicAfricaMultiAgentEnv": ("rllib", "AtomicAfricaMultiAgentEnv"),
         "AtomicAfricaRLlibVectorEnv": ("rllib_vector", "AtomicAfricaRLlibVectorEnv")}


def __getattr__(name):
    if name in _LAZY:
        mod, attr = _LAZY[name]
        m = importlib.import_module(f".{mod}", __name__)
        return m if attr is None else getattr(m, attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
