/* Monte Carlo fire: roll and resolve many independent engagements of one shooter on one target.
 *
 * The six dice are drawn as two mixed-radix "dice": the shooter's roll index (p_shooter outcomes)
 * and the target's (p_target outcomes); this is the same word-level algorithm as aa_roll_faces on
 * the six faces (first die most significant), so the faces, hence the results, are identical to
 * rolling the dice one by one. Scores and fire outcomes are looked up in tables built once with
 * the scalar primitives. A driver splits the engagements into chunks, one stream per chunk, so
 * results do not depend on the thread count (aa_core/simulate.pyx). */
#ifndef AA_SIMULATE_H
#define AA_SIMULATE_H

#include "aa_common.h"
#include "aa_bitgen.h"
#include "aa_fire.h"

AA_EXTERN_C_BEGIN

typedef struct aa_fire_tables {
    uint32_t p_shooter, p_target, threshold;
    int16_t *attacks;    /* [p_shooter][2]: attack(s) of each shooter roll, -1 when absent */
    int16_t *defense;    /* [p_target]: Defense of each target roll */
    int n_att;           /* attack values are 0..n_att-1 */
    int n_def;           /* defense values are 0..n_def-1 */
    int8_t *markers;     /* [attack][defense] -> markers of one attack (before the cap) */
    int16_t *wounds;     /* [attack][defense] -> wounds of one attack */
    int cap;             /* per-turn marker cap of this target */
} aa_fire_tables;

enum {
    AA_SIM_NO_SCORE_TABLES = -1,   /* out of memory for the p_shooter + p_target score tables */
    AA_SIM_NO_RESULT_TABLE = -2    /* out of memory for the n_att x n_def fire-result table */
};

/* Build the tables of dice shooter[3] (Table 5 row shooter_row; split_fire: this target faces the
 * higher attack only) on dice target[3] (row target_row) at `band`, target armor, cover, ap and
 * kind. The product of the six sides must be at most 2**32. Returns 0, or AA_SIM_NO_* (out of
 * memory; p_shooter, p_target, n_att and n_def say how large). Free with aa_fire_tables_free. */
int aa_fire_tables_init(aa_fire_tables *t, const int64_t *shooter, const int64_t *target,
                        const signed char *shooter_row, const signed char *target_row, int split_fire,
                        int band, int armor, int cover, int ap, int vehicle, const aa_fire_rules *rules);

/* Free what aa_fire_tables_init allocated (also after it failed). */
void aa_fire_tables_free(aa_fire_tables *t);

/* Engagements [lo, hi) drawn from bg: capped markers[i] and wounds[i]. */
void aa_simulate_fire_range(aa_bitgen *bg, const aa_fire_tables *t, ptrdiff_t lo, ptrdiff_t hi,
                            int8_t *markers, int16_t *wounds);

AA_EXTERN_C_END

#endif
