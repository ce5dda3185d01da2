"""``atomic-africa battle``: play a scenario between two built-in agents, turn by turn."""
from __future__ import annotations

import json
import time

from ..game import Game, load_scenario
from ..agents import AGENTS, make_agent
from ..replay.narrate import Narrator, result_line, side_tables
from .._atomic_write import replaced_atomically
from .._text import printable
from .common import (DEFAULT_AGENTS, add_network_options, add_rules_option, add_search_options, agent_list,
                     network_from_args, output_file, scenario_arg, search_from_args, seed_arg)


def register(sub):
    p = sub.add_parser(
        "battle",
        help="play the default scenario between two built-in agents (random, greedy, doctrine, heuristic, ismcts, "
             "puct, network)",
        description=(
            "Play a full game of Atomic Africa (sections 1-7 of 'atomic-africa rules') between two built-in agents and "
            "print a turn-by-turn summary and the result. The game is a deterministic function of the "
            "scenario, --seed and the agents; --log writes every event as JSON lines (replayable with "
            "'atomic-africa render')."
        ),
    )
    p.add_argument("--seed", type=seed_arg, default=0, help="game seed (default %(default)s)")
    p.add_argument("--scenario", type=scenario_arg, default=None, metavar="FILE|NAME",
                   help="scenario TOML file or packaged scenario name (default, meeting_engagement, "
                        "template; default: default); start from 'atomic-africa scenario --template'")
    p.add_argument("--agents", default=DEFAULT_AGENTS, metavar="A,B",
                   help=f"agents for Blue,Red from {agent_list(AGENTS)} (default %(default)s)")
    p.add_argument("--log", type=output_file, default=None, metavar="FILE.jsonl",
                   help="write the event log as JSON lines")
    add_rules_option(p)
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="also show the dice rolled and why each attack had its result (Attack against "
                        "range and Defense, range band, distance, cover, effective armor)")
    p.add_argument("--engine", choices=("native", "reference"), default="native",
                   help="native: the C core (the product); reference: the pure-Python reference engine and its "
                        "Python agents it is tested against, for debugging (the same game, slower) "
                        "(default %(default)s)")
    add_search_options(p)
    add_network_options(p)
    p.set_defaults(run=run)
    return p


def parse_agents(text: str, seed: int, args=None, make=make_agent):
    """The agents of ``--agents A,B`` (side ``i`` seeded ``seed + i``) and their names; ``args``: the
    parsed options, whose search options (``add_search_options``) an ``ismcts`` agent takes; ``make``:
    the agent factory (the reference engine's with ``--engine reference``)."""
    names = [n.strip() for n in text.split(",")]
    if len(names) != 2:
        raise ValueError(f"--agents: expected two comma-separated agents, got {text!r}")
    search = None if args is None else search_from_args(args, names)
    learned = None if args is None else network_from_args(args, names)
    if learned is None:
        return [make(n, seed + i, search=search) for i, n in enumerate(names)], names
    if make is not make_agent:
        raise ValueError("--engine: the reference engine has no learned agents (puct, network); use --engine native")
    return [make(n, seed + i, search=search, network=learned) for i, n in enumerate(names)], names


def _engine(args):
    """(Game class, agent factory) of ``--engine``: the C core's, or the reference engine's (imported
    only when asked for: the product never loads it otherwise)."""
    if getattr(args, "engine", "native") == "reference":
        from ..reference.game import Game as ReferenceGame
        from ..reference.game.agents import make_agent as reference_agent
        return ReferenceGame, reference_agent
    return Game, make_agent


def write_log(game: Game, path, agents) -> None:
    """JSON lines: a header (scenario, rules, seed, agents), one line per event, a footer (actions);
    written under a temporary name and renamed into place."""
    with replaced_atomically(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "header", "format": "atomic-africa-log/1", "seed": game.seed,
                             "agents": agents, "scenario": game.scenario.to_dict(),
                             "rules": game.rules.to_dict()}) + "\n")
        for e in game.events:
            fh.write(json.dumps(e) + "\n")
        res = game.result
        fh.write(json.dumps({"type": "footer", "actions": game.history,
                             "result": None if res is None else
                             {"winner": res.winner, "reason": res.reason, "figures": list(res.figures)}})
                 + "\n")


def run(args) -> int:
    scenario = load_scenario(args.scenario)
    game_class, make = _engine(args)
    agents, names = parse_agents(args.agents, args.seed, args, make)
    game = game_class(scenario, args.seed, rules=args.rules)
    t0 = time.perf_counter()
    log = Narrator(game, verbose=args.verbose)
    if not args.quiet:
        print("\n".join(log.opening(names)))
    shown = 0
    while not game.is_over:
        game.apply(agents[game.current_player].act(game))
        lines = log.feed(game.events[shown:], game.units)
        shown = len(game.events)
        if lines and not args.quiet:
            print("\n".join(lines))
    elapsed = time.perf_counter() - t0
    print(f"{result_line(game, names)} ({len(game.history)} decisions, {len(game.events)} events, "
          f"{elapsed:.2f} s)")
    if not args.quiet:
        print("\n".join(side_tables(game, names)))
    if args.log:
        write_log(game, args.log, names)
        print(f"Event log written to {printable(args.log)}")
    return 0
