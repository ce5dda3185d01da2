"""``atomic-africa rules``: print the players' rules reference, or an editable copy of the rules data."""
from __future__ import annotations

import sys

from ..rules_reference import packaged_rules_toml, render
from .common import add_rules_option


def register(sub):
    p = sub.add_parser(
        "rules",
        help="print the rules reference (Markdown); --dump-toml: an editable copy of the rules data",
        description=(
            "Print the rules of the game the engine plays, written for players, with every number of "
            "the rules data in force and its source tag ([seed], [src], [default]). With --rules FILE "
            "the reference shows that file's values (those that differ from the packaged rules are "
            "marked). --dump-toml prints the packaged rules data instead, comments included: save it "
            "with 'atomic-africa rules --dump-toml > my_rules.toml', edit it, and pass "
            "'--rules my_rules.toml' to any command that plays, rates or resolves (battle, selfplay, league, "
            "render, play, fire, odds, artillery)."
        ),
    )
    p.add_argument("--dump-toml", action="store_true",
                   help="print the packaged rules data (TOML with comments) to copy and edit")
    add_rules_option(p)
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    if args.dump_toml:
        if args.rules is not None:
            raise ValueError("--dump-toml: prints the packaged rules; to copy your own rules file, "
                             "copy the file itself (drop --rules)")
        sys.stdout.write(packaged_rules_toml())
        return 0
    sys.stdout.write(render(args.rules))
    return 0
