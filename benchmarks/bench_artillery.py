"""Hex artillery: batch Artillery Request simulation and card resolution.

Kernel (aa_core.hexmap) vs an honest vectorised numpy baseline (the same draws, the landing looked
up in a 72-entry (hit, drift card) table built per call) vs the pure-Python reference. The exact
landing odds of a fresh deck have a numpy twin too: integer counts of the 72 x 71 ordered draws
per landing hex, as Fractions.
"""
from fractions import Fraction

import numpy as np
import pytest
from _scale import scaled

from atomic_africa import reference as ref
from atomic_africa.artillery import DeckState, HexMap, landing_distribution, resolve_requests, simulate_requests

N = scaled(2_000_000)
N_REF = scaled(20_000)
HM = HexMap(15, 10)
SPOTTER, TARGET = "G4", "J7"
THRESHOLD = 5          # range G4 -> J7, no hindrance


def _drift_table():
    """landing[hit, white - 1, coloured - 1] (flat index, -1 off map) for the drift card."""
    t = np.empty((2, 6, 6), dtype=np.int32)
    for hit in (0, 1):
        for w in range(1, 7):
            for c in range(1, 7):
                h = ref.drift(HM, HM.hex(TARGET), bool(hit), w, c)
                t[hit, w - 1, c - 1] = -1 if h is None else h[1] * HM.columns + h[0]
    return t


def numpy_independent(rng, n):
    table = _drift_table()
    f = rng.integers(1, 7, size=(n, 4), dtype=np.int8)
    hit = f[:, 0].astype(np.int16) * f[:, 1] > THRESHOLD
    return table[hit.astype(np.intp), f[:, 2] - 1, f[:, 3] - 1], hit


def numpy_deck(rng, n, pile):
    table = _drift_table()
    m = len(pile)
    u1 = rng.integers(0, m, size=n)
    u2 = rng.integers(0, m - 1, size=n)
    u2 += u2 >= u1
    a, b = pile[u1], pile[u2]
    hit = (a // 6 + 1) * (a % 6 + 1) > THRESHOLD
    return table[hit.astype(np.intp), b // 6, b % 6], hit


@pytest.mark.benchmark(group="artillery_simulate_2d6")
def test_simulate_kernel(benchmark, items):
    items(N)
    out = benchmark(simulate_requests, N, HM, SPOTTER, TARGET, seed=1)
    assert out.landing.shape == (N,)


@pytest.mark.benchmark(group="artillery_simulate_2d6")
def test_simulate_kernel_2_threads(benchmark, items):
    items(N)
    benchmark(simulate_requests, N, HM, SPOTTER, TARGET, seed=1, threads=2)


@pytest.mark.benchmark(group="artillery_simulate_2d6")
def test_simulate_numpy(benchmark, items):
    items(N)
    landing, _ = benchmark(lambda: numpy_independent(np.random.default_rng(1), N))
    assert landing.shape == (N,)


@pytest.mark.benchmark(group="artillery_simulate_2d6")
def test_simulate_reference(benchmark, items):
    items(N_REF)
    benchmark(ref.simulate_requests, N_REF, HM, SPOTTER, TARGET, seed=1)


@pytest.mark.benchmark(group="artillery_simulate_deck")
def test_deck_kernel(benchmark, items):
    items(N)
    benchmark(simulate_requests, N, HM, SPOTTER, TARGET, deck="fresh", seed=1)


@pytest.mark.benchmark(group="artillery_simulate_deck")
def test_deck_numpy(benchmark, items):
    items(N)
    pile = np.array(DeckState.fresh().pile_ids()[0], dtype=np.int64)
    benchmark(lambda: numpy_deck(np.random.default_rng(1), N, pile))


@pytest.mark.benchmark(group="artillery_simulate_deck")
def test_deck_reference(benchmark, items):
    items(N_REF)
    benchmark(ref.simulate_requests, N_REF, HM, SPOTTER, TARGET, deck="fresh", seed=1)


@pytest.fixture(scope="module")
def cards():
    return np.random.default_rng(0).integers(1, 7, size=(N, 4)).astype(np.int32)


@pytest.mark.benchmark(group="artillery_resolve")
def test_resolve_kernel(benchmark, items, cards):
    items(N)
    benchmark(resolve_requests, HM, SPOTTER, TARGET, cards)


@pytest.mark.benchmark(group="artillery_resolve")
def test_resolve_numpy(benchmark, items, cards):
    items(N)

    def run():
        table = _drift_table()
        hit = cards[:, 0] * cards[:, 1] > THRESHOLD
        return table[hit.astype(np.intp), cards[:, 2] - 1, cards[:, 3] - 1], hit
    benchmark(run)


@pytest.mark.benchmark(group="artillery_resolve")
def test_resolve_reference(benchmark, items, cards):
    items(N_REF)
    rows = cards[:N_REF].tolist()
    benchmark(ref.resolve_requests, HM, SPOTTER, TARGET, rows)


@pytest.mark.benchmark(group="artillery_exact_fresh_deck")
def test_exact_kernel(benchmark, items):
    items(1)
    odds = benchmark(landing_distribution, HM, SPOTTER, TARGET, deck="fresh")
    assert sum(odds.exact.values()) + odds.off_map == 1


@pytest.mark.benchmark(group="artillery_exact_fresh_deck")
def test_exact_reference(benchmark, items):
    items(1)
    benchmark(ref.landing_distribution, HM, SPOTTER, TARGET, deck="fresh")


def numpy_exact_fresh():
    """Exact landing odds from a fresh deck (each card id twice): {flat hex or -1: Fraction}, P(hit)."""
    table = _drift_table()
    ids = np.arange(36)
    a, b = np.meshgrid(ids, ids, indexing="ij")
    # ordered draws of two of the 72 cards: 2 * 2 ways for two ids, 2 * 1 for the same id twice
    ways = np.where(a == b, 2, 4).ravel()
    hit = ((a // 6 + 1) * (a % 6 + 1) > THRESHOLD).ravel()
    landing = table[hit.astype(np.intp), (b // 6).ravel(), (b % 6).ravel()]
    total = 72 * 71
    cells, where = np.unique(landing, return_inverse=True)
    counts = np.bincount(where, weights=ways).astype(np.int64)
    return {int(c): Fraction(int(k), total) for c, k in zip(cells, counts)}, Fraction(int(ways[hit].sum()), total)


@pytest.mark.benchmark(group="artillery_exact_fresh_deck")
def test_exact_numpy(benchmark, items):
    items(1)
    got, p_hit = benchmark(numpy_exact_fresh)
    want = landing_distribution(HM, SPOTTER, TARGET, deck="fresh")
    assert p_hit == want.hit and got.pop(-1, Fraction(0)) == want.off_map
    assert got == {h.row * HM.columns + h.col: p for h, p in want.exact.items()}
