"""Spec files: a battle (rules + scenario) as the C core's ``aa_params``, in a versioned, checksummed
binary file that ``aa_spec_load`` (``src/aa_core/csrc/aa_spec.c``) reads with no Python at run time.

:func:`compile_spec` writes the values :func:`~atomic_africa.game.native.params.native_params` and
:func:`~atomic_africa.game.native.layout.unit_templates` compute for ``VectorGame``, so a C game made
from the file plays as ``VectorGame`` and ``Game`` do.

**The format** (version ``FORMAT_VERSION``; every number little-endian). The header, 32 bytes:

========  =====  ==================================================================================
offset    bytes  field
========  =====  ==================================================================================
0         8      magic ``b"AA-SPEC\\x00"``
8         4      u32 format version (``FORMAT_VERSION``)
12        4      u32 ``AA_ABI_VERSION`` of the layout written (``ABI_VERSION``)
16        8      u64 payload length in bytes (the file is exactly 32 + that long)
24        4      u32 flags, 0
28        4      u32 CRC-32 (IEEE 802.3, zlib's) of header bytes 0..27 followed by the payload
========  =====  ==================================================================================

The payload: first the ``aa_params`` numbers, in the order of ``PARAM_FIELDS`` (the fields of the one
declaration of ``aa_params``, :mod:`atomic_africa.game.native.params_schema`) (each field's ``count``
values, ``i32``/``i64``/``f64``; fixed-size arrays written whole, padding included), then each array the
``aa_tables`` and ``aa_terrain`` pointers point into, in the order of ``TABLE_FIELDS``: a u32
element count (which must equal the count the numbers before imply, e.g. ``K`` cards) and the elements
(``i8``/``u8``/``i32``/``i64``/``f64``). The greedy agent's odds tables are not stored: the loader
recomputes them from Table 5 (``aa_fill_odds_tables``).

The loader checks the header, the length and the checksum, then every value against the bounds of its
field (``PARAM_FIELDS`` and ``TABLE_FIELDS`` give them, from ``atomic_africa._limits``; a bound
may depend on a value read before, e.g. a card id below ``K``), the unit templates row by row against
the schema's unit bounds (``atomic_africa.game.schema.UNIT_FIELDS``; an empty slot holds the
defaults), the unit slots against the figures (:func:`slot_problem`: what splits can make fits in ``C``)
and the consistency of the counts (``U == 2 C``, ``n_poly + n_circ == n_feat``, padding zero past
``n_fractions``...). Anything else is ``AA_ERR_SPEC`` with a message naming the field and the
allowed values.

The C side's field table (``src/aa_core/csrc/aa_spec_fields.h``) and the default battle's bytes
(``src/aa_core/csrc/aa_default_spec.c``) are generated from this module; regenerate both after a change
(``tests/test_spec_file.py`` fails until the committed files agree)::

    PYTHONPATH=python python -m atomic_africa.game.native.spec_file
"""
from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import numpy as np

from ... import _limits as L
from ..schema import LIMIT, NATIVE_STORAGES, native_rows
from .params_schema import spec_param_fields, spec_table_fields

__all__ = ["compile_spec", "spec_bytes", "slot_problem", "FORMAT_VERSION", "ABI_VERSION", "MAGIC", "HEADER_SIZE",
           "PARAM_FIELDS", "TABLE_FIELDS", "render_fields_header", "render_default_c", "FIELDS_HEADER_PATH",
           "DEFAULT_SPEC_PATH", "write"]

MAGIC = b"AA-SPEC\x00"
#: Version of the file layout described above (bumped when it changes).
FORMAT_VERSION = 1
#: ``AA_ABI_VERSION`` of ``atomic_africa.h`` whose ``aa_params`` the numbers fill.
ABI_VERSION = 2
HEADER_SIZE = 32
_HEADER = struct.Struct("<8sIIQII")

FIELDS_HEADER_PATH = "src/aa_core/csrc/aa_spec_fields.h"
DEFAULT_SPEC_PATH = "src/aa_core/csrc/aa_default_spec.c"
_REGENERATE = "PYTHONPATH=python python -m atomic_africa.game.native.spec_file"

#: The ``aa_params`` numbers, in file order (the order of the C struct): from the one declaration of the
#: struct (:mod:`.params_schema`), which also renders the C and Cython structs.
PARAM_FIELDS = spec_param_fields()

