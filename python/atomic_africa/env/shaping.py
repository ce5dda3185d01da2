"""Potential-based reward shaping for the Gymnasium envs (``shaping=``), off by default.

Shaping after Ng, Harada & Russell (1999): each learner step's reward becomes

    r'_t = r_t + gamma * Phi(s_{t+1}) - Phi(s_t),    Phi(terminal) = 0,

where ``s_t`` is the state at the learner's decision and ``s_{t+1}`` the state at its next decision
(or the end of the game). With the learner's discount equal to ``gamma`` the optimal policies are those
of the unshaped game; the game's own reward (+1 / -1 / 0 at the end) is unchanged, and over a whole
episode the shaping terms sum to ``-Phi(s_0)`` when ``gamma = 1`` (they telescope).

The potential, from the learner's side ``p`` (enemy ``q = 1 - p``), over the live units:

    Phi(s) = scale * (value_p - value_q),
    value_x = (figures_x - wound_weight * wounds_x - marker_weight * markers_x) / start_figures_x,

``figures_x``, ``wounds_x``, ``markers_x``: side ``x``'s figures, wound counters and suppression
markers; ``start_figures_x``: its figures at set-up. A figure is worth 1/start of a side's strength, a
wound ``wound_weight`` figures (wounds shatter and split units, which is how figures are lost) and a
suppression marker ``marker_weight`` figures.
"""
from __future__ import annotations

import dataclasses
import math
import numbers

import numpy as np

from ..game.native.vector import SIDE_TOTALS

__all__ = ["RewardShaping", "shaping_config", "potentials", "game_totals", "start_figures"]

_FIELDS = ("scale", "gamma", "wound_weight", "marker_weight")


@dataclasses.dataclass(frozen=True)
class RewardShaping:
    """Parameters of the shaping potential (see the module notes for the formula).

    Parameters
    ----------
    scale : float
        Factor of the potential (> 0); 1 makes ``|Phi| <= ~1``, the size of the game's reward.
    gamma : float
        The discount of the shaping term, in [0, 1]; set it to the learner's discount.
    wound_weight : float
        Figures one wound counter is worth (>= 0).
    marker_weight : float
        Figures one suppression marker is worth (>= 0).

    Raises
    ------
    TypeError, ValueError
        On a non-real or out-of-range value, naming ``shaping.<field>``.
    """

    scale: float = 1.0
    gamma: float = 0.99
    wound_weight: float = 0.5
    marker_weight: float = 0.25

    def __post_init__(self):
        for name in _FIELDS:
            x = getattr(self, name)
            if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
                raise TypeError(f"shaping.{name}: expected a real number, got {type(x).__name__} {x!r}")
            try:
                x = float(x)
            except OverflowError:       # an int beyond the float range
                x = math.inf
            if not math.isfinite(x):
                raise ValueError(f"shaping.{name}: {x!r} is not finite")
            object.__setattr__(self, name, x)
        if self.scale <= 0:
            raise ValueError(f"shaping.scale: {self.scale!r} is out of range; allowed > 0")
        if not 0.0 <= self.gamma <= 1.0:
            raise ValueError(f"shaping.gamma: {self.gamma!r} is out of range; allowed 0 <= gamma <= 1")
        for name in ("wound_weight", "marker_weight"):
            if getattr(self, name) < 0:
                raise ValueError(f"shaping.{name}: {getattr(self, name)!r} is out of range; allowed >= 0")


def shaping_config(value) -> RewardShaping | None:
    """The ``shaping=`` argument of an env as a :class:`RewardShaping` (``None``: no shaping).

    Parameters
    ----------
    value : None, bool, dict or RewardShaping
        ``None`` / ``False``: off; ``True``: the defaults; a dict of some of ``scale``, ``gamma``,
        ``wound_weight``, ``marker_weight``.

    Returns
    -------
    RewardShaping or None

    Raises
    ------
    TypeError, ValueError
        Naming ``shaping`` (and the field) and what is allowed.
    """
    if value is None or value is False:
        return None
    if value is True:
        return RewardShaping()
    if isinstance(value, RewardShaping):
        return value
    if isinstance(value, dict):
        unknown = sorted(repr(k) for k in value if k not in _FIELDS)
        if unknown:
            raise ValueError(f"shaping: unknown key(s) {', '.join(unknown)}; allowed {list(_FIELDS)}")
        return RewardShaping(**value)
    raise TypeError(f"shaping: expected None, True, a dict of {list(_FIELDS)} or a RewardShaping, "
                    f"got {type(value).__name__}")


def start_figures(spec) -> np.ndarray:
    """(2,) float64: each side's figures at set-up (the denominators of the potential)."""
    out = np.zeros(2)
    for u in spec.initial_units():
        if u.alive:
            out[u.side] += u.figures
    return np.maximum(out, 1.0)    # a side with no figures at set-up: no division by zero


def game_totals(game) -> np.ndarray:
    """(2, 3) int64: each side's live ``figures``, ``wounds``, ``markers`` in a ``Game`` (the order of
    :data:`~atomic_africa.game.native.vector.SIDE_TOTALS`, as ``VectorGame.side_totals``)."""
    out = np.zeros((2, len(SIDE_TOTALS)), dtype=np.int64)
    for u in game.units:
        if u.alive:
            out[u.side] += [getattr(u, f) for f in SIDE_TOTALS]
    return out


def potentials(totals, start, players, shaping: RewardShaping) -> np.ndarray:
    """Phi of each state from its learner's side (the module's formula), vectorised.

    Parameters
    ----------
    totals : ndarray of int, shape (..., 2, 3)
        Per side: figures, wounds, markers (:func:`game_totals`, ``VectorGame.side_totals``).
    start : ndarray of float, shape (2,)
        :func:`start_figures`.
    players : ndarray of int, shape (...)
        The learner's side of each state.
    shaping : RewardShaping

    Returns
    -------
    ndarray of float64, shape (...)
    """
    # elementwise operations only (no reductions): the same floats for one state as for a batch
    t = np.asarray(totals, dtype=np.float64)
    value = (t[..., 0] - shaping.wound_weight * t[..., 1] - shaping.marker_weight * t[..., 2]) / start
    first = np.asarray(players) == 0
    own = np.where(first, value[..., 0], value[..., 1])
    enemy = np.where(first, value[..., 1], value[..., 0])
    return shaping.scale * (own - enemy)
