"""The ``atomic-africa`` command line: one sub-command per module in this package."""
from __future__ import annotations

import argparse
import difflib
import importlib
import os
import re
import sys
import textwrap
import traceback
import warnings

from .._atomic_write import WriteError
from .._optional import MissingExtraError
from .._text import printable

__all__ = ["main", "build_parser"]

# Sub-command modules; each defines register(subparsers) -> parser with a `run(args)` default.
_COMMANDS = ["fire", "odds", "artillery", "battle", "play", "render", "selfplay", "league", "rules", "scenario",
             "compile"]


class SuggestingParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors add "did you mean ...?" for a mistyped sub-command, choice or
    long option (sub-parsers are of this class too: ``add_subparsers`` uses the parent's class)."""

    def parse_known_args(self, args=None, namespace=None):
        # Unknown options reach the top-level parser; report them from the sub-command's parser,
        # which knows that command's options.
        ns, extras = super().parse_known_args(args, namespace)
        sub = self._command_parser(getattr(ns, "command", None))
        if extras and sub is not None:
            sub.error(f"unrecognized arguments: {' '.join(extras)}")
        return ns, extras

    def _command_parser(self, command):
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                return action.choices.get(command)
        return None

    def error(self, message):
        # One line, as every other failure of the command line (no usage block: COMMAND --help).
        self.exit(2, f"{self.prog}: error: {printable(message + _did_you_mean(self, message))}\n")


def _did_you_mean(parser: argparse.ArgumentParser, message: str) -> str:
    """The " Did you mean 'battle'?" suffix for an invalid choice or an unknown long option, or ""."""
    choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if choice:
        options = [c.strip().strip("'") for c in choice.group(2).split(",")]
        close = difflib.get_close_matches(choice.group(1), options, n=2, cutoff=0.75)
    elif message.startswith("unrecognized arguments:"):
        # An option renamed in this version still points its users to the new name.
        renamed = getattr(parser, "renamed_options", {})
        known = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
        words = [w.split("=")[0] for w in message.split(":", 1)[1].split() if w.startswith("--")]
        close = [renamed.get(m, m) for w in words
                 for m in difflib.get_close_matches(w, known + list(renamed), n=2, cutoff=0.75)]
    else:
        return ""
    if not close:
        return ""
    return "; did you mean " + " or ".join(f"'{c}'" for c in dict.fromkeys(close)) + "?"


def build_parser() -> argparse.ArgumentParser:
    parser = SuggestingParser(
        prog="atomic-africa",
        description="Atomic Africa rules engine: simulate engagements, exact odds, games.",
    )
    from .._version import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--debug", action="store_true", default=False, help=_DEBUG_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    subs = [importlib.import_module(f".{name}", __name__).register(sub) for name in _COMMANDS]
    for p in subs:   # also after the command ("atomic-africa fire -n 1e12 --debug")
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=_DEBUG_HELP)
    # The top-level help lists every option of every command; COMMAND --help explains each one.
    parser.epilog = "every command and option (details: atomic-africa COMMAND --help):\n\n" + \
        "\n".join(_options_line(p) for p in subs)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def _options_line(p: argparse.ArgumentParser) -> str:
    """``prog: -n/--engagements N, --shooter DICE, ...`` wrapped for the top-level help."""
    items = []
    for action in p._actions:
        if not action.option_strings or isinstance(action, argparse._HelpAction) or action.dest == "debug":
            continue    # --debug is listed once, as the global option it is
        flags = "/".join(action.option_strings)
        if action.nargs != 0:
            flags += f" {action.metavar or action.dest.upper()}"
        items.append(flags)
    items += [a.metavar or a.dest for a in p._actions if not a.option_strings]
    return textwrap.fill(f"{p.prog}: " + ", ".join(items), width=100, initial_indent="  ",
                         subsequent_indent="      ", break_on_hyphens=False, break_long_words=False)


def main(argv=None) -> int:
    """Entry point of the ``atomic-africa`` script; returns the exit status.

    Every failure is one line on stderr, ``atomic-africa COMMAND: error: ...``, naming the option,
    field or file, with exit status 2, or 1 when writing an output file failed; ``--debug`` adds the
    traceback. Warnings are one line too (``atomic-africa COMMAND: warning: ...``).
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    prog = "atomic-africa"
    debug = "--debug" in argv
    if hasattr(sys.stdout, "reconfigure"):
        # A name the terminal's encoding cannot show is written as an escape, not a crash.
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        parser = build_parser()
        def show(message, category, *rest, **kw):
            # named as errors are: an API warning "workers: ..." says "--workers: ..."
            text = str(message)
            if " " in prog:
                text = _name_option(parser, prog.split()[1], text)
            print(f"{prog}: warning: {printable(text)}", file=sys.stderr)

        with warnings.catch_warnings():
            warnings.showwarning = show
            args = parser.parse_args(argv)
            prog = f"atomic-africa {args.command}"
            status = int(args.run(args) or 0)
            sys.stdout.flush()   # a closed pipe is reported here, not at exit
        return status
    except BrokenPipeError:
        # Output piped into e.g. `head`: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except WriteError as exc:
        return _fail(prog, debug, str(exc), 1)
    except MissingExtraError as exc:
        # An optional dependency is missing: the message names the extra that installs it.
        return _fail(prog, debug, str(exc), 2)
    except (ValueError, TypeError, OSError, MemoryError) as exc:
        message = str(exc) or type(exc).__name__
        if " " in prog:
            message = _name_option(parser, prog.split()[1], message)
        return _fail(prog, debug, message, 2)
    except RecursionError as exc:
        return _fail(prog, debug, f"input nested too deeply ({exc})", 2)
    except Exception as exc:   # a bug: still one line, the traceback with --debug
        return _fail(prog, debug, f"internal error {type(exc).__name__}: {exc} (run again with --debug "
                                  "for the traceback, and please report it)", 2)


_DEBUG_HELP = "on an error, also print the Python traceback"


def _fail(prog: str, debug: bool, message: str, status: int) -> int:
    """Report a failure in one line (after the traceback with ``--debug``); return ``status``."""
    if debug:
        traceback.print_exc()
    print(f"{prog}: error: {printable(message)}", file=sys.stderr)
    return status


# API argument names that differ from the option's destination (in every command, or in one).
_API_NAMES = {"distance_cm": "distance", "agent": "agents"}
_COMMAND_API_NAMES = {("artillery", "n"): "simulate"}


def _name_option(parser, command: str, message: str) -> str:
    """Say which option an API error is about: "threads: ..." -> "--threads: ..."."""
    name, sep, rest = message.partition(":")
    if not sep or " " in name:
        return message
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    base = name.split("[")[0]
    dest = _COMMAND_API_NAMES.get((command, base), _API_NAMES.get(base, base))
    for action in sub._actions:
        if action.dest == dest and action.option_strings:
            option = next((o for o in action.option_strings if o.startswith("--")),
                          action.option_strings[0])
            # The API's name for the argument gives way to the option's ("agent[1]: x" ->
            # "--agents[1]: x"), so the message never names the same thing twice.
            return f"{option}{name[len(base):]}:{rest}"
    return message


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
