"""One-element calls of the batch API (an agent-based model's step), against the cheapest call returning an array.

Targets (issues 25 and 33): a one-element ``simulate_fire``, ``resolve_fire`` or ``resolve_volley`` call at
most 5 us, ``simulate_fire`` with a fresh int seed every call and with a Generator (a repeated seed would
measure a memo, not the call). ``np.empty(1)`` is the floor of any call that returns a new array; the
pure-Python reference ``resolve_fire`` is what a model author would otherwise write by hand. The summary
prints medians per call.
"""
import itertools

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa import reference as ref

CFG = dict(shooter=(10, 10, 8), target=(8, 8, 6), shooter_posture=aa.Posture.OFFENSIVE,
           target_posture=aa.Posture.DEFENSIVE, range_band=3, armor=2, cover=aa.Cover.LIGHT)
RULES = aa.Rules.default()


@pytest.mark.benchmark(group="small_calls")
def test_simulate_fire_one_fresh_int_seed(benchmark, items):
    """A model's step seeds each call afresh (seed = step number): no seed repeats."""
    items(1)
    seeds = itertools.count(10**6)
    m, w = benchmark(lambda: aa.batch.simulate_fire(1, seed=next(seeds), **CFG))
    assert m.shape == (1,)


@pytest.mark.benchmark(group="small_calls")
def test_simulate_fire_one_generator_seed(benchmark, items):
    items(1)
    rng = np.random.default_rng(7)
    m, w = benchmark(lambda: aa.batch.simulate_fire(1, seed=rng, **CFG))
    assert m.shape == (1,)


@pytest.mark.benchmark(group="small_calls")
def test_simulate_fire_one_seed_sequence(benchmark, items):
    """The general seed path (SeedSequence made per call), for comparison."""
    items(1)
    seeds = itertools.count(10**6)
    m, w = benchmark(lambda: aa.batch.simulate_fire(1, seed=np.random.SeedSequence(next(seeds)), **CFG))
    assert m.shape == (1,)


@pytest.mark.benchmark(group="small_calls")
def test_numpy_generator_integers_one(benchmark, items):
    """numpy's own one-element draw from a Generator: what any seeded one-element call competes with."""
    items(1)
    rng = np.random.default_rng(7)
    benchmark(rng.integers, 0, 6, 1)


@pytest.mark.benchmark(group="small_calls")
def test_resolve_fire_one(benchmark, items):
    items(1)
    m, w = benchmark(aa.batch.resolve_fire, 13, 3, 2, 2)
    assert int(m) == 2 and int(w) == 4


@pytest.mark.benchmark(group="small_calls")
def test_resolve_volley_one(benchmark, items):
    items(1)
    m, w = benchmark(lambda: aa.batch.resolve_volley([0], [13], [3], defense=[2], armor=[2]))
    assert m.tolist() == [2] and w.tolist() == [4]


@pytest.mark.benchmark(group="small_calls")
def test_resolve_volley_step_of_40(benchmark, items):
    """A 40-agent model's step: every agent shoots one of 40 targets, one fused call."""
    items(40)
    rng = np.random.default_rng(3)
    target = rng.integers(0, 40, 40).tolist()
    attack = rng.integers(0, 25, 40).tolist()
    band = rng.integers(1, 10, 40).tolist()
    defense = rng.integers(0, 7, 40).tolist()
    m, w = benchmark(lambda: aa.batch.resolve_volley(target, attack, band, defense=defense, armor=2))
    assert m.shape == (40,)


@pytest.mark.benchmark(group="small_calls")
def test_reference_resolve_fire_one(benchmark, items):
    items(1)
    benchmark(ref.resolve_fire, 13, 3, 2, 2, rules=RULES)


@pytest.mark.benchmark(group="small_calls")
def test_floor_np_empty(benchmark, items):
    items(1)
    benchmark(np.empty, 1)
