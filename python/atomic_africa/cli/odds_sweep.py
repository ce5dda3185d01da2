"""``atomic-africa odds --sweep NAME=VALUES ...``: the odds of every combination as a table (exact, or
sampled with ``--samples N --seed S``), to stdout as CSV or to ``--out FILE.csv|FILE.parquet``."""
from __future__ import annotations

import argparse
import csv
import io
import os
import sys

from .. import sweeps
from .._atomic_write import replaced_atomically
from .._optional import require
from .common import action_arg, cover_arg, dice_arg, engagement_band, posture_arg

__all__ = ["sweep_arg", "run_sweep", "SWEEP_NAMES", "check_sweep_out"]

# Option names a sweep may vary (the API's names; hyphens accepted) and their aliases.
_ALIASES = {"posture": "shooter_posture", "action": "shooter_action"}
SWEEP_NAMES = sweeps.SWEEP_COLUMNS
_VEHICLE = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def _ints(text: str) -> list:
    """"1,3,5", "1..9" or "-2..0,3": whole numbers, ranges inclusive."""
    out = []
    for item in text.split(","):
        lo, sep, hi = item.partition("..")
        try:
            out.extend(range(int(lo), int(hi) + 1) if sep else [int(item)])
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected whole numbers or ranges such as 1..9, got {item!r}") from None
    return out


def _vehicle(text: str) -> bool:
    try:
        return _VEHICLE[text.strip().lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(f"vehicle: expected one of {', '.join(_VEHICLE)}, got {text!r}") from None


def _parse_values(name: str, text: str) -> list:
    if name in ("shooter", "target"):
        # dice hold commas: several dice specs are separated by '/'
        return [dice_arg(t) for t in text.split("/")]
    if name in ("range_band", "armor", "ap"):
        return _ints(text)
    parse = {"shooter_posture": posture_arg, "target_posture": posture_arg, "shooter_action": action_arg,
             "target_action": action_arg, "cover": cover_arg, "vehicle": _vehicle}[name]
    return [parse(t) for t in text.split(",")]


def sweep_arg(text: str) -> tuple:
    """``NAME=VALUES`` -> (name, [values]): ``range_band=1..9``, ``cover=none,light``,
    ``shooter=d10,d10,d8/d8,d8,d6``."""
    name, sep, values = text.partition("=")
    key = name.strip().lower().replace("-", "_")
    key = _ALIASES.get(key, key)
    if not sep or key not in SWEEP_NAMES:
        raise argparse.ArgumentTypeError(
            f"expected NAME=VALUES with NAME one of {', '.join(SWEEP_NAMES)}, got {text!r}")
    if not values.strip():
        raise argparse.ArgumentTypeError(f"{key}: no values; e.g. range_band=1..9 or cover=none,light")
    try:
        return key, _parse_values(key, values.strip())
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{key}: {exc}") from None


def check_sweep_out(path) -> str:
    """``"csv"`` or ``"parquet"`` by the file's suffix (Parquet needs the parquet extra), checked
    before any work."""
    name = os.fspath(path).lower()
    if name.endswith(".csv"):
        return "csv"
    if name.endswith(".parquet"):
        require("pyarrow.parquet", "parquet", "--out FILE.parquet; a .csv file needs nothing")
        return "parquet"
    raise ValueError(f"--out: {os.fspath(path)!r} has no table suffix; allowed FILE.csv or FILE.parquet")


def run_sweep(args) -> int:
    fmt = check_sweep_out(args.out) if args.out else "csv"
    swept = {}
    for name, values in args.sweep:
        if name in swept:
            raise ValueError(f"--sweep: {name} given twice; allowed once per name (list all its values)")
        swept[name] = values
    if "range_band" in swept:
        for opt, given in (("--range-band", args.range_band), ("--distance", args.distance)):
            if given is not None:
                raise ValueError(f"{opt}: not with --sweep range_band=... (the sweep gives the bands)")
    kw = dict(shooter=args.shooter, target=args.target, shooter_posture=args.shooter_posture,
              target_posture=args.target_posture, range_band=engagement_band(args), armor=args.armor,
              shooter_action=args.shooter_action, target_action=args.target_action, cover=args.cover,
              ap=args.ap, vehicle=args.vehicle)
    kw.update(swept)
    table = "arrow" if fmt == "parquet" else "columns"
    try:
        if args.samples is not None:
            seed = args.seed if args.seed is not None else args.default_seed
            cols = sweeps.sampled_fire_sweep(**kw, n=args.samples, seed=seed, table=table, rules=args.rules)
        else:
            cols = sweeps.fire_sweep(**kw, table=table, rules=args.rules)
    except (TypeError, ValueError) as exc:
        # A swept value is named as the option that gave it, not as the engagement option.
        head, sep, rest = str(exc).partition(": ")
        name = head.split("[")[0]
        if sep and name in swept:
            raise type(exc)(f"--sweep {head}: {rest}") from None
        if sep and head == "n":
            raise type(exc)(f"--samples: {rest}") from None
        raise
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq
        sink = pa.BufferOutputStream()   # pyarrow deletes a path it fails to write: write the bytes ourselves
        pq.write_table(cols, sink)
        with replaced_atomically(args.out) as tmp, open(tmp, "wb") as fh:
            fh.write(sink.getvalue())
        n_rows = cols.num_rows
    else:
        buf = io.StringIO(newline="")
        w = csv.writer(buf)
        w.writerow(list(cols))
        n_rows = len(next(iter(cols.values())))
        for i in range(n_rows):
            # repr of a float is its shortest exact text: the CSV reads back to the same float64
            w.writerow([repr(float(c[i])) if c.dtype.kind == "f" else c[i] for c in cols.values()])
        if not args.out:
            sys.stdout.write(buf.getvalue())
            return 0
        with replaced_atomically(args.out) as tmp, open(tmp, "w", newline="", encoding="utf-8") as fh:
            fh.write(buf.getvalue())
    what = f"sampled ({args.samples:,} engagements each)" if args.samples is not None else "exact odds"
    print(f"{n_rows:,} rows ({what}) written to {args.out}")
    return 0
