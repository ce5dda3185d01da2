/* Monte Carlo fire (aa_simulate.h): the tables, and engagements drawn from one stream. */
#include <stdlib.h>

#include "aa_simulate.h"
#include "aa_rng.h"
#include "aa_scores.h"

/* Faces of roll number idx of three dice (mixed radix, first die most significant). */
AA_INLINE void roll_index(const int64_t *sides, uint32_t idx, int *faces) {
    faces[2] = (int)(idx % sides[2]) + 1;
    idx = (uint32_t)(idx / sides[2]);
    faces[1] = (int)(idx % sides[1]) + 1;
    faces[0] = (int)(idx / sides[1]) + 1;
}

int aa_fire_tables_init(aa_fire_tables *t, const int64_t *shooter, const int64_t *target,
                        const signed char *shooter_row, const signed char *target_row, int split_fire,
                        int band, int armor, int cover, int ap, int vehicle, const aa_fire_rules *rules) {
    uint32_t k;
    int f[3];
    int a, d, w, n_att = 0;
    aa_scores s;
    t->p_shooter = (uint32_t)(shooter[0] * shooter[1] * shooter[2]);
    t->p_target = (uint32_t)(target[0] * target[1] * target[2]);
    t->threshold = aa_reject_threshold(t->p_shooter * t->p_target);
    t->cap = rules->turn_cap[vehicle];
    t->attacks = (int16_t *)malloc(2 * (size_t)t->p_shooter * sizeof(int16_t));
    t->defense = (int16_t *)malloc((size_t)t->p_target * sizeof(int16_t));
    t->markers = NULL;
    t->wounds = NULL;
    t->n_att = 0;
    t->n_def = 0;
    if (t->attacks == NULL || t->defense == NULL)
        return AA_SIM_NO_SCORE_TABLES;
    for (k = 0; k < t->p_shooter; k++) {
        roll_index(shooter, k, f);
        aa_action_scores(f[0], f[1], f[2], shooter_row, 0, &s);
        if (split_fire) {   /* this target was declared to face the higher attack */
            t->attacks[2 * k] = (int16_t)s.attack[s.n_attacks - 1];
            t->attacks[2 * k + 1] = -1;
        } else {
            t->attacks[2 * k] = (int16_t)s.attack[0];
            t->attacks[2 * k + 1] = (int16_t)(s.n_attacks > 1 ? s.attack[1] : -1);
        }
        n_att = aa_imax(aa_imax(n_att, t->attacks[2 * k] + 1), t->attacks[2 * k + 1] + 1);
    }
    for (k = 0; k < t->p_target; k++) {
        roll_index(target, k, f);
        aa_action_scores(f[0], f[1], f[2], target_row, 0, &s);
        t->defense[k] = (int16_t)s.defense;
        t->n_def = aa_imax(t->n_def, s.defense + 1);
    }
    t->n_att = n_att;
    t->markers = (int8_t *)malloc((size_t)n_att * (size_t)t->n_def * sizeof(int8_t));
    t->wounds = (int16_t *)malloc((size_t)n_att * (size_t)t->n_def * sizeof(int16_t));
    if (t->markers == NULL || t->wounds == NULL)
        return AA_SIM_NO_RESULT_TABLE;
    for (a = 0; a < n_att; a++) {
        for (d = 0; d < t->n_def; d++) {
            t->markers[a * t->n_def + d] = (int8_t)aa_resolve_attack(a, band, d, armor, cover, ap, vehicle,
                                                                     rules, &w);
            t->wounds[a * t->n_def + d] = (int16_t)w;
        }
    }
    return 0;
}

void aa_fire_tables_free(aa_fire_tables *t) {
    free(t->attacks);
    free(t->defense);
    free(t->markers);
    free(t->wounds);
    t->attacks = t->defense = t->wounds = NULL;
    t->markers = NULL;
}

/* One engagement: one exact uniform draw of both rolls, then table lookups. */
AA_INLINE void engage(aa_bitgen *bg, const aa_fire_tables *t, int8_t *markers, int16_t *wounds) {
    uint32_t r, i_s, i_t;
    uint64_t m;
    int a0, a1, d, mk, w;
    for (;;) {
        r = bg->next_uint32(bg->state);
        m = (uint64_t)r * t->p_shooter;
        i_s = (uint32_t)(m >> 32);
        m = (uint64_t)(uint32_t)m * t->p_target;
        i_t = (uint32_t)(m >> 32);
        if ((uint32_t)m >= t->threshold)
            break;
    }
    a0 = t->attacks[2 * i_s];
    a1 = t->attacks[2 * i_s + 1];
    d = t->defense[i_t];
    mk = t->markers[a0 * t->n_def + d];
    w = t->wounds[a0 * t->n_def + d];
    if (a1 >= 0) {
        mk += t->markers[a1 * t->n_def + d];
        w += t->wounds[a1 * t->n_def + d];
    }
    *markers = (int8_t)(mk < t->cap ? mk : t->cap);
    *wounds = (int16_t)w;
}

void aa_simulate_fire_range(aa_bitgen *bg, const aa_fire_tables *t, ptrdiff_t lo, ptrdiff_t hi,
                            int8_t *markers, int16_t *wounds) {
    ptrdiff_t i;
    for (i = lo; i < hi; i++)
        engage(bg, t, &markers[i], &wounds[i]);
}
