"""Sweeps to tables: the exact fire odds over every combination of engagement arguments, as columns.

:func:`fire_sweep` takes the arguments of :func:`atomic_africa.odds.fire_outcomes`, any of them a
list of values to sweep, and returns one row per (combination, outcome) with its exact probability:
a dict of numpy columns (``pandas.DataFrame(cols)`` makes a data frame), or a pyarrow Table with
``table="arrow"`` (the ``parquet`` extra), writable with ``pyarrow.parquet.write_table``.
"""
from __future__ import annotations

import itertools

import numpy as np

from . import odds
from ._limits import MAX_SWEEP_COMBINATIONS
from ._optional import require
from .rules import resolve_rules

__all__ = ["fire_sweep", "SWEEP_COLUMNS", "MAX_SWEEP_COMBINATIONS"]

#: The argument columns of a sweep, in order, then ``markers``, ``wounds``, ``probability``.
SWEEP_COLUMNS = ("shooter", "target", "shooter_posture", "target_posture", "range_band", "armor",
                 "shooter_action", "target_action", "cover", "ap", "vehicle")



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
    table : {"columns", "arrow"}
        ``"columns"``: a dict of numpy arrays; ``"arrow"``: a pyarrow Table (the ``parquet`` extra).
    rules : Rules, optional

    Returns
    -------
    dict of ndarray or pyarrow.Table
        One row per combination and outcome of non-zero probability: the argument columns
        (:data:`SWEEP_COLUMNS`; dice as ``"d10,d10,d8"`` text, enums as their int codes), then
        ``markers``, ``wounds`` (after the per-turn cap) and ``probability`` (float64; each
        combination's rows sum to 1).
    """
    rules = resolve_rules(rules)
    if table not in ("columns", "arrow"):
        raise ValueError(f"table: {table!r} is not a table kind; allowed 'columns', 'arrow'")
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
    cols = {name: [] for name in SWEEP_COLUMNS + ("markers", "wounds", "probability")}
    for combo in itertools.product(*axes):
        args = dict(zip(SWEEP_COLUMNS, combo))
        dist = odds.fire_outcomes(**args, rules=rules)
        for (m, w), p in sorted(dist.items()):
            for name in SWEEP_COLUMNS:
                cols[name].append(_label(args[name]))
            cols["markers"].append(m)
            cols["wounds"].append(w)
            cols["probability"].append(p)
    out = {}
    for name, vals in cols.items():
        if name in ("shooter", "target"):
            out[name] = np.array(vals, dtype=object)
        elif name == "vehicle":
            out[name] = np.array([bool(x) for x in vals], dtype=bool)
        elif name == "probability":
            out[name] = np.array(vals, dtype=np.float64)
        else:
            out[name] = np.array([int(x) for x in vals], dtype=np.int64)
    if table == "arrow":
        pa = require("pyarrow", "parquet", "fire_sweep(table='arrow')")
        return pa.table({k: (v.tolist() if v.dtype == object else v) for k, v in out.items()})
    return out
