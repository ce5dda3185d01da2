"""Sphinx configuration of the atomic-africa documentation.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (the toolchain is in the
``docs`` and ``test`` extras; ``tests/test_docs.py`` runs the same build on a copy of ``docs/``).
Nothing is fetched from the network: no intersphinx, no remote images, no theme assets from a CDN.
"""
from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import atomic_africa  # noqa: E402  (the installed package: the docs describe what pip installed)

# autosummary imports every submodule it finds, private ones included: the two ``__main__`` modules
# would run the command line with Sphinx's arguments. Stand-ins keep them from being imported.
for _name in ("atomic_africa.__main__", "atomic_africa.cli.__main__"):
    sys.modules.setdefault(_name, types.ModuleType(_name, "python -m entry point (not imported by the docs)"))

project = "atomic-africa"
author = "atomic-africa developers"
copyright = "atomic-africa developers, MIT licence"
release = atomic_africa.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_parser",
    "aa_docs",  # docs/_ext/aa_docs.py: the rules defaults table and the aa_core module list
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "_templates", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

# Markdown (MyST): ``{directive}`` fences, ``:::`` fences, definition lists, anchors for the headings
# of every page (so ``page.md#a-heading`` links are checked).
myst_enable_extensions = ["colon_fence", "deflist", "substitution"]
myst_substitutions = {"release": release}
myst_heading_anchors = 4

# The API reference: autosummary writes one page per public module and member (reference/generated/,
# not kept in git), numpydoc reads the numpy-style docstrings.
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # the numpydoc "Parameters" sections say the types
numpydoc_show_class_members = False  # autosummary/autodoc list members once
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()

# Optional dependencies are never needed to build the docs: the adapters that import them are
# documented against stand-ins when the real package is not installed (importing torch or Ray would
# also cost seconds when it is).
# PyTorch, Ray and the stable-baselines3 packages built on torch are always stood in for (importing
# them would cost seconds); the light ones only when missing.
_HEAVY = ["torch", "ray", "stable_baselines3", "sb3_contrib"]
_LIGHT = ["gymnasium", "pettingzoo", "pyarrow", "matplotlib", "PIL", "tqdm"]


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


autodoc_mock_imports = _HEAVY + [m for m in _LIGHT if not _installed(m)]

# Cross-references: every reference to this project's objects must resolve (nitpicky); names from
# other projects are not linked (no intersphinx: no network) and are left as text.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|gymnasium|gym|pettingzoo|stable_baselines3|sb3_contrib|ray|torch|pyarrow|pyspiel|open_spiel|"
               r"matplotlib|PIL|tqdm|fractions|collections|concurrent|pathlib|enum|typing|os|io|"
               r"types|threading|dataclasses|numbers|json|importlib|argparse|multiprocessing|signal|"
               r"subprocess|tomllib|pickle|random|math|itertools|functools|abc|contextlib|string|http|"
               r"socketserver)(\..*)?"),
    # builtins and the docstrings' type vocabulary (numpydoc turns "int, optional" into references)
    (r"py:.*", r"(int|float|str|bool|bytes|dict|list|tuple|set|frozenset|object|type|callable|"
               r"Callable|None|Path|Fraction|Generator|SeedSequence|BitGenerator|Iterable|Iterator|"
               r"Sequence|Mapping|array|array_like|array-like|ndarray|optional|default|or|of|"
               r"Exception|ValueError|TypeError|KeyError|MemoryError|ImportError|RuntimeWarning|"
               r"OSError|RuntimeError|file|path|module|mapping|sequence|iterable|iterator|"
               r"function|scalar|shape|dtype|bool_|int8|int16|int32|int64|uint8|uint32|uint64|"
               r"float32|float64|PathLike|TextIO|BinaryIO|string)"),
]

# HTML: the PyData theme (numpy's, scipy's, pandas'), with no external assets.
html_theme = "pydata_sphinx_theme"
html_title = f"atomic-africa {release}"
html_static_path = ["_static"]
html_css_files = ["aa.css"]
html_theme_options = {
    "navigation_with_keys": False,
    "collapse_navigation": True,  # the sidebar shows the current branch only (and builds 2x faster)
    "show_toc_level": 2,
    "github_url": None,
    "icon_links": [],
    # the pages of wide tables give the table the right-hand column
    "secondary_sidebar_items": {"**": ["page-toc"], "rules/defaults": [], "performance": []},
}
html_show_sourcelink = False
# Pages without sub-pages have no section navigation to show.
html_sidebars = {page: [] for page in ("install", "quickstart", "cli", "performance", "stability", "changelog",
                                       "contributing")}
