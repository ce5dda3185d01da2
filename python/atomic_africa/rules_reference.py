"""The players' rules reference (``RULES.md``): the prose of :mod:`.rules_text` filled with live rules.

Every value of the rules data is printed once, in bold, followed by its tag ([seed], [src] or
[default], read from the comments of the packaged ``data/rules.toml``) and its field name.

``atomic-africa rules`` prints :func:`render`; the repository's ``RULES.md`` is ``render()`` of the
packaged rules, and a test keeps the two equal. ``python -m atomic_africa.rules_reference`` writes it.
"""
from __future__ import annotations

import re
import sys
from importlib import resources

from .rules import Rules
from .rules_text import TEMPLATE

__all__ = ["render", "packaged_rules_toml", "field_tags", "format_value", "template_fields",
           "TABLE5_NAMES"]

#: ``{section.field}`` or ``{section.field:format}``; ``{table5}`` is the whole of Table 5.
_PLACEHOLDER = re.compile(r"\{([a-z0-9_]+)(?:\.([a-z0-9_]+))?(?::([a-z]+))?\}")
_TAG = re.compile(r"\[(?:seed|src|default)[^\]]*\]")
_HEADER = re.compile(r"^\[([a-z0-9_.]+)\]\s*(?:#(.*))?$")
_KEY = re.compile(r"^([a-z0-9_]+)\s*=")

#: Table 5 actions as players name them, in the order of the rules file.
TABLE5_NAMES = {"basic": "Basic", "sprint": "Sprint", "heavy_weapon": "Fire Heavy Weapon",
                "mass_fire": "Mass Fire", "split_fire": "Split Fire", "dig_in": "Dig-in",
                "rally": "Rally", "call_for_fire": "Call for Fire"}
_ROLES = {"attack": "Attack", "defense": "Defense", "rally": "Rally", "spotting": "Spotting"}


def packaged_rules_toml() -> str:
    """The text of the packaged ``rules.toml``, comments included (what ``rules --dump-toml`` prints).

    Returns
    -------
    str
    """
    return resources.files("atomic_africa").joinpath("data/rules.toml").read_text(encoding="utf-8")


def field_tags(text: str | None = None) -> dict:
    """The tag of every field of a rules TOML text, read from its comments.

    A field's tag is the first ``[seed...]``, ``[src...]`` or ``[default...]`` of the comment on its
    own line; a field whose line has none (the rows of Table 5) takes its table's tag, which for a
    Table 5 row is the whole comment of the row's header (e.g. ``[seed] roles; [default] which die
    per posture``).

    Parameters
    ----------
    text : str, optional
        A rules TOML text; default the packaged one.

    Returns
    -------
    dict
        ``"section.field"`` (``"table5.row.field"`` for Table 5) -> tag text.
    """
    text = packaged_rules_toml() if text is None else text
    tags, table, table_tag = {}, "", None
    for line in text.splitlines():
        code, _, comment = line.partition("#")
        header = _HEADER.match(line.strip())
        if header:
            table = header.group(1)
            found = _TAG.search(header.group(2) or "")
            table_tag = header.group(2).strip()[header.group(2).strip().index("["):] if found else None
            continue
        key = _KEY.match(code.strip())
        if not key:
            continue
        found = _TAG.search(comment)
        tag = found.group(0) if found else table_tag
        if tag is not None:
            tags[f"{table}.{key.group(1)}"] = tag
    return tags


