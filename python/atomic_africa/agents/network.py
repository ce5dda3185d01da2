"""Policy-value networks in numpy: the evaluators of the network-guided search, with no deep-learning
framework at play time.

A network file is an ``.npz`` written by :func:`save_mlp` (``examples/alphazero.py`` exports its torch
network so): a multilayer perceptron on the observation of the player to move, ``h = relu(x W + b)``
per hidden layer, then a policy head (logits ``h Wp + bp``, a softmax over the legal actions) and a
value head (``tanh(h Wv + bv)``, the expected outcome for the player to move). :class:`MLPEvaluator`
answers the search's evaluator contract (:mod:`atomic_africa.agents.puct`); :class:`NetworkAgent`
plays the network alone (its most probable legal action).
"""
from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

import numpy as np

from .. import _validate as v
from .._atomic_write import replaced_atomically
from .._limits import MAX_THREADS

__all__ = ["DEFAULT_NETWORK", "MLPEvaluator", "NetworkAgent", "save_mlp", "load_evaluator"]

#: The packaged network (trained by ``examples/alphazero.py`` on the default battle).
DEFAULT_NETWORK = "alphazero_default.npz"


def save_mlp(path, hidden, policy, value, meta=None) -> Path:
    """Write a policy-value MLP as a network file (atomically: a temporary name, then renamed).

    Parameters
    ----------
    path : str or Path
    hidden : sequence of (W, b)
        The hidden layers in order, ``W`` of shape ``(in, out)``.
    policy, value : (W, b)
        The heads: ``(h, num_actions)`` and ``(h, 1)``.
    meta : dict, optional
        JSON-serialisable facts kept with the weights (``observation_size`` and ``num_actions`` are
        added).

    Returns
    -------
    Path
    """
    arrays = {}
    for i, (w, b) in enumerate(hidden):
        arrays[f"hidden_W_{i}"], arrays[f"hidden_b_{i}"] = np.asarray(w, np.float32), np.asarray(b, np.float32)
    arrays["policy_W"], arrays["policy_b"] = np.asarray(policy[0], np.float32), np.asarray(policy[1], np.float32)
    arrays["value_W"], arrays["value_b"] = np.asarray(value[0], np.float32), np.asarray(value[1], np.float32)
    first = arrays["hidden_W_0"] if hidden else arrays["policy_W"]
    info = {**(meta or {}), "observation_size": int(first.shape[0]), "num_actions": int(arrays["policy_W"].shape[1])}
    arrays["meta"] = np.array(json.dumps(info, sort_keys=True))
    path = Path(path)
    with replaced_atomically(path) as tmp:
        with open(tmp, "wb") as f:   # a file object: np.savez would add ".npz" to a temporary name
            np.savez(f, **arrays)
    return path


