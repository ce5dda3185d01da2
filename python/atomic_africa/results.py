"""Small immutable result types returned by the scalar API."""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["Scores", "FireResult", "Scatter"]


class Scores(NamedTuple):
    """Action scores of one roll (Table 5).

    ``attacks`` holds 0, 1 or 2 Attack scores; two attacks are in ascending order, so for Split Fire
    the target declared at Declaration faces ``attacks[-1]``. Fields that the action does not have are
    ``None``.
    """

    attacks: tuple
    defense: int
    rally: int | None = None
    spotting: int | None = None
    sprint_bonus: int | None = None


class FireResult(NamedTuple):
    """Suppression markers and wound counters: ints for one attack, arrays from :mod:`atomic_africa.batch`."""

    markers: int
    wounds: int


class Scatter(NamedTuple):
    """Call for Fire impact: displacement in cm and whether it was a direct hit (offset < 0);
    arrays from :mod:`atomic_africa.batch`."""

    dx: float
    dy: float
    direct_hit: bool
