"""Checkers for fields read from data files (rules, scenarios): one wording for every loader.

A loader makes one :class:`Fields` with its error class and the file's name (``Fields(RulesError,
"rules")``); each checker takes the field's path inside the file (``movement.directions``,
``sides[0].units[2].figures``), returns the checked value and raises with the full path
(``rules.movement.directions``) in the wording of the API's argument checks (:mod:`._validate`)::

    <path>: expected <what>, got <type> <value>        a value of the wrong kind
    <path>: expected <what>, got a list of <n>          a list of the wrong length
    <path>: <value> is out of range; allowed <range>    a number outside its bounds
    <path>: unknown value <value>; allowed: <choices>   a string outside its choices
    <path>: unknown field; allowed: <fields>            a key a table does not have
    <path>: missing field                               a key a table needs

Types are strict, as TOML gives them: a bool is not an integer, an integer is a number.
"""
from __future__ import annotations

import math

from ._limits import MAX_CM
from ._validate import allowed_range, out_of_range, wrong_type
from .enums import Die

__all__ = ["Fields"]

_DIE_SIDES = tuple(int(d) for d in Die)


def _choices(allowed) -> str:
    names = sorted(allowed) if isinstance(allowed, (set, frozenset)) else list(allowed)
    return ", ".join(repr(a) for a in names)


