"""Rules data: every rule number (``atomic-africa rules`` explains each) as a frozen, validated object.

The packaged ``data/rules.toml`` holds the published values and the engine's [default] choices.
Kernels receive these values as arguments; nothing here is compiled.

Every number is bounded so that what the validator accepts every engine computes correctly: the
bound written beside each field below comes from how the kernels (``src/aa_core``) hold and combine
the value (C ``int`` sums, ``int8``/``int16`` tables, fixed-size arrays of the native engine, float
lengths), and each named limit is written once in :mod:`atomic_africa._limits`: ``MAX_CM`` (10,000 cm)
bounds every length, ``MAX_COUNT`` (1,000) every count of markers or cards, ``MAX_VALUE`` (2**30) the
armor the API accepts.
"""
from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, fields
from importlib import resources
from os import PathLike

import numpy as np

from ._fields import Fields
from ._limits import (MAX_BAND_EDGES, MAX_CM, MAX_COUNT, MAX_COVER_BONUS, MAX_DECK, MAX_DIRECTIONS, MAX_FATE_COPIES,
                      MAX_FRACTIONS, MAX_HEX_COLUMNS, MAX_HEX_ROWS, MAX_MARKERS_PER_HIT, MAX_MOVE_PER_VALUE,
                      MAX_RATING, MAX_SCATTER_DIE, MAX_SMOKE_VALUES, MAX_VALUE)
from ._toml import read_toml
from .enums import Action, Posture, Role

__all__ = ["Rules", "RulesError"]


class RulesError(ValueError):
    """A rules file or override is malformed; the message names the field."""


_f = Fields(RulesError, "rules")


class _Section:
    """Base for rules sections: build from a dict, rejecting unknown and missing keys."""

    _name = ""

    @classmethod
    def from_dict(cls, data: dict, path: str):
        names = {f.name for f in fields(cls)}
        _f.table(path, data, sorted(names))
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
        ladder = _f.int_list(f"{path}.ladder", self.ladder, lo=2)
        if len(ladder) < 2 or any(b <= a for a, b in zip(ladder, ladder[1:])):
            _f.fail(f"{path}.ladder", f"must be strictly increasing with 2+ dice, got {list(ladder)}")
        if any(s not in (4, 6, 8, 10, 12) for s in ladder):
            _f.fail(f"{path}.ladder", f"dice must be among d4, d6, d8, d10, d12, got {list(ladder)}")
        _set(self, "ladder", ladder)
        _f.integer(f"{path}.shattered_die", self.shattered_die)
        if self.shattered_die not in ladder:
            _f.fail(f"{path}.shattered_die", f"{self.shattered_die} is not on the ladder {list(ladder)}")
        attrs = ("training", "equipment", "morale")
        _f.choice(f"{path}.wound_shift_infantry", self.wound_shift_infantry, attrs)
        _f.choice(f"{path}.wound_shift_vehicle", self.wound_shift_vehicle, attrs)