class MLPEvaluator:
    """A network file as an evaluator: ``evaluator(observations, masks) -> (priors, values)``.

    Parameters
    ----------
    path : str or Path
        A file :func:`save_mlp` wrote.
    blas_threads : int or None
        Threads the matrix products may use during a call (default 1; None: BLAS's own setting). The
        search's batches are small matrices: on a busy machine BLAS's threads wait for each other and
        made them 10-15 times slower than one thread (threadpoolctl limits them during the call only).

    Raises
    ------
    ValueError
        If the file is not a network file (named, with what is missing or inconsistent).
    """

    def __init__(self, path, blas_threads=1):
        if blas_threads is not None:
            blas_threads = v.as_int(blas_threads, "blas_threads", lo=1, hi=MAX_THREADS)
        self.blas_threads = blas_threads
        self._limiter = None
        self.path = Path(path)
        try:
            with np.load(self.path, allow_pickle=False) as z:
                d = {k: z[k] for k in z.files}
        except (OSError, ValueError) as e:
            raise ValueError(f"network: cannot read {str(self.path)!r} as a network file ({e})") from None
        missing = [k for k in ("policy_W", "policy_b", "value_W", "value_b", "meta") if k not in d]
        if missing:
            raise ValueError(f"network: {str(self.path)!r} lacks {', '.join(missing)}; expected a file save_mlp wrote")
        self.meta = json.loads(str(d["meta"]))
        self.hidden = []
        i = 0
        while f"hidden_W_{i}" in d:
            self.hidden.append((d[f"hidden_W_{i}"].astype(np.float32), d[f"hidden_b_{i}"].astype(np.float32)))
            i += 1
        self.policy = (d["policy_W"].astype(np.float32), d["policy_b"].astype(np.float32))
        self.value = (d["value_W"].astype(np.float32), d["value_b"].astype(np.float32))
        self.observation_size = int(self.meta["observation_size"])
        self.num_actions = int(self.meta["num_actions"])

    def __call__(self, observations, masks):
        """Priors (a softmax over each row's legal actions, 0 elsewhere) and values in [-1, 1].

        Parameters
        ----------
        observations : array_like, shape (k, observation_size)
        masks : array_like of bool, shape (k, num_actions)

        Returns
        -------
        priors : ndarray of float32, shape (k, num_actions)
        values : ndarray of float32, shape (k,)
        """
        x = np.asarray(observations, dtype=np.float32)
        m = np.asarray(masks, dtype=bool)
        if x.ndim != 2 or x.shape[1] != self.observation_size:
            raise ValueError(f"observations: shape {x.shape}; expected (k, {self.observation_size}) for this network "
                             f"({self.meta.get('scenario', 'its scenario')})")
        if m.shape != (x.shape[0], self.num_actions):
            raise ValueError(f"masks: shape {m.shape}; expected ({x.shape[0]}, {self.num_actions})")
        if self.blas_threads is None:
            return self._forward(x, m)
        if self._limiter is None:
            from threadpoolctl import ThreadpoolController
            self._limiter = ThreadpoolController()
        with self._limiter.limit(limits=self.blas_threads, user_api="blas"):
            return self._forward(x, m)

    def __getstate__(self):
        # the thread controller holds library handles: a pickled evaluator (a worker's) makes its own
        return {**self.__dict__, "_limiter": None}

    def _forward(self, x, m):
        h = x
        for w, b in self.hidden:
            h = np.maximum(h @ w + b, 0.0)
        logits = np.where(m, h @ self.policy[0] + self.policy[1], -np.inf)
        top = logits.max(axis=1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        e = np.where(m, np.exp(logits - top), 0.0)
        s = e.sum(axis=1, keepdims=True)
        priors = np.divide(e, s, out=np.zeros_like(e), where=s > 0).astype(np.float32)
        values = np.tanh(h @ self.value[0] + self.value[1])[:, 0].astype(np.float32)
        return priors, values


def load_evaluator(network=None) -> MLPEvaluator:
    """The evaluator of a network file; ``None``: the packaged network (:data:`DEFAULT_NETWORK`).

    Raises
    ------
    ValueError
        If the file cannot be read as a network (named).
    """
    if network is None:
        return MLPEvaluator(resources.files("atomic_africa.data") / DEFAULT_NETWORK)
    if not isinstance(network, (str, os.PathLike)):
        raise TypeError(f"network: expected a path to a network file or None, got {type(network).__name__}")
    if not Path(network).is_file():
        raise ValueError(f"network: no file {str(network)!r}")
    return MLPEvaluator(network)


class NetworkAgent:
    """The network alone: its most probable legal action (ties to the lowest id), no search.

    Parameters
    ----------
    seed : int
        Unused (the agent does not draw); taken so that every agent is built alike.
    evaluator : callable or path, optional
        An evaluator or a network file (default: the packaged network).
    """

    name = "network"

    def __init__(self, seed: int = 0, evaluator=None):
        self.evaluator = evaluator if callable(evaluator) else load_evaluator(evaluator)

    def act(self, game) -> int:
        """The network's choice for the player to move in a running game."""
        if game.is_over:
            raise ValueError("game: over; an agent acts only in a running game")
        p = game.current_player
        priors, _ = self.evaluator(game.observation(p)[None, :], game.action_mask()[None, :])
        return int(np.argmax(np.where(game.action_mask(), np.asarray(priors)[0], -1.0)))
