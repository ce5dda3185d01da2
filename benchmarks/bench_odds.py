"""Exact odds: fire_outcomes (memo hit, memo miss, cold) and fire_grid vs numpy vs the reference.

Targets (issue 3): a float ``fire_outcomes`` query under 20 us median, the full grid (9 bands x 3
covers x armor 1..6, both shooter and both target postures) under 5 ms. The reference is the
brute-force enumeration of all six dice (atomic_africa.reference.odds). With AA_BENCH_SCALE < 1
the engagement uses small dice so the reference entries stay tiny.
"""
import functools

import numpy as np
import pytest
from _scale import SCALE

import atomic_africa as aa
import atomic_africa.odds as odds
from atomic_africa.reference import odds as ref_odds

if SCALE >= 1:
    SHOOTER, TARGET = (10, 10, 8), (8, 8, 6)
else:
    SHOOTER, TARGET = (4, 6, 4), (4, 4, 6)
CFG = dict(shooter_posture=aa.Posture.OFFENSIVE, target_posture=aa.Posture.DEFENSIVE, range_band=3,
           armor=2, cover=aa.Cover.LIGHT)
SHOOTER_DIE = tuple(aa.Die(d) for d in SHOOTER)
TARGET_DIE = tuple(aa.Die(d) for d in TARGET)
REF_CELLS = 2 if SCALE >= 1 else 4  # grid cells the (slow) reference computes


def _side_support(dice, posture, action, rules):
    """numpy: score support and counts of one side (all faces, vectorised sort + unique)."""
    faces = np.stack(np.meshgrid(*(np.arange(1, d + 1) for d in dice), indexing="ij"), -1)
    faces = np.sort(faces.reshape(-1, 3), axis=1)
    single_idx, single_role, pair_role = rules.table5_array[int(action), int(posture)]
    single = faces[:, single_idx]
    pair = faces[:, [1, 2]] if single_idx == 0 else faces[:, [0, 1]]
    if pair_role == aa.Role.ATTACK:
        attack, defense = pair.sum(1), single
    else:
        attack, defense = single, pair.sum(1)
    return np.unique(attack, return_counts=True), np.unique(defense, return_counts=True)


