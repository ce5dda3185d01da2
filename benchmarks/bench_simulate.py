"""simulate_fire: kernel (1 and 2 threads) vs an honest vectorised numpy simulation vs the reference."""
import numpy as np
import pytest
from _scale import scaled

import atomic_africa as aa
from atomic_africa import reference as ref

N = scaled(10_000_000)
N_REF = scaled(5_000)
CFG = dict(shooter=(10, 10, 8), target=(10, 10, 8), shooter_posture=aa.Posture.OFFENSIVE,
           target_posture=aa.Posture.DEFENSIVE, range_band=3, armor=2, cover=aa.Cover.LIGHT)


def numpy_simulate_fire(n, seed):
    """Same engagement, numpy-vectorised: roll, sort, Table 5 (offensive basic vs defensive basic)."""
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
def test_numpy(benchmark, items):
    items(N)
    m, w = benchmark(numpy_simulate_fire, N, 1)
    # Same distribution as the kernel (means agree to sampling error).
    km, kw = aa.batch.simulate_fire(N, seed=2, **CFG)
    assert abs(w.mean() - kw.mean()) < 6 * w.std() / np.sqrt(N) * 1.5 + 1e-9


@pytest.mark.benchmark(group="simulate_fire")
def test_reference(benchmark, items):
    items(N_REF)
    benchmark(ref.simulate_fire, N_REF, seed=1, **CFG)
