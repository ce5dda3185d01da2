# Terrain geometry primitives (RULES.md section 5: cover and line of sight): the C core's
# csrc/aa_geometry.h, declared for Cython.
# Polygons: vertices vx/vy with offsets off[k]..off[k+1]; circles: centre (cx, cy), radius cr.
# A blocking feature that contains neither end of a sight line blocks it if they touch; one that
# contains an end (a unit inside a wood) blocks it only if more than `depth` cm per end inside lies
# within the feature: units see out of, and into, the edge of a wood, not through it.
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

cdef extern from "csrc/aa_geometry.h" nogil:
    enum:
        MAX_CROSSINGS "AA_MAX_CROSSINGS"   # edge crossings of one sight line with one polygon handled exactly

    # Even-odd ray casting; points exactly on an edge may fall either side.
    bint point_in_polygon "aa_point_in_polygon"(double px, double py, const double* vx, const double* vy,
                                                ptrdiff_t n) noexcept
    bint point_in_circle "aa_point_in_circle"(double px, double py, double cx, double cy, double r) noexcept
    # Segments AB and CD share a point (touching counts).
    bint segments_cross "aa_segments_cross"(double ax, double ay, double bx, double by,
                                            double cx, double cy, double dx, double dy) noexcept
    # Length of AB inside the polygon (even-odd); INFINITY past MAX_CROSSINGS edge crossings.
    double polygon_inside_length "aa_polygon_inside_length"(double ax, double ay, double bx, double by,
                                                            const double* vx, const double* vy,
                                                            ptrdiff_t n) noexcept
    # Length of AB inside the open disc.
    double circle_inside_length "aa_circle_inside_length"(double ax, double ay, double bx, double by,
                                                          double cx, double cy, double r) noexcept
    # AB blocked by the polygon / the disc (see the comment above for ends inside it).
    bint segment_hits_polygon "aa_segment_hits_polygon"(double ax, double ay, double bx, double by,
                                                        const double* vx, const double* vy, ptrdiff_t n,
                                                        double depth) noexcept
    bint segment_hits_circle "aa_segment_hits_circle"(double ax, double ay, double bx, double by,
                                                      double cx, double cy, double r, double depth) noexcept

    ctypedef struct Terrain "aa_terrain":
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

    # Sight line A-B blocked by a blocking shape. fcover: each feature's current cover, with which
    # `skip` (a feature, -1: none) is left out and knocked-down features stop blocking; NULL: the
    # packed *_blocks flags as they are.
    bint terrain_blocked "aa_terrain_blocked"(const Terrain* t, const int8_t* fcover, int skip, double ax,
                                              double ay, double bx, double by) noexcept
    # Best cover of the shapes containing the point: each feature's current cover fcover[feature], or
    # with fcover NULL the packed *_cover values.
    int terrain_cover "aa_terrain_cover"(const Terrain* t, const int8_t* fcover, double px, double py) noexcept
