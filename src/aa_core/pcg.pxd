# numpy's SeedSequence and PCG64 in C, bit for bit: the C core's csrc/aa_pcg.h, declared for Cython.
#
# A generator's state is six uint64 words: state (high, low), increment (high, low), has_uint32 and
# the buffered uint32, laid out so that numpy arrays can hold many of them (pickled as data).
# `pcg_seed(assembled entropy words, n, st)` equals np.random.PCG64(SeedSequence(...)) and
# `aa_pcg_bitgen` wraps a state as an aa_bitgen, so the core's dice draw from it exactly as from a
# numpy PCG64 (tests/test_pcg.py compares both). The 128-bit arithmetic uses the compiler's unsigned
# __int128 where it has one, else two 64-bit halves (MSVC); tests/test_pcg_fallback.py builds the
# halves on purpose (-DAA_NO_INT128) and checks them against Python integers and numpy.
from libc.stdint cimport uint32_t, uint64_t
from numpy.random cimport bitgen_t

from aa_core.rng cimport aa_bitgen


cdef extern from "csrc/aa_pcg.h" nogil:
    # Opaque to Cython: a native 128-bit integer or a struct of two halves, passed by value.
    ctypedef struct aa_u128:
        pass
    int AA_U128_NATIVE  # 1: the compiler's unsigned __int128; 0: the portable halves
    aa_u128 aa_u128_make(uint64_t hi, uint64_t lo) noexcept
    uint64_t aa_u128_hi(aa_u128 x) noexcept
    uint64_t aa_u128_lo(aa_u128 x) noexcept
    aa_u128 aa_u128_add(aa_u128 a, aa_u128 b) noexcept
    aa_u128 aa_u128_mul(aa_u128 a, aa_u128 b) noexcept
    aa_u128 aa_pcg_step(aa_u128 state, aa_u128 inc) noexcept
    uint64_t aa_pcg_output(aa_u128 state) noexcept

    enum:
        PCG_WORDS "AA_PCG_WORDS"
        SEED_POOL "AA_SEED_POOL"
        SEED_MAX_WORDS "AA_SEED_MAX_WORDS"

    # SeedSequence(entropy words).generate_state(n_words, uint32); `entropy` is the assembled
    # entropy (the seed's words, zero-padded to 4 when a spawn key follows, then the key's words).
    void seedseq_state "aa_seedseq_state"(const uint32_t* entropy, int n, uint32_t* out, int n_words) noexcept
    # numpy's words of a non-negative integer (low first; [0] for zero); returns their number.
    int int_words "aa_int_words"(uint64_t x, uint32_t* out) noexcept
    # st = the state of np.random.PCG64(SeedSequence with this assembled entropy).
    void pcg_seed "aa_pcg_seed"(const uint32_t* entropy, int n, uint64_t* st) noexcept
    uint64_t pcg_next64 "aa_pcg_next64"(void* p) noexcept
    uint32_t pcg_next32 "aa_pcg_next32"(void* p) noexcept
    double pcg_next_double "aa_pcg_next_double"(void* p) noexcept
    # Make bg draw from the state words st (as numpy's PCG64 would).
    void aa_pcg_bitgen(uint64_t* st, aa_bitgen* bg) noexcept
    # Seeding a game as the Python API does: PCG64(seed); SeedSequence(seed, spawn_key=(key,))'s
    # first uint64; the learner's side of player="random"; SeedSequence(seed words,
    # spawn_key=(env, episode))'s first uint64.
    void aa_pcg_from_seed(uint64_t seed, uint64_t* st) noexcept
    uint64_t aa_spawn_seed(uint64_t seed, uint32_t key) noexcept
    int aa_learner_side(uint64_t seed) noexcept
    uint64_t aa_episode_seed(const uint32_t* seed_words, int n_seed, uint64_t env, uint64_t episode) noexcept


cdef inline void pcg_bitgen(uint64_t* st, bitgen_t* bg) noexcept nogil:
    """Make the numpy bitgen_t bg draw from the state words st (as numpy's PCG64 would)."""
    aa_pcg_bitgen(st, <aa_bitgen*>bg)
