"""The self-play baseline (``train_selfplay.py``) as an outside policy for ``atomic-africa league``.

Rate the shipped checkpoint against the built-in agents from this directory (the working directory
is searched first for ``module:callable``)::

    cd examples
    atomic-africa league --agents random,heuristic,greedy,doctrine,selfplay_policy:policy --games 400

``policy(observations, action_masks) -> actions`` plays the masked argmax of the network's action
logits (deterministic) for each row: the observation of the player to move and its legal actions,
in the frame the network was trained in (the envs' view, side-relative by default), which is the
frame the league must hand to an outside policy.
The checkpoint is ``checkpoints/selfplay_maskableppo.zip`` beside this file, read on the first call
(the environment variable ``ATOMIC_AFRICA_SELFPLAY_CHECKPOINT`` names another one);
:class:`SelfPlayPolicy` loads any ``MaskablePPO`` checkpoint, e.g. one of ``train_selfplay.py --out``.
Loading sets torch to one thread: for batches this small more threads only wait on each other.
"""
from __future__ import annotations

import os

import numpy as np

CHECKPOINT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checkpoints",
                          "selfplay_maskableppo.zip")


def action_logits(sb3_policy, observations: np.ndarray) -> np.ndarray:
    """The action logits (k, num_actions) of an sb3 actor-critic policy for k observations."""
    import torch
    with torch.no_grad():
        obs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
        features = sb3_policy.extract_features(obs, sb3_policy.pi_features_extractor)
        return sb3_policy.action_net(sb3_policy.mlp_extractor.forward_actor(features)).numpy()


def masked_argmax(sb3_policy, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
    """The legal action of highest logit in each row (the policy's deterministic choice)."""
    scores = action_logits(sb3_policy, observations)
    scores[~np.asarray(action_masks, dtype=bool)] = -np.inf
    return scores.argmax(axis=1)


class SelfPlayPolicy:
    """A ``MaskablePPO`` checkpoint as a league policy: masked argmax of its logits.

    Parameters
    ----------
    path : str
        The checkpoint (``.zip`` written by ``MaskablePPO.save``); read on the first call.
    threads : int
        torch's intra-op threads, set when the checkpoint is loaded.
    """

    def __init__(self, path: str, threads: int = 1):
        self.path, self.threads = path, threads
        self._policy = None

    def load(self):
        """The checkpoint's sb3 policy (loaded once)."""
        if self._policy is None:
            if not os.path.isfile(self.path):
                raise FileNotFoundError(f"checkpoint {self.path!r} not found: train one with examples/"
                                        f"train_selfplay.py, or set ATOMIC_AFRICA_SELFPLAY_CHECKPOINT")
            import torch
            from sb3_contrib import MaskablePPO
            torch.set_num_threads(self.threads)
            self._policy = MaskablePPO.load(self.path, device="cpu").policy.eval()
        return self._policy

    def __call__(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return masked_argmax(self.load(), observations, action_masks)


policy = SelfPlayPolicy(os.environ.get("ATOMIC_AFRICA_SELFPLAY_CHECKPOINT", CHECKPOINT))
