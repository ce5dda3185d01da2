"""Test helpers: a vector env's trajectory under a masked random learner, and comparing two."""
from __future__ import annotations

import numpy as np


def masked_choice(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One legal action per row of ``masks``, uniform, in row order."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


def run_trajectory(env, seed, steps, rng_seed=0) -> dict:
    """Masked random learner for ``steps`` steps after ``reset(seed=seed)``; every output kept."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    traj = {"obs0": obs, "info0": info, "actions": [], "obs": [], "rew": [], "term": [], "trunc": [],
            "info": []}
    for _ in range(steps):
        a = masked_choice(rng, info["action_mask"])
        obs, rew, term, trunc, info = env.step(a)
        for k, v in zip(("actions", "obs", "rew", "term", "trunc", "info"), (a, obs, rew, term, trunc, info)):
            traj[k].append(v)
    return traj


def assert_same_trajectory(t1, t2, info_keys=("game_seed",)):
    """Equal observations, actions, rewards, ends, final observations and ``info_keys`` (where present)."""
    np.testing.assert_array_equal(t1["obs0"], t2["obs0"])
    for k in ("actions", "obs", "rew", "term"):
        for a, b in zip(t1[k], t2[k], strict=True):
            np.testing.assert_array_equal(a, b)
    for i1, i2 in zip(t1["info"], t2["info"], strict=True):
        assert i1.keys() == i2.keys()
        for key in info_keys:
            if key in i1:
                np.testing.assert_array_equal(i1[key], i2[key])
        if "final_obs" in i1:
            for f1, f2 in zip(i1["final_obs"], i2["final_obs"]):
                assert (f1 is None) == (f2 is None)
                if f1 is not None:
                    np.testing.assert_array_equal(f1, f2)
