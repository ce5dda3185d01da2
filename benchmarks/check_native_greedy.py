"""The native greedy agent against the Python GreedyAgent on thousands of games, and its speed.

Run once (minutes; the Python agent takes ~3 ms a decision)::

    PYTHONPATH=python:src:tests python benchmarks/check_native_greedy.py --games 1000 \
        --random-games 1000 --scenarios 200

1. ``--games`` whole greedy-vs-greedy games of the default scenario and ``--random-games`` of random
   scenarios (tests/test_game_fuzz.random_scenario, one per game; a scenario whose games end before
   any decision is skipped) are played natively, then replayed in Python: the GreedyAgent must choose
   every action the native agent chose.
2. ``--scenarios`` random scenarios are played natively with half the moves random (varied positions),
   the native choice compared with the Python agent's at every decision.
3. Native greedy vs greedy games per second on one thread, 256 envs, default scenario (decisions of
   both sides, engine steps included).
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support.greedy_parity import AGENT_GREEDY, DEFAULT_PARAMS, play_greedy_games, play_greedy_parity
from support.vector_mirror import random_scenario

from atomic_africa.game.native.vector import VectorGame


def speed(seconds: float = 10.0, num_envs: int = 256) -> tuple[float, float]:
    """(games/s, decisions/s) of native greedy vs greedy on one thread, by process CPU time."""
    vg = VectorGame(None, num_envs, 0, threads=1)
    vg._engine.set_agent_params(DEFAULT_PARAMS)
    kinds = np.full(num_envs, AGENT_GREEDY, np.int8)
    active = np.ones(num_envs, np.uint8)
    out = np.empty(num_envs, np.int64)
    games = decisions = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        vg._engine.agent_actions(kinds, active, out, 1)
        term = vg.step(out, observe=False)[2]
        games += int(term.sum())
        decisions += num_envs
    el = time.process_time() - t0
    return games / el, decisions / el


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--random-games", type=int, default=1000)
    ap.add_argument("--scenarios", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=10.0)
    a = ap.parse_args(argv)
    t = time.time()
    decisions = 0
    for i in range(0, a.games, 8):
        done = play_greedy_games(None, num_envs=8, seed=1000 + i, games=min(8, a.games - i))
        decisions += sum(len(h) for _, h in done)
    print(f"whole games, default scenario: {a.games} games, {decisions} decisions, every one equal "
          f"({time.time() - t:.0f} s)", flush=True)
    t = time.time()
    decisions = played = skipped = 0
    k = 0
    while played < a.random_games:
        k += 1
        try:
            done = play_greedy_games(random_scenario(10_000 + k), num_envs=1, seed=k, games=1)
        except ValueError as e:   # no game of this scenario reaches a decision
            if "no game reached a decision" not in str(e):
                raise
            skipped += 1
            continue
        decisions += sum(len(h) for _, h in done)
        played += 1
    print(f"whole games, random scenarios: {played} games, {decisions} decisions, every one equal "
          f"({skipped} scenarios without a decision skipped; {time.time() - t:.0f} s)", flush=True)
    t = time.time()
    seen, finished = Counter(), 0
    for sc in range(a.scenarios):
        s, f = play_greedy_parity(random_scenario(sc), num_envs=4, seed=sc, steps=200)
        seen += s
        finished += f
    print(f"random positions: {a.scenarios} random scenarios, {finished} games finished, "
          f"{sum(v for k, v in seen.items() if ':' not in k and k not in ('joker', 'feature', 'assets'))} "
          f"decisions compared, every one equal ({time.time() - t:.0f} s); by kind: {dict(seen)}", flush=True)
    gps, dps = speed(a.seconds)
    print(f"native greedy vs greedy, 1 thread, 256 envs, default scenario: {gps:.0f} games/s, "
          f"{dps:.0f} decisions/s ({1e6 / dps:.2f} us per decision, engine step included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
