"""The balance table of a scenario: who wins, per pairing of built-in agents, on the native engine.

Run (about a minute for the default 4,000 games of each of the 10 pairings, one thread)::

    python benchmarks/balance.py --games 4000
    python benchmarks/balance.py --scenario meeting_engagement --agents random,greedy

Each pairing is played with :func:`atomic_africa.selfplay.play_games` (native engine, one process),
so its games are those of ``atomic-africa selfplay --agents A,B --seed S --games N --scenario X``:
game ``i`` seeded from ``SeedSequence(S).spawn(N)[i]``, agent A on side ``i % 2`` (seats swapped
every other game). Pairings: every agent against itself, then every mixed pair.

Per pairing the table gives the games; player 0's wins, player 1's wins and draws; player 0's share of
the decided games with its 95 % Wilson interval; in mixed pairs, agent A's share of the decided games
(the seats cancel out there, so it measures skill); the share of games that ended before the turn
limit (a side wiped out in an earlier turn); and the mean number of turns played.

Issue 14's criteria are printed below the table for the pairings they name: player 0's share of the
decided random-vs-random and greedy-vs-greedy games within 45-55 % with its whole 95 % interval, and
at least 10 % of greedy-vs-greedy games ending before the turn limit. ``--check`` makes the exit
status 1 when one of them is not met.
"""
from __future__ import annotations

import argparse
import itertools
import sys
import time

from atomic_africa.agents import AGENTS
from atomic_africa.cli.common import positive_count_arg, scenario_arg, seed_arg
from atomic_africa.game import default_scenario
from atomic_africa.selfplay import play_games, wilson_interval

DEFAULT_AGENTS = ("random", "greedy", "heuristic", "doctrine")
#: Issue 14: player 0's share of decided games (95 % interval inside), and the greedy early ends.
BAND = (0.45, 0.55)
BALANCED_PAIRINGS = (("random", "random"), ("greedy", "greedy"))
MIN_EARLY = 0.10


def agents_arg(text: str) -> tuple:
    """A comma-separated list of distinct built-in agent names."""
    names = tuple(n.strip() for n in text.split(","))
    bad = [n for n in names if n not in AGENTS]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"unknown agent {bad[0] if bad else text!r}; allowed "
                                         f"{', '.join(sorted(AGENTS))}, comma-separated")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"an agent is named twice in {text!r}")
    return names


def pairings(agents) -> list:
    """Every agent against itself, then every mixed pair (in the order given)."""
    return [(a, a) for a in agents] + list(itertools.combinations(agents, 2))


def pairing_row(agents, records, turn_limit: int) -> dict:
    """The table's row of one pairing from its self-play records."""
    n = len(records)
    p0 = sum(r["winner"] == 0 for r in records)
    p1 = sum(r["winner"] == 1 for r in records)
    a_wins = sum(r["a_score"] == 1 for r in records)
    decided = p0 + p1
    return {"agents": agents, "games": n, "p0": p0, "p1": p1, "draws": n - decided,
            "p0_share": p0 / decided if decided else float("nan"), "p0_ci": wilson_interval(p0, decided),
            "a_share": a_wins / decided if decided else float("nan"),
            "early": sum(r["turns"] < turn_limit for r in records) / n,
            "turns": sum(r["turns"] for r in records) / n}


def format_table(rows) -> str:
    head = (f"{'pairing':<20s} {'games':>6s} {'P0 wins':>8s} {'P1 wins':>8s} {'draws':>6s}  "
            f"{'P0 share of decided [95% CI]':<29s} {'A share':>7s} {'early':>6s} {'turns':>5s}")
    lines = [head, "-" * len(head)]
    for r in rows:
        a, b = r["agents"]
        lo, hi = r["p0_ci"]
        a_share = "-" if a == b else f"{r['a_share']:.3f}"
        lines.append(f"{a + '-' + b:<20s} {r['games']:6d} {r['p0']:8d} {r['p1']:8d} {r['draws']:6d}  "
                     f"{r['p0_share']:.3f} [{lo:.3f}, {hi:.3f}]{'':<9s} {a_share:>7s} "
                     f"{100 * r['early']:5.1f}% {r['turns']:5.2f}")
    return "\n".join(lines)


def criteria(rows) -> list:
    """(text, met) of each of issue 14's criteria whose pairing is in ``rows``."""
    by = {r["agents"]: r for r in rows}
    out = []
    for pair in BALANCED_PAIRINGS:
        if pair in by:
            lo, hi = by[pair]["p0_ci"]
            out.append((f"{pair[0]}-{pair[1]}: P0 share of decided games {by[pair]['p0_share']:.3f}, 95% CI "
                        f"[{lo:.3f}, {hi:.3f}] inside [{BAND[0]:.2f}, {BAND[1]:.2f}]",
                        BAND[0] <= lo and hi <= BAND[1]))
    if ("greedy", "greedy") in by:
        early = by[("greedy", "greedy")]["early"]
        out.append((f"greedy-greedy: {100 * early:.1f}% of games end before the turn limit (>= "
                    f"{100 * MIN_EARLY:.0f}%)", early >= MIN_EARLY))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=positive_count_arg, default=4000, metavar="N",
                    help="games per pairing (default %(default)s)")
    ap.add_argument("--scenario", type=scenario_arg, default=None, metavar="FILE|NAME",
                    help="scenario TOML file or packaged scenario name (default: the packaged default)")
    ap.add_argument("--seed", type=seed_arg, default=0, help="root seed of every pairing (default %(default)s)")
    ap.add_argument("--agents", type=agents_arg, default=DEFAULT_AGENTS, metavar="A,B,...",
                    help=f"built-in agents to pair (default {','.join(DEFAULT_AGENTS)})")
    ap.add_argument("--check", action="store_true",
                    help="exit with status 1 if one of issue 14's balance criteria is not met")
    a = ap.parse_args(argv)
    scenario = a.scenario if a.scenario is not None else default_scenario()
    print(f"Balance of '{scenario.name}' ({scenario.turns} turns): {a.games} games per pairing, seed "
          f"{a.seed}, native engine, seats swapped every other game")
    rows, t0 = [], time.perf_counter()
    try:
        for pair in pairings(a.agents):
            res = play_games(a.games, pair, seed=a.seed, scenario=scenario, engine="native")
            rows.append(pairing_row(pair, res.records, scenario.turns))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print(f"balance.py: error: --games {a.games}: the results do not fit in memory", file=sys.stderr)
        return 1
    print(format_table(rows))
    print(f"({time.perf_counter() - t0:.1f} s; early: ended before the turn limit, a side wiped out; "
          f"A share: the first-named agent's share of decided games)")
    met = criteria(rows)
    if met:
        print("Issue 14 criteria:")
        for text, ok in met:
            print(f"  [{'met' if ok else 'NOT MET'}] {text}")
    return 1 if a.check and not all(ok for _, ok in met) else 0


if __name__ == "__main__":
    sys.exit(main())
