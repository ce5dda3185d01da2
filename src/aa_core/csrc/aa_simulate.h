/* Monte Carlo fire: many independent engagements of one shooter on one target, one 32-bit word each.
 *
 * The exact distribution of the outcome (capped markers, wounds) is known beforehand: counts[k] of
 * the `total` equally likely rolls of the six dice give outcome k (the odds kernels count them).
 * With q = floor(2^32 / total), the words below total * q are split into consecutive runs of
 * counts[k] * q words, one run per outcome: a word drawn uniformly, rejected if at or above
 * total * q (probability below total / 2^32, under 0.07 % for six d12), falls in run k with
 * probability exactly counts[k] / total. A guide table on the top bits of the word finds the run in
 * one lookup and, rarely, a step or two. Each chunk of engagements draws from its own PCG64 stream,
 * seeded here from its SeedSequence entropy (aa_pcg.h), so results do not depend on the thread count
 * (aa_core/simulate.pyx). */
#ifndef AA_SIMULATE_H
#define AA_SIMULATE_H

#include "aa_common.h"

AA_EXTERN_C_BEGIN

enum {
    AA_SIM_GUIDE_BITS = 10,             /* the guide table has 2^10 entries, one per top-10-bit prefix */
    AA_SIM_MAX_OUTCOMES = 65535,        /* outcomes a table can hold (guide entries are uint16) */
    AA_SIM_BAD_TOTAL = -1,              /* total is 0, above 2^32, or not the sum of the counts */
    AA_SIM_BAD_OUTCOMES = -2,           /* n_outcomes is 0, above AA_SIM_MAX_OUTCOMES, or a count is 0 */
    AA_SIM_NO_MEMORY = -3               /* out of memory for the n_outcomes run ends */
};

typedef struct aa_fire_cdf {
    int n_outcomes;
    uint64_t limit;          /* total * q: words at or above it are rejected */
    uint64_t *ends;          /* [n_outcomes]: run k is [ends[k-1], ends[k]) (ends[-1] = 0) */
    int8_t *markers;         /* [n_outcomes]: capped markers of outcome k */
    int16_t *wounds;         /* [n_outcomes]: wounds of outcome k */
    uint16_t guide[1 << AA_SIM_GUIDE_BITS];   /* first run that can hold a word of this prefix */
} aa_fire_cdf;

/* Build t from the outcomes' exact counts (each > 0, summing to total <= 2^32) and their
 * (markers, wounds). Returns 0 or AA_SIM_*; free with aa_fire_cdf_free (also after a failure). */
int aa_fire_cdf_init(aa_fire_cdf *t, const int64_t *counts, const int8_t *markers, const int16_t *wounds,
                     int n_outcomes, uint64_t total);

/* Free what aa_fire_cdf_init allocated. */
void aa_fire_cdf_free(aa_fire_cdf *t);

/* Engagements [lo, hi) drawn from the PCG64 state st (six words, aa_pcg.h) into markers[i],
 * wounds[i]; st advances as numpy's PCG64 would after the same next_uint32 calls. */
void aa_simulate_fire_pcg(const aa_fire_cdf *t, uint64_t *st, ptrdiff_t lo, ptrdiff_t hi,
                          int8_t *markers, int16_t *wounds);

/* Engagements [lo, hi) of chunk `chunk`: drawn from PCG64(SeedSequence(entropy, spawn_key=key +
 * (chunk,))), whose assembled entropy without the chunk's words is base[0..n_base). Returns 0, or
 * AA_SIM_NO_MEMORY if a base longer than 60 words cannot be copied. */
int aa_simulate_fire_chunk(const aa_fire_cdf *t, const uint32_t *base, int n_base, uint64_t chunk,
                           ptrdiff_t lo, ptrdiff_t hi, int8_t *markers, int16_t *wounds);

AA_EXTERN_C_END

#endif
