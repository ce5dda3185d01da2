"""The native batched PUCT search (issue 37, point 1): the C search (``csrc/aa_puct.c`` through
``atomic_africa.agents.puct``) against its pure-Python twin (``atomic_africa.reference.puct``) on the
reference engine, exactly: the same actions, visit shares, root values, evaluator batches and stream
afterwards, with and without root noise and temperature. Then what the contract promises: one
evaluator call per wave across every searched game, a game's decision independent of the games
searched with it, no hidden information in what the evaluator sees, and refusals that name the
argument and change nothing.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from atomic_africa.agents.puct import PUCTAgent, check_puct, puct_search
from atomic_africa.game import Game
from atomic_africa.game.native.vector import VectorGame
from atomic_africa.reference.game import Game as RefGame
from atomic_africa.reference.puct import reference_puct

SMALL = str(Path(__file__).parent / "support" / "play_small.toml")


class ProjectionEvaluator:
    """A fixed random network: priors exp(0.05 x W), values tanh(x u); row by row in float64, so its
    answer for a row never depends on the batch it came in. Records every call."""

    def __init__(self, obs_size: int, n_actions: int, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.W = rng.normal(size=(obs_size, n_actions))
        self.u = rng.normal(size=obs_size) * 0.05
        self.calls = []

    def __call__(self, obs, masks):
        self.calls.append((obs.copy(), masks.copy()))
        x = obs.astype(np.float64)
        priors = np.exp(np.clip(0.05 * np.einsum("ij,jk->ik", x, self.W), -30, 30)).astype(np.float32)
        values = np.tanh(np.einsum("ij,j->i", x, self.u)).astype(np.float32)
        return priors, values


def _words_to_pcg(words) -> np.random.PCG64:
    bg = np.random.PCG64()
    w = [int(x) for x in words]
    bg.state = {"bit_generator": "PCG64", "state": {"state": (w[0] << 64) | w[1], "inc": (w[2] << 64) | w[3]},
                "has_uint32": w[4], "uinteger": w[5]}
    return bg


def _positions(scenario, n: int, seed: int):
    """n games of `scenario` played some random moves in, as (game seed, history)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        gs = int(rng.integers(0, 2**31))
        g = RefGame(scenario, gs)
        hist = []
        for _ in range(int(rng.integers(0, 60))):
            a = int(rng.choice(g.legal_actions()))
            probe = g.clone()
            probe.apply(a)
            if probe.is_over:   # a VectorGame would start its next game: stop one move short
                break
            g.apply(a)
            hist.append(a)
        out.append((gs, hist))
    return out


PARAMS = [
    dict(simulations=24, wave=1, c_puct=1.5),
    dict(simulations=30, wave=8, c_puct=1.25),
    dict(simulations=17, wave=4, c_puct=2.0, dirichlet_alpha=0.3, noise_fraction=0.25, temperature=1.0),
    dict(simulations=20, wave=3, c_puct=0.8, dirichlet_alpha=1.7, noise_fraction=0.5, temperature=0.6),
]


# AlphaGo's mixed leaf values (a rollout agent plays each new leaf out) and the greedy width; small:
# the twin's rollouts are whole games of the Python agents
LEAF_PARAMS = [
    dict(simulations=8, wave=2, c_puct=1.5, rollout="greedy", rollout_weight=0.5, width=2),
    dict(simulations=8, wave=1, c_puct=1.0, rollout="random", rollout_weight=1.0),
    dict(simulations=10, wave=4, c_puct=1.5, width=3, dirichlet_alpha=0.3, noise_fraction=0.25, temperature=1.0),
    dict(simulations=6, wave=3, c_puct=2.0, rollout="heuristic", rollout_weight=0.25, width=1),
    dict(simulations=6, wave=2, c_puct=1.2, rollout="doctrine", rollout_weight=0.7, width=2),
]


# The default map's twins (4-9 s each, the twin's whole games in Python) are left to the full suite to
# keep the fast subset under 2 minutes; the small map's run in both.
@pytest.mark.parametrize("scenario", [pytest.param(None, id="default", marks=pytest.mark.slow),
                                      pytest.param(SMALL, id="small")])
@pytest.mark.parametrize("pi", range(len(PARAMS)))
def test_the_native_search_is_its_python_twin_bit_for_bit(scenario, pi):
    _twin_case(scenario, PARAMS[pi], 6, 100 + pi, pi)


@pytest.mark.parametrize("scenario", [None, SMALL], ids=["default", "small"])
@pytest.mark.parametrize("pi", range(len(LEAF_PARAMS)))
def test_rollouts_and_width_are_the_twins_too(scenario, pi):
    _twin_case(scenario, LEAF_PARAMS[pi], 3, 200 + pi, pi)