def _number(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def format_value(value, fmt: str | None = None) -> str:
    """One rules value as printed in the reference (Markdown, bold or code), without its tag.

    Parameters
    ----------
    value : int, float, bool, str, list, tuple or dict
        A field of :meth:`Rules.to_dict`.
    fmt : {None, "cm", "die", "dice", "deg"}
        ``cm`` appends the unit, ``die`` prints ``d4``, ``dice`` a ladder ``d4 < d6``, ``deg`` degrees.

    Returns
    -------
    str
    """
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f"`{value}`"
    if isinstance(value, dict):
        return ", ".join(f"{k} **{_number(v)}**" for k, v in value.items())
    if fmt == "dice":
        return "**" + " < ".join(f"d{v}" for v in value) + "**"
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, str) for v in value):
            return ", ".join(f"`{v}`" for v in value)
        text = ", ".join(_number(v) for v in value)
    else:
        text = _number(value)
    suffix = {"cm": " cm", "deg": "\u00b0", None: ""}.get(fmt)
    if fmt == "die":
        return f"**d{text}**"
    if suffix is None:
        raise ValueError(f"format: {fmt!r} is not one of cm, die, dice, deg")
    return f"**{text}{suffix}**"


def template_fields(template: str = TEMPLATE) -> list:
    """The ``(path, format)`` of every placeholder of the template, in order (``("table5", None)``)."""
    return [(m.group(1) if m.group(2) is None else f"{m.group(1)}.{m.group(2)}", m.group(3))
            for m in _PLACEHOLDER.finditer(template)]


def _leaf(data: dict, path: str):
    section, _, name = path.partition(".")
    if section not in data or section == "table5" or name not in data[section]:
        raise ValueError(f"rules reference placeholder {{{path}}}: no such rules field")
    return data[section][name]


def _tagged(text: str, path: str, tag: str, default_text: str | None) -> str:
    if default_text is None:
        return f"{text} {tag} (`{path}`)"
    return f"{text} [your value; packaged: {default_text} {tag}] (`{path}`)"


def _table5(rules: Rules, packaged: Rules, tags: dict) -> str:
    def reads(row: dict, which: str) -> str:
        faces = ["low", "mid", "high"]
        single = faces.pop(0 if which == "low" else 2)
        if row["pair"] == "attacks":
            pair = f"two Attacks = {faces[0]}, {faces[1]}"
        else:
            pair = f"{_ROLES[row['pair']]} = {faces[0]} + {faces[1]}"
        return f"{_ROLES[row['single']]} = {single}; {pair}"

    lines = ["| action | single die | pair | offensive posture | defensive posture | source |",
             "|---|---|---|---|---|---|"]
    mine, base = rules.to_dict()["table5"], packaged.to_dict()["table5"]
    for key, row in mine.items():
        tag = tags[f"table5.{key}.single"]
        if row != base[key]:
            tag = "your values; packaged: " + ", ".join(f"{k} `{v}`" for k, v in base[key].items()) + \
                f" {tag}"
        cells = [f"{TABLE5_NAMES.get(key, key)} (`table5.{key}`)", f"`{row['single']}`", f"`{row['pair']}`",
                 f"`{row['offensive']}`: {reads(row, row['offensive'])}",
                 f"`{row['defensive']}`: {reads(row, row['defensive'])}", tag]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def render(rules: Rules | None = None) -> str:
    """The rules reference in Markdown, with the values of ``rules``.

    Parameters
    ----------
    rules : Rules, optional
        Default: the packaged rules. Values that differ from the packaged ones are marked
        ``[your value; packaged: ... [tag]]``.

    Returns
    -------
    str
        Markdown text ending in a newline.
    """
    packaged = Rules.default()
    rules = packaged if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules: expected atomic_africa.Rules or None, got {type(rules).__name__}")
    tags = field_tags()
    data, base = rules.to_dict(), packaged.to_dict()

    def fill(m: re.Match) -> str:
        path, fmt = template_fields(m.group(0))[0]
        if path == "table5":
            return _table5(rules, packaged, tags)
        value = _leaf(data, path)
        if path not in tags:
            raise ValueError(f"rules field {path!r}: no [seed]/[src]/[default] tag in rules.toml")
        old = _leaf(base, path)
        return _tagged(format_value(value, fmt), path, tags[path],
                       None if old == value else format_value(old, fmt))

    return _PLACEHOLDER.sub(fill, TEMPLATE)


if __name__ == "__main__":  # pragma: no cover - maintainer's regeneration of RULES.md
    sys.stdout.write(render())
