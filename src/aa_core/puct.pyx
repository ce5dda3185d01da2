# cython: language_level=3
"""Batched PUCT (csrc/aa_puct.h) over games of an aa_core.vbatch.Engine, its leaves evaluated by a
Python callable once per wave across every searched game.

Nothing here checks the parameters: atomic_africa.agents.puct does, and passes only a one-map Engine.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from aa_core.pcg cimport PCG_WORDS, aa_pcg_bitgen
from aa_core.rng cimport aa_bitgen
from aa_core.vgame cimport AgentParams, Game, Params

import numpy as np

cdef extern from "csrc/aa_puct.h":
    ctypedef struct aa_puct_params:
        int simulations
        int wave
        double c_puct
        double dirichlet_alpha
        double noise_fraction
        double temperature
        int rollout
        double rollout_weight
        int width
        AgentParams agent
    ctypedef struct aa_puct:
        pass
    aa_puct* aa_puct_new(const Params* P, int n_trees, const aa_puct_params* pp) noexcept nogil
    void aa_puct_free(aa_puct* s) noexcept nogil
    void aa_puct_begin(aa_puct* s, Game* const* roots, aa_bitgen* const* rngs) noexcept nogil
    int aa_puct_collect(aa_puct* s) noexcept nogil
    float* aa_puct_observations(aa_puct* s) noexcept nogil
    uint8_t* aa_puct_masks(aa_puct* s) noexcept nogil
    float* aa_puct_priors(aa_puct* s) noexcept nogil
    float* aa_puct_values(aa_puct* s) noexcept nogil
    int aa_puct_feed(aa_puct* s) noexcept nogil
    void aa_puct_finish(aa_puct* s, int* actions, float* policy, float* value) noexcept nogil
    long aa_puct_evaluations(const aa_puct* s) noexcept nogil
    long aa_puct_waves(const aa_puct* s) noexcept nogil


def run(engine, const int64_t[::1] envs, const uint64_t[:, ::1] words, evaluator, int simulations, int wave,
        double c_puct, double dirichlet_alpha, double noise_fraction, double temperature, int rollout=-1,
        double rollout_weight=0.0, int width=0, dict agent_params=None):
    """Search env envs[j] of `engine` (running or over) on the PCG64 stream words[j].

    Returns (actions int32 (n,), policy float32 (n, n_actions), value float32 (n,), new words
    (n, PCG_WORDS), evaluations, waves); raises on a refused evaluator answer (nothing returned,
    the caller's words untouched)."""
    cdef const Params* P = <const Params*>PyCapsule_GetPointer(engine.c_params(0), "aa_core.vgame.Params")
    cdef Py_ssize_t n = envs.shape[0], j
    cdef int k, bad, n_act = P.n_actions, n_obs = P.obs_size
    cdef aa_puct_params pp
    cdef aa_puct* s = NULL
    cdef Game** roots = NULL
    cdef aa_bitgen* bgs = NULL
    cdef aa_bitgen** bgp = NULL
    cdef uint64_t[:, ::1] w = np.array(words, dtype=np.uint64, copy=True)
    cdef float[:, ::1] pri
    cdef float[::1] val
    cdef float[:, ::1] obs_v
    cdef uint8_t[:, ::1] mask_v
    cdef int[::1] act_v
    cdef float[:, ::1] pol_v
    cdef float[::1] value_v
    pp.simulations, pp.wave, pp.c_puct = simulations, wave, c_puct
    pp.dirichlet_alpha, pp.noise_fraction, pp.temperature = dirichlet_alpha, noise_fraction, temperature
    pp.rollout, pp.rollout_weight, pp.width = rollout, rollout_weight, width
    if agent_params is not None:
        pp.agent = agent_params
    actions = np.full(n, -1, dtype=np.intc)
    policy = np.zeros((n, n_act), dtype=np.float32)
    value = np.zeros(n, dtype=np.float32)
    act_v, pol_v, value_v = actions, policy, value
    if n == 0:
        return actions, policy, value, np.asarray(w), 0, 0
    try:
        s = aa_puct_new(P, <int>n, &pp)
        roots = <Game**>malloc(n * sizeof(Game*))
        bgs = <aa_bitgen*>malloc(n * sizeof(aa_bitgen))
        bgp = <aa_bitgen**>malloc(n * sizeof(aa_bitgen*))
        if s == NULL or roots == NULL or bgs == NULL or bgp == NULL:
            raise MemoryError("search: cannot allocate the trees (out of memory)")
        for j in range(n):
            roots[j] = <Game*>PyCapsule_GetPointer(engine.c_game(envs[j]), "aa_core.vgame.Game")
            aa_pcg_bitgen(&w[j, 0], &bgs[j])
            bgp[j] = &bgs[j]
        with nogil:
            aa_puct_begin(s, roots, bgp)
        while True:
            with nogil:
                k = aa_puct_collect(s)
            if k < 0:
                raise MemoryError("search: cannot grow a tree (out of memory)")
            if k == 0:
                break
            obs = np.empty((k, n_obs), dtype=np.float32)
            masks = np.empty((k, n_act), dtype=np.bool_)
            obs_v = obs
            mask_v = masks.view(np.uint8)
            memcpy(&obs_v[0, 0], aa_puct_observations(s), k * n_obs * sizeof(float))
            memcpy(&mask_v[0, 0], aa_puct_masks(s), k * n_act)
            answer = evaluator(obs, masks)
            priors, values = _answer(answer, k, n_act)
            pri, val = priors, values
            memcpy(aa_puct_priors(s), &pri[0, 0], k * n_act * sizeof(float))
            memcpy(aa_puct_values(s), &val[0], k * sizeof(float))
            with nogil:
                bad = aa_puct_feed(s)
            if bad == -2:
                raise MemoryError("search: cannot grow a tree (out of memory)")
            if bad >= 0:
                raise ValueError(_refusal(priors[bad], values[bad], masks[bad], bad))
        with nogil:
            aa_puct_finish(s, &act_v[0], &pol_v[0, 0], &value_v[0])
        return actions, policy, value, np.asarray(w), aa_puct_evaluations(s), aa_puct_waves(s)
    finally:
        aa_puct_free(s)
        free(roots)
        free(bgs)
        free(bgp)


def _answer(answer, int k, int n_act):
    """The evaluator's (priors, values) as C-contiguous float32 arrays of shapes (k, n_act), (k,)."""
    try:
        priors, values = answer
    except (TypeError, ValueError):
        raise TypeError(f"evaluator: expected a pair (priors, values), got {type(answer).__name__}") from None
    priors = np.ascontiguousarray(np.asarray(priors, dtype=np.float32))
    values = np.ascontiguousarray(np.asarray(values, dtype=np.float32))
    if values.shape == (k, 1):
        values = values.reshape(k)
    if priors.shape != (k, n_act):
        raise ValueError(f"evaluator: priors of shape {priors.shape}; expected ({k}, {n_act}) for {k} leaves")
    if values.shape != (k,):
        raise ValueError(f"evaluator: values of shape {values.shape}; expected ({k},) for {k} leaves")
    return priors, values


def _refusal(prior_row, value, mask_row, int row):
    """The message for a refused answer at `row`."""
    if not (-1.0 <= float(value) <= 1.0):
        return f"evaluator: value {float(value)!r} at leaf {row}; allowed finite numbers in [-1, 1]"
    bad = [a for a in np.flatnonzero(mask_row) if not (np.isfinite(prior_row[a]) and prior_row[a] >= 0)]
    return (f"evaluator: prior {float(prior_row[bad[0]])!r} of legal action {int(bad[0])} at leaf {row}; "
            f"allowed finite numbers >= 0")
