"""Per-episode map sampling's cost over the plain engine, measured interleaved (issue 33): the
``map_sampling`` entries of ``bench_vector.py`` (a VectorGame of one map, then MixedVectorGames of
4, 16 and 64 generated maps, 256 envs, 1 thread) played round after round in turn, each timed in
CPU seconds of this process. Prints each entry's median CPU time per decision and its ratio to
``plain`` (issue 33's target: at most 1.3 at 64 maps)::

    taskset -c 1 python benchmarks/map_sampling_ratio.py --rounds 7

Run from the repository root (it imports ``bench_vector`` from this folder).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_vector import MAP_ENVS, MAP_STEPS, map_ratios


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5, help="rounds of every entry (default %(default)s)")
    args = ap.parse_args(argv)
    per, ratios = map_ratios(args.rounds)
    print(f"{MAP_STEPS} learner steps of {MAP_ENVS} envs per round, {args.rounds} rounds interleaved, CPU time; "
          f"load average {os.getloadavg()[0]:.1f}")
    for name, ts in per.items():
        print(f"  {name:<8s} median {np.median(ts) * 1e9:8.1f} ns/decision  (range {min(ts) * 1e9:.0f}-"
              f"{max(ts) * 1e9:.0f})  x{ratios[name]:.2f} plain")
    return 0


if __name__ == "__main__":
    sys.exit(main())
