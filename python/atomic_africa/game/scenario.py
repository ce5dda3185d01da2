"""Scenario files: table, terrain, two sides with units and fire support, turn limit (TOML).

Every malformed value raises :class:`ScenarioError` naming the field (in the wording of
:mod:`atomic_africa._fields`), e.g.
``scenario.sides[0].units[2].dice[1]: 'd7' is not a die; allowed d4, d6, d8, d10, d12``.

A unit table gives the unit fields whose schema line has a :class:`~atomic_africa.game.schema.Setup`
(:func:`~atomic_africa.game.schema.setup_fields`), within the bounds written there; the sizes
(units, assets, features, lengths, counts) are those of :mod:`atomic_africa._limits`.
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, make_dataclass
from importlib import resources
from os import PathLike

from .._fields import Fields
from .._limits import (MAX_ARMOR, MAX_ASSETS, MAX_CM, MAX_COUNT, MAX_FEATURES, MAX_NAME, MAX_POLYGON_POINTS,
                       MAX_UNITS)
from .._toml import read_toml
from ..enums import Cover, UnitKind
from .schema import UNIT_FIELDS, allowed, setup_fields, setup_terms

__all__ = ["Scenario", "ScenarioError", "Terrain", "UnitSpec", "SideSpec", "FireSupport",
           "load_scenario", "default_scenario", "packaged_scenarios", "packaged_name",
           "EXPERIENCE_LEVELS", "TARGET_TYPES"]

EXPERIENCE_LEVELS = ("green", "regular", "veteran", "elite")
#: Heavy-weapon target types: infantry and light infantry are dispersed, vehicles and terrain features
#: with an armor value point targets.
TARGET_TYPES = ("dispersed", "point")
_COVERS = {"none": Cover.NONE, "no": Cover.NONE, "light": Cover.LIGHT, "heavy": Cover.HEAVY}
_KINDS = tuple(k.name.lower() for k in UnitKind)


def _aimed_near_table(path: str, feature, w: float, h: float):
    """``feature`` if its aim point (a circle's centre, a polygon's mean point) lies within one table
    size of the table (``-w..2w``, ``-h..2h``): the native engine's bounds for it."""
    x, y = feature.aim_point
    if not (-w <= x <= 2 * w and -h <= y <= 2 * h):
        _f.fail(path, f"its aim point ({x:g}, {y:g}) (a polygon's mean point, a circle's centre) is out of "
                      f"range; allowed x {-w:g}..{2 * w:g}, y {-h:g}..{2 * h:g} (within one table size of the table)")
    return feature


class ScenarioError(ValueError):
    """A scenario file is malformed; the message names the field."""


_f = Fields(ScenarioError, "scenario")


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


# What a unit table gives, key by key in schema order (setup_fields): the fields scenario.py reads its
# own way (``own`` in their Setup) become these UnitSpec attributes, named by their key; every other
# field is an attribute of its own name.
_OWN = {
    "name": (str, None, "the unit's name (the table's ``name``, else its path in the file)"),
    "kind": (int, None, "UnitKind value"),
    "dice": (tuple, None, "(Training, Equipment, Morale) sides"),
    "heavy_weapon": (tuple, (), "((target_type, ap), ...); empty = none"),
    "position": (tuple, None, "(x, y) in cm"),
}



def _fields_by_key() -> dict:
    """key -> the first field a unit table's key gives, in schema order."""
    out = {}
    for f in setup_fields():
        out.setdefault(f.setup.key, f)
    return out


_BY_KEY = _fields_by_key()
#: The keys of a unit table in schema order: (key, attribute, type, default, doc), default None for
#: an attribute the constructor needs.
_UNIT_KEYS = tuple((key, key, *_OWN[key]) if f.setup.own else
                   (key, f.name, f.py_type, None if f.setup.required else f.default, f.doc)
                   for key, f in _BY_KEY.items())
_REQUIRED_KEYS = tuple(key for key, f in _BY_KEY.items() if f.setup.required)
_OPTIONAL_KEYS = tuple(key for key, f in _BY_KEY.items() if not f.setup.required)


