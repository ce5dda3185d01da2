"""Network-guided search (issue 37): one batched PUCT decision for the player to move in ``ENVS``
games of the default battle, ``SIMS`` simulations each, ``wave`` 8; items are simulations.

- ``puct``: the native search (``puct_search``) with a free evaluator (uniform priors, value 0), so the
  figure is the search and the engine alone; the same search with a numpy MLP (``MLPEvaluator``, two
  hidden layers of 256, the example's shape); that MLP alone on the same number of leaf rows in
  batches of a wave's size (the numpy baseline: what the network costs without any search); and the
  pure-Python twin (``reference_puct`` on the reference engine, fewer games: it is slow), which makes
  the same decisions bit for bit.

The summary's ratios say how much of a decision is search and how much is network. The last case,
``native_search_greedy_rollouts``, is the agents' default search (greedy rollouts mixed in with
lambda 1, width 2, wave 1) with the free evaluator: what the rollouts cost.
"""
from __future__ import annotations

import numpy as np
import pytest
from _scale import scaled

from atomic_africa.agents.network import MLPEvaluator, save_mlp
from atomic_africa.agents.puct import check_puct, puct_search
from atomic_africa.game import VectorGame
from atomic_africa.reference.game import Game as RefGame
from atomic_africa.reference.puct import reference_puct

ENVS = scaled(16, minimum=2)
SIMS = scaled(64, minimum=8)
REF_ENVS = 2
PARAMS = {**check_puct(), "simulations": SIMS, "wave": 8, "rollout": "none", "rollout_weight": 0.0, "width": 0}
ROLLOUTS = {**PARAMS, "wave": 1, "rollout": "greedy", "rollout_weight": 1.0, "width": 2}
SEEDS = list(range(ENVS))


def uniform(observations, masks):
    return masks.astype(np.float32), np.zeros(len(masks), dtype=np.float32)


@pytest.fixture(scope="module")
def mlp(tmp_path_factory):
    vg = VectorGame(None, 1, 0)
    rng = np.random.default_rng(0)
    n, a = vg.observation_size, vg.num_actions
    path = tmp_path_factory.mktemp("aa_bench_puct") / "mlp.npz"
    hidden = [(rng.normal(0, n ** -0.5, (n, 256)), np.zeros(256)), (rng.normal(0, 1 / 16, (256, 256)), np.zeros(256))]
    save_mlp(path, hidden,
             (rng.normal(0, 0.1, (256, a)), np.zeros(a)), (rng.normal(0, 0.1, (256, 1)), np.zeros(1)))
    return MLPEvaluator(path)


def _search(evaluator, params=PARAMS):
    vg = VectorGame.from_games(None, SEEDS, agent_seeds=[[2 * i, 2 * i + 1] for i in SEEDS])
    return puct_search(vg, evaluator, **params)


@pytest.mark.benchmark(group="puct")
def test_native_search_free_evaluator(benchmark, items):
    items(ENVS * SIMS)
    r = benchmark(_search, uniform)
    assert (r.actions >= 0).all()


@pytest.mark.benchmark(group="puct")
def test_native_search_numpy_mlp(benchmark, items, mlp):
    items(ENVS * SIMS)
    r = benchmark(_search, mlp)
    assert (r.actions >= 0).all()
    benchmark.extra_info["evaluator_calls"] = r.batches


@pytest.mark.benchmark(group="puct")
def test_native_search_greedy_rollouts(benchmark, items):
    items(ENVS * SIMS)
    r = benchmark.pedantic(_search, (uniform, ROLLOUTS), rounds=3, iterations=1)
    assert (r.actions >= 0).all()


@pytest.mark.benchmark(group="puct")
def test_numpy_mlp_alone_on_the_same_rows(benchmark, items, mlp):
    """The numpy baseline: the MLP's forward passes for as many leaves, in batches of a wave."""
    items(ENVS * SIMS)
    vg = VectorGame.from_games(None, SEEDS)
    obs = np.repeat(vg.observations(), 8, axis=0).astype(np.float32)
    masks = np.repeat(vg.action_masks(), 8, axis=0)

    def run():
        for _ in range(SIMS // 8):
            mlp(obs, masks)
    benchmark(run)


@pytest.mark.benchmark(group="puct")
def test_reference_search(benchmark, items):
    items(REF_ENVS * SIMS)

    def run():
        games = [RefGame(None, s) for s in SEEDS[:REF_ENVS]]
        return reference_puct(games, [np.random.PCG64(s) for s in SEEDS[:REF_ENVS]], uniform, **PARAMS)
    acts = benchmark.pedantic(run, rounds=3, iterations=1)[0]
    assert all(a >= 0 for a in acts)
