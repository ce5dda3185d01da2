# cython: language_level=3
"""Hex-map kernels: geometry, line of sight, artillery drift and batch Artillery Request simulation.

Conventions in hexmap.pxd. simulate_requests: request block c ([c*chunk, (c+1)*chunk)) draws only
from stream c, so the output does not depend on the thread count.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from cython.parallel cimport prange
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uintptr_t
from numpy.random cimport bitgen_t

import numpy as np

from aa_core.hexmap cimport (
    DriftRules, Grid, axial_r, dir_dq, dir_dr, drift_landing, hex_distance, landing_table, line_point,
    los_hindrance, offset_row, resolve_request,
)
from aa_core.rng cimport reject_threshold, roll_faces


# -- scalar twins ---------------------------------------------------------------------------------
def hex_distance_scalar(int c0, int r0, int c1, int r1, int parity):
    """Hex distance between offset hexes (col, row)."""
    return hex_distance(c0, axial_r(c0, r0, parity), c1, axial_r(c1, r1, parity))


def hex_step_scalar(int col, int row, int direction, int parity):
    """The offset hex one step from (col, row) towards direction 0..5 (N..NW); may be off map."""
    cdef int q = col + dir_dq(direction)
    cdef int r = axial_r(col, row, parity) + dir_dr(direction)
    return q, offset_row(q, r, parity)


def hex_line_scalar(int c0, int r0, int c1, int r1, int parity):
    """The hex line from (c0, r0) to (c1, r1) inclusive, as a list of offset (col, row)."""
    cdef int a = axial_r(c0, r0, parity), b = axial_r(c1, r1, parity)
    cdef int n = hex_distance(c0, a, c1, b), i, q, r
    out = []
    for i in range(n + 1):
        if n == 0:
            q, r = c0, a
        else:
            line_point(c0, a, c1, b, n, i, &q, &r)
        out.append((q, offset_row(q, r, parity)))
    return out


def los_scalar(int c0, int r0, int c1, int r1, Grid grid, const uint8_t[::1] blocking,
               const int32_t[::1] hindrance, bint count_target):
    """-1 if the line is blocked, else the hindrance along it (see los_hindrance)."""
    return los_hindrance(c0, axial_r(c0, r0, grid.parity), c1, axial_r(c1, r1, grid.parity), &grid,
                         &blocking[0], &hindrance[0], count_target)


def drift_scalar(int col, int row, bint hit, int white, int coloured, Grid grid, DriftRules rules):
    """Landing index of a round drifting from (col, row) with the drift card, -1 off map."""
    return drift_landing(col, axial_r(col, row, grid.parity), hit, white, coloured, &grid, &rules)


def resolve_request_scalar(int col, int row, int threshold, int w1, int c1, int w2, int c2, Grid grid,
                           DriftRules rules):
    """(hit, landing index or -1) for the targeting card (w1, c1) and the drift card (w2, c2)."""
    cdef uint8_t hit
    cdef int k = resolve_request(col, axial_r(col, row, grid.parity), threshold, w1, c1, w2, c2, &grid,
                                 &rules, &hit)
    return bool(hit), k


# -- array kernels --------------------------------------------------------------------------------
def los_array(int col, int row, Grid grid, const uint8_t[::1] blocking, const int32_t[::1] hindrance,
              bint count_target, int32_t[::1] out):
    """out[k] = los_hindrance from (col, row) to every map hex k (-1 blocked)."""
    cdef int q0 = col, r0 = axial_r(col, row, grid.parity), c, rw
    with nogil:
        for rw in range(grid.rows):
            for c in range(grid.cols):
                out[rw * grid.cols + c] = los_hindrance(q0, r0, c, axial_r(c, rw, grid.parity), &grid,
                                                        &blocking[0], &hindrance[0], count_target)


def resolve_requests(int col, int row, int threshold, const int32_t[:, ::1] cards, Grid grid,
                     DriftRules rules, int32_t[::1] landing, uint8_t[::1] hit):
    """Row i of cards = (w1, c1, w2, c2): landing[i] (-1 off map) and hit[i] of a round at (col, row).

    Returns the flat index of the first face outside 1..6 (its row is left unresolved), or -1."""
    cdef Py_ssize_t i, n = cards.shape[0], bad = -1
    cdef int a, j
    cdef int32_t table[1296]
    cdef uint8_t hits[36]
    with nogil:
        landing_table(col, axial_r(col, row, grid.parity), threshold, &grid, &rules, table, hits)
        for i in range(n):
            for j in range(4):
                if <uint32_t>(cards[i, j] - 1) >= 6:
                    if bad < 0:
                        bad = 4 * i + j
                    break
            else:
                a = 6 * (cards[i, 0] - 1) + cards[i, 1] - 1
                landing[i] = table[36 * a + 6 * (cards[i, 2] - 1) + cards[i, 3] - 1]
                hit[i] = hits[a]
    return bad


cdef struct Setup:
    int32_t table[1296]       # landing of (targeting card, drift card), see landing_table
    uint8_t hits[36]
    bint independent
    uint32_t pairs_threshold  # Lemire rejection threshold for 1296 outcomes of four d6
    const int32_t* pile       # deck mode: card ids of the draw pile ...
    int n_pile
    const int32_t* discard    # ... and of the discard pile (reshuffled in when the pile runs out)
    int n_discard
    uint32_t thr[4]           # rejection thresholds of n_pile, n_pile - 1, n_discard + 1 (or n_discard), n_discard - 1


cdef inline int below(bitgen_t* bg, uint32_t n, uint32_t threshold) noexcept nogil:
    """Uniform integer in [0, n) by one exact Lemire draw (rejection below `threshold`); n <= 1
    draws nothing."""
    cdef uint32_t sides[1]
    cdef int f[1]
    if n <= 1:
        return 0
    sides[0] = n
    roll_faces(bg, sides, 1, threshold, f)
    return f[0] - 1


cdef inline uint32_t thr_of(int n) noexcept nogil:
    return reject_threshold(<uint32_t>n) if n > 1 else 0


cdef inline int draw_pair(bitgen_t* bg, const Setup* s) noexcept nogil:
    """36 * (first card) + (second card) of the next two cards revealed.

    Independent: one draw of u in [0, 1296), i.e. four d6 (w1, c1, w2, c2) as its base-6 digits,
    exactly the faces roll_faces gives for sides (6, 6, 6, 6). Deck: two cards without replacement,
    uniform over the cards left in the draw pile (its order is unknown); a revealed card goes to the
    discard pile, which becomes the new draw pile when the pile is empty."""
    cdef int u1, u2, n = s.n_pile, d = s.n_discard
    if s.independent:
        return below(bg, 1296, s.pairs_threshold)
    if n >= 2:
        u1 = below(bg, n, s.thr[0])
        u2 = below(bg, n - 1, s.thr[1])
        if u2 >= u1:
            u2 += 1
        return 36 * s.pile[u1] + s.pile[u2]
    if n == 1:
        u2 = below(bg, d + 1, s.thr[2])
        return 36 * s.pile[0] + (s.discard[u2] if u2 < d else s.pile[0])
    u1 = below(bg, d, s.thr[2])
    if d >= 2:
        u2 = below(bg, d - 1, s.thr[3])
        if u2 >= u1:
            u2 += 1
        return 36 * s.discard[u1] + s.discard[u2]
    return 37 * s.discard[u1]


def simulate_requests(list bit_generators, Py_ssize_t chunk, int col, int row, int threshold, Grid grid,
                      DriftRules rules, bint independent, const int32_t[::1] pile,
                      const int32_t[::1] discard, int threads, int32_t[::1] landing, uint8_t[::1] hit):
    """Simulate len(landing) requests at the round (col, row); chunk c uses bit_generators[c] only.

    Each request draws its two cards (draw_pair: independent d6, or from the deck state (pile,
    discard), the same starting state each time) and looks its landing up in the landing_table.
    `pile` or `discard` must hold at least one card in deck mode."""
    cdef Py_ssize_t n = landing.shape[0]
    cdef Py_ssize_t n_chunks = len(bit_generators)
    cdef Py_ssize_t c, i, lo, hi
    cdef Setup s
    cdef int k
    cdef int32_t empty[1]
    empty[0] = 0
    landing_table(col, axial_r(col, row, grid.parity), threshold, &grid, &rules, s.table, s.hits)
    s.independent = independent
    s.pairs_threshold = reject_threshold(1296)
    s.n_pile = <int>pile.shape[0]
    s.n_discard = <int>discard.shape[0]
    s.pile = &pile[0] if s.n_pile > 0 else empty
    s.discard = &discard[0] if s.n_discard > 0 else empty
    if not independent and s.n_pile + s.n_discard == 0:
        raise ValueError("deck mode needs at least one card in the draw or discard pile")
    s.thr[0] = thr_of(s.n_pile)
    s.thr[1] = thr_of(s.n_pile - 1)
    s.thr[2] = thr_of(s.n_discard + 1 if s.n_pile == 1 else s.n_discard)
    s.thr[3] = thr_of(s.n_discard - 1)
    # The BitGenerators are private to this call (one per chunk), so no lock is needed.
    cdef uintptr_t[::1] bgs = np.empty(max(n_chunks, 1), dtype=np.uintp)
    for c in range(n_chunks):
        bgs[c] = <uintptr_t>PyCapsule_GetPointer(bit_generators[c].capsule, "BitGenerator")
    with nogil:
        for c in prange(n_chunks, num_threads=threads, schedule="dynamic", chunksize=1):
            lo = c * chunk
            hi = lo + chunk
            if hi > n:
                hi = n
            for i in range(lo, hi):
                k = draw_pair(<bitgen_t*>bgs[c], &s)
                landing[i] = s.table[k]
                hit[i] = s.hits[k // 36]
