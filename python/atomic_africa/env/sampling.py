"""Masked random actions for a batch of games, vectorised (numpy only, no optional dependency).

:func:`masked_sample` draws one uniformly random legal action per row of a (num_envs, num_actions)
mask in a few numpy calls, where Gymnasium's ``MultiDiscrete.sample(mask=...)`` samples env by env
(for a batch of 16 default-battle games about as long as the environment's own step).
"""
from __future__ import annotations

import numpy as np

__all__ = ["masked_sample"]


def masked_sample(rng: np.random.Generator, masks) -> np.ndarray:
    """A uniformly random legal action per row of ``masks``.

    Parameters
    ----------
    rng : numpy.random.Generator
        The stream to draw from (one ``rng.random(num_envs)`` call per batch).
    masks : array_like of bool, shape (num_envs, num_actions)
        The legal actions of each game (``info["action_mask"]``, ``action_masks()``).

    Returns
    -------
    ndarray of int64, shape (num_envs,)
        Row ``i``'s action is its ``floor(u_i * legal_i)``-th legal id (``u_i`` uniform in [0, 1),
        ``legal_i`` its number of legal actions): every legal action with probability ``1 / legal_i``.

    Raises
    ------
    TypeError
        If ``rng`` is not a numpy Generator or ``masks`` is not boolean.
    ValueError
        If ``masks`` is not 2-d or a row has no legal action.
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng: expected a numpy.random.Generator, got {type(rng).__name__}")
    m = np.asarray(masks)
    if m.dtype != bool:
        raise TypeError(f"masks: expected a bool array, got dtype {m.dtype}")
    if m.ndim != 2:
        raise ValueError(f"masks: expected shape (num_envs, num_actions), got {m.shape}")
    counts = np.cumsum(m, axis=1, dtype=np.int32)     # running count of legal ids per row
    legal = counts[:, -1] if m.shape[1] else np.zeros(m.shape[0], dtype=np.int32)
    if (legal == 0).any():
        raise ValueError(f"masks: row {int(np.flatnonzero(legal == 0)[0])} has no legal action")
    k = (rng.random(m.shape[0]) * legal).astype(np.int32)     # 0 <= k < legal
    return (counts > k[:, None]).argmax(axis=1).astype(np.int64)
