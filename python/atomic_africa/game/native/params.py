"""The native engine's parameters (``aa_params``, declared in :mod:`.params_schema`) from a game specification.

Each rules section becomes one dict keyed as the C struct's fields: the section's own fields as the rules
data holds them, with the values derived from them added (angles, enum values, padded arrays). A struct
field that comes straight from the rules therefore needs no line here. Arrays (cards, terrain,
templates) go in a second dict, one contiguous numpy array per ``aa_tables`` / ``aa_terrain`` pointer.
:func:`.spec_file.spec_bytes` writes both as a spec file, the one way they reach the C core
(``aa_spec_load``, which also counts the greedy agent's exact-odds tables from Table 5).
"""
from __future__ import annotations

import math

import numpy as np

from aa_core import vgame as _vgame

from ... import _validate as v
from ...dice import DIE_ATTRIBUTES
from ...enums import Action, Posture
from ..scenario import ScenarioError
from ..schema import LIMIT
from ..spec import slot_capacity

__all__ = ["native_params"]

def _limit(name, value, hi, what, error=ValueError):
    if value > hi:
        raise error(f"{name}: {value} {what}; the native engine allows at most {hi}")


def _pad(values, size, fill=0):
    """``values`` as a list of exactly ``size`` (a C array field of a struct)."""
    values = list(values)
    return values + [fill] * (size - len(values))


def _padded(a, dtype):
    """Non-empty contiguous copy (the kernel takes the address of element 0)."""
    a = np.ascontiguousarray(a, dtype=dtype).ravel()
    return a if a.size else np.zeros(1, dtype=dtype)


def _check_slots(p: int, side, rules) -> None:
    """A side's unit slots (its units and what splits can make of its figures, under these rules)
    within the native engine's fixed arrays: a ScenarioError naming the side (the reference engine,
    which has no fixed sizes, plays such a scenario)."""
    cap, most = slot_capacity(side, rules), LIMIT.MAX_SLOTS_TOTAL // 2
    if cap > most:
        split = rules.cleanup.split_min_figures
        raise ScenarioError(
            f"scenario.sides[{p}].units: {len(side.units)} units of {sum(u.figures for u in side.units)} figures "
            f"can become {cap} units (splits down to {max(1, split // 2)} figures, rules.cleanup.split_min_figures "
            f"{split}); the native engine allows at most {most} a side: fewer figures or units")


def _check_limits(spec):
    r, sc = spec.rules, spec.scenario
    m, cff = r.movement, r.call_for_fire
    for p, side in enumerate(sc.sides):   # so 2 * spec.C (the larger side's, twice) is within the total too
        _check_slots(p, side, r)
    _limit("scenario", spec.space.n, LIMIT.MAX_LEGAL, "actions", ScenarioError)
    _limit("rules.orders", spec.deck.size, LIMIT.MAX_CARDS, "cards per deck")
    _limit("rules.movement.directions", m.directions, LIMIT.MAX_DIRECTIONS, "directions")
    _limit("rules.movement.distance_fractions", len(m.distance_fractions), LIMIT.MAX_FRACS, "fractions")
    _limit("rules.call_for_fire.scatter_die", cff.scatter_die, LIMIT.MAX_CLOCK - 1, "sides")
    _limit("rules.fire.band_edges_cm", len(r.fire.band_edges_cm), LIMIT.MAX_EDGES, "edges")
    _limit("rules.dice.ladder", len(r.dice.ladder), LIMIT.MAX_LADDER, "dice")
    _limit("scenario.terrain", len(sc.terrain), LIMIT.MAX_FEATURES, "terrain features")
    for p, side in enumerate(sc.sides):
        _limit(f"scenario.sides[{p}].fire_support", len(side.fire_support), LIMIT.MAX_ASSETS, "assets")
        for k, fs in enumerate(side.fire_support):
            if len(fs.dice) != 3:
                raise ValueError(f"scenario.sides[{p}].fire_support[{k}].dice: "
                                 "the native engine needs 3 dice")


