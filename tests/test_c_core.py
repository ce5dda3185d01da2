"""The C core (src/aa_core/csrc) is plain ISO C11 that every host can compile: each source builds as
an object with ``-std=c11 -Wall -Wextra -Werror -pedantic`` under every C compiler present (gcc,
clang), each header stands alone (from C and from C++), nothing in it includes Python or numpy or
does I/O, threads or exits, the Cython declarations of its structs name the C fields in order, and its
files call one another without a circle."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "aa_core"
CSRC = PKG / "csrc"
SOURCES = sorted(CSRC.glob("*.c"))
HEADERS = sorted(CSRC.glob("*.h"))
STRICT = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2"]

COMPILERS = [c for c in ("gcc", "clang") if shutil.which(c)]
CXX_COMPILERS = [c for c in ("g++", "clang++") if shutil.which(c)]


def _compile(cc: str, args: list, src: Path, out: Path):
    proc = subprocess.run([cc, *args, "-I", str(CSRC), "-c", str(src), "-o", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{cc} {src.name}:\n{proc.stderr[-3000:]}"


def test_the_core_is_there():
    names = {p.name for p in SOURCES}
    for need in ("aa_engine.c", "aa_legal.c", "aa_resolve.c", "aa_cleanup.c", "aa_units.c", "aa_observe.c", "aa_agents.c",
                 "aa_agent_basic.c", "aa_agent_greedy.c", "aa_simulate.c", "aa_odds.c", "aa_hexmap.c"):
        assert need in names, need
    assert COMPILERS, "no C compiler (gcc or clang) on PATH"


@pytest.mark.slow
@pytest.mark.parametrize("cc", COMPILERS)
@pytest.mark.parametrize("int128", [True, False], ids=["int128", "no-int128"])
def test_every_source_compiles_strictly(cc, int128, tmp_path):
    args = STRICT + ([] if int128 else ["-DAA_NO_INT128"])
    for src in SOURCES:
        _compile(cc, args, src, tmp_path / f"{src.stem}.o")


@pytest.mark.parametrize("cc", COMPILERS + CXX_COMPILERS)
def test_every_header_stands_alone(cc, tmp_path):
    cxx = cc in CXX_COMPILERS
    args = ["-std=c++11", "-Wall", "-Wextra", "-Werror", "-x", "c++"] if cxx else STRICT
    for h in HEADERS:
        src = tmp_path / f"use_{h.stem}.c"
        src.write_text(f'#include "{h.name}"\n#include "{h.name}"\nint aa_test_{h.stem}(void);\n')
        _compile(cc, args, src, tmp_path / f"{h.stem}.o")


# What rules code must not touch: Python, numpy, I/O, threads, process exits.
FORBIDDEN = [r"#\s*include\s*[<\"](Python\.h|numpy/|pyconfig\.h|stdio\.h|pthread\.h|threads\.h|omp\.h)",
             r"\b(exit|abort|printf|fprintf|puts|fopen|malloc_trim|pthread_\w+|omp_\w+)\s*\(",
             r"\bPy_ssize_t\b", r"\bPyObject\b", r"\bbitgen_t\b"]


# The API layer formats its error messages with vsnprintf (stdio.h), and does no I/O either.
API_LAYER = {"aa_error.c", "aa_api.c"}


def test_no_python_numpy_io_or_threads_in_the_core():
    for path in SOURCES + HEADERS:
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)   # comments may name them
        if path.name in API_LAYER:
            text = re.sub(r"#\s*include\s*<stdio\.h>", "", text)
        for pattern in FORBIDDEN:
            hit = re.search(pattern, text)
            assert hit is None, f"{path.name}: {hit.group(0)!r}"


# ------------------------------------------------------------------------- Cython twins of C structs
def _c_structs() -> dict:
    """typedef struct NAME {fields} NAME; of every header: NAME -> field names in order."""
    out = {}
    for h in HEADERS:
        text = re.sub(r"/\*.*?\*/", "", h.read_text(), flags=re.S)
        for m in re.finditer(r"typedef struct (\w+) \{(.*?)\} \1;", text, flags=re.S):
            names = []
            for decl in m.group(2).split(";"):
                decl = " ".join(decl.split())
                if decl:
                    names += _declarator_names(decl)
            out[m.group(1)] = names
    return out


def _declarator_names(decl: str) -> list:
    """The names a C or Cython member declaration declares ("double a, b[3]", "T (*f)(void*)")."""
    fp = re.match(r".*\(\s*\*\s*(\w+)\s*\)\s*\(", decl)
    if fp:
        return [fp.group(1)]
    names = []
    for part in decl.split(","):
        part = re.sub(r"\[[^\]]*\]", "", part).strip()
        names.append(re.findall(r"\w+", part)[-1])
    return names


def _pxd_structs() -> dict:
    """ctypedef struct Name "c_name": blocks of every .pxd/.pxi: c_name -> (pxd, field names)."""
    out = {}
    for p in sorted(PKG.glob("*.pxd")) + sorted(PKG.glob("*.pxi")):
        lines = p.read_text().splitlines()
        for i, line in enumerate(lines):
            m = re.match(r'(\s*)ctypedef struct (\w+)(?: "(\w+)")?:\s*(#.*)?$', line)
            if not m:
                continue
            indent, names = len(m.group(1)), []
            for body in lines[i + 1:]:
                if body.strip() and len(body) - len(body.lstrip()) <= indent:
                    break
                body = body.split("#")[0].strip()
                if body and body != "pass":
                    names += _declarator_names(re.sub(r"\b(noexcept|nogil)\b", "", body))
            out[m.group(3) or m.group(2)] = (p.name, names)
    return out


def test_cython_declarations_name_every_c_field_in_order():
    c, pxd = _c_structs(), _pxd_structs()
    opaque = {"aa_u128", "aa_requests"}   # declared `pass`: Cython never reads their fields
    checked = 0
    for name, (where, fields) in pxd.items():
        if name in opaque or name not in c:
            continue
        if name in ("aa_fire_cdf",):   # simulate.pyx reads a few fields only
            assert set(fields) <= set(c[name]), (where, name)
            continue
        assert fields == c[name], f"{where}: {name} fields {fields} != C {c[name]}"
        checked += 1
    for need in ("aa_params", "aa_state", "aa_tables", "aa_movement_params", "aa_call_for_fire_params",
                 "aa_fire_rules", "aa_terrain", "aa_scores", "aa_bitgen", "aa_view", "aa_grid"):
        assert need in pxd, need
    assert checked >= 20, checked


#: The Cython glue beside the core: its comments and docstrings name the same Python twins.
CYTHON = sorted(PKG.glob("*.pyx")) + sorted(PKG.glob("*.pxd")) + sorted(PKG.glob("*.pxi"))


def test_every_python_twin_the_core_names_exists():
    """The C functions' comments, and the Cython glue's comments and docstrings, name their Python
    counterparts (Game.<method>, module.function): a renamed method leaves no comment pointing at nothing."""
    from atomic_africa.reference.game.engine import Game

    assert CYTHON and any(p.suffix == ".pyx" for p in CYTHON) and any(p.suffix == ".pxd" for p in CYTHON)
    missing = set()
    for path in SOURCES + HEADERS + CYTHON:
        for name in re.findall(r"\bGame\.([A-Za-z_]\w*)", path.read_text()):
            if not hasattr(Game, name):
                missing.add(f"{path.name}: Game.{name}")
    assert not missing, sorted(missing)


# ------------------------------------------------------------------------- the call graph of the files
def _strip_c(text: str) -> str:
    """C text without comments, string and character literals (a name in them calls nothing)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r"'(\\.|[^'\\])*'|\"(\\.|[^\"\\])*\"", '""', text)


