# cython: language_level=3
"""simulate_fire: roll and resolve many independent engagements, chunked over OpenMP threads.

Chunk c (engagements [c*chunk, (c+1)*chunk)) draws only from stream c, so the output does not
depend on the thread count. The six dice are drawn as two mixed-radix "dice": the shooter's roll
index (P_s outcomes) and the target's (P_t outcomes); this is the same word-level algorithm as
rng.roll_faces on the six faces (first die most significant), so the faces, hence the results,
are identical to rolling the dice one by one. Scores and fire outcomes are looked up in tables
built once per call with the scalar primitives.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from cython.parallel cimport prange
from libc.stdint cimport int8_t, int16_t, int64_t, uint32_t, uint64_t, uintptr_t
from libc.stdlib cimport free, malloc
from numpy.random cimport bitgen_t

import numpy as np

from aa_core.fire cimport FireRules, resolve_fire
from aa_core.rng cimport reject_threshold
from aa_core.scores cimport Scores, action_scores


cdef struct Tables:
    uint32_t p_shooter, p_target, threshold
    int16_t* attacks       # [p_shooter, 2]: attack(s) of each shooter roll, -1 when absent
    int16_t* defense       # [p_target]: Defense of each target roll
    int n_def              # defense values are 0..n_def-1
    int8_t* markers        # [attack, defense] -> markers of one attack (before the cap)
    int16_t* wounds        # [attack, defense] -> wounds of one attack
    int cap                # per-turn marker cap of this target


cdef inline void roll_index(const int64_t* sides, uint32_t idx, int* faces) noexcept nogil:
    """Faces of roll number idx of three dice (mixed radix, first die most significant)."""
    faces[2] = <int>(idx % sides[2]) + 1
    idx //= sides[2]
    faces[1] = <int>(idx % sides[1]) + 1
    faces[0] = <int>(idx // sides[1]) + 1


cdef inline void engage(bitgen_t* bg, const Tables* t, int8_t* markers, int16_t* wounds) noexcept nogil:
    """One engagement: one exact uniform draw of both rolls, then table lookups."""
    cdef uint32_t r, i_s, i_t
    cdef uint64_t m
    cdef int a0, a1, d, mk, w
    while True:
        r = bg.next_uint32(bg.state)
        m = <uint64_t>r * t.p_shooter
        i_s = <uint32_t>(m >> 32)
        m = <uint64_t><uint32_t>m * t.p_target
        i_t = <uint32_t>(m >> 32)
        if <uint32_t>m >= t.threshold:
            break
    a0 = t.attacks[2 * i_s]
    a1 = t.attacks[2 * i_s + 1]
    d = t.defense[i_t]
    mk = t.markers[a0 * t.n_def + d]
    w = t.wounds[a0 * t.n_def + d]
    if a1 >= 0:
        mk += t.markers[a1 * t.n_def + d]
        w += t.wounds[a1 * t.n_def + d]
    markers[0] = <int8_t>(mk if mk < t.cap else t.cap)
    wounds[0] = <int16_t>w


def simulate_fire(list bit_generators, Py_ssize_t chunk, const int64_t[::1] shooter,
                  const int64_t[::1] target, const signed char[::1] shooter_row,
                  const signed char[::1] target_row, bint split_fire, int band, int armor, int cover,
                  int ap, bint vehicle, FireRules rules, int threads,
                  int8_t[::1] markers, int16_t[::1] wounds):
    """Fill markers/wounds (length n); chunk c uses bit_generators[c] exclusively."""
    cdef Py_ssize_t n = markers.shape[0]
    cdef Py_ssize_t n_chunks = len(bit_generators)
    cdef Py_ssize_t c, i, lo, hi
    cdef uint32_t k
    cdef int f[3]
    cdef int a, d, w, n_att = 0
    cdef Scores s
    cdef Tables t
    t.p_shooter = <uint32_t>(shooter[0] * shooter[1] * shooter[2])
    t.p_target = <uint32_t>(target[0] * target[1] * target[2])
    t.threshold = reject_threshold(t.p_shooter * t.p_target)
    t.cap = rules.turn_cap[vehicle]
    t.attacks = <int16_t*>malloc(2 * t.p_shooter * sizeof(int16_t))
    t.defense = <int16_t*>malloc(t.p_target * sizeof(int16_t))
    t.markers = NULL
    t.wounds = NULL
    # The BitGenerators are private to this call (one per chunk), so no lock is needed.
    cdef uintptr_t[::1] bgs = np.empty(n_chunks, dtype=np.uintp)
    for c in range(n_chunks):
        bgs[c] = <uintptr_t>PyCapsule_GetPointer(bit_generators[c].capsule, "BitGenerator")
    try:
        if t.attacks == NULL or t.defense == NULL:
            raise MemoryError(f"shooter, target: cannot allocate the score tables of "
                              f"{t.p_shooter} and {t.p_target} dice rolls")
        for k in range(t.p_shooter):
            roll_index(&shooter[0], k, f)
            action_scores(f[0], f[1], f[2], &shooter_row[0], 0, &s)
            if split_fire:  # this target was declared to face the higher attack
                t.attacks[2 * k] = s.attack[s.n_attacks - 1]
                t.attacks[2 * k + 1] = -1
            else:
                t.attacks[2 * k] = s.attack[0]
                t.attacks[2 * k + 1] = s.attack[1] if s.n_attacks > 1 else -1
            n_att = max(n_att, t.attacks[2 * k] + 1, t.attacks[2 * k + 1] + 1)
        t.n_def = 0
        for k in range(t.p_target):
            roll_index(&target[0], k, f)
            action_scores(f[0], f[1], f[2], &target_row[0], 0, &s)
            t.defense[k] = s.defense
            t.n_def = max(t.n_def, s.defense + 1)
        t.markers = <int8_t*>malloc(n_att * t.n_def * sizeof(int8_t))
        t.wounds = <int16_t*>malloc(n_att * t.n_def * sizeof(int16_t))
        if t.markers == NULL or t.wounds == NULL:
            raise MemoryError(f"shooter, target: cannot allocate the {n_att} x {t.n_def} "
                              f"fire-result table")
        for a in range(n_att):
            for d in range(t.n_def):
                t.markers[a * t.n_def + d] = <int8_t>resolve_fire(a, band, d, armor, cover, ap, vehicle,
                                                                   &rules, &w)
                t.wounds[a * t.n_def + d] = <int16_t>w
        with nogil:
            for c in prange(n_chunks, num_threads=threads, schedule="dynamic", chunksize=1):
                lo = c * chunk
                hi = lo + chunk
                if hi > n:
                    hi = n
                for i in range(lo, hi):
                    engage(<bitgen_t*>bgs[c], &t, &markers[i], &wounds[i])
    finally:
        free(t.attacks)
        free(t.defense)
        free(t.markers)
        free(t.wounds)
