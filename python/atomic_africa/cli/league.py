"""``atomic-africa league``: every pair of agents on both sides; ratings and win/draw/loss tables."""
from __future__ import annotations

import argparse
import math
import sys

from .._limits import MAX_THREADS
from .._text import printable
from .._validate import as_int
from .common import (add_network_options, add_rules_option, add_search_options, agent_list, ctrl_c_stops,
                     network_from_args, output_file, positive_count_arg, scenario_arg, search_from_args, seed_arg)

DEFAULT_LEAGUE = "random,heuristic,greedy,doctrine"


def register(sub):
    from ..agents import AGENTS
    from ..league.external import DEFAULT_POLICY_TIMEOUT
    from ..selfplay import ENGINES
    p = sub.add_parser(
        "league",
        help="play every pair of agents on both sides; Bradley-Terry ratings and W/D/L tables",
        description=(
            "Play N games for every pair of agents, sides alternating (the first agent listed takes "
            "Blue in even games, Red in odd ones), and print Bradley-Terry ratings on the Elo scale "
            "(the first agent = 0; 95% intervals from the Fisher information; one virtual draw per "
            "pair keeps an unbeaten agent's rating finite) and each pair's win/draw/loss rates by "
            "side with 95% Wilson intervals. A match's games depend only on --seed and the two "
            "agents' names: the same with any --workers, with --ray, whoever else plays. "
            "An outside policy joins as module:callable, a function policy(observations, "
            "action_masks) -> actions on batched float32 observations (k, obs_size) and bool masks "
            "(k, n_actions) of the games where it is to move (the working directory is searched "
            "first); its matches run on the native engine in this process, as do those of the learned "
            "agents puct (a network plus its PUCT search: --network, --puct-*) and network (the network "
            "alone), each step one batched search for all the games of a match where it is to move; with "
            "--workers K a learned agent's matches against built-in agents run one per worker process. With the "
            "open_spiel extra, openspiel-ismcts is OpenSpiel's own ISMCTS bot (it takes --search-simulations "
            "and --search-exploration), played one game at a time in this process."
        ),
    )
    p.add_argument("--agents", default=DEFAULT_LEAGUE, metavar="A,B,...",
                   help=f"two or more of {agent_list(AGENTS)}, openspiel-ismcts or module:callable "
                        "(default %(default)s)")
    p.add_argument("--games", type=positive_count_arg, default=100, metavar="N",
                   help="games per pair, sides alternating (default %(default)s)")
    p.add_argument("--seed", type=seed_arg, default=0, metavar="S", help="root seed (default %(default)s)")
    p.add_argument("--out", type=output_file, default=None, metavar="FILE.parquet",
                   help="tables as Parquet (the 'parquet' extra), or CSV if FILE ends in .csv: FILE "
                        "(one row per game), FILE's stem + .ratings and + .pairs")
    p.add_argument("--png", type=output_file, default=None, metavar="FILE.png",
                   help="ratings with intervals and the W/D/L matrix as a picture (the 'plot' extra)")
    p.add_argument("--workers", type=positive_count_arg, default=1, metavar="K",
                   help="worker processes for matches between built-in agents and (without --ray) for "
                        "the matches of puct and network against built-in agents, one match per "
                        "process; with --ray the CPUs of a local Ray (default %(default)s)")
    p.add_argument("--ray", action="store_true", help="play the built-in matches as Ray tasks")
    p.add_argument("--address", default=None, metavar="ADDR",
                   help="with --ray: join the Ray cluster at ADDR (default: start a local Ray)")
    p.add_argument("--engine", choices=ENGINES, default="native",
                   help="engine of the matches between built-in agents: native, or python (the "
                        "reference; the same games, slower); outside policies always play natively "
                        "(default %(default)s)")
    p.add_argument("--scenario", type=scenario_arg, default=None, metavar="FILE|NAME",
                   help="scenario TOML file or packaged scenario name (default, meeting_engagement, "
                        "template; default: default)")
    add_rules_option(p)
    p.add_argument("--policy-timeout", type=_timeout_arg, default=DEFAULT_POLICY_TIMEOUT, metavar="SECONDS",
                   help="seconds one call of an outside policy may take before the league stops with an "
                        "error naming it; 0: no timeout (default %(default)g)")
    p.add_argument("--quiet", action="store_true", help="no line per finished match on stderr")
    add_search_options(p)
    add_network_options(p)
    p.set_defaults(run=run)
    return p


def _timeout_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected seconds >= 0 (0: no timeout), got {text[:40]!r}")
    return value


def run(args) -> int:
    """Play the league; exit status 0, or 2 with one line on stderr for bad options and for an
    outside policy that raised (any exception), called ``sys.exit``, returned a bad answer or gave none
    within ``--policy-timeout``; 130 on Ctrl-C (or a policy raising KeyboardInterrupt)."""
    with ctrl_c_stops():     # stops on Ctrl-C even when started with SIGINT ignored (common.ctrl_c_stops)
        return _run(args)


def _run(args) -> int:
    from ..agents.search import SEARCH_AGENTS
    from ..league import parse_entrants, play_league, plot_league, write_tables
    from ..league.entrants import GAME_AGENTS
    from ..league.external import PolicyError, PolicyTimeout
    from ..league.output import check_outputs
    from ..league.tables import format_pairs, format_ratings
    if args.address is not None and not args.ray:
        raise ValueError("--address: only with --ray (the address of a Ray cluster to join); add --ray, or leave "
                         "out --address")
    as_int(args.workers, "--workers", lo=1, hi=MAX_THREADS)
    entrants = parse_entrants(args.agents, "--agents")   # policies imported now, before any game
    search = search_from_args(args, [e.name for e in entrants if e.policy is None],
                              searchers=(*SEARCH_AGENTS, *GAME_AGENTS))
    learned = network_from_args(args, [e.name for e in entrants if e.policy is None])
    check_outputs(args.out, args.png)
    try:
        result = play_league(entrants, args.games, seed=args.seed, workers=args.workers, use_ray=args.ray,
                             address=args.address, scenario=args.scenario, rules=args.rules, engine=args.engine,
                             log=None if args.quiet else sys.stderr, policy_timeout=args.policy_timeout,
                             search=search, network=learned)
    except PolicyTimeout as exc:
        raise PolicyError(f"policy {exc.policy!r} gave no answer within {exc.timeout:g} s (--policy-timeout); "
                          f"the league stopped") from None
    n_pairs = len(result.agents) * (len(result.agents) - 1) // 2
    print(f"League: {len(result.agents)} agents, {n_pairs} pairs x {args.games} games "
          f"({len(result.records)} games, {result.seconds:.2f} s)")
    print()
    for text in (format_ratings(result.rating_rows(), result.agents[0]), "", format_pairs(result.pair_rows())):
        print("\n".join(printable(line) for line in text.split("\n")))
    if args.out:
        paths = write_tables(result, args.out)
        print(f"Wrote {', '.join(printable(p) for p in paths.values())}")
    if args.png:
        plot_league(result, args.png)
        print(f"Wrote {printable(args.png)}")
    sys.stdout.flush()
    return 0