_DEFINITION = re.compile(r"^(?!static\b|AA_INLINE\b|typedef\b|#)[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*\{",
                         flags=re.M)


def _defined_by() -> dict:
    """Non-static function -> the .c file that defines it."""
    out = {}
    for src in SOURCES:
        for m in _DEFINITION.finditer(_strip_c(src.read_text())):
            assert m.group(1) not in out, f"{m.group(1)} defined in {out.get(m.group(1))} and {src.name}"
            out[m.group(1)] = src.name
    return out


def _header_helpers(functions: set) -> dict:
    """Inline functions and macros of the headers -> the non-static functions their bodies call (a file
    that uses one calls those: EVN calls aa_ev_record, fire_targets calls aa_enemy_targets)."""
    bodies = {}
    for h in HEADERS:
        text = _strip_c(h.read_text())
        for m in re.finditer(r"^AA_INLINE [^;{]*?\b(\w+)\s*\([^;{]*\)\s*\{", text, flags=re.M):
            depth, i = 1, m.end()
            while depth:
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            bodies[m.group(1)] = text[m.end():i]
        for m in re.finditer(r"^#\s*define\s+(\w+)\(((?:[^\n]*\\\n)*[^\n]*)", text, flags=re.M):
            bodies[m.group(1)] = m.group(2)
    calls = {name: {f for f in functions if re.search(rf"\b{f}\s*\(", body)} for name, body in bodies.items()}
    changed = True
    while changed:   # a helper that uses another helper calls what that one calls
        changed = False
        for name, body in bodies.items():
            for other in calls:
                if other != name and re.search(rf"\b{other}\s*\(", body) and not calls[other] <= calls[name]:
                    calls[name] |= calls[other]
                    changed = True
    return calls


