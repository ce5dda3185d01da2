"""Fire: range bands, predominant cover, one attack's markers and wounds, Call for Fire scatter."""
from __future__ import annotations

import math
import numbers

from aa_core import banding as _band
from aa_core import fire as _k

from ._limits import MAX_VALUE
from ._validate import as_bool, as_enum, as_int, shown
from .enums import Cover
from .results import FireResult, Scatter
from .rules import resolve_rules

__all__ = ["range_band", "band_label", "predominant_cover", "resolve_fire", "effective_armor", "scatter"]


def _distance(value, name="distance_cm") -> float:
    if isinstance(value, (bool,)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a real number of cm, got {type(value).__name__} {shown(value)}")
    try:
        d = float(value)
    except OverflowError:  # an integer beyond float64
        d = math.inf
    if not (d >= 0.0 and math.isfinite(d)):
        raise ValueError(f"{name}: must be a finite distance >= 0 cm, got {shown(value)}")
    return d


def range_band(distance_cm, rules=None) -> int:
    """Range band of a distance on the measuring stick: 1..9 with the packaged stick.

    Parameters
    ----------
    distance_cm : float
        Distance between the In-transit points in cm, finite and ``>= 0``.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.

    Returns
    -------
    int
        The first band whose edge (``rules.fire.band_edges_cm``) is ``>=`` the distance; beyond the
        stick, one more than the number of edges (9 with the packaged 8 edges).
    """
    rules = resolve_rules(rules)
    return _band.range_band_scalar(_distance(distance_cm), rules.band_edges)


def band_label(band: int, rules=None) -> str:
    """A range band with its span on the rules' stick, e.g. ``"band 3 (45-58.5 cm)"``.

    Parameters
    ----------
    band : int
        1 (closest) to one more than the number of band edges (beyond the stick).
    rules : Rules, optional
        Default: the packaged rules.

    Returns
    -------
    str
    """
    edges = resolve_rules(rules).fire.band_edges_cm
    band = as_int(band, "band", lo=1, hi=len(edges) + 1)
    if band > len(edges):
        return f"band {band} (over {edges[-1]:g} cm)"
    low = 0.0 if band == 1 else edges[band - 2]
    return f"band {band} ({low:g}-{edges[band - 1]:g} cm)"


def predominant_cover(start, in_transit, destination) -> Cover:
    """Predominant cover of a target's three points: the middle value (Light, No, Heavy -> Light).

    Parameters
    ----------
    start, in_transit, destination : Cover
        Cover at the Start, In-transit and Destination figures (``Cover`` members, 0..2 or names).

    Returns
    -------
    Cover
    """
    s = as_enum(start, Cover, "start")
    i = as_enum(in_transit, Cover, "in_transit")
    d = as_enum(destination, Cover, "destination")
    return Cover(_k.predominant_cover_scalar(int(s), int(i), int(d)))


def _fire_args(attack, range_band, defense, armor, cover, ap, vehicle, rules):
    n_bands = len(rules.fire.band_edges_cm) + 1
    return (
        as_int(attack, "attack", lo=0, hi=MAX_VALUE),
        as_int(range_band, "range_band", lo=1, hi=n_bands),
        as_int(defense, "defense", lo=0, hi=MAX_VALUE),
        as_int(armor, "armor", lo=1, hi=MAX_VALUE),
        as_enum(cover, Cover, "cover"),
        as_int(ap, "ap", lo=-MAX_VALUE, hi=0),
        as_bool(vehicle, "vehicle"),
    )


def resolve_fire(attack, range_band, defense, armor, cover=Cover.NONE, ap=0, vehicle=False,
                 rules=None) -> FireResult:
    """Suppression markers and wounds of one attack (before the per-turn marker cap).

    Parameters
    ----------
    attack : int
        Attack score, ``>= 0``.
    range_band : int
        Range band, the range threshold: 1..9 with the packaged stick (1..edges + 1).
    defense : int
        Target's Defense score, ``>= 0``; damage threshold = range + defense.
    armor : int
        Target's printed armor, ``>= 1``.
    cover : Cover
        Target's predominant cover (adds ``rules.fire.cover_armor_bonus``).
    ap : int
        Armor penetration of an eligible heavy weapon, ``<= 0`` (0 when not eligible).
    vehicle : bool
        Target is a vehicle (no marker for beating only the range threshold; 1 for damage).

    Returns
    -------
    FireResult
        ``markers`` and ``wounds = (attack - damage threshold) // effective armor`` when the damage
        threshold is beaten.

    Examples
    --------
    The seed's example: Attack 13 at range 3 against Defense 2, armor 2 in Light cover.

    >>> resolve_fire(13, 3, 2, 2, Cover.LIGHT)
    FireResult(markers=2, wounds=2)
    """
    rules = resolve_rules(rules)
    args = _fire_args(attack, range_band, defense, armor, cover, ap, vehicle, rules)
    return FireResult(*_k.resolve_fire_scalar(*args, rules.fire_params))


def effective_armor(armor, cover=Cover.NONE, ap=0, rules=None) -> int:
    """Armor + cover bonus + AP, never below the rules' armor floor.

    Parameters
    ----------
    armor : int
        Printed armor, ``>= 1``.
    cover : Cover
        Predominant cover; adds ``rules.fire.cover_armor_bonus``.
    ap : int
        Armor penetration of an eligible heavy weapon, ``<= 0``.
    rules : Rules, optional

    Returns
    -------
    int
    """
    rules = resolve_rules(rules)
    armor = as_int(armor, "armor", lo=1, hi=MAX_VALUE)
    cover = as_enum(cover, Cover, "cover")
    ap = as_int(ap, "ap", lo=-MAX_VALUE, hi=0)
    return max(armor + rules.fire.cover_armor_bonus[cover] + ap, rules.fire.armor_floor)


def scatter(clock, distance, spotting, rules=None) -> Scatter:
    """Call for Fire: impact displacement from the two scatter dice (clock direction, distance).

    Parameters
    ----------
    clock : int
        Direction die, 1..``rules.call_for_fire.scatter_die`` (a d12 by default: the clock's
        positions are the die's faces; 12 o'clock = towards the top table edge, +y; clockwise).
    distance : int
        Scatter distance die, 1..12.
    spotting : int
        The spotter's Spotting score, ``>= 0``.
    rules : Rules, optional
        ``rules.call_for_fire`` sets the increment (4.5 cm) and the clock orientation.

    Returns
    -------
    Scatter
        ``direct_hit`` when ``distance - spotting < 0``; otherwise the impact moves that many
        increments towards the clock position: ``(dx, dy)`` in cm (0, 0 for an offset of 0).
    """
    rules = resolve_rules(rules)
    cff = rules.call_for_fire
    clock = as_int(clock, "clock", lo=1, hi=cff.scatter_die)
    distance = as_int(distance, "distance", lo=1, hi=cff.scatter_die)
    spotting = as_int(spotting, "spotting", lo=0, hi=MAX_VALUE)
    dx, dy = _k.scatter_scalar(clock, distance, spotting, cff.scatter_die, cff.scatter_increment_cm,
                               math.radians(cff.clock_zero_deg), cff.clockwise)
    return Scatter(dx, dy, distance - spotting < 0)