def _call_for_fire(spec) -> dict:
    cff, sides = spec.rules.call_for_fire, spec.scenario.sides
    n = LIMIT.MAX_ASSETS
    return {
        **cff.to_dict(),
        "support_action": int(Action[cff.support_action.upper()]),
        "support_posture": int(Posture[cff.support_posture.upper()]),
        "clock_zero_rad": math.radians(cff.clock_zero_deg),
        "clock_angle": _pad(spec.clock_angle, LIMIT.MAX_CLOCK, 0.0),
        "n_assets": [len(side.fire_support) for side in sides],
        "asset_dice": [_pad([[int(d) for d in a.dice] for a in side.fire_support], n, [0, 0, 0])
                       for side in sides],
        "asset_ap": [_pad([int(a.ap) for a in side.fire_support], n) for side in sides],
        "asset_r2": [_pad([a.blast_radius_cm * a.blast_radius_cm for a in side.fire_support], n, 0.0)
                     for side in sides],
        "asset_blast_cm": [_pad([a.blast_radius_cm for a in side.fire_support], n, 0.0) for side in sides],
    }


def _sections(spec) -> dict:
    """One dict per ``Params`` section (plus the sizes), keyed as the C struct's fields."""
    r, sc = spec.rules, spec.scenario
    m, o, cu, d, f = r.movement, r.orders, r.cleanup, r.dice, r.fire
    t = spec.terrain
    return {
        "C": spec.C, "U": 2 * spec.C, "K": spec.deck.size, "obs_size": spec.observation_size,
        "n_actions": spec.space.n,
        "base": {name.lower(): b for name, b in spec.space.base.items()},
        "movement": {
            **m.to_dict(),
            "distance_fractions": _pad(m.distance_fractions, LIMIT.MAX_FRACS, 0.0),
            "n_fractions": len(m.distance_fractions),
            "dir_angle": _pad(spec.dir_angle, LIMIT.MAX_DIRECTIONS, 0.0),
        },
        "orders": {
            **o.to_dict(),
            "bystander_posture": int(Posture[o.bystander_posture.upper()]),
            "ranks": spec.deck.ranks,
            "draw_bonus": [o.experience_bonus[side.experience] for side in sc.sides],
            "hand_fixed": [-1 if spec.fixed_hand_size(p) is None else spec.fixed_hand_size(p) for p in range(2)],
        },
        "rally": r.rally.to_dict(),
        "call_for_fire": _call_for_fire(spec),
        "cleanup": {**cu.to_dict(), "shattered_if_morale_only": cu.shattered_split_die == "morale"},
        "dice": {
            **d.to_dict(),
            "ladder": _pad(d.ladder, LIMIT.MAX_LADDER),
            "n_ladder": len(d.ladder),
            "shift_attr": [DIE_ATTRIBUTES.index(d.wound_shift_infantry), DIE_ATTRIBUTES.index(d.wound_shift_vehicle)],
        },
        "fire": {
            **f.to_dict(),
            "rules": r.fire_params,
            "band_edges_cm": _pad(r.band_edges.tolist(), LIMIT.MAX_EDGES, 0.0),
            "n_edges": len(r.band_edges),
        },
        "table": {"width_cm": sc.width_cm, "height_cm": sc.height_cm, "mid_x": sc.width_cm / 2,
                  "mid_y": sc.height_cm / 2, "turns": sc.turns},
        "terrain": {"n_poly": len(t.poly_blocks), "n_circ": len(t.circ_blocks), "n_feat": len(sc.terrain),
                    "edge_depth": t.edge_depth_cm},
    }


# Table 5s whose odds tables the C loader has counted in this process: it keeps them (ODDS_SHARED of them,
# csrc/aa_spec.c) and shares them among specs, so only a new Table 5 needs their memory.
_ODDS_COUNTED: set = set()
_ODDS_SHARED = 8


