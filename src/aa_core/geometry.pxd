# Terrain geometry primitives (RULES.md section 5: cover and line of sight).
# Polygons: vertices vx/vy with offsets off[k]..off[k+1]; circles: centre (cx, cy), radius cr.
# A blocking feature that contains neither end of a sight line blocks it if they touch; one that
# contains an end (a unit inside a wood) blocks it only if more than `depth` cm per end inside lies
# within the feature: units see out of, and into, the edge of a wood, not through it.
from libc.math cimport INFINITY, sqrt
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

cdef enum:
    MAX_CROSSINGS = 64   # edge crossings of one sight line with one polygon handled exactly


cdef inline bint point_in_polygon(double px, double py, const double* vx, const double* vy,
                                  Py_ssize_t n) noexcept nogil:
    """Even-odd ray casting; points exactly on an edge may fall either side."""
    cdef Py_ssize_t i, j = n - 1
    cdef bint inside = False
    for i in range(n):
        if (vy[i] > py) != (vy[j] > py):
            if px < (vx[j] - vx[i]) * (py - vy[i]) / (vy[j] - vy[i]) + vx[i]:
                inside = not inside
        j = i
    return inside


cdef inline bint point_in_circle(double px, double py, double cx, double cy, double r) noexcept nogil:
    return (px - cx) * (px - cx) + (py - cy) * (py - cy) < r * r


cdef inline double _orient(double ax, double ay, double bx, double by, double cx, double cy) noexcept nogil:
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


cdef inline bint segments_cross(double ax, double ay, double bx, double by,
                                double cx, double cy, double dx, double dy) noexcept nogil:
    """Segments AB and CD share a point (touching counts)."""
    cdef double o1 = _orient(ax, ay, bx, by, cx, cy)
    cdef double o2 = _orient(ax, ay, bx, by, dx, dy)
    cdef double o3 = _orient(cx, cy, dx, dy, ax, ay)
    cdef double o4 = _orient(cx, cy, dx, dy, bx, by)
    if ((o1 > 0 and o2 < 0) or (o1 < 0 and o2 > 0)) and ((o3 > 0 and o4 < 0) or (o3 < 0 and o4 > 0)):
        return True
    # collinear / endpoint-touching cases
    if o1 == 0 and min(ax, bx) <= cx <= max(ax, bx) and min(ay, by) <= cy <= max(ay, by):
        return True
    if o2 == 0 and min(ax, bx) <= dx <= max(ax, bx) and min(ay, by) <= dy <= max(ay, by):
        return True
    if o3 == 0 and min(cx, dx) <= ax <= max(cx, dx) and min(cy, dy) <= ay <= max(cy, dy):
        return True
    if o4 == 0 and min(cx, dx) <= bx <= max(cx, dx) and min(cy, dy) <= by <= max(cy, dy):
        return True
    return False


cdef inline double polygon_inside_length(double ax, double ay, double bx, double by,
                                         const double* vx, const double* vy, Py_ssize_t n) noexcept nogil:
    """Length of AB inside the polygon (even-odd); INFINITY past MAX_CROSSINGS edge crossings."""
    cdef double ts[MAX_CROSSINGS + 2]
    cdef double ux = bx - ax, uy = by - ay, ex, ey, den, t, s, mid, total = 0.0
    cdef Py_ssize_t i, j = n - 1, k = 1, m
    ts[0] = 0.0
    for i in range(n):
        ex = vx[i] - vx[j]
        ey = vy[i] - vy[j]
        den = ux * ey - uy * ex
        if den != 0.0:
            t = ((vx[j] - ax) * ey - (vy[j] - ay) * ex) / den
            s = ((vx[j] - ax) * uy - (vy[j] - ay) * ux) / den
            if 0.0 < t < 1.0 and 0.0 <= s <= 1.0:
                if k > MAX_CROSSINGS:
                    return INFINITY
                ts[k] = t
                k += 1
        j = i
    ts[k] = 1.0
    k += 1
    for i in range(1, k):  # insertion sort: k is small
        t = ts[i]
        m = i - 1
        while m >= 0 and ts[m] > t:
            ts[m + 1] = ts[m]
            m -= 1
        ts[m + 1] = t
    for i in range(k - 1):
        if ts[i + 1] > ts[i]:
            mid = 0.5 * (ts[i] + ts[i + 1])
            if point_in_polygon(ax + mid * ux, ay + mid * uy, vx, vy, n):
                total += ts[i + 1] - ts[i]
    return total * sqrt(ux * ux + uy * uy)


cdef inline double circle_inside_length(double ax, double ay, double bx, double by,
                                        double cx, double cy, double r) noexcept nogil:
    """Length of AB inside the open disc."""
    cdef double ux = bx - ax, uy = by - ay, fx = ax - cx, fy = ay - cy
    cdef double a = ux * ux + uy * uy, b = 2.0 * (fx * ux + fy * uy), c = fx * fx + fy * fy - r * r
    cdef double disc, sq, t1, t2
    if a == 0.0:
        return 0.0
    disc = b * b - 4.0 * a * c
    if disc <= 0.0:
        return 0.0
    sq = sqrt(disc)
    t1 = (-b - sq) / (2.0 * a)
    t2 = (-b + sq) / (2.0 * a)
    t1 = 0.0 if t1 < 0.0 else (1.0 if t1 > 1.0 else t1)
    t2 = 0.0 if t2 < 0.0 else (1.0 if t2 > 1.0 else t2)
    return (t2 - t1) * sqrt(a) if t2 > t1 else 0.0