def _unit_spec_class():
    """``UnitSpec``: one attribute per key of a unit table (``_UNIT_KEYS``), those the
    constructor needs first."""
    keys = [k for k in _UNIT_KEYS if k[3] is None] + [k for k in _UNIT_KEYS if k[3] is not None]
    spec = [(a, t) if d is None else (a, t, d) for _, a, t, d, _ in keys]
    doc = [f"{a} : {t.__name__}\n    {text[0].upper() + text[1:]}" + ("." if d is None else f" (default {d!r}).")
           for _, a, t, d, text in keys]

    def to_dict(self):
        """This table as in a scenario file (a dict)."""
        d = {}
        for key, attr, *_ in _UNIT_KEYS:
            value = getattr(self, attr)
            if key == "kind":
                value = UnitKind(value).name.lower()
            elif key == "dice":
                value = [f"d{s}" for s in value]
            elif key == "position":
                value = list(value)
            elif key == "heavy_weapon":
                if not value:
                    continue
                value = {t: ap for t, ap in value}
            d[key] = value
        return d

    cls = make_dataclass("UnitSpec", spec, frozen=True, namespace={
        "__doc__": "A unit of a side at the start of the game: one attribute per key of a scenario's unit "
                   "table (``schema.setup_fields``).\n\nAttributes\n----------\n" + "\n".join(doc),
        "to_dict": to_dict})
    cls.__module__ = __name__
    return cls


UnitSpec = _unit_spec_class()


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

    @classmethod
    def from_toml(cls, path: str | PathLike) -> Scenario:
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
    def from_dict(cls, data: dict) -> Scenario:
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
        _f.table("", data, ("table", "turns", "sides"), ("name", "terrain"))
        name = _f.string("name", data.get("name", "scenario"), MAX_NAME)
        t = _f.table("table", data["table"], ("width_cm", "height_cm"))
        w = _f.number("table.width_cm", t["width_cm"], positive=True, hi=MAX_CM)
        h = _f.number("table.height_cm", t["height_cm"], positive=True, hi=MAX_CM)
        turns = _f.integer("turns", data["turns"], lo=1, hi=MAX_COUNT)
        terrain = []
        raw_t = _f.array("terrain", data.get("terrain", []), "an array of tables [[terrain]]",
                         max_length=MAX_FEATURES, kinds=list)
        for i, f in enumerate(raw_t):
            p = f"terrain[{i}]"
            _f.table(p, f, ("shape", "cover", "blocks_los"), ("name", "points", "center", "radius", "armor"))
            shape = _f.choice(f"{p}.shape", f["shape"], ("polygon", "circle"), fold_case=True)
            cover = _COVERS[_f.choice(f"{p}.cover", f["cover"], tuple(_COVERS), fold_case=True)]
            armor = _f.integer(f"{p}.armor", f.get("armor", 0), lo=1, hi=MAX_ARMOR) if "armor" in f else 0
            if armor and cover == Cover.NONE:
                _f.fail(f"{p}.armor", "a feature with an armor value (a heavy-weapon target) must give "
                                      "light or heavy cover: its wounds lower that cover")
            blocks = _f.boolean(f"{p}.blocks_los", f["blocks_los"])
            fname = _f.string(f"{p}.name", f.get("name", f"feature {i}"), MAX_NAME)
            if shape == "polygon":
                if "points" not in f:
                    _f.fail(f"{p}.points", "missing field (a polygon needs 3+ points)")
                if "center" in f or "radius" in f:
                    _f.fail(f"{p}.center", "a polygon has points, not center/radius")
                pts = _f.array(f"{p}.points", f["points"], "a list of 3+ points [x, y]", min_length=3,
                               max_length=MAX_POLYGON_POINTS, kinds=list)
                pts = tuple(_f.point(f"{p}.points[{j}]", q) for j, q in enumerate(pts))
                polygon = Terrain(fname, "polygon", points=pts, cover=int(cover), blocks_los=blocks, armor=armor)
                terrain.append(_aimed_near_table(f"{p}.points", polygon, w, h))
            else:
                for k in ("center", "radius"):
                    if k not in f:
                        _f.fail(f"{p}.{k}", "missing field (a circle needs center and radius)")
                if "points" in f:
                    _f.fail(f"{p}.points", "a circle has center/radius, not points")
                circle = Terrain(fname, "circle", center=_f.point(f"{p}.center", f["center"]),
                                 radius=_f.number(f"{p}.radius", f["radius"], positive=True, hi=MAX_CM),
                                 cover=int(cover), blocks_los=blocks, armor=armor)
                terrain.append(_aimed_near_table(f"{p}.center", circle, w, h))
        sides = _f.array("sides", data["sides"], "exactly two [[sides]]", length=2, kinds=list)
        specs = tuple(_side(f"sides[{i}]", s, w, h) for i, s in enumerate(sides))
        return cls(name, w, h, turns, tuple(terrain), specs)

    @classmethod
    def generate(cls, seed: int, **knobs) -> Scenario:
        """A generated battle: table, terrain, two forces, fire support and a central objective from
        ``seed`` and a few knobs, side 1 the mirror image of side 0 (balanced by construction).

        Parameters
        ----------
        seed : int
            Non-negative; the same seed and knobs give the same battle everywhere.
        **knobs
            ``size``, ``terrain_density``, ``units``, ``figures``, ``mix``, ``experience``,
            ``fire_support``, ``turns``, ``objective``, ``symmetry``; each numeric knob a value or
            an inclusive ``(low, high)`` range drawn per map. Their meanings and defaults:
            :mod:`atomic_africa.game.generate`.

        Returns
        -------
        Scenario

        Raises
        ------
        TypeError, ValueError
            On a bad seed or an unknown or invalid knob (the message names it and what is allowed).
        """
        from . import generate
        return cls.from_dict(generate.scenario_dict(seed, **knobs))

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
    _f.table(path, s, ("experience", "units"), ("name", "fire_support", "hand_size"))
    exp = _f.choice(f"{path}.experience", s["experience"], EXPERIENCE_LEVELS, fold_case=True)
    units = _f.array(f"{path}.units", s["units"], "a non-empty array of tables [[sides.units]]",
                     min_length=1, max_length=MAX_UNITS, kinds=list)
    specs = tuple(_unit(f"{path}.units[{i}]", u, w, h) for i, u in enumerate(units))
    figures = sum(u.figures for u in specs)
    if figures > MAX_COUNT:
        _f.fail(f"{path}.units", f"{figures} figures in all is out of range; allowed <= {MAX_COUNT}")
    n_cmd = sum(u.commander for u in specs)
    if n_cmd > 1:
        _f.fail(f"{path}.units", f"at most one force commander per side, got {n_cmd}")
    fs = _f.array(f"{path}.fire_support", s.get("fire_support", []), "an array of tables",
                  max_length=MAX_ASSETS, kinds=list)
    assets = []
    for i, a in enumerate(fs):
        p = f"{path}.fire_support[{i}]"
        _f.table(p, a, ("dice", "ap", "blast_radius_cm"), ("name",))
        dice = _f.array(f"{p}.dice", a["dice"], "three dice", length=3, kinds=list)
        assets.append(FireSupport(_f.string(f"{p}.name", a.get("name", f"asset {i}"), MAX_NAME),
                                  tuple(_f.die(f"{p}.dice[{j}]", d) for j, d in enumerate(dice)),
                                  _f.integer(f"{p}.ap", a["ap"], lo=-MAX_ARMOR, hi=0),
                                  _f.number(f"{p}.blast_radius_cm", a["blast_radius_cm"], positive=True,
                                            hi=MAX_CM)))
    hand = s.get("hand_size")
    if hand is not None:
        hand = _f.integer(f"{path}.hand_size", hand, lo=0, hi=MAX_COUNT)
    return SideSpec(_f.string(f"{path}.name", s.get("name", path), MAX_NAME), exp, specs, tuple(assets), hand)


