"""Scenario files: table, terrain, two sides with units and fire support, turn limit (TOML).

Every malformed value raises :class:`ScenarioError` naming the field, e.g.
``scenario field 'sides[0].units[2].dice[1]': 'd7' is not a die; allowed d4, d6, d8, d10, d12``.
"""
from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from os import PathLike

from .._toml import read_toml
from ..enums import Cover, Die, UnitKind

__all__ = ["Scenario", "ScenarioError", "Terrain", "UnitSpec", "SideSpec", "FireSupport",
           "load_scenario", "default_scenario", "EXPERIENCE_LEVELS", "TARGET_TYPES"]

EXPERIENCE_LEVELS = ("green", "regular", "veteran", "elite")
#: Heavy-weapon target types: infantry and light infantry are dispersed, vehicles and terrain features
#: with an armor value point targets.
TARGET_TYPES = ("dispersed", "point")
_COVERS = {"none": Cover.NONE, "no": Cover.NONE, "light": Cover.LIGHT, "heavy": Cover.HEAVY}


class ScenarioError(ValueError):
    """A scenario file is malformed; the message names the field."""


def _fail(path, problem):
    raise ScenarioError(f"scenario field {path!r}: {problem}")


def _table(path, value, required, optional=()):
    if not isinstance(value, dict):
        _fail(path, f"expected a table, got {type(value).__name__}")
    allowed = set(required) | set(optional)
    unknown = sorted(set(value) - allowed)
    if unknown:
        _fail(f"{path}.{unknown[0]}" if path else unknown[0], f"unknown field; allowed: {sorted(allowed)}")
    for k in required:
        if k not in value:
            _fail(f"{path}.{k}" if path else k, "missing")
    return value


def _num(path, value, lo=None, positive=False):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        _fail(path, f"expected a number, got {type(value).__name__} {value!r}")
    v = float(value)
    if not math.isfinite(v) or (positive and v <= 0) or (lo is not None and v < lo):
        need = "a finite positive number" if positive else f"a finite number >= {lo}" if lo is not None \
            else "a finite number"
        _fail(path, f"expected {need}, got {value!r}")
    return v


