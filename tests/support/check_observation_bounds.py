"""The observation's bounds on many native games (too many for the suite; run by hand):

    PYTHONPATH=python:src python tests/support/check_observation_bounds.py --games 4000 --agents random,greedy

Plays ``--games`` games of the default scenario per agent kind (both sides that agent) on the
native engine, takes both players' observations at every decision, in the absolute and the
side-relative view, and checks every one is inside ``observation_bounds`` (exit status 1 naming the
first feature outside). Prints the states seen, how many features exceeded 1, and the largest value
seen of each scaled count against its bound.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from atomic_africa.agents.native import agent_params
from atomic_africa.game import GameSpec, VectorGame
from atomic_africa.game.observation_spec import observation_bounds, observation_spec
from atomic_africa.game.side_view import SideView


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per agent kind")
    ap.add_argument("--agents", default="random,greedy", help="comma-separated native agent kinds")
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    spec = GameSpec.build()
    rows = observation_spec(spec)
    names = [f.name for f in rows]
    low, high = observation_bounds(spec)
    view = SideView(spec)
    seen = np.zeros(spec.observation_size, dtype=np.float32)
    states = 0
    t0 = time.perf_counter()
    for kind in args.agents.split(","):
        vg = VectorGame(spec, args.envs, args.seed)
        vg.agent_params = agent_params()
        vg.reset(seed=args.seed)
        games = 0
        while games < args.games:
            for p in (0, 1):
                obs = vg.observations(player=p)
                for o in (obs, view.observation(obs, p)):
                    bad = np.flatnonzero(((o < low) | (o > high)).any(axis=0))
                    if bad.size:
                        print(f"{kind}: {names[bad[0]]} outside [{low[bad[0]]}, {high[bad[0]]}]: "
                              f"{o[:, bad[0]].min()} .. {o[:, bad[0]].max()}")
                        return 1
                seen = np.maximum(seen, obs.max(axis=0))
                states += obs.shape[0]
            _, _, term, _, _ = vg.step(vg.agent_actions(kind), observe=False)
            games += int(term.sum())
        print(f"{kind}: {games} games")
    print(f"{states} observations in {time.perf_counter() - t0:.1f} s, all inside the bounds; "
          f"{int((seen > 1).sum())} features exceeded 1")
    for count in ("figures", "markers", "wounds", "turn_markers", "armor", "die_morale"):
        idx = [f.index for f in rows if f.name.endswith("." + count)]
        print(f"  {count:13s} largest seen {seen[idx].max():8.3f}   bound {high[idx].max():10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
