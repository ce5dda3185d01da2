/* A random bit generator as the engine and the batch kernels draw from it.
 *
 * Layout-identical to numpy's bitgen_t (numpy/random/bitgen.h), so a Cython driver passes the
 * bitgen_t* of any numpy BitGenerator cast to aa_bitgen*, and a C host wraps its own PCG64 state
 * in one (aa_pcg_bitgen in aa_pcg.h) without numpy. */
#ifndef AA_BITGEN_H
#define AA_BITGEN_H

#include <stdint.h>

typedef struct aa_bitgen {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} aa_bitgen;

#endif
