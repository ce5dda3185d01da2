"""``atomic-africa odds --sweep``: the table is fire_sweep's (or sampled_fire_sweep's), in CSV or Parquet."""
from __future__ import annotations

import csv
import io

import pytest

from atomic_africa.cli import main
from atomic_africa.sweeps import fire_sweep, sampled_fire_sweep

ARGS = ["odds", "--shooter", "d10,d10,d8", "--target", "d8,d8,d6", "--posture", "off", "--target-posture", "def",
        "--armor", "2", "--cover", "light"]
KW = dict(target="d8,d8,d6", shooter_posture=0, target_posture=1, armor=2, cover=1)
SWEEP = ["--sweep", "range_band=1..3", "--sweep", "shooter=d10,d10,d8/d6,d6,d6", "--sweep", "vehicle=false,true"]
SWEPT = dict(range_band=[1, 2, 3], shooter=["d10,d10,d8", "d6,d6,d6"], vehicle=[False, True])


def _rows(text: str) -> tuple[list, list]:
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


def _same(header, rows, cols):
    assert header == list(cols)
    assert len(rows) == len(cols["markers"])
    for j, name in enumerate(header):
        col = cols[name]
        got = [r[j] for r in rows]
        if col.dtype.kind == "f":
            assert [float(x) for x in got] == col.tolist()   # the CSV's floats read back exactly
        elif col.dtype.kind == "b":
            assert got == [str(bool(x)) for x in col]
        else:
            assert got == [str(x) for x in col.tolist()]


def test_exact_sweep_to_stdout_is_fire_sweep(capsys):
    assert main(ARGS + SWEEP) == 0
    header, rows = _rows(capsys.readouterr().out)
    _same(header, rows, fire_sweep(**{**KW, **SWEPT}))


def test_sweep_to_csv_and_parquet_files(tmp_path, capsys):
    out = tmp_path / "odds.csv"
    assert main(ARGS + SWEEP + ["--out", str(out)]) == 0
    assert "rows (exact odds) written to" in capsys.readouterr().out
    header, rows = _rows(out.read_text())
    cols = fire_sweep(**{**KW, **SWEPT})
    _same(header, rows, cols)
    import pyarrow.parquet as pq
    pout = tmp_path / "odds.parquet"
    assert main(ARGS + SWEEP + ["--out", str(pout)]) == 0
    t = pq.read_table(pout)
    assert t.column_names == list(cols)
    for name, col in cols.items():
        assert t.column(name).to_pylist() == col.tolist()


def test_sampled_sweep_is_sampled_fire_sweep_of_the_seed(capsys):
    assert main(ARGS + SWEEP + ["--samples", "2000", "--seed", "17"]) == 0
    header, rows = _rows(capsys.readouterr().out)
    cols = sampled_fire_sweep(**{**KW, **SWEPT}, n=2000, seed=17)
    _same(header, rows, cols)
    assert header[-2:] == ["count", "frequency"]
    assert sum(int(r[-2]) for r in rows) == 2000 * 12   # every cell's counts, none lost


@pytest.mark.parametrize("extra, message", [
    (["--sweep", "range_bnd=1..3"], "argument --sweep: expected NAME=VALUES with NAME one of shooter, target"),
    (["--sweep", "armor=1,x"], "argument --sweep: armor: expected whole numbers or ranges such as 1..9, got 'x'"),
    (["--sweep", "cover=roof"], "argument --sweep: cover: "),
    (["--sweep", "vehicle=maybe"], "argument --sweep: vehicle: vehicle: expected one of true, yes, 1, false"),
    (["--sweep", "armor="], "argument --sweep: armor: no values"),
    (["--sweep", "armor=0..2"], "error: --sweep armor: 0 is out of range; allowed >= 1"),
    (["--sweep", "armor=1", "--sweep", "armor=2"], "error: --sweep: armor given twice"),
    (["--sweep", "armor=1,2", "--out", "x.txt"], "error: --out: 'x.txt' has no table suffix; allowed FILE.csv or "
                                                 "FILE.parquet"),
    (["--out", "x.csv"], "error: --out: only with --sweep NAME=VALUES"),
    (["--samples", "10"], "error: --samples: only with --sweep NAME=VALUES"),
    (["--sweep", "armor=1,2", "--seed", "3"], "error: --seed: only with --samples N"),
    (["--sweep", "armor=1,2", "--grid"], "error: --grid: not with --sweep"),
    (["--sweep", "armor=1,2", "--exact"], "error: --exact: not with --sweep"),
    (["--sweep", "armor=1,2", "--action", "rally"], "error: --sweep: only for fire"),
    (["--sweep", "armor=1,2", "--samples", "0"], "argument --samples: must be >= 1"),
    (["--sweep", "range_band=1..3", "--distance", "40"], "error: --distance: not with --sweep range_band"),
    (["--sweep", "range_band=1..3", "--range-band", "2"], "error: --range-band: not with --sweep range_band"),
    (["--sweep", "armor=1..1000", "--samples", "1e7"], "error: --samples: 10,000,000 engagements for each of "
                                                        "1,000 combinations"),
])
def test_sweep_bad_options(extra, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if message.startswith("argument"):   # argparse's own errors exit
        with pytest.raises(SystemExit) as info:
            main(ARGS + extra)
        status = info.value.code
    else:
        status = main(ARGS + extra)
    err = capsys.readouterr().err
    assert status == 2
    assert message in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())   # nothing written
