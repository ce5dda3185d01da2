"""Render the C core's parameter structs from their one declaration (:mod:`.params_schema`).

- ``src/aa_core/csrc/aa_params.h`` (:func:`render`): ``aa_params`` with its sections and arrays
  (``aa_action_bases`` .. ``aa_table_params``, ``aa_tables``) and the native agents' options
  ``aa_agent_params``, as C structs. ``aa_engine.h`` includes it.
- ``src/aa_core/vgame_params.pxi`` (:func:`render_pxi`): the same structs for Cython, as ``cdef extern
  from "csrc/aa_params.h"`` declarations (Cython names: ``Params``, ``MovementParams``, ...); included by
  ``vgame.pxd``.

The spec file's field tables come from the same declaration (:data:`.spec_file.PARAM_FIELDS`), so the
struct, its Cython twin and the format that carries a spec into C cannot disagree. Regenerate after
changing the declaration (``tests/test_params_schema.py`` fails until the committed files agree)::

    PYTHONPATH=python python -m atomic_africa.game.native.params_c
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from .params_schema import AGENT_PARAMS, PARAMS, Member, Struct

__all__ = ["render", "render_pxi", "HEADER_PATH", "PXI_PATH", "write"]

#: Where the rendered files live, relative to the repository root.
HEADER_PATH = "src/aa_core/csrc/aa_params.h"
PXI_PATH = "src/aa_core/vgame_params.pxi"

_REGENERATE = "PYTHONPATH=python python -m atomic_africa.game.native.params_c"
_CY_POINTEE = {"struct aa_odds_side": "OddsSide"}
_WIDTH = 116   # longest line written (the house's 120, with room)


def _wrap(text: str, width: int, cont: str) -> list:
    """``text`` as lines of at most ``width`` characters, the later ones starting with ``cont``."""
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = cont + word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line]


def _structs() -> list:
    """Every struct declared here, each after the structs it holds (aa_agent_params last)."""
    out = []

    def visit(s: Struct):
        for m in s.members:
            if isinstance(m.ctype, Struct):
                visit(m.ctype)
        if s not in out:
            out.append(s)

    visit(PARAMS)
    visit(AGENT_PARAMS)
    return out


def _comment(text: str) -> str:
    return text.replace("*/", "* /")


def _doc(m: Member) -> str:
    if isinstance(m.ctype, Struct):
        return m.ctype.doc
    return ("derived" + (": " if m.doc else "") if m.derived else "") + m.doc


def _dims(m: Member) -> str:
    return "".join(f"[{d}]" for d in m.dims)


def _c_decl(m: Member) -> str:
    if isinstance(m.ctype, Struct):
        return f"{m.ctype.c} {m.name};"
    if m.external is not None:
        return f"{m.external[0]} {m.name};"
    if m.ctype.endswith("*"):
        return f"{m.ctype}{m.name};"
    return f"{m.ctype} {m.name}{_dims(m)};"


def _cy_decl(m: Member) -> str:
    if isinstance(m.ctype, Struct):
        return f"{m.ctype.cy} {m.name}"
    if m.external is not None:
        return f"{m.external[1]} {m.name}"
    if m.ctype.endswith("*"):
        pointee = m.ctype[:-1].strip()
        const = pointee.startswith("const ")
        pointee = pointee[6:] if const else pointee
        return f"{'const ' if const else ''}{_CY_POINTEE.get(pointee, pointee)}* {m.name}"
    return f"{'bint' if m.flag else m.ctype} {m.name}{_dims(m)}"


def render() -> str:
    """The text of ``aa_params.h``."""
    out = ["/* Generated from atomic_africa.game.native.params_schema by atomic_africa.game.native.params_c: do not",
           " * edit by hand. Regenerate:",
           f" *     {_REGENERATE}",
           " * (tests/test_params_schema.py fails when this file and the declaration differ). Included by",
           " * aa_engine.h; Cython takes the same structs from aa_core/vgame_params.pxi, and a spec file",
           " * (atomic_africa.game.native.spec_file, aa_spec.c) carries their numbers in this order.",
           " *",
           " * aa_params holds the rules and scenario constants of one battle, one section per rules section",
           " * (a rules section's own fields keep their rules names; the values derived from them say so);",
           " * each section is numbers, int flags and fixed-size arrays only. */",
           "#ifndef AA_PARAMS_H", "#define AA_PARAMS_H", "",
           '#include "aa_common.h"', '#include "aa_fire.h"', '#include "aa_geometry.h"', '#include "aa_schema.h"', "",
           "struct aa_odds_side;   /* aa_engine.h */"]
    for s in _structs():
        out += ["", f"typedef struct {s.c} {{   /* {_comment(s.doc)} */"]
        decls = [(_c_decl(m), _doc(m)) for m in s.members]
        width = max((len(d) for d, doc in decls if doc and len(d) + len(doc) < 100), default=0)
        for d, doc in decls:
            if doc and 4 + width + 6 + len(_comment(doc)) + 3 > _WIDTH:   # a long comment goes above
                out += [f"    {line}" for line in _wrap(f"/* {_comment(doc)} */", _WIDTH - 4, " * ")]
                out.append(f"    {d}")
            else:
                out.append(f"    {d.ljust(width)}   /* {_comment(doc)} */" if doc else f"    {d}")
        out.append(f"}} {s.c};")
    out += ["", "#endif"]
    return "\n".join(out) + "\n"


def render_pxi() -> str:
    """The text of ``vgame_params.pxi``."""
    out = ["# Generated from atomic_africa.game.native.params_schema by atomic_africa.game.native.params_c: do not",
           "# edit by hand. Regenerate:",
           f"#     {_REGENERATE}",
           "# (tests/test_params_schema.py fails when this file and the declaration differ). Included by",
           "# vgame.pxd (after OddsSide, FireRules and Terrain): the structs of csrc/aa_params.h.",
           "", 'cdef extern from "csrc/aa_params.h":']
    for s in _structs():
        out.append(f'    ctypedef struct {s.cy} "{s.c}":   # {s.doc}')
        decls = [(_cy_decl(m), _doc(m)) for m in s.members]
        width = max((len(d) for d, doc in decls if doc and len(d) + len(doc) < 100), default=0)
        for d, doc in decls:
            if doc and 8 + width + 4 + len(doc) > _WIDTH:   # a long comment goes above
                out += [f"        {line}" for line in _wrap(f"# {doc}", _WIDTH - 8, "# ")]
                out.append(f"        {d}")
            else:
                out.append(f"        {d.ljust(width)}  # {doc}" if doc else f"        {d}")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _write(path: Path, text: str) -> None:
    """Write to a temporary name and rename it into place."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def write(root: Path) -> None:
    """Write both rendered files under the repository root ``root``."""
    _write(root / HEADER_PATH, render())
    _write(root / PXI_PATH, render_pxi())


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd())
