"""The hex map of the Artillery Request (RULES.md section 8): coordinates, neighbours, line of sight.

Layout
------
Flat-topped hexes; columns are lettered ``A``, ``B``, ... from the left edge and rows numbered ``1``,
``2``, ... from the top edge, so ``"G4"`` is column G, row 4. Columns alternate up and down by half a
hex: with the packaged rules (``artillery.low_columns = "B"``) columns B, D, F... sit half a hex lower
than A, C, E... ("odd-q" offset coordinates with A = column 0). A hex has six neighbours, named by
compass direction clockwise from the top edge: N, NE, SE, S, SW, NW.

Line of sight
-------------
The hex line between two hexes is the cube-coordinate lerp rounded to hexes, with both ends nudged by
(1, 2, -3) x epsilon so that a line running exactly along hex edges always picks the same side; the
kernel evaluates it exactly (epsilon -> 0+) in integer arithmetic. The line is blocked by any blocking
hex strictly between the two hexes (never by the end hexes). Hindrance is the sum of the hindrance
values (terrain, default 1 per hindering hex, plus smoke markers) of the hexes strictly between
(``artillery.hindrance_hexes = "between_and_target"`` adds the target hex). Parts of a line that pass
outside the map (possible along the zig-zag top and bottom edges) neither block nor hinder.
"""
from __future__ import annotations

import numbers
import re
from enum import IntEnum
from typing import NamedTuple

import numpy as np

from aa_core import hexmap as _hx

from .. import _validate as v
from .._limits import MAX_HEX_COLUMNS as MAX_COLUMNS, MAX_HEX_ROWS as MAX_ROWS, MAX_OFF_MAP
from ..rules import resolve_rules

__all__ = ["Direction", "Hex", "HexMap", "LineOfSight", "parse_hex", "hex_label", "MAX_COLUMNS", "MAX_ROWS"]

_LABEL = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")


class Direction(IntEnum):
    """Compass directions 1-6 of flat-topped hexes, clockwise from the top edge (N = 1).

    The kernels number the same directions 0-5 (:attr:`index`).
    """

    N = 1
    NE = 2
    SE = 3
    S = 4
    SW = 5
    NW = 6

    @property
    def index(self) -> int:
        """The kernels' 0-based direction number."""
        return int(self) - 1

    @classmethod
    def of_face(cls, face: int, rules=None) -> Direction:
        """The compass direction of a die face 1..6 (``artillery.compass``: 1 = N, then clockwise).

        Parameters
        ----------
        face : int
            Die face, 1..6.
        rules : Rules, optional
            Rules data; the packaged defaults if omitted.

        Returns
        -------
        Direction
        """
        face = v.as_int(face, "face", lo=1, hi=6)
        return cls[resolve_rules(rules).artillery.compass[face - 1]]


class Hex(NamedTuple):
    """A hex in 0-based offset coordinates: ``col`` 0 is column A, ``row`` 0 is row 1.

    Hexes off the map (negative or too large coordinates) are representable: a drifting round
    may pass through them.
    """

    col: int
    row: int

    @property
    def label(self) -> str:
        """``"G4"`` style name; raises ValueError for hexes that have no name (off any map)."""
        return hex_label(self)

    def __str__(self) -> str:
        try:
            return hex_label(self)
        except ValueError:
            return f"off-map({self.col},{self.row})"


