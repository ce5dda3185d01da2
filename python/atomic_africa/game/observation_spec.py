"""What every float of an observation means, and its true bounds, for a :class:`GameSpec`.

:func:`observation_spec` gives one :class:`Feature` row per float of
:func:`~atomic_africa.game.observe.observe` (and of the native twin, which is bit-equal), built from
the declaration the encoder is written from (a unit slot's floats:
:data:`~atomic_africa.game.schema.UNIT_OBSERVATION`, with their divisors); :func:`observation_bounds`
gives the ``low`` and ``high`` columns as arrays (the environments' ``Box``).

Bounds are true bounds for every reachable state, derived from the scenario and the rules
(:func:`count_limits` explains each): positions are clamped to the table, figures only move
between the units of one side, armour and printed dice never change, and a unit's suppression
markers and wounds are at most what its whole side can receive in the battle. The last two are far
above what games reach: they are guarantees, not typical values.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .observe import COVER_SCALE, UNIT_FEATURES
from .schema import STAGES, UNIT_FIELDS, UNIT_OBSERVATION, allowed, bound_terms

__all__ = ["Feature", "UNIT_LAYOUT", "count_limits", "observation_spec", "observation_bounds",
           "unit_offset", "coordinate_features"]


class Feature(NamedTuple):
    """One float of the observation vector."""

    index: int       #: position in the vector
    segment: str     #: block of the vector: head, stage, piles, hand, own_units, enemy_units, terrain
    name: str        #: short unique name, e.g. ``own3.x``
    meaning: str     #: what it says
    unit: str        #: how the value is scaled, e.g. ``cm / table width (180 cm)``
    low: float       #: smallest value it can take
    high: float      #: largest value it can take
    frame: str = ""  #: ``"x"`` / ``"y"``: a table coordinate (mirrored in the side-relative view)


class _Slot(NamedTuple):
    name: str
    meaning: str
    unit: str        # a key of count_limits, a field (a count bounded by its schema bounds), "flag", "x", "y", "rank"


#: The scale of each encoding of a UnitFeature that is not a count.
_SCALE_OF = {"x": "x", "y": "y", "card_rank": "rank"}

#: The :data:`UNIT_FEATURES` floats of a unit slot, in :func:`observe`'s order (all 0 for an empty
#: slot): :data:`~atomic_africa.game.schema.UNIT_OBSERVATION` with the scale each float is given in.
UNIT_LAYOUT = tuple(_Slot(f.name, f.meaning, (f.limit or f.source) if f.encoding == "count"
                          else _SCALE_OF.get(f.encoding, "flag")) for f in UNIT_OBSERVATION)
_FIELD = {f.name: f for f in UNIT_FIELDS}


class _Limits(NamedTuple):
    figures: int
    markers: int
    wounds: int
    turn_markers: int
    armor: int
    die: int


def count_limits(spec) -> _Limits:
    """The most a unit of ``spec`` can ever hold of each scaled count (before scaling).

    - ``figures``: the larger side's figures at set-up (merges add up figures of one side, splits
      and removals never add any).
    - ``turn_markers``: per-turn cap x slots per side (each unit takes at most the cap per turn,
      ``rules.fire.[vehicle_]turn_marker_cap``; a merged unit carries both counts).
    - ``markers``: markers at set-up of the side + turns x per-turn cap x slots per side (new
      markers are capped per unit and turn; merges only add those of the same side together).
    - ``wounds``: wounds at set-up of the side + turns x (2 x slots per side actions a turn, each
      unit acting at most once) x (at most max(2, slots) attacks of one action on a side: Mass
      Fire's two, a blast's one per unit) x (wounds of one attack: an Attack score is at most two
      faces of the largest die, over ``rules.fire.armor_floor``).
    - ``armor``, ``die``: the largest armour and printed die of the scenario (never changed).

    Parameters
    ----------
    spec : GameSpec

    Returns
    -------
    NamedTuple
        ``figures, markers, wounds, turn_markers, armor, die`` (ints).
    """
    sc, r, C = spec.scenario, spec.rules, spec.C
    units = [u for side in sc.sides for u in side.units]
    cap = max(r.fire.turn_marker_cap, r.fire.vehicle_turn_marker_cap)
    dice = [d for u in units for d in u.dice] + [d for side in sc.sides for a in side.fire_support
                                                   for d in a.dice] + list(r.dice.ladder)
    one_attack = 2 * max(dice) // r.fire.armor_floor
    side_markers = max(sum(u.markers for u in side.units) for side in sc.sides)
    side_wounds = max(sum(u.wounds for u in side.units) for side in sc.sides)
    return _Limits(
        figures=max(spec.initial_figures),
        markers=side_markers + sc.turns * cap * C,
        wounds=side_wounds + sc.turns * 2 * C * max(2, C) * one_attack,
        turn_markers=cap * C,
        armor=max(u.armor for u in units),
        die=max(d for u in units for d in u.dice),
    )


def unit_offset(spec) -> int:
    """Index of the first unit feature (own slot 0's ``alive``) in the observation."""
    return 1 + len(STAGES) + 8 + spec.deck.size


def _unit_rows(spec, lim: _Limits) -> list:
    """(name, meaning, unit text, high, frame) of each float of a unit slot."""
    sc = spec.scenario
    out = []
    for f in UNIT_OBSERVATION:
        if f.encoding == "count":
            most = getattr(lim, f.limit) if f.limit else max(
                allowed(_FIELD[f.source].bounds, bound_terms(spec, side))[1] for side in (0, 1))
            text, high = f"{f.unit} / {f.scale}", most / f.scale
        elif f.encoding == "x":
            text, high = f"cm / table width ({sc.width_cm:g} cm)", 1.0
        elif f.encoding == "y":
            text, high = f"cm / table height ({sc.height_cm:g} cm)", 1.0
        elif f.encoding == "card_rank":
            text, high = f"rank / {spec.deck.ranks}", 1.0
        else:
            text, high = "0 or 1", 1.0
        out.append((f.name, f.meaning, text, high, f.encoding if f.encoding in ("x", "y") else ""))
    return out


def observation_spec(spec) -> tuple:
    """One :class:`Feature` per float of the observation of ``spec`` (in vector order).

    The layout is that of :func:`~atomic_africa.game.observe.observe` for the observing player:
    own unit slots first, then the enemy's, in slot order.

    Parameters
    ----------
    spec : GameSpec or Game
        A game's configuration (a :class:`Game` gives its ``spec``).

    Returns
    -------
    tuple of Feature
        ``len == spec.observation_size``.
    """
    spec = getattr(spec, "spec", spec)
    sc, n = spec.scenario, spec.deck.size
    rows = [("head", "turn", "current turn (1 .. turns)", f"turn / {sc.turns} turns", 1.0, "")]
    rows += [("stage", f"stage_{name.lower()}", f"1: the game is in stage {name} ({doc})", "0 or 1", 1.0, "")
             for name, doc in STAGES]
    rows += [("head", "to_move", "1: the observer decides now", "0 or 1", 1.0, ""),
             ("head", "activating", "1: the observer is the Activating player", "0 or 1", 1.0, "")]
    for who in ("own", "enemy"):
        for pile in ("deck", "discard", "hand"):
            rows.append(("piles", f"{who}_{pile}", f"cards in the {who} {pile}", f"cards / {n}", 1.0, ""))
    rows += [("hand", f"hand_{spec.deck.name(c)}", f"1: card {spec.deck.name(c)} is in the own hand",
              "0 or 1", 1.0, "") for c in range(n)]
    unit = _unit_rows(spec, count_limits(spec))
    for seg, who in (("own_units", "own"), ("enemy_units", "enemy")):
        for k in range(spec.C):
            rows += [(seg, f"{who}{k}.{name}", f"{who} slot {k}: {meaning}", text, high, frame)
                     for name, meaning, text, high, frame in unit]
    rows += [("terrain", f"cover{f}", f"current cover of terrain feature {f} ({t.name}): "
              f"0 none, 1 light, 2 heavy", f"cover level / {COVER_SCALE}", t.cover / COVER_SCALE, "")
             for f, t in enumerate(sc.terrain)]
    assert len(rows) == spec.observation_size
    return tuple(Feature(i, seg, name, meaning, unit_text, 0.0, float(np.float32(high)), frame)
                 for i, (seg, name, meaning, unit_text, high, frame) in enumerate(rows))


def observation_bounds(spec) -> tuple:
    """The ``low`` and ``high`` columns of :func:`observation_spec` as float32 arrays.

    Parameters
    ----------
    spec : GameSpec or Game

    Returns
    -------
    (ndarray, ndarray)
        float32, shape ``(observation_size,)`` each.
    """
    rows = observation_spec(spec)
    return (np.array([f.low for f in rows], dtype=np.float32),
            np.array([f.high for f in rows], dtype=np.float32))


def coordinate_features(spec) -> dict:
    """The table coordinates of the observation: ``{"x": indices, "y": indices, "alive": indices}``.

    ``alive[i]`` is the index of the ``alive`` flag of the slot that coordinate ``i`` belongs to
    (a coordinate is defined only when that flag is 1).
    """
    rows = observation_spec(spec)
    off = unit_offset(spec)
    out = {}
    for axis in ("x", "y"):
        idx = np.array([f.index for f in rows if f.frame == axis], dtype=np.intp)
        out[axis] = idx
    both = np.concatenate([out["x"], out["y"]])
    out["alive"] = off + (both - off) // UNIT_FEATURES * UNIT_FEATURES
    out["both"] = both
    return out
