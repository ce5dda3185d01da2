"""The AI levels of ``atomic-africa play`` (issue 35 point 2): how long a person waits for each, and
whether each plays stronger than the one below it.

Run (about 5 minutes on one core)::

    python benchmarks/play_levels.py --games 40

For each level (``atomic_africa.play.session.LEVELS``: easy = heuristic, normal = greedy, hard =
ismcts with its default search) the CPU time of each of its decisions is measured (``time.process_time``
around ``act``, one thread) over the games it plays, and reported as median, 90th percentile and
maximum per packaged scenario: the time a person waits on one core. Each pair of levels plays
``--games`` games per scenario, game ``j`` from seed ``seed + j`` with the stronger level on side
``j % 2``; the table gives the stronger level's wins, losses and draws. Agents are seeded as ``play``
seeds them (side ``k``: game seed + ``k``).
"""
from __future__ import annotations

import argparse
import statistics
import time

from atomic_africa.agents import make_agent
from atomic_africa.cli.common import positive_count_arg
from atomic_africa.game import Game
from atomic_africa.play.session import LEVELS

SCENARIOS = ("default", "meeting_engagement")
PAIRS = (("normal", "easy"), ("hard", "normal"), ("hard", "easy"))


def play(scenario: str, seed: int, names, times: dict) -> int | None:
    """One game, ``names[k]`` the level of side k; its winner (None: a draw). Each decision's CPU
    time is added to ``times[level]``."""
    g = Game(scenario, seed)
    agents = [make_agent(LEVELS[n], seed + k) for k, n in enumerate(names)]
    while not g.is_over:
        p = g.current_player
        t0 = time.process_time()
        a = agents[p].act(g)
        times[names[p]].append(time.process_time() - t0)
        g.apply(a)
    return g.result.winner


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=positive_count_arg, default=40, help="games per pair and scenario (default 40)")
    ap.add_argument("--seed", type=int, default=0, help="first game seed (default 0)")
    args = ap.parse_args(argv)
    for scenario in SCENARIOS:
        times = {lv: [] for lv in LEVELS}
        print(f"{scenario}: {args.games} games per pair, sides alternating")
        print(f"  {'stronger':<8} {'weaker':<8} {'wins':>5} {'losses':>6} {'draws':>5}  win share of decided")
        for strong, weak in PAIRS:
            w = lost = d = 0
            for j in range(args.games):
                me = j % 2
                names = [strong, weak] if me == 0 else [weak, strong]
                winner = play(scenario, args.seed + j, names, times)
                if winner is None:
                    d += 1
                elif winner == me:
                    w += 1
                else:
                    lost += 1
            share = w / (w + lost) if w + lost else float("nan")
            print(f"  {strong:<8} {weak:<8} {w:>5} {lost:>6} {d:>5}  {100 * share:5.1f} %")
        print(f"  CPU ms per decision   {'median':>7} {'p90':>7} {'max':>7}  decisions")
        for lv, ts in times.items():
            ts.sort()
            print(f"  {lv:<6} ({LEVELS[lv]:<9})  {1000 * statistics.median(ts):7.2f} "
                  f"{1000 * ts[int(0.9 * (len(ts) - 1))]:7.2f} {1000 * ts[-1]:7.2f}  {len(ts)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
