"""The adapters' cost over the raw engine, measured interleaved (issues 26 and 33): the entries of
``bench_adapters.py`` (group ``adapter_decisions``) played in turn, round after round, ``--rounds``
times (each round starting one entry further along), each timed in CPU seconds of this process over
``--steps`` learner steps of 256 envs. For each entry it prints the median over rounds of its CPU
time per decision over ``raw_engine``'s in the same round (a load that changes between rounds
weighs on both sides of each ratio alike; short rounds pair them closely), with the middle half of
those ratios, and its median time per decision. Issue 33's target: at most 1.2 for ``gym_vector``,
``sb3`` and ``rllib``::

    taskset -c 1 python benchmarks/adapter_ratio.py --rounds 41 --steps 150

Run from the repository root (it imports ``bench_adapters`` from this folder).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_adapters import NUM_ENVS, interleaved, round_ratios


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=41, help="rounds of every entry (default %(default)s)")
    ap.add_argument("--steps", type=int, default=150, help="learner steps of each entry in a round "
                    "(default %(default)s)")
    args = ap.parse_args(argv)
    for name in ("rounds", "steps"):
        if getattr(args, name) < 1:
            ap.error(f"--{name}: {getattr(args, name)} is out of range; allowed >= 1")
    times, decisions = interleaved(args.rounds, steps=args.steps)
    ratios = round_ratios(times, decisions)
    d = decisions["raw_engine"]
    print(f"{args.steps} learner steps of {NUM_ENVS} envs a round ({d:,} decisions of both sides; rllib "
          f"{decisions['rllib']:,}: an env sits out the step after its game's end), {args.rounds} rounds "
          f"interleaved, CPU time; load average {os.getloadavg()[0]:.1f}")
    for name, r in ratios.items():
        ns = np.median(times[name]) / decisions[name] * 1e9
        lo, hi = np.percentile(r, [25, 75])
        print(f"  {name:<18s} x{np.median(r):.3f} raw_engine (middle half {lo:.3f}-{hi:.3f})  "
              f"median {ns:7.1f} ns/decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
