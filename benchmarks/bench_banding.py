"""Range banding: kernel vs np.searchsorted vs the reference."""
import numpy as np
import pytest
from _scale import scaled

import atomic_africa as aa
from atomic_africa import reference as ref

N = scaled(10_000_000)
N_REF = scaled(20_000)


@pytest.fixture(scope="module")
def distances():
    return np.random.default_rng(0).uniform(0, 120, N)


@pytest.mark.benchmark(group="range_band")
def test_kernel(benchmark, items, distances):
    items(N)
    out = benchmark(aa.batch.range_band, distances)
    assert out[0] == ref.range_band(distances[0])


@pytest.mark.benchmark(group="range_band")
def test_numpy_searchsorted(benchmark, items, distances):
    items(N)
    edges = aa.Rules.default().band_edges
    out = benchmark(lambda: (np.searchsorted(edges, distances, side="left") + 1).astype(np.int8))
    assert out[0] == ref.range_band(distances[0])


@pytest.mark.benchmark(group="range_band")
def test_reference(benchmark, items, distances):
    items(N_REF)
    d = distances[:N_REF].tolist()
    benchmark(lambda: [ref.range_band(x) for x in d])
