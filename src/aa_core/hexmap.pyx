# cython: language_level=3
"""Hex-map kernels: geometry, line of sight, artillery drift and batch Artillery Request simulation.

Conventions in hexmap.pxd; the computation is the C core's (csrc/aa_hexmap.h, aa_hexmap.c).
simulate_requests: request block c ([c*chunk, (c+1)*chunk)) draws only from stream c, so the output
does not depend on the thread count.
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from cython.parallel cimport prange
from libc.stdint cimport int32_t, int64_t, uint8_t, uintptr_t

import numpy as np

from aa_core.hexmap cimport (
    DriftRules, Grid, aa_los_array, aa_requests, aa_requests_init, aa_resolve_requests, aa_simulate_requests,
    axial_r, dir_dq, dir_dr, drift_landing, hex_distance, line_point, los_hindrance, offset_row,
    resolve_request,
)
from aa_core.rng cimport aa_bitgen, bitgen_layout_matches

if not bitgen_layout_matches():
    raise ImportError("aa_core.hexmap: numpy's bitgen_t no longer has the layout of the core's aa_bitgen")


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
    with nogil:
        aa_los_array(col, row, &grid, &blocking[0], &hindrance[0], count_target, &out[0])


def resolve_requests(int col, int row, int threshold, const int32_t[:, ::1] cards, Grid grid,
                     DriftRules rules, int32_t[::1] landing, uint8_t[::1] hit):
    """Row i of cards = (w1, c1, w2, c2): landing[i] (-1 off map) and hit[i] of a round at (col, row).

    Returns the flat index of the first face outside 1..6 (its row is left unresolved), or -1."""
    cdef Py_ssize_t bad
    with nogil:
        bad = aa_resolve_requests(col, row, threshold, &cards[0, 0], cards.shape[0], cards.shape[1], &grid,
                                  &rules, &landing[0], &hit[0])
    return bad


def simulate_requests(list bit_generators, Py_ssize_t chunk, int col, int row, int threshold, Grid grid,
                      DriftRules rules, bint independent, const int32_t[::1] pile,
                      const int32_t[::1] discard, int threads, int32_t[::1] landing, uint8_t[::1] hit):
    """Simulate len(landing) requests at the round (col, row); chunk c uses bit_generators[c] only.

    Each request draws its two cards (independent d6, or from the deck state (pile, discard), the
    same starting state each time) and looks its landing up in the landing table (aa_requests).
    `pile` or `discard` must hold at least one card in deck mode."""
    cdef Py_ssize_t n = landing.shape[0]
    cdef Py_ssize_t n_chunks = len(bit_generators)
    cdef Py_ssize_t c, lo, hi
    cdef aa_requests s
    cdef int n_pile = <int>pile.shape[0], n_discard = <int>discard.shape[0]
    if aa_requests_init(&s, col, row, threshold, &grid, &rules, independent,
                        &pile[0] if n_pile > 0 else NULL, n_pile,
                        &discard[0] if n_discard > 0 else NULL, n_discard) != 0:
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
            if lo < hi:
                aa_simulate_requests(<aa_bitgen*>bgs[c], &s, lo, hi, &landing[0], &hit[0])
