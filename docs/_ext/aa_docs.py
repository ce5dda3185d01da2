"""Sphinx directives of the atomic-africa docs, each generating a page's content from the code at build time.

- ``rules-defaults``: every value of the packaged ``rules.toml`` (section, field, value, tag, the
  RULES.md section that states it, and what it decides), read from the file and its comments.
- ``aa-module-extras``: a module's public constants, and the names a package re-exports (its
  ``__all__``), each linked to where it is documented; a name defined in a private module is
  documented right there.
- ``aa-pxd-api``: the C-level declarations of every ``.pxd`` file the installed ``aa_core`` ships.

Nothing here changes the package: the directives only read it.
"""
from __future__ import annotations

import importlib
import inspect
import re
import tomllib
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

# ---------------------------------------------------------------------------------------------------
# The rules defaults table

#: What the rows of a Table 5 section mean (their lines in rules.toml carry no comment).
TABLE5_FIELDS = {
    "single": "role of the single die (attack, defense, rally or spotting)",
    "pair": "role of the other two dice: summed, or `attacks` for two separate attacks",
    "offensive": "which sorted face is the single die in the offensive posture (`low` or `high`)",
    "defensive": "which sorted face is the single die in the defensive posture (`low` or `high`)",
}
_HEADER = re.compile(r"^\[([a-z0-9_.]+)\]\s*(?:#(.*))?$")
_KEY = re.compile(r"^([a-z0-9_]+)\s*=")
_TAG = re.compile(r"\[(seed|src|default)[^\]]*\]")
_PLACEHOLDER = re.compile(r"\{([a-z0-9_]+)(?:\.([a-z0-9_]+))?(?::[a-z]+)?\}")
_SECTION = re.compile(r"^## (\d+)\. (.*)$")


def _comments(text: str) -> dict:
    """``path -> comment`` for every field of a rules TOML text, in file order.

    A field's comment is the one on its line, or else the comment lines just above it; a Table 5
    row's is what its field means (its table's comment is the row's tag)."""
    out, table, above = {}, "", []
    for line in text.splitlines():
        stripped = line.strip()
        header = _HEADER.match(stripped)
        if header:
            table, above = header.group(1), []
            continue
        if stripped.startswith("#"):
            above.append(stripped.lstrip("#").strip())
            continue
        code, _, comment = line.partition("#")
        key = _KEY.match(code.strip())
        if key:
            comment = comment.strip()
            if table.startswith("table5."):
                comment = TABLE5_FIELDS.get(key.group(1), "")
            elif not _TAG.sub("", comment).strip(" .;") and above:
                comment = " ".join(above)
            out[f"{table}.{key.group(1)}"] = comment
        above = []
    return out


def _rules_sections(template: str) -> dict:
    """``path -> "N. Title"``: the RULES.md section whose text states each value."""
    where, current = {}, ""
    for line in template.splitlines():
        heading = _SECTION.match(line)
        if heading:
            current = f"{heading.group(1)}. {heading.group(2)}"
        for m in _PLACEHOLDER.finditer(line):
            path = m.group(1) if m.group(2) is None else f"{m.group(1)}.{m.group(2)}"
            where.setdefault(path, current)
    return where


def _lookup(data: dict, path: str):
    for key in path.split("."):
        data = data[key]
    return data


def _sentence(template: str, path: str) -> str:
    """The sentence of the rules reference's prose that states ``path``, its placeholders as values."""
    from atomic_africa import Rules
    from atomic_africa.rules_reference import format_value

    data = Rules.default().to_dict()
    # paragraphs, and each item of a list on its own
    items = re.split(r"\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )", template)
    for item in items:
        text = " ".join(line.strip() for line in item.splitlines())
        text = re.sub(r"^(?:[-*]|\d+\.) ", "", text)
        for sentence in re.split(r"(?<=[.;])\s+(?=[A-Z*])", text):
            if "{" + path in sentence:
                def fill(m):
                    p = m.group(1) if m.group(2) is None else f"{m.group(1)}.{m.group(2)}"
                    if p == "table5":
                        return "Table 5"
                    fmt = m.group(0).rstrip("}").partition(":")[2] or None
                    return format_value(_lookup(data, p), fmt)
                return _PLACEHOLDER.sub(fill, sentence).strip()
    return ""


