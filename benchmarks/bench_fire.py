"""Batch fire resolution: kernel vs vectorised numpy (the straightforward np.where version and the
best idiom measured, a gather from a table of every (attack, band, defense, cover) precomputed
with it) vs the reference."""
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


def lookup_table(rules=None):
    """Markers and wounds of every (attack 0..24, band 1..9, defense 1..12, cover 0..2), armor 2."""
    a, b, d, c = np.meshgrid(np.arange(25), np.arange(10), np.arange(13), np.arange(3), indexing="ij")
    m, w = numpy_resolve_fire(a, b, d, 2, c, rules)
    return m.reshape(-1), w.reshape(-1)


TABLE = lookup_table()


def numpy_lookup(attack, range_band, defense, armor, cover, table=TABLE):
    """One gather per attack from the precomputed table (the small domain makes this the fastest numpy)."""
    idx = ((attack * 10 + range_band) * 13 + defense) * 3 + cover
    return table[0][idx], table[1][idx]


@pytest.mark.benchmark(group="resolve_fire")
def test_numpy_lookup(benchmark, items, engagements):
    items(N)
    m, w = benchmark(numpy_lookup, **engagements)
    nm, nw = numpy_resolve_fire(**engagements)
    assert np.array_equal(m, nm) and np.array_equal(w, nw)


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
