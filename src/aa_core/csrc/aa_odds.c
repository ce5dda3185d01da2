/* Exact odds kernels (aa_odds.h): score counts of one side's dice, engagement outcome counts. */
#include <string.h>

#include "aa_odds.h"
#include "aa_scores.h"

void aa_side_counts(int s0, int s1, int s2, const signed char *row, int sprint, int64_t *attacks,
                    ptrdiff_t att_rows, ptrdiff_t att_cols, int64_t *defense, int64_t *rally,
                    int64_t *spotting, int64_t *bonus, ptrdiff_t n_hist) {
    int f0, f1, f2;
    aa_scores s;
    memset(attacks, 0, (size_t)(att_rows * att_cols) * sizeof(int64_t));
    memset(defense, 0, (size_t)n_hist * sizeof(int64_t));
    memset(rally, 0, (size_t)n_hist * sizeof(int64_t));
    memset(spotting, 0, (size_t)n_hist * sizeof(int64_t));
    memset(bonus, 0, (size_t)n_hist * sizeof(int64_t));
    for (f0 = 1; f0 < s0 + 1; f0++) {
        for (f1 = 1; f1 < s1 + 1; f1++) {
            for (f2 = 1; f2 < s2 + 1; f2++) {
                aa_action_scores(f0, f1, f2, row, sprint, &s);
                attacks[(s.attack[0] + 1) * att_cols + s.attack[1] + 1] += 1;
                defense[s.defense + 1] += 1;
                rally[s.rally + 1] += 1;
                spotting[s.spotting + 1] += 1;
                bonus[s.sprint_bonus + 1] += 1;
            }
        }
    }
}

void aa_engagement_counts(const int64_t *a0, const int64_t *a1, const int64_t *a_count, ptrdiff_t na,
                          const int64_t *d, const int64_t *d_count, ptrdiff_t nd, int split_high, int band,
                          int armor, int cover, int ap, int vehicle, const aa_fire_rules *rules,
                          int64_t *out, ptrdiff_t n_markers, ptrdiff_t n_wounds) {
    ptrdiff_t i, j;
    int m, w;
    memset(out, 0, (size_t)(n_markers * n_wounds) * sizeof(int64_t));
    for (i = 0; i < na; i++) {
        for (j = 0; j < nd; j++) {
            m = aa_volley((int)a0[i], (int)a1[i], (int)d[j], split_high, band, armor, cover, ap, vehicle,
                          rules, &w);
            out[m * n_wounds + w] += a_count[i] * d_count[j];
        }
    }
}

void aa_split_counts(const int64_t *a0, const int64_t *a1, const int64_t *a_count, ptrdiff_t na,
                     const aa_split_target *h, const aa_split_target *l, const aa_fire_rules *rules,
                     int64_t *out, const ptrdiff_t *dims) {
    ptrdiff_t i, j, k;
    int mh, wh, ml, wl;
    int64_t c;
    memset(out, 0, (size_t)(dims[0] * dims[1] * dims[2] * dims[3]) * sizeof(int64_t));
    for (i = 0; i < na; i++) {
        for (j = 0; j < h->nd; j++) {
            mh = aa_volley(-1, (int)a1[i], (int)h->d[j], 0, h->band, h->armor, h->cover, h->ap, h->vehicle,
                           rules, &wh);
            c = a_count[i] * h->d_count[j];
            for (k = 0; k < l->nd; k++) {
                ml = aa_volley(-1, (int)a0[i], (int)l->d[k], 0, l->band, l->armor, l->cover, l->ap,
                               l->vehicle, rules, &wl);
                out[((mh * dims[1] + wh) * dims[2] + ml) * dims[3] + wl] += c * l->d_count[k];
            }
        }
    }
}

void aa_grid_counts(const int64_t *a0, const int64_t *a1, const int64_t *a_count, ptrdiff_t na,
                    const int64_t *d, const int64_t *d_count, ptrdiff_t nd, int split_high,
                    const int64_t *bands, ptrdiff_t nb, const int64_t *covers, ptrdiff_t nc,
                    const int64_t *armors, ptrdiff_t narm, int ap, int vehicle, const aa_fire_rules *rules,
                    int64_t *out) {
    ptrdiff_t b, c, a, i, j;
    int m, w;
    int64_t n, n_m, n_w, s_m, s_w, *cell;
    for (b = 0; b < nb; b++) {
        for (c = 0; c < nc; c++) {
            for (a = 0; a < narm; a++) {
                n_m = 0;
                n_w = 0;
                s_m = 0;
                s_w = 0;
                for (i = 0; i < na; i++) {
                    for (j = 0; j < nd; j++) {
                        m = aa_volley((int)a0[i], (int)a1[i], (int)d[j], split_high, (int)bands[b],
                                      (int)armors[a], (int)covers[c], ap, vehicle, rules, &w);
                        n = a_count[i] * d_count[j];
                        if (m > 0)
                            n_m += n;
                        if (w > 0)
                            n_w += n;
                        s_m += m * n;
                        s_w += w * n;
                    }
                }
                cell = out + ((b * nc + c) * narm + a) * 4;
                cell[0] = n_m;
                cell[1] = n_w;
                cell[2] = s_m;
                cell[3] = s_w;
            }
        }
    }
}