def _value(value) -> str:
    """A rules value as reStructuredText (inline literals)."""
    if isinstance(value, bool):
        return f"``{str(value).lower()}``"
    if isinstance(value, str):
        return f'``"{value}"``'
    if isinstance(value, dict):
        return ", ".join(f"{k} ``{v}``" for k, v in value.items())
    if isinstance(value, list):
        return "``[" + ", ".join(f'"{v}"' if isinstance(v, str) else f"{v:g}" if isinstance(v, float)
                                 else str(v) for v in value) + "]``"
    return f"``{value:g}``" if isinstance(value, float) else f"``{value}``"


def _rst_text(text: str) -> str:
    """A rules.toml comment as reStructuredText: backquoted words as literals, stray markup escaped."""
    text = text.replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|")
    return re.sub(r"`([^`]+)`", r"``\1``", text)


def defaults_rows() -> list[dict]:
    """One row per value of the packaged rules data: section, field, value, tag, RULES.md section, meaning.

    The meaning is the value's comment in ``rules.toml``, or, where that comment is only a tag, the
    sentence of RULES.md that states the value.
    """
    from atomic_africa.rules_reference import field_tags, packaged_rules_toml
    from atomic_africa.rules_text import TEMPLATE

    text = packaged_rules_toml()
    data = tomllib.loads(text)
    tags, sections = field_tags(text), _rules_sections(TEMPLATE)
    rows = []
    for path, comment in _comments(text).items():
        section, _, field = path.rpartition(".")
        tag_text = tags.get(path, "")
        found = _TAG.search(tag_text)
        meaning = _TAG.sub("", comment).strip(" ;")
        if not meaning.strip(" .;"):
            meaning = _sentence(TEMPLATE, path)
        rules_section = sections.get(path) or sections.get(section.partition(".")[0], "")
        rows.append({"section": section, "field": field, "path": path, "value": _lookup(data, path),
                     "tag": found.group(1) if found else "", "tag_text": tag_text,
                     "rules_section": rules_section, "meaning": meaning})
    return rows


_ROLES = {"attack": "Attack", "defense": "Defense", "rally": "Rally", "spotting": "Spotting"}


def _table5_reading(row: dict) -> str:
    """What a Table 5 row decides, in words: ``single die = Defense (low offensive, high defensive), ...``."""
    pair = "two Attacks" if row["pair"] == "attacks" else f"{_ROLES.get(row['pair'], row['pair'])} (summed)"
    return (f"single die = {_ROLES.get(row['single'], row['single'])} (the {row['offensive']} die when "
            f"offensive, the {row['defensive']} die when defensive), the other two = {pair}")


def table_rows(rows: list[dict]) -> list[dict]:
    """The rows as the table shows them: a Table 5 action's four fields in one row."""
    out, seen = [], {}
    for r in rows:
        if r["section"].startswith("table5."):
            if r["section"] not in seen:
                seen[r["section"]] = {**r, "path": r["section"], "value": {}, "meaning": ""}
                out.append(seen[r["section"]])
            seen[r["section"]]["value"][r["field"]] = r["value"]
        else:
            out.append(r)
    for row in seen.values():
        row["meaning"] = _table5_reading(row["value"])
    return out


class RulesDefaults(SphinxDirective):
    """``rules-defaults``: the table of every value of the packaged rules data (optional argument: a tag)."""

    optional_arguments = 1

    def run(self):
        only = self.arguments[0] if self.arguments else None
        rows = [r for r in table_rows(defaults_rows()) if only is None or r["tag"] == only]
        lines = [".. list-table::", "   :header-rows: 1", "   :class: aa-rules-defaults", "",
                 "   * - field", "     - value", "     - tag", "     - RULES.md", "     - what it decides"]
        for r in rows:
            value = ", ".join(f"{k} ``{v}``" for k, v in r["value"].items()) \
                if r["section"].startswith("table5.") else _value(r["value"])
            section = r["rules_section"].partition(". ")[0]
            cells = [f"``{r['path']}``", value, _rst_text(r["tag_text"]),
                     f"\u00a7 {section}" if section else "", _rst_text(r["meaning"])]
            lines.append(f"   * - {cells[0]}")
            lines += [f"     - {c or ' '}" for c in cells[1:]]
        container = nodes.container(classes=["aa-rules-defaults"])
        self.state.nested_parse(StringList(lines, source="rules.toml"), self.content_offset, container)
        self.env.note_dependency(str(_packaged_rules_path()))
        return [container]


