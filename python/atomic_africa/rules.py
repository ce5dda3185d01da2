"""Rules data: every rule number (``atomic-africa rules`` explains each) as a frozen, validated object.

The packaged ``data/rules.toml`` holds the published values and the engine's [default] choices.
Kernels receive these values as arguments; nothing here is compiled.
"""
from __future__ import annotations

import functools
import math
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from os import PathLike

import numpy as np

from ._toml import read_toml
from .enums import Action, Posture, Role

__all__ = ["Rules", "RulesError"]


class RulesError(ValueError):
    """A rules file or override is malformed; the message names the field."""


def _fail(path: str, problem: str):
    raise RulesError(f"rules field {path!r}: {problem}")


def _check_type(path: str, value, kinds, what: str):
    if isinstance(value, bool) and bool not in kinds:
        _fail(path, f"expected {what}, got {value!r}")
    if not isinstance(value, kinds):
        _fail(path, f"expected {what}, got {type(value).__name__} {value!r}")
    return value


def _int(path, value, lo=None, hi=None):
    _check_type(path, value, (int,), "an integer")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        _fail(path, f"{value} is out of range {bounds}")
    return value


def _num(path, value, positive=True):
    _check_type(path, value, (int, float), "a number")
    if not math.isfinite(value) or (positive and value <= 0):
        _fail(path, f"expected a finite {'positive ' if positive else ''}number, got {value!r}")
    return float(value)


def _choice(path, value, allowed):
    _check_type(path, value, (str,), "a string")
    if value not in allowed:
        _fail(path, f"{value!r} is not one of {sorted(allowed)}")
    return value


def _bool(path, value):
    return _check_type(path, value, (bool,), "true or false")


def _int_list(path, value, lo=None, length=None):
    _check_type(path, value, (list, tuple), "a list of integers")
    if length is not None and len(value) != length:
        _fail(path, f"expected {length} values, got {len(value)}")
    return tuple(_int(f"{path}[{i}]", v, lo) for i, v in enumerate(value))


