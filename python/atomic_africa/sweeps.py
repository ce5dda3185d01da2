"""Sweeps to tables: fire odds over every combination of engagement arguments, as columns.

:func:`fire_sweep` takes the arguments of :func:`atomic_africa.odds.fire_outcomes`, any of them a
list of values to sweep, and returns one row per (combination, outcome) with its exact probability;
:func:`sampled_fire_sweep` rolls ``n`` engagements of each combination (Monte Carlo, one stream per
combination from one seed) and returns the same rows with the counts drawn. Either comes as a dict of
numpy columns, a pandas DataFrame with ``table="pandas"`` (the ``pandas`` extra) or a pyarrow Table
with ``table="arrow"`` (the ``parquet`` extra), writable with ``pyarrow.parquet.write_table``.
"""
from __future__ import annotations

import itertools

import numpy as np

from . import _validate as v
from . import odds
from ._limits import MAX_SWEEP_COMBINATIONS, MAX_SWEEP_SAMPLES
from ._optional import require
from ._seeding import seed_sequence
from .rules import resolve_rules

__all__ = ["fire_sweep", "sampled_fire_sweep", "SWEEP_COLUMNS", "TABLE_KINDS", "MAX_SWEEP_COMBINATIONS",
           "MAX_SWEEP_SAMPLES"]

#: The argument columns of a sweep, in order, then ``markers``, ``wounds``, ``probability``.
SWEEP_COLUMNS = ("shooter", "target", "shooter_posture", "target_posture", "range_band", "armor",
                 "shooter_action", "target_action", "cover", "ap", "vehicle")

#: What a sweep returns: a dict of numpy columns, a pandas DataFrame, a pyarrow Table.
TABLE_KINDS = ("columns", "pandas", "arrow")

#: Engagements a sampled sweep may roll in one call (all cells together): about 100 MB of samples
#: at most in flight per cell, and a sweep that finishes in minutes.


def _values(name, value):
    """The values swept for one argument: a list/tuple/range/array of them, else the one value."""
    if name in ("shooter", "target"):
        # Dice are a string or three dice: a list of such specs is a sweep, three dice are one value.
        if isinstance(value, list) and value and all(isinstance(x, (str, tuple, list)) for x in value):
            return list(value)
        return [value]
    if isinstance(value, (list, tuple, range, np.ndarray)):
        return list(value)
    return [value]


def _label(value):
    if isinstance(value, str):
        return value
    if isinstance(value, (tuple, list)):
        return ",".join(f"d{int(d)}" for d in value)
    return value


def fire_sweep(shooter, target, *, shooter_posture, target_posture, range_band, armor,
               shooter_action=odds.Action.BASIC, target_action=odds.Action.BASIC, cover=odds.Cover.NONE,
               ap=0, vehicle=False, table="columns", rules=None):
    """Exact (markers, wounds) odds of every combination of the given engagement arguments.

    Parameters
    ----------
    shooter, target : dice, or a list of dice
        Three dice (``"d10,d10,d8"`` or ``(10, 10, 8)``), or a list of such (swept).
    shooter_posture, target_posture, range_band, armor, shooter_action, target_action, cover, ap, vehicle
        As in :func:`atomic_africa.odds.fire_outcomes`; a list, tuple, range or array of values is
        swept. Every value is validated as ``fire_outcomes`` validates it (same errors).
    table : {"columns", "pandas", "arrow"}
        ``"columns"``: a dict of numpy arrays; ``"pandas"``: a pandas DataFrame (the ``pandas``
        extra); ``"arrow"``: a pyarrow Table (the ``parquet`` extra).
    rules : Rules, optional

    Returns
    -------
    dict of ndarray, pandas.DataFrame or pyarrow.Table
        One row per combination and outcome of non-zero probability: the argument columns
        (:data:`SWEEP_COLUMNS`; dice as ``"d10,d10,d8"`` text, enums as their int codes), then
        ``markers``, ``wounds`` (after the per-turn cap) and ``probability`` (float64; each
        combination's rows sum to 1).
    """
    rules = resolve_rules(rules)
    _check_table(table)
    cols = {name: [] for name in SWEEP_COLUMNS + ("markers", "wounds", "probability")}
    for args in _combinations(shooter, target, shooter_posture, target_posture, range_band, armor,
                              shooter_action, target_action, cover, ap, vehicle):
        dist = odds.fire_outcomes(**args, rules=rules)
        for (m, w), p in sorted(dist.items()):
            _add_args(cols, args)
            cols["markers"].append(m)
            cols["wounds"].append(w)
            cols["probability"].append(p)
    return _as_table(cols, table, "fire_sweep")


