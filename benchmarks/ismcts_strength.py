"""The search agent's strength against its budget (issue 31 point 4): win share of decided games and
CPU time per decision of ``ismcts`` at several simulation budgets against an opponent.

Run (the shipped table: 400 games per budget, sides alternating; about 40 minutes on 2 cores)::

    python benchmarks/ismcts_strength.py --games 400 --budgets 25,50,100,200 --threads 2
    python benchmarks/ismcts_strength.py --games 40 --budgets 25,100 --opponent doctrine --rollout random --width 0

Game ``j`` of a budget is the game of seed ``seed + j``, the search agent on side ``j % 2`` (so each
side is played equally often), both agents' streams from :func:`VectorGame.agent_seed`. The games run
natively (``VectorGame.play_games``, the GIL released); results do not depend on ``--threads``.

The time per decision is measured apart, on one thread: the search agent's CPU time over the
decisions of ``--timing-states`` positions spread over whole games (random play to a random
decision), each with more than one legal action. It is the time a player waits on one core.

The win share comes with a 95 % Wilson interval (the decided games only: draws are listed apart).
"""
from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from atomic_africa.agents.native import agent_params
from atomic_africa.agents.search import ROLLOUT_AGENTS
from atomic_africa.cli.common import positive_count_arg, scenario_arg
from atomic_africa.game import VectorGame
from atomic_africa.game.native.agent_args import AGENT_KINDS

OPPONENTS = ("random", "heuristic", "greedy", "doctrine")


def wilson(k: int, n: int, z: float = 1.96) -> tuple:
    """The 95 % Wilson score interval of k successes in n trials ((nan, nan) for n = 0)."""
    if n == 0:
        return math.nan, math.nan
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return mid - half, mid + half


def search_params(simulations: int, args) -> dict:
    return agent_params({"simulations": simulations, "exploration": args.exploration,
                         "rollout": AGENT_KINDS[args.rollout], "rollout_depth": args.rollout_depth,
                         "width": args.width})


def play(params: dict, args) -> dict:
    """Win, loss and draw counts of the search agent over ``args.games`` games."""
    n = args.games
    vg = VectorGame.from_games(args.scenario, np.arange(args.seed, args.seed + n), threads=args.threads)
    vg.agent_params = params
    me = np.arange(n) % 2
    kinds = np.where(me[:, None] == np.arange(2)[None, :], "ismcts", args.opponent)
    seeds = np.array([[VectorGame.agent_seed(args.seed + j, p) for p in (0, 1)] for j in range(n)], dtype=np.uint64)
    r = vg.play_games(np.arange(args.seed, args.seed + n), agents=kinds, agent_seeds=seeds)
    w = np.asarray(r["winner"])
    return {"win": int((w == me).sum()), "loss": int((w == 1 - me).sum()), "draw": int((w == -1).sum())}


def ms_per_decision(params: dict, args) -> float:
    """CPU milliseconds of one search decision on one thread, the median over positions."""
    n = args.timing_states
    vg = VectorGame(args.scenario, num_envs=n, seed=args.seed + 10**6, threads=1)
    vg.agent_params = params
    stop = np.random.default_rng(args.seed).integers(0, 120, n)
    for t in range(120):
        if (stop > t).any():
            vg.step(vg.random_actions(), active=stop > t)
    choice = np.flatnonzero(vg.action_masks().sum(axis=1) > 1)
    times = []
    for i in choice:
        active = np.zeros(n, dtype=bool)
        active[i] = True
        t0 = time.thread_time()
        vg.agent_actions("ismcts", active=active)
        times.append(time.thread_time() - t0)
    return 1e3 * float(np.median(times))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=positive_count_arg, default=400, help="games per budget (default 400)")
    ap.add_argument("--budgets", default="25,50,100,200", help="simulations per decision, comma-separated")
    ap.add_argument("--opponent", choices=OPPONENTS, default="greedy")
    ap.add_argument("--rollout", choices=ROLLOUT_AGENTS, default="greedy")
    ap.add_argument("--width", type=int, default=3, help="the greedy agent's best actions per node (0: all)")
    ap.add_argument("--exploration", type=float, default=0.7)
    ap.add_argument("--rollout-depth", type=int, default=0)
    ap.add_argument("--scenario", type=scenario_arg, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=positive_count_arg, default=1)
    ap.add_argument("--timing-states", type=positive_count_arg, default=48)
    args = ap.parse_args(argv)
    try:
        budgets = [int(b) for b in args.budgets.split(",")]
        rows = []
        for b in budgets:
            params = search_params(b, args)
            ms = ms_per_decision(params, args)
            res = play(params, args)
            dec = res["win"] + res["loss"]
            lo, hi = wilson(res["win"], dec)
            rows.append((b, ms, res, dec and res["win"] / dec, lo, hi))
            print(f"simulations {b}: {ms:.1f} ms/decision, W {res['win']} L {res['loss']} D {res['draw']}",
                  file=sys.stderr, flush=True)
    except (ValueError, TypeError) as exc:
        print(f"ismcts_strength: {exc}", file=sys.stderr)
        return 2
    print(f"ismcts ({args.rollout} rollouts, width {args.width}, exploration {args.exploration:g}) against "
          f"{args.opponent}, {args.games} games per budget, sides alternating\n")
    print("| simulations | ms per decision (1 core) | won | lost | drawn | win share of decided | 95 % interval |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for b, ms, res, share, lo, hi in rows:
        print(f"| {b} | {ms:.1f} | {res['win']} | {res['loss']} | {res['draw']} | {share:.3f} | {lo:.3f}-{hi:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
