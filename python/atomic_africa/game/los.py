"""Line of sight and cover from the scenario's terrain, through the ``aa_core.geometry`` kernel.

Pure-Python twin: :mod:`atomic_africa.reference.geometry` (same names and argument order).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from aa_core import geometry as _k

from .. import _validate as v
from ..rules import resolve_rules

__all__ = ["TerrainArrays", "los_blocked", "cover_at", "has_los", "cover_of_point"]


@dataclass(frozen=True)
class TerrainArrays:
    """The terrain packed as flat arrays for the kernel (polygons by vertex offsets, circles)."""

    vx: np.ndarray
    vy: np.ndarray
    poly_offsets: np.ndarray
    poly_blocks: np.ndarray
    poly_cover: np.ndarray
    circ_x: np.ndarray
    circ_y: np.ndarray
    circ_r: np.ndarray
    circ_blocks: np.ndarray
    circ_cover: np.ndarray
    edge_depth_cm: float = 0.0   # rules.fire.los_edge_depth_cm

    @classmethod
    def from_scenario(cls, scenario, rules=None, covers=None, skip=-1) -> TerrainArrays:
        """Pack a scenario's terrain features.

        Parameters
        ----------
        scenario : Scenario
            A validated scenario (its ``terrain`` polygons and circles are used).
        rules : Rules, optional
            ``fire.los_edge_depth_cm``; the packaged defaults if omitted.
        covers : sequence of int, optional
            Current cover of each feature (scenario order), when heavy weapons have lowered it
            (RULES.md section 4): a feature with an armor value whose cover is down to None no longer
            blocks line of sight. Default: the scenario's covers.
        skip : int
            Index of a feature left out of line-of-sight blocking (the feature a heavy weapon aims
            at does not hide itself); -1: none.

        Returns
        -------
        TerrainArrays
        """
        covers = [t.cover for t in scenario.terrain] if covers is None else list(covers)
        feats = [(i, t, covers[i]) for i, t in enumerate(scenario.terrain)]
        polys = [f for f in feats if f[1].shape == "polygon"]
        circs = [f for f in feats if f[1].shape == "circle"]

        def blocks(i, t, c):
            return t.blocks_los and i != skip and not (t.armor and c == 0)

        polys_t = [t for _, t, _ in polys]
        off = np.zeros(len(polys) + 1, dtype=np.int64)
        for i, t in enumerate(polys_t):
            off[i + 1] = off[i] + len(t.points)
        vx = np.array([p[0] for t in polys_t for p in t.points], dtype=np.float64)
        vy = np.array([p[1] for t in polys_t for p in t.points], dtype=np.float64)
        return cls(
            vx=vx, vy=vy, poly_offsets=off,
            poly_blocks=np.array([blocks(*f) for f in polys], dtype=np.uint8),
            poly_cover=np.array([c for _, _, c in polys], dtype=np.int8),
            circ_x=np.array([t.center[0] for _, t, _ in circs], dtype=np.float64),
            circ_y=np.array([t.center[1] for _, t, _ in circs], dtype=np.float64),
            circ_r=np.array([t.radius for _, t, _ in circs], dtype=np.float64),
            circ_blocks=np.array([blocks(*f) for f in circs], dtype=np.uint8),
            circ_cover=np.array([c for _, _, c in circs], dtype=np.int8),
            edge_depth_cm=resolve_rules(rules).fire.los_edge_depth_cm,
        )

    def _blocks(self):
        return (self.vx, self.vy, self.poly_offsets, self.poly_blocks, self.circ_x, self.circ_y,
                self.circ_r, self.circ_blocks, self.edge_depth_cm)

    def _covers(self):
        return (self.vx, self.vy, self.poly_offsets, self.poly_cover, self.circ_x, self.circ_y,
                self.circ_r, self.circ_cover)


def _coords(name, *arrays):
    out = [v.float_array(a, n) for a, n in zip(arrays, name)]
    shape = out[0].shape
    for a, n in zip(out, name):
        if a.ndim != 1 or a.shape != shape:
            raise ValueError(f"{n}: expected a 1-D array of the same length as {name[0]}, got {a.shape}")
        if a.size and not np.isfinite(a).all():
            raise ValueError(f"{n}: coordinates must be finite cm")
    return out


def los_blocked(ax, ay, bx, by, terrain: TerrainArrays) -> np.ndarray:
    """Bool array: segment i (A->B) is blocked by LOS-blocking terrain.

    A feature that contains neither end blocks any line touching it. A feature that contains an end
    (a unit inside a wood) blocks it only if more than ``terrain.edge_depth_cm`` per end inside lies
    within it: a unit at the edge of a wood sees out and is seen, a wood between units blocks them,
    and nobody sees through a wood from inside it.

    Parameters
    ----------
    ax, ay, bx, by : array_like of float, shape (n,)
        Segment ends in cm (1-D, equal lengths, finite).
    terrain : TerrainArrays
        The terrain, e.g. ``TerrainArrays.from_scenario(scenario)``.

    Returns
    -------
    ndarray of bool, shape (n,)

    Raises
    ------
    TypeError
        If a coordinate array is not real-valued.
    ValueError
        If the arrays are not 1-D of the same length, or hold non-finite values.
    """
    ax, ay, bx, by = _coords(("ax", "ay", "bx", "by"), ax, ay, bx, by)
    out = np.empty(ax.shape[0], dtype=np.uint8)
    _k.los_blocked(ax, ay, bx, by, *terrain._blocks(), out)
    return out.view(bool)


def cover_at(px, py, terrain: TerrainArrays) -> np.ndarray:
    """Best cover of the terrain features containing each point.

    Parameters
    ----------
    px, py : array_like of float, shape (n,)
        Point coordinates in cm (1-D, equal lengths, finite).
    terrain : TerrainArrays

    Returns
    -------
    ndarray of int8, shape (n,)
        0 No, 1 Light, 2 Heavy cover.

    Raises
    ------
    TypeError
        If a coordinate array is not real-valued.
    ValueError
        If the arrays are not 1-D of the same length, or hold non-finite values.
    """
    px, py = _coords(("px", "py"), px, py)
    out = np.empty(px.shape[0], dtype=np.int8)
    _k.cover_at(px, py, *terrain._covers(), out)
    return out


def has_los(a, b, terrain: TerrainArrays) -> bool:
    """Scalar: is there line of sight between points a and b?

    Parameters
    ----------
    a, b : (float, float)
        Points in cm.
    terrain : TerrainArrays

    Returns
    -------
    bool
    """
    return not _k.los_blocked_scalar(float(a[0]), float(a[1]), float(b[0]), float(b[1]), *terrain._blocks())


def cover_of_point(p, terrain: TerrainArrays) -> int:
    """Scalar cover at point p.

    Parameters
    ----------
    p : (float, float)
        Point in cm.
    terrain : TerrainArrays

    Returns
    -------
    int
        0 No, 1 Light, 2 Heavy cover.
    """
    return int(_k.cover_at_scalar(float(p[0]), float(p[1]), *terrain._covers()))
