# Terrain geometry primitives (RULES.md section 5: cover and line of sight).
# Polygons: vertices vx/vy with offsets off[k]..off[k+1]; circles: centre (cx, cy), radius cr.


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


cdef inline bint segment_hits_polygon(double ax, double ay, double bx, double by,
                                      const double* vx, const double* vy, Py_ssize_t n) noexcept nogil:
    """AB blocked by the polygon: it crosses an edge and neither end lies inside it."""
    cdef Py_ssize_t i, j = n - 1
    if point_in_polygon(ax, ay, vx, vy, n) or point_in_polygon(bx, by, vx, vy, n):
        return False
    for i in range(n):
        if segments_cross(ax, ay, bx, by, vx[j], vy[j], vx[i], vy[i]):
            return True
        j = i
    return False


cdef inline bint segment_hits_circle(double ax, double ay, double bx, double by,
                                     double cx, double cy, double r) noexcept nogil:
    """AB blocked by the disc: passes closer than r to the centre and neither end lies inside."""
    cdef double ux = bx - ax, uy = by - ay, L2 = ux * ux + uy * uy, t, qx, qy
    if point_in_circle(ax, ay, cx, cy, r) or point_in_circle(bx, by, cx, cy, r):
        return False
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