def hex_label(h) -> str:
    """The name of hex ``(col, row)`` (0-based), e.g. ``Hex(6, 3)`` -> ``"G4"``.

    Parameters
    ----------
    h : Hex or (int, int)
        0-based column and row.

    Returns
    -------
    str
        Column letter A-Z and row number 1-99.

    Raises
    ------
    ValueError
        If the column is outside 0..25 or the row outside 0..98 (the hex has no name).
    """
    col, row = h
    if not (0 <= col < MAX_COLUMNS and 0 <= row < MAX_ROWS):
        raise ValueError(f"hex ({col}, {row}) has no name: columns A..Z, rows 1..{MAX_ROWS}")
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_hex(value, name: str = "hex", *, off_map: bool = False) -> Hex:
    """A :class:`Hex` from a name such as ``"G4"`` (case-insensitive), a Hex or a 0-based (col, row).

    Parameters
    ----------
    value : str, Hex or (int, int)
        A hex name (column letter A-Z, row 1-99), or a :class:`Hex` or tuple of two 0-based integers:
        column 0..25, row 0..98 (a hex with a name), or, if ``off_map``, each within
        ``-MAX_OFF_MAP..MAX_OFF_MAP`` (off-map hexes, as :meth:`HexMap.step` may return).
    name : str
        Argument name used in error messages.
    off_map : bool
        Accept hexes beyond the largest map (the geometry methods of :class:`HexMap` do).

    Returns
    -------
    Hex

    Raises
    ------
    ValueError
        If a string is not a hex name, or a column or row is out of range.
    TypeError
        If ``value`` is of another type, or a tuple holds non-integers.
    """
    if isinstance(value, tuple) and len(value) == 2 and not isinstance(value, str):
        if off_map:
            lo_c = lo_r = -MAX_OFF_MAP
            hi_c = hi_r = MAX_OFF_MAP
        else:
            lo_c, hi_c, lo_r, hi_r = 0, MAX_COLUMNS - 1, 0, MAX_ROWS - 1
        col = v.as_int(value[0], f"{name}[0] (column index)", lo=lo_c, hi=hi_c)
        row = v.as_int(value[1], f"{name}[1] (row index)", lo=lo_r, hi=hi_r)
        return value if isinstance(value, Hex) else Hex(col, row)
    if isinstance(value, str):
        m = _LABEL.match(value)
        if not m or int(m.group(2)) < 1:
            raise ValueError(f"{name}: {v.shown(value)} is not a hex name; expected a column letter A-Z and a "
                             f"row number 1-{MAX_ROWS}, e.g. 'G4'")
        return Hex(ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1)
    raise TypeError(f"{name}: expected a hex name like 'G4', a Hex or a (col, row) tuple, "
                    f"got {type(value).__name__} {v.shown(value)}")


class LineOfSight(NamedTuple):
    """Result of a line-of-sight check: ``visible``, summed ``hindrance`` (0 if blocked), the first
    blocking hex (or None) and the hex line itself."""

    visible: bool
    hindrance: int
    blocked_by: Hex | None
    hexes: tuple


def _hex_set(values, name: str, hm: HexMap) -> frozenset:
    if isinstance(values, (str, Hex)):
        values = [values]
    return frozenset(hm.hex(x, f"{name}[{i}]") for i, x in enumerate(values))