def _unit(path, u, w, h):
    _f.table(path, u, _REQUIRED_KEYS, _OPTIONAL_KEYS)
    terms = setup_terms(w, h)
    kind = _f.choice(f"{path}.kind", u["kind"], _KINDS, fold_case=True)
    dice = _f.array(f"{path}.dice", u["dice"], "three dice (Training, Equipment, Morale)", length=3, kinds=list)
    pos = _f.point(f"{path}.position", u["position"])
    (x_lo, x_hi), (y_lo, y_hi) = _setup_bounds("x", terms), _setup_bounds("y", terms)
    if not (x_lo <= pos[0] <= x_hi and y_lo <= pos[1] <= y_hi):
        _f.fail(f"{path}.position", f"{list(pos)} is off the {w:g} x {h:g} cm table")
    hw = u.get("heavy_weapon", {})
    if not isinstance(hw, dict):
        _f.expected(f"{path}.heavy_weapon", "a table {dispersed = AP, point = AP}", hw)
    _f.table(f"{path}.heavy_weapon", hw, (), TARGET_TYPES, item="target type")
    hw_t = tuple((t, _f.integer(f"{path}.heavy_weapon.{t}", hw[t], *_setup_bounds(f"hw_{t}_ap", terms)))
                 for t in TARGET_TYPES if t in hw)
    # RULES.md section 1: vehicles are attached units [src]; any other unit when its entry says so.
    plain = {f.name: _plain(f"{path}.{f.setup.key}", u, f, terms, {"attached": kind == "vehicle"})
             for f in setup_fields(own=False)}
    if plain["spotter"] and kind == "vehicle":
        _f.fail(f"{path}.spotter", "only infantry (light infantry included) may Call for Fire (RULES.md section 4)")
    if kind == "vehicle" and not plain["attached"]:
        _f.fail(f"{path}.attached", "a vehicle is always an attached unit (RULES.md section 1); "
                                    "omit the field or set it to true")
    return UnitSpec(
        name=_f.string(f"{path}.name", u.get("name", path), MAX_NAME),
        kind=int(UnitKind[kind.upper()]),
        dice=tuple(_f.die(f"{path}.dice[{j}]", d) for j, d in enumerate(dice)),
        position=pos, heavy_weapon=hw_t, **plain,
    )


