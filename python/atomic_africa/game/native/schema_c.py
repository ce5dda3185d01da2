"""Render the native engine's schema declarations from :mod:`..schema`: one C header and its Cython names.

- ``src/aa_core/csrc/aa_schema.h`` (:func:`render`): the C enums (limits, Action/Posture/UnitKind
  codes, stages, scalar columns, unit rows, event codes, end reasons, a unit slot's observation
  offsets) with their values, the
  ``aa_view`` struct of named unit rows and ``aa_view_rows``, which points them into a game's storage.
  The C core (``src/aa_core/csrc``) includes it.
- ``src/aa_core/vgame_schema.pxi`` (:func:`render_pxi`): the same names for Cython, as ``cdef extern
  from "csrc/aa_schema.h"`` declarations without values (the values come from the header); included
  by ``vgame.pxd``.
- ``src/aa_core/csrc/aa_hidden.h`` (:func:`render_hidden`): the record values a player's view of the
  event log hides (:data:`..schema.HIDDEN`), for the C API's ``aa_game_player_events``.

Regenerate them after changing the schema (``tests/test_schema.py`` fails until the committed files
agree)::

    PYTHONPATH=python python -m atomic_africa.game.native.schema_c
"""
from __future__ import annotations

import sys
from pathlib import Path

from ...enums import Action, Posture, UnitKind
from ..schema import (END_REASONS, EVENT_FIELDS, EVENTS, FIELD_KINDS, HEAD_OBSERVATION, HIDDEN, LIMITS,
                     NATIVE_STORAGES, NO_CARD, SCALARS, STAGES, UNIT_OBSERVATION, native_rows)

__all__ = ["render", "render_pxi", "render_hidden", "hidden_spans", "HEADER_PATH", "PXI_PATH", "HIDDEN_PATH",
           "write"]

#: Where the rendered files live, relative to the repository root.
HEADER_PATH = "src/aa_core/csrc/aa_schema.h"
PXI_PATH = "src/aa_core/vgame_schema.pxi"
HIDDEN_PATH = "src/aa_core/csrc/aa_hidden.h"

_REGENERATE = "PYTHONPATH=python python -m atomic_africa.game.native.schema_c"


def _comment(text: str) -> str:
    return text.replace("*/", "* /")


def _blocks() -> list:
    """The enum blocks: (title, [(name, value, comment)])."""
    blocks = [
        ("Limits of the fixed-size arrays (schema.LIMITS).", [(x.name, x.value, x.doc) for x in LIMITS]),
        ("Action / Posture / UnitKind values (atomic_africa.enums) and the empty card.",
         [(f"A_{a.name}", int(a), "") for a in Action] + [(f"P_{p.name}", int(p), "") for p in Posture]
         + [(f"K_{k.name}", int(k), "") for k in UnitKind] + [("NO_CARD", NO_CARD, "")]),
        ("Stages (atomic_africa.game.state.Stage).", [(f"ST_{n}", i, doc) for i, (n, doc) in enumerate(STAGES)]),
        ("Game scalars: columns of the (n, NS) int32 array.",
         [(f"S_{n.upper()}", i, doc) for i, (n, doc) in enumerate(SCALARS)] + [("NS", len(SCALARS), "")]),
    ]
    for storage, ctype in NATIVE_STORAGES.items():
        rows = native_rows(storage)
        n = f"N{storage.upper()}"
        blocks.append((f"Unit {ctype} fields: rows of the (n, {n}, U) array.",
                       [(f"F_{name}", r, f.doc + (f" ({f.name}[{r - f.row}])" if f.rows > 1 else ""))
                        for r, name, f in rows] + [(n, len(rows), "")]))
    blocks.append(("Event record codes; a record is code, turn, n, then n values (listed).",
                   [(f"E_{t.upper()}", i, _record_layout(fields)) for i, (t, fields) in enumerate(EVENTS)]))
    blocks.append(("End reasons (S_REASON; atomic_africa.game.schema.END_REASONS).",
                   [(f"R_{r.name}", i, r.text) for i, r in enumerate(END_REASONS)]))
    head, at = [], 0
    for name, width, doc in HEAD_OBSERVATION:
        head.append((f"OBS_{name.upper()}", at, doc))
        at += width
    blocks.append(("An observation's head (schema.HEAD_OBSERVATION): its first float of each; the observer's "
                   "hand follows.", head + [("OBS_HEAD", at, "floats of the head")]))
    blocks.append(("A unit slot's observation floats: offsets in its UNIT_FEATURES (schema.UNIT_OBSERVATION);"
                   " a one-hot's value is added to its first.",
                   [(f"OBS_U_{f.name.upper()}", i, f.meaning) for i, f in enumerate(UNIT_OBSERVATION)]))
    return blocks


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


def _views() -> list:
    """The unit rows a view names: (storage, C element type, field name)."""
    return [(storage, ctype, name.lower()) for storage, ctype in NATIVE_STORAGES.items()
            for _, name, f in native_rows(storage) if f.rows == 1]