class HexMap:
    """A rectangular map of ``columns`` x ``rows`` flat-topped hexes with terrain.

    Parameters
    ----------
    columns, rows : int
        Map size, 1..26 columns (A..Z) and 1..99 rows.
    blocking : iterable of hexes
        Hexes that block line of sight through them (buildings, woods, ...).
    hindering : iterable of hexes or mapping hex -> int
        Hexes that hinder line of sight through them; an iterable gives each hindrance 1.
    impassable : iterable of hexes
        Hexes units cannot enter (Blaze, Water...). A spotting round may still be placed and land there.
    rules : Rules, optional
        Supplies the column stagger (``artillery.low_columns``); the map keeps it.

    Hexes are given as names (``"G4"``), :class:`Hex` or 0-based ``(col, row)`` tuples. The map is
    immutable.
    """

    __slots__ = ("columns", "rows", "parity", "blocking", "hindrance", "impassable", "_blocking_array",
                 "_hindrance_array")

    def __init__(self, columns: int, rows: int, *, blocking=(), hindering=(), impassable=(), rules=None):
        rules = resolve_rules(rules)
        object.__setattr__(self, "columns", v.as_int(columns, "columns", lo=1, hi=MAX_COLUMNS))
        object.__setattr__(self, "rows", v.as_int(rows, "rows", lo=1, hi=MAX_ROWS))
        object.__setattr__(self, "parity", rules.artillery.parity)
        object.__setattr__(self, "blocking", _hex_set(blocking, "blocking", self))
        if isinstance(hindering, dict):
            hind = {}
            for key, val in hindering.items():
                h = self.hex(key, "hindering")
                hind[h] = v.as_int(val, f"hindering[{v.shown(key)}]", lo=0, hi=1000)
        else:
            hind = {h: 1 for h in _hex_set(hindering, "hindering", self)}
        object.__setattr__(self, "hindrance", dict(sorted(hind.items())))
        object.__setattr__(self, "impassable", _hex_set(impassable, "impassable", self))
        b = np.zeros(self.size, dtype=np.uint8)
        for h in self.blocking:
            b[self.index(h)] = 1
        hv = np.zeros(self.size, dtype=np.int32)
        for h, val in self.hindrance.items():
            hv[self.index(h)] = val
        b.setflags(write=False)
        hv.setflags(write=False)
        object.__setattr__(self, "_blocking_array", b)
        object.__setattr__(self, "_hindrance_array", hv)

    def __setattr__(self, name, value):
        raise AttributeError("HexMap is immutable")

    def __deepcopy__(self, memo):
        return self

    def __eq__(self, other):
        return (isinstance(other, HexMap) and (self.columns, self.rows, self.parity, self.blocking,
                                               self.hindrance, self.impassable)
                == (other.columns, other.rows, other.parity, other.blocking, other.hindrance,
                    other.impassable))

    def __hash__(self):
        return hash((self.columns, self.rows, self.parity, self.blocking, tuple(self.hindrance.items()),
                     self.impassable))

    def __repr__(self):
        return (f"HexMap({self.columns}x{self.rows}, blocking={len(self.blocking)}, "
                f"hindering={len(self.hindrance)}, impassable={len(self.impassable)})")

    @classmethod
    def parse_size(cls, text: str) -> tuple[int, int]:
        """``"15x10"`` -> (15, 10): columns x rows.

        Parameters
        ----------
        text : str
            ``COLUMNSxROWS`` (``x`` or ``X``, surrounding spaces allowed).

        Returns
        -------
        (int, int)
            Columns 1..26 and rows 1..99.

        Raises
        ------
        ValueError
            If ``text`` is not of that form or a size is out of range.
        """
        m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", str(text))
        if not m:
            raise ValueError(f"map: {v.shown(text)} is not COLUMNSxROWS, e.g. '15x10'")
        return (v.as_int(int(m.group(1)), "map columns", 1, MAX_COLUMNS),
                v.as_int(int(m.group(2)), "map rows", 1, MAX_ROWS))

    # -- coordinates --------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of hexes."""
        return self.columns * self.rows

    @property
    def grid_params(self) -> dict:
        """The ``Grid`` C struct of ``aa_core.hexmap``."""
        return {"cols": self.columns, "rows": self.rows, "parity": self.parity}

    @property
    def low_columns(self) -> str:
        """``"B"`` if columns B, D, F... are the lower ones, else ``"A"``."""
        return "B" if self.parity else "A"

    def contains(self, h) -> bool:
        """Whether hex ``h`` is on the map.

        Parameters
        ----------
        h : Hex or (int, int)
            0-based column and row.

        Returns
        -------
        bool
        """
        col, row = h
        return 0 <= col < self.columns and 0 <= row < self.rows

    def hex(self, value, name: str = "hex") -> Hex:
        """Parse and check that a hex is on this map.

        Parameters
        ----------
        value : str, Hex or (int, int)
            As in :func:`parse_hex`.
        name : str
            Argument name used in error messages.

        Returns
        -------
        Hex

        Raises
        ------
        ValueError
            If ``value`` is not a hex name or the hex is off this map.
        TypeError
            As in :func:`parse_hex`.
        """
        h = parse_hex(value, name)
        if not self.contains(h):
            last = hex_label((self.columns - 1, self.rows - 1))
            raise ValueError(f"{name}: {v.shown(value)} is not on the {self.columns}x{self.rows} map; allowed "
                             f"columns A-{last[0]}, rows 1-{self.rows}")
        return h

    def index(self, h) -> int:
        """Flat index ``row * columns + col`` of an on-map hex (as in the kernels' outputs).

        Parameters
        ----------
        h : str, Hex or (int, int)
            An on-map hex (see :meth:`hex`).

        Returns
        -------
        int
        """
        h = self.hex(h)
        return h.row * self.columns + h.col

    def at(self, index: int) -> Hex:
        """The hex of flat index ``index``.

        Parameters
        ----------
        index : int
            ``0 <= index < size``.

        Returns
        -------
        Hex
        """
        index = v.as_int(index, "index", lo=0, hi=self.size - 1)
        return Hex(index % self.columns, index // self.columns)

    def hexes(self) -> list:
        """All hexes in flat-index order (row by row).

        Returns
        -------
        list of Hex
        """
        return [Hex(c, r) for r in range(self.rows) for c in range(self.columns)]

    # -- geometry -----------------------------------------------------------------------------------
    def distance(self, a, b) -> int:
        """Hex distance (number of steps between neighbours).

        Parameters
        ----------
        a, b : str, Hex or (int, int)
            The two hexes (may be off the map).

        Returns
        -------
        int
        """
        a, b = parse_hex(a, "a", off_map=True), parse_hex(b, "b", off_map=True)
        return _hx.hex_distance_scalar(a.col, a.row, b.col, b.row, self.parity)

    def step(self, h, direction, steps: int = 1) -> Hex:
        """The hex ``steps`` hexes from ``h`` towards ``direction``; it may be off the map.

        Parameters
        ----------
        h : str, Hex or (int, int)
            Start hex.
        direction : Direction, str or int
            A :class:`Direction`, its name (``"NE"``) or its value 1..6.
        steps : int
            Number of steps, ``0..MAX_OFF_MAP``.

        Returns
        -------
        Hex
        """
        h = parse_hex(h, off_map=True)
        d = _direction(direction)
        for _ in range(v.as_int(steps, "steps", lo=0, hi=MAX_OFF_MAP)):
            h = Hex(*_hx.hex_step_scalar(h.col, h.row, d.index, self.parity))
        return h

    def neighbour(self, h, direction) -> Hex | None:
        """The neighbour of ``h`` towards ``direction``, or None if it is off the map.

        Parameters
        ----------
        h : str, Hex or (int, int)
        direction : Direction, str or int
            As in :meth:`step`.

        Returns
        -------
        Hex or None
        """
        n = self.step(h, direction)
        return n if self.contains(n) else None

    def neighbours(self, h) -> list:
        """The on-map neighbours of ``h`` in compass order N, NE, SE, S, SW, NW.

        Parameters
        ----------
        h : str, Hex or (int, int)

        Returns
        -------
        list of Hex
        """
        return [n for d in Direction if (n := self.neighbour(h, d)) is not None]

    def impact_hexes(self, center) -> list:
        """The artillery's area: ``center`` and its six neighbours, those on the map, centre first.

        Parameters
        ----------
        center : str, Hex or (int, int)
            An on-map hex.

        Returns
        -------
        list of Hex
        """
        c = self.hex(center, "center")
        return [c] + self.neighbours(c)

    def line(self, a, b) -> tuple:
        """The hex line from ``a`` to ``b`` inclusive (see the module docstring).

        Parameters
        ----------
        a, b : str, Hex or (int, int)

        Returns
        -------
        tuple of Hex
        """
        a, b = parse_hex(a, "a", off_map=True), parse_hex(b, "b", off_map=True)
        return tuple(Hex(c, r) for c, r in _hx.hex_line_scalar(a.col, a.row, b.col, b.row, self.parity))

    def hindrance_array(self, smoke=None) -> np.ndarray:
        """Per-hex hindrance (int32, flat index): terrain plus ``smoke`` markers.

        Parameters
        ----------
        smoke : mapping hex -> int, optional
            Smoke markers per on-map hex, each value 0..1000.

        Returns
        -------
        ndarray of int32, shape (size,)
            Read-only when ``smoke`` is empty (the map's own array).
        """
        if not smoke:
            return self._hindrance_array
        hv = self._hindrance_array.copy()
        for key, val in dict(smoke).items():
            hv[self.index(self.hex(key, "smoke"))] += v.as_int(val, f"smoke[{v.shown(key)}]", lo=0, hi=1000)
        return hv

    def blocking_array(self) -> np.ndarray:
        """Per-hex blocking flags.

        Returns
        -------
        ndarray of uint8, shape (size,)
            1 for a blocking hex, by flat index (read-only).
        """
        return self._blocking_array

    def line_of_sight(self, spotter, target, *, smoke=None, rules=None) -> LineOfSight:
        """Line of sight from ``spotter`` to ``target``: blocked by blocking hexes strictly between,
        hindrance summed over the hexes strictly between (terrain and ``smoke`` markers).

        Parameters
        ----------
        spotter, target : str, Hex or (int, int)
            On-map hexes.
        smoke : mapping hex -> int, optional
            Smoke markers adding hindrance.
        rules : Rules, optional
            ``artillery.hindrance_hexes``; the packaged defaults if omitted.

        Returns
        -------
        LineOfSight
        """
        rules = resolve_rules(rules)
        s, t = self.hex(spotter, "spotter"), self.hex(target, "target")
        count_target = rules.artillery.hindrance_hexes == "between_and_target"
        k = _hx.los_scalar(s.col, s.row, t.col, t.row, self.grid_params, self._blocking_array,
                           self.hindrance_array(smoke), count_target)
        line = self.line(s, t)
        if k < 0:
            blocker = next(h for h in line[1:-1] if h in self.blocking)
            return LineOfSight(False, 0, blocker, line)
        return LineOfSight(True, int(k), None, line)

    def visibility(self, spotter, *, smoke=None, rules=None) -> np.ndarray:
        """LOS from ``spotter`` to every hex.

        Parameters
        ----------
        spotter : str, Hex or (int, int)
            An on-map hex.
        smoke : mapping hex -> int, optional
            Smoke markers adding hindrance.
        rules : Rules, optional
            ``artillery.hindrance_hexes``; the packaged defaults if omitted.

        Returns
        -------
        ndarray of int32, shape (rows, columns)
            -1 where the line is blocked, else the hindrance.
        """
        rules = resolve_rules(rules)
        s = self.hex(spotter, "spotter")
        out = np.empty(self.size, dtype=np.int32)
        _hx.los_array(s.col, s.row, self.grid_params, self._blocking_array, self.hindrance_array(smoke),
                      rules.artillery.hindrance_hexes == "between_and_target", out)
        return out.reshape(self.rows, self.columns)


def _direction(value) -> Direction:
    if isinstance(value, Direction):
        return value
    if isinstance(value, str):
        key = value.strip().upper()
        if key in Direction.__members__:
            return Direction[key]
        raise ValueError(f"direction: {v.shown(value)} is not a compass direction; allowed: "
                         f"{', '.join(Direction.__members__)}")
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return v.as_enum(value, Direction, "direction")
    raise TypeError(f"direction: expected a Direction or one of {', '.join(Direction.__members__)}, "
                    f"got {type(value).__name__} {v.shown(value)}")
