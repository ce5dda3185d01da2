"""What every float of an observation means, and its true bounds, for a :class:`GameSpec`.

:func:`observation_spec` gives one :class:`Feature` row per float of
:func:`~atomic_africa.reference.game.observe.observe` (and of the native twin, which is bit-equal), built from
the declaration the encoder is written from (a unit slot's floats:
:data:`~atomic_africa.game.schema.UNIT_OBSERVATION`, with their divisors); :func:`observation_bounds`
gives the ``low`` and ``high`` columns as arrays (the environments' ``Box``).

Two kinds of bounds, both derived from the scenario and the rules:

- **realistic** (``high``; the environments' ``Box``): the scale a learner should normalise by.
  For flags, fractions, coordinates, figures, armour and dice they are the true bounds; for the
  counts that grow over a battle (suppression markers, wounds, markers received this turn) they
  are what a unit can take in practice (:func:`realistic_limits` gives the argument), and they hold
  in every state of thousands of random and greedy games of several battles on both engines
  (``tests/test_observation_spec.py``, ``tests/support/check_observation_bounds.py``); a state
  beyond them is possible in principle, not seen.
- **guaranteed** (``bound``): true bounds for every reachable state (:func:`count_limits` explains
  each), far above what games reach for those counts.

A feature whose bounds are both 0 is constant for the spec (a unit kind, weapon or ability no unit
of the battle has, an action none can declare, a terrain feature without cover, ...):
:func:`compact_indices` lists the others, the features of the environments' ``observation="compact"``.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .observe import COVER_SCALE, UNIT_FEATURES
from .schema import STAGES, UNIT_FIELDS, UNIT_OBSERVATION, allowed, bound_terms

__all__ = ["Feature", "UNIT_LAYOUT", "count_limits", "realistic_limits", "observation_spec",
           "observation_bounds", "compact_indices", "unit_offset", "coordinate_features", "BOUNDS",
           "OBSERVATIONS", "check_observation"]

#: The kinds of bounds :func:`observation_bounds` gives.
BOUNDS = ("realistic", "guaranteed")
#: The observation options of the environments (``observation=``): every feature, or only those not
#: constant for the spec (:func:`compact_indices`).
OBSERVATIONS = ("full", "compact")


def check_observation(value) -> str:
    """``value`` if it is one of :data:`OBSERVATIONS`, else a ValueError naming the allowed values."""
    if not isinstance(value, str) or value not in OBSERVATIONS:
        raise ValueError(f"observation: {value!r} is not an observation option; allowed "
                         + ", ".join(repr(v) for v in OBSERVATIONS))
    return value


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
    bound: float = 0.0  #: its guaranteed bound (``high`` is the realistic one): the largest value of any state


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


def realistic_limits(spec) -> _Limits:
    """The most a unit of ``spec`` holds in practice of each scaled count (before scaling).

    - ``figures``, ``armor``, ``die``: as :func:`count_limits` (true bounds, reached: merges do
      gather a side's figures).
    - ``markers``: set-up markers of the side + 2 x turns x the per-turn cap: a unit gains at most
      the cap a turn and its Clean-up morale roll takes one away; merging with another unit of the
      side at most doubles what it could gather alone.
    - ``turn_markers``: 4 x the per-turn cap (its own cap and those of up to three units merged
      into it this turn).
    - ``wounds``: wounds at set-up of the side + the ladder's length + the wounds of one attack (two
      faces of the largest die over the armour floor): once its wounded die is pushed off the ladder a
      unit is shattered and splits (halving its wounds) or is removed at Clean-up, so what it holds
      beyond the ladder is what the fire of one turn lands before then, in practice one big hit.

    Parameters
    ----------
    spec : GameSpec

    Returns
    -------
    NamedTuple
        ``figures, markers, wounds, turn_markers, armor, die`` (ints), each at most
        :func:`count_limits`'s.
    """
    sc, r = spec.scenario, spec.rules
    true = count_limits(spec)
    cap = max(r.fire.turn_marker_cap, r.fire.vehicle_turn_marker_cap)
    units = [u for side in sc.sides for u in side.units]
    dice = [d for u in units for d in u.dice] + [d for side in sc.sides for a in side.fire_support
                                                   for d in a.dice] + list(r.dice.ladder)
    side_markers = max(sum(u.markers for u in side.units) for side in sc.sides)
    side_wounds = max(sum(u.wounds for u in side.units) for side in sc.sides)
    return _Limits(
        figures=true.figures,
        markers=min(true.markers, side_markers + 2 * sc.turns * cap),
        wounds=min(true.wounds, side_wounds + len(r.dice.ladder) + 2 * max(dice) // r.fire.armor_floor),
        turn_markers=min(true.turn_markers, 4 * cap),
        armor=true.armor, die=true.die)


def _present(spec) -> dict:
    """Which per-unit features can ever be non-zero in games of ``spec`` (by feature name): the
    kinds, weapons and abilities of the scenario's units (splits copy them, merges join units of one
    kind, nothing else gives them) and the actions they allow."""
    units = [u for side in spec.scenario.sides for u in side.units]
    kinds = {int(u.kind) for u in units}
    hwd = any(any(t == "dispersed" for t, _ in u.heavy_weapon) for u in units)
    hwp = any(any(t == "point" for t, _ in u.heavy_weapon) for u in units)
    spotting = any(any(u.spotter for u in side.units) and side.fire_support for side in spec.scenario.sides)
    from ..enums import UnitKind
    out = {f"kind_{k.name.lower()}": int(k) in kinds for k in UnitKind}
    out.update(hw_dispersed=hwd, hw_point=hwp, spotter=any(u.spotter for u in units),
               comms=any(u.comms for u in units), commander=any(u.commander for u in units),
               card_joker=spec.deck.size > spec.rules.orders.deck_cards,
               action_heavy_weapon=hwd or hwp, action_call_for_fire=spotting,
               action_sprint=bool(kinds & {int(UnitKind.LIGHT_INFANTRY), int(UnitKind.VEHICLE)}))
    infantry = bool(kinds - {int(UnitKind.VEHICLE)})
    for a in ("dig_in", "mass_fire", "split_fire"):
        out[f"action_{a}"] = infantry
    return out


def unit_offset(spec) -> int:
    """Index of the first unit feature (own slot 0's ``alive``) in the observation."""
    return 1 + len(STAGES) + 8 + spec.deck.size


def _unit_rows(spec, lim: _Limits, true: _Limits) -> list:
    """(name, meaning, unit text, realistic high, frame, guaranteed high) of each float of a unit slot."""
    sc = spec.scenario
    present = _present(spec)
    out = []
    for f in UNIT_OBSERVATION:
        if f.encoding == "count":
            if f.limit:
                most, sure = getattr(lim, f.limit), getattr(true, f.limit)
            else:
                most = sure = max(allowed(_FIELD[f.source].bounds, bound_terms(spec, side))[1] for side in (0, 1))
            text, high, bound = f"{f.unit} / {f.scale}", most / f.scale, sure / f.scale
        elif f.encoding == "x":
            text, high = f"cm / table width ({sc.width_cm:g} cm)", 1.0
        elif f.encoding == "y":
            text, high = f"cm / table height ({sc.height_cm:g} cm)", 1.0
        elif f.encoding == "card_rank":
            text, high = f"rank / {spec.deck.ranks}", 1.0
        else:
            text, high = "0 or 1", float(present.get(f.name, True))
        if f.encoding != "count":
            bound = high
        out.append((f.name, f.meaning, text, high, f.encoding if f.encoding in ("x", "y") else "", bound))
    return out


def observation_spec(spec) -> tuple:
    """One :class:`Feature` per float of the observation of ``spec`` (in vector order).

    The layout is that of :func:`~atomic_africa.reference.game.observe.observe` for the observing player:
    own unit slots first, then the enemy's, in slot order. ``high`` is the realistic bound,
    ``bound`` the guaranteed one (see the module notes).

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
    many_assets = any(len(a) > 1 for a in spec.assets) and any(
        any(u.spotter for u in side.units) for side in sc.sides)
    rows = [("head", "turn", "current turn (1 .. turns)", f"turn / {sc.turns} turns", 1.0, "")]
    rows += [("stage", f"stage_{name.lower()}", f"1: the game is in stage {name} ({doc})", "0 or 1",
              0.0 if name == "DECLARE_ASSET" and not many_assets else 1.0, "")
             for name, doc in STAGES]
    rows += [("head", "to_move", "1: the observer decides now", "0 or 1", 1.0, ""),
             ("head", "activating", "1: the observer is the Activating player", "0 or 1", 1.0, "")]
    for who in ("own", "enemy"):
        for pile in ("deck", "discard", "hand"):
            rows.append(("piles", f"{who}_{pile}", f"cards in the {who} {pile}", f"cards / {n}", 1.0, ""))
    rows += [("hand", f"hand_{spec.deck.name(c)}", f"1: card {spec.deck.name(c)} is in the own hand",
              "0 or 1", 1.0, "") for c in range(n)]
    rows = [r + (r[4],) for r in rows]
    unit = _unit_rows(spec, realistic_limits(spec), count_limits(spec))
    for seg, who in (("own_units", "own"), ("enemy_units", "enemy")):
        for k in range(spec.C):
            rows += [(seg, f"{who}{k}.{name}", f"{who} slot {k}: {meaning}", text, high, frame, bound)
                     for name, meaning, text, high, frame, bound in unit]
    rows += [("terrain", f"cover{f}", f"current cover of terrain feature {f} ({t.name}): "
              f"0 none, 1 light, 2 heavy", f"cover level / {COVER_SCALE}", t.cover / COVER_SCALE, "",
              t.cover / COVER_SCALE) for f, t in enumerate(sc.terrain)]
    assert len(rows) == spec.observation_size
    return tuple(Feature(i, seg, name, meaning, unit_text, 0.0, float(np.float32(high)), frame,
                         float(np.float32(bound)))
                 for i, (seg, name, meaning, unit_text, high, frame, bound) in enumerate(rows))


def observation_bounds(spec, kind: str = "realistic") -> tuple:
    """The ``low`` and ``high`` (``kind="realistic"``) or ``bound`` (``"guaranteed"``) columns of
    :func:`observation_spec` as float32 arrays.

    Parameters
    ----------
    spec : GameSpec or Game
    kind : {"realistic", "guaranteed"}

    Returns
    -------
    (ndarray, ndarray)
        float32, shape ``(observation_size,)`` each.

    Raises
    ------
    ValueError
        On another ``kind``.
    """
    if kind not in BOUNDS:
        raise ValueError(f"kind: {kind!r}; allowed {', '.join(map(repr, BOUNDS))}")
    if hasattr(spec, "observation_bounds"):          # a padded layout of several battles
        return spec.observation_bounds(kind)
    rows = observation_spec(spec)
    return (np.array([f.low for f in rows], dtype=np.float32),
            np.array([f.high if kind == "realistic" else f.bound for f in rows], dtype=np.float32))


def compact_indices(spec) -> np.ndarray:
    """Indices of the features that are not constant for ``spec`` (guaranteed bound above 0): the
    features of ``observation="compact"``, in vector order.

    Parameters
    ----------
    spec : GameSpec or Game

    Returns
    -------
    ndarray of intp
    """
    if hasattr(spec, "compact_indices"):             # a padded layout of several battles
        return spec.compact_indices()
    return np.array([f.index for f in observation_spec(spec) if f.bound > f.low], dtype=np.intp)


def coordinate_features(spec) -> dict:
    """The table coordinates of the observation: ``{"x": indices, "y": indices, "alive": indices}``.

    ``alive[i]`` is the index of the ``alive`` flag of the slot that coordinate ``i`` belongs to
    (a coordinate is defined only when that flag is 1). Works for a :class:`GameSpec` and for any
    layout with its ``deck`` and ``C`` (a padded one, :mod:`atomic_africa.game.scenarios`).
    """
    spec = getattr(spec, "spec", spec)
    off = unit_offset(spec)
    slots = (np.arange(2 * spec.C) * UNIT_FEATURES)[:, None]
    out = {}
    for axis in ("x", "y"):
        cols = np.array([j for j, f in enumerate(UNIT_OBSERVATION) if f.encoding == axis], dtype=np.intp)
        out[axis] = (off + slots + cols).ravel().astype(np.intp)
    both = np.concatenate([out["x"], out["y"]])
    out["alive"] = off + (both - off) // UNIT_FEATURES * UNIT_FEATURES
    out["both"] = both
    return out
