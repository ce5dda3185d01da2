/* numpy's SeedSequence and PCG64 in C, bit for bit, for engines that seed and draw without Python.
 *
 * A generator's state is six uint64 words: state (high, low), increment (high, low), has_uint32
 * and the buffered uint32, so that numpy arrays can hold many of them (pickled as data).
 * aa_pcg_seed(assembled entropy) equals np.random.PCG64(SeedSequence(...)), and aa_pcg_bitgen wraps
 * a state as an aa_bitgen that draws exactly as numpy's PCG64 does (tests/test_pcg.py).
 * The 128-bit arithmetic uses the compiler's unsigned __int128 where it has one, else two 64-bit
 * halves (MSVC; or forced with -DAA_NO_INT128, as tests/test_pcg_fallback.py does). */
#ifndef AA_PCG_H
#define AA_PCG_H

#include "aa_common.h"
#include "aa_bitgen.h"

#if defined(__SIZEOF_INT128__) && !defined(AA_NO_INT128)
#define AA_U128_NATIVE 1
#if defined(__GNUC__)
__extension__ typedef unsigned __int128 aa_u128;   /* __extension__: quiet under -pedantic */
#else
typedef unsigned __int128 aa_u128;
#endif
AA_INLINE aa_u128 aa_u128_make(uint64_t hi, uint64_t lo) { return ((aa_u128)hi << 64) | lo; }
AA_INLINE uint64_t aa_u128_hi(aa_u128 x) { return (uint64_t)(x >> 64); }
AA_INLINE uint64_t aa_u128_lo(aa_u128 x) { return (uint64_t)x; }
AA_INLINE aa_u128 aa_u128_add(aa_u128 a, aa_u128 b) { return a + b; }
AA_INLINE aa_u128 aa_u128_mul(aa_u128 a, aa_u128 b) { return a * b; }
#else
/* No 128-bit integer type: two 64-bit halves, the 64x64->128 product assembled from 32-bit
 * pieces. Same results bit for bit. */