def sampled_fire_sweep(shooter, target, *, shooter_posture, target_posture, range_band, armor, n, seed,
                       shooter_action=odds.Action.BASIC, target_action=odds.Action.BASIC,
                       cover=odds.Cover.NONE, ap=0, vehicle=False, table="columns", threads=1, rules=None):
    """Monte Carlo twin of :func:`fire_sweep`: ``n`` engagements rolled for every combination.

    Parameters
    ----------
    shooter, target, shooter_posture, target_posture, range_band, armor
        As in :func:`fire_sweep`: one value, or a list of values to sweep (same validation, same errors).
    n : int
        Engagements rolled per combination, ``>= 1``.
    seed : int, SeedSequence or Generator
        Required: combination ``i`` (in the order of the rows, the product of the swept lists) draws
        :func:`atomic_africa.batch.simulate_fire` with child ``i`` of ``SeedSequence(seed)``, so the
        same seed gives the same table, and a cell's counts do not depend on the other cells.
    shooter_action, target_action, cover, ap, vehicle
        As in :func:`fire_sweep`.
    table : {"columns", "pandas", "arrow"}
        As in :func:`fire_sweep`.
    threads : int
        OpenMP threads of each cell's ``simulate_fire`` (results do not depend on it).
    rules : Rules, optional

    Returns
    -------
    dict of ndarray, pandas.DataFrame or pyarrow.Table
        The rows of :func:`fire_sweep` (every outcome of non-zero exact probability, same order),
        with ``count`` (int64, engagements of the cell that gave the outcome; may be 0) and
        ``frequency`` (``count / n``, float64) in place of ``probability``.
    """
    from . import batch   # batch imports the odds module this module needs first

    rules = resolve_rules(rules)
    _check_table(table)
    n = v.as_int(n, "n", lo=1, hi=MAX_SWEEP_SAMPLES)
    threads = v.as_threads(threads)
    if seed is None:
        raise ValueError("seed: a sampled sweep needs a seed to be reproducible; allowed a non-negative int, "
                         "numpy.random.SeedSequence or numpy.random.Generator")
    ss = seed_sequence(seed)
    cells = list(_combinations(shooter, target, shooter_posture, target_posture, range_band, armor,
                               shooter_action, target_action, cover, ap, vehicle))
    if n * len(cells) > MAX_SWEEP_SAMPLES:
        raise ValueError(f"n: {n:,} engagements for each of {len(cells):,} combinations is "
                         f"{n * len(cells):,}; allowed at most {MAX_SWEEP_SAMPLES:,} per call")
    cols = {name: [] for name in SWEEP_COLUMNS + ("markers", "wounds", "count", "frequency")}
    for i, args in enumerate(cells):
        child = np.random.SeedSequence(ss.entropy, spawn_key=ss.spawn_key + (i,), pool_size=ss.pool_size)
        m, w = batch.simulate_fire(n, seed=child, threads=threads, rules=rules, **args)
        # One int per outcome, then one bincount: wounds stay below 2**15 (an int16 column).
        drawn = np.bincount(m.astype(np.int64) * (1 << 15) + w)
        for mk, wd in sorted(odds.fire_outcomes(**args, rules=rules)):
            k = mk * (1 << 15) + wd
            c = int(drawn[k]) if k < drawn.shape[0] else 0
            _add_args(cols, args)
            cols["markers"].append(mk)
            cols["wounds"].append(wd)
            cols["count"].append(c)
            cols["frequency"].append(c / n)
    return _as_table(cols, table, "sampled_fire_sweep")


def _check_table(table):
    if not isinstance(table, str) or table not in TABLE_KINDS:
        raise ValueError(f"table: {table!r} is not a table kind; allowed "
                         + ", ".join(repr(k) for k in TABLE_KINDS))


def _combinations(shooter, target, shooter_posture, target_posture, range_band, armor, shooter_action,
                  target_action, cover, ap, vehicle):
    """The swept combinations, as fire_outcomes keyword dicts, in row order (checked not empty and not
    more than MAX_SWEEP_COMBINATIONS)."""
    given = dict(shooter=shooter, target=target, shooter_posture=shooter_posture, target_posture=target_posture,
                 range_band=range_band, armor=armor, shooter_action=shooter_action, target_action=target_action,
                 cover=cover, ap=ap, vehicle=vehicle)
    axes = [_values(name, given[name]) for name in SWEEP_COLUMNS]
    for name, vals in zip(SWEEP_COLUMNS, axes):
        if not vals:
            raise ValueError(f"{name}: an empty list sweeps nothing; allowed one value or a non-empty list")
    n_comb = int(np.prod([len(a) for a in axes], dtype=object))
    if n_comb > MAX_SWEEP_COMBINATIONS:
        raise ValueError(f"sweep: {n_comb:,} combinations; allowed at most {MAX_SWEEP_COMBINATIONS:,} per call")
    return (dict(zip(SWEEP_COLUMNS, combo)) for combo in itertools.product(*axes))


def _add_args(cols, args):
    for name in SWEEP_COLUMNS:
        cols[name].append(_label(args[name]))


def _as_table(cols, table, what):
    out = {}
    for name, vals in cols.items():
        if name in ("shooter", "target"):
            out[name] = np.array(vals, dtype=object)
        elif name == "vehicle":
            out[name] = np.array([bool(x) for x in vals], dtype=bool)
        elif name in ("probability", "frequency"):
            out[name] = np.array(vals, dtype=np.float64)
        else:
            out[name] = np.array([int(x) for x in vals], dtype=np.int64)
    if table == "arrow":
        pa = require("pyarrow", "parquet", f"{what}(table='arrow')")
        return pa.table({k: (v.tolist() if v.dtype == object else v) for k, v in out.items()})
    if table == "pandas":
        pd = require("pandas", "pandas", f"{what}(table='pandas')")
        return pd.DataFrame(out)
    return out