def _packaged_rules_path() -> Path:
    import atomic_africa

    return Path(atomic_africa.__file__).parent / "data" / "rules.toml"


# ---------------------------------------------------------------------------------------------------
# Re-exports of a package

def _is_private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def _first_line(obj) -> str:
    """The first sentence of a docstring, its cross-reference roles turned into literals."""
    doc = (inspect.getdoc(obj) or "").strip().split("\n\n")[0].replace("\n", " ")
    doc = re.split(r"(?<=\.)\s", doc, maxsplit=1)[0]
    return re.sub(r":[a-z:]+:`~?\.?([^`<]*?)(?:\s*<[^>]*>)?`", r"``\1``", doc)


class ModuleExtras(SphinxDirective):
    """``aa-module-extras MODULE``: its public constants, and a table of the names it re-exports
    (``__all__`` defined elsewhere), each linked to its documentation."""

    required_arguments = 1
    option_spec = {"part": lambda arg: arg.strip()}  # "reexports" or "constants"; default both

    def run(self):
        name = self.arguments[0]
        module = importlib.import_module(name)
        part = self.options.get("part")
        if part == "constants":
            return self.parse(self.constants(module, name))
        exported = list(getattr(module, "__all__", []))
        table, private = [], []
        for attr in exported:
            obj = getattr(module, attr)
            if inspect.ismodule(obj):
                continue  # submodules have their own pages, listed below
            home = getattr(obj, "__module__", None)
            qual = getattr(obj, "__qualname__", None)
            if not (inspect.isclass(obj) or inspect.isroutine(obj)) or home is None or qual is None:
                continue  # a constant: documented in its own module
            if home == name:
                continue  # defined here: documented below
            if _is_private(home):
                private.append((attr, obj))
                table.append((f"{name}.{attr}", attr, _first_line(obj)))
            else:
                table.append((f"{home}.{qual}", attr, _first_line(obj)))
        text = self.constants(module, name) if part is None else []
        if not table:
            return self.parse(text)
        # reStructuredText: this directive is used in the generated (.rst) module pages.
        text += [".. rubric:: Re-exported names", "",
                f"Importable from ``{name}``, documented where they are defined:", "",
                ".. list-table::", "   :header-rows: 1", "   :widths: 30 70", "",
                "   * - name", "     - what it is"]
        for target, attr, summary in table:
            text += [f"   * - :py:obj:`{attr} <{target}>`", f"     - {summary or ' '}"]
        for attr, obj in private:
            kind = "autoexception" if inspect.isclass(obj) and issubclass(obj, BaseException) else \
                "autoclass" if inspect.isclass(obj) else "autofunction"
            text += ["", f".. {kind}:: {name}.{attr}", "   :no-index-entry:"]
        return self.parse(text)

    def parse(self, text: list[str]):
        if not text:
            return []
        container = nodes.container()
        self.state.nested_parse(StringList(text, source=self.arguments[0]), self.content_offset, container)
        return container.children

    @staticmethod
    def constants(module, name: str) -> list[str]:
        """``py:data`` entries for the public constants the module assigns (in ``__all__`` if it has one)."""
        import ast

        from sphinx.pycode import ModuleAnalyzer

        try:
            source = inspect.getsource(module)
        except (OSError, TypeError):
            return []
        assigned = []
        for stmt in ast.parse(source).body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else \
                [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
            assigned += [t.id for t in targets if isinstance(t, ast.Name)]
        public = getattr(module, "__all__", None)
        names = [n for n in dict.fromkeys(assigned) if not n.startswith("_") and n != "__all__"
                 and (public is None or n in public) and hasattr(module, n)
                 and not inspect.isclass(getattr(module, n)) and not inspect.isroutine(getattr(module, n))
                 and not inspect.ismodule(getattr(module, n))]
        if not names:
            return []
        try:
            docs = ModuleAnalyzer.for_module(name).find_attr_docs()
        except Exception:
            docs = {}
        text = [".. rubric:: Constants", ""]
        for n in names:
            value = repr(getattr(module, n))
            text += [f".. py:data:: {n}", f"   :module: {name}"]
            if len(value) <= 70 and "\n" not in value:
                text.append(f"   :value: {value}")
            text.append("")
            text += ["   " + line for line in docs.get(("", n), [])]
            text.append("")
        return text


# ---------------------------------------------------------------------------------------------------
# The C-level API of aa_core's .pxd files

_DECL = re.compile(r"^(cdef|cpdef|ctypedef|include|from|cimport|DEF)\b")


def pxd_files() -> list[Path]:
    """The ``.pxd`` files of the installed ``aa_core``, sorted by name."""
    import aa_core

    return sorted(Path(aa_core.__file__).parent.glob("*.pxd"))


def pxd_outline(text: str) -> tuple[str, str]:
    """The header comment of a ``.pxd`` file and its declarations without function bodies.

    Kept: every top-level ``cdef``/``ctypedef``/``cimport``/``include`` statement, the fields of
    structs and enums, a function's signature and the first line of its docstring, the declarations of
    ``cdef extern`` blocks (not their verbatim C code).
    """
    lines = text.splitlines()
    header = []
    for line in lines:
        if not line.startswith("#"):
            break
        header.append(line.lstrip("#").strip())
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if not _DECL.match(line):
            i += 1
            continue
        stmt = [line]
        depth = line.count("(") - line.count(")")
        while depth > 0 and i + 1 < len(lines):
            i += 1
            stmt.append(lines[i])
            depth += lines[i].count("(") - lines[i].count(")")
        i += 1
        is_function = "(" in stmt[0] and stmt[-1].rstrip().endswith(":") and not \
            stmt[0].startswith(("ctypedef struct", "cdef struct", "cdef enum", "cdef extern", "ctypedef enum"))
        body = []
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
            body.append(lines[i])
            i += 1
        if is_function:
            doc = next((b.strip() for b in body if b.strip()), "")
            if doc.startswith(('"""', "'''")):
                doc = doc.strip("\"' ")
                stmt.append(f'    """{doc}"""' if doc else "    ...")
            else:
                stmt.append("    ...")
        else:
            verbatim = False
            for b in body:
                quotes = b.count('"""') + b.count("'''")
                if verbatim or quotes:
                    verbatim = verbatim != (quotes % 2 == 1)
                    continue
                if b.strip():
                    stmt.append(b.rstrip())
        out.append("\n".join(stmt))
    return " ".join(header), "\n\n".join(out)


def _lexes(code: str, language: str) -> bool:
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Error

    return not any(tok is Error for tok, _ in get_lexer_by_name(language).get_tokens(code))


class PxdApi(SphinxDirective):
    """``aa-pxd-api``: one section per ``.pxd`` file of ``aa_core``: its header and its declarations."""

    def run(self):
        out = []
        for path in pxd_files():
            header, outline = pxd_outline(path.read_text(encoding="utf-8"))
            self.env.note_dependency(str(path))
            name = f"aa_core.{path.stem}"
            title = nodes.rubric(text=f"{name} ({path.name})", ids=[nodes.make_id(f"pxd-{path.stem}")])
            out.append(title)
            if header:
                out.append(nodes.paragraph(text=header))
            if outline:
                language = "cython" if _lexes(outline, "cython") else "text"
                out.append(nodes.literal_block(outline, outline, language=language))
        if not out:
            out.append(nodes.paragraph(text="The installed aa_core ships no .pxd files."))
        return out


# ---------------------------------------------------------------------------------------------------
# References to a re-exported name

def _canonical(target: str) -> str | None:
    """``atomic_africa.Game`` -> ``atomic_africa.game.native.single.Game``: where a public name is defined."""
    if not target.startswith(("atomic_africa", "aa_core")):
        return None
    parts = target.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        if inspect.ismodule(obj):
            return obj.__name__ if obj.__name__ != target else None
        home = getattr(obj, "__module__", None)
        qual = getattr(obj, "__qualname__", None)
        if home and qual and f"{home}.{qual}" != target:
            return f"{home}.{qual}"
        return None
    return None


_ROLE_TYPES = {"class": ("class", "exception"), "exc": ("exception", "class"), "func": ("function",),
               "meth": ("method", "classmethod", "staticmethod", "property"), "attr": ("attribute", "property"),
               "data": ("data",), "mod": ("module",), "obj": None}


def _suffix_match(env, target: str, reftype: str, within: str = "") -> str | None:
    """The one documented object under ``within`` whose full name ends in ``.target`` (``Game.to_json``)."""
    kinds = _ROLE_TYPES.get(reftype)
    found = [name for name, entry in env.domains["py"].objects.items()
             if (name == target or name.endswith("." + target)) and name.startswith(within)
             and (kinds is None or entry.objtype in kinds) and not entry.aliased]
    return found[0] if len(found) == 1 else None


def resolve_reexport(app, env, node, contnode):
    """A Python reference that Sphinx's own lookup missed.

    - A re-exported name (``atomic_africa.Rules``) finds the definition it names.
    - A name relative to a package above the current module (``reference.scatter`` in
      ``atomic_africa.reference.odds``) is looked up there, as Python's imports would.
    - A short name (``Game.to_json`` in a module that does not import ``Game``) finds the only
      documented object of that name.
    - A private module or object (``atomic_africa._fields``) is shown as code, not linked: private
      modules are not documented.

    Anything else stays missing, and nitpicky reports it.
    """
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "").lstrip(".~")
    module = node.get("py:module") or ""
    parts = module.split(".") if module else []
    candidates = [target] + [".".join(parts[:k] + [target]) for k in range(len(parts), 0, -1)]
    domain = env.domains["py"]
    for name in candidates:
        if _is_private(name) and name.startswith(("atomic_africa", "aa_core")):
            return contnode
        canonical = name if name in domain.objects else _canonical(name)
        if canonical is not None:
            if _is_private(canonical):
                return contnode
            return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], canonical, node,
                                       contnode)
    canonical = _suffix_match(env, target, node["reftype"])
    if canonical is None and target.startswith(("atomic_africa.", "aa_core.")):
        # a constant re-exported by a package (``atomic_africa.selfplay.COLUMNS``): defined in a submodule
        package, _, name = target.rpartition(".")
        canonical = _suffix_match(env, name, node["reftype"], within=package + ".")
    if canonical is None:
        return None
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], canonical, node, contnode)


