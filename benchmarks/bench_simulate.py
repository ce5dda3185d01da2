"""simulate_fire: kernel (1 and 2 threads) vs the best numpy idiom, a naive numpy one, the RNG floor and the reference.

The best numpy idiom is the kernel's own method written in numpy: the exact outcome counts (from the
odds module) made into a table, then one uniform integer draw per engagement mapped through it
(``np.searchsorted`` on the integer CDF, or indexing a table with one entry per equally likely roll).
The naive one draws the six dice and scores them. The RNG floor is one numpy PCG64 32-bit word per
engagement. ``test_ratios_interleaved`` times kernel, floor and baselines in alternating rounds and
records the median ratios (printed in the summary), the figures the docs quote.
"""
import numpy as np
import pytest
from _scale import scaled

import atomic_africa as aa
from atomic_africa import odds
from atomic_africa import reference as ref
from atomic_africa._throughput import interleaved_ratios

N = scaled(10_000_000)
N_REF = scaled(5_000)
CFG = dict(shooter=(10, 10, 8), target=(10, 10, 8), shooter_posture=aa.Posture.OFFENSIVE,
           target_posture=aa.Posture.DEFENSIVE, range_band=3, armor=2, cover=aa.Cover.LIGHT)


def exact_table(cfg=CFG):
    """(cumulative counts, per-roll outcome index, markers, wounds, total) of the engagement's exact outcomes."""
    exact = odds.fire_outcomes(**cfg, exact=True)
    keys = sorted(exact)
    total = max(p.denominator for p in exact.values())
    counts = np.array([int(exact[k] * total) for k in keys], dtype=np.int64)
    assert counts.sum() == total
    m = np.array([k[0] for k in keys], dtype=np.int8)
    w = np.array([k[1] for k in keys], dtype=np.int16)
    per_roll = np.repeat(np.arange(len(keys), dtype=np.uint8), counts)   # one entry per equally likely roll
    return np.cumsum(counts), per_roll, m, w, total


TABLE = exact_table()


def numpy_exact_searchsorted(n, seed, table=TABLE):
    """The exact-table one-draw method in numpy: a uniform integer per engagement, searchsorted on the CDF."""
    cum, _, m, w, total = table
    k = np.searchsorted(cum, np.random.default_rng(seed).integers(0, total, n), side="right")
    return m[k], w[k]


def numpy_exact_lookup(n, seed, table=TABLE):
    """The same draw mapped by indexing the table of all equally likely rolls (one gather, no search)."""
    _, per_roll, m, w, total = table
    k = per_roll[np.random.default_rng(seed).integers(0, total, n, dtype=np.uint32)]
    return m[k], w[k]


def rng_floor(n, seed):
    """One numpy PCG64 32-bit word per engagement: the floor of any method drawing one word each."""
    return np.random.Generator(np.random.PCG64(seed)).integers(0, 2**32, n, dtype=np.uint32)


def numpy_simulate_fire(n, seed):
    """Naive numpy: roll the six dice, sort, Table 5 (offensive basic vs defensive basic)."""
    rng = np.random.default_rng(seed)
    rules = aa.Rules.default()
    f = rules.fire
    sh = np.sort(np.stack([rng.integers(1, s + 1, n, dtype=np.int16) for s in CFG["shooter"]], 1), 1)
    tg = np.sort(np.stack([rng.integers(1, s + 1, n, dtype=np.int16) for s in CFG["target"]], 1), 1)
    attack = sh[:, 1] + sh[:, 2]          # offensive: Attack = mid + high
    defense = tg[:, 2]                    # defensive: Defense = high
    band = CFG["range_band"]
    damage = band + defense
    eff = max(CFG["armor"] + f.cover_armor_bonus[CFG["cover"]], f.armor_floor)
    markers = np.where(attack > damage, f.markers_beyond_damage,
                       np.where(attack > band, f.markers_beyond_range, 0)).astype(np.int8)
    markers = np.minimum(markers, f.turn_marker_cap)
    wounds = np.where(attack > damage, (attack - damage) // eff, 0).astype(np.int16)
    return markers, wounds


@pytest.mark.benchmark(group="simulate_fire")
def test_kernel_1_thread(benchmark, items):
    items(N)
    m, w = benchmark(aa.batch.simulate_fire, N, seed=1, threads=1, **CFG)
    assert m.shape == (N,)


@pytest.mark.benchmark(group="simulate_fire")
def test_kernel_2_threads(benchmark, items):
    items(N)
    m, w = benchmark(aa.batch.simulate_fire, N, seed=1, threads=2, **CFG)
    assert m.shape == (N,)


@pytest.mark.benchmark(group="simulate_fire")
def test_numpy_exact_searchsorted(benchmark, items):
    items(N)
    m, w = benchmark(numpy_exact_searchsorted, N, 1)
    assert m.shape == (N,)


@pytest.mark.benchmark(group="simulate_fire")
def test_numpy_exact_lookup(benchmark, items):
    items(N)
    m, w = benchmark(numpy_exact_lookup, N, 1)
    km, kw = aa.batch.simulate_fire(N, seed=2, **CFG)
    assert abs(w.mean() - kw.mean()) < 6 * w.std() / np.sqrt(N) * 1.5 + 1e-9


@pytest.mark.benchmark(group="simulate_fire")
def test_rng_floor(benchmark, items):
    items(N)
    assert benchmark(rng_floor, N, 1).shape == (N,)


@pytest.mark.benchmark(group="simulate_fire")
def test_ratios_interleaved(benchmark, items):
    """Kernel, floor and numpy baselines timed in alternation (medians of per-round ratios to the floor)."""
    n = scaled(2_000_000)
    items(n)
    entries = {"kernel": lambda: aa.batch.simulate_fire(n, seed=1, **CFG), "rng_floor": lambda: rng_floor(n, 1),
               "numpy_exact_lookup": lambda: numpy_exact_lookup(n, 1),
               "numpy_exact_searchsorted": lambda: numpy_exact_searchsorted(n, 1),
               "numpy_naive": lambda: numpy_simulate_fire(n, 1)}
    benchmark.extra_info["ratios"] = benchmark.pedantic(interleaved_ratios, (entries, "rng_floor"),
                                                        dict(rounds=9), rounds=1, iterations=1)


@pytest.mark.benchmark(group="simulate_fire")
def test_numpy_naive(benchmark, items):
    items(N)
    m, w = benchmark(numpy_simulate_fire, N, 1)
    # Same distribution as the kernel (means agree to sampling error).
    km, kw = aa.batch.simulate_fire(N, seed=2, **CFG)
    assert abs(w.mean() - kw.mean()) < 6 * w.std() / np.sqrt(N) * 1.5 + 1e-9


@pytest.mark.benchmark(group="simulate_fire")
def test_reference(benchmark, items):
    items(N_REF)
    benchmark(ref.simulate_fire, N_REF, seed=1, **CFG)