#define AA_U128_NATIVE 0
typedef struct aa_u128 { uint64_t hi, lo; } aa_u128;
AA_INLINE aa_u128 aa_u128_make(uint64_t hi, uint64_t lo) { aa_u128 r; r.hi = hi; r.lo = lo; return r; }
AA_INLINE uint64_t aa_u128_hi(aa_u128 x) { return x.hi; }
AA_INLINE uint64_t aa_u128_lo(aa_u128 x) { return x.lo; }
AA_INLINE aa_u128 aa_u128_add(aa_u128 a, aa_u128 b) {
    aa_u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
}
AA_INLINE uint64_t aa_mul64_hi(uint64_t a, uint64_t b) {
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;   /* < 3 * 2^32: no overflow */
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
AA_INLINE aa_u128 aa_u128_mul(aa_u128 a, aa_u128 b) {   /* a * b mod 2^128 */
    aa_u128 r;
    r.lo = a.lo * b.lo;
    r.hi = aa_mul64_hi(a.lo, b.lo) + a.hi * b.lo + a.lo * b.hi;
    return r;
}
#endif

/* One LCG step of PCG64 (numpy's multiplier). */
AA_INLINE aa_u128 aa_pcg_step(aa_u128 state, aa_u128 inc) {
    return aa_u128_add(aa_u128_mul(state, aa_u128_make(0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL)), inc);
}

/* XSL-RR output: xor-fold, rotate by the top 6 bits. */
AA_INLINE uint64_t aa_pcg_output(aa_u128 state) {
    uint64_t hi = aa_u128_hi(state), v = hi ^ aa_u128_lo(state);
    unsigned int rot = (unsigned int)(hi >> 58);
    return (v >> rot) | (v << ((64u - rot) & 63u));
}

enum {
    AA_PCG_WORDS = 6,        /* uint64 words of one generator's state */
    AA_SEED_POOL = 4,        /* SeedSequence's pool size (uint32 words) */
    AA_SEED_MAX_WORDS = 16   /* seed words a VectorGame seed may have (below 2**512) */
};

AA_INLINE uint32_t aa_hashmix_(uint32_t value, uint32_t *hc) {
    value ^= *hc;
    *hc *= 0x931e8875u;
    value *= *hc;
    value ^= value >> 16;
    return value;
}

AA_INLINE uint32_t aa_mix_(uint32_t x, uint32_t y) {
    uint32_t r = 0xca01f9ddu * x - 0x4973f715u * y;
    r ^= r >> 16;
    return r;
}

/* SeedSequence(entropy words).generate_state(n_words, uint32): `entropy` is the assembled entropy
 * (the seed's words, zero-padded to 4 when a spawn key follows, then the key's words). */
AA_INLINE void aa_seedseq_state(const uint32_t *entropy, int n, uint32_t *out, int n_words) {
    uint32_t pool[AA_SEED_POOL];
    uint32_t hc = 0x43b0d7e5u, v;
    int i, j;
    for (i = 0; i < AA_SEED_POOL; i++)
        pool[i] = aa_hashmix_(i < n ? entropy[i] : 0, &hc);
    for (i = 0; i < AA_SEED_POOL; i++)
        for (j = 0; j < AA_SEED_POOL; j++)
            if (i != j)
                pool[j] = aa_mix_(pool[j], aa_hashmix_(pool[i], &hc));
    for (i = AA_SEED_POOL; i < n; i++)
        for (j = 0; j < AA_SEED_POOL; j++)
            pool[j] = aa_mix_(pool[j], aa_hashmix_(entropy[i], &hc));
    hc = 0x8b51f9ddu;
    for (i = 0; i < n_words; i++) {
        v = pool[i % AA_SEED_POOL];
        v ^= hc;
        hc *= 0x58f38dedu;
        v *= hc;
        v ^= v >> 16;
        out[i] = v;
    }
}

/* numpy's words of a non-negative integer (low first; [0] for zero); returns their number. */
AA_INLINE int aa_int_words(uint64_t x, uint32_t *out) {
    out[0] = (uint32_t)x;
    if (x >> 32) {
        out[1] = (uint32_t)(x >> 32);
        return 2;
    }
    return 1;
}

/* st = the state of np.random.PCG64(SeedSequence with this assembled entropy). */
AA_INLINE void aa_pcg_seed(const uint32_t *entropy, int n, uint64_t *st) {
    uint32_t w[8];
    uint64_t v[4];
    int k;
    aa_u128 s, inc;
    aa_seedseq_state(entropy, n, w, 8);
    for (k = 0; k < 4; k++)
        v[k] = (uint64_t)w[2 * k] | ((uint64_t)w[2 * k + 1] << 32);
    inc = aa_u128_make((v[2] << 1) | (v[3] >> 63), (v[3] << 1) | 1);
    s = aa_pcg_step(aa_u128_make(0, 0), inc);
    s = aa_pcg_step(aa_u128_add(s, aa_u128_make(v[0], v[1])), inc);
    st[0] = aa_u128_hi(s);
    st[1] = aa_u128_lo(s);
    st[2] = aa_u128_hi(inc);
    st[3] = aa_u128_lo(inc);
    st[4] = 0;
    st[5] = 0;
}

/* numpy's PCG64 next_uint64 on the state words p. */
AA_INLINE uint64_t aa_pcg_next64(void *p) {
    uint64_t *st = (uint64_t *)p;
    aa_u128 s = aa_pcg_step(aa_u128_make(st[0], st[1]), aa_u128_make(st[2], st[3]));
    st[0] = aa_u128_hi(s);
    st[1] = aa_u128_lo(s);
    return aa_pcg_output(s);
}

/* numpy's PCG64 next_uint32: the halves of one 64-bit output, low half first. */
AA_INLINE uint32_t aa_pcg_next32(void *p) {
    uint64_t *st = (uint64_t *)p;
    uint64_t nxt;
    if (st[4]) {
        st[4] = 0;
        return (uint32_t)st[5];
    }
    nxt = aa_pcg_next64(p);
    st[4] = 1;
    st[5] = nxt >> 32;
    return (uint32_t)nxt;
}

AA_INLINE double aa_pcg_next_double(void *p) {
    return (double)(aa_pcg_next64(p) >> 11) * (1.0 / 9007199254740992.0);
}

/* Make bg draw from the state words st (as numpy's PCG64 would). */
AA_INLINE void aa_pcg_bitgen(uint64_t *st, aa_bitgen *bg) {
    bg->state = st;
    bg->next_uint64 = aa_pcg_next64;
    bg->next_uint32 = aa_pcg_next32;
    bg->next_double = aa_pcg_next_double;
    bg->next_raw = aa_pcg_next64;
}

/* ------------------------------------------------------------------------------ seeding a game
 * The streams of a game as the Python API seeds them (atomic_africa.game.native.vector). */

/* st = the state of np.random.PCG64(seed), i.e. PCG64(SeedSequence(seed)): Game(spec, seed)'s
 * stream, and RandomAgent(seed)'s. */
AA_INLINE void aa_pcg_from_seed(uint64_t seed, uint64_t *st) {
    uint32_t w[2];
    aa_pcg_seed(w, aa_int_words(seed, w), st);
}

/* SeedSequence(seed, spawn_key=(key,)).generate_state(1, uint64)[0]: with key = side, the seed of
 * that side's agent in the game of seed `seed` (atomic_africa.game.native.agent_args.agent_seed). */
AA_INLINE uint64_t aa_spawn_seed(uint64_t seed, uint32_t key) {
    uint32_t ent[5];
    uint32_t w[2];
    int m = aa_int_words(seed, ent);
    while (m < 4)
        ent[m++] = 0;
    ent[m] = key;
    aa_seedseq_state(ent, m + 1, w, 2);
    return (uint64_t)w[0] | ((uint64_t)w[1] << 32);
}

/* The learner's side in a game that a Gymnasium env plays with player="random": spawn key 2 of the
 * game seed (keys 0 and 1 are the sides' agent streams); native_agents.learner_side. */
AA_INLINE int aa_learner_side(uint64_t seed) {
    return (int)(aa_spawn_seed(seed, 2) & 1);
}

/* Assembled entropy of SeedSequence(seed words, spawn_key=(a,) or (a, b) if two) into ent (at
 * least n_seed + 4 + 4 words); returns its length. */
AA_INLINE int aa_spawn_entropy(const uint32_t *seed_words, int n_seed, uint64_t a, uint64_t b, int two,
                               uint32_t *ent) {
    int k, m = n_seed;
    for (k = 0; k < n_seed; k++)
        ent[k] = seed_words[k];
    while (m < 4)
        ent[m++] = 0;
    m += aa_int_words(a, ent + m);
    if (two)
        m += aa_int_words(b, ent + m);
    return m;
}

/* The game seed of env `env`'s episode `episode` in a VectorGame seeded with seed_words:
 * SeedSequence(seed, spawn_key=(env, episode)).generate_state(1, uint64)[0]. */
AA_INLINE uint64_t aa_episode_seed(const uint32_t *seed_words, int n_seed, uint64_t env, uint64_t episode) {
    uint32_t ent[AA_SEED_MAX_WORDS + 8];
    uint32_t w[2];
    int m = aa_spawn_entropy(seed_words, n_seed, env, episode, 1, ent);
    aa_seedseq_state(ent, m, w, 2);
    return (uint64_t)w[0] | ((uint64_t)w[1] << 32);
}

#endif