def render() -> str:
    """The text of ``aa_schema.h``: the C enums, the ``aa_view`` struct and ``aa_view_rows``."""
    out = ["/* Generated from atomic_africa.game.schema by atomic_africa.game.native.schema_c: do not edit by hand.",
           f" * Regenerate: {_REGENERATE}",
           " * (tests/test_schema.py fails when this file and the schema differ). Included by the C core",
           " * (aa_engine.h); Cython takes the same names from aa_core/vgame_schema.pxi. */",
           "#ifndef AA_SCHEMA_H", "#define AA_SCHEMA_H", "", '#include "aa_common.h"']
    for title, items in _blocks():
        out += ["", f"/* {_comment(title)} */", "enum {"]
        width = max(len(f"{n} = {v},") for n, v, _ in items)
        for n, v, doc in items:
            text = f"{n} = {v},"
            out.append(f"    {text.ljust(width)}  /* {_comment(doc)} */" if doc else f"    {text}")
        out.append("};")
    out += ["", "struct aa_params;", "struct aa_state;", "struct aa_events;", "",
            "/* One game's unit rows as named pointers (v->x[u] is unit u's x); aa_make_view (aa_engine.h)",
            " * fills it. */",
            "typedef struct aa_view {", "    const struct aa_params *P;", "    struct aa_state *g;",
            "    struct aa_events *ev;", "    int32_t *s;", "    int U, C, K;",
            "    int turn_due;   /* Clean-up ended a turn: the entry point begins the next (a loop) */"]
    out += [f"    {ctype} *{name};" for _, ctype, name in _views()]
    out += ["} aa_view;", "",
            "/* Point v's unit rows into one game's storage: i8 (NI8 x U), i32 (NI32 x U), f64 (NF64 x U). */",
            "AA_INLINE void aa_view_rows(aa_view *v, int8_t *i8, int32_t *i32, double *f64, int U) {"]
    out += [f"    v->{name} = {storage} + F_{name.upper()} * U;" for storage, _, name in _views()]
    out += ["}", "", "#endif"]
    return "\n".join(out) + "\n"


def render_pxi() -> str:
    """The text of ``vgame_schema.pxi``: the header's names for Cython, and the ``V`` struct."""
    out = ["# Generated from atomic_africa.game.schema by atomic_africa.game.native.schema_c: do not edit by hand.",
           f"# Regenerate: {_REGENERATE}",
           "# (tests/test_schema.py fails when this file and the schema differ). Included by vgame.pxd: the",
           "# names of csrc/aa_schema.h, whose values the C compiler takes from the header.",
           "", 'cdef extern from "csrc/aa_schema.h":']
    for title, items in _blocks():
        out += [f"    # {title}", "    enum:"]
        width = max(len(n) for n, _, _ in items)
        out += [f"        {n.ljust(width)}  # {doc}" if doc else f"        {n}" for n, _, doc in items]
        out.append("")
    out += ["    # One game's unit rows as named pointers (v.x[u] is unit u's x).",
            '    ctypedef struct V "aa_view":', "        const Params* P", "        Game* g",
            "        EventBuffer* ev", "        int32_t* s", "        int U, C, K", "        int turn_due"]
    out += [f"        {ctype}* {name}" for _, ctype, name in _views()]
    return "\n".join(out) + "\n"


def _record_offsets(fields) -> dict:
    """Field name -> (its first record value, its number of values; None: the rest of the record)."""
    out, at = {}, 0
    for f in fields:
        w = FIELD_KINDS[f.kind][0]
        w = {"size": f.size, "1 + size": 1 + f.size, "rest": None}.get(w, w)
        out[f.name] = (at, w)
        at += w or 0
    return out


def hidden_spans() -> list:
    """The record values of :data:`..schema.HIDDEN`: (event type, field, first value, number of values
    (-1: the rest of the record), the value naming the player who may know them (-1: nobody)).
    A hidden field with no record values (the seed, which the records never hold) has no span."""
    spans = []
    for t, hidden in HIDDEN.items():
        offsets = _record_offsets(EVENT_FIELDS[t])
        for h in hidden:
            first, count = offsets[h.field]
            if count == 0:
                continue
            owner = -1 if h.known_to == "nobody" else offsets["player"][0]
            spans.append((t, h.field, first, -1 if count is None else count, owner))
    return spans


def render_hidden() -> str:
    """The text of ``aa_hidden.h``: the table of :func:`hidden_spans` for the C API."""
    rows = [(f"{{E_{t.upper()}, {first}, {count}, {owner}}},", f"{t}.{field}: "
             + ("nobody knows it" if owner < 0 else "known to the event's player only"))
            for t, field, first, count, owner in hidden_spans()]
    width = max(len(r) for r, _ in rows)
    out = ["/* Generated from atomic_africa.game.schema by atomic_africa.game.native.schema_c: do not edit by hand.",
           f" * Regenerate: {_REGENERATE}",
           " * (tests/test_information_sets.py fails when this file and the schema differ). Included by aa_api.c. */",
           "#ifndef AA_HIDDEN_H", "#define AA_HIDDEN_H", "", '#include "aa_schema.h"', "",
           "/* The event record values a player's view hides (atomic_africa.game.schema.HIDDEN): per span the",
           " * event code, its first hidden value (0: the record's first value after code, turn, n), the number",
           " * of values (-1: the rest of the record) and the value naming the player who may know them (-1:",
           " * nobody). A hidden value becomes NO_CARD. */",
           "typedef struct aa_hidden_span {", "    int code, first, count, owner;", "} aa_hidden_span;", "",
           "static const aa_hidden_span AA_HIDDEN_SPANS[] = {"]
    out += [f"    {r.ljust(width)}  /* {_comment(doc)} */" for r, doc in rows]
    out += ["};", "", f"enum {{ AA_N_HIDDEN_SPANS = {len(rows)} }};", "", "#endif"]
    return "\n".join(out) + "\n"


def write(root: Path) -> None:
    """Write the rendered files under the repository root ``root``."""
    (root / HEADER_PATH).write_text(render())
    (root / PXI_PATH).write_text(render_pxi())
    (root / HIDDEN_PATH).write_text(render_hidden())


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd())
