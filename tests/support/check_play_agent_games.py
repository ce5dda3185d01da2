"""play_agent_games against the Python loop on many games (too many for the suite; run by hand):

    PYTHONPATH=python:src:tests python tests/support/check_play_agent_games.py --games 1000 --agents random,random

Game j (seed ``base + j``, agent seeds from ``SeedSequence(base, spawn_key=(j,))``) is played natively
(batch and threads varied between runs) and by ``Game`` + ``make_agent``; every game's actions and
result must agree. Scenarios: the default one and, with ``--random-scenarios``, a new random
scenario every 10 games (tests/test_game_fuzz.random_scenario). Prints the games compared, the
decisions and the first difference (exit status 1) if any.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from atomic_africa.agents.native import play_agent_games
from atomic_africa.game import GameSpec
from atomic_africa.game.scenario import load_scenario
from atomic_africa.game.schema import END_REASONS
from test_vector_agents import _python_game
from support.vector_mirror import random_scenario


def _compare(spec, gs, names, seeds, batch, threads) -> tuple[int, str | None]:
    r = play_agent_games(spec, gs, names, seeds, record_actions=True, batch=batch, threads=threads)
    for j in range(len(gs)):
        g = _python_game(spec, int(gs[j]), names, [int(s) for s in seeds[j]])
        res = g.result
        got = (r["actions"][j].tolist(), int(r["winner"][j]), END_REASONS[r["reason"][j]].text,
               int(r["turns"][j]), int(r["decisions"][j]), tuple(int(x) for x in r["figures"][j]))
        want = (list(g.history), -1 if res.winner is None else res.winner, res.reason, g.s.turn,
                len(g.history), tuple(res.figures))
        if got != want:
            k = next((i for i, (a, b) in enumerate(zip(got[0], want[0])) if a != b), min(len(got[0]), len(want[0])))
            return j, f"game seed {gs[j]}: native and Python differ (first action difference at decision {k})"
    return len(gs), None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--agents", default="random,random")
    ap.add_argument("--base", type=int, default=0)
    ap.add_argument("--random-scenarios", action="store_true")
    args = ap.parse_args(argv)
    names = tuple(args.agents.split(","))
    t0, total, decisions = time.perf_counter(), 0, 0
    chunk = 10 if args.random_scenarios else args.games
    for c, lo in enumerate(range(0, args.games, chunk)):
        m = min(chunk, args.games - lo)
        sc = load_scenario(random_scenario(args.base + c)) if args.random_scenarios else None
        spec = GameSpec.build(sc, None)
        gs = np.arange(args.base + lo, args.base + lo + m, dtype=np.uint64)
        seeds = np.array([np.random.SeedSequence(args.base, spawn_key=(lo + j,)).generate_state(2, np.uint64)
                          for j in range(m)])
        batch, threads = (7, 2) if c % 2 else (1024, 1)
        n, err = _compare(spec, gs, names, seeds, batch, threads)
        if err:
            print(f"FAIL after {total + n} games: {err}")
            return 1
        total += n
        decisions += int(play_agent_games(spec, gs, names, seeds)["decisions"].sum())
    print(f"{total} games ({'random scenarios' if args.random_scenarios else 'default scenario'}, "
          f"{'/'.join(names)}): native equals Python game for game, {decisions} decisions, "
          f"{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
