/* Terrain geometry primitives (RULES.md section 5: cover and line of sight).
 *
 * Polygons: vertices vx/vy with offsets off[k]..off[k+1]; circles: centre (cx, cy), radius cr.
 * A blocking feature that contains neither end of a sight line blocks it if they touch; one that
 * contains an end (a unit inside a wood) blocks it only if more than `depth` cm per end inside
 * lies within the feature: units see out of, and into, the edge of a wood, not through it. */
#ifndef AA_GEOMETRY_H
#define AA_GEOMETRY_H

#include <math.h>

#include "aa_common.h"

enum { AA_MAX_CROSSINGS = 64 };   /* edge crossings of one sight line with one polygon handled exactly */

/* Even-odd ray casting; points exactly on an edge may fall either side. */
AA_INLINE int aa_point_in_polygon(double px, double py, const double *vx, const double *vy, ptrdiff_t n) {
    ptrdiff_t i, j = n - 1;
    int inside = 0;
    for (i = 0; i < n; i++) {
        if ((vy[i] > py) != (vy[j] > py))
            if (px < (vx[j] - vx[i]) * (py - vy[i]) / (vy[j] - vy[i]) + vx[i])
                inside = !inside;
        j = i;
    }
    return inside;
}

AA_INLINE int aa_point_in_circle(double px, double py, double cx, double cy, double r) {
    return (px - cx) * (px - cx) + (py - cy) * (py - cy) < r * r;
}

AA_INLINE double aa_orient_(double ax, double ay, double bx, double by, double cx, double cy) {
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/* p lies in the closed range between a and b (Python's min(a, b) <= p <= max(a, b)). */
AA_INLINE int aa_between_(double a, double b, double p) {
    return aa_pmin(a, b) <= p && p <= aa_pmax(a, b);
}

/* Segments AB and CD share a point (touching counts). */
AA_INLINE int aa_segments_cross(double ax, double ay, double bx, double by,
                                double cx, double cy, double dx, double dy) {
    double o1 = aa_orient_(ax, ay, bx, by, cx, cy);
    double o2 = aa_orient_(ax, ay, bx, by, dx, dy);
    double o3 = aa_orient_(cx, cy, dx, dy, ax, ay);
    double o4 = aa_orient_(cx, cy, dx, dy, bx, by);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)))
        return 1;
    /* collinear / endpoint-touching cases */
    if (o1 == 0 && aa_between_(ax, bx, cx) && aa_between_(ay, by, cy))
        return 1;
    if (o2 == 0 && aa_between_(ax, bx, dx) && aa_between_(ay, by, dy))
        return 1;
    if (o3 == 0 && aa_between_(cx, dx, ax) && aa_between_(cy, dy, ay))
        return 1;
    if (o4 == 0 && aa_between_(cx, dx, bx) && aa_between_(cy, dy, by))
        return 1;
    return 0;
}

/* Length of AB inside the polygon (even-odd); INFINITY past AA_MAX_CROSSINGS edge crossings. */
AA_INLINE double aa_polygon_inside_length(double ax, double ay, double bx, double by,
                                          const double *vx, const double *vy, ptrdiff_t n) {
    double ts[AA_MAX_CROSSINGS + 2];
    double ux = bx - ax, uy = by - ay, ex, ey, den, t, s, mid, total = 0.0;
    ptrdiff_t i, j = n - 1, k = 1, m;
    ts[0] = 0.0;
    for (i = 0; i < n; i++) {
        ex = vx[i] - vx[j];
        ey = vy[i] - vy[j];
        den = ux * ey - uy * ex;
        if (den != 0.0) {
            t = ((vx[j] - ax) * ey - (vy[j] - ay) * ex) / den;
            s = ((vx[j] - ax) * uy - (vy[j] - ay) * ux) / den;
            if (0.0 < t && t < 1.0 && 0.0 <= s && s <= 1.0) {
                if (k > AA_MAX_CROSSINGS)
                    return INFINITY;
                ts[k] = t;
                k += 1;
            }
        }
        j = i;
    }
    ts[k] = 1.0;
    k += 1;
    for (i = 1; i < k; i++) {   /* insertion sort: k is small */
        t = ts[i];
        m = i - 1;
        while (m >= 0 && ts[m] > t) {
            ts[m + 1] = ts[m];
            m -= 1;
        }
        ts[m + 1] = t;
    }
    for (i = 0; i < k - 1; i++) {
        if (ts[i + 1] > ts[i]) {
            mid = 0.5 * (ts[i] + ts[i + 1]);
            if (aa_point_in_polygon(ax + mid * ux, ay + mid * uy, vx, vy, n))
                total += ts[i + 1] - ts[i];
        }
    }
    return total * sqrt(ux * ux + uy * uy);
}

/* Length of AB inside the open disc. */
AA_INLINE double aa_circle_inside_length(double ax, double ay, double bx, double by,
                                         double cx, double cy, double r) {
    double ux = bx - ax, uy = by - ay, fx = ax - cx, fy = ay - cy;
    double a = ux * ux + uy * uy, b = 2.0 * (fx * ux + fy * uy), c = fx * fx + fy * fy - r * r;
    double disc, sq, t1, t2;
    if (a == 0.0)
        return 0.0;
    disc = b * b - 4.0 * a * c;
    if (disc <= 0.0)
        return 0.0;
    sq = sqrt(disc);
    t1 = (-b - sq) / (2.0 * a);
    t2 = (-b + sq) / (2.0 * a);
    t1 = t1 < 0.0 ? 0.0 : (t1 > 1.0 ? 1.0 : t1);
    t2 = t2 < 0.0 ? 0.0 : (t2 > 1.0 ? 1.0 : t2);
    return t2 > t1 ? (t2 - t1) * sqrt(a) : 0.0;
}