def _file_calls() -> dict:
    """.c file -> {.c file it calls: the functions}, through the headers' inline functions and macros."""
    where = _defined_by()
    helpers = _header_helpers(set(where))
    graph = {}
    for src in SOURCES:
        text = _strip_c(src.read_text())
        called = {f for f in where if re.search(rf"\b{f}\s*\(", text)}
        for h, fs in helpers.items():
            if re.search(rf"\b{h}\s*\(", text):
                called |= fs
        for f in called:
            if where[f] != src.name:
                graph.setdefault(src.name, {}).setdefault(where[f], set()).add(f)
    return graph


def _cycle(graph: dict) -> list:
    """A circle of files in graph (file -> files it calls), or []."""
    state, path = {}, []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = "done"
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_the_core_files_call_one_another_without_a_circle():
    """The rules files call one another in one direction (aa_engine.c -> aa_resolve.c -> aa_cleanup.c ->
    aa_legal.c -> aa_units.c), and so do the agents: each file's non-static functions are called only
    from files above it, so a file can be read, tested and changed knowing what it depends on."""
    graph = _file_calls()
    cycle = _cycle(graph)
    assert not cycle, " -> ".join(cycle) + ": " + "; ".join(
        f"{a} calls {sorted(graph[a][b])} of {b}" for a, b in zip(cycle, cycle[1:]))
    # the check sees the calls it must: through plain calls, header inlines and the EVN macro
    assert "aa_resolve.c" in graph["aa_engine.c"] and "aa_cleanup.c" in graph["aa_resolve.c"]
    assert "aa_ev_record" in graph["aa_engine.c"]["aa_units.c"]
    assert "aa_enemy_targets" in graph["aa_engine.c"]["aa_legal.c"]   # through fire_targets (inline)
    assert "aa_units.c" not in graph   # the shared helpers call no other file


def test_the_circle_check_finds_a_circle():
    assert _cycle({"a.c": {"b.c": {"f"}}, "b.c": {"c.c": {"g"}}, "c.c": {"a.c": {"h"}}}) == ["a.c", "b.c", "c.c", "a.c"]
    assert _cycle({"a.c": {"b.c": {"f"}}, "b.c": {}, "c.c": {"a.c": {"h"}}}) == []
