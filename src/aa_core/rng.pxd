# Exact uniform dice from numpy BitGenerators (bitgen_t C API). Header-only: inline functions.
#
# roll_faces draws k dice with one 32-bit word using batched ranged generation (Brackett-Rozinsky and
# Lemire 2024): r -> r * sides[i], the high word is die i, the low word carries on. This is Lemire's
# nearly divisionless method for the product P of the sides, so it is exactly uniform when words with
# a final low part below (2**32 mod P) are rejected. Requires P <= 2**32.
from libc.stdint cimport uint32_t, uint64_t
from numpy.random cimport bitgen_t


cdef inline uint32_t reject_threshold(uint32_t product) noexcept nogil:
    """(2**32 mod product): final low words below it are rejected."""
    return (<uint32_t>(0 - product)) % product


cdef inline void roll_faces(bitgen_t* bg, const uint32_t* sides, int k, uint32_t threshold,
                            int* faces) noexcept nogil:
    """Fill faces[0..k) with independent uniform faces 1..sides[i]."""
    cdef uint32_t r
    cdef uint64_t m
    cdef int i
    while True:
        r = bg.next_uint32(bg.state)
        for i in range(k):
            m = <uint64_t>r * sides[i]
            faces[i] = <int>(m >> 32) + 1
            r = <uint32_t>m
        if r >= threshold:
            return
