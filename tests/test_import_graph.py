"""The import graph of ``atomic_africa``: no cycles, no arrows up the layers, a self-contained reference.

How the graph is built (statically, with ``ast``, without importing anything):

- one node per module under ``python/atomic_africa`` (a package is its ``__init__``: ``atomic_africa.game``);
- one edge per ``import``/``from ... import`` statement anywhere in a module (inside functions and
  ``if TYPE_CHECKING:`` blocks too), resolved like the interpreter: ``from P import x`` is an edge to
  the module ``P.x`` when it exists, else to ``P`` (a name ``P``'s ``__init__`` defines or re-exports);
- importing ``P.x`` is not also counted as an edge to ``P``: the interpreter runs ``P``'s
  ``__init__`` first, but a package ``__init__`` re-exports its own submodules, so counting that
  implicit step would make every package with re-exports a cycle. A submodule that imports a *name*
  from its own package's ``__init__`` is an explicit edge and is counted (that is a real cycle).

What must hold:

(a) no cycle between modules (strongly connected components of one module only, and no self-import);
(b) ``atomic_africa.reference.*`` imports only the standard library, numpy, ``atomic_africa.rules``,
    ``.enums``, ``.results``, ``._seeding``, ``._maths`` (the engines' own sine and cosine) and other
    ``atomic_africa.reference`` modules; the reference engine ``atomic_africa.reference.game`` (issue 32)
    also imports the pieces both engines share, never the product's engine: no ``atomic_africa.game.native``
    module but the native agent arguments (the search agent's), nothing above the agents;
(b') no product module imports the reference engine but the explicit debugging options
    (:data:`REFERENCE_GAME_IMPORTERS`: ``battle --engine reference``, ``selfplay --engine python``);
(c) no arrow up: a module's layer is given by the longest dotted prefix of its name below
    ``atomic_africa`` that :data:`LAYERS` names (``game.native.vector`` is in "native engine",
    ``game.reading`` in "game"), and no module imports one of a higher layer, except a package's
    ``__init__`` re-exporting its own subpackages. Every module must have a layer, so a new
    top-level module is placed here on purpose.

``python tests/test_import_graph.py`` prints the summary (modules, edges, cycles, arrows up).
"""
from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "python"
PACKAGE = "atomic_africa"

#: Layers from the bottom; a module may import its own layer and those below. ``reference`` sits
#: beside the base (and is further limited by REFERENCE_MAY_IMPORT); the package root and
#: ``__main__`` re-export or run everything, so they are the top.
LAYERS = (
    ("base", ("_limits", "_maths", "_throughput", "_validate", "_fields", "_seeding", "_toml", "_optional", "_version",
              "_atomic_write",
              "_progress", "_input_limits", "_text", "_plotting", "enums", "results", "rules", "rules_text",
              "rules_reference", "reference")),
    ("kernel wrappers", ("dice", "fire", "scores", "_batch_core", "odds", "batch", "sweeps", "artillery")),
    ("game", ("game",)),
    # the observation document measures its figures on the native engine (no module imports it)
    ("native engine", ("game.native", "game.observation_doc")),
    ("replay", ("replay",)),
    ("agents", ("agents",)),
    # the reference engine: shared game pieces below it, the debugging options above it; the PUCT
    # search's twin plays reference games with the reference agents (its rollouts and width)
    ("reference engine", ("reference.game", "reference.puct")),
    ("self-play", ("selfplay",)),
    ("env", ("env", "_gymnasium")),
    ("league", ("league",)),
    ("play", ("play",)),
    ("cli", ("cli",)),
    ("package root", ("", "__main__")),
)
_LAYER_OF = {name: i for i, (_, names) in enumerate(LAYERS) for name in names}

REFERENCE_MAY_IMPORT = {f"{PACKAGE}.rules", f"{PACKAGE}.enums", f"{PACKAGE}.results", f"{PACKAGE}._seeding",
                        f"{PACKAGE}._maths"}
REFERENCE_EXTERNAL = {"numpy"}
#: What the reference engine may import beyond REFERENCE_MAY_IMPORT (prefixes): the shared game pieces,
#: the kernel wrappers, the library's base modules and the search agent (native even there: agents.builtin).
REFERENCE_GAME_MAY_IMPORT = tuple(f"{PACKAGE}.{m}" for m in (
    "game.", "dice", "fire", "scores", "odds", "batch", "_validate", "agents.search", "agents.builtin"))
