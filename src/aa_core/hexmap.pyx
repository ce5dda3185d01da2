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
    DriftRules, Grid, axial_index, axial_r, dir_dq, dir_dr, drift_landing, hex_distance, line_point,
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
    """Row i of cards = (w1, c1, w2, c2): landing[i] (-1 off map) and hit[i] of a round at (col, row)."""
    cdef Py_ssize_t i, n = cards.shape[0]
    cdef int r = axial_r(col, row, grid.parity)
    with nogil:
        for i in range(n):
            landing[i] = resolve_request(col, r, threshold, cards[i, 0], cards[i, 1], cards[i, 2],
                                         cards[i, 3], &grid, &rules, &hit[i])


cdef struct Setup:
    Grid grid
    DriftRules rules
    int q, r, threshold
    bint independent
    uint32_t dice_sides[4]
    uint32_t dice_threshold
    const int32_t* pile       # deck mode: card ids (6 * (white - 1) + coloured - 1) of the draw pile
    int n_pile
    const int32_t* discard    # ... and of the discard pile (reshuffled in when the pile runs out)
    int n_discard


cdef inline int uniform_below(bitgen_t* bg, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n) (one exact Lemire draw); n == 1 draws nothing."""
    cdef uint32_t sides[1]
    cdef int f[1]
    if n <= 1:
        return 0
    sides[0] = n
    roll_faces(bg, sides, 1, reject_threshold(n), f)
    return f[0] - 1


cdef inline void draw_two(bitgen_t* bg, const Setup* s, int* card1, int* card2) noexcept nogil:
    """Two cards drawn without replacement from the deck state (reshuffling the discards if needed).

    The draw pile's order is unknown, so each draw is uniform over the cards left in it; a revealed
    card goes to the discard pile, which becomes the new draw pile when the pile is empty."""
    cdef int u1, u2, n = s.n_pile, d = s.n_discard
    if n >= 2:
        u1 = uniform_below(bg, n)
        u2 = uniform_below(bg, n - 1)
        if u2 >= u1:
            u2 += 1
        card1[0] = s.pile[u1]
        card2[0] = s.pile[u2]
    elif n == 1:
        card1[0] = s.pile[0]
        u2 = uniform_below(bg, d + 1)
        card2[0] = s.discard[u2] if u2 < d else card1[0]
    else:
        u1 = uniform_below(bg, d)
        card1[0] = s.discard[u1]
        if d >= 2:
            u2 = uniform_below(bg, d - 1)
            if u2 >= u1:
                u2 += 1
            card2[0] = s.discard[u2]
        else:
            card2[0] = card1[0]


cdef inline int one_request(bitgen_t* bg, const Setup* s, uint8_t* hit) noexcept nogil:
    cdef int f[4]
    cdef int a, b
    if s.independent:
        roll_faces(bg, s.dice_sides, 4, s.dice_threshold, f)
    else:
        draw_two(bg, s, &a, &b)
        f[0] = a // 6 + 1
        f[1] = a % 6 + 1
        f[2] = b // 6 + 1
        f[3] = b % 6 + 1
    return resolve_request(s.q, s.r, s.threshold, f[0], f[1], f[2], f[3], &s.grid, &s.rules, hit)


def simulate_requests(list bit_generators, Py_ssize_t chunk, int col, int row, int threshold, Grid grid,
                      DriftRules rules, bint independent, const int32_t[::1] pile,
                      const int32_t[::1] discard, int threads, int32_t[::1] landing, uint8_t[::1] hit):
    """Simulate len(landing) requests at the round (col, row); chunk c uses bit_generators[c] only.

    Independent: one word gives the four d6 (targeting white, coloured, drift white, coloured).
    Deck: two cards drawn from (pile, discard) as in draw_two, the same starting state each time.
    `pile` or `discard` must hold at least one card in deck mode."""
    cdef Py_ssize_t n = landing.shape[0]
    cdef Py_ssize_t n_chunks = len(bit_generators)
    cdef Py_ssize_t c, i, lo, hi
    cdef Setup s
    cdef int j
    cdef int32_t empty[1]
    empty[0] = 0
    s.grid = grid
    s.rules = rules
    s.q = col
    s.r = axial_r(col, row, grid.parity)
    s.threshold = threshold
    s.independent = independent
    for j in range(4):
        s.dice_sides[j] = 6
    s.dice_threshold = reject_threshold(6 * 6 * 6 * 6)
    s.n_pile = <int>pile.shape[0]
    s.n_discard = <int>discard.shape[0]
    s.pile = &pile[0] if s.n_pile > 0 else empty
    s.discard = &discard[0] if s.n_discard > 0 else empty
    if not independent and s.n_pile + s.n_discard == 0:
        raise ValueError("deck mode needs at least one card in the draw or discard pile")
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
                landing[i] = one_request(<bitgen_t*>bgs[c], &s, &hit[i])
