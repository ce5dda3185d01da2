# Exact uniform dice from a bit generator: the C core's csrc/aa_rng.h (batched Lemire draws; see the
# header), declared for Cython.
#
# The core draws from an `aa_bitgen` (csrc/aa_bitgen.h), laid out as numpy's bitgen_t, so the
# bitgen_t* of any numpy BitGenerator is cast to it; roll_faces takes numpy's type directly.
from libc.stdint cimport uint32_t, uint64_t
from numpy.random cimport bitgen_t


cdef extern from "csrc/aa_bitgen.h":
    ctypedef struct aa_bitgen:
        void* state
        uint64_t (*next_uint64)(void* st) noexcept nogil
        uint32_t (*next_uint32)(void* st) noexcept nogil
        double (*next_double)(void* st) noexcept nogil
        uint64_t (*next_raw)(void* st) noexcept nogil


cdef extern from "csrc/aa_rng.h" nogil:
    # (2**32 mod product): final low words below it are rejected.
    uint32_t reject_threshold "aa_reject_threshold"(uint32_t product) noexcept
    # Fill faces[0..k) with independent uniform faces 1..sides[i].
    void aa_roll_faces(aa_bitgen* bg, const uint32_t* sides, int k, uint32_t threshold, int* faces) noexcept


cdef inline void roll_faces(bitgen_t* bg, const uint32_t* sides, int k, uint32_t threshold,
                            int* faces) noexcept nogil:
    """Fill faces[0..k) with independent uniform faces 1..sides[i] from a numpy bitgen_t."""
    aa_roll_faces(<aa_bitgen*>bg, sides, k, threshold, faces)


cdef inline bint bitgen_layout_matches() noexcept nogil:
    """numpy's bitgen_t and aa_bitgen have the same size and member offsets (checked at import)."""
    cdef bitgen_t b
    cdef aa_bitgen* a = <aa_bitgen*>&b
    cdef char* base = <char*>&b
    return (sizeof(bitgen_t) == sizeof(aa_bitgen)
            and <char*>&a.state == <char*>&b.state and <char*>&a.next_uint64 == <char*>&b.next_uint64
            and <char*>&a.next_uint32 == <char*>&b.next_uint32
            and <char*>&a.next_double == <char*>&b.next_double
            and <char*>&a.next_raw == <char*>&b.next_raw and base == <char*>a)
