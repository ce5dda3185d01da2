"""``atomic-africa compile``: a battle as a spec file for the C core (``aa_spec_load``)."""
from __future__ import annotations

from .._atomic_write import replaced_atomically
from .common import add_rules_option, output_file, scenario_arg


def register(sub):
    p = sub.add_parser(
        "compile",
        help="write a battle (scenario + rules) as a binary spec file for the C API (aa_spec_load)",
        description=(
            "Compile a scenario and the rules into the versioned, checksummed binary spec file that "
            "the C library's aa_spec_load reads with no Python at run time (format: docs/guide/c_api.md, "
            "'Spec files'). A C game made from it plays as Game and VectorGame do. The file is written "
            "under a temporary name and renamed into place."
        ),
    )
    p.add_argument("scenario", type=scenario_arg, metavar="SCENARIO",
                   help="a scenario TOML file or a packaged scenario name")
    add_rules_option(p)
    p.add_argument("-o", "--output", type=output_file, required=True, metavar="FILE",
                   help="the spec file to write")
    p.set_defaults(run=run)
    return p


def run(args) -> int:
    from ..game.native.spec_file import compile_spec

    data = compile_spec(args.scenario, args.rules)
    with replaced_atomically(args.output) as tmp, open(tmp, "wb") as fh:
        fh.write(data)
    return 0
