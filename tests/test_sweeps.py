"""fire_sweep: every combination's rows equal fire_outcomes, same errors, arrow output."""
from __future__ import annotations

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa import odds
from atomic_africa import batch
from atomic_africa.sweeps import MAX_SWEEP_SAMPLES, SWEEP_COLUMNS, fire_sweep, sampled_fire_sweep

GRID = dict(shooter=["d10,d10,d8", (8, 8, 6)], target="d8,d8,d6", shooter_posture=[0, 1], target_posture=0,
            range_band=[2, 5], armor=[1, 3], vehicle=[False, True])


def test_sweep_rows_are_the_exact_odds_of_each_combination():
    cols = fire_sweep(["d10,d10,d8", (8, 8, 6)], "d8,d8,d6", shooter_posture=0, target_posture=[0, 1],
                      range_band=range(1, 4), armor=2, cover=[aa.Cover.NONE, aa.Cover.HEAVY], vehicle=[False, True])
    n = len(cols["probability"])
    assert all(len(cols[k]) == n for k in cols)
    seen = 0
    for shooter in ("d10,d10,d8", "d8,d8,d6"):
        for tp in (0, 1):
            for band in (1, 2, 3):
                for cover in (0, 2):
                    for veh in (False, True):
                        rows = ((cols["shooter"] == shooter) & (cols["target_posture"] == tp)
                                & (cols["range_band"] == band) & (cols["cover"] == cover) & (cols["vehicle"] == veh))
                        got = dict(zip(zip(cols["markers"][rows].tolist(), cols["wounds"][rows].tolist()),
                                       cols["probability"][rows].tolist()))
                        assert got == odds.fire_outcomes(shooter, "d8,d8,d6", shooter_posture=0, target_posture=tp,
                                                         range_band=band, armor=2, cover=cover, vehicle=veh)
                        seen += rows.sum()
    assert seen == n


def test_sweep_errors_are_fire_outcomes_errors():
    with pytest.raises(ValueError) as want:
        odds.fire_outcomes("d10,d10,d8", "d8,d8,d6", shooter_posture=0, target_posture=0, range_band=10, armor=2)
    with pytest.raises(ValueError) as got:
        fire_sweep("d10,d10,d8", "d8,d8,d6", shooter_posture=0, target_posture=0, range_band=[3, 10], armor=2)
    assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="^armor: an empty list sweeps nothing"):
        fire_sweep("d10,d10,d8", "d8,d8,d6", shooter_posture=0, target_posture=0, range_band=3, armor=[])
    with pytest.raises(ValueError, match="^table: 'polars' is not a table kind; allowed 'columns', 'pandas', 'arrow'$"):
        fire_sweep("d10,d10,d8", "d8,d8,d6", shooter_posture=0, target_posture=0, range_band=3, armor=2,
                   table="polars")


def test_sweep_as_arrow_table():
    import pyarrow as pa   # the parquet extra, in the test extras
    t = fire_sweep("d10,d10,d8", "d8,d8,d6", shooter_posture=[0, 1], target_posture=0, range_band=3, armor=[1, 2],
                   table="arrow")
    assert isinstance(t, pa.Table)
    assert t.column_names == list(SWEEP_COLUMNS) + ["markers", "wounds", "probability"]
    cols = fire_sweep("d10,d10,d8", "d8,d8,d6", shooter_posture=[0, 1], target_posture=0, range_band=3, armor=[1, 2])
    np.testing.assert_array_equal(t.column("probability").to_numpy(), cols["probability"])
    sums = {}
    for sp, a, p in zip(cols["shooter_posture"], cols["armor"], cols["probability"]):
        sums[(sp, a)] = sums.get((sp, a), 0.0) + p
    assert len(sums) == 4 and all(abs(s - 1) < 1e-12 for s in sums.values())


def test_sweep_as_pandas_frame_equals_the_columns():
    import pandas as pd   # the pandas extra, in the test extras
    kw = dict(shooter_posture=[0, 1], target_posture=0, range_band=3, armor=[1, 2])
    df = fire_sweep("d10,d10,d8", "d8,d8,d6", **kw, table="pandas")
    cols = fire_sweep("d10,d10,d8", "d8,d8,d6", **kw)
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == list(SWEEP_COLUMNS) + ["markers", "wounds", "probability"]
    for name, col in cols.items():
        assert df[name].tolist() == col.tolist()
    assert df["probability"].dtype == np.float64 and df["vehicle"].dtype == bool and df["armor"].dtype == np.int64
    sums = df.groupby(["shooter_posture", "armor"])["probability"].sum()
    assert len(sums) == 4 and np.allclose(sums, 1, atol=1e-12, rtol=0)


