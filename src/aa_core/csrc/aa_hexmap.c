/* Hex-map kernels: line of sight over a whole map, artillery drift tables and simulated Artillery
 * Requests (the loops of aa_core/hexmap.pyx; the primitives are in aa_hexmap.h). */
#include "aa_hexmap.h"

void aa_los_array(int col, int row, const aa_grid *g, const uint8_t *blocking, const int32_t *hindrance,
                  int count_target, int32_t *out) {
    int q0 = col, r0 = aa_axial_r(col, row, g->parity), c, rw;
    for (rw = 0; rw < g->rows; rw++)
        for (c = 0; c < g->cols; c++)
            out[rw * g->cols + c] = aa_los_hindrance(q0, r0, c, aa_axial_r(c, rw, g->parity), g, blocking,
                                                     hindrance, count_target);
}

ptrdiff_t aa_resolve_requests(int col, int row, int threshold, const int32_t *cards, ptrdiff_t n,
                              ptrdiff_t stride, const aa_grid *g, const aa_drift_rules *d, int32_t *landing,
                              uint8_t *hit) {
    ptrdiff_t i, bad = -1;
    int a, j, ok;
    int32_t table[1296];
    uint8_t hits[36];
    const int32_t *c;
    aa_landing_table(col, aa_axial_r(col, row, g->parity), threshold, g, d, table, hits);
    for (i = 0; i < n; i++) {
        c = cards + stride * i;
        ok = 1;
        for (j = 0; j < 4; j++) {
            if ((uint32_t)(c[j] - 1) >= 6) {
                if (bad < 0)
                    bad = 4 * i + j;
                ok = 0;
                break;
            }
        }
        if (ok) {
            a = 6 * (c[0] - 1) + c[1] - 1;
            landing[i] = table[36 * a + 6 * (c[2] - 1) + c[3] - 1];
            hit[i] = hits[a];
        }
    }
    return bad;
}

/* Uniform integer in [0, n) by one exact Lemire draw (rejection below `threshold`); n <= 1 draws
 * nothing. */
AA_INLINE int below(aa_bitgen *bg, uint32_t n, uint32_t threshold) {
    uint32_t sides[1];
    int f[1];
    if (n <= 1)
        return 0;
    sides[0] = n;
    aa_roll_faces(bg, sides, 1, threshold, f);
    return f[0] - 1;
}

AA_INLINE uint32_t thr_of(int n) {
    return n > 1 ? aa_reject_threshold((uint32_t)n) : 0;
}

/* 36 * (first card) + (second card) of the next two cards revealed.
 *
 * Independent: one draw of u in [0, 1296), i.e. four d6 (w1, c1, w2, c2) as its base-6 digits,
 * exactly the faces aa_roll_faces gives for sides (6, 6, 6, 6). Deck: two cards without
 * replacement, uniform over the cards left in the draw pile (its order is unknown); a revealed card
 * goes to the discard pile, which becomes the new draw pile when the pile is empty. */
AA_INLINE int draw_pair(aa_bitgen *bg, const aa_requests *s) {
    int u1, u2, n = s->n_pile, d = s->n_discard;
    if (s->independent)
        return below(bg, 1296, s->pairs_threshold);
    if (n >= 2) {
        u1 = below(bg, (uint32_t)n, s->thr[0]);
        u2 = below(bg, (uint32_t)(n - 1), s->thr[1]);
        if (u2 >= u1)
            u2 += 1;
        return 36 * s->pile[u1] + s->pile[u2];
    }
    if (n == 1) {
        u2 = below(bg, (uint32_t)(d + 1), s->thr[2]);
        return 36 * s->pile[0] + (u2 < d ? s->discard[u2] : s->pile[0]);
    }
    u1 = below(bg, (uint32_t)d, s->thr[2]);
    if (d >= 2) {
        u2 = below(bg, (uint32_t)(d - 1), s->thr[3]);
        if (u2 >= u1)
            u2 += 1;
        return 36 * s->discard[u1] + s->discard[u2];
    }
    return 37 * s->discard[u1];
}

static const int32_t no_cards[1] = {0};

int aa_requests_init(aa_requests *s, int col, int row, int threshold, const aa_grid *g,
                     const aa_drift_rules *d, int independent, const int32_t *pile, int n_pile,
                     const int32_t *discard, int n_discard) {
    aa_landing_table(col, aa_axial_r(col, row, g->parity), threshold, g, d, s->table, s->hits);
    s->independent = independent;
    s->pairs_threshold = aa_reject_threshold(1296);
    s->n_pile = n_pile;
    s->n_discard = n_discard;
    s->pile = n_pile > 0 ? pile : no_cards;
    s->discard = n_discard > 0 ? discard : no_cards;
    s->thr[0] = thr_of(n_pile);
    s->thr[1] = thr_of(n_pile - 1);
    s->thr[2] = thr_of(n_pile == 1 ? n_discard + 1 : n_discard);
    s->thr[3] = thr_of(n_discard - 1);
    if (!independent && n_pile + n_discard == 0)
        return -1;
    return 0;
}

void aa_simulate_requests(aa_bitgen *bg, const aa_requests *s, ptrdiff_t lo, ptrdiff_t hi,
                          int32_t *landing, uint8_t *hit) {
    ptrdiff_t i;
    int k;
    for (i = lo; i < hi; i++) {
        k = draw_pair(bg, s);
        landing[i] = s->table[k];
        hit[i] = s->hits[k / 36];
    }
}
