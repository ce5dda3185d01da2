"""The order-card burden in games between built-in agents (issue 35 point 1): how often reactions come
from the Reserve, how often a Reserve is burned through in a turn, confused reactions, merges, splits,
and the side balance, per packaged scenario and pairing.

Run (about a minute of CPU for 4,000 games of one pairing on one scenario)::

    python benchmarks/reserve_stats.py --games 4000
    python benchmarks/reserve_stats.py --games 1000 --scenario meeting_engagement --agents greedy
    python benchmarks/reserve_stats.py --games 1000 --reserve-by-choice --no-spent-units-react

Game ``j`` of a pairing (A, B) is seeded ``j``; A takes side ``j % 2`` (seats swapped every other
game; the agents are seeded ``2 j`` and ``2 j + 1``). The games are played natively
with their events recorded (``VectorGame.play_games`` with ``record_events=True``: the same games, decision
for decision, as the Python ``Game`` with the Python agents). Per row:

- ``reactions``: units answering an activation (``react``: an ordered unit; ``reserve_card``: a unit
  without orders forced to react, with a Reserve card; ``confused``), and ``Reserve`` their share
  taken from the Reserve;
- ``spent``: forced reactions of units that had already acted that turn (their card spent, RULES.md
  section 6), of all forced reactions (Reserve or confused);
- ``burned``: per game, turns in which a player spent the last card of its Reserve on forced
  reactions (seed 002's "burned through his Reserve");
- ``confused``, ``merges``, ``splits``: per game;
- ``P0 share``: player 0's share of the decided games with its 95 % Wilson interval (issue 35:
  within 45-55 %).

``--reserve-by-choice`` and ``--no-spent-units-react`` play the variants (``orders.reserve_by_choice
= true``, ``orders.spent_units_react = false``); both together are the rules before issue 35.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from atomic_africa.agents.native import agent_params
from atomic_africa.cli.common import positive_count_arg, scenario_arg
from atomic_africa.game import GameSpec, VectorGame
from atomic_africa.game.scenario import packaged_scenarios
from atomic_africa.rules import Rules
from atomic_africa.selfplay import wilson_interval

DEFAULT_AGENTS = ("random", "heuristic", "greedy", "doctrine")
#: Issue 35: player 0's share of the decided games.
BAND = (0.45, 0.55)


def game_counts(events) -> dict:
    """Counts of one finished game's events (see the module notes)."""
    c = dict.fromkeys(("react", "reserve_card", "confused", "spent", "forced", "burned", "merge", "split"), 0)
    acted = set()
    left = [0, 0]     # each player's Reserve: what Orders left, less each Reserve card taken
    for e in events:
        t = e["type"]
        if t == "turn_end":
            acted.clear()
        elif t in ("activate", "react"):
            acted.add(e["unit"])
        elif t in ("reserve_card", "confused"):
            c["forced"] += 1
            c["spent"] += e["unit"] in acted
            acted.add(e["unit"])
        if t == "orders_done":
            left[e["player"]] = e["reserve"]
        elif t == "reserve_card":
            left[e["player"]] -= 1
            c["burned"] += left[e["player"]] == 0
        if t in c:
            c[t] += 1
    return c


def pairing_stats(spec, pair, games: int, batch: int = 500) -> dict:
    """Totals over ``games`` games of ``pair`` (agent A, agent B) on ``spec``, seats swapped: the games
    are played natively with their events recorded (``VectorGame.play_games``, ``record_events``)."""
    tot = dict.fromkeys(("react", "reserve_card", "confused", "spent", "forced", "burned", "merge", "split"), 0)
    p0 = p1 = 0
    vg = VectorGame(spec, min(batch, games), 0, record_events=True)
    vg.agent_params = agent_params()
    for lo in range(0, games, vg.num_envs):
        j = np.arange(lo, min(games, lo + vg.num_envs))
        kinds = np.array([pair if k % 2 == 0 else pair[::-1] for k in j])
        r = vg.play_games(j.astype(np.uint64), kinds, np.stack([2 * j, 2 * j + 1], 1).astype(np.uint64))
        for i in range(len(j)):
            for key, x in game_counts(vg.events(i)).items():
                tot[key] += x
        p0 += int((r["winner"] == 0).sum())
        p1 += int((r["winner"] == 1).sum())
    tot.update(games=games, p0=p0, p1=p1, draws=games - p0 - p1)
    return tot


def format_row(name: str, pair, s: dict) -> str:
    reacts = s["react"] + s["reserve_card"] + s["confused"]
    n, decided = s["games"], s["p0"] + s["p1"]
    lo, hi = wilson_interval(s["p0"], decided)
    share = s["p0"] / decided if decided else float("nan")
    flag = "" if BAND[0] <= share <= BAND[1] else "  OUTSIDE 45-55 %"
    return (f"{name:<19s} {pair[0] + '-' + pair[1]:<19s} {n:>5d} {reacts:>9d} "
            f"{100 * s['reserve_card'] / max(reacts, 1):6.1f}% {s['spent']:>5d}/{s['forced']:<6d} "
            f"{s['burned'] / n:6.3f} {s['confused'] / n:8.3f} {s['merge'] / n:6.3f} {s['split'] / n:6.3f}  "
            f"{share:.3f} [{lo:.3f}, {hi:.3f}]{flag}")


HEAD = (f"{'scenario':<19s} {'pairing':<19s} {'games':>5s} {'reactions':>9s} {'Reserve':>7s} "
        f"{'spent/forced':>12s} {'burned':>6s} {'confused':>8s} {'merges':>6s} {'splits':>6s}  "
        f"P0 share [95% CI]")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=positive_count_arg, default=4000, help="games per pairing (default 4000)")
    ap.add_argument("--agents", default=",".join(DEFAULT_AGENTS),
                    help="comma-separated agents; every agent against itself (default %(default)s)")
    ap.add_argument("--mixed", action="store_true", help="also every mixed pair of the agents")
    ap.add_argument("--scenario", type=scenario_arg, action="append", default=None,
                    help="a scenario (repeatable; default: every packaged scenario)")
    ap.add_argument("--reserve-by-choice", action="store_true", help="play orders.reserve_by_choice = true")
    ap.add_argument("--no-spent-units-react", action="store_true", help="play orders.spent_units_react = false")
    args = ap.parse_args(argv)
    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    pairs = [(a, a) for a in names]
    if args.mixed:
        pairs += [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    rules = Rules.default().replace(orders={"reserve_by_choice": args.reserve_by_choice,
                                            "spent_units_react": not args.no_spent_units_react})
    scenarios = args.scenario or [scenario_arg(n) for n in packaged_scenarios()]
    print(f"orders.reserve_by_choice = {str(rules.orders.reserve_by_choice).lower()}, "
          f"orders.spent_units_react = {str(rules.orders.spent_units_react).lower()}; per game: burned, "
          "confused, merges, splits")
    print(HEAD)
    t0 = time.process_time()
    for sc in scenarios:
        spec = GameSpec.build(sc, rules)
        for pair in pairs:
            print(format_row(sc.name[:19], pair, pairing_stats(spec, pair, args.games)), flush=True)
    print(f"({time.process_time() - t0:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