def _int(path, value, lo=None, hi=None):
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(path, f"expected an integer, got {type(value).__name__} {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        _fail(path, f"{value} is out of range {lo}..{hi if hi is not None else ''}")
    return value


def _bool(path, value):
    if not isinstance(value, bool):
        _fail(path, f"expected true or false, got {value!r}")
    return value


def _str(path, value, allowed=None):
    if not isinstance(value, str):
        _fail(path, f"expected a string, got {type(value).__name__} {value!r}")
    if allowed is not None and value.lower() not in allowed:
        _fail(path, f"{value!r} is not one of {list(allowed)}")
    return value.lower() if allowed is not None else value


def _point(path, value):
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        _fail(path, f"expected a point [x, y] in cm, got {value!r}")
    return (_num(f"{path}[0]", value[0]), _num(f"{path}[1]", value[1]))


def _die(path, value):
    if isinstance(value, str):
        key = value.strip().lower()
        if key.startswith("d") and key[1:].isdigit() and int(key[1:]) in {int(d) for d in Die}:
            return int(key[1:])
    elif isinstance(value, int) and not isinstance(value, bool) and value in {int(d) for d in Die}:
        return value
    _fail(path, f"{value!r} is not a die; allowed d4, d6, d8, d10, d12")


@dataclass(frozen=True)
class Terrain:
    """A terrain feature: a polygon (``points``) or a circle (``center``, ``radius``)."""

    name: str
    shape: str                 # "polygon" or "circle"
    points: tuple = ()         # polygon vertices ((x, y), ...)
    center: tuple = (0.0, 0.0)
    radius: float = 0.0
    cover: int = 0             # Cover value
    blocks_los: bool = False
    armor: int = 0             # > 0: a point target for heavy weapons (RULES.md section 4); 0: not a target

    @property
    def aim_point(self) -> tuple:
        """Where a heavy weapon aims at the feature: the circle's centre or the polygon's vertex mean."""
        if self.shape == "circle":
            return self.center
        n = len(self.points)
        return (sum(p[0] for p in self.points) / n, sum(p[1] for p in self.points) / n)

    def to_dict(self):
        """This table as in a scenario file (a dict)."""
        d = {"name": self.name, "shape": self.shape, "cover": Cover(self.cover).name.lower(),
             "blocks_los": self.blocks_los}
        if self.armor:
            d["armor"] = self.armor
        if self.shape == "polygon":
            d["points"] = [list(p) for p in self.points]
        else:
            d["center"] = list(self.center)
            d["radius"] = self.radius
        return d


@dataclass(frozen=True)
class UnitSpec:
    """A unit of a side at the start of the game."""

    name: str
    kind: int                  # UnitKind value
    figures: int
    dice: tuple                # (Training, Equipment, Morale) sides
    armor: int
    position: tuple
    heavy_weapon: tuple = ()   # ((target_type, ap), ...); empty = none
    spotter: bool = False
    comms: bool = False
    commander: bool = False
    markers: int = 0           # suppression markers at the start (scenario set-up)
    wounds: int = 0            # wound counters at the start
    attached: bool = False     # needs order cards but adds none to the draw (always True for vehicles)

    def to_dict(self):
        """This table as in a scenario file (a dict)."""
        d = {"name": self.name, "kind": UnitKind(self.kind).name.lower(), "figures": self.figures,
             "markers": self.markers, "wounds": self.wounds, "attached": self.attached,
             "dice": [f"d{s}" for s in self.dice], "armor": self.armor, "position": list(self.position),
             "spotter": self.spotter, "comms": self.comms, "commander": self.commander}
        if self.heavy_weapon:
            d["heavy_weapon"] = {t: ap for t, ap in self.heavy_weapon}
        return d


@dataclass(frozen=True)
class FireSupport:
    """An off-board fire-support asset (RULES.md section 4, Call for Fire)."""

    name: str
    dice: tuple
    ap: int
    blast_radius_cm: float

    def to_dict(self):
        """This table as in a scenario file (a dict)."""
        return {"name": self.name, "dice": [f"d{s}" for s in self.dice], "ap": self.ap,
                "blast_radius_cm": self.blast_radius_cm}


@dataclass(frozen=True)
class SideSpec:
    """One side of a scenario: its name, experience level, units, fire-support assets and, optionally,
    its hand size (order cards drawn per Orders phase) instead of the rules' formula."""

    name: str
    experience: str
    units: tuple
    fire_support: tuple = ()
    hand_size: int | None = None

    def to_dict(self):
        """This table as in a scenario file (a dict)."""
        d = {"name": self.name, "experience": self.experience,
             "units": [u.to_dict() for u in self.units],
             "fire_support": [f.to_dict() for f in self.fire_support]}
        if self.hand_size is not None:
            d["hand_size"] = self.hand_size
        return d


@dataclass(frozen=True)
class Scenario:
    """A validated scenario. Build with :meth:`from_toml`, :meth:`from_dict` or :func:`default_scenario`."""

    name: str
    width_cm: float
    height_cm: float
    turns: int
    terrain: tuple
    sides: tuple
    _cache: dict = field(default_factory=dict, repr=False, compare=False, hash=False)

    @classmethod
    def from_toml(cls, path: str | PathLike) -> "Scenario":
        """Read and validate a scenario TOML file.

        Parameters
        ----------
        path : str or PathLike

        Returns
        -------
        Scenario

        Raises
        ------
        ScenarioError
            If the file is not valid TOML or a field is malformed.
        OSError
            If the file cannot be read.
        """
        return cls.from_dict(read_toml(path, ScenarioError, "scenario"))

    @classmethod
    def from_dict(cls, data: dict) -> "Scenario":
        """Validate a scenario given as a dict in the TOML layout.

        Parameters
        ----------
        data : dict
            Tables ``table``, ``turns``, ``sides`` (exactly two) and optional ``name``, ``terrain``.

        Returns
        -------
        Scenario

        Raises
        ------
        ScenarioError
            If a field is missing or malformed (the message names it).
        """
        _table("", data, ("table", "turns", "sides"), ("name", "terrain"))
        name = _str("name", data.get("name", "scenario"))
        t = _table("table", data["table"], ("width_cm", "height_cm"))
        w = _num("table.width_cm", t["width_cm"], positive=True)
        h = _num("table.height_cm", t["height_cm"], positive=True)
        turns = _int("turns", data["turns"], lo=1, hi=1000)
        terrain = []
        raw_t = data.get("terrain", [])
        if not isinstance(raw_t, list):
            _fail("terrain", "expected an array of tables [[terrain]]")
        for i, f in enumerate(raw_t):
            p = f"terrain[{i}]"
            _table(p, f, ("shape", "cover", "blocks_los"), ("name", "points", "center", "radius", "armor"))
            shape = _str(f"{p}.shape", f["shape"], ("polygon", "circle"))
            cover = _COVERS[_str(f"{p}.cover", f["cover"], tuple(_COVERS))]
            armor = _int(f"{p}.armor", f.get("armor", 0), lo=1, hi=100) if "armor" in f else 0
            if armor and cover == Cover.NONE:
                _fail(f"{p}.armor", "a feature with an armor value (a heavy-weapon target) must give "
                                    "light or heavy cover: its wounds lower that cover")
            blocks = _bool(f"{p}.blocks_los", f["blocks_los"])
            fname = _str(f"{p}.name", f.get("name", f"feature {i}"))
            if shape == "polygon":
                if "points" not in f:
                    _fail(f"{p}.points", "missing (a polygon needs 3+ points)")
                if "center" in f or "radius" in f:
                    _fail(f"{p}.center", "a polygon has points, not center/radius")
                pts = f["points"]
                if not isinstance(pts, list) or len(pts) < 3:
                    _fail(f"{p}.points", f"expected a list of 3+ points [x, y], got {pts!r}")
                pts = tuple(_point(f"{p}.points[{j}]", q) for j, q in enumerate(pts))
                terrain.append(Terrain(fname, "polygon", points=pts, cover=int(cover), blocks_los=blocks,
                                       armor=armor))
            else:
                for k in ("center", "radius"):
                    if k not in f:
                        _fail(f"{p}.{k}", "missing (a circle needs center and radius)")
                if "points" in f:
                    _fail(f"{p}.points", "a circle has center/radius, not points")
                terrain.append(Terrain(fname, "circle", center=_point(f"{p}.center", f["center"]),
                                       radius=_num(f"{p}.radius", f["radius"], positive=True),
                                       cover=int(cover), blocks_los=blocks, armor=armor))
        sides = data["sides"]
        if not isinstance(sides, list) or len(sides) != 2:
            _fail("sides", f"expected exactly two [[sides]], got {len(sides) if isinstance(sides, list) else sides!r}")
        specs = tuple(_side(f"sides[{i}]", s, w, h) for i, s in enumerate(sides))
        return cls(name, w, h, turns, tuple(terrain), specs)

    def to_dict(self) -> dict:
        """The scenario in the TOML layout (:meth:`from_dict` round-trips it).

        Returns
        -------
        dict
        """
        return {"name": self.name, "table": {"width_cm": self.width_cm, "height_cm": self.height_cm},
                "turns": self.turns, "terrain": [t.to_dict() for t in self.terrain],
                "sides": [s.to_dict() for s in self.sides]}

    def __reduce__(self):
        return (Scenario.from_dict, (self.to_dict(),))


def _side(path, s, w, h):
    _table(path, s, ("experience", "units"), ("name", "fire_support", "hand_size"))
    exp = _str(f"{path}.experience", s["experience"], EXPERIENCE_LEVELS)
    units = s["units"]
    if not isinstance(units, list) or not units:
        _fail(f"{path}.units", "expected a non-empty array of tables [[sides.units]]")
    specs = tuple(_unit(f"{path}.units[{i}]", u, w, h) for i, u in enumerate(units))
    n_cmd = sum(u.commander for u in specs)
    if n_cmd > 1:
        _fail(f"{path}.units", f"at most one force commander per side, got {n_cmd}")
    fs = s.get("fire_support", [])
    if not isinstance(fs, list):
        _fail(f"{path}.fire_support", "expected an array of tables")
    assets = []
    for i, a in enumerate(fs):
        p = f"{path}.fire_support[{i}]"
        _table(p, a, ("dice", "ap", "blast_radius_cm"), ("name",))
        dice = a["dice"]
        if not isinstance(dice, list) or len(dice) != 3:
            _fail(f"{p}.dice", f"expected three dice, got {dice!r}")
        assets.append(FireSupport(_str(f"{p}.name", a.get("name", f"asset {i}")),
                                  tuple(_die(f"{p}.dice[{j}]", d) for j, d in enumerate(dice)),
                                  _int(f"{p}.ap", a["ap"], hi=0),
                                  _num(f"{p}.blast_radius_cm", a["blast_radius_cm"], positive=True)))
    hand = s.get("hand_size")
    if hand is not None:
        hand = _int(f"{path}.hand_size", hand, lo=0, hi=1000)
    return SideSpec(_str(f"{path}.name", s.get("name", path)), exp, specs, tuple(assets), hand)


def _unit(path, u, w, h):
    _table(path, u, ("kind", "figures", "dice", "armor", "position"),
           ("name", "heavy_weapon", "spotter", "comms", "commander", "markers", "wounds", "attached"))
    kind = _str(f"{path}.kind", u["kind"], ("infantry", "light_infantry", "vehicle"))
    dice = u["dice"]
    if not isinstance(dice, list) or len(dice) != 3:
        _fail(f"{path}.dice", f"expected three dice (Training, Equipment, Morale), got {dice!r}")
    pos = _point(f"{path}.position", u["position"])
    if not (0 <= pos[0] <= w and 0 <= pos[1] <= h):
        _fail(f"{path}.position", f"{list(pos)} is off the {w:g} x {h:g} cm table")
    hw = u.get("heavy_weapon", {})
    if not isinstance(hw, dict):
        _fail(f"{path}.heavy_weapon", "expected a table {dispersed = AP, point = AP}")
    for t in hw:
        if t not in TARGET_TYPES:
            _fail(f"{path}.heavy_weapon.{t}", f"unknown target type; allowed: {list(TARGET_TYPES)}")
    hw_t = tuple((t, _int(f"{path}.heavy_weapon.{t}", hw[t], hi=0)) for t in TARGET_TYPES if t in hw)
    spotter = _bool(f"{path}.spotter", u.get("spotter", False))
    if spotter and kind == "vehicle":
        _fail(f"{path}.spotter", "only infantry (light infantry included) may Call for Fire (RULES.md section 4)")
    # RULES.md section 1: vehicles are attached units [src]; any other unit when its entry says so.
    attached = _bool(f"{path}.attached", u.get("attached", kind == "vehicle"))
    if kind == "vehicle" and not attached:
        _fail(f"{path}.attached", "a vehicle is always an attached unit (RULES.md section 1); "
                                  "omit the field or set it to true")
    return UnitSpec(
        name=_str(f"{path}.name", u.get("name", path)),
        kind=int(UnitKind[kind.upper()]),
        figures=_int(f"{path}.figures", u["figures"], lo=1, hi=1000),
        dice=tuple(_die(f"{path}.dice[{j}]", d) for j, d in enumerate(dice)),
        armor=_int(f"{path}.armor", u["armor"], lo=1, hi=100),
        position=pos, heavy_weapon=hw_t, spotter=spotter,
        comms=_bool(f"{path}.comms", u.get("comms", False)),
        commander=_bool(f"{path}.commander", u.get("commander", False)),
        markers=_int(f"{path}.markers", u.get("markers", 0), lo=0, hi=1000),
        wounds=_int(f"{path}.wounds", u.get("wounds", 0), lo=0, hi=1000),
        attached=attached,
    )


def load_scenario(scenario) -> Scenario:
    """A :class:`Scenario` from any accepted form.

    Parameters
    ----------
    scenario : Scenario, str, PathLike, dict or None
        A Scenario (returned as is), a path to a TOML file, a dict in the TOML layout, or ``None``
        for the packaged default.

    Returns
    -------
    Scenario

    Raises
    ------
    ScenarioError
        If the file or dict is malformed (the message names the field) or the file is not valid TOML.
    OSError
        If the file cannot be read.
    TypeError
        If ``scenario`` is of another type.
    """
    if scenario is None:
        return default_scenario()
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, dict):
        return Scenario.from_dict(scenario)
    if isinstance(scenario, (str, PathLike)):
        return Scenario.from_toml(scenario)
    raise TypeError(f"scenario: expected a Scenario, a TOML path, a dict or None, "
                    f"got {type(scenario).__name__}")


def default_scenario() -> Scenario:
    """The packaged default scenario (``data/scenarios/default.toml``).

    Returns
    -------
    Scenario
    """
    text = resources.files("atomic_africa").joinpath("data/scenarios/default.toml").read_text("utf-8")
    return Scenario.from_dict(tomllib.loads(text))
