"""``atomic-africa render``: draw a game state or a replay step to PNG, or animate a replay to GIF."""
from __future__ import annotations

import argparse

from .._atomic_write import check_writable
from .._optional import require
from .._text import printable
from ..game import Game, load_scenario
from .common import (DEFAULT_AGENTS, add_network_options, add_rules_option, add_search_options, count_arg,
                     existing_file, output_file, scenario_arg, seed_arg)


# A 16 x 11 inch figure: 160 x 110 pixels at the least, 9,600 x 6,600 (63 megapixels) at the most.
MIN_DPI, MAX_DPI = 10, 600


def dpi_arg(text: str) -> int:
    """Dots per inch, ``MIN_DPI..MAX_DPI``."""
    value = count_arg(text)
    if not MIN_DPI <= value <= MAX_DPI:
        raise argparse.ArgumentTypeError(f"expected an integer {MIN_DPI}..{MAX_DPI}, got {text!r}")
    return value


def register(sub):
    p = sub.add_parser(
        "render",
        help="draw a game state / replay step to PNG (--gif: animate the replay; --html: a replay web page)",
        description=(
            "Draw the table (terrain by cover, hatched = blocks line of sight), the units with their "
            "suppression markers (dots) and wound counters (crosses), and the last Activation phase's "
            "moves (dashed arrows) and fire lines (orange = effective), with a legend, in a 1600 x 1100 "
            "picture. --gif animates the whole replay (a captioned frame per phase); --html writes a "
            "self-contained web page stepping through it, with each shot's exact odds. REPLAY is a "
            "'battle --log' JSONL file, a game JSON (Game.to_json) or a 'selfplay --replays' file; "
            "without it a new game is played with --seed/--agents."
        ),
    )
    p.add_argument("replay", nargs="?", type=existing_file, default=None, metavar="REPLAY",
                   help="battle log (.jsonl), game JSON, or selfplay --replays file (with --game)")
    p.add_argument("--game", type=count_arg, default=0, metavar="K",
                   help="with a 'selfplay --replays' file: draw game K (0-based, default 0)")
    p.add_argument("--step", type=int, default=None, help="draw the state after this many actions (default: last)")
    p.add_argument("-o", "--output", type=output_file, default=None, metavar="FILE.png",
                   help="PNG to write (default battle.png; with --gif or --html only if given)")
    p.add_argument("--gif", type=output_file, default=None, metavar="FILE.gif",
                   help="animate the whole replay into this GIF")
    p.add_argument("--html", type=output_file, default=None, metavar="FILE.html",
                   help="write the whole replay as one self-contained web page (slider, play button, "
                        "each shot's exact odds; needs no network and no matplotlib)")
    p.add_argument("--dpi", type=dpi_arg, default=None, metavar="N",
                   help=f"dots per inch, {MIN_DPI}..{MAX_DPI} (default 100 for the PNG: 1600 x 1100 pixels; "
                        "80 for --gif)")
    p.add_argument("--every", choices=("phase", "action"), default="phase",
                   help="--gif / --html frame per phase or per action")
    p.add_argument("--seed", type=seed_arg, default=0, help="seed when no REPLAY is given (default %(default)s)")
    p.add_argument("--scenario", type=scenario_arg, default=None, metavar="FILE|NAME",
                   help="scenario when no REPLAY is given: a TOML file or a packaged scenario's name "
                        "(default, meeting_engagement, template)")
    add_rules_option(p)
    p.add_argument("--agents", default=DEFAULT_AGENTS, metavar="A,B",
                   help="agents when no REPLAY is given (default %(default)s)")
    add_search_options(p)
    add_network_options(p)
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    picture = args.gif is not None or args.output is not None or args.html is None
    if picture:
        require("matplotlib", "plot", "render")  # before a game is played, not after
    if args.gif:
        require("PIL", "plot", "render --gif")
    png = picture and not (args.gif and args.output is None)
    if png and args.output is None:
        args.output = check_writable("battle.png")   # the default, checked before a game is played
    from ..replay.frames import caption, game_at, load_replay, phase_lines
    if args.replay:
        if args.rules is not None:
            # a replay is drawn under the rules it was played by (its header holds them): other rules
            # could make its recorded actions illegal or mean other outcomes
            raise ValueError("--rules: only without REPLAY (a replay is drawn under the rules it was played "
                             "by); leave out --rules, or REPLAY to play a new game under FILE")
        scenario, rules, seed, actions = load_replay(args.replay, args.game)
    else:
        from .battle import parse_agents
        agents, _ = parse_agents(args.agents, args.seed, args)
        g = Game(load_scenario(args.scenario), args.seed, rules=args.rules)
        while not g.is_over:
            g.apply(agents[g.current_player].act(g))
        scenario, rules, seed, actions = g.scenario.to_dict(), g.rules.to_dict(), g.seed, g.history
    if args.html:
        from ..replay.html import save_html
        n = save_html(scenario, rules, seed, actions, args.html, every=args.every)
        print(f"Wrote {printable(args.html)} ({n} frames; open it in a web browser)")
    if args.gif:
        from ..replay.render import GIF_DPI, save_gif
        n = save_gif(scenario, rules, seed, actions, args.gif, every=args.every,
                     dpi=args.dpi or GIF_DPI, progress=True)
        print(f"Wrote {printable(args.gif)} ({n} frames)")
    if not png:
        return 0
    from ..replay.render import DPI, save_png
    game = game_at(scenario, rules, seed, actions, args.step)
    lines = phase_lines(scenario, rules, seed, actions, args.step)
    save_png(game, args.output, dpi=args.dpi or DPI, caption=caption(game, lines))
    print(f"Wrote {printable(args.output)} (step {len(game.history)} of {len(actions)}, turn {game.s.turn}, "
          f"{game.stage.lower()})")
    return 0
