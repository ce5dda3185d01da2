"""Argument types and option groups shared by the sub-commands."""
from __future__ import annotations

import argparse
import tomllib
from importlib import resources

from .._validate import as_enum, dice_triple
from ..enums import Action, Cover, Die, Posture
from ..fire import range_band as _range_band
from ..rules import Rules

_POSTURE_ALIASES = {"off": "OFFENSIVE", "def": "DEFENSIVE", "o": "OFFENSIVE", "d": "DEFENSIVE"}


def dice_arg(text: str):
    try:
        return dice_triple(text, "dice", Die)
    except (TypeError, ValueError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _enum_arg(enum_cls, aliases=None):
    def parse(text: str):
        key = (aliases or {}).get(text.lower(), text)
        try:
            return as_enum(key, enum_cls, enum_cls.__name__.lower())
        except (TypeError, ValueError) as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
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


def rules_arg(path: str) -> Rules:
    try:
        return Rules.from_toml(path)
    except (OSError, ValueError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_rules_option(parser) -> None:
    parser.add_argument("--rules", type=rules_arg, default=None, metavar="FILE",
                        help="a complete rules TOML used instead of the packaged one (copy "
                             "atomic_africa/data/rules.toml and edit it)")


def names(enum_cls) -> str:
    return ", ".join(m.name.lower() for m in enum_cls)


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
