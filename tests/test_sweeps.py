"""fire_sweep: every combination's rows equal fire_outcomes, same errors, arrow output."""
from __future__ import annotations

import numpy as np
import pytest

import atomic_africa as aa
from atomic_africa import odds
from atomic_africa.sweeps import SWEEP_COLUMNS, fire_sweep


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
    with pytest.raises(ValueError, match="^table: 'pandas' is not a table kind"):
        fire_sweep("d10,d10,d8", "d8,d8,d6", shooter_posture=0, target_posture=0, range_band=3, armor=2,
                   table="pandas")


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