class _Section:
    """Base for rules sections: build from a dict, rejecting unknown and missing keys."""

    _name = ""

    @classmethod
    def from_dict(cls, data: dict, path: str):
        if not isinstance(data, dict):
            _fail(path, f"expected a table, got {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            _fail(f"{path}.{unknown[0]}", f"unknown field; allowed: {sorted(names)}")
        missing = sorted(names - set(data))
        if missing:
            _fail(f"{path}.{missing[0]}", "missing")
        obj = cls(**{k: data[k] for k in names})
        obj._validate(path)
        return obj

    def _validate(self, path: str) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def to_dict(self) -> dict:
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else (dict(v) if isinstance(v, dict) else v)
        return out


def _set(obj, name, value):
    object.__setattr__(obj, name, value)


@dataclass(frozen=True)
class DiceRules(_Section):
    ladder: tuple
    shattered_die: int
    wound_shift_infantry: str
    wound_shift_vehicle: str

    def _validate(self, path):
        ladder = _int_list(f"{path}.ladder", self.ladder, lo=2)
        if len(ladder) < 2 or any(b <= a for a, b in zip(ladder, ladder[1:])):
            _fail(f"{path}.ladder", f"must be strictly increasing with 2+ dice, got {list(ladder)}")
        if any(s not in (4, 6, 8, 10, 12) for s in ladder):
            _fail(f"{path}.ladder", f"dice must be among d4, d6, d8, d10, d12, got {list(ladder)}")
        _set(self, "ladder", ladder)
        _int(f"{path}.shattered_die", self.shattered_die)
        if self.shattered_die not in ladder:
            _fail(f"{path}.shattered_die", f"{self.shattered_die} is not on the ladder {list(ladder)}")
        attrs = {"training", "equipment", "morale"}
        _choice(f"{path}.wound_shift_infantry", self.wound_shift_infantry, attrs)
        _choice(f"{path}.wound_shift_vehicle", self.wound_shift_vehicle, attrs)


@dataclass(frozen=True)
class Table5Row(_Section):
    single: str
    pair: str
    offensive: str
    defensive: str

    def _validate(self, path):
        _choice(f"{path}.single", self.single, {"attack", "defense", "rally", "spotting"})
        _choice(f"{path}.pair", self.pair, {"attack", "attacks", "defense", "rally", "spotting"})
        if self.single == self.pair:
            _fail(f"{path}.pair", f"must differ from single ({self.single!r})")
        if "defense" not in (self.single, self.pair):
            _fail(path, "one of single/pair must be 'defense'")
        _choice(f"{path}.offensive", self.offensive, {"low", "high"})
        _choice(f"{path}.defensive", self.defensive, {"low", "high"})


_ROLE = {"attack": Role.ATTACK, "defense": Role.DEFENSE, "rally": Role.RALLY,
         "spotting": Role.SPOTTING, "attacks": Role.ATTACKS}


@dataclass(frozen=True)
class FireRules(_Section):
    band_edges_cm: tuple
    cover_armor_bonus: tuple
    armor_floor: int
    markers_beyond_range: int
    markers_beyond_damage: int
    vehicle_markers_beyond_range: int
    vehicle_markers_beyond_damage: int
    turn_marker_cap: int
    vehicle_turn_marker_cap: int
    feature_defense: int
    feature_cover_per_wound: int
    los_edge_depth_cm: float

    def _validate(self, path):
        _set(self, "los_edge_depth_cm",
             _num(f"{path}.los_edge_depth_cm", self.los_edge_depth_cm, positive=False))
        if self.los_edge_depth_cm < 0:
            _fail(f"{path}.los_edge_depth_cm", f"must be >= 0, got {self.los_edge_depth_cm}")
        p = f"{path}.band_edges_cm"
        _check_type(p, self.band_edges_cm, (list, tuple), "a list of numbers")
        edges = tuple(_num(f"{p}[{i}]", v) for i, v in enumerate(self.band_edges_cm))
        if not edges or any(b <= a for a, b in zip(edges, edges[1:])):
            _fail(p, f"must be strictly increasing positive numbers, got {list(self.band_edges_cm)}")
        if len(edges) > 126:
            _fail(p, "at most 126 bands")
        _set(self, "band_edges_cm", edges)
        _set(self, "cover_armor_bonus",
             _int_list(f"{path}.cover_armor_bonus", self.cover_armor_bonus, lo=0, length=3))
        _int(f"{path}.armor_floor", self.armor_floor, lo=1)
        for name in ("markers_beyond_range", "markers_beyond_damage", "vehicle_markers_beyond_range",
                     "vehicle_markers_beyond_damage", "turn_marker_cap", "vehicle_turn_marker_cap",
                     "feature_defense"):
            _int(f"{path}.{name}", getattr(self, name), lo=0, hi=100)
        _int(f"{path}.feature_cover_per_wound", self.feature_cover_per_wound, lo=1, hi=2)


@dataclass(frozen=True)
class MovementRules(_Section):
    increment_cm: float
    vehicle_increment_cm: float
    basic_move_per_value: int
    sprint_card_value: int
    sprint_increment_cm: float
    vehicle_sprint_increment_cm: float
    directions: int
    distance_fractions: tuple
    merge_contact_cm: float
    merge_same_kind_only: bool
    vehicles_merge: bool

    def _validate(self, path):
        for name in ("increment_cm", "vehicle_increment_cm", "sprint_increment_cm",
                     "vehicle_sprint_increment_cm", "merge_contact_cm"):
            _set(self, name, _num(f"{path}.{name}", getattr(self, name)))
        _int(f"{path}.basic_move_per_value", self.basic_move_per_value, lo=0)
        _int(f"{path}.sprint_card_value", self.sprint_card_value, lo=1)
        _int(f"{path}.directions", self.directions, lo=1, hi=360)
        p = f"{path}.distance_fractions"
        _check_type(p, self.distance_fractions, (list, tuple), "a list of numbers")
        fr = tuple(_num(f"{p}[{i}]", v) for i, v in enumerate(self.distance_fractions))
        if not fr or any(f > 1.0 for f in fr) or any(b <= a for a, b in zip(fr, fr[1:])):
            _fail(p, f"must be strictly increasing numbers in (0, 1], got {list(self.distance_fractions)}")
        _set(self, "distance_fractions", fr)
        _bool(f"{path}.merge_same_kind_only", self.merge_same_kind_only)
        _bool(f"{path}.vehicles_merge", self.vehicles_merge)


@dataclass(frozen=True)
class OrdersRules(_Section):
    deck_cards: int
    jokers: int
    experience_bonus: dict
    hand_units: str
    attached_add_cards: bool
    joker_takes_initiative: bool
    basic_max_rank: int
    joker_basic_value: int
    fire_needs_los: bool
    bystander_posture: str
    first_player_alternates: bool

    def _validate(self, path):
        _int(f"{path}.deck_cards", self.deck_cards, lo=4)
        if self.deck_cards % 4:
            _fail(f"{path}.deck_cards", f"must be a multiple of 4 suits, got {self.deck_cards}")
        _int(f"{path}.jokers", self.jokers, lo=0)
        p = f"{path}.experience_bonus"
        _check_type(p, self.experience_bonus, (dict,), "a table")
        levels = {"green", "regular", "veteran", "elite"}
        if set(self.experience_bonus) != levels:
            _fail(p, f"needs exactly the levels {sorted(levels)}, got {sorted(self.experience_bonus)}")
        for k, v in self.experience_bonus.items():
            _int(f"{p}.{k}", v, lo=0)
        _choice(f"{path}.hand_units", self.hand_units, {"setup", "turn"})
        _bool(f"{path}.attached_add_cards", self.attached_add_cards)
        _bool(f"{path}.joker_takes_initiative", self.joker_takes_initiative)
        ranks = self.deck_cards // 4
        _int(f"{path}.basic_max_rank", self.basic_max_rank, lo=1, hi=ranks)
        _int(f"{path}.joker_basic_value", self.joker_basic_value, lo=0)
        _bool(f"{path}.fire_needs_los", self.fire_needs_los)
        _choice(f"{path}.bystander_posture", self.bystander_posture, {"offensive", "defensive"})
        _bool(f"{path}.first_player_alternates", self.first_player_alternates)


@dataclass(frozen=True)
class RallyRules(_Section):
    self_range: int
    comms_range_penalty: int
    markers_removed: int

    def _validate(self, path):
        _int(f"{path}.self_range", self.self_range, lo=0)
        _int(f"{path}.comms_range_penalty", self.comms_range_penalty, lo=0)
        _int(f"{path}.markers_removed", self.markers_removed, lo=1)


@dataclass(frozen=True)
class CallForFireRules(_Section):
    scatter_die: int
    scatter_increment_cm: float
    clock_zero_deg: float
    clockwise: bool
    support_range_band: int
    support_action: str
    support_posture: str
    blast_hits_friends: bool

    def _validate(self, path):
        _int(f"{path}.scatter_die", self.scatter_die, lo=2)
        _set(self, "scatter_increment_cm", _num(f"{path}.scatter_increment_cm", self.scatter_increment_cm))
        _set(self, "clock_zero_deg", _num(f"{path}.clock_zero_deg", self.clock_zero_deg, positive=False))
        _bool(f"{path}.clockwise", self.clockwise)
        _int(f"{path}.support_range_band", self.support_range_band, lo=1)
        _choice(f"{path}.support_action", self.support_action,
                {"basic", "heavy_weapon", "sprint", "dig_in"})
        _choice(f"{path}.support_posture", self.support_posture, {"offensive", "defensive"})
        _bool(f"{path}.blast_hits_friends", self.blast_hits_friends)


@dataclass(frozen=True)
class CleanupRules(_Section):
    split_min_figures: int
    odd_to_larger_half: bool
    morale_success: str
    morale_markers_removed: int
    split_offset_cm: float
    shattered_split_die: str

    def _validate(self, path):
        _int(f"{path}.split_min_figures", self.split_min_figures, lo=2)
        _bool(f"{path}.odd_to_larger_half", self.odd_to_larger_half)
        _choice(f"{path}.morale_success", self.morale_success, {"above_markers"})
        _int(f"{path}.morale_markers_removed", self.morale_markers_removed, lo=1)
        _set(self, "split_offset_cm", _num(f"{path}.split_offset_cm", self.split_offset_cm))
        _choice(f"{path}.shattered_split_die", self.shattered_split_die, {"wounded", "morale"})


@dataclass(frozen=True)
class ArtilleryRules(_Section):
    """Hex artillery, RULES.md section 8 (seed 003): geometry, Fate deck, targeting, impact, smoke."""

    low_columns: str
    compass: tuple
    fate_card_copies: int
    radio_firepower_min: int
    radio_firepower_max: int
    targeting_score: str
    targeting_hit: str
    hindrance_hexes: str
    impact_attack_dice: int
    impact_defense_dice: int
    impact_defense_cover: bool
    impact_defense_roll: str
    impact_equal: str
    impact_broken_again: str
    impact_empty_hex_roll: bool
    smoke_values: tuple
    hex_columns: int
    hex_rows: int

    #: Compass names in the fixed internal order of the hex kernels (clockwise from north).
    DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")

    def _validate(self, path):
        _choice(f"{path}.low_columns", self.low_columns, {"A", "B"})
        p = f"{path}.compass"
        _check_type(p, self.compass, (list, tuple), "a list of 6 compass directions")
        for i, name in enumerate(self.compass):
            _choice(f"{p}[{i}]", name, set(self.DIRECTIONS))
        if sorted(self.compass) != sorted(self.DIRECTIONS):
            _fail(p, f"must name each of {list(self.DIRECTIONS)} once (die faces 1-6), "
                     f"got {list(self.compass)}")
        _set(self, "compass", tuple(self.compass))
        _int(f"{path}.fate_card_copies", self.fate_card_copies, lo=1, hi=1000)
        _int(f"{path}.radio_firepower_min", self.radio_firepower_min, lo=0, hi=1000)
        _int(f"{path}.radio_firepower_max", self.radio_firepower_max, lo=self.radio_firepower_min
             if isinstance(self.radio_firepower_min, int) else 0, hi=1000)
        _choice(f"{path}.targeting_score", self.targeting_score, {"product", "sum"})
        _choice(f"{path}.targeting_hit", self.targeting_hit, {"greater", "greater_or_equal"})
        _choice(f"{path}.hindrance_hexes", self.hindrance_hexes, {"between", "between_and_target"})
        _int(f"{path}.impact_attack_dice", self.impact_attack_dice, lo=1, hi=2)
        _int(f"{path}.impact_defense_dice", self.impact_defense_dice, lo=1, hi=2)
        _bool(f"{path}.impact_defense_cover", self.impact_defense_cover)
        _choice(f"{path}.impact_defense_roll", self.impact_defense_roll, {"per_unit", "per_hex"})
        _choice(f"{path}.impact_equal", self.impact_equal, {"suppressed", "nothing"})
        _choice(f"{path}.impact_broken_again", self.impact_broken_again, {"eliminated", "broken"})
        _bool(f"{path}.impact_empty_hex_roll", self.impact_empty_hex_roll)
        values = _int_list(f"{path}.smoke_values", self.smoke_values, lo=0)
        if not values:
            _fail(f"{path}.smoke_values", "needs at least one smoke marker value")
        _set(self, "smoke_values", values)
        _int(f"{path}.hex_columns", self.hex_columns, lo=1, hi=26)
        _int(f"{path}.hex_rows", self.hex_rows, lo=1, hi=99)

    @property
    def drift_params(self) -> dict:
        """The ``DriftRules`` C struct of ``aa_core.hexmap`` (a dict)."""
        return {
            "face_dir": [self.DIRECTIONS.index(name) for name in self.compass],
            "combine": 0 if self.targeting_score == "product" else 1,
            "strict": 1 if self.targeting_hit == "greater" else 0,
        }

    @property
    def parity(self) -> int:
        """1 if columns B, D, F... (odd 0-based index) sit half a hex lower, 0 for A, C, E..."""
        return 1 if self.low_columns == "B" else 0


_SECTIONS = {
    "dice": DiceRules,
    "fire": FireRules,
    "movement": MovementRules,
    "orders": OrdersRules,
    "rally": RallyRules,
    "call_for_fire": CallForFireRules,
    "cleanup": CleanupRules,
    "artillery": ArtilleryRules,
}
_TABLE5_KEYS = {a: a.name.lower() for a in Action}


@dataclass(frozen=True)
class Rules:
    """The complete, validated rules data (frozen).

    Build with :meth:`default`, :meth:`from_toml`, :meth:`from_dict` or :meth:`replace`; every
    malformed value raises :class:`RulesError` naming the field, e.g. ``'fire.armor_floor'``.
    """

    dice: DiceRules
    table5: dict  # action name -> Table5Row
    fire: FireRules
    movement: MovementRules
    orders: OrdersRules
    rally: RallyRules
    call_for_fire: CallForFireRules
    cleanup: CleanupRules
    artillery: ArtilleryRules
    _cache: dict = field(default_factory=dict, repr=False, compare=False, hash=False)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def default(cls) -> "Rules":
        """The packaged rules (``atomic-africa rules --dump-toml`` prints their file)."""
        return _default()

    @classmethod
    def from_toml(cls, path: str | PathLike) -> "Rules":
        """Load and validate a rules TOML file (same layout as the packaged one)."""
        return cls.from_dict(read_toml(path, RulesError, "rules"))

    @classmethod
    def from_dict(cls, data: dict) -> "Rules":
        """Validate a nested dict (as read from TOML) into a :class:`Rules`."""
        if not isinstance(data, dict):
            raise RulesError(f"rules: expected a table, got {type(data).__name__}")
        allowed = set(_SECTIONS) | {"table5"}
        unknown = sorted(set(data) - allowed)
        if unknown:
            _fail(unknown[0], f"unknown section; allowed: {sorted(allowed)}")
        for name in sorted(allowed - set(data)):
            _fail(name, "missing section")
        kwargs = {name: sec.from_dict(data[name], name) for name, sec in _SECTIONS.items()}
        t5 = data["table5"]
        if not isinstance(t5, dict):
            _fail("table5", "expected a table")
        unknown = sorted(set(t5) - set(_TABLE5_KEYS.values()))
        if unknown:
            _fail(f"table5.{unknown[0]}", f"unknown action; allowed: {sorted(_TABLE5_KEYS.values())}")
        rows = {}
        for action, key in _TABLE5_KEYS.items():
            if key not in t5:
                _fail(f"table5.{key}", "missing")
            rows[key] = Table5Row.from_dict(t5[key], f"table5.{key}")
        attack_actions = {"basic", "sprint", "heavy_weapon", "mass_fire", "split_fire", "dig_in"}
        for key in attack_actions:
            if "attack" not in (rows[key].single, rows[key].pair) and rows[key].pair != "attacks":
                _fail(f"table5.{key}", "an attacking action needs an attack role")
        kwargs["table5"] = rows
        return cls(**kwargs)

    def to_dict(self) -> dict:
        """The nested dict that :meth:`from_dict` reads back (TOML layout)."""
        out = {name: getattr(self, name).to_dict() for name in _SECTIONS}
        out["table5"] = {k: row.to_dict() for k, row in self.table5.items()}
        return out

    def replace(self, **sections: dict) -> "Rules":
        """A copy with some fields changed, e.g. ``rules.replace(fire={"armor_floor": 2})``."""
        data = self.to_dict()
        for name, changes in sections.items():
            if name not in data:
                _fail(name, f"unknown section; allowed: {sorted(data)}")
            if not isinstance(changes, dict):
                _fail(name, "expected a dict of field changes")
            if name == "table5":
                for key, row in changes.items():
                    if key not in data["table5"]:
                        _fail(f"table5.{key}", "unknown action")
                    data["table5"][key].update(row)
            else:
                data[name].update(changes)
        return Rules.from_dict(data)

    def __hash__(self):
        return hash(repr(self.to_dict()))

    def __eq__(self, other):
        return isinstance(other, Rules) and self.to_dict() == other.to_dict()

    def __reduce__(self):
        return (Rules.from_dict, (self.to_dict(),))

    # -- kernel parameters (cached) ---------------------------------------------------------------
    def _cached(self, key, build):
        try:
            return self._cache[key]
        except KeyError:
            value = self._cache[key] = build()
            return value

    @property
    def band_edges(self) -> np.ndarray:
        """Band edges as a read-only float64 array."""
        def build():
            a = np.array(self.fire.band_edges_cm, dtype=np.float64)
            a.setflags(write=False)
            return a
        return self._cached("band_edges", build)

    @property
    def table5_array(self) -> np.ndarray:
        """Table 5 as int8 ``[action, posture, (single_index, single_role, pair_role)]``.

        ``single_index`` is 0 (low) or 2 (high) of the sorted faces; roles are :class:`Role` values.
        """
        def build():
            t = np.zeros((len(Action), len(Posture), 3), dtype=np.int8)
            for action, key in _TABLE5_KEYS.items():
                row = self.table5[key]
                for posture, which in ((Posture.OFFENSIVE, row.offensive),
                                       (Posture.DEFENSIVE, row.defensive)):
                    t[action, posture] = (0 if which == "low" else 2, _ROLE[row.single], _ROLE[row.pair])
            t.setflags(write=False)
            return t
        return self._cached("table5", build)

    @property
    def fire_params(self) -> dict:
        """The fire rules as the ``FireRules`` C struct of ``aa_core.fire`` (a dict)."""
        def build():
            f = self.fire
            return {
                "cover_bonus": list(f.cover_armor_bonus),
                "armor_floor": f.armor_floor,
                "markers_range": [f.markers_beyond_range, f.vehicle_markers_beyond_range],
                "markers_damage": [f.markers_beyond_damage, f.vehicle_markers_beyond_damage],
                "turn_cap": [f.turn_marker_cap, f.vehicle_turn_marker_cap],
            }
        return self._cached("fire_params", build)


@functools.lru_cache(maxsize=1)
def _default() -> Rules:
    text = resources.files("atomic_africa").joinpath("data/rules.toml").read_text(encoding="utf-8")
    return Rules.from_dict(tomllib.loads(text))


def resolve_rules(rules) -> Rules:
    """``None`` -> the default rules; a :class:`Rules` passes; anything else is a TypeError."""
    if rules is None:
        return _default()
    if isinstance(rules, Rules):
        return rules
    raise TypeError(f"rules: expected atomic_africa.Rules or None, got {type(rules).__name__}")
