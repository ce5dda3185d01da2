/* Exact uniform dice from a bit generator.
 *
 * aa_roll_faces draws k dice with one 32-bit word using batched ranged generation
 * (Brackett-Rozinsky and Lemire 2024): r -> r * sides[i], the high word is die i, the low word
 * carries on. This is Lemire's nearly divisionless method for the product P of the sides, so it is
 * exactly uniform when words whose final low part is below (2**32 mod P) are rejected. Requires
 * P <= 2**32. */
#ifndef AA_RNG_H
#define AA_RNG_H

#include "aa_common.h"
#include "aa_bitgen.h"

/* (2**32 mod product): final low words below it are rejected. */
AA_INLINE uint32_t aa_reject_threshold(uint32_t product) {
    return ((uint32_t)(0 - product)) % product;
}

/* Fill faces[0..k) with independent uniform faces 1..sides[i]. */
AA_INLINE void aa_roll_faces(aa_bitgen *bg, const uint32_t *sides, int k, uint32_t threshold, int *faces) {
    uint32_t r;
    uint64_t m;
    int i;
    for (;;) {
        r = bg->next_uint32(bg->state);
        for (i = 0; i < k; i++) {
            m = (uint64_t)r * sides[i];
            faces[i] = (int)(m >> 32) + 1;
            r = (uint32_t)m;
        }
        if (r >= threshold)
            return;
    }
}

/* One die of `sides` faces (RandomSource.roll): 1..sides. */
AA_INLINE int aa_roll_die(aa_bitgen *bg, uint32_t sides) {
    int face;
    aa_roll_faces(bg, &sides, 1, aa_reject_threshold(sides), &face);
    return face;
}

#endif
