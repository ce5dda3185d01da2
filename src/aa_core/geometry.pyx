# cython: language_level=3
"""Line of sight and cover against polygon/circle terrain, many segments or points per call (the C
core's csrc/aa_geometry.h)."""
from libc.stdint cimport int8_t, int64_t, uint8_t

from aa_core.geometry cimport Terrain, terrain_blocked, terrain_cover


cdef Terrain _shapes(const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                     const double[::1] cx, const double[::1] cy, const double[::1] cr):
    """The shapes of packed terrain arrays; flags, covers and features are left NULL for the caller."""
    cdef Terrain t
    t.vx = &vx[0] if vx.shape[0] else NULL
    t.vy = &vy[0] if vy.shape[0] else NULL
    t.poly_off = &off[0]
    t.n_poly = <int>(off.shape[0] - 1)
    t.cx = &cx[0] if cx.shape[0] else NULL
    t.cy = &cy[0] if cy.shape[0] else NULL
    t.cr = &cr[0] if cr.shape[0] else NULL
    t.n_circ = <int>cx.shape[0]
    t.poly_blocks = t.circ_blocks = NULL
    t.poly_cover = t.circ_cover = NULL
    t.poly_feat = t.circ_feat = t.feat_armor = NULL
    t.n_feat = 0
    t.edge_depth = 0.0
    return t


cdef inline Terrain _blocking(const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                              const uint8_t[::1] pblock, const double[::1] cx, const double[::1] cy,
                              const double[::1] cr, const uint8_t[::1] cblock, double depth):
    cdef Terrain t = _shapes(vx, vy, off, cx, cy, cr)
    t.poly_blocks = &pblock[0] if pblock.shape[0] else NULL
    t.circ_blocks = &cblock[0] if cblock.shape[0] else NULL
    t.edge_depth = depth
    return t


cdef inline Terrain _covering(const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                              const int8_t[::1] pcover, const double[::1] cx, const double[::1] cy,
                              const double[::1] cr, const int8_t[::1] ccover):
    cdef Terrain t = _shapes(vx, vy, off, cx, cy, cr)
    t.poly_cover = &pcover[0] if pcover.shape[0] else NULL
    t.circ_cover = &ccover[0] if ccover.shape[0] else NULL
    return t


def los_blocked(const double[::1] ax, const double[::1] ay, const double[::1] bx, const double[::1] by,
                const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                const uint8_t[::1] pblock, const double[::1] cx, const double[::1] cy,
                const double[::1] cr, const uint8_t[::1] cblock, double depth, uint8_t[::1] out):
    """out[i] = 1 if segment i (A->B) is blocked by a LOS-blocking feature (geometry.pxd)."""
    cdef Py_ssize_t i, n = ax.shape[0]
    cdef Terrain t = _blocking(vx, vy, off, pblock, cx, cy, cr, cblock, depth)
    with nogil:
        for i in range(n):
            out[i] = terrain_blocked(&t, NULL, -1, ax[i], ay[i], bx[i], by[i])


def cover_at(const double[::1] px, const double[::1] py,
             const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
             const int8_t[::1] pcover, const double[::1] cx, const double[::1] cy,
             const double[::1] cr, const int8_t[::1] ccover, int8_t[::1] out):
    """out[i] = the best cover (0 No, 1 Light, 2 Heavy) of the features containing point i."""
    cdef Py_ssize_t i, n = px.shape[0]
    cdef Terrain t = _covering(vx, vy, off, pcover, cx, cy, cr, ccover)
    with nogil:
        for i in range(n):
            out[i] = <int8_t>terrain_cover(&t, NULL, px[i], py[i])


def los_blocked_scalar(double ax, double ay, double bx, double by,
                       const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                       const uint8_t[::1] pblock, const double[::1] cx, const double[::1] cy,
                       const double[::1] cr, const uint8_t[::1] cblock, double depth):
    """Scalar twin of los_blocked."""
    cdef Terrain t = _blocking(vx, vy, off, pblock, cx, cy, cr, cblock, depth)
    return bool(terrain_blocked(&t, NULL, -1, ax, ay, bx, by))


def cover_at_scalar(double px, double py,
                    const double[::1] vx, const double[::1] vy, const int64_t[::1] off,
                    const int8_t[::1] pcover, const double[::1] cx, const double[::1] cy,
                    const double[::1] cr, const int8_t[::1] ccover):
    """Scalar twin of cover_at."""
    cdef Terrain t = _covering(vx, vy, off, pcover, cx, cy, cr, ccover)
    return terrain_cover(&t, NULL, px, py)
