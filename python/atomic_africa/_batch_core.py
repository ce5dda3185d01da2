"""Validated array helpers that :mod:`atomic_africa.batch` exports and :mod:`atomic_africa.odds` uses
(the engagement arguments shared by sampling and exact odds, the scatter displacements), below
both so that the exact odds need nothing from the sampling module that builds on them."""
from __future__ import annotations

import math

import numpy as np

from aa_core import fire as _fire

from . import _validate as v
from ._limits import MAX_VALUE
from .enums import Action, Cover, Die, Posture, Role
from .results import Scatter
from .rules import resolve_rules

__all__ = ["engagement_args", "scatter"]


def _n_bands(rules) -> int:
    return len(rules.fire.band_edges_cm) + 1


def scatter(clock, distance, spotting, rules=None):
    """Call for Fire displacements for many rolls of the two d12 (see :func:`atomic_africa.scatter`).

    Parameters
    ----------
    clock, distance : array_like of int
        The direction and distance dice, 1..12, broadcast.
    spotting : array_like of int
        Spotting scores, ``>= 0``.
    rules : Rules, optional

    Returns
    -------
    Scatter of arrays
        ``(dx, dy, direct_hit)``: float64, float64 and bool arrays.
    """
    rules = resolve_rules(rules)
    cff = rules.call_for_fire
    arrays = dict(clock=v.int_array(clock, "clock"), distance=v.int_array(distance, "distance"),
                  spotting=v.int_array(spotting, "spotting"))
    v.check_range(arrays["clock"], "clock", 1, cff.scatter_die)
    v.check_range(arrays["distance"], "distance", 1, cff.scatter_die)
    v.check_range(arrays["spotting"], "spotting", lo=0, hi=MAX_VALUE)
    flat, shape = v.broadcast(**arrays)
    n = flat[0].shape[0]
    dx = np.empty(n)
    dy = np.empty(n)
    _fire.scatter_array(*flat, cff.scatter_die, cff.scatter_increment_cm, math.radians(cff.clock_zero_deg),
                        cff.clockwise, dx, dy)
    hit = (flat[1] - flat[2]) < 0
    return Scatter(dx.reshape(shape), dy.reshape(shape), hit.reshape(shape))


_ATTACKING = (Action.BASIC, Action.SPRINT, Action.HEAVY_WEAPON, Action.MASS_FIRE, Action.SPLIT_FIRE,
              Action.DIG_IN)


def engagement_args(shooter, target, shooter_posture, target_posture, range_band, armor,
                    shooter_action, target_action, cover, ap, vehicle, rules):
    """Validate the arguments shared by simulate_fire and the exact odds; returns a dict."""
    shooter = v.dice_triple(shooter, "shooter", Die)
    target = v.dice_triple(target, "target", Die)
    shooter_posture = v.as_enum(shooter_posture, Posture, "shooter_posture")
    target_posture = v.as_enum(target_posture, Posture, "target_posture")
    shooter_action = v.as_enum(shooter_action, Action, "shooter_action")
    target_action = v.as_enum(target_action, Action, "target_action")
    row = rules.table5_array[shooter_action, shooter_posture]
    if Role.ATTACK not in (row[1], row[2]) and row[2] != Role.ATTACKS:
        allowed = ", ".join(a.name for a in _ATTACKING)
        raise ValueError(f"shooter_action: {shooter_action.name} makes no attack; allowed: {allowed}")
    return dict(
        shooter=shooter, target=target, shooter_posture=shooter_posture,
        target_posture=target_posture, shooter_action=shooter_action, target_action=target_action,
        range_band=v.as_int(range_band, "range_band", lo=1, hi=_n_bands(rules)),
        armor=v.as_int(armor, "armor", lo=1, hi=MAX_VALUE),
        cover=v.as_enum(cover, Cover, "cover"),
        ap=v.as_int(ap, "ap", lo=-MAX_VALUE, hi=0),
        vehicle=v.as_bool(vehicle, "vehicle"),
    )