def test_sampled_sweep_cells_are_simulate_fire_of_each_child_stream():
    n = 3000
    cols = sampled_fire_sweep(**GRID, n=n, seed=11)
    exact = fire_sweep(**GRID)
    # the exact sweep's rows, in its order, with counts in place of probabilities
    for name in SWEEP_COLUMNS + ("markers", "wounds"):
        assert cols[name].tolist() == exact[name].tolist()
    assert cols["count"].dtype == np.int64 and np.array_equal(cols["frequency"], cols["count"] / n)
    i = 0
    for shooter in GRID["shooter"]:
        for sp in GRID["shooter_posture"]:
            for band in GRID["range_band"]:
                for armor in GRID["armor"]:
                    for veh in GRID["vehicle"]:
                        label = shooter if isinstance(shooter, str) else "d8,d8,d6"
                        rows = ((cols["shooter"] == label) & (cols["shooter_posture"] == sp)
                                & (cols["range_band"] == band) & (cols["armor"] == armor) & (cols["vehicle"] == veh))
                        child = np.random.SeedSequence(11, spawn_key=(i,))
                        m, w = batch.simulate_fire(n, shooter, "d8,d8,d6", shooter_posture=sp, target_posture=0,
                                                   range_band=band, armor=armor, vehicle=veh, seed=child)
                        want = {}
                        for k in zip(m.tolist(), w.tolist()):
                            want[k] = want.get(k, 0) + 1
                        got = dict(zip(zip(cols["markers"][rows].tolist(), cols["wounds"][rows].tolist()),
                                       cols["count"][rows].tolist()))
                        assert {k: c for k, c in got.items() if c} == want and sum(got.values()) == n
                        i += 1
    assert i == 32


def test_sampled_sweep_follows_the_exact_odds():
    # Each cell's counts against its exact probabilities: a chi-square goodness of fit (outcomes of
    # expected count below 5 pooled), fixed seed, each cell at 1e-4 with a Bonferroni bound over cells.
    from scipy import stats

    n = 20000
    cols = sampled_fire_sweep(**GRID, n=n, seed=2026)
    exact = fire_sweep(**GRID)
    cell = np.unique(np.stack([np.unique(cols[k], return_inverse=True)[1] for k in
                               ("shooter", "shooter_posture", "range_band", "armor", "vehicle")]), axis=1,
                     return_inverse=True)[1]
    n_cells = cell.max() + 1
    for c in range(n_cells):
        rows = cell == c
        expected = exact["probability"][rows] * n
        observed = cols["count"][rows]
        small = expected < 5
        e = np.append(expected[~small], expected[small].sum())
        o = np.append(observed[~small], observed[small].sum())
        keep = e > 0
        chi2 = float((((o - e) ** 2)[keep] / e[keep]).sum())
        dof = int(keep.sum()) - 1
        if dof > 0:
            assert stats.chi2.sf(chi2, dof) > 1e-4 / n_cells, (c, chi2, dof)


def test_sampled_sweep_same_seed_same_table_any_threads_and_output_kinds():
    a = sampled_fire_sweep(**GRID, n=70_000, seed=np.random.SeedSequence(4))
    b = sampled_fire_sweep(**GRID, n=70_000, seed=4, threads=2)
    for k in a:
        assert a[k].tolist() == b[k].tolist()
    c = sampled_fire_sweep(**GRID, n=70_000, seed=5)
    assert c["count"].tolist() != a["count"].tolist()
    import pandas as pd
    df = sampled_fire_sweep(**GRID, n=500, seed=4, table="pandas")
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == list(SWEEP_COLUMNS) + ["markers", "wounds", "count", "frequency"]
    import pyarrow as pa
    t = sampled_fire_sweep(**GRID, n=500, seed=4, table="arrow")
    assert isinstance(t, pa.Table) and t.column("count").to_pylist() == df["count"].tolist()


@pytest.mark.parametrize("bad, error, message", [
    (dict(n=0), ValueError, "^n: "),
    (dict(n=2.5), TypeError, "^n: "),
    (dict(seed=None), ValueError, "^seed: a sampled sweep needs a seed"),
    (dict(seed=-1), ValueError, "^seed: must be non-negative"),
    (dict(seed="x"), TypeError, "^seed: expected None, a non-negative int"),
    (dict(table="frame"), ValueError, "^table: 'frame' is not a table kind"),
    (dict(threads=0), ValueError, "^threads: "),
    (dict(n=MAX_SWEEP_SAMPLES), ValueError, "^n: 1,000,000,000 engagements for each of 32 combinations"),
    (dict(range_band=[3, 10]), ValueError, "^range_band: "),
])
def test_sampled_sweep_bad_input(bad, error, message):
    with pytest.raises(error, match=message):
        sampled_fire_sweep(**{**GRID, "n": 10, "seed": 1, **bad})
