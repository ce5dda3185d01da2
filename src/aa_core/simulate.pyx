# cython: language_level=3
"""simulate_fire: draw many independent engagements from an exact outcome table, chunked over threads.

A FireCdf holds one engagement's exact outcome distribution as runs of 32-bit words (the C core's
csrc/aa_simulate.h): one word per engagement, mapped to its outcome by a guide-table lookup. Chunk c
(engagements [c*chunk, (c+1)*chunk)) draws only from its own PCG64 stream, PCG64(SeedSequence(
entropy, spawn_key=key + (c,))), seeded in C (csrc/aa_pcg.h, bit for bit numpy's), so the output
does not depend on the thread count and no numpy Generator is made.
"""
cimport numpy as cnp
from cpython.pycapsule cimport PyCapsule_GetPointer
from cython.parallel cimport prange
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int8_t, int16_t, int64_t, uint16_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t

cnp.import_array()


cdef extern from "csrc/aa_simulate.h" nogil:
    enum:
        AA_SIM_GUIDE_BITS
        AA_SIM_BAD_TOTAL
        AA_SIM_BAD_OUTCOMES
        AA_SIM_NO_MEMORY
    ctypedef struct aa_fire_cdf:
        int n_outcomes
        uint64_t limit
        uint64_t* ends
    int aa_fire_cdf_init(aa_fire_cdf* t, const int64_t* counts, const int8_t* markers,
                         const int16_t* wounds, int n_outcomes, uint64_t total) noexcept
    void aa_fire_cdf_free(aa_fire_cdf* t) noexcept
    void aa_simulate_fire_pcg(const aa_fire_cdf* t, uint64_t* st, ptrdiff_t lo, ptrdiff_t hi,
                              int8_t* markers, int16_t* wounds) noexcept
    int aa_simulate_fire_chunk(const aa_fire_cdf* t, const uint32_t* base, int n_base, uint64_t chunk,
                               ptrdiff_t lo, ptrdiff_t hi, int8_t* markers, int16_t* wounds) noexcept


