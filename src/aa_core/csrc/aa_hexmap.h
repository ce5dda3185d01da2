/* Hex-map geometry and artillery drift (RULES.md section 8, seed 003).
 *
 * Flat-topped hexes in offset coordinates (col, row), 0-based: column A = 0, row "1" = 0. Columns
 * of index parity `parity` sit half a hex lower (parity 1 = "odd-q": B, D, F... lower). Internally
 * hexes are axial (q, r) = cube (x = q, z = r, y = -q - r). Directions 0..5 clockwise from north:
 * N, NE, SE, S, SW, NW. Flat hex index of an on-map hex = row * cols + col. */
#ifndef AA_HEXMAP_H
#define AA_HEXMAP_H

#include "aa_common.h"
#include "aa_bitgen.h"
#include "aa_rng.h"

AA_EXTERN_C_BEGIN

typedef struct aa_grid {
    int cols;
    int rows;
    int parity;          /* 1: odd 0-based columns are the lower ones ("odd-q"); 0: even ones */
} aa_grid;

typedef struct aa_drift_rules {
    int face_dir[6];     /* compass direction (0 N .. 5 NW) of die faces 1..6 */
    int combine;         /* targeting score: 0 white * coloured, 1 white + coloured */
    int strict;          /* 1: hit iff score > threshold; 0: iff score >= threshold */
} aa_drift_rules;

/* Axial q step of direction d (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW). */
AA_INLINE int aa_dir_dq(int d) {
    if (d == 1 || d == 2)
        return 1;
    if (d == 4 || d == 5)
        return -1;
    return 0;
}

/* Axial r step of direction d. */
AA_INLINE int aa_dir_dr(int d) {
    if (d == 0 || d == 1)
        return -1;
    if (d == 3 || d == 4)
        return 1;
    return 0;
}

/* Axial r of offset (col, row); col may be negative (off-map): the halved term is even, so C's
 * truncating division is exact. */
AA_INLINE int aa_axial_r(int col, int row, int parity) {
    if (parity)
        return row - (col - (col & 1)) / 2;
    return row - (col + (col & 1)) / 2;
}

/* Offset row of axial (q, r). */
AA_INLINE int aa_offset_row(int q, int r, int parity) {
    if (parity)
        return r + (q - (q & 1)) / 2;
    return r + (q + (q & 1)) / 2;
}

/* Flat index row * cols + col of axial (q, r), or -1 off the map. */
AA_INLINE int aa_axial_index(int q, int r, const aa_grid *g) {
    int row = aa_offset_row(q, r, g->parity);
    if (q < 0 || q >= g->cols || row < 0 || row >= g->rows)
        return -1;
    return row * g->cols + q;
}

AA_INLINE int aa_iabs(int x) { return x < 0 ? -x : x; }

/* Hex distance between two axial hexes. */
AA_INLINE int aa_hex_distance(int q0, int r0, int q1, int r1) {
    int dq = q1 - q0, dr = r1 - r0;
    return (aa_iabs(dq) + aa_iabs(dr) + aa_iabs(dq + dr)) / 2;
}

/* floor(a / b) for b > 0 (C division truncates). */
AA_INLINE int64_t aa_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if (q * b > a)
        q -= 1;
    return q;
}

/* round(num / n + e * delta) for an infinitesimal delta > 0 and e != 0: halves go the nudge's way. */
AA_INLINE int64_t aa_round_nudged(int64_t num, int64_t n, int e) {
    int64_t q = aa_floor_div(num, n);
    int64_t twice_rem = 2 * (num - q * n);
    if (twice_rem > n || (twice_rem == n && e > 0))
        q += 1;
    return q;
}

/* Order key of |d / n - e * delta| (d = rounded * n - exact * n): strict, as delta -> 0+. */
AA_INLINE int64_t aa_diff_key(int64_t d, int e) {
    if (d == 0)
        return e > 0 ? e : -e;
    if (d > 0)
        return 8 * d + 4 - e;
    return -8 * d + 4 + e;
}

/* Hex i (0..n) of the cube line from (x0, z0) to (x1, z1), n = their distance: the usual cube
 * lerp + round with the start and end nudged by (1, 2, -3) * delta, evaluated exactly in integers
 * for delta -> 0+, so points on hex edges always round the same way on every platform. */
AA_INLINE void aa_line_point(int x0, int z0, int x1, int z1, int n, int i, int *q, int *r) {
    int y0 = -x0 - z0, y1 = -x1 - z1;
    int64_t X = (int64_t)x0 * n + (int64_t)(x1 - x0) * i;
    int64_t Y = (int64_t)y0 * n + (int64_t)(y1 - y0) * i;
    int64_t Z = (int64_t)z0 * n + (int64_t)(z1 - z0) * i;
    int64_t rx = aa_round_nudged(X, n, 1);
    int64_t ry = aa_round_nudged(Y, n, 2);
    int64_t rz = aa_round_nudged(Z, n, -3);
    int64_t kx = aa_diff_key(rx * n - X, 1);
    int64_t ky = aa_diff_key(ry * n - Y, 2);
    int64_t kz = aa_diff_key(rz * n - Z, -3);
    if (kx > ky && kx > kz)
        rx = -ry - rz;
    else if (ky > kz)
        ry = -rx - rz;
    else
        rz = -rx - ry;
    *q = (int)rx;
    *r = (int)rz;
}

/* -1 if a blocking hex lies strictly between the two hexes, else the summed hindrance of the hexes
 * strictly between (plus the second hex's if count_target). Off-map hexes count nothing. */
