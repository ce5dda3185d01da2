"""Per-episode map sampling's cost over the plain engine, measured interleaved (issue 33): the
``map_sampling`` entries of ``bench_vector.py`` (a VectorGame of one map, then MixedVectorGames of
4, 16 and 64 generated maps, 256 envs, 1 thread) played round after round in turn, each timed in
CPU seconds of this process. Prints each entry's median CPU time per decision and its ratio to
``plain`` (issue 33's target: at most 1.3 at 64 maps)::

    taskset -c 1 python benchmarks/map_sampling_ratio.py --rounds 7

``--per-map`` prints instead what the maps cost by themselves (``bench_vector.map_mix``): a plain
VectorGame of each of the 64 maps against one of map 0, in pairs played in turn; their mean is the
ratio at 64 maps if sampling cost nothing (the maps differ in size and terrain).

Run from the repository root (it imports ``bench_vector`` from this folder).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_vector import MAP_COUNTS, MAP_ENVS, MAP_STEPS, map_mix, map_ratios


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5, help="rounds of every entry (default %(default)s)")
    ap.add_argument("--per-map", action="store_true", help="each map's plain engine against map 0's instead")
    args = ap.parse_args(argv)
    if args.per_map:
        r = np.array(map_mix())
        print(f"{MAP_STEPS} learner steps of {MAP_ENVS} envs, a plain VectorGame of map j against one of map 0, "
              f"in turn, CPU time; load average {os.getloadavg()[0]:.1f}")
        for k in MAP_COUNTS:
            print(f"  maps 0-{k - 1}: mean x{r[:k].mean():.2f} map 0 (median x{np.median(r[:k]):.2f})")
        return 0
    per, ratios = map_ratios(args.rounds)
    print(f"{MAP_STEPS} learner steps of {MAP_ENVS} envs per round, {args.rounds} rounds interleaved, CPU time; "
          f"load average {os.getloadavg()[0]:.1f}")
    for name, ts in per.items():
        print(f"  {name:<8s} median {np.median(ts) * 1e9:8.1f} ns/decision  (range {min(ts) * 1e9:.0f}-"
              f"{max(ts) * 1e9:.0f})  x{ratios[name]:.2f} plain")
    return 0


if __name__ == "__main__":
    sys.exit(main())