_FIELD = {f.name: f for f in UNIT_FIELDS}


def _setup_bounds(name: str, terms: dict) -> tuple:
    """What a scenario may give for the field ``name``: its Setup's bounds, else the field's."""
    f = _FIELD[name]
    return allowed(f.setup.bounds or f.bounds, terms)


def _plain(path, u, f, terms, defaults):
    """A field a unit table gives as it is: true/false, or an integer within its Setup's bounds."""
    value = u.get(f.setup.key, defaults.get(f.name, f.default))
    if f.py_type is bool:
        return _f.boolean(path, value)
    return _f.integer(path, value, *_setup_bounds(f.name, terms))


#: Where the packaged scenarios live inside the package: ``<name>.toml`` is the scenario ``<name>``.
_PACKAGED_DIR = "data/scenarios"


def packaged_scenarios() -> tuple:
    """Names of the scenarios packaged with atomic_africa (``data/scenarios/<name>.toml``).

    Returns
    -------
    tuple of str
        Sorted names, ``"default"`` among them; each loads with :func:`load_scenario`.
    """
    folder = resources.files("atomic_africa").joinpath(_PACKAGED_DIR)
    return tuple(sorted(f.name[:-len(".toml")] for f in folder.iterdir() if f.name.endswith(".toml")))


def packaged_name(scenario) -> str | None:
    """The packaged scenario name ``scenario`` stands for, or ``None`` if it is a path.

    A string names a packaged scenario when it is not an existing path, holds no path separator and
    does not end in ``.toml`` (so ``"meeting_engagement"`` is a name, ``"./x"`` and ``"x.toml"`` are
    paths). Whether the name exists is not checked here (:func:`load_scenario` does).

    Parameters
    ----------
    scenario : object

    Returns
    -------
    str or None
    """
    if not isinstance(scenario, str) or not scenario or os.path.exists(scenario):
        return None
    seps = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    if any(c in scenario for c in seps) or scenario.lower().endswith(".toml"):
        return None
    return scenario


def _load_packaged(name: str) -> Scenario:
    names = packaged_scenarios()
    if name not in names:
        raise ScenarioError(f"scenario: no packaged scenario named {name!r}; available: {', '.join(names)} "
                            f"(or give the path of a scenario TOML file)")
    text = resources.files("atomic_africa").joinpath(f"{_PACKAGED_DIR}/{name}.toml").read_text("utf-8")
    return Scenario.from_dict(tomllib.loads(text))


def load_scenario(scenario) -> Scenario:
    """A :class:`Scenario` from any accepted form.

    Parameters
    ----------
    scenario : Scenario, str, PathLike, dict or None
        A Scenario (returned as is), the name of a packaged scenario (:func:`packaged_scenarios`, e.g.
        ``"meeting_engagement"``; see :func:`packaged_name` for when a string is a name), a path to a
        TOML file, a dict in the TOML layout, or ``None`` for the packaged default.

    Returns
    -------
    Scenario

    Raises
    ------
    ScenarioError
        If the file or dict is malformed (the message names the field), the file is not valid TOML,
        or no packaged scenario has the name (the message lists the names).
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
    name = packaged_name(scenario)
    if name is not None:
        return _load_packaged(name)
    if isinstance(scenario, (str, PathLike)):
        return Scenario.from_toml(scenario)
    raise TypeError(f"scenario: expected a Scenario, a packaged scenario name, a TOML path, a dict or None, "
                    f"got {type(scenario).__name__}")


def default_scenario() -> Scenario:
    """The packaged default scenario (``data/scenarios/default.toml``): a balanced battle.

    Returns
    -------
    Scenario
    """
    return _load_packaged("default")