@dataclass(frozen=True)
class Table5Row(_Section):
    single: str
    pair: str
    offensive: str
    defensive: str

    def _validate(self, path):
        _f.choice(f"{path}.single", self.single, ("attack", "defense", "rally", "spotting"))
        _f.choice(f"{path}.pair", self.pair, ("attack", "attacks", "defense", "rally", "spotting"))
        if self.single == self.pair:
            _f.fail(f"{path}.pair", f"must differ from single ({self.single!r})")
        if "defense" not in (self.single, self.pair):
            _f.fail(path, "one of single/pair must be 'defense'")
        _f.choice(f"{path}.offensive", self.offensive, ("low", "high"))
        _f.choice(f"{path}.defensive", self.defensive, ("low", "high"))


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
        # lengths: 0..MAX_CM (a distance inside a feature)
        _set(self, "los_edge_depth_cm",
             _f.number(f"{path}.los_edge_depth_cm", self.los_edge_depth_cm, lo=0, hi=MAX_CM))
        # 1..MAX_BAND_EDGES edges (the native engine's table), each in (0, MAX_CM]
        p = f"{path}.band_edges_cm"
        edges = _f.number_list(p, self.band_edges_cm, positive=True, hi=MAX_CM, max_length=MAX_BAND_EDGES)
        if not edges or any(b <= a for a, b in zip(edges, edges[1:])):
            _f.fail(p, f"must be strictly increasing positive numbers, got {list(self.band_edges_cm)}")
        _set(self, "band_edges_cm", edges)
        # 0..MAX_COVER_BONUS each: armor + bonus + ap is one C int
        _set(self, "cover_armor_bonus", _f.int_list(f"{path}.cover_armor_bonus", self.cover_armor_bonus,
                                                    lo=0, hi=MAX_COVER_BONUS, length=3))
        # 1..MAX_VALUE: a C int compared with armor sums and dividing the attack's excess
        _f.integer(f"{path}.armor_floor", self.armor_floor, lo=1, hi=MAX_VALUE)
        # 0..MAX_MARKERS_PER_HIT: int8 markers; feature_defense: band + defense, as a unit's Defense
        for name in ("markers_beyond_range", "markers_beyond_damage", "vehicle_markers_beyond_range",
                     "vehicle_markers_beyond_damage", "turn_marker_cap", "vehicle_turn_marker_cap",
                     "feature_defense"):
            _f.integer(f"{path}.{name}", getattr(self, name), lo=0, hi=MAX_MARKERS_PER_HIT)
        _f.integer(f"{path}.feature_cover_per_wound", self.feature_cover_per_wound, lo=1, hi=2)


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
        # lengths in (0, MAX_CM]: the longest move, card value x per value x increment, stays finite
        for name in ("increment_cm", "vehicle_increment_cm", "sprint_increment_cm",
                     "vehicle_sprint_increment_cm", "merge_contact_cm"):
            _set(self, name, _f.number(f"{path}.{name}", getattr(self, name), positive=True, hi=MAX_CM))
        # card value (<= MAX_COUNT) x per value is a C int product (max_move in src/aa_core/csrc/aa_engine_internal.h)
        _f.integer(f"{path}.basic_move_per_value", self.basic_move_per_value, lo=0, hi=MAX_MOVE_PER_VALUE)
        _f.integer(f"{path}.sprint_card_value", self.sprint_card_value, lo=1, hi=MAX_COUNT)
        # 1..MAX_DIRECTIONS, 1..MAX_FRACTIONS fractions: the native engine's tables
        _f.integer(f"{path}.directions", self.directions, lo=1, hi=MAX_DIRECTIONS)
        p = f"{path}.distance_fractions"
        fr = _f.number_list(p, self.distance_fractions, positive=True, max_length=MAX_FRACTIONS)
        if not fr or any(f > 1.0 for f in fr) or any(b <= a for a, b in zip(fr, fr[1:])):
            _f.fail(p, f"must be strictly increasing numbers in (0, 1], got {list(self.distance_fractions)}")
        _set(self, "distance_fractions", fr)
        _f.boolean(f"{path}.merge_same_kind_only", self.merge_same_kind_only)
        _f.boolean(f"{path}.vehicles_merge", self.vehicles_merge)


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
    reserve_by_choice: bool
    spent_units_react: bool

    def _validate(self, path):
        # with the Jokers at most MAX_DECK cards
        _f.integer(f"{path}.deck_cards", self.deck_cards, lo=4, hi=MAX_DECK)
        if self.deck_cards % 4:
            _f.fail(f"{path}.deck_cards", f"must be a multiple of 4 suits, got {self.deck_cards}")
        _f.integer(f"{path}.jokers", self.jokers, lo=0, hi=MAX_DECK - self.deck_cards)
        p = f"{path}.experience_bonus"
        levels = ("green", "regular", "veteran", "elite")
        if not isinstance(self.experience_bonus, dict):
            _f.expected(p, f"a table of the levels {', '.join(levels)}", self.experience_bonus)
        if set(self.experience_bonus) != set(levels):
            _f.fail(p, f"needs exactly the levels {', '.join(levels)}, "
                       f"got {', '.join(sorted(map(str, self.experience_bonus))) or 'none'}")
        for k, v in self.experience_bonus.items():  # cards in a hand: 0..MAX_COUNT
            _f.integer(f"{p}.{k}", v, lo=0, hi=MAX_COUNT)
        _f.choice(f"{path}.hand_units", self.hand_units, ("setup", "turn"))
        _f.boolean(f"{path}.attached_add_cards", self.attached_add_cards)
        _f.boolean(f"{path}.joker_takes_initiative", self.joker_takes_initiative)
        ranks = self.deck_cards // 4
        _f.integer(f"{path}.basic_max_rank", self.basic_max_rank, lo=1, hi=ranks)
        _f.integer(f"{path}.joker_basic_value", self.joker_basic_value, lo=0, hi=MAX_COUNT)  # as sprint
        _f.boolean(f"{path}.fire_needs_los", self.fire_needs_los)
        _f.choice(f"{path}.bystander_posture", self.bystander_posture, ("offensive", "defensive"))
        _f.boolean(f"{path}.first_player_alternates", self.first_player_alternates)
        _f.boolean(f"{path}.reserve_by_choice", self.reserve_by_choice)
        _f.boolean(f"{path}.spent_units_react", self.spent_units_react)