/* AB blocked by the polygon (see the file comment for ends inside it). */
AA_INLINE int aa_segment_hits_polygon(double ax, double ay, double bx, double by,
                                      const double *vx, const double *vy, ptrdiff_t n, double depth) {
    ptrdiff_t i, j = n - 1;
    int ends_in = aa_point_in_polygon(ax, ay, vx, vy, n) + aa_point_in_polygon(bx, by, vx, vy, n);
    if (ends_in)
        return aa_polygon_inside_length(ax, ay, bx, by, vx, vy, n) > depth * ends_in;
    for (i = 0; i < n; i++) {
        if (aa_segments_cross(ax, ay, bx, by, vx[j], vy[j], vx[i], vy[i]))
            return 1;
        j = i;
    }
    return 0;
}

/* AB blocked by the disc: it passes closer than r to the centre (see the file comment for ends
 * inside it). */
AA_INLINE int aa_segment_hits_circle(double ax, double ay, double bx, double by,
                                     double cx, double cy, double r, double depth) {
    double ux = bx - ax, uy = by - ay, L2 = ux * ux + uy * uy, t, qx, qy;
    int ends_in = aa_point_in_circle(ax, ay, cx, cy, r) + aa_point_in_circle(bx, by, cx, cy, r);
    if (ends_in)
        return aa_circle_inside_length(ax, ay, bx, by, cx, cy, r) > depth * ends_in;
    t = 0.0;
    if (L2 > 0) {
        t = ((cx - ax) * ux + (cy - ay) * uy) / L2;
        if (t < 0)
            t = 0.0;
        else if (t > 1)
            t = 1.0;
    }
    qx = ax + t * ux - cx;
    qy = ay + t * uy - cy;
    return qx * qx + qy * qy < r * r;
}

typedef struct aa_terrain {
    /* Polygon k: vertices vx/vy[poly_off[k]..poly_off[k + 1]]; circle k: centre (cx, cy), radius cr.
     * *_blocks / *_cover: each shape's line-of-sight flag and cover as packed (NULL if unused).
     * *_feat: each shape's feature (scenario order) and feat_armor each feature's armor (0: heavy
     * weapons cannot bring it down); NULL when no current cover is passed to the walkers below. */
    const double *vx;
    const double *vy;
    const int64_t *poly_off;
    const uint8_t *poly_blocks;
    const int8_t *poly_cover;
    const int32_t *poly_feat;
    int n_poly;
    const double *cx;
    const double *cy;
    const double *cr;
    const uint8_t *circ_blocks;
    const int8_t *circ_cover;
    const int32_t *circ_feat;
    int n_circ;
    const int32_t *feat_armor;
    int n_feat;
    double edge_depth;   /* rules.fire.los_edge_depth_cm */
} aa_terrain;

/* Feature f still blocks: not the skipped one, and not an armored feature whose cover heavy
 * weapons have brought down to None (TerrainArrays.from_scenario). */
AA_INLINE int aa_blocks_now_(const aa_terrain *t, const int8_t *fcover, int f, int skip) {
    return f != skip && !(t->feat_armor[f] > 0 && fcover[f] == 0);
}

/* Sight line A-B blocked by a blocking shape. fcover: each feature's current cover, with which
 * `skip` (a feature, -1: none) is left out and knocked-down features stop blocking; NULL: the
 * packed *_blocks flags as they are. */
AA_INLINE int aa_terrain_blocked(const aa_terrain *t, const int8_t *fcover, int skip, double ax, double ay,
                                 double bx, double by) {
    int k;
    int64_t o;
    for (k = 0; k < t->n_poly; k++) {
        o = t->poly_off[k];
        if (t->poly_blocks[k] && (fcover == NULL || aa_blocks_now_(t, fcover, t->poly_feat[k], skip))
                && aa_segment_hits_polygon(ax, ay, bx, by, t->vx + o, t->vy + o,
                                           (ptrdiff_t)(t->poly_off[k + 1] - o), t->edge_depth))
            return 1;
    }
    for (k = 0; k < t->n_circ; k++) {
        if (t->circ_blocks[k] && (fcover == NULL || aa_blocks_now_(t, fcover, t->circ_feat[k], skip))
                && aa_segment_hits_circle(ax, ay, bx, by, t->cx[k], t->cy[k], t->cr[k], t->edge_depth))
            return 1;
    }
    return 0;
}

/* Best cover of the shapes containing the point: each feature's current cover fcover[feature],
 * or with fcover NULL the packed *_cover values. */
AA_INLINE int aa_terrain_cover(const aa_terrain *t, const int8_t *fcover, double px, double py) {
    int k, c, best = 0;
    int64_t o;
    for (k = 0; k < t->n_poly; k++) {
        o = t->poly_off[k];
        c = fcover == NULL ? t->poly_cover[k] : fcover[t->poly_feat[k]];
        if (c > best && aa_point_in_polygon(px, py, t->vx + o, t->vy + o, (ptrdiff_t)(t->poly_off[k + 1] - o)))
            best = c;
    }
    for (k = 0; k < t->n_circ; k++) {
        c = fcover == NULL ? t->circ_cover[k] : fcover[t->circ_feat[k]];
        if (c > best && aa_point_in_circle(px, py, t->cx[k], t->cy[k], t->cr[k]))
            best = c;
    }
    return best;
}

#endif
