"""The ``atomic-africa`` command line: one sub-command per module in this package."""
from __future__ import annotations

import argparse
import importlib
import sys

__all__ = ["main", "build_parser"]

# Sub-command modules; each defines register(subparsers) -> parser with a `run(args)` default.
_COMMANDS = ["fire", "odds", "artillery", "battle", "render", "selfplay"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="atomic-africa",
        description="Atomic Africa rules engine: simulate engagements, exact odds, games.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in _COMMANDS:
        importlib.import_module(f".{name}", __name__).register(sub)
    return parser


def main(argv=None) -> int:
    """Entry point of the ``atomic-africa`` script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except BrokenPipeError:
        # Output piped into e.g. `head`: stop quietly, as Unix tools do.
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, TypeError, OSError) as exc:
        print(f"atomic-africa {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
