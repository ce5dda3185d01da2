"""Batch fire resolution: kernel vs an honest vectorised numpy version vs the reference."""
import numpy as np
import pytest
from _scale import scaled

import atomic_africa as aa
from atomic_africa import reference as ref

N = scaled(10_000_000)
N_REF = scaled(20_000)


@pytest.fixture(scope="module")
def engagements():
    rng = np.random.default_rng(1)
    return dict(
        attack=rng.integers(0, 25, N),
        range_band=rng.integers(1, 10, N),
        defense=rng.integers(1, 13, N),
        armor=2,
        cover=rng.integers(0, 3, N),
    )


def numpy_resolve_fire(attack, range_band, defense, armor, cover, rules=None):
    """Vectorised RULES.md section 5 for infantry targets, no AP (the kernel's general case)."""
    f = (rules or aa.Rules.default()).fire
    damage = range_band + defense
    eff = np.maximum(armor + np.asarray(f.cover_armor_bonus)[cover], f.armor_floor)
    beyond_range = attack > range_band
    beyond_damage = attack > damage
    markers = np.where(beyond_damage, f.markers_beyond_damage,
                       np.where(beyond_range, f.markers_beyond_range, 0)).astype(np.int8)
    wounds = np.where(beyond_damage, (attack - damage) // eff, 0).astype(np.int32)
    return markers, wounds


@pytest.mark.benchmark(group="resolve_fire")
def test_kernel(benchmark, items, engagements):
    items(N)
    m, w = benchmark(aa.batch.resolve_fire, **engagements)
    nm, nw = numpy_resolve_fire(**engagements)
    assert np.array_equal(m, nm) and np.array_equal(w, nw)


@pytest.mark.benchmark(group="resolve_fire")
def test_numpy(benchmark, items, engagements):
    items(N)
    benchmark(numpy_resolve_fire, **engagements)


@pytest.mark.benchmark(group="resolve_fire")
def test_reference(benchmark, items, engagements):
    items(N_REF)
    rows = list(zip(*(engagements[k][:N_REF].tolist() for k in ("attack", "range_band", "defense", "cover"))))
    benchmark(lambda: [ref.resolve_fire(a, b, d, 2, c) for a, b, d, c in rows])