AA_INLINE int aa_los_hindrance(int q0, int r0, int q1, int r1, const aa_grid *g, const uint8_t *blocking,
                               const int32_t *hindrance, int count_target) {
    int n = aa_hex_distance(q0, r0, q1, r1);
    int i, q, r, k, total = 0;
    for (i = 1; i < n; i++) {
        aa_line_point(q0, r0, q1, r1, n, i, &q, &r);
        k = aa_axial_index(q, r, g);
        if (k < 0)
            continue;
        if (blocking[k])
            return -1;
        total += hindrance[k];
    }
    if (count_target && n > 0) {
        k = aa_axial_index(q1, r1, g);
        if (k >= 0)
            total += hindrance[k];
    }
    return total;
}

/* The Targeting roll: score (product or sum of the dice) against range + hindrance. */
AA_INLINE int aa_targeting_hit(int white, int coloured, int threshold, const aa_drift_rules *d) {
    int score = d->combine == 0 ? white * coloured : white + coloured;
    if (d->strict)
        return score > threshold;
    return score >= threshold;
}

/* Landing hex index of the round at axial (q, r) after the drift card, -1 if any step is off the
 * map. Hit: one hex towards the white die's direction, then one towards the coloured die's. Miss:
 * `coloured` hexes towards the white die's direction. */
AA_INLINE int aa_drift_landing(int q, int r, int hit, int white, int coloured, const aa_grid *g,
                               const aa_drift_rules *d) {
    int dw = d->face_dir[white - 1], k;
    if (hit) {
        q += aa_dir_dq(dw);
        r += aa_dir_dr(dw);
        if (aa_axial_index(q, r, g) < 0)
            return -1;
        dw = d->face_dir[coloured - 1];
        q += aa_dir_dq(dw);
        r += aa_dir_dr(dw);
        return aa_axial_index(q, r, g);
    }
    for (k = 0; k < coloured; k++) {
        q += aa_dir_dq(dw);
        r += aa_dir_dr(dw);
        if (aa_axial_index(q, r, g) < 0)
            return -1;
    }
    return aa_axial_index(q, r, g);
}

/* Targeting card (w1, c1) then drift card (w2, c2): the landing index (-1 off the map); *hit set. */
AA_INLINE int aa_resolve_request(int q, int r, int threshold, int w1, int c1, int w2, int c2,
                                 const aa_grid *g, const aa_drift_rules *d, uint8_t *hit) {
    int h = aa_targeting_hit(w1, c1, threshold, d);
    *hit = (uint8_t)h;
    return aa_drift_landing(q, r, h, w2, c2, g, d);
}

/* table[36 * a + b] = landing index for targeting card a and drift card b (card id
 * 6 * (white - 1) + coloured - 1), -1 off the map; hits[a] = the Targeting roll of card a hits.
 * Every request at the same round shares it, so batch kernels resolve a request by one lookup. */
AA_INLINE void aa_landing_table(int q, int r, int threshold, const aa_grid *g, const aa_drift_rules *d,
                                int32_t *table, uint8_t *hits) {
    int a, b;
    uint8_t h = 0;
    for (a = 0; a < 36; a++) {
        for (b = 0; b < 36; b++)
            table[36 * a + b] = aa_resolve_request(q, r, threshold, a / 6 + 1, a % 6 + 1, b / 6 + 1, b % 6 + 1,
                                                   g, d, &h);
        hits[a] = h;
    }
}

/* out[rw * cols + c] = aa_los_hindrance from offset (col, row) to every map hex (-1 blocked). */
void aa_los_array(int col, int row, const aa_grid *g, const uint8_t *blocking, const int32_t *hindrance,
                  int count_target, int32_t *out);

/* Rows of cards (w1, c1, w2, c2), n rows `stride` values apart: landing[i] (-1 off the map) and
 * hit[i] of a round at offset (col, row). Returns the index 4 * row + column of the first face
 * outside 1..6 (its row is left unresolved), or -1. */
ptrdiff_t aa_resolve_requests(int col, int row, int threshold, const int32_t *cards, ptrdiff_t n,
                              ptrdiff_t stride,
                              const aa_grid *g, const aa_drift_rules *d, int32_t *landing, uint8_t *hit);

/* ------------------------------------------------------------------ simulated Artillery Requests */
typedef struct aa_requests {
    int32_t table[1296];        /* landing of (targeting card, drift card), see aa_landing_table */
    uint8_t hits[36];
    int independent;            /* 1: four independent d6; 0: cards drawn from the deck state */
    uint32_t pairs_threshold;   /* Lemire rejection threshold for 1296 outcomes of four d6 */
    const int32_t *pile;        /* deck mode: card ids of the draw pile ... */
    int n_pile;
    const int32_t *discard;     /* ... and of the discard pile (reshuffled in when the pile runs out) */
    int n_discard;
    uint32_t thr[4];            /* rejection thresholds of n_pile, n_pile - 1, n_discard + 1 (n_pile 1)
                                   or n_discard, n_discard - 1 */
} aa_requests;

/* Set up simulated requests at the round at offset (col, row): the landing table and, in deck mode,
 * the starting deck state (pile and discard are kept by pointer). Returns 0, or -1 in deck mode
 * with no card in either pile. */
int aa_requests_init(aa_requests *s, int col, int row, int threshold, const aa_grid *g,
                     const aa_drift_rules *d, int independent, const int32_t *pile, int n_pile,
                     const int32_t *discard, int n_discard);

/* Requests [lo, hi): each draws its two cards from bg (aa_requests.independent: four d6, or the
 * deck's same starting state each time) and looks its landing up; landing[i], hit[i] written. */
void aa_simulate_requests(aa_bitgen *bg, const aa_requests *s, ptrdiff_t lo, ptrdiff_t hi,
                          int32_t *landing, uint8_t *hit);

AA_EXTERN_C_END

#endif