@dataclass(frozen=True)
class RallyRules(_Section):
    self_range: int
    comms_range_penalty: int
    markers_removed: int

    def _validate(self, path):
        # counts added to a range band and a unit's markers (C int sums): 0..MAX_COUNT
        _f.integer(f"{path}.self_range", self.self_range, lo=0, hi=MAX_COUNT)
        _f.integer(f"{path}.comms_range_penalty", self.comms_range_penalty, lo=0, hi=MAX_COUNT)
        _f.integer(f"{path}.markers_removed", self.markers_removed, lo=1, hi=MAX_COUNT)


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
        # 2..MAX_SCATTER_DIE: the native clock table is indexed by face 1..sides
        _f.integer(f"{path}.scatter_die", self.scatter_die, lo=2, hi=MAX_SCATTER_DIE)
        _set(self, "scatter_increment_cm", _f.number(f"{path}.scatter_increment_cm", self.scatter_increment_cm,
                                                     positive=True, hi=MAX_CM))
        # -360..360 degrees: a turn either way (larger angles only lose precision)
        _set(self, "clock_zero_deg", _f.number(f"{path}.clock_zero_deg", self.clock_zero_deg, lo=-360, hi=360))
        _f.boolean(f"{path}.clockwise", self.clockwise)
        # a range band: 1..MAX_BAND_EDGES + 1
        _f.integer(f"{path}.support_range_band", self.support_range_band, lo=1, hi=MAX_BAND_EDGES + 1)
        _f.choice(f"{path}.support_action", self.support_action, ("basic", "heavy_weapon", "sprint", "dig_in"))
        _f.choice(f"{path}.support_posture", self.support_posture, ("offensive", "defensive"))
        _f.boolean(f"{path}.blast_hits_friends", self.blast_hits_friends)


