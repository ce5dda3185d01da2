"""Render ``src/aa_core/vgame_schema.pxi``, the native engine's declarations, from :mod:`.schema`.

Regenerate after changing the schema (``tests/test_schema.py`` fails until the committed file agrees)::

    PYTHONPATH=python python -m atomic_africa.game.native.schema_pxi > src/aa_core/vgame_schema.pxi
"""
from __future__ import annotations

from ...enums import Action, Posture, UnitKind
from ..schema import (END_REASONS, EVENTS, FIELD_KINDS, LIMITS, NATIVE_STORAGES, NO_CARD, SCALARS, STAGES,
                     native_rows)

__all__ = ["render", "PXI_PATH"]

#: Where the rendered file lives, relative to the repository root.
PXI_PATH = "src/aa_core/vgame_schema.pxi"

_HEADER = """\
# Generated from atomic_africa.game.schema by atomic_africa.game.native.schema_pxi: do not edit by hand.
# Regenerate: PYTHONPATH=python python -m atomic_africa.game.native.schema_pxi > src/aa_core/vgame_schema.pxi
# (tests/test_schema.py fails when this file and the schema differ). Included by vgame.pxd.
"""


def _enum(title: str, items) -> list:
    """A cdef enum block: items are (name, value, comment)."""
    lines = ["", f"# {title}", "cdef enum:"]
    width = max(len(f"{n} = {v}") for n, v, _ in items)
    for n, v, doc in items:
        text = f"{n} = {v}"
        lines.append(f"    {text.ljust(width)}  # {doc}" if doc else f"    {text}")
    return lines


def _record_layout(fields) -> str:
    """The values of an event record, for the comment beside its code."""
    parts = []
    for f in fields:
        width = FIELD_KINDS[f.kind][0]
        if width == 0:
            continue
        if f.kind == "point":
            parts.append(f"{f.name}.x, {f.name}.y")
        elif f.kind == "unit_name":
            parts.append("name_base, name_depth")
        elif width == "size":
            parts.append(f"{f.name}[{f.size}]")
        elif width == "1 + size":
            parts.append(f"n_{f.name}, {f.name}[{f.size}]")
        elif width == "rest":
            parts.append(f"{f.name}...")
        else:
            parts.append(f.name)
    return ", ".join(parts) or "(no values)"


def render() -> str:
    """The text of ``vgame_schema.pxi``: the cdef enums, the ``V`` struct and ``make_view``."""
    out = [_HEADER.rstrip("\n")]
    out += _enum("Limits of the fixed-size arrays (schema.LIMITS).", [(x.name, x.value, x.doc) for x in LIMITS])
    out += _enum("Action / Posture / UnitKind values (atomic_africa.enums) and the empty card.",
                 [(f"A_{a.name}", int(a), "") for a in Action] + [(f"P_{p.name}", int(p), "") for p in Posture]
                 + [(f"K_{k.name}", int(k), "") for k in UnitKind] + [("NO_CARD", NO_CARD, "")])
    out += _enum("Stages (atomic_africa.game.state.Stage).",
                 [(f"ST_{n}", i, doc) for i, (n, doc) in enumerate(STAGES)])
    out += _enum("Game scalars: columns of the (n, NS) int32 array.",
                 [(f"S_{n.upper()}", i, doc) for i, (n, doc) in enumerate(SCALARS)] + [("NS", len(SCALARS), "")])
    for storage, ctype in NATIVE_STORAGES.items():
        rows = native_rows(storage)
        n = f"N{storage.upper()}"
        out += _enum(f"Unit {ctype} fields: rows of the (n, {n}, U) array.",
                     [(f"F_{name}", r, f.doc + (f" ({f.name}[{r - f.row}])" if f.rows > 1 else ""))
                      for r, name, f in rows] + [(n, len(rows), "")])
    out += _enum("Event record codes; a record is code, turn, n, then n values (listed).",
                 [(f"E_{t.upper()}", i, _record_layout(fields)) for i, (t, fields) in enumerate(EVENTS)])
    out += _enum("End reasons (S_REASON; atomic_africa.game.schema.END_REASONS).",
                 [(f"R_{r.name}", i, r.text) for i, r in enumerate(END_REASONS)])
    views = [(storage, ctype, name.lower()) for storage, ctype in NATIVE_STORAGES.items()
             for _, name, f in native_rows(storage) if f.rows == 1]
    out += ["", "", "# One game's unit rows as named pointers (v.x[u] is unit u's x).", "ctypedef struct V:",
            "    const Params* P", "    Game* g", "    EventBuffer* ev", "    int32_t* s", "    int U, C, K"]
    out += [f"    {ctype}* {name}" for _, ctype, name in views]
    out += ["", "", "cdef inline void make_view(const Params* P, Game* g, V* v) noexcept nogil:",
            "    cdef int U = P.U", "    v.P = P", "    v.g = g", "    v.ev = g.ev", "    v.s = g.s",
            "    v.U = U", "    v.C = P.C", "    v.K = P.K"]
    out += [f"    v.{name} = g.{storage} + F_{name.upper()} * U" for storage, _, name in views]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(render(), end="")
