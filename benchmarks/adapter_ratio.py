"""The adapters' cost over the raw engine, measured interleaved (issue 26): the entries of
``bench_adapters.py`` (group ``adapter_decisions``) played round after round in turn, ``--rounds``
times, each round timed in CPU seconds of this process, so that a load that changes during the run
weighs on every entry alike. Prints each entry's median CPU time per decision and its ratio to
``raw_engine`` (issue 26's target: at most 1.3 for ``gym_vector`` and ``sb3``)::

    taskset -c 1 python benchmarks/adapter_ratio.py --rounds 15

Run from the repository root (it imports ``bench_adapters`` from this folder).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_adapters import STEPS, interleaved


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=11, help="rounds of every entry (default %(default)s)")
    args = ap.parse_args(argv)
    times, d = interleaved(args.rounds)
    raw = np.median(times["raw_engine"])
    print(f"{STEPS} learner steps of 256 envs ({d:,} decisions of both sides) per round, {args.rounds} "
          f"rounds interleaved, CPU time; load average {os.getloadavg()[0]:.1f}")
    for name, ts in times.items():
        med = np.median(ts)
        print(f"  {name:<18s} median {med / d * 1e9:8.1f} ns/decision  (range {min(ts) / d * 1e9:.0f}-"
              f"{max(ts) / d * 1e9:.0f})  x{med / raw:.3f} raw_engine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
