# numpy's SeedSequence and PCG64 in C, bit for bit, for engines that seed and draw without Python.
#
# A generator's state is six uint64 words: state (high, low), increment (high, low), has_uint32 and
# the buffered uint32, laid out so that numpy arrays can hold many of them (pickled as data).
# `pcg_seed(words, n, pool_size-padded spawn words...)` equals np.random.PCG64(SeedSequence(...)) and
# `pcg_bitgen` wraps a state as a numpy bitgen_t, so aa_core.rng.roll_faces draws from it exactly as
# it draws from a numpy PCG64 (tests/test_pcg.py compares both). The 128-bit arithmetic uses the
# compiler's unsigned __int128 where it has one, else two 64-bit halves (MSVC); tests/test_pcg_fallback.py
# builds the halves on purpose and checks them against Python integers and numpy.
from libc.stdint cimport uint32_t, uint64_t
from numpy.random cimport bitgen_t

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__SIZEOF_INT128__) && !defined(AA_NO_INT128)
    #define AA_U128_NATIVE 1
    typedef unsigned __int128 aa_u128;
    static CYTHON_INLINE aa_u128 aa_u128_make(uint64_t hi, uint64_t lo) { return ((aa_u128)hi << 64) | lo; }
    static CYTHON_INLINE uint64_t aa_u128_hi(aa_u128 x) { return (uint64_t)(x >> 64); }
    static CYTHON_INLINE uint64_t aa_u128_lo(aa_u128 x) { return (uint64_t)x; }
    static CYTHON_INLINE aa_u128 aa_u128_add_(aa_u128 a, aa_u128 b) { return a + b; }
    static CYTHON_INLINE aa_u128 aa_u128_mul(aa_u128 a, aa_u128 b) { return a * b; }
    #else
    /* No 128-bit integer type (MSVC; or forced with -DAA_NO_INT128 to test this path): two 64-bit
       halves, the 64x64->128 product assembled from 32-bit pieces. Same results bit for bit. */
    #define AA_U128_NATIVE 0
    typedef struct { uint64_t hi, lo; } aa_u128;
    static CYTHON_INLINE aa_u128 aa_u128_make(uint64_t hi, uint64_t lo) { aa_u128 r; r.hi = hi; r.lo = lo; return r; }
    static CYTHON_INLINE uint64_t aa_u128_hi(aa_u128 x) { return x.hi; }
    static CYTHON_INLINE uint64_t aa_u128_lo(aa_u128 x) { return x.lo; }
    static CYTHON_INLINE aa_u128 aa_u128_add_(aa_u128 a, aa_u128 b) {
        aa_u128 r; r.lo = a.lo + b.lo; r.hi = a.hi + b.hi + (r.lo < a.lo); return r;
    }
    static CYTHON_INLINE uint64_t aa_mul64_hi(uint64_t a, uint64_t b) {
        uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
        uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
        uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;   /* < 3 * 2^32: no overflow */
        return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    }
    static CYTHON_INLINE aa_u128 aa_u128_mul(aa_u128 a, aa_u128 b) {   /* a * b mod 2^128 */
        aa_u128 r; r.lo = a.lo * b.lo; r.hi = aa_mul64_hi(a.lo, b.lo) + a.hi * b.lo + a.lo * b.hi; return r;
    }
    #endif
    static CYTHON_INLINE aa_u128 aa_pcg_step(aa_u128 state, aa_u128 inc) {
        return aa_u128_add_(aa_u128_mul(state, aa_u128_make(0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL)), inc);
    }
    static CYTHON_INLINE uint64_t aa_pcg_output(aa_u128 state) {   /* XSL-RR: xor-fold, rotate by the top 6 bits */
        uint64_t hi = aa_u128_hi(state), v = hi ^ aa_u128_lo(state);
        unsigned int rot = (unsigned int)(hi >> 58);
        return (v >> rot) | (v << ((64u - rot) & 63u));
    }
    """
    # Opaque to Cython: a native 128-bit integer or a struct of two halves, passed by value.
    ctypedef struct aa_u128:
        pass
    int AA_U128_NATIVE  # 1: the compiler's unsigned __int128; 0: the portable halves
    aa_u128 aa_u128_make(uint64_t hi, uint64_t lo) noexcept nogil
    uint64_t aa_u128_hi(aa_u128 x) noexcept nogil
    uint64_t aa_u128_lo(aa_u128 x) noexcept nogil
    aa_u128 aa_u128_mul(aa_u128 a, aa_u128 b) noexcept nogil
    aa_u128 aa_pcg_step(aa_u128 state, aa_u128 inc) noexcept nogil
    uint64_t aa_pcg_output(aa_u128 state) noexcept nogil
    aa_u128 aa_u128_add "aa_u128_add_" (aa_u128 a, aa_u128 b) noexcept nogil

cdef enum:
    PCG_WORDS = 6
    SEED_POOL = 4
    SEED_MAX_WORDS = 16


cdef inline uint32_t _hashmix(uint32_t value, uint32_t* hc) noexcept nogil:
    value ^= hc[0]
    hc[0] *= <uint32_t>0x931e8875
    value *= hc[0]
    value ^= value >> 16
    return value


cdef inline uint32_t _mix(uint32_t x, uint32_t y) noexcept nogil:
    cdef uint32_t r = <uint32_t>0xca01f9dd * x - <uint32_t>0x4973f715 * y
    r ^= r >> 16
    return r


cdef inline void seedseq_state(const uint32_t* entropy, int n, uint32_t* out, int n_words) noexcept nogil:
    """SeedSequence(entropy words).generate_state(n_words, uint32): `entropy` is the assembled
    entropy (the seed's words, zero-padded to 4 when a spawn key follows, then the key's words)."""
    cdef uint32_t pool[SEED_POOL]
    cdef uint32_t hc = <uint32_t>0x43b0d7e5, v
    cdef int i, j
    for i in range(SEED_POOL):
        pool[i] = _hashmix(entropy[i] if i < n else 0, &hc)
    for i in range(SEED_POOL):
        for j in range(SEED_POOL):
            if i != j:
                pool[j] = _mix(pool[j], _hashmix(pool[i], &hc))
    for i in range(SEED_POOL, n):
        for j in range(SEED_POOL):
            pool[j] = _mix(pool[j], _hashmix(entropy[i], &hc))
    hc = <uint32_t>0x8b51f9dd
    for i in range(n_words):
        v = pool[i % SEED_POOL]
        v ^= hc
        hc *= <uint32_t>0x58f38ded
        v *= hc
        v ^= v >> 16
        out[i] = v


cdef inline int int_words(uint64_t x, uint32_t* out) noexcept nogil:
    """numpy's words of a non-negative integer (low first; [0] for zero); returns their number."""
    if x >> 32:
        out[0] = <uint32_t>x
        out[1] = <uint32_t>(x >> 32)
        return 2
    out[0] = <uint32_t>x
    return 1


