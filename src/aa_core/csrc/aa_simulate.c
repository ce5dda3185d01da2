/* Monte Carlo fire (aa_simulate.h): the exact run table, and engagements drawn from one stream. */
#include <stdlib.h>
#include <string.h>

#include "aa_simulate.h"
#include "aa_pcg.h"

#define AA_SIM_WORDS 4294967296ULL   /* 2^32 */

int aa_fire_cdf_init(aa_fire_cdf *t, const int64_t *counts, const int8_t *markers, const int16_t *wounds,
                     int n_outcomes, uint64_t total) {
    uint64_t q, cum = 0, prefix;
    int k, b;
    t->n_outcomes = 0;
    t->ends = NULL;
    t->markers = NULL;
    t->wounds = NULL;
    if (n_outcomes < 1 || n_outcomes > AA_SIM_MAX_OUTCOMES)
        return AA_SIM_BAD_OUTCOMES;
    if (total == 0 || total > AA_SIM_WORDS)
        return AA_SIM_BAD_TOTAL;
    for (k = 0; k < n_outcomes; k++) {
        if (counts[k] <= 0)
            return AA_SIM_BAD_OUTCOMES;
        cum += (uint64_t)counts[k];
        if (cum > total)
            return AA_SIM_BAD_TOTAL;
    }
    if (cum != total)
        return AA_SIM_BAD_TOTAL;
    t->ends = (uint64_t *)malloc((size_t)n_outcomes * sizeof(uint64_t));
    t->markers = (int8_t *)malloc((size_t)n_outcomes * sizeof(int8_t));
    t->wounds = (int16_t *)malloc((size_t)n_outcomes * sizeof(int16_t));
    if (t->ends == NULL || t->markers == NULL || t->wounds == NULL)
        return AA_SIM_NO_MEMORY;
    t->n_outcomes = n_outcomes;
    q = AA_SIM_WORDS / total;
    t->limit = total * q;
    cum = 0;
    for (k = 0; k < n_outcomes; k++) {
        cum += (uint64_t)counts[k];
        t->ends[k] = cum * q;
        t->markers[k] = markers[k];
        t->wounds[k] = wounds[k];
    }
    /* guide[b]: the run holding the smallest word of prefix b (the last run for rejected prefixes),
     * so a word of that prefix lies in that run or a later one. */
    k = 0;
    for (b = 0; b < (1 << AA_SIM_GUIDE_BITS); b++) {
        prefix = (uint64_t)b << (32 - AA_SIM_GUIDE_BITS);
        while (k < n_outcomes - 1 && t->ends[k] <= prefix)
            k++;
        t->guide[b] = (uint16_t)k;
    }
    return 0;
}

void aa_fire_cdf_free(aa_fire_cdf *t) {
    free(t->ends);
    free(t->markers);
    free(t->wounds);
    t->ends = NULL;
    t->markers = NULL;
    t->wounds = NULL;
    t->n_outcomes = 0;
}

/* The outcome of an accepted word w (< t->limit): its run. */
AA_INLINE int run_of(const aa_fire_cdf *t, uint32_t w) {
    int k = t->guide[w >> (32 - AA_SIM_GUIDE_BITS)];
    while ((uint64_t)w >= t->ends[k])
        k++;
    return k;
}

void aa_simulate_fire_pcg(const aa_fire_cdf *t, uint64_t *st, ptrdiff_t lo, ptrdiff_t hi,
                          int8_t *markers, int16_t *wounds) {
    /* The PCG64 state lives in registers for the whole loop; words come in numpy's next_uint32
     * order (a buffered high half first, then the low and high halves of each 64-bit output). */
    aa_u128 s = aa_u128_make(st[0], st[1]);
    const aa_u128 inc = aa_u128_make(st[2], st[3]);
    int have = (int)st[4];
    uint32_t spare = (uint32_t)st[5], w;
    uint64_t out;
    const uint64_t limit = t->limit;
    ptrdiff_t i = lo;
    int k;
    uint32_t w1;
    /* A buffered half first (a state handed over mid-output), then whole outputs two engagements
     * at a time while both halves are accepted (all but a few in 10^4): no branch on the buffer. */
    while (have && i < hi) {
        have = 0;
        if ((uint64_t)spare < limit) {
            k = run_of(t, spare);
            markers[i] = t->markers[k];
            wounds[i] = t->wounds[k];
            i++;
        }
    }
    while (i + 1 < hi) {
        s = aa_pcg_step(s, inc);
        out = aa_pcg_output(s);
        w = (uint32_t)out;
        w1 = (uint32_t)(out >> 32);
        if ((uint64_t)w < limit) {
            k = run_of(t, w);
            markers[i] = t->markers[k];
            wounds[i] = t->wounds[k];
            i++;
        }
        if ((uint64_t)w1 < limit) {
            k = run_of(t, w1);
            markers[i] = t->markers[k];
            wounds[i] = t->wounds[k];
            i++;
        }
    }
    for (; i < hi; i++) {   /* the last engagement, if any: its word may leave a half buffered */
        do {
            if (have) {
                have = 0;
                w = spare;
            } else {
                s = aa_pcg_step(s, inc);
                out = aa_pcg_output(s);
                w = (uint32_t)out;
                spare = (uint32_t)(out >> 32);
                have = 1;
            }
        } while ((uint64_t)w >= limit);
        k = run_of(t, w);
        markers[i] = t->markers[k];
        wounds[i] = t->wounds[k];
    }
    st[0] = aa_u128_hi(s);
    st[1] = aa_u128_lo(s);
    st[4] = (uint64_t)have;
    st[5] = have ? spare : 0;
}

int aa_simulate_fire_chunk(const aa_fire_cdf *t, const uint32_t *base, int n_base, uint64_t chunk,
                           ptrdiff_t lo, ptrdiff_t hi, int8_t *markers, int16_t *wounds) {
    uint32_t local[64];
    uint32_t *ent = local;
    uint64_t st[AA_PCG_WORDS];
    int n;
    if (n_base + 2 > 64) {
        ent = (uint32_t *)malloc(((size_t)n_base + 2) * sizeof(uint32_t));
        if (ent == NULL)
            return AA_SIM_NO_MEMORY;
    }
    memcpy(ent, base, (size_t)n_base * sizeof(uint32_t));
    n = n_base + aa_int_words(chunk, ent + n_base);
    aa_pcg_seed(ent, n, st);
    if (ent != local)
        free(ent);
    aa_simulate_fire_pcg(t, st, lo, hi, markers, wounds);
    return 0;
}
