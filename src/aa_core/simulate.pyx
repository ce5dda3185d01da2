# cython: language_level=3
"""simulate_fire: roll and resolve many independent engagements, chunked over OpenMP threads.

Chunk c (engagements [c*chunk, (c+1)*chunk)) draws only from stream c, so the output does not
depend on the thread count. The engagements themselves are the C core's (csrc/aa_simulate.h): the
six dice drawn as two mixed-radix "dice" (the shooter's roll index and the target's) by the same
word-level algorithm as rolling them one by one, scores and fire outcomes looked up in tables built
once per call with the scalar primitives.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from cython.parallel cimport prange
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int8_t, int16_t, int64_t, uint32_t, uintptr_t

import numpy as np

from aa_core.fire cimport FireRules
from aa_core.rng cimport aa_bitgen, bitgen_layout_matches


cdef extern from "csrc/aa_simulate.h" nogil:
    ctypedef struct aa_fire_tables:
        uint32_t p_shooter, p_target
        int n_att, n_def
    enum:
        AA_SIM_NO_SCORE_TABLES
        AA_SIM_NO_RESULT_TABLE
    int aa_fire_tables_init(aa_fire_tables* t, const int64_t* shooter, const int64_t* target,
                            const signed char* shooter_row, const signed char* target_row, bint split_fire,
                            int band, int armor, int cover, int ap, bint vehicle,
                            const FireRules* rules) noexcept
    void aa_fire_tables_free(aa_fire_tables* t) noexcept
    void aa_simulate_fire_range(aa_bitgen* bg, const aa_fire_tables* t, ptrdiff_t lo, ptrdiff_t hi,
                                int8_t* markers, int16_t* wounds) noexcept


if not bitgen_layout_matches():
    raise ImportError("aa_core.simulate: numpy's bitgen_t no longer has the layout of the core's aa_bitgen")


def simulate_fire(list bit_generators, Py_ssize_t chunk, const int64_t[::1] shooter,
                  const int64_t[::1] target, const signed char[::1] shooter_row,
                  const signed char[::1] target_row, bint split_fire, int band, int armor, int cover,
                  int ap, bint vehicle, FireRules rules, int threads,
                  int8_t[::1] markers, int16_t[::1] wounds):
    """Fill markers/wounds (length n); chunk c uses bit_generators[c] exclusively."""
    cdef Py_ssize_t n = markers.shape[0]
    cdef Py_ssize_t n_chunks = len(bit_generators)
    cdef Py_ssize_t c, lo, hi
    cdef aa_fire_tables t
    cdef int status
    # The BitGenerators are private to this call (one per chunk), so no lock is needed.
    cdef uintptr_t[::1] bgs = np.empty(n_chunks, dtype=np.uintp)
    for c in range(n_chunks):
        bgs[c] = <uintptr_t>PyCapsule_GetPointer(bit_generators[c].capsule, "BitGenerator")
    status = aa_fire_tables_init(&t, &shooter[0], &target[0], &shooter_row[0], &target_row[0], split_fire,
                                 band, armor, cover, ap, vehicle, &rules)
    try:
        if status == AA_SIM_NO_SCORE_TABLES:
            raise MemoryError(f"shooter, target: cannot allocate the score tables of "
                              f"{t.p_shooter} and {t.p_target} dice rolls")
        if status == AA_SIM_NO_RESULT_TABLE:
            raise MemoryError(f"shooter, target: cannot allocate the {t.n_att} x {t.n_def} "
                              f"fire-result table")
        with nogil:
            for c in prange(n_chunks, num_threads=threads, schedule="dynamic", chunksize=1):
                lo = c * chunk
                hi = lo + chunk
                if hi > n:
                    hi = n
                aa_simulate_fire_range(<aa_bitgen*>bgs[c], &t, lo, hi, &markers[0], &wounds[0])
    finally:
        aa_fire_tables_free(&t)
