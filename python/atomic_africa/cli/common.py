"""Argument types and option groups shared by the sub-commands."""
from __future__ import annotations

import argparse
import math
import os
import signal
import threading
import tomllib
from contextlib import contextmanager
from importlib import resources

from .._atomic_write import check_writable
from .._validate import as_enum, dice_triple
from ..enums import Action, Cover, Die, Posture
from ..fire import band_label  # noqa: F401  (re-exported: the fire and odds commands label bands)
from ..fire import range_band as _range_band
from ..rules import Rules

#: The agents of ``battle``, ``render`` and ``selfplay`` when ``--agents`` is not given.
DEFAULT_AGENTS = "random,greedy"

@contextmanager
def ctrl_c_stops():
    """Ctrl-C raises KeyboardInterrupt inside the block, however the process was started.

    A shell without job control (a script's ``cmd &``, ``nohup`` under some shells) starts its
    background commands with SIGINT ignored, and an ignored signal is inherited across ``exec``;
    Python then installs no KeyboardInterrupt handler, and a command whose only way to stop cleanly
    (save the game, keep the written games) is Ctrl-C could not be stopped that way at all. So the
    commands that promise a clean stop on Ctrl-C install Python's handler themselves, and unblock the
    signal in case the launcher blocked it. The previous handler comes back afterwards, for a caller
    that ran the command in-process (``main([...])``). Outside the main thread (where no handler can
    be installed) nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if old is not None:      # None: a handler installed outside Python, which cannot be put back
            signal.signal(signal.SIGINT, old)
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


_POSTURE_ALIASES = {"off": "OFFENSIVE", "def": "DEFENSIVE", "o": "OFFENSIVE", "d": "DEFENSIVE"}


def _without_name(message: str, name: str) -> str:
    """The API's message without its leading argument name, which argparse replaces by the option's
    (``"posture: unknown ..."`` -> ``"unknown ..."``; ``"dice[1]: ..."`` -> ``"die 2: ..."``)."""
    head, sep, rest = message.partition(": ")
    if head == name:
        return rest
    if sep and head.startswith(f"{name}[") and head.endswith("]") and head[len(name) + 1:-1].isdigit():
        return f"die {int(head[len(name) + 1:-1]) + 1}: {rest}"
    return message


def dice_arg(text: str):
    try:
        return dice_triple(text, "dice", Die)
    except (TypeError, ValueError) as exc:
        raise argparse.ArgumentTypeError(_without_name(str(exc), "dice")) from None


def _enum_arg(enum_cls, aliases=None):
    def parse(text: str):
        key = (aliases or {}).get(text.lower(), text)
        name = enum_cls.__name__.lower()
        try:
            return as_enum(key, enum_cls, name)
        except (TypeError, ValueError) as exc:
            raise argparse.ArgumentTypeError(_without_name(str(exc), name)) from None
    parse.__name__ = enum_cls.__name__.lower()
    return parse


posture_arg = _enum_arg(Posture, _POSTURE_ALIASES)
action_arg = _enum_arg(Action)
cover_arg = _enum_arg(Cover, {"no": "NONE"})


def seed_arg(text: str) -> int:
    """A non-negative integer seed."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be non-negative, got {value}")
    return value


#: Largest count an option takes (the API then bounds it by memory or a limit of its own).
MAX_COUNT = 2 ** 63 - 1


def count_arg(text: str, minimum: int = 0) -> int:
    """A whole number ``minimum..MAX_COUNT``; an integer-valued float literal such as ``1e6`` is
    accepted."""
    try:
        value = int(text)
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and number.is_integer()):
            raise argparse.ArgumentTypeError(
                f"expected a whole number such as 1000000 or 1e6, got {text!r}") from None
        value = int(number)
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be >= {minimum}, got {text!r}")
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"must be <= 2**63-1, got {text[:40]!r}")
    return value


def positive_count_arg(text: str) -> int:
    """A whole number >= 1 (``1e3`` accepted), for counts of games or workers."""
    return count_arg(text, 1)


def existing_file(path: str) -> str:
    """A path that names a readable file (so that the error names the option, not a traceback)."""
    if not os.path.exists(path):
        raise argparse.ArgumentTypeError(f"no such file: {path}")
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError(f"is a directory, not a file: {path}")
    return path