class Fields:
    """The field checkers of one kind of file, raising ``error`` (a ValueError subclass).

    Parameters
    ----------
    error : type
        The exception class raised, e.g. ``RulesError``.
    root : str
        The file's name, prefixed to every path in a message, e.g. ``"rules"``.
    """

    def __init__(self, error: type[ValueError], root: str):
        self.error = error
        self.root = root

    def name(self, path: str) -> str:
        """The full path of a field as messages give it: ``"rules.fire.armor_floor"``."""
        return f"{self.root}.{path}" if path else self.root

    def fail(self, path: str, problem: str):
        """Raise ``"<path>: <problem>"`` (checks that concern several fields)."""
        raise self.error(f"{self.name(path)}: {problem}")

    def expected(self, path: str, what: str, value, suffix: str = ""):
        """Raise ``"<path>: expected <what>, got <type> <value>"`` (then ``suffix``)."""
        raise self.error(wrong_type(self.name(path), what, value) + suffix)

    # -- scalars -----------------------------------------------------------------------------------
    def integer(self, path: str, value, lo: int | None = None, hi: int | None = None) -> int:
        """An integer in ``lo..hi`` (either bound optional)."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.expected(path, "an integer", value)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise self.error(out_of_range(self.name(path), value, allowed_range(value, lo, hi)))
        return value

    def number(self, path: str, value, *, positive: bool = False, lo: float | None = None,
               hi: float | None = None) -> float:
        """A finite number (as a float), ``> 0`` if ``positive``, ``>= lo`` and ``<= hi`` if given."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.expected(path, "a number", value)
        try:
            v = float(value)
        except OverflowError:  # an integer beyond float64
            v = math.inf if value > 0 else -math.inf
        if (not math.isfinite(v) or (positive and v <= 0) or (lo is not None and v < lo)
                or (hi is not None and v > hi)):
            allowed = ("finite values > 0" if positive else
                       f"finite values >= {lo:g}" if lo is not None else "finite values")
            if hi is not None:
                allowed += f" and <= {hi:g}" if (positive or lo is not None) else f" <= {hi:g}"
            raise self.error(out_of_range(self.name(path), value, allowed))
        return v

    def boolean(self, path: str, value) -> bool:
        """``true`` or ``false``."""
        if not isinstance(value, bool):
            self.expected(path, "true or false", value)
        return value

    def string(self, path: str, value, max_length: int | None = None) -> str:
        """A string (a name), of at most ``max_length`` characters if given."""
        if not isinstance(value, str):
            self.expected(path, "a string", value)
        if max_length is not None and len(value) > max_length:
            self.fail(path, f"a string of {len(value)} characters; allowed at most {max_length}")
        return value

    def choice(self, path: str, value, allowed, *, fold_case: bool = False) -> str:
        """One of the strings ``allowed`` (compared in lower case, and returned so, if ``fold_case``)."""
        if not isinstance(value, str):
            self.expected(path, "a string", value, f"; allowed: {_choices(allowed)}")
        key = value.lower() if fold_case else value
        if key not in allowed:
            raise self.error(f"{self.name(path)}: unknown value {value!r}; allowed: {_choices(allowed)}")
        return key

    def die(self, path: str, value) -> int:
        """A die as its number of sides: ``"d8"`` (any case) or ``8``."""
        if isinstance(value, str):
            key = value.strip().lower()
            if key.startswith("d") and key[1:].isascii() and key[1:].isdigit() and int(key[1:]) in _DIE_SIDES:
                return int(key[1:])
        elif isinstance(value, int) and not isinstance(value, bool) and value in _DIE_SIDES:
            return value
        raise self.error(f"{self.name(path)}: {value!r} is not a die; allowed "
                         f"{', '.join(f'd{s}' for s in _DIE_SIDES)}")

    # -- containers --------------------------------------------------------------------------------
    def array(self, path: str, value, what: str, *, length: int | None = None, min_length: int = 0,
              max_length: int | None = None, kinds=(list, tuple)):
        """A list (of ``kinds``) with ``length`` items, or ``min_length..max_length``; ``what`` names it."""
        if not isinstance(value, kinds):
            self.expected(path, what, value)
        if (length is not None and len(value) != length) or len(value) < min_length:
            self.fail(path, f"expected {what}, got a list of {len(value)}")
        if max_length is not None and len(value) > max_length:
            self.fail(path, f"expected {what}, got a list of {len(value)}; allowed at most {max_length}")
        return value

    def int_list(self, path: str, value, *, lo: int | None = None, hi: int | None = None,
                 length: int | None = None, max_length: int | None = None) -> tuple:
        """A list of integers in ``lo..hi`` (of ``length`` items, or at most ``max_length``), as a tuple."""
        what = f"a list of {length} integers" if length is not None else "a list of integers"
        self.array(path, value, what, length=length, max_length=max_length)
        return tuple(self.integer(f"{path}[{i}]", v, lo, hi) for i, v in enumerate(value))

    def number_list(self, path: str, value, *, positive: bool = False, hi: float | None = None,
                    max_length: int | None = None) -> tuple:
        """A list of finite numbers (``> 0`` if ``positive``, ``<= hi``; at most ``max_length``), as floats."""
        self.array(path, value, "a list of numbers", max_length=max_length)
        return tuple(self.number(f"{path}[{i}]", v, positive=positive, hi=hi) for i, v in enumerate(value))

    def point(self, path: str, value) -> tuple:
        """A point ``[x, y]`` in cm, each coordinate within ``-MAX_CM..MAX_CM``, as a tuple of floats."""
        self.array(path, value, "a point [x, y] in cm", length=2)
        return (self.number(f"{path}[0]", value[0], lo=-MAX_CM, hi=MAX_CM),
                self.number(f"{path}[1]", value[1], lo=-MAX_CM, hi=MAX_CM))

    def table(self, path: str, value, required, optional=(), *, item: str = "field") -> dict:
        """A table with every key of ``required``, and others only from ``optional``.

        ``item`` names a key in messages (``"field"``, ``"section"``, ``"action"``).
        """
        if not isinstance(value, dict):
            self.expected(path, "a table", value)
        allowed = set(required) | set(optional)
        unknown = sorted(set(value) - allowed, key=str)     # keys of any type (a dict from code)
        if unknown:
            self.fail(_join(path, unknown[0]), f"unknown {item}; allowed: {', '.join(sorted(allowed))}")
        for key in required:
            if key not in value:
                self.fail(_join(path, key), f"missing {item}")
        return value


def _join(path: str, key) -> str:
    return f"{path}.{key}" if path else str(key)