@dataclass(frozen=True)
class CleanupRules(_Section):
    split_min_figures: int
    odd_to_larger_half: bool
    morale_success: str
    morale_markers_removed: int
    split_offset_cm: float
    shattered_split_die: str

    def _validate(self, path):
        # figures and markers are counts: 2..MAX_COUNT, 1..MAX_COUNT
        _f.integer(f"{path}.split_min_figures", self.split_min_figures, lo=2, hi=MAX_COUNT)
        _f.boolean(f"{path}.odd_to_larger_half", self.odd_to_larger_half)
        _f.choice(f"{path}.morale_success", self.morale_success, ("above_markers",))
        _f.integer(f"{path}.morale_markers_removed", self.morale_markers_removed, lo=1, hi=MAX_COUNT)
        _set(self, "split_offset_cm",
             _f.number(f"{path}.split_offset_cm", self.split_offset_cm, positive=True, hi=MAX_CM))
        _f.choice(f"{path}.shattered_split_die", self.shattered_split_die, ("wounded", "morale"))


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
        _f.choice(f"{path}.low_columns", self.low_columns, ("A", "B"))
        p = f"{path}.compass"
        _f.array(p, self.compass, "a list of 6 compass directions")
        for i, name in enumerate(self.compass):
            _f.choice(f"{p}[{i}]", name, self.DIRECTIONS)
        if sorted(self.compass) != sorted(self.DIRECTIONS):
            _f.fail(p, f"must name each of {', '.join(self.DIRECTIONS)} once (die faces 1-6), "
                       f"got {', '.join(self.compass)}")
        _set(self, "compass", tuple(self.compass))
        _f.integer(f"{path}.fate_card_copies", self.fate_card_copies, lo=1, hi=MAX_FATE_COPIES)
        _f.integer(f"{path}.radio_firepower_min", self.radio_firepower_min, lo=0, hi=MAX_RATING)
        _f.integer(f"{path}.radio_firepower_max", self.radio_firepower_max, lo=self.radio_firepower_min,
                   hi=MAX_RATING)
        _f.choice(f"{path}.targeting_score", self.targeting_score, ("product", "sum"))
        _f.choice(f"{path}.targeting_hit", self.targeting_hit, ("greater", "greater_or_equal"))
        _f.choice(f"{path}.hindrance_hexes", self.hindrance_hexes, ("between", "between_and_target"))
        _f.integer(f"{path}.impact_attack_dice", self.impact_attack_dice, lo=1, hi=2)
        _f.integer(f"{path}.impact_defense_dice", self.impact_defense_dice, lo=1, hi=2)
        _f.boolean(f"{path}.impact_defense_cover", self.impact_defense_cover)
        _f.choice(f"{path}.impact_defense_roll", self.impact_defense_roll, ("per_unit", "per_hex"))
        _f.choice(f"{path}.impact_equal", self.impact_equal, ("suppressed", "nothing"))
        _f.choice(f"{path}.impact_broken_again", self.impact_broken_again, ("eliminated", "broken"))
        _f.boolean(f"{path}.impact_empty_hex_roll", self.impact_empty_hex_roll)
        # hindrances, as a map's (0..1000), summed along a line of sight in a C int; at most 64 values
        values = _f.int_list(f"{path}.smoke_values", self.smoke_values, lo=0, hi=MAX_COUNT,
                             max_length=MAX_SMOKE_VALUES)
        if not values:
            _f.fail(f"{path}.smoke_values", "needs at least one smoke marker value, got none")
        _set(self, "smoke_values", values)
        _f.integer(f"{path}.hex_columns", self.hex_columns, lo=1, hi=MAX_HEX_COLUMNS)
        _f.integer(f"{path}.hex_rows", self.hex_rows, lo=1, hi=MAX_HEX_ROWS)

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
    malformed value raises :class:`RulesError` naming the field and the allowed values, e.g.
    ``rules.fire.armor_floor: 0 is out of range; allowed >= 1``.
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

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def default(cls) -> Rules:
        """The packaged rules (``atomic-africa rules --dump-toml`` prints their file)."""
        return _default()

    @classmethod
    def from_toml(cls, path: str | PathLike) -> Rules:
        """Load and validate a rules TOML file (same layout as the packaged one)."""
        return cls.from_dict(read_toml(path, RulesError, "rules"))

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Validate a nested dict (as read from TOML) into a :class:`Rules`."""
        _f.table("", data, sorted(set(_SECTIONS) | {"table5"}), item="section")
        kwargs = {name: sec.from_dict(data[name], name) for name, sec in _SECTIONS.items()}
        t5 = _f.table("table5", data["table5"], list(_TABLE5_KEYS.values()), item="action")
        rows = {key: Table5Row.from_dict(t5[key], f"table5.{key}") for key in _TABLE5_KEYS.values()}
        attack_actions = {"basic", "sprint", "heavy_weapon", "mass_fire", "split_fire", "dig_in"}
        for key in attack_actions:
            if "attack" not in (rows[key].single, rows[key].pair) and rows[key].pair != "attacks":
                _f.fail(f"table5.{key}", "an attacking action needs an attack role")
        kwargs["table5"] = rows
        _check_support_band(kwargs["call_for_fire"], kwargs["fire"])
        return cls(**kwargs)

    def to_dict(self) -> dict:
        """The nested dict that :meth:`from_dict` reads back (TOML layout)."""
        out = {name: getattr(self, name).to_dict() for name in _SECTIONS}
        out["table5"] = {k: row.to_dict() for k, row in self.table5.items()}
        return out

    def replace(self, **sections: dict) -> Rules:
        """A copy with some fields changed, e.g. ``rules.replace(fire={"armor_floor": 2})``."""
        data = self.to_dict()
        _f.table("", sections, (), data, item="section")
        for name, changes in sections.items():
            if not isinstance(changes, dict):
                _f.expected(name, "a dict of field changes", changes)
            if name == "table5":
                _f.table("table5", changes, (), data["table5"], item="action")
                for key, row in changes.items():
                    if not isinstance(row, dict):
                        _f.expected(f"table5.{key}", "a dict of field changes", row)
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

    # -- kernel parameters: derived from the rules data once per object ----------------------------
    # (Memos of computed results, e.g. odds distributions, are kept by the modules computing them.)
    @functools.cached_property
    def band_edges(self) -> np.ndarray:
        """Band edges as a read-only float64 array."""
        return _read_only(np.array(self.fire.band_edges_cm, dtype=np.float64))

    @functools.cached_property
    def ladder_array(self) -> np.ndarray:
        """The die ladder (sides, ascending) as a read-only int64 array."""
        return _read_only(np.array(self.dice.ladder, dtype=np.int64))

    @functools.cached_property
    def table5_array(self) -> np.ndarray:
        """Table 5 as int8 ``[action, posture, (single_index, single_role, pair_role)]``.

        ``single_index`` is 0 (low) or 2 (high) of the sorted faces; roles are :class:`Role` values.
        """
        t = np.zeros((len(Action), len(Posture), 3), dtype=np.int8)
        for action, key in _TABLE5_KEYS.items():
            row = self.table5[key]
            for posture, which in ((Posture.OFFENSIVE, row.offensive), (Posture.DEFENSIVE, row.defensive)):
                t[action, posture] = (0 if which == "low" else 2, _ROLE[row.single], _ROLE[row.pair])
        return _read_only(t)

    @functools.cached_property
    def fire_params(self) -> dict:
        """The fire rules as the ``FireRules`` C struct of ``aa_core.fire`` (a dict)."""
        f = self.fire
        return {
            "cover_bonus": list(f.cover_armor_bonus),
            "armor_floor": f.armor_floor,
            "markers_range": [f.markers_beyond_range, f.vehicle_markers_beyond_range],
            "markers_damage": [f.markers_beyond_damage, f.vehicle_markers_beyond_damage],
            "turn_cap": [f.turn_marker_cap, f.vehicle_turn_marker_cap],
        }


def _check_support_band(cff: CallForFireRules, fire: FireRules) -> None:
    # A band of the stick the rules give, 1..edges + 1: both engines play those (a band past the
    # stick made the Python Game raise mid-game while VectorGame read past its band table).
    n = len(fire.band_edges_cm)
    if cff.support_range_band > n + 1:
        _f.fail("call_for_fire.support_range_band", f"{cff.support_range_band} is out of range; allowed 1..{n + 1} "
                                                    f"(the bands of rules.fire.band_edges_cm: {n} edges)")


def _read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


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