def _twin_case(scenario, given: dict, n: int, pos_seed: int, pi: int):
    params = {**check_puct(), **given}
    pos = _positions(scenario, n, pos_seed)
    vg = VectorGame.from_games(scenario, [gs for gs, _ in pos], agent_seeds=[[7 * i, 7 * i + 1] for i in range(n)])
    refs = []
    for gs, hist in pos:
        g = RefGame(scenario, gs)
        for a in hist:
            g.apply(a)
        refs.append(g)
    for i, (_, hist) in enumerate(pos):   # the same moves into the native env
        for a in hist:
            act = np.full(n, 0, dtype=np.int64)
            active = np.zeros(n, dtype=bool)
            act[i], active[i] = a, True
            vg.step(act, active, observe=False)
    cur = vg.current_player.astype(int)
    words = vg._engine.arrays["agent_rng"][np.arange(n), np.maximum(cur, 0)].copy()
    ev_c = ProjectionEvaluator(vg.observation_size, vg.num_actions, seed=pi)
    ev_py = ProjectionEvaluator(vg.observation_size, vg.num_actions, seed=pi)
    res = puct_search(vg, ev_c, **params)
    bgs = [_words_to_pcg(w) for w in words]
    acts, pol, val, n_eval, n_waves = reference_puct(refs, bgs, ev_py, **params)
    assert res.actions.tolist() == [int(a) for a in acts]
    np.testing.assert_array_equal(res.policy, pol)
    np.testing.assert_array_equal(res.value, val)
    assert (res.evaluations, res.batches) == (n_eval, n_waves)
    assert len(ev_c.calls) == len(ev_py.calls) == n_waves
    for (o1, m1), (o2, m2) in zip(ev_c.calls, ev_py.calls):
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(m1, m2)
    after = vg._engine.arrays["agent_rng"][np.arange(n), np.maximum(cur, 0)]
    for i, bg in enumerate(bgs):   # the streams advanced by the same draws
        assert bg.state == _words_to_pcg(after[i]).state
    searched = [i for i, g in enumerate(refs) if not g.is_over and len(g.legal_actions()) > 1]
    assert searched and np.allclose(res.policy[searched].sum(axis=1), 1.0)
    for i in searched:
        assert res.actions[i] in refs[i].legal_actions()
    if params["width"]:   # the root's children are the greedy agent's best `width`
        assert ((res.policy[searched] > 0).sum(axis=1) <= params["width"]).all()


def test_one_evaluator_call_per_wave_across_every_game():
    vg = VectorGame(num_envs=5, seed=3)
    ev = ProjectionEvaluator(vg.observation_size, vg.num_actions)
    res = puct_search(vg, ev, simulations=16, wave=4)
    # the roots first (one row each), then 4 waves of at most 4 walks per game
    assert res.batches == len(ev.calls) == 5
    assert len(ev.calls[0][0]) == 5
    assert all(len(o) <= 5 * 4 for o, _ in ev.calls[1:])
    assert res.evaluations == sum(len(o) for o, _ in ev.calls)
    for obs, masks in ev.calls:
        assert obs.dtype == np.float32 and masks.dtype == np.bool_ and masks.any(axis=1).all()


def test_a_games_decision_does_not_depend_on_the_games_searched_with_it():
    seeds = [11, 12, 13, 14]
    full = VectorGame.from_games(None, seeds)
    ev = ProjectionEvaluator(full.observation_size, full.num_actions, seed=5)
    res = puct_search(full, ev, simulations=20, wave=5, dirichlet_alpha=0.3, temperature=1.0)
    for i in range(4):
        alone = VectorGame.from_games(None, seeds)
        r = puct_search(alone, ev, envs=[i], simulations=20, wave=5, dirichlet_alpha=0.3, temperature=1.0)
        assert r.actions[i] == res.actions[i] and (r.actions[np.arange(4) != i] == -1).all()
        np.testing.assert_array_equal(r.policy[i], res.policy[i])


def test_the_evaluator_never_sees_what_the_searcher_may_not_know():
    """Two games the searcher cannot tell apart (the second determinized for it: the opponent's unseen
    cards and the future dice differ) get the same rows, the same answers and the same decision."""
    g1 = Game(None, 21)
    for _ in range(3):
        g1.apply(g1.legal_actions()[0])
    while len(g1.legal_actions()) == 1:
        g1.apply(g1.legal_actions()[0])
    me = g1.current_player
    g2 = g1.clone()
    g2.determinize(me, 987654)
    assert g1.to_json() != g2.to_json()
    a1, a2 = PUCTAgent(4, ProjectionEvaluator(len(g1.observation(0)), g1.num_actions), simulations=24, wave=4), \
        PUCTAgent(4, ProjectionEvaluator(len(g1.observation(0)), g1.num_actions), simulations=24, wave=4)
    assert a1.act(g1) == a2.act(g2)
    assert len(a1.evaluator.calls) == len(a2.evaluator.calls) > 1
    for (o1, m1), (o2, m2) in zip(a1.evaluator.calls, a2.evaluator.calls):
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(m1, m2)


