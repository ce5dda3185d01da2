"""Interrupted self-play runs resumed byte for byte (too many for the suite; run by hand):

    PYTHONPATH=python:src:tests python tests/support/check_resume_kills.py --runs 40

Each run plays ``--games`` native games (random agents, the default scenario) to a Parquet or CSV
table and a replays file, with a random batch size; it is stopped at a random moment by SIGKILL, by
SIGINT, or by a full disk (RLIMIT_FSIZE at a random size, which makes writes past it fail with EFBIG
as ENOSPC would), then completed with ``--resume`` (a killed resume is resumed again). The final files
must be byte for byte those of an uninterrupted run with the same options. Prints each run and
"N of M resumed byte for byte"; exit status 1 if any differs.
"""
from __future__ import annotations

import argparse
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _argv(d: Path, games: int, fmt: str, batch: int) -> list:
    return [sys.executable, "-m", "atomic_africa", "selfplay", "--games", str(games), "--agents", "random,random",
            "--engine", "native", "--batch-size", str(batch), "--no-progress", "--out", str(d / f"r.{fmt}"),
            "--replays", str(d / "r.jsonl")]


def _files(d: Path, fmt: str) -> tuple:
    return (d / f"r.{fmt}").read_bytes(), (d / "r.jsonl").read_bytes()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--seed", type=int, default=27)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    refs, same = {}, 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for run in range(args.runs):
            fmt, batch = rng.choice(["parquet", "csv"]), rng.choice([1, 2, 3, 5])
            how = rng.choice(["SIGKILL", "SIGINT", "full disk"])
            key = (fmt, batch)
            if key not in refs:
                ref = root / f"ref-{fmt}-{batch}"
                ref.mkdir()
                subprocess.run(_argv(ref, args.games, fmt, batch), check=True, capture_output=True)
                refs[key] = _files(ref, fmt)
            d = root / f"run-{run}"
            d.mkdir()
            argv = _argv(d, args.games, fmt, batch)
            if how == "full disk":
                limit = rng.randint(2_000, 1_500_000)

                def cap(limit=limit):
                    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
                first = subprocess.run(argv, capture_output=True, text=True, preexec_fn=cap)
                note = f"limit {limit:,} bytes, exit {first.returncode}"
            else:
                p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(rng.uniform(0.5, 6.0))
                p.send_signal(getattr(signal, how))
                p.wait()
                note = f"exit {p.returncode}"
            for _ in range(3):          # a run that completed before the signal needs no resume
                if (d / f"r.{fmt}").exists() and not list(d.glob("*.partial*")):
                    break
                # stopped before it wrote anything (still starting up): nothing to resume
                started = (d / f"r.{fmt}.partial.json").exists()
                done = subprocess.run(argv + (["--resume"] if started else []), capture_output=True, text=True)
                if done.returncode != 0:
                    print(f"run {run}: resume failed: {done.stderr.strip()}")
                    break
            ok = (d / f"r.{fmt}").exists() and _files(d, fmt) == refs[key]
            same += ok
            print(f"run {run:2d}: {fmt:7s} batch {batch} stopped by {how:9s} ({note}): "
                  f"{'byte for byte' if ok else 'DIFFERENT'}", flush=True)
    print(f"{same} of {args.runs} resumed byte for byte")
    return 0 if same == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