#: The product modules that may import the reference engine: the explicit debugging options.
REFERENCE_GAME_IMPORTERS = {f"{PACKAGE}.cli.battle", f"{PACKAGE}.selfplay.games"}


# -- building the graph ------------------------------------------------------------------------------
def _module_files(root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules) -> tuple[set, set]:
    """(internal modules imported, external top-level packages imported) by one module."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    internal, external = set(), set()

    def add(target: str):
        if target == PACKAGE or target.startswith(PACKAGE + "."):
            internal.add(target)
        else:
            external.add(target.split(".")[0])

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                add(sub if sub in modules else source)
    # a dotted target that is not a module (``import atomic_africa.game.engine.x``) is its nearest module
    resolved = set()
    for target in internal:
        while target not in modules and "." in target:
            target = target.rsplit(".", 1)[0]
        resolved.add(target)
    resolved.discard(name)
    return resolved, external


def import_graph(root: Path = ROOT) -> tuple[dict[str, set], dict[str, set]]:
    """{module: modules it imports} and {module: external packages it imports}."""
    files = _module_files(root)
    graph, external = {}, {}
    for name, path in files.items():
        graph[name], external[name] = _imports(name, path, files)
    return graph, external


def _self_imports(root: Path = ROOT) -> list[str]:
    files = _module_files(root)
    out = []
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == name \
                    or isinstance(node, ast.Import) and any(a.name == name for a in node.names):
                out.append(name)
    return out


# -- the properties ------------------------------------------------------------------------------------
def cycles(graph: dict[str, set]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def layer(module: str) -> int | None:
    """The layer index of a module from its dotted name (None if no layer names it)."""
    rest = module[len(PACKAGE) + 1:] if module != PACKAGE else ""
    parts = rest.split(".")
    for k in range(len(parts), 0, -1):
        if ".".join(parts[:k]) in _LAYER_OF:
            return _LAYER_OF[".".join(parts[:k])]
    return _LAYER_OF.get(rest)


def arrows_up(graph: dict[str, set]) -> list[tuple[str, str]]:
    """Edges (importer, imported) from a lower layer to a higher one."""
    return sorted((a, b) for a, targets in graph.items() for b in targets
                  if layer(a) is not None and layer(b) is not None and layer(b) > layer(a)
                  and not b.startswith(a + "."))


def _shared(t: str) -> bool:
    """Whether the reference engine may import module t (REFERENCE_GAME_MAY_IMPORT)."""
    if t.startswith(f"{PACKAGE}.game.native.") and t != f"{PACKAGE}.game.native.agent_args":
        return False
    return t == f"{PACKAGE}.game" or any(t == p.rstrip(".") or t.startswith(p) for p in REFERENCE_GAME_MAY_IMPORT)


def reference_violations(graph, external) -> list[tuple[str, str]]:
    """Imports of the reference outside what it may import."""
    bad = []
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for name in graph:
        if name != f"{PACKAGE}.reference" and not name.startswith(f"{PACKAGE}.reference."):
            continue
        engine = name.startswith(f"{PACKAGE}.reference.game")
        bad += [(name, t) for t in sorted(graph[name])
                if t not in REFERENCE_MAY_IMPORT and not t.startswith(f"{PACKAGE}.reference")
                and not (engine and _shared(t))]
        bad += [(name, t) for t in sorted(external[name])
                if t not in stdlib and t not in REFERENCE_EXTERNAL and not (engine and t == "aa_core")]
    return bad


def reference_engine_importers(graph) -> list[str]:
    """Product modules importing the reference engine."""
    return sorted(a for a, targets in graph.items() if not a.startswith(f"{PACKAGE}.reference")
                  and any(t.startswith(f"{PACKAGE}.reference.game") for t in targets))


# -- tests ---------------------------------------------------------------------------------------------
def test_the_graph_sees_the_package():
    graph, external = import_graph()
    assert {f"{PACKAGE}.rules", f"{PACKAGE}.reference.game.engine", f"{PACKAGE}.cli"} <= set(graph)
    assert f"{PACKAGE}.rules" in graph[f"{PACKAGE}.odds"]
    assert "numpy" in external[f"{PACKAGE}.rules"]


def test_the_walker_resolves_relative_and_function_level_imports(tmp_path):
    pkg = tmp_path / PACKAGE
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .sub import thing\nNAME = 1\n")
    (pkg / "base.py").write_text("import numpy\n")
    (pkg / "sub" / "__init__.py").write_text("from .thing import f\n")
    (pkg / "sub" / "thing.py").write_text(
        "from .. import base, NAME\n\ndef f():\n    from ..sub import other\n    import json\n")
    (pkg / "sub" / "other.py").write_text("from . import thing\n")
    graph, external = import_graph(tmp_path)
    assert graph[f"{PACKAGE}.sub.thing"] == {f"{PACKAGE}.base", PACKAGE, f"{PACKAGE}.sub.other"}
    assert graph[f"{PACKAGE}.sub"] == {f"{PACKAGE}.sub.thing"}
    assert external[f"{PACKAGE}.sub.thing"] == {"json"} and external[f"{PACKAGE}.base"] == {"numpy"}
    assert graph[PACKAGE] == {f"{PACKAGE}.sub.thing"}  # the name's module, not the package
    # thing takes NAME from the root __init__, which imports thing: a real cycle; sub <- thing is not one
    assert cycles(graph) == [[PACKAGE, f"{PACKAGE}.sub.other", f"{PACKAGE}.sub.thing"]]


def test_no_cycles():
    graph, _ = import_graph()
    assert cycles(graph) == []
    assert _self_imports() == []


def test_the_reference_imports_no_product_code():
    graph, external = import_graph()
    assert any(n.startswith(f"{PACKAGE}.reference.") for n in graph)
    assert reference_violations(graph, external) == []


def test_only_the_debugging_options_import_the_reference_engine():
    graph, _ = import_graph()
    assert reference_engine_importers(graph) == sorted(REFERENCE_GAME_IMPORTERS)


def test_every_module_has_a_layer_and_no_arrow_points_up():
    graph, _ = import_graph()
    assert [m for m in graph if layer(m) is None] == []
    assert arrows_up(graph) == []


def test_layers_catch_an_arrow_up_and_the_reference_rule_catches_product_code():
    graph = {f"{PACKAGE}.rules": {f"{PACKAGE}.game.engine"}, f"{PACKAGE}.game.engine": set(),
             f"{PACKAGE}.reference.x": {f"{PACKAGE}.artillery._request", f"{PACKAGE}.rules"}}
    external = {m: set() for m in graph}
    external[f"{PACKAGE}.reference.x"] = {"math", "aa_core"}
    assert arrows_up(graph) == [(f"{PACKAGE}.reference.x", f"{PACKAGE}.artillery._request"),
                                (f"{PACKAGE}.rules", f"{PACKAGE}.game.engine")]
    assert reference_violations(graph, external) == [
        (f"{PACKAGE}.reference.x", f"{PACKAGE}.artillery._request"), (f"{PACKAGE}.reference.x", "aa_core")]


# -- summary for the lead ----------------------------------------------------------------------------
def main() -> int:
    graph, external = import_graph()
    n_edges = sum(len(t) for t in graph.values())
    found_cycles, up = cycles(graph), arrows_up(graph)
    ref_bad = reference_violations(graph, external)
    unplaced = [m for m in graph if layer(m) is None]
    print(f"modules: {len(graph)}  edges: {n_edges}  cycles: {len(found_cycles)}  arrows up: {len(up)}  "
          f"reference imports outside its list: {len(ref_bad)}  modules without a layer: {len(unplaced)}")
    per_layer = defaultdict(list)
    for m in graph:
        per_layer[layer(m)].append(m)
    between = defaultdict(int)
    for a, targets in graph.items():
        for b in targets:
            between[(layer(a), layer(b))] += 1
    for i, (title, _) in enumerate(LAYERS):
        down = ", ".join(f"{LAYERS[j][0]} {between[(i, j)]}" for j in range(i - 1, -1, -1) if between[(i, j)])
        print(f"  {i} {title:16s} {len(per_layer[i]):3d} modules; edges within {between[(i, i)]}"
              + (f"; down to {down}" if down else ""))
    for comp in found_cycles:
        print("cycle:", " <-> ".join(comp))
    for a, b in up:
        print(f"arrow up: {a} ({LAYERS[layer(a)][0]}) -> {b} ({LAYERS[layer(b)][0]})")
    for a, b in ref_bad:
        print(f"reference import not allowed: {a} -> {b}")
    for m in unplaced:
        print(f"no layer: {m}")
    return 1 if found_cycles or up or ref_bad or unplaced else 0


if __name__ == "__main__":
    sys.exit(main())