# ---------------------------------------------------------------------------------------------------
# Signatures of the compiled kernels, and private base classes

def _split_params(text: str) -> list[str]:
    out, depth, current = [], 0, ""
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    return out + ([current.strip()] if current.strip() else [])


def cython_signature(app, what, name, obj, options, signature, return_annotation):
    """A Cython signature (``(const int32_t[::1] a0, double x=0.5)``, embedded by ``embedsignature``)
    becomes Python's (``(a0, x=0.5)``); the C one is kept for the docstring."""
    if not name.startswith("aa_core.") or not signature:
        return None
    params = []
    for param in _split_params(signature.strip()[1:-1]):
        head, eq, default = param.partition("=")
        words = re.sub(r"\[[^\]]*\]", "", head).split()
        params.append((words[-1] if words else head) + (f"={default.strip()}" if eq else ""))
    plain = "(" + ", ".join(params) + ")"
    if plain != signature:
        app.env.temp_data.setdefault("aa_c_signatures", {})[name] = signature
    return plain, None if return_annotation and "[" in return_annotation else return_annotation


def cython_docstring(app, what, name, obj, options, lines):
    c_signature = app.env.temp_data.get("aa_c_signatures", {}).pop(name, None)
    if c_signature:  # after the summary paragraph, which autosummary's tables show
        start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
        at = next((i + 1 for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
        if at == len(lines):
            lines.append("")
            at += 1
        lines[at:at] = [f"C signature: ``{name.rpartition('.')[2]}{c_signature}``", ""]


def public_bases(app, name, obj, options, bases):
    """A base class from a private module or with a private name is shown as its own public bases."""
    def public(cls):
        if cls.__name__.startswith("_") or _is_private(getattr(cls, "__module__", "")):
            return [b for base in cls.__bases__ for b in public(base)]
        return [cls]
    bases[:] = list(dict.fromkeys(b for base in list(bases) for b in public(base))) if bases else bases


def setup(app):
    app.connect("missing-reference", resolve_reexport)
    app.connect("autodoc-process-signature", cython_signature, priority=400)  # before numpydoc
    app.connect("autodoc-process-docstring", cython_docstring, priority=600)  # after numpydoc
    app.connect("autodoc-process-bases", public_bases)
    app.add_directive("rules-defaults", RulesDefaults)
    app.add_directive("aa-module-extras", ModuleExtras)
    app.add_directive("aa-pxd-api", PxdApi)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
