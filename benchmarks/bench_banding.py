"""Range banding: kernel vs np.searchsorted (with and without the kernel's input check) vs the reference.

The numpy idiom is ``np.searchsorted(edges, d, side="left") + 1`` (band = first edge >= d); the
kernel also rejects NaN, inf and negative distances in the same pass, so the second numpy entry adds
that check. Both numpy entries are checked equal to the kernel on every element.
"""
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


def numpy_bands(distances, edges):
    return (np.searchsorted(edges, distances, side="left") + 1).astype(np.int8)


def numpy_bands_checked(distances, edges):
    if not (np.isfinite(distances).all() and distances.min(initial=0.0) >= 0):
        raise ValueError("distances: allowed finite values >= 0 cm")
    return numpy_bands(distances, edges)


@pytest.mark.benchmark(group="range_band")
def test_numpy_searchsorted(benchmark, items, distances):
    items(N)
    edges = aa.Rules.default().band_edges
    out = benchmark(numpy_bands, distances, edges)
    np.testing.assert_array_equal(out, aa.batch.range_band(distances))


@pytest.mark.benchmark(group="range_band")
def test_numpy_searchsorted_checked(benchmark, items, distances):
    items(N)
    edges = aa.Rules.default().band_edges
    out = benchmark(numpy_bands_checked, distances, edges)
    np.testing.assert_array_equal(out, aa.batch.range_band(distances))


@pytest.mark.benchmark(group="range_band")
def test_reference(benchmark, items, distances):
    items(N_REF)
    d = distances[:N_REF].tolist()
    benchmark(lambda: [ref.range_band(x) for x in d])