def test_same_seed_same_decisions_and_the_stream_carries_on():
    g = Game(None, 5)
    ev = ProjectionEvaluator(len(g.observation(0)), g.num_actions)
    a, b = PUCTAgent(9, ev, simulations=12), PUCTAgent(9, ev, simulations=12)
    moves = []
    for _ in range(6):
        x, y = a.act(g), b.act(g)
        assert x == y and x in g.legal_actions()
        moves.append(x)
        g.apply(x)
    assert a.last_policy.sum() == pytest.approx(1.0)


def _bad(kind):
    def ev(obs, masks):
        k, n = masks.shape
        p, v = np.ones((k, n), np.float32), np.zeros(k, np.float32)
        if kind == "value":
            v[-1] = 1.5
        elif kind == "nan":
            v[0] = np.nan
        elif kind == "prior":
            p[0, np.flatnonzero(masks[0])[0]] = -0.1
        elif kind == "shape":
            p = p[:, :-1]
        elif kind == "pair":
            return p
        return p, v
    return ev


@pytest.mark.parametrize("kind,message", [
    ("value", r"evaluator: value 1\.5 at leaf \d+; allowed finite numbers in \[-1, 1\]"),
    ("nan", r"evaluator: value nan at leaf 0"),
    ("prior", r"evaluator: prior -0\.1\d* of legal action \d+ at leaf 0; allowed finite numbers >= 0"),
    ("shape", r"evaluator: priors of shape \(\d+, \d+\); expected \(\d+, \d+\)"),
    ("pair", r"evaluator: expected a pair \(priors, values\)"),
])
def test_a_refused_answer_names_the_leaf_and_changes_nothing(kind, message):
    vg = VectorGame(num_envs=3, seed=8)
    before = {k: a.copy() for k, a in vg._engine.arrays.items()}
    with pytest.raises((ValueError, TypeError), match=message):
        puct_search(vg, _bad(kind), simulations=8, wave=2)
    for k, a in vg._engine.arrays.items():
        np.testing.assert_array_equal(a, before[k], err_msg=k)


@pytest.mark.parametrize("params,message", [
    ({"simulations": 0}, r"simulations: 0 is out of range"),
    ({"wave": 0}, r"wave: 0 is out of range"),
    ({"c_puct": -1.0}, r"c_puct: -1\.0 is out of range"),
    ({"noise_fraction": 1.5}, r"noise_fraction: 1\.5 is out of range"),
    ({"temperature": float("nan")}, r"temperature"),
    ({"depth": 3}, r"depth: not a search parameter; allowed: simulations, wave"),
    ({"rollout": "ismcts"}, r"rollout: 'ismcts' is not a rollout agent; allowed none, random, heuristic, greedy, "
                            r"doctrine"),
    ({"rollout": 2}, r"rollout: 2 is not a rollout agent"),
    ({"rollout_weight": 1.5}, r"rollout_weight: 1\.5 is out of range"),
    ({"width": -1}, r"width: -1 is out of range"),
])
def test_bad_search_parameters_are_named(params, message):
    vg = VectorGame(num_envs=1, seed=1)
    with pytest.raises((TypeError, ValueError), match=message):
        puct_search(vg, _bad("ok"), **params)
    with pytest.raises(TypeError, match="evaluator: expected a callable"):
        puct_search(vg, None)
    with pytest.raises(TypeError, match="vg: expected a VectorGame"):
        puct_search(Game(), _bad("ok"))


@pytest.mark.parametrize("rollout", ["greedy", "random"])
def test_rollout_outcomes_are_mixed_into_the_leaf_values(rollout):
    """An evaluator that values every leaf 0: the root value is 0 without rollouts, and the mean of the
    rollouts' outcomes (+1, 0, -1, so a multiple of 1 / visits) with lambda = 1, of 0.5 / visits with
    lambda = 0.5."""
    def zero(obs, masks):
        return np.ones(masks.shape, dtype=np.float32), np.zeros(len(obs), dtype=np.float32)

    def root_value(**kw):
        vg = VectorGame(None, 4, seed=3)
        return puct_search(vg, zero, simulations=40, wave=1, **kw).value

    assert not root_value(rollout="none").any()
    full = root_value(rollout=rollout, rollout_weight=1.0)
    assert full.any() and (np.abs(full) <= 1).all()
    np.testing.assert_allclose(full * 40, np.round(full * 40), atol=1e-4)
    half = root_value(rollout=rollout, rollout_weight=0.5)
    assert half.any() and (np.abs(half) <= 0.5).all()
    np.testing.assert_allclose(half * 80, np.round(half * 80), atol=1e-4)
    assert not root_value(rollout=rollout, rollout_weight=0.0).any()   # lambda 0 plays no rollout
