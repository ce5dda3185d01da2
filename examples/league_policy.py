"""An outside policy for ``atomic-africa league``: a stand-in for a trained network.

Run it from this directory (the working directory is searched first)::

    atomic-africa league --agents random,greedy,league_policy:policy --games 100

A policy is any callable ``policy(observations, action_masks) -> actions``: ``observations`` is a
float32 array (k, observation_size), each row the observation of the player to move in one of the k
games where this policy is to move, in the side-relative view the environments use by default
(``atomic_africa.game.side_view.SideView``: player 1 sees the table turned, own slots first);
``action_masks`` is a bool array (k, num_actions) of the legal actions there, in the same view; it
returns k integer action ids in that view, each legal in its row.

Here the "network" is a small two-layer perceptron with random weights (fixed seed, no global random
state) whose scores are masked to the legal actions. A trained network plugs in the same way, e.g. with PyTorch::

    model = torch.load("policy.pt"); model.eval()

    def policy(observations, action_masks):
        with torch.no_grad():
            logits = model(torch.from_numpy(observations))
        logits[~torch.from_numpy(action_masks)] = -torch.inf
        return logits.argmax(dim=1).numpy()

or with an sb3-contrib ``MaskablePPO``: ``model.predict(observations, action_masks=action_masks,
deterministic=True)[0]``.
"""
from __future__ import annotations

import numpy as np


class MLPPolicy:
    """Masked argmax of ``tanh(observations @ W1) @ W2``; the weights are drawn from ``seed`` on the
    first call, when the sizes are known."""

    def __init__(self, seed: int = 0, hidden: int = 16):
        self.seed, self.hidden = seed, hidden
        self.w1 = self.w2 = None

    def __call__(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        if self.w1 is None:
            rng = np.random.default_rng(self.seed)
            self.w1 = rng.standard_normal((observations.shape[1], self.hidden), dtype=np.float32)
            self.w2 = rng.standard_normal((self.hidden, action_masks.shape[1]), dtype=np.float32)
        # einsum runs numpy's own loops: on a busy machine BLAS threads can cost 100x for a batch this
        # small (OPENBLAS_NUM_THREADS=1 is the fix for a network that needs BLAS).
        hidden = np.tanh(np.einsum("ko,oh->kh", observations, self.w1))
        scores = np.einsum("kh,ha->ka", hidden, self.w2)
        scores[~action_masks] = -np.inf
        return scores.argmax(axis=1)


policy = MLPPolicy(seed=0)
