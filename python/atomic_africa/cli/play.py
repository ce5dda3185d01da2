"""``atomic-africa play``: play a game yourself, against a built-in agent or a second person at the
same screen, in the browser (served on 127.0.0.1 behind a random token) or, with ``--text``, in the
terminal."""
from __future__ import annotations

import argparse
import os

from .._atomic_write import check_writable
from .common import (add_network_options, add_rules_option, add_search_options, count_arg, ctrl_c_stops,
                     existing_file, network_from_args, output_file, scenario_arg, search_from_args, seed_arg)

#: The save file when neither --save nor --load names one.
DEFAULT_SAVE = "atomic-africa-game.json"


def port_arg(text: str) -> int:
    """A TCP port, 0..65535 (0: a free one)."""
    try:
        value = count_arg(text)
    except argparse.ArgumentTypeError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port 0..65535 (0: a free one), got {text!r}")
    return value


def register(sub):
    from ..play.session import LEVEL_WORDS, LEVELS
    p = sub.add_parser(
        "play",
        help="play a game yourself, against a built-in agent or a second person, in the browser (or --text)",
        description=(
            "Play Atomic Africa yourself. Each side is played by 'human' (a person at this screen) or an "
            "AI: a level (easy, normal, hard, expert) or a built-in agent by name. The game is served as a web page "
            "on 127.0.0.1 only, behind a random token in the URL printed at start (the page draws the "
            "table as the replay page does, offers each legal choice with the exact odds of every fire "
            "choice, keeps the battle log beside it, plays the AI's turn out step by step, and has undo, "
            "a range ruler with line of sight, new games and loading); --text plays in the terminal "
            "instead. Nothing of the other side's hidden cards is shown. The "
            "game is saved after every decision (--save, resumed with --load); the replay page of the "
            "finished game is offered in the browser (and written with --replay). Ctrl-C saves and stops."
        ),
    )
    levels = "; ".join(f"{lv}: {LEVEL_WORDS[lv]} ({agent})" for lv, agent in LEVELS.items())
    p.add_argument("--players", default=None, metavar="A,B",
                   help="who plays the first and second side: human, an AI level (easy, normal, hard, expert) or a "
                        "built-in agent (random, greedy, doctrine, heuristic, ismcts, puct, network); at least one "
                        "human (default human,normal; human,human: two people at the same screen, the screen "
                        "handed over between them)")
    p.add_argument("--level", choices=tuple(LEVELS), default=None,
                   help=f"the AI's level when --players is not given (you play the first side): {levels}; "
                        "default normal")
    p.add_argument("--scenario", type=scenario_arg, default=None, metavar="FILE|NAME",
                   help="scenario TOML file or packaged scenario name (default, meeting_engagement, template; "
                        "default: default)")
    p.add_argument("--seed", type=seed_arg, default=None, help="game seed (default 0)")
    add_rules_option(p)
    p.add_argument("--load", type=existing_file, default=None, metavar="FILE.json",
                   help="resume the game saved in FILE (by --save, or any Game.to_json file); it is saved back "
                        "there unless --save names another file")
    p.add_argument("--save", type=output_file, default=None, metavar="FILE.json",
                   help=f"save the game here after every decision (default {DEFAULT_SAVE}, which a new game "
                        "does not overwrite: resume it with --load, or name another file)")
    p.add_argument("--replay", type=output_file, default=None, metavar="FILE.html",
                   help="write the replay page of the finished game here (--text: by default beside the save "
                        "file, .html for .json)")
    p.add_argument("--text", action="store_true", help="play in the terminal: numbered choices, read from stdin")
    p.add_argument("--port", type=port_arg, default=None, metavar="N",
                   help="the browser page's port on 127.0.0.1 (default 0: a free one)")
    p.add_argument("--no-browser", action="store_true", help="print the page's URL without opening a browser")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="the battle log also shows the dice and why each attack had its result")
    add_search_options(p)
    add_network_options(p)
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    with ctrl_c_stops():     # stops on Ctrl-C even when started with SIGINT ignored (common.ctrl_c_stops)
        return _run(args)


def _run(args) -> int:
    from ..play.server import serve
    from ..play.session import LEVELS, PlaySession, parse_players
    from ..play.text import play_text
    if args.level is not None and args.players is not None:
        raise ValueError(f"--level: not with --players; name the AI there (e.g. --players human,{args.level})")
    players = parse_players(args.players or f"human,{args.level or 'normal'}")
    search = search_from_args(args, [LEVELS.get(p, p) for p in players], "--players")
    learned = network_from_args(args, [LEVELS.get(p, p) for p in players], "--players")
    if args.text:
        for option, value in (("--port", args.port), ("--no-browser", args.no_browser or None)):
            if value is not None:
                raise ValueError(f"{option}: only for the browser page, not with --text")
    if args.load is not None:
        for option, value in (("--scenario", args.scenario), ("--seed", args.seed), ("--rules", args.rules)):
            if value is not None:
                raise ValueError(f"{option}: a saved game keeps its own; not with --load")
        session = PlaySession.load(args.load, players, save=args.save, verbose=args.verbose, search=search,
                                   learned=learned)
    else:
        save = args.save
        if save is None:
            if os.path.exists(DEFAULT_SAVE):
                raise ValueError(f"--save: {DEFAULT_SAVE} already exists (a game in progress?): resume it with "
                                 f"--load {DEFAULT_SAVE}, or choose another file with --save FILE")
            save = check_writable(DEFAULT_SAVE)
        session = PlaySession.new(args.scenario, 0 if args.seed is None else args.seed, players, rules=args.rules,
                                  save=save, verbose=args.verbose, search=search, learned=learned)
    if args.text:
        return play_text(session, replay=args.replay)
    # The page may start or load other games: the replay is of the one it shows at the end.
    return serve(session, port=args.port or 0, open_browser=not args.no_browser, replay=args.replay)
