# cython: language_level=3
"""Python twins of the C core's PCG64 and SeedSequence (csrc/aa_pcg.h, declared in aa_core/pcg.pxd),
for the tests that compare them with numpy's (tests/test_pcg.py). Not used by the engine."""
from libc.stdint cimport uint32_t, uint64_t

from aa_core.pcg cimport pcg_next32, pcg_seed, seedseq_state


def pcg_state(const uint32_t[::1] entropy):
    """The six state words of np.random.PCG64(SeedSequence) for this assembled entropy (tests)."""
    cdef uint64_t st[6]
    pcg_seed(&entropy[0], <int>entropy.shape[0], st)
    return [st[k] for k in range(6)]


def pcg_uint32(uint64_t[::1] st, int k):
    """The next k uint32 draws of the state words st (advanced in place; tests)."""
    return [pcg_next32(&st[0]) for _ in range(k)]


def seedseq_words(const uint32_t[::1] entropy, int n_words):
    """SeedSequence(assembled entropy).generate_state(n_words, uint32) (tests)."""
    cdef uint32_t out[64]
    if not 0 < n_words <= 64:
        raise ValueError("n_words: allowed 1..64")
    seedseq_state(&entropy[0], <int>entropy.shape[0], out, n_words)
    return [out[k] for k in range(n_words)]
