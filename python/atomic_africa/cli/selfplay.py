"""``atomic-africa selfplay``: many games between two built-in agents, with rates and intervals."""
from __future__ import annotations

import signal
import sys

from .._limits import MAX_THREADS
from .._text import printable
from .._validate import as_int, check_memory
from .common import (DEFAULT_AGENTS, add_network_options, add_rules_option, add_search_options, agent_list,
                     ctrl_c_stops, network_from_args, output_file, positive_count_arg, scenario_arg, search_from_args,
                     seed_arg)


def register(sub):
    from ..agents import AGENTS
    from ..selfplay import ENGINES
    from ..selfplay.games import DEFAULT_ENGINE
    p = sub.add_parser(
        "selfplay",
        help="play many games between two built-in agents; win/draw/loss rates with 95%% CIs",
        description=(
            "Play N games of a scenario between agents A and B (sides alternate: A is Blue in even "
            "games, Red in odd ones) and print A's win/draw/loss rates with 95% Wilson confidence "
            "intervals and games per second. Game i is seeded from SeedSequence(--seed).spawn(N)[i], "
            "so the results are the same with any --workers, with --ray and on either --engine. "
            "--out and --replays are written as games finish (to FILE.partial, a Parquet table's rows "
            "to the CSV journal FILE.partial.csv; renamed to FILE, the Parquet file written, at the "
            "end): Ctrl-C, SIGTERM, a kill or a full disk keeps the games written, and the same "
            "command with --resume checks them against their digests and completes the run."
        ),
    )
    p.add_argument("--games", type=positive_count_arg, default=100, metavar="N",
                   help="number of games, e.g. 1000 or 1e3 (default %(default)s)")
    p.add_argument("--agents", default=DEFAULT_AGENTS, metavar="A,B",
                   help=f"two agents from {agent_list(AGENTS)} (default %(default)s)")
    p.add_argument("--workers", type=positive_count_arg, default=1, metavar="K",
                   help="worker processes; with --ray the CPUs of a local Ray (default %(default)s)")
    p.add_argument("--seed", type=seed_arg, default=0, metavar="S", help="root seed (default %(default)s)")
    p.add_argument("--out", type=output_file, default=None, metavar="FILE.parquet",
                   help="per-game results as Parquet (the 'parquet' extra), or as CSV if FILE ends in .csv")
    p.add_argument("--replays", type=output_file, default=None, metavar="FILE.jsonl",
                   help="every game as one Game.to_json() document per line (atomic-africa render); "
                        "a native game's is rebuilt by the Python engine, about 0.2 s a game")
    p.add_argument("--scenario", type=scenario_arg, default=None, metavar="FILE|NAME",
                   help="scenario TOML file or packaged scenario name (default, meeting_engagement, "
                        "template; default: default); start from 'atomic-africa scenario --template'")
    add_rules_option(p)
    p.add_argument("--engine", choices=ENGINES, default=DEFAULT_ENGINE,
                   help="native: the batch engine and native agents; python: the reference engine "
                        "(same results, slower) (default %(default)s)")
    p.add_argument("--resume", action="store_true",
                   help="complete the interrupted run whose --out/--replays .partial files are there "
                        "(same options; only the missing games are played)")
    p.add_argument("--fixed-sides", action="store_true", help="A always plays side 0 (Blue)")
    p.add_argument("--batch-size", type=positive_count_arg, default=None, metavar="B", help="games per task")
    p.add_argument("--ray", action="store_true", help="run batches as Ray tasks")
    p.add_argument("--address", default=None, metavar="ADDR",
                   help="with --ray: join the Ray cluster at ADDR (default: start a local Ray)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_search_options(p)
    add_network_options(p)
    p.renamed_options = {"--threads": "--workers"}   # earlier versions called the workers --threads
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    with ctrl_c_stops():     # stops on Ctrl-C even when started with SIGINT ignored (common.ctrl_c_stops)
        return _run(args)


def _run(args) -> int:
    from ..selfplay import Stopped, WorkerLost, results_format, results_memory, stream_games
    from ..game.scenario import load_scenario
    names = [n.strip() for n in args.agents.split(",")]
    if len(names) != 2:
        raise ValueError(f"--agents: expected two comma-separated agents, got {args.agents!r}")
    search = search_from_args(args, names)
    learned = network_from_args(args, names)
    if args.address is not None and not args.ray:
        raise ValueError("--address: only with --ray (the address of a Ray cluster to join); add --ray, or leave "
                         "out --address")
    # Processes beyond a sane count are refused here (the pool would fail or swamp the machine).
    as_int(args.workers, "--workers", lo=1, hi=MAX_THREADS)
    # Replays go to their file as games finish; the records stay in memory for the summary.
    check_memory(results_memory(args.games, False), "--games", f"{args.games:,} games' results",
                 "play fewer games per run")
    if args.out:
        results_format(args.out)  # a missing pyarrow is reported now, not after the games
    try:
        result = stream_games(args.games, names, results=args.out, replays=args.replays,
                              resume=args.resume, seed=args.seed, workers=args.workers,
                              scenario=load_scenario(args.scenario), rules=args.rules, alternate=not args.fixed_sides,
                              use_ray=args.ray, address=args.address, batch_size=args.batch_size,
                              progress=not args.no_progress, engine=args.engine, handle_signals=True,
                              search=search, network=learned)
    except (Stopped, WorkerLost) as exc:
        if isinstance(exc, Stopped):
            what, status = f"stopped by {signal.Signals(exc.signum).name}", 128 + exc.signum
        else:
            what, status = str(exc), 1
        kept = "; ".join(getattr(exc, "__notes__", ()))
        print(f"atomic-africa selfplay: {printable(what)}" + (f"; {printable(kept)}" if kept else ""),
              file=sys.stderr)
        return status
    print(result.summary())
    for path, what in ((args.out, "games"), (args.replays, "replays")):
        if path:
            print(f"Wrote {printable(path)} ({result.n} {what})")
    sys.stdout.flush()
    return 0
