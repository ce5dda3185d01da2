# cython: language_level=3
"""Line of sight and cover against polygon/circle terrain, many segments or points per call."""
from libc.stdint cimport int8_t, int64_t, uint8_t

from aa_core.geometry cimport (point_in_circle, point_in_polygon, segment_hits_circle,
                               segment_hits_polygon)


cdef inline bint _blocked(double ax, double ay, double bx, double by,
                          const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                          const uint8_t[::1] pblock, const double[::1] cx, const double[::1] cy,
                          const double[::1] cr, const uint8_t[::1] cblock, double depth) noexcept nogil:
    cdef Py_ssize_t k, np_ = pblock.shape[0], nc = cblock.shape[0]
    for k in range(np_):
        if pblock[k] and segment_hits_polygon(ax, ay, bx, by, &vx[off[k]], &vy[off[k]],
                                              off[k + 1] - off[k], depth):
            return True
    for k in range(nc):
        if cblock[k] and segment_hits_circle(ax, ay, bx, by, cx[k], cy[k], cr[k], depth):
            return True
    return False


cdef inline int _cover(double px, double py,
                       const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                       const int8_t[::1] pcover, const double[::1] cx, const double[::1] cy,
                       const double[::1] cr, const int8_t[::1] ccover) noexcept nogil:
    cdef Py_ssize_t k, np_ = pcover.shape[0], nc = ccover.shape[0]
    cdef int best = 0
    for k in range(np_):
        if pcover[k] > best and point_in_polygon(px, py, &vx[off[k]], &vy[off[k]], off[k + 1] - off[k]):
            best = pcover[k]
    for k in range(nc):
        if ccover[k] > best and point_in_circle(px, py, cx[k], cy[k], cr[k]):
            best = ccover[k]
    return best


def los_blocked(const double[::1] ax, const double[::1] ay, const double[::1] bx, const double[::1] by,
                const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                const uint8_t[::1] pblock, const double[::1] cx, const double[::1] cy,
                const double[::1] cr, const uint8_t[::1] cblock, double depth, uint8_t[::1] out):
    """out[i] = 1 if segment i (A->B) is blocked by a LOS-blocking feature (geometry.pxd)."""
    cdef Py_ssize_t i, n = ax.shape[0]
    with nogil:
        for i in range(n):
            out[i] = _blocked(ax[i], ay[i], bx[i], by[i], vx, vy, off, pblock, cx, cy, cr, cblock, depth)


def cover_at(const double[::1] px, const double[::1] py,
             const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
             const int8_t[::1] pcover, const double[::1] cx, const double[::1] cy,
             const double[::1] cr, const int8_t[::1] ccover, int8_t[::1] out):
    """out[i] = the best cover (0 No, 1 Light, 2 Heavy) of the features containing point i."""
    cdef Py_ssize_t i, n = px.shape[0]
    with nogil:
        for i in range(n):
            out[i] = <int8_t>_cover(px[i], py[i], vx, vy, off, pcover, cx, cy, cr, ccover)


def los_blocked_scalar(double ax, double ay, double bx, double by,
                       const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                       const uint8_t[::1] pblock, const double[::1] cx, const double[::1] cy,
                       const double[::1] cr, const uint8_t[::1] cblock, double depth):
    """Scalar twin of los_blocked."""
    return bool(_blocked(ax, ay, bx, by, vx, vy, off, pblock, cx, cy, cr, cblock, depth))


def cover_at_scalar(double px, double py,
                    const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                    const int8_t[::1] pcover, const double[::1] cx, const double[::1] cy,
                    const double[::1] cr, const int8_t[::1] ccover):
    """Scalar twin of cover_at."""
    return _cover(px, py, vx, vy, off, pcover, cx, cy, cr, ccover)
