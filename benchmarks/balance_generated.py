"""The balance of generated battles (issue 26): random-vs-random mirrors on a sample of maps.

Run (about a minute for the default 10,000 games on one core)::

    python benchmarks/balance_generated.py --maps 50 --games 200
    python benchmarks/balance_generated.py --maps 20 --games 500 --knobs '{"size": "large", "units": [3, 6]}'

Map ``j`` is ``Scenario.generate(j, **knobs)`` (``--map-seed`` shifts the seeds); on each the
random agent plays both sides, ``--games`` games seeded as ``atomic-africa selfplay --seed j``
(native engine). Prints per map player 0's share of the decided games, then over all games that
share with its 95 % Wilson interval and the criterion of issue 26: inside 45-55 % (``--check``:
exit status 1 when it is not met). ``tests/test_generate.py`` runs a smaller sample with a 99.9 %
bound.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from atomic_africa.cli.common import positive_count_arg
from atomic_africa.game import Scenario
from atomic_africa.selfplay import play_games, wilson_interval

BAND = (0.45, 0.55)


def mirror_counts(maps: int, games: int, knobs: dict, map_seed: int = 0, agent: str = "random") -> list:
    """(map seed, player 0 wins, player 1 wins, draws) of ``games`` mirror games on each map."""
    out = []
    for j in range(map_seed, map_seed + maps):
        sc = Scenario.generate(j, **knobs)
        recs = play_games(games, (agent, agent), seed=j, scenario=sc, engine="native").records
        p0 = sum(r["winner"] == 0 for r in recs)
        p1 = sum(r["winner"] == 1 for r in recs)
        out.append((j, p0, p1, len(recs) - p0 - p1))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", type=positive_count_arg, default=50)
    ap.add_argument("--games", type=positive_count_arg, default=200, help="games per map")
    ap.add_argument("--map-seed", type=int, default=0, help="seed of the first map (default %(default)s)")
    ap.add_argument("--knobs", default="{}", help="JSON dict of Scenario.generate knobs")
    ap.add_argument("--agent", default="random", help="the agent on both sides (default %(default)s)")
    ap.add_argument("--check", action="store_true", help="exit 1 unless the 95%% interval is inside 45-55%%")
    a = ap.parse_args(argv)
    knobs = json.loads(a.knobs)
    t0 = time.perf_counter()
    rows = mirror_counts(a.maps, a.games, knobs, a.map_seed, a.agent)
    p0 = sum(r[1] for r in rows)
    p1 = sum(r[2] for r in rows)
    draws = sum(r[3] for r in rows)
    print(f"{a.agent}-vs-{a.agent} on {a.maps} generated maps x {a.games} games, knobs {knobs}")
    print(f"{'map':>5s} {'P0':>5s} {'P1':>5s} {'draws':>6s} {'P0 share':>9s}")
    for j, w0, w1, d in rows:
        print(f"{j:5d} {w0:5d} {w1:5d} {d:6d} {w0 / max(1, w0 + w1):9.3f}")
    lo, hi = wilson_interval(p0, p0 + p1)
    share = p0 / max(1, p0 + p1)
    ok = BAND[0] <= lo and hi <= BAND[1]
    print(f"all: {p0 + p1 + draws} games, P0 {p0}, P1 {p1}, draws {draws}: P0 share of decided {share:.3f}, "
          f"95% CI [{lo:.3f}, {hi:.3f}] ({time.perf_counter() - t0:.1f} s)")
    print(f"[{'met' if ok else 'NOT MET'}] inside [{BAND[0]:.2f}, {BAND[1]:.2f}]")
    return 1 if a.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
