/* Exact odds: the outcome of one engagement for given scores, exactly as the Monte Carlo kernel
 * resolves it (aa_simulate.c), so enumerating scores with their counts is exact. Counts are int64
 * numbers of equally likely face combinations; a histogram indexes score s at s + 1 (index 0: no
 * such score, -1 in aa_scores). */
#ifndef AA_ODDS_H
#define AA_ODDS_H

#include "aa_common.h"
#include "aa_fire.h"

AA_EXTERN_C_BEGIN

/* Capped markers (wounds summed into *wounds) of attacks a0 <= a1 (-1 = none) on one target.
 * Split Fire's declared target faces only a1, the higher attack; otherwise every attack present is
 * one volley: markers summed then capped per turn, wounds summed. */
AA_INLINE int aa_volley(int a0, int a1, int defense, int split_high, int band, int armor, int cover, int ap,
                        int vehicle, const aa_fire_rules *r, int *wounds) {
    int w, m = 0;
    *wounds = 0;
    if (split_high) {
        m = aa_resolve_attack(a1, band, defense, armor, cover, ap, vehicle, r, wounds);
    } else {
        if (a0 >= 0) {
            m += aa_resolve_attack(a0, band, defense, armor, cover, ap, vehicle, r, &w);
            *wounds += w;
        }
        if (a1 >= 0) {
            m += aa_resolve_attack(a1, band, defense, armor, cover, ap, vehicle, r, &w);
            *wounds += w;
        }
    }
    return aa_cap_markers(m, 0, vehicle, r);
}

/* Count every face triple of dice (s0, s1, s2) by its Table 5 scores for one row (sprint: the
 * action is Sprint). attacks[(a0 + 1) * att_cols + a1 + 1] (att_rows x att_cols) is the joint count
 * of the two attack slots (a0 <= a1 when two; -1 = none); defense, rally, spotting and bonus are
 * histograms of n_hist slots. Every output is zeroed first; sizes must exceed 2 * the largest face. */
void aa_side_counts(int s0, int s1, int s2, const signed char *row, int sprint, int64_t *attacks,
                    ptrdiff_t att_rows, ptrdiff_t att_cols, int64_t *defense, int64_t *rally,
                    int64_t *spotting, int64_t *bonus, ptrdiff_t n_hist);

/* out[markers * n_wounds + wounds] = the number of (shooter, target) face combinations giving that
 * outcome: (a0, a1, a_count)[na] the shooter's joint attack support, (d, d_count)[nd] the
 * target's Defense support. out (n_markers x n_wounds) is zeroed first and must be large enough
 * (markers <= cap, wounds <= 2 * 24). */
void aa_engagement_counts(const int64_t *a0, const int64_t *a1, const int64_t *a_count, ptrdiff_t na,
                          const int64_t *d, const int64_t *d_count, ptrdiff_t nd, int split_high, int band,
                          int armor, int cover, int ap, int vehicle, const aa_fire_rules *rules,
                          int64_t *out, ptrdiff_t n_markers, ptrdiff_t n_wounds);

/* One side of Split Fire for aa_split_counts: the target's Defense support and its situation. */
typedef struct aa_split_target {
    const int64_t *d;
    const int64_t *d_count;
    ptrdiff_t nd;
    int band, armor, cover, ap, vehicle;
} aa_split_target;

/* Split Fire joint counts out[mh][wh][ml][wl] (dims[4], C order): the declared target h faces a1,
 * the other l faces a0. One shooter roll feeds both targets, so the two outcomes are correlated
 * through (a0, a1); the targets' Defense rolls are independent. out is zeroed first. */
void aa_split_counts(const int64_t *a0, const int64_t *a1, const int64_t *a_count, ptrdiff_t na,
                     const aa_split_target *h, const aa_split_target *l, const aa_fire_rules *rules,
                     int64_t *out, const ptrdiff_t *dims);

/* Per (band, cover, armor) cell, out[((b * nc + c) * narm + a) * 4 + k] for k = the counts of
 * (>= 1 marker, >= 1 wound), and the sums of markers x count and wounds x count over all face
 * combinations. */
void aa_grid_counts(const int64_t *a0, const int64_t *a1, const int64_t *a_count, ptrdiff_t na,
                    const int64_t *d, const int64_t *d_count, ptrdiff_t nd, int split_high,
                    const int64_t *bands, ptrdiff_t nb, const int64_t *covers, ptrdiff_t nc,
                    const int64_t *armors, ptrdiff_t narm, int ap, int vehicle, const aa_fire_rules *rules,
                    int64_t *out);

AA_EXTERN_C_END

#endif
