"""Argument types shared by the sub-commands."""
from __future__ import annotations

import argparse

from .._validate import as_enum, dice_triple
from ..enums import Action, Cover, Die, Posture
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


def rules_arg(path: str) -> Rules:
    try:
        return Rules.from_toml(path)
    except (OSError, ValueError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_rules_option(parser) -> None:
    parser.add_argument("--rules", type=rules_arg, default=None, metavar="FILE",
                        help="rules TOML overriding the packaged defaults (same layout)")


def names(enum_cls) -> str:
    return ", ".join(m.name.lower() for m in enum_cls)
