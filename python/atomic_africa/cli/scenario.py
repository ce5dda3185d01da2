"""``atomic-africa scenario``: print a commented scenario file to start from."""
from __future__ import annotations

import sys
from importlib import resources


def template_text() -> str:
    """The packaged commented scenario template (``data/scenarios/template.toml``)."""
    return resources.files("atomic_africa").joinpath("data/scenarios/template.toml").read_text("utf-8")


def register(sub):
    p = sub.add_parser(
        "scenario",
        help="print a commented scenario file to start from (--template)",
        description=(
            "Scenario files (TOML) set the table, the terrain, the two sides with their units and "
            "off-board fire support, and the turn limit. --template prints a small commented scenario "
            "naming every field: save it with 'atomic-africa scenario --template > my_scenario.toml', "
            "edit it, and play it with 'atomic-africa battle --scenario my_scenario.toml'."
        ),
    )
    p.add_argument("--template", action="store_true", required=True,
                   help="print the commented scenario template")
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    sys.stdout.write(template_text())
    return 0