cdef inline void pcg_seed(const uint32_t* entropy, int n, uint64_t* st) noexcept nogil:
    """st = the state of np.random.PCG64(SeedSequence with this assembled entropy)."""
    cdef uint32_t w[8]
    cdef uint64_t v[4]
    cdef int k
    cdef aa_u128 s, inc
    seedseq_state(entropy, n, w, 8)
    for k in range(4):
        v[k] = <uint64_t>w[2 * k] | (<uint64_t>w[2 * k + 1] << 32)
    inc = aa_u128_make((v[2] << 1) | (v[3] >> 63), (v[3] << 1) | 1)
    s = aa_pcg_step(aa_u128_make(0, 0), inc)
    s = aa_pcg_step(aa_u128_add(s, aa_u128_make(v[0], v[1])), inc)
    st[0] = aa_u128_hi(s)
    st[1] = aa_u128_lo(s)
    st[2] = aa_u128_hi(inc)
    st[3] = aa_u128_lo(inc)
    st[4] = 0
    st[5] = 0


cdef inline uint64_t pcg_next64(void* p) noexcept nogil:
    cdef uint64_t* st = <uint64_t*>p
    cdef aa_u128 s = aa_pcg_step(aa_u128_make(st[0], st[1]), aa_u128_make(st[2], st[3]))
    st[0] = aa_u128_hi(s)
    st[1] = aa_u128_lo(s)
    return aa_pcg_output(s)


cdef inline uint32_t pcg_next32(void* p) noexcept nogil:
    """numpy's PCG64 next_uint32: the halves of one 64-bit output, low half first."""
    cdef uint64_t* st = <uint64_t*>p
    cdef uint64_t nxt
    if st[4]:
        st[4] = 0
        return <uint32_t>st[5]
    nxt = pcg_next64(p)
    st[4] = 1
    st[5] = nxt >> 32
    return <uint32_t>nxt


cdef inline double pcg_next_double(void* p) noexcept nogil:
    return (pcg_next64(p) >> 11) * (1.0 / 9007199254740992.0)


cdef inline void pcg_bitgen(uint64_t* st, bitgen_t* bg) noexcept nogil:
    """Make bg draw from the state words st (as numpy's PCG64 would)."""
    bg.state = st
    bg.next_uint64 = pcg_next64
    bg.next_uint32 = pcg_next32
    bg.next_double = pcg_next_double
    bg.next_raw = pcg_next64