def _check_odds_memory(rules) -> None:
    """MemoryError naming ``rules`` before the C loader counts the greedy agent's exact-odds tables
    (7 MB, from Table 5 alone) when the memory available cannot hold them."""
    key = np.ascontiguousarray(rules.table5_array, dtype=np.int8).tobytes()
    if key in _ODDS_COUNTED:
        return
    v.check_memory(_vgame.ODDS_TABLE_BYTES, "rules", "the greedy agent's exact-odds tables")
    if len(_ODDS_COUNTED) < _ODDS_SHARED:
        _ODDS_COUNTED.add(key)


def _tables(spec) -> dict:
    """The arrays ``Params`` points at, keyed as its pointer fields (``Tables`` and ``Terrain``)."""
    deck, feats, t = spec.deck, spec.scenario.terrain, spec.terrain
    cards = range(deck.size)
    return {
        "card_joker": _padded([deck.is_joker(c) for c in cards], np.int8),
        "card_suit": _padded([deck.suit(c) for c in cards], np.int8),
        "card_rank": _padded([deck.rank(c) for c in cards], np.int8),
        "card_posture": _padded([0 if deck.posture(c) is None else int(deck.posture(c)) for c in cards],
                                np.int8),
        "card_face": _padded([deck.is_face(c) for c in cards], np.int8),
        "card_any": _padded([deck.legal_for(c, True) for c in cards], np.int8),
        "card_move": _padded([deck.move_value(c) for c in cards], np.int32),
        "table5": _padded(spec.rules.table5_array, np.int8),
        "vx": _padded(t.vx, np.float64), "vy": _padded(t.vy, np.float64),
        "poly_off": _padded(t.poly_offsets, np.int64), "poly_blocks": _padded(t.poly_blocks, np.uint8),
        "poly_cover": _padded(t.poly_cover, np.int8),
        "cx": _padded(t.circ_x, np.float64), "cy": _padded(t.circ_y, np.float64),
        "cr": _padded(t.circ_r, np.float64), "circ_blocks": _padded(t.circ_blocks, np.uint8),
        "circ_cover": _padded(t.circ_cover, np.int8),
        "feat_armor": _padded([f.armor for f in feats], np.int32),
        "feat_x": _padded([f.aim_point[0] for f in feats], np.float64),
        "feat_y": _padded([f.aim_point[1] for f in feats], np.float64),
        "feat_cover0": _padded([f.cover for f in feats], np.int8),
        "poly_feat": _padded([i for i, f in enumerate(feats) if f.shape == "polygon"], np.int32),
        "circ_feat": _padded([i for i, f in enumerate(feats) if f.shape == "circle"], np.int32),
    }


def native_params(spec) -> tuple[dict, dict]:
    """The native engine's parameters of a game specification.

    Parameters
    ----------
    spec : GameSpec
        Reads ``scenario``, ``rules``, ``deck``, ``C``, ``space``, ``terrain`` (at the start),
        ``dir_angle``, ``clock_angle``, ``observation_size`` and ``fixed_hand_size(p)``.

    Returns
    -------
    params : dict
        The sizes ``C``, ``U``, ``K``, ``obs_size``, ``n_actions`` and one dict per ``Params``
        section (``base``, ``movement``, ``orders``, ``rally``, ``call_for_fire``, ``cleanup``,
        ``dice``, ``fire``, ``table``, ``terrain``).
    tables : dict of ndarray
        The arrays of the pointer fields (cards, Table 5, terrain, feature targets), each contiguous
        and non-empty; the unit templates are added by the caller.

    Raises
    ------
    ScenarioError
        If a side's units could outgrow the native engine's unit slots (named by the side), or the
        scenario's actions its action space.
    ValueError
        If the scenario or rules exceed another fixed size of the native engine (the message names
        the field and the limit).
    """
    _check_limits(spec)
    _check_odds_memory(spec.rules)
    return _sections(spec), _tables(spec)