def output_file(path: str) -> str:
    """A file to write: its directory exists and is writable (checked now, before any long work;
    the file itself is written under a temporary name and renamed into place)."""
    try:
        return check_writable(path)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def scenario_arg(path: str):
    """A scenario file or packaged scenario name, read and validated (its errors name the option,
    not a traceback)."""
    from ..game.scenario import load_scenario, packaged_name
    if packaged_name(path) is None:
        existing_file(path)
    try:
        return load_scenario(path)
    except (OSError, ValueError, TypeError, MemoryError, RecursionError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def rules_arg(path: str) -> Rules:
    existing_file(path)
    try:
        return Rules.from_toml(path)
    except (OSError, ValueError, TypeError, MemoryError, RecursionError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_rules_option(parser) -> None:
    parser.add_argument("--rules", type=rules_arg, default=None, metavar="FILE",
                        help="a complete rules TOML used instead of the packaged one (start from "
                             "'atomic-africa rules --dump-toml > my_rules.toml' and edit it)")


#: The search options (``add_search_options``) by the search parameter each sets.
SEARCH_OPTIONS = {"simulations": "--search-simulations", "exploration": "--search-exploration",
                  "rollout": "--search-rollout", "rollout_depth": "--search-rollout-depth",
                  "width": "--search-width"}


def _search_arg(key: str, parse):
    """An argparse type for search parameter ``key``: ``parse(text)``, then checked by the
    ISMCTSAgent constructor, so the command refuses exactly what the API refuses."""
    from ..agents.search import check_search

    def convert(text: str):
        try:
            value = parse(text)
        except (ValueError, argparse.ArgumentTypeError):
            raise argparse.ArgumentTypeError(f"expected {_SEARCH_WHAT[key]}, got {text[:40]!r}") from None
        try:
            return check_search({key: value})[key]
        except (TypeError, ValueError) as exc:
            raise argparse.ArgumentTypeError(_without_name(str(exc), key)) from None
    convert.__name__ = key
    return convert


_SEARCH_WHAT = {"simulations": "a whole number of simulations >= 1", "exploration": "a number >= 0",
                "rollout": "an agent name", "rollout_depth": "a whole number of decisions >= 0 (0: to the end)",
                "width": "a whole number of actions >= 0 (0: every legal action)"}


def _whole(text: str) -> int:
    """A whole number >= 0 as typed (0 allowed, unlike count_arg)."""
    value = int(text.strip().replace("_", ""))
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is below 0")
    return value


def add_search_options(parser) -> None:
    """The options that set the ``ismcts`` agent's search parameters (its defaults otherwise)."""
    from .._limits import MAX_SIMULATIONS
    from ..agents.search import ROLLOUT_AGENTS, ISMCTSAgent
    d = ISMCTSAgent(0)
    g = parser.add_argument_group("search (the ismcts agent)")
    g.add_argument(SEARCH_OPTIONS["simulations"], type=_search_arg("simulations", count_arg), default=None,
                   metavar="N", help=f"simulations per decision, 1..{MAX_SIMULATIONS:,} (default {d.simulations}; "
                                     "time per decision grows with it)")
    g.add_argument(SEARCH_OPTIONS["exploration"], type=_search_arg("exploration", float), default=None,
                   metavar="C", help=f"the UCT exploration constant, >= 0 (default {d.exploration:g})")
    g.add_argument(SEARCH_OPTIONS["rollout"], type=_search_arg("rollout", str.strip), default=None,
                   metavar="AGENT", help=f"the agent that plays each simulation on after the tree: "
                                         f"{', '.join(ROLLOUT_AGENTS)} (default {d.rollout})")
    g.add_argument(SEARCH_OPTIONS["rollout_depth"], type=_search_arg("rollout_depth", count_arg), default=None,
                   metavar="D", help="rollout decisions at most, then the figures left decide the reward; "
                                     f"0: play rollouts to the end (default {d.rollout_depth})")
    g.add_argument(SEARCH_OPTIONS["width"], type=_search_arg("width", _whole), default=None, metavar="K",
                   help="consider only the greedy agent's K best actions at each node, best first; "
                        f"0: every legal action (default {d.width})")


def search_from_args(args, agents, option: str = "--agents", searchers=None) -> dict | None:
    """The search parameters the options of :func:`add_search_options` set (None: none set),
    refused when none of ``agents`` (the names given with ``option``) searches (is one of
    ``searchers``, default the built-in search agents)."""
    from ..agents.search import SEARCH_AGENTS
    searchers = SEARCH_AGENTS if searchers is None else tuple(searchers)
    given = {k: getattr(args, opt[2:].replace("-", "_")) for k, opt in SEARCH_OPTIONS.items()}
    given = {k: value for k, value in given.items() if value is not None}
    if not given:
        return None
    if not any(str(a).strip().lower() in searchers for a in agents):
        first = SEARCH_OPTIONS[next(iter(given))]
        raise ValueError(f"{first}: only with a search agent ({', '.join(searchers)}) in {option}")
    return given


#: The learned agents' options (``add_network_options``) by the PUCT parameter each sets.
PUCT_OPTIONS = {"simulations": "--puct-simulations", "wave": "--puct-wave", "c_puct": "--puct-c",
                "temperature": "--puct-temperature", "rollout": "--puct-rollout",
                "rollout_weight": "--puct-rollout-weight", "width": "--puct-width"}


def _puct_arg(key: str, parse):
    """An argparse type for PUCT parameter ``key``, checked as :func:`~atomic_africa.agents.puct.check_puct` does."""
    from ..agents.puct import check_puct

    def convert(text: str):
        try:
            value = parse(text)
            return check_puct(**{key: value})[key]
        except (TypeError, ValueError, argparse.ArgumentTypeError) as exc:
            raise argparse.ArgumentTypeError(_without_name(str(exc), key)) from None
    convert.__name__ = key
    return convert


def add_network_options(parser) -> None:
    """The options of the learned agents ``puct`` (network plus search) and ``network`` (alone)."""
    from ..agents.network import DEFAULT_NETWORK
    from ..agents.puct import MAX_SIMULATIONS, MAX_WAVE, PUCT_DEFAULTS, PUCT_ROLLOUTS
    d = PUCT_DEFAULTS
    g = parser.add_argument_group("network (the puct and network agents)")
    g.add_argument("--network", type=existing_file, default=None, metavar="FILE.npz",
                   help=f"the policy-value network file of puct and network (default: the packaged {DEFAULT_NETWORK})")
    g.add_argument(PUCT_OPTIONS["simulations"], type=_puct_arg("simulations", count_arg), default=None, metavar="N",
                   help=f"puct: simulations per decision, 1..{MAX_SIMULATIONS:,} (default {d['simulations']})")
    g.add_argument(PUCT_OPTIONS["wave"], type=_puct_arg("wave", count_arg), default=None, metavar="W",
                   help=f"puct: simulations per tree per network call, 1..{MAX_WAVE} (default {d['wave']})")
    g.add_argument(PUCT_OPTIONS["c_puct"], type=_puct_arg("c_puct", float), default=None, metavar="C",
                   help=f"puct: the exploration constant, >= 0 (default {d['c_puct']:g})")
    g.add_argument(PUCT_OPTIONS["temperature"], type=_puct_arg("temperature", float), default=None, metavar="T",
                   help=f"puct: 0 plays the most visited action; > 0 draws one with weights visits**(1/T) "
                        f"(default {d['temperature']:g})")
    g.add_argument(PUCT_OPTIONS["rollout"], type=_puct_arg("rollout", str), default=None, metavar="AGENT",
                   help=f"puct: the agent that plays each new leaf out, one of {', '.join(PUCT_ROLLOUTS)} "
                        f"(default {d['rollout']})")
    g.add_argument(PUCT_OPTIONS["rollout_weight"], type=_puct_arg("rollout_weight", float), default=None,
                   metavar="L", help=f"puct: a leaf's value is (1 - L) x the network's + L x its rollout's, 0..1 "
                                     f"(default {d['rollout_weight']:g})")
    g.add_argument(PUCT_OPTIONS["width"], type=_puct_arg("width", count_arg), default=None, metavar="K",
                   help=f"puct: a node's children are the greedy agent's best K actions; 0: every legal one "
                        f"(default {d['width']})")


def network_from_args(args, agents, option: str = "--agents"):
    """The learned agents' settings (:class:`~atomic_africa.agents.learned.Learned`) the options of
    :func:`add_network_options` set, refused when none of ``agents`` (named with ``option``) reads a
    network; None when no learned agent plays."""
    from ..agents.learned import LEARNED_AGENTS, check_learned
    puct = {k: getattr(args, opt[2:].replace("-", "_")) for k, opt in PUCT_OPTIONS.items()}
    puct = {k: value for k, value in puct.items() if value is not None}
    names = [str(a).strip().lower() for a in agents]
    if args.network is not None and not any(a in LEARNED_AGENTS for a in names):
        raise ValueError(f"--network: only with a learned agent ({', '.join(LEARNED_AGENTS)}) in {option}")
    if puct and "puct" not in names:
        raise ValueError(f"{PUCT_OPTIONS[next(iter(puct))]}: only with the puct agent in {option}")
    if not any(a in LEARNED_AGENTS for a in names):
        return None
    return check_learned(args.network, puct)


def names(enum_cls) -> str:
    """The members of ``enum_cls`` as a person types them: ``"no, light, heavy"``."""
    return ", ".join(m.name.lower() for m in enum_cls)


def agent_list(agents) -> str:
    """Agent names as a person types them, sorted: ``"doctrine, greedy, random"`` (not a Python list)."""
    return ", ".join(sorted(agents))


def default_engagement() -> dict:
    """The packaged default engagement (``data/default_engagement.toml``) with parsed values."""
    text = resources.files("atomic_africa").joinpath("data/default_engagement.toml").read_text()
    raw = tomllib.loads(text)
    return dict(
        n=raw["n"], seed=raw["seed"], range_band=raw["range_band"], armor=raw["armor"], ap=raw["ap"],
        vehicle=raw["vehicle"],
        shooter=dice_arg(",".join(raw["shooter"])), target=dice_arg(",".join(raw["target"])),
        shooter_posture=posture_arg(raw["shooter_posture"]),
        target_posture=posture_arg(raw["target_posture"]),
        shooter_action=action_arg(raw["shooter_action"]), target_action=action_arg(raw["target_action"]),
        cover=cover_arg(raw["cover"]),
    )


def add_engagement_options(p, d: dict) -> None:
    """The options describing one shooter firing at one target (``fire`` and ``odds``)."""
    p.add_argument("--shooter", type=dice_arg, default=d["shooter"], metavar="DICE",
                   help="shooter's Training,Equipment,Morale dice after wounds (default d10,d10,d8)")
    p.add_argument("--target", type=dice_arg, default=d["target"], metavar="DICE",
                   help="target's three dice after wounds (default d10,d10,d8)")
    p.add_argument("--shooter-posture", "--posture", type=posture_arg, default=d["shooter_posture"],
                   metavar="POSTURE", help="offensive/off or defensive/def (default offensive)")
    p.add_argument("--target-posture", type=posture_arg, default=d["target_posture"],
                   metavar="POSTURE", help="target's posture (default defensive)")
    p.add_argument("--action", "--shooter-action", dest="shooter_action", type=action_arg,
                   default=d["shooter_action"], metavar="ACTION",
                   help=f"shooter's action: {names(Action)} (default basic)")
    p.add_argument("--target-action", type=action_arg, default=d["target_action"], metavar="ACTION",
                   help="target's action, which sets its Defense (default basic)")
    rng = p.add_mutually_exclusive_group()
    rng.add_argument("--range-band", type=int, default=None, metavar="BAND",
                     help=f"range band, 1-9 with the packaged stick (default {d['range_band']})")
    rng.add_argument("--distance", type=float, default=None, metavar="CM",
                     help="distance in cm between In-transit points, banded by the rules' stick")
    p.add_argument("--armor", type=int, default=d["armor"], help="target armor (default %(default)s)")
    p.add_argument("--cover", type=cover_arg, default=d["cover"], metavar="COVER",
                   help=f"target's predominant cover: {names(Cover)} (default light)")
    p.add_argument("--ap", type=int, default=d["ap"], help="armor penetration, <= 0 (default 0)")
    p.add_argument("--vehicle", action="store_true", default=d["vehicle"], help="the target is a vehicle")
    p.set_defaults(default_band=d["range_band"])


def engagement_band(args) -> int:
    """The range band from ``--distance`` (banded by the rules' stick) or ``--range-band``."""
    if args.distance is not None:
        return _range_band(args.distance, args.rules)
    return args.range_band if args.range_band is not None else args.default_band
