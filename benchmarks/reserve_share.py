"""How often reactions come from the Reserve (issue 23 point 1) in games between built-in agents.

Run (a few seconds for 120 games of each pairing, one thread)::

    python benchmarks/reserve_share.py --games 120
    python benchmarks/reserve_share.py --games 120 --agents greedy,doctrine --scenario meeting_engagement

Each pairing's games are played natively (:func:`atomic_africa.agents.native.play_agent_games`: game
``j`` of seed ``j``, agents seeded ``games + 2 j`` and ``games + 2 j + 1``, the same games as the
Python agents play), then replayed on the Python ``Game`` to read their events. Per pairing the table
gives the reactions (ordered units answering, Reserve cards taken by units forced to react, confused
reactions), the share of them taken from the Reserve, and how many Orders phases ended with END
ORDERS while a card could still be given (cards held back in the Reserve by choice).
"""
from __future__ import annotations

import argparse
import itertools

import numpy as np

from atomic_africa.agents.native import play_agent_games
from atomic_africa.cli.common import positive_count_arg, scenario_arg
from atomic_africa.game import Game

DEFAULT_AGENTS = ("greedy", "doctrine")


def reserve_counts(scenario, kinds, games: int) -> dict:
    """Reaction counts of ``games`` games of ``kinds`` (side 0, side 1) on ``scenario``."""
    r = play_agent_games(scenario, np.arange(games, dtype=np.uint64), kinds,
                         np.arange(games, 3 * games, dtype=np.uint64).reshape(games, 2), threads=1,
                         record_actions=True)
    out = {"react": 0, "reserve_card": 0, "confused": 0, "held": 0}
    for j in range(games):
        g = Game(scenario, j)
        for a in r["actions"][j]:
            if g.stage == "ORDERS" and int(a) == g.space.end_orders and g._orders_pairs(g.current_player):
                out["held"] += 1
            g.apply(int(a))
        for e in g.events:
            if e["type"] in ("react", "reserve_card", "confused"):
                out[e["type"]] += 1
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=positive_count_arg, default=120, help="games per pairing (default 120)")
    ap.add_argument("--agents", default=",".join(DEFAULT_AGENTS),
                    help="comma-separated agents; every agent against itself (default greedy,doctrine)")
    ap.add_argument("--scenario", type=scenario_arg, default=None, help="scenario (default: the default battle)")
    ap.add_argument("--mixed", action="store_true", help="also every mixed pair of the agents")
    args = ap.parse_args(argv)
    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    pairs = [(a, a) for a in names] + (list(itertools.combinations(names, 2)) if args.mixed else [])
    print(f"{'pairing':<20} {'games':>5} {'reactions':>9} {'ordered':>7} {'Reserve':>7} {'confused':>8} "
          f"{'Reserve share':>13} {'held back':>9}")
    for a, b in pairs:
        c = reserve_counts(args.scenario, (a, b), args.games)
        total = c["react"] + c["reserve_card"] + c["confused"]
        share = c["reserve_card"] / total if total else 0.0
        print(f"{a + '-' + b:<20} {args.games:>5} {total:>9} {c['react']:>7} {c['reserve_card']:>7} "
              f"{c['confused']:>8} {share:>13.1%} {c['held']:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