cdef class FireCdf:
    """One engagement's exact outcome table: outcome k has probability counts[k] / total.

    Parameters
    ----------
    counts : int64 array
        Positive counts of equally likely rolls giving each outcome, summing to ``total``.
    markers, wounds : int8, int16 arrays
        The outcomes' capped markers and wounds, same length.
    total : int
        Number of equally likely rolls, 1..2**32.
    """
    cdef aa_fire_cdf t

    def __cinit__(self, const int64_t[::1] counts, const int8_t[::1] markers, const int16_t[::1] wounds,
                  uint64_t total):
        if markers.shape[0] != counts.shape[0] or wounds.shape[0] != counts.shape[0]:
            raise ValueError("counts, markers, wounds: expected the same length")
        status = aa_fire_cdf_init(&self.t, &counts[0] if counts.shape[0] else NULL,
                                  &markers[0] if counts.shape[0] else NULL,
                                  &wounds[0] if counts.shape[0] else NULL, counts.shape[0], total)
        if status == AA_SIM_NO_MEMORY:
            raise MemoryError(f"counts: cannot allocate a table of {counts.shape[0]} outcomes")
        if status == AA_SIM_BAD_OUTCOMES:
            raise ValueError(f"counts: expected 1..65535 positive counts, got {list(counts)[:8]}")
        if status == AA_SIM_BAD_TOTAL:
            raise ValueError(f"total: expected the counts' sum, at most 2**32, got {total}")

    def __dealloc__(self):
        aa_fire_cdf_free(&self.t)

    @property
    def limit(self):
        """total * floor(2**32 / total): words at or above it are rejected."""
        return self.t.limit

    @property
    def ends(self):
        """End (exclusive) of each outcome's run of words."""
        return [self.t.ends[k] for k in range(self.t.n_outcomes)]

    def sample(self, cnp.ndarray base, Py_ssize_t n, Py_ssize_t chunk, int threads):
        """(markers int8, wounds int16) of n engagements: chunk c from the stream of assembled
        entropy base (a C-contiguous uint32 array) + the words of c."""
        # Raw arrays, not typed memoryviews: acquiring a buffer costs more than a small call's work.
        if cnp.PyArray_TYPE(base) != cnp.NPY_UINT32 or not cnp.PyArray_IS_C_CONTIGUOUS(base) \
                or cnp.PyArray_NDIM(base) != 1 or cnp.PyArray_DIM(base, 0) < 1:
            raise ValueError("base: expected a non-empty C-contiguous 1-D uint32 array")
        return self._sample(<const uint32_t*>cnp.PyArray_DATA(base), <int>cnp.PyArray_DIM(base, 0), n, chunk,
                            threads)

    def sample_int(self, uint64_t seed, Py_ssize_t n, Py_ssize_t chunk, int threads):
        """As sample, for SeedSequence(seed) of an int seed below 2**64: its children's assembled
        entropy is the seed's one or two words zero-padded to the pool's 4 (no SeedSequence made)."""
        cdef uint32_t b[4]
        b[0] = <uint32_t>seed
        b[1] = <uint32_t>(seed >> 32)
        b[2] = 0
        b[3] = 0
        return self._sample(b, 4, n, chunk, threads)

    def sample_bitgen(self, object bit_generator, Py_ssize_t n, Py_ssize_t chunk, int threads):
        """As sample, for SeedSequence(Generator(bit_generator).integers(0, 2**63, 4, uint64)): the
        four words drawn here through numpy's C API under the bit generator's lock."""
        # integers(0, 2**63, dtype=uint64) is Lemire's method with a range of 2**63, whose rejection
        # threshold is 0: each value is exactly next_uint64() >> 1, one draw each, for every numpy
        # BitGenerator (tests compare the two).
        cdef bitgen_t* bg = <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
        cdef uint64_t v[4]
        cdef uint32_t b[8]
        cdef int k, m = 0
        with bit_generator.lock:
            for k in range(4):
                v[k] = bg.next_uint64(bg.state) >> 1
        for k in range(4):   # numpy's words of each int: one word when the high half is zero
            b[m] = <uint32_t>v[k]
            m += 1
            if v[k] >> 32:
                b[m] = <uint32_t>(v[k] >> 32)
                m += 1
        return self._sample(b, m, n, chunk, threads)

    cdef object _sample(self, const uint32_t* b, int n_base, Py_ssize_t n, Py_ssize_t chunk, int threads):
        if n < 0 or chunk < 1:
            raise ValueError(f"n, chunk: expected n >= 0 and chunk >= 1, got {n}, {chunk}")
        cdef cnp.npy_intp dim = n
        cdef cnp.ndarray markers = cnp.PyArray_EMPTY(1, &dim, cnp.NPY_INT8, 0)
        cdef cnp.ndarray wounds = cnp.PyArray_EMPTY(1, &dim, cnp.NPY_INT16, 0)
        cdef int8_t* m = <int8_t*>cnp.PyArray_DATA(markers)
        cdef int16_t* w = <int16_t*>cnp.PyArray_DATA(wounds)
        cdef Py_ssize_t n_chunks = (n + chunk - 1) // chunk
        cdef Py_ssize_t c, lo, hi
        cdef int failed = 0
        if n_chunks == 1:   # the common small call: no OpenMP team, no GIL release
            failed = aa_simulate_fire_chunk(&self.t, b, n_base, 0, 0, n, m, w)
        elif n_chunks > 1:
            with nogil:
                for c in prange(n_chunks, num_threads=threads, schedule="dynamic", chunksize=1):
                    lo = c * chunk
                    hi = lo + chunk
                    if hi > n:
                        hi = n
                    # an in-place sum is a prange reduction (a plain assignment would be lastprivate)
                    failed += aa_simulate_fire_chunk(&self.t, b, n_base, <uint64_t>c, lo, hi, m, w) != 0
        if failed:
            raise MemoryError(f"seed: cannot copy the {n_base}-word seed entropy")
        return markers, wounds

    def simulate_state(self, uint64_t[::1] st, int8_t[::1] markers, int16_t[::1] wounds):
        """Fill markers/wounds from the six-word PCG64 state st (advanced in place)."""
        if st.shape[0] != 6:
            raise ValueError(f"st: expected 6 PCG64 state words, got {st.shape[0]}")
        with nogil:
            aa_simulate_fire_pcg(&self.t, &st[0], 0, markers.shape[0], &markers[0] if markers.shape[0] else NULL,
                                 &wounds[0] if wounds.shape[0] else NULL)