def numpy_fire_outcomes(shooter, target, *, shooter_posture, target_posture, range_band, armor,
                        cover, rules=None):
    """Same exact distribution (single-attack actions), numpy-vectorised over the two supports."""
    rules = aa.Rules.default() if rules is None else rules
    f = rules.fire
    (a, ac), _ = _side_support(shooter, shooter_posture, aa.Action.BASIC, rules)
    _, (d, dc) = _side_support(target, target_posture, aa.Action.BASIC, rules)
    A, D = a[:, None], d[None, :]
    damage = range_band + D
    eff = max(armor + f.cover_armor_bonus[int(cover)] + 0, f.armor_floor)
    markers = np.where(A > damage, f.markers_beyond_damage, np.where(A > range_band, f.markers_beyond_range, 0))
    markers = np.minimum(markers, f.turn_marker_cap)
    wounds = np.where(A > damage, (A - damage) // eff, 0)
    counts = np.zeros((f.turn_marker_cap + 1, wounds.max() + 1), dtype=np.int64)
    np.add.at(counts, (markers.ravel(), wounds.ravel()), (ac[:, None] * dc[None, :]).ravel())
    total = int(np.prod(shooter)) * int(np.prod(target))
    m, w = np.nonzero(counts)
    return {(int(i), int(j)): counts[i, j] / total for i, j in zip(m, w)}


def numpy_fire_grid(shooter, target, rules=None):
    """The full grid (basic action, both postures each side), broadcast over every axis at once."""
    rules = aa.Rules.default() if rules is None else rules
    f = rules.fire
    bands = np.arange(1, len(f.band_edges_cm) + 2)[None, None, :, None, None]
    cover_bonus = np.array(f.cover_armor_bonus)[None, None, None, :, None]
    armors = np.arange(1, 7)[None, None, None, None, :]
    eff = np.maximum(armors + cover_bonus, f.armor_floor)
    out = np.empty((2, 2, 9, 3, 6, 4))
    for i, sp in enumerate(aa.Posture):
        (a, ac), _ = _side_support(shooter, sp, aa.Action.BASIC, rules)
        for j, tp in enumerate(aa.Posture):
            _, (d, dc) = _side_support(target, tp, aa.Action.BASIC, rules)
            A = a[:, None, None, None, None]
            D = d[None, :, None, None, None]
            n = (ac[:, None] * dc[None, :])[:, :, None, None, None]
            damage = bands + D
            hit = A > damage
            markers = np.where(hit, f.markers_beyond_damage, np.where(A > bands, f.markers_beyond_range, 0))
            markers = np.minimum(markers, f.turn_marker_cap)
            wounds = np.where(hit, (A - damage) // eff, 0)
            markers, wounds = np.broadcast_arrays(markers, wounds)
            total = n.sum()
            out[i, j, ..., 0] = ((markers > 0) * n).sum((0, 1)) / total
            out[i, j, ..., 1] = ((wounds > 0) * n).sum((0, 1)) / total
            out[i, j, ..., 2] = (markers * n).sum((0, 1)) / total
            out[i, j, ..., 3] = (wounds * n).sum((0, 1)) / total
    return out


# -- one query ---------------------------------------------------------------------------------
@pytest.mark.benchmark(group="fire_outcomes query")
def test_query_memo_hit(benchmark, items):
    items(1)
    odds.fire_outcomes(SHOOTER_DIE, TARGET_DIE, **CFG)
    dist = benchmark(odds.fire_outcomes, SHOOTER_DIE, TARGET_DIE, **CFG)
    assert abs(sum(dist.values()) - 1) < 1e-12


@pytest.mark.benchmark(group="fire_outcomes query")
def test_query_memo_hit_strings(benchmark, items):
    items(1)
    kw = dict(CFG, shooter_posture="offensive", target_posture="defensive")
    s, t = ",".join(f"d{d}" for d in SHOOTER), ",".join(f"d{d}" for d in TARGET)
    odds.fire_outcomes(s, t, **kw)
    benchmark(odds.fire_outcomes, s, t, **kw)


@pytest.mark.benchmark(group="fire_outcomes query")
def test_query_new_config_sides_cached(benchmark, items):
    # A configuration not seen before whose two sides' pmfs are cached (e.g. a new band).
    items(1)
    rules = aa.Rules.default()

    def setup():
        odds._memo(rules).results.clear()
        odds.scores_pmf(SHOOTER_DIE, CFG["shooter_posture"], aa.Action.BASIC)
        odds.scores_pmf(TARGET_DIE, CFG["target_posture"], aa.Action.BASIC)
        return (SHOOTER_DIE, TARGET_DIE), dict(CFG)

    benchmark.pedantic(odds.fire_outcomes, setup=setup, rounds=2000, warmup_rounds=10)


@pytest.mark.benchmark(group="fire_outcomes query")
def test_query_cold(benchmark, items):
    # Nothing memoised: both sides enumerated, combined, converted.
    items(1)

    def setup():
        odds.clear_cache()
        return (SHOOTER_DIE, TARGET_DIE), dict(CFG)

    benchmark.pedantic(odds.fire_outcomes, setup=setup, rounds=1000, warmup_rounds=10)


@pytest.mark.benchmark(group="fire_outcomes query")
def test_query_numpy_baseline(benchmark, items):
    items(1)
    got = benchmark(numpy_fire_outcomes, SHOOTER, TARGET, **CFG)
    want = odds.fire_outcomes(SHOOTER, TARGET, **CFG)
    assert got.keys() == want.keys()
    assert all(abs(got[k] - want[k]) < 1e-15 for k in got)


@functools.cache
def _numpy_memo(shooter, target, shooter_posture, target_posture, range_band, armor, cover):
    return numpy_fire_outcomes(shooter, target, shooter_posture=shooter_posture, target_posture=target_posture,
                               range_band=range_band, armor=armor, cover=cover)


@pytest.mark.benchmark(group="fire_outcomes query")
def test_query_numpy_memoised(benchmark, items):
    """The numpy baseline behind functools.cache, as a user would memoise it: against the
    kernel's memo hit (both hand back a fresh dict, the caller may change it)."""
    items(1)

    def query():
        return dict(_numpy_memo(SHOOTER, TARGET, **CFG))
    query()
    got = benchmark(query)
    assert got.keys() == odds.fire_outcomes(SHOOTER, TARGET, **CFG).keys()


@pytest.mark.benchmark(group="fire_outcomes query")
def test_query_reference_brute_force(benchmark, items):
    items(1)
    got = benchmark.pedantic(ref_odds.fire_outcomes, args=(SHOOTER, TARGET), kwargs=CFG, rounds=3,
                             iterations=1)
    assert got == odds.fire_outcomes(SHOOTER, TARGET, exact=True, **CFG)


# -- the grid -----------------------------------------------------------------------------------
GRID_CELLS = 2 * 2 * 9 * 3 * 6


@pytest.mark.benchmark(group="fire_grid")
def test_grid_kernel(benchmark, items):
    items(GRID_CELLS)
    odds.fire_grid(SHOOTER, TARGET)  # side pmfs cached, as for every later grid of these units
    g = benchmark(odds.fire_grid, SHOOTER, TARGET)
    assert g.shape == (2, 2, 9, 3, 6, 4)


@pytest.mark.benchmark(group="fire_grid")
def test_grid_kernel_cold(benchmark, items):
    items(GRID_CELLS)

    def setup():
        odds.clear_cache()
        return (SHOOTER, TARGET), {}

    benchmark.pedantic(odds.fire_grid, setup=setup, rounds=200, warmup_rounds=2)


@pytest.mark.benchmark(group="fire_grid")
def test_grid_numpy_baseline(benchmark, items):
    items(GRID_CELLS)
    got = benchmark(numpy_fire_grid, SHOOTER, TARGET)
    np.testing.assert_allclose(got, odds.fire_grid(SHOOTER, TARGET), rtol=1e-12, atol=1e-15)


@pytest.mark.benchmark(group="fire_grid")
def test_grid_reference_per_cell(benchmark, items):
    # The brute-force reference on REF_CELLS cells; per-cell time gives the ratio.
    items(REF_CELLS)
    kw = dict(shooter_postures=[0], target_postures=[1], bands=list(range(1, REF_CELLS + 1)),
              covers=[aa.Cover.LIGHT], armors=[2])
    got = benchmark.pedantic(ref_odds.fire_grid, args=(SHOOTER, TARGET), kwargs=kw, rounds=1,
                             iterations=1)
    np.testing.assert_allclose(np.array(got, dtype=float), odds.fire_grid(SHOOTER, TARGET, **kw),
                               rtol=1e-14)
