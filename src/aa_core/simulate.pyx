# cython: language_level=3
"""simulate_fire: roll and resolve many independent engagements, chunked over OpenMP threads.

Chunk c (engagements [c*chunk, (c+1)*chunk)) draws only from stream c, so the output does not
depend on the thread count.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from cython.parallel cimport prange
from libc.stdint cimport int8_t, int16_t, int64_t, uint32_t, uintptr_t
from numpy.random cimport bitgen_t

import numpy as np

from aa_core.fire cimport FireRules, cap_markers, resolve_fire
from aa_core.rng cimport reject_threshold, roll_faces
from aa_core.scores cimport Scores, action_scores


cdef struct Engagement:
    uint32_t sides[6]          # shooter's three dice, then the target's
    uint32_t threshold
    const signed char* shooter_row
    const signed char* target_row
    bint split_fire            # only the higher of the two attacks hits this target
    int band, armor, cover, ap
    bint vehicle
    FireRules rules


cdef inline void engage(bitgen_t* bg, const Engagement* e, int8_t* markers, int16_t* wounds) noexcept nogil:
    """One engagement: roll six dice, score both sides, resolve the attack(s) as one volley."""
    cdef int f[6]
    cdef Scores sh, tg
    cdef int k, w, m = 0, total_w = 0
    roll_faces(bg, e.sides, 6, e.threshold, f)
    action_scores(f[0], f[1], f[2], e.shooter_row, 0, &sh)
    action_scores(f[3], f[4], f[5], e.target_row, 0, &tg)
    if e.split_fire:
        m = resolve_fire(sh.attack[1], e.band, tg.defense, e.armor, e.cover, e.ap, e.vehicle,
                         &e.rules, &total_w)
    else:
        for k in range(sh.n_attacks):
            m += resolve_fire(sh.attack[k], e.band, tg.defense, e.armor, e.cover, e.ap, e.vehicle,
                              &e.rules, &w)
            total_w += w
    markers[0] = <int8_t>cap_markers(m, 0, e.vehicle, &e.rules)
    wounds[0] = <int16_t>total_w


def simulate_fire(list bit_generators, Py_ssize_t chunk, const int64_t[::1] shooter,
                  const int64_t[::1] target, const signed char[::1] shooter_row,
                  const signed char[::1] target_row, bint split_fire, int band, int armor, int cover,
                  int ap, bint vehicle, FireRules rules, int threads,
                  int8_t[::1] markers, int16_t[::1] wounds):
    """Fill markers/wounds (length n); chunk c uses bit_generators[c] exclusively."""
    cdef Py_ssize_t n = markers.shape[0]
    cdef Py_ssize_t n_chunks = len(bit_generators)
    cdef Py_ssize_t c, i, lo, hi
    cdef Engagement e
    cdef uint32_t product = 1
    cdef int j
    for j in range(3):
        e.sides[j] = <uint32_t>shooter[j]
        e.sides[3 + j] = <uint32_t>target[j]
    for j in range(6):
        product *= e.sides[j]
    e.threshold = reject_threshold(product)
    e.shooter_row = &shooter_row[0]
    e.target_row = &target_row[0]
    e.split_fire = split_fire
    e.band = band
    e.armor = armor
    e.cover = cover
    e.ap = ap
    e.vehicle = vehicle
    e.rules = rules
    # The BitGenerators are private to this call (one per chunk), so no lock is needed.
    cdef uintptr_t[::1] bgs = np.empty(n_chunks, dtype=np.uintp)
    for c in range(n_chunks):
        bgs[c] = <uintptr_t>PyCapsule_GetPointer(bit_generators[c].capsule, "BitGenerator")
    with nogil:
        for c in prange(n_chunks, num_threads=threads, schedule="dynamic", chunksize=1):
            lo = c * chunk
            hi = lo + chunk
            if hi > n:
                hi = n
            for i in range(lo, hi):
                engage(<bitgen_t*>bgs[c], &e, &markers[i], &wounds[i])