cdef inline bint segment_hits_polygon(double ax, double ay, double bx, double by,
                                      const double* vx, const double* vy, Py_ssize_t n,
                                      double depth) noexcept nogil:
    """AB blocked by the polygon (see the module comment for ends inside it)."""
    cdef Py_ssize_t i, j = n - 1
    cdef int ends_in = point_in_polygon(ax, ay, vx, vy, n) + point_in_polygon(bx, by, vx, vy, n)
    if ends_in:
        return polygon_inside_length(ax, ay, bx, by, vx, vy, n) > depth * ends_in
    for i in range(n):
        if segments_cross(ax, ay, bx, by, vx[j], vy[j], vx[i], vy[i]):
            return True
        j = i
    return False


cdef inline bint segment_hits_circle(double ax, double ay, double bx, double by,
                                     double cx, double cy, double r, double depth) noexcept nogil:
    """AB blocked by the disc: passes closer than r to the centre (see the module comment for ends
    inside it)."""
    cdef double ux = bx - ax, uy = by - ay, L2 = ux * ux + uy * uy, t, qx, qy
    cdef int ends_in = point_in_circle(ax, ay, cx, cy, r) + point_in_circle(bx, by, cx, cy, r)
    if ends_in:
        return circle_inside_length(ax, ay, bx, by, cx, cy, r) > depth * ends_in
    t = 0.0
    if L2 > 0:
        t = ((cx - ax) * ux + (cy - ay) * uy) / L2
        if t < 0:
            t = 0.0
        elif t > 1:
            t = 1.0
    qx = ax + t * ux - cx
    qy = ay + t * uy - cy
    return qx * qx + qy * qy < r * r


ctypedef struct Terrain:
    # Polygon k: vertices vx/vy[poly_off[k]..poly_off[k + 1]]; circle k: centre (cx, cy), radius cr.
    # *_blocks / *_cover: each shape's line-of-sight flag and cover as packed (NULL if unused).
    # *_feat: each shape's feature (scenario order) and feat_armor each feature's armor (0: heavy
    # weapons cannot bring it down); NULL when no current cover is passed to the walkers below.
    const double* vx
    const double* vy
    const int64_t* poly_off
    const uint8_t* poly_blocks
    const int8_t* poly_cover
    const int32_t* poly_feat
    int n_poly
    const double* cx
    const double* cy
    const double* cr
    const uint8_t* circ_blocks
    const int8_t* circ_cover
    const int32_t* circ_feat
    int n_circ
    const int32_t* feat_armor
    int n_feat
    double edge_depth   # rules.fire.los_edge_depth_cm


cdef inline bint _blocks_now(const Terrain* t, const int8_t* fcover, int f, int skip) noexcept nogil:
    """Feature f still blocks: not the skipped one, and not an armored feature whose cover heavy
    weapons have brought down to None (TerrainArrays.from_scenario)."""
    return f != skip and not (t.feat_armor[f] > 0 and fcover[f] == 0)


cdef inline bint terrain_blocked(const Terrain* t, const int8_t* fcover, int skip, double ax, double ay,
                                 double bx, double by) noexcept nogil:
    """Sight line A-B blocked by a blocking shape. fcover: each feature's current cover, with which
    `skip` (a feature, -1: none) is left out and knocked-down features stop blocking; NULL: the
    packed *_blocks flags as they are."""
    cdef int k
    cdef int64_t o
    for k in range(t.n_poly):
        o = t.poly_off[k]
        if t.poly_blocks[k] and (fcover == NULL or _blocks_now(t, fcover, t.poly_feat[k], skip)) \
                and segment_hits_polygon(ax, ay, bx, by, t.vx + o, t.vy + o, t.poly_off[k + 1] - o,
                                         t.edge_depth):
            return True
    for k in range(t.n_circ):
        if t.circ_blocks[k] and (fcover == NULL or _blocks_now(t, fcover, t.circ_feat[k], skip)) \
                and segment_hits_circle(ax, ay, bx, by, t.cx[k], t.cy[k], t.cr[k], t.edge_depth):
            return True
    return False


cdef inline int terrain_cover(const Terrain* t, const int8_t* fcover, double px, double py) noexcept nogil:
    """Best cover of the shapes containing the point: each feature's current cover fcover[feature],
    or with fcover NULL the packed *_cover values."""
    cdef int k, c, best = 0
    cdef int64_t o
    for k in range(t.n_poly):
        o = t.poly_off[k]
        c = t.poly_cover[k] if fcover == NULL else fcover[t.poly_feat[k]]
        if c > best and point_in_polygon(px, py, t.vx + o, t.vy + o, t.poly_off[k + 1] - o):
            best = c
    for k in range(t.n_circ):
        c = t.circ_cover[k] if fcover == NULL else fcover[t.circ_feat[k]]
        if c > best and point_in_circle(px, py, t.cx[k], t.cy[k], t.cr[k]):
            best = c
    return best
