"""Pure-Python twin of the terrain geometry kernel (``aa_core.geometry``): LOS and cover.

Same names and argument order as :mod:`atomic_africa.game.los`; ``terrain`` is a
:class:`atomic_africa.game.los.TerrainArrays` (or anything with the same attributes).
"""
from __future__ import annotations

import math

__all__ = ["los_blocked", "cover_at", "point_in_polygon", "segments_cross", "polygon_inside_length",
           "circle_inside_length"]


def point_in_polygon(px, py, poly):
    """Even-odd ray casting over the vertex list ``poly`` [(x, y), ...]."""
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > py) != (yj > py):
            if px < (xj - xi) * (py - yi) / (yj - yi) + xi:
                inside = not inside
        j = i
    return inside


def _orient(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _on(a, b, p):
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_cross(a, b, c, d):
    """Segments AB and CD share a point (touching counts)."""
    o1, o2, o3, o4 = _orient(a, b, c), _orient(a, b, d), _orient(c, d, a), _orient(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    return ((o1 == 0 and _on(a, b, c)) or (o2 == 0 and _on(a, b, d)) or (o3 == 0 and _on(c, d, a))
            or (o4 == 0 and _on(c, d, b)))


def _in_circle(p, c, r):
    return (p[0] - c[0]) ** 2 + (p[1] - c[1]) ** 2 < r * r


def _polygons(terrain):
    off = [int(o) for o in terrain.poly_offsets]
    for k in range(len(off) - 1):
        yield k, [(float(terrain.vx[i]), float(terrain.vy[i])) for i in range(off[k], off[k + 1])]


def polygon_inside_length(a, b, poly):
    """Length of AB inside the polygon: split AB where it crosses edges, keep inside pieces."""
    ux, uy = b[0] - a[0], b[1] - a[1]
    ts = [0.0, 1.0]
    for i in range(len(poly)):
        (cx, cy), (dx, dy) = poly[i - 1], poly[i]
        ex, ey = dx - cx, dy - cy
        den = ux * ey - uy * ex
        if den == 0:
            continue
        t = ((cx - a[0]) * ey - (cy - a[1]) * ex) / den
        s = ((cx - a[0]) * uy - (cy - a[1]) * ux) / den
        if 0 < t < 1 and 0 <= s <= 1:
            ts.append(t)
    if len(ts) > 66:
        return math.inf  # the kernel's MAX_CROSSINGS
    ts.sort()
    inside = sum(t1 - t0 for t0, t1 in zip(ts, ts[1:])
                 if t1 > t0 and point_in_polygon(a[0] + (t0 + t1) / 2 * ux, a[1] + (t0 + t1) / 2 * uy, poly))
    return inside * math.hypot(ux, uy)


def circle_inside_length(a, b, c, r):
    """Length of AB inside the open disc of centre c and radius r."""
    ux, uy = b[0] - a[0], b[1] - a[1]
    fx, fy = a[0] - c[0], a[1] - c[1]
    qa, qb, qc = ux * ux + uy * uy, 2 * (fx * ux + fy * uy), fx * fx + fy * fy - r * r
    disc = qb * qb - 4 * qa * qc
    if qa == 0 or disc <= 0:
        return 0.0
    t1 = min(max((-qb - math.sqrt(disc)) / (2 * qa), 0.0), 1.0)
    t2 = min(max((-qb + math.sqrt(disc)) / (2 * qa), 0.0), 1.0)
    return (t2 - t1) * math.sqrt(qa) if t2 > t1 else 0.0


def _blocked(a, b, terrain):
    depth = float(getattr(terrain, "edge_depth_cm", 0.0))
    for k, poly in _polygons(terrain):
        if not terrain.poly_blocks[k]:
            continue
        ends_in = point_in_polygon(*a, poly) + point_in_polygon(*b, poly)
        if ends_in:
            if polygon_inside_length(a, b, poly) > depth * ends_in:
                return True
        elif any(segments_cross(a, b, poly[i - 1], poly[i]) for i in range(len(poly))):
            return True
    for k in range(len(terrain.circ_r)):
        if not terrain.circ_blocks[k]:
            continue
        c, r = (float(terrain.circ_x[k]), float(terrain.circ_y[k])), float(terrain.circ_r[k])
        ends_in = _in_circle(a, c, r) + _in_circle(b, c, r)
        if ends_in:
            if circle_inside_length(a, b, c, r) > depth * ends_in:
                return True
            continue
        ux, uy = b[0] - a[0], b[1] - a[1]
        L2 = ux * ux + uy * uy
        t = 0.0 if L2 == 0 else min(max(((c[0] - a[0]) * ux + (c[1] - a[1]) * uy) / L2, 0.0), 1.0)
        if (a[0] + t * ux - c[0]) ** 2 + (a[1] + t * uy - c[1]) ** 2 < r * r:
            return True
    return False


def los_blocked(ax, ay, bx, by, terrain):
    """List of bools: segment i blocked by LOS-blocking terrain (features containing an end block
    only past ``terrain.edge_depth_cm`` inside them per end inside)."""
    return [_blocked((float(ax[i]), float(ay[i])), (float(bx[i]), float(by[i])), terrain)
            for i in range(len(ax))]


def cover_at(px, py, terrain):
    """List of ints: the best cover (0 No, 1 Light, 2 Heavy) of the features containing each point."""
    out = []
    for i in range(len(px)):
        p = (float(px[i]), float(py[i]))
        best = 0
        for k, poly in _polygons(terrain):
            if terrain.poly_cover[k] > best and point_in_polygon(*p, poly):
                best = int(terrain.poly_cover[k])
        for k in range(len(terrain.circ_r)):
            if terrain.circ_cover[k] > best and _in_circle(
                    p, (float(terrain.circ_x[k]), float(terrain.circ_y[k])), float(terrain.circ_r[k])):
                best = int(terrain.circ_cover[k])
        out.append(best)
    return out