#: The arrays behind ``aa_tables`` and ``aa_terrain``, in file order. The unit templates' rows are
#: checked against the schema's unit bounds besides these ranges.
TABLE_FIELDS = spec_table_fields()

_NP = {"i8": "<i1", "u8": "<u1", "i32": "<i4", "i64": "<i8", "f64": "<f8"}


def _lookup(params: dict, path: str):
    value = params
    for name in path.split("."):
        value = value[name]
    return value


def _flat(value) -> list:
    if isinstance(value, (list, tuple, np.ndarray)):
        return [x for v in value for x in _flat(v)]
    return [value]


def slot_problem(C: int, split_min_figures: int, units: tuple, figures: tuple) -> str | None:
    """Why a spec's unit slots cannot hold what splits make of its units, or None (``aa_spec_load``'s check).

    Splits cut units of ``>= split_min_figures`` figures into halves of ``>= split_min_figures // 2``,
    so a side holds at most its units plus its figures divided by that half
    (:func:`atomic_africa.game.spec.slot_capacity`); a split past a side's ``C`` slots would have
    nowhere to go (the engine would offer a split that does nothing). ``GameSpec`` sizes ``C`` so,
    and the C loader refuses a file where it is smaller, with this message.

    Parameters
    ----------
    C : int
        Unit slots per side.
    split_min_figures : int
        ``cleanup.split_min_figures``.
    units, figures : tuple of int
        Per side, its live units and their figures at set-up.

    Returns
    -------
    str or None
        The loader's message (without its "spec file:" prefix), or None if the slots suffice.
    """
    half = max(1, split_min_figures // 2)
    for side in (0, 1):
        cap = units[side] + figures[side] // half
        if units[side] > 0 and cap > C:
            return (f"tables.tmpl: side {side} has {units[side]} units and {figures[side]} figures, which splits "
                    f"into halves of {half} or more can make {cap} units; allowed at most C = {C} (the unit "
                    "slots per side)")
    return None


def payload_of(params: dict, tables: dict) -> bytes:
    """The payload of a spec file from ``native_params``' dicts (the tables with the unit templates)."""
    U, C = params["U"], params["C"]
    i8 = np.asarray(tables["tmpl_i8"]).reshape(-1)
    i32 = np.asarray(tables["tmpl_i32"]).reshape(-1)
    alive = [r for r, n, _ in native_rows("i8") if n == "ALIVE"][0]
    figs = [r for r, n, _ in native_rows("i32") if n == "FIGURES"][0]
    live = [[u for u in range(side * C, (side + 1) * C) if i8[alive * U + u]] for side in (0, 1)]
    problem = slot_problem(C, params["cleanup"]["split_min_figures"], tuple(len(x) for x in live),
                           tuple(int(sum(i32[figs * U + u] for u in x)) for x in live))
    if problem is not None:   # GameSpec sizes C by slot_capacity: only hand-made params get here
        raise ValueError(problem)
    out = []
    for f in PARAM_FIELDS:
        try:
            values = _flat(_lookup(params, f.path))
        except (KeyError, TypeError):
            raise ValueError(f"{f.path}: missing from the native parameters (params_schema declares it)") from None
        if len(values) != f.count:
            raise ValueError(f"{f.path}: {len(values)} values, the spec format holds {f.count}")
        out.append(np.asarray(values, dtype=np.float64 if f.kind == "f64" else np.int64).astype(_NP[f.kind]).tobytes())
    terrain = params["terrain"]
    sizes = {"P->K": params["K"], "N_ACTIONS * 2 * 3": LIMIT.N_ACTIONS * 6,
             "P->terrain.n_feat": terrain["n_feat"], "P->terrain.n_poly": terrain["n_poly"],
             "P->terrain.n_circ": terrain["n_circ"], "P->terrain.n_poly + 1": terrain["n_poly"] + 1}
    for storage in NATIVE_STORAGES:
        sizes[f"N{storage.upper()} * P->U"] = len(native_rows(storage)) * params["U"]
    sizes["aa_spec_vertices_(P)"] = int(np.asarray(tables["poly_off"])[terrain["n_poly"]]) if terrain["n_poly"] else 0
    for f in TABLE_FIELDS:
        a = np.ascontiguousarray(tables[f.path.split(".")[1]]).ravel()[:sizes[f.count]]
        if a.size != sizes[f.count]:
            raise ValueError(f"{f.path}: {a.size} values, {f.count} is {sizes[f.count]}")
        out.append(struct.pack("<I", a.size) + a.astype(_NP[f.kind]).tobytes())
    return b"".join(out)


def wrap(payload: bytes) -> bytes:
    """A spec file: the header (checksum included) followed by ``payload``."""
    head = _HEADER.pack(MAGIC, FORMAT_VERSION, ABI_VERSION, len(payload), 0, 0)[:28]
    return head + struct.pack("<I", zlib.crc32(head + payload) & 0xFFFFFFFF) + payload


def rechecksum(data: bytes) -> bytes:
    """``data`` with its header's length and checksum rewritten to fit its payload (for tests of hostile
    files: a file that passes the checksum but holds bad values)."""
    head = bytearray(data[:28].ljust(28, b"\x00"))
    struct.pack_into("<Q", head, 16, max(0, len(data) - HEADER_SIZE))
    payload = bytes(data[HEADER_SIZE:])
    return bytes(head) + struct.pack("<I", zlib.crc32(bytes(head) + payload) & 0xFFFFFFFF) + payload


def compile_spec(scenario=None, rules=None) -> bytes:
    """A spec file of a battle for the C core (``aa_spec_load``).

    Parameters
    ----------
    scenario : Scenario, str, path or None
        As ``Game`` takes it (None: the default battle).
    rules : Rules, str, path or None
        As ``Game`` takes it (None: the packaged rules).

    Returns
    -------
    bytes
        The file (format in this module's docstring): the parameters ``VectorGame`` builds for
        ``scenario`` and ``rules``.

    Raises
    ------
    ValueError
        If the scenario or rules are invalid or exceed a fixed size of the native engine (the
        message names the field).
    """
    from ..spec import GameSpec

    return spec_bytes(GameSpec.build(scenario, rules))


def spec_bytes(spec) -> bytes:
    """The spec file of a :class:`~atomic_africa.game.GameSpec`: the one transport of a battle into the C
    core (``VectorGame`` and ``MixedVectorGame`` hand these bytes to ``aa_core.vbatch.Engine``, which reads
    them with ``aa_spec_load``, as a C host does).

    Parameters
    ----------
    spec : GameSpec
        A built specification (a scenario sampled in Python is one too: ``ScenarioSampler.specs``).

    Returns
    -------
    bytes
        The file (format in this module's docstring).

    Raises
    ------
    ValueError
        If the battle exceeds a fixed size of the native engine (the message names the field).
    """
    from .layout import unit_templates
    from .params import native_params

    params, tables = native_params(spec)
    tables.update(unit_templates(spec.initial_units(), spec.C))
    return wrap(payload_of(params, tables))


# -- the C side ------------------------------------------------------------------------------------
_CT = {"i8": "int8_t", "u8": "uint8_t", "i32": "int32_t", "i64": "int64_t", "f64": "double"}
_CTYPE = {"i8": "AA_SPEC_I8", "u8": "AA_SPEC_U8", "i32": "AA_SPEC_I32", "i64": "AA_SPEC_I64", "f64": "AA_SPEC_F64"}


def _c_num(x) -> str:
    if isinstance(x, str):
        return f"(double)({x})"
    if isinstance(x, float) and not x.is_integer():
        return repr(x)
    return f"{float(x)!r}"


_TERMS = {"U": "P->U", "cards": "P->K", "features": "P->terrain.n_feat", "turns": "P->table.turns",
          "width": "P->table.width_cm", "height": "P->table.height_cm", "slot": "u",
          "side": "(u / P->C)", "assets": "P->call_for_fire.n_assets[u / P->C]",
          "side_units": "T->side_units[u / P->C]", "side_figures": "T->side_figures[u / P->C]"}


def _c_bound(end) -> str:
    if not isinstance(end, str):
        return _c_num(end)
    from ..schema import _parse
    parts = []
    for sign, term in _parse(end):
        value = str(term) if isinstance(term, int) else _TERMS.get(term) or repr(float(getattr(L, term)))
        parts.append(("- " if sign < 0 else "+ ") + value)
    return "(double)(" + " ".join(parts).lstrip("+ ") + ")"


def _unit_rows() -> list:
    """(storage, row, C name, field) of every native unit row."""
    return [(s, r, name, f) for s in NATIVE_STORAGES for r, name, f in native_rows(s)]


def render_fields_header() -> str:
    """The text of ``aa_spec_fields.h``: the field tables the loader walks and the unit rows' bounds."""
    out = ["/* Generated from atomic_africa.game.native.spec_file: do not edit by hand.",
           f" * Regenerate: {_REGENERATE}",
           " * (tests/test_spec_file.py fails when this file and the module differ). Included by aa_spec.c only:",
           " * the spec file's fields in file order, with their bounds (from atomic_africa._limits). */",
           "#ifndef AA_SPEC_FIELDS_H", "#define AA_SPEC_FIELDS_H", "",
           '#include "aa_engine.h"', "",
           f"#define AA_SPEC_FORMAT_VERSION {FORMAT_VERSION}",
           f"#define AA_SPEC_HEADER_SIZE {HEADER_SIZE}",
           f"#define AA_SPEC_MAX_POLYGON_POINTS {L.MAX_POLYGON_POINTS}   /* vertices of one terrain polygon */",
           f"#define AA_SPEC_MAGIC \"{MAGIC[:-1].decode()}\"   /* and a NUL: 8 bytes */",
           "",
           "enum { AA_SPEC_I8, AA_SPEC_U8, AA_SPEC_I32, AA_SPEC_I64, AA_SPEC_F64 };", "",
           "/* A number field of aa_params: where it goes, its type and count. */",
           "typedef struct aa_spec_field {", "    const char *name;", "    size_t offset;", "    int type;",
           "    int count;", "    int positive;   /* lo excluded */", "} aa_spec_field;", "",
           "static const aa_spec_field AA_SPEC_PARAMS[] = {"]
    for f in PARAM_FIELDS:
        out.append(f'    {{"{f.path}", offsetof(aa_params, {f.path}), {_CTYPE[f.kind]}, {f.count}, '
                   f'{int(f.positive)}}},')
    out += ["};", f"enum {{ AA_SPEC_N_PARAMS = {len(PARAM_FIELDS)}, AA_SPEC_N_TABLES = {len(TABLE_FIELDS)} }};", "",
            "/* Bounds of number field k (values read before it are in P). */",
            "AA_INLINE void aa_spec_param_bounds_(int k, const aa_params *P, double *lo, double *hi) {",
            "    (void)P;", "    switch (k) {"]
    for k, f in enumerate(PARAM_FIELDS):
        out.append(f"    case {k}: *lo = {_c_num(f.lo)}; *hi = {_c_num(f.hi)}; break;")
    out += ["    default: *lo = 0.0; *hi = -1.0; break;", "    }", "}", "",
            "/* A table of aa_tables / aa_terrain: its name and element type. */",
            "typedef struct aa_spec_table {", "    const char *name;", "    int type;", "} aa_spec_table;", "",
            "static const aa_spec_table AA_SPEC_TABLES[] = {"]
    out += [f'    {{"{f.path}", {_CTYPE[f.kind]}}},' for f in TABLE_FIELDS]
    out += ["};", "enum {"]
    out += [f"    AA_SPEC_T_{f.path.split('.')[1].upper()} = {k}," for k, f in enumerate(TABLE_FIELDS)]
    out += ["};", "", "/* Point table k's member of P at `mem` (its elements, of the table's type). */",
            "AA_INLINE void aa_spec_bind_table_(int k, aa_params *P, const void *mem) {", "    switch (k) {"]
    out += [f"    case {k}: P->{f.path} = (const {'signed char' if f.path == 'tables.table5' else _CT[f.kind]} *)mem; "
            "break;" for k, f in enumerate(TABLE_FIELDS)]
    out += ["    default: break;", "    }", "}", ""]
    out += ["/* Vertices of all polygons (poly_off is read and checked before vx), then the elements and bounds of",
            " * table k (the numbers are in P). */",
            "AA_INLINE ptrdiff_t aa_spec_vertices_(const aa_params *P) {",
            "    return P->terrain.n_poly > 0 ? (ptrdiff_t)P->terrain.poly_off[P->terrain.n_poly] : 0;",
            "}", "",
            "AA_INLINE void aa_spec_table_bounds_(int k, const aa_params *P, ptrdiff_t *count, double *lo,",
            "                                     double *hi) {",
            "    switch (k) {"]
    for k, f in enumerate(TABLE_FIELDS):
        out.append(f"    case {k}: *count = (ptrdiff_t)({f.count}); *lo = {_c_num(f.lo)}; *hi = {_c_num(f.hi)}; break;")
    out += ["    default: *count = 0; *lo = 0.0; *hi = -1.0; break;", "    }", "}", "",
            "/* Per side of the templates: its live units and figures (the unit bounds' terms). */",
            "typedef struct aa_spec_terms {", "    int side_units[2];", "    double side_figures[2];",
            "} aa_spec_terms;", "",
            "/* The schema's unit rows (atomic_africa.game.schema.UNIT_FIELDS): name, storage (0 i8, 1 i32, 2 f64),",
            " * row, value of an empty slot, whether a live slot's value is a die of the ladder. */",
            "typedef struct aa_spec_unit_row {", "    const char *name;", "    int storage, row;",
            "    double empty;", "    int ladder;", "} aa_spec_unit_row;", "",
            "static const aa_spec_unit_row AA_SPEC_UNIT_ROWS[] = {"]
    storages = list(NATIVE_STORAGES)
    rows = _unit_rows()
    for s, r, _, f in rows:
        empty = f.default[r - f.row] if f.rows > 1 else f.default
        out.append(f'    {{"{f.name}{f"[{r - f.row}]" if f.rows > 1 else ""}", {storages.index(s)}, {r}, '
                   f'{_c_num(float(empty))}, {int(f.bounds == "ladder")}}},')
    out += ["};", f"enum {{ AA_SPEC_N_UNIT_ROWS = {len(rows)} }};", "",
            "/* Bounds of unit row k for live slot u at set-up (not for a ladder row): the field's, narrowed to",
            " * what a scenario may give where the schema says so. */",
            "AA_INLINE void aa_spec_unit_bounds_(int k, const aa_params *P, const aa_spec_terms *T, int u,",
            "                                    double *lo, double *hi) {",
            "    (void)P; (void)T; (void)u;", "    switch (k) {"]
    for k, (_, _, _, f) in enumerate(rows):
        if f.bounds == "ladder":
            continue
        lo, hi = _c_bound(f.bounds[0]), _c_bound(f.bounds[1])
        if f.setup is not None and isinstance(f.setup.bounds, tuple):   # narrower at set-up (a scenario's)
            lo = f"aa_pmax({lo}, {_c_bound(f.setup.bounds[0])})"
            hi = f"aa_pmin({hi}, {_c_bound(f.setup.bounds[1])})"
        out.append(f"    case {k}: *lo = {lo}; *hi = {hi}; break;")
    out += ["    default: *lo = 0.0; *hi = 0.0; break;", "    }", "}", "", "#endif"]
    return "\n".join(out) + "\n"


def render_default_c(data: bytes | None = None) -> str:
    """The text of ``aa_default_spec.c``: the default battle's spec file as bytes (aa_spec_default)."""
    data = compile_spec() if data is None else data
    out = ["/* Generated from atomic_africa.game.native.spec_file: do not edit by hand.",
           f" * Regenerate: {_REGENERATE}",
           " * The default battle with the packaged rules as a spec file (aa_spec_default loads it), so a C",
           " * build needs no Python; tests/test_spec_file.py fails when it differs from what compile writes. */",
           "#include <stddef.h>", "", "extern const unsigned char aa_default_spec_data[];",
           "extern const size_t aa_default_spec_size;", "",
           f"const size_t aa_default_spec_size = {len(data)};",
           "const unsigned char aa_default_spec_data[] = {"]
    for i in range(0, len(data), 16):
        out.append("    " + ", ".join(f"0x{b:02x}" for b in data[i:i + 16]) + ",")
    out += ["};"]
    return "\n".join(out) + "\n"


def write(root: Path) -> None:
    """Write both generated C files under the repository root ``root``."""
    (root / FIELDS_HEADER_PATH).write_text(render_fields_header())
    (root / DEFAULT_SPEC_PATH).write_text(render_default_c())


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd())
