# cython: language_level=3
"""Fire kernels over arrays: single attacks, volleys with the per-turn cap, cover, scatter (the C
core's csrc/aa_fire.h)."""
from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t

from aa_core.fire cimport FireRules, cap_markers, predominant_cover, resolve_fire, scatter


def resolve_fire_array(const int64_t[:] attack, const int64_t[:] band, const int64_t[:] defense,
                       const int64_t[:] armor, const int64_t[:] cover, const int64_t[:] ap,
                       const int8_t[:] vehicle, int max_band, FireRules rules,
                       int8_t[:] markers, int32_t[:] wounds):
    """Markers (before the turn cap) and wounds of independent attacks.

    Returns how many elements are outside the valid domain (attack, defense in 0..2**30; band
    1..max_band; armor 1..2**30; cover 0..2; ap -2**30..0); their outputs are meaningless.
    """
    cdef Py_ssize_t i, n = attack.shape[0]
    cdef Py_ssize_t n_bad = 0
    cdef int w, c
    cdef uint64_t big = 1 << 30
    with nogil:
        for i in range(n):
            # One unsigned compare per argument checks both bounds, so validation costs no pass.
            n_bad += ((<uint64_t>attack[i] > big) | (<uint64_t>(band[i] - 1) >= <uint64_t>max_band)
                      | (<uint64_t>defense[i] > big) | (<uint64_t>(armor[i] - 1) >= big)
                      | (<uint64_t>cover[i] > 2) | (<uint64_t>(-ap[i]) > big))
            c = cover[i] if <uint64_t>cover[i] <= 2 else 0  # never index out of the table
            markers[i] = <int8_t>resolve_fire(<int>attack[i], <int>band[i], <int>defense[i],
                                              <int>armor[i], c, <int>ap[i],
                                              vehicle[i] != 0, &rules, &w)
            wounds[i] = w
    return n_bad


def resolve_volley(const int64_t[:] target, const int64_t[:] attack, const int64_t[:] band,
                   const int64_t[:] ap, const int64_t[:] defense, const int64_t[:] armor,
                   const int64_t[:] cover, const int8_t[:] vehicle, const int64_t[:] already,
                   FireRules rules, int64_t[:] markers, int64_t[:] wounds):
    """Simultaneous attacks on targets 0..T-1: per-target markers summed then capped, wounds summed.

    Per-attack arrays (length M): target, attack, band, ap. Per-target arrays (length T): defense,
    armor, cover, vehicle, already (markers received earlier this turn). Outputs have length T.
    """
    cdef Py_ssize_t i, t, m = attack.shape[0], n_t = markers.shape[0]
    cdef int w
    with nogil:
        for t in range(n_t):
            markers[t] = 0
            wounds[t] = 0
        for i in range(m):
            t = target[i]
            markers[t] += resolve_fire(<int>attack[i], <int>band[i], <int>defense[t], <int>armor[t],
                                       <int>cover[t], <int>ap[i], vehicle[t] != 0, &rules, &w)
            wounds[t] += w
        for t in range(n_t):
            markers[t] = cap_markers(<int>markers[t], <int>already[t], vehicle[t] != 0, &rules)


def predominant_cover_array(const int64_t[:] start, const int64_t[:] in_transit,
                            const int64_t[:] destination, int8_t[:] out):
    """Median cover of three points for each element."""
    cdef Py_ssize_t i, n = start.shape[0]
    with nogil:
        for i in range(n):
            out[i] = <int8_t>predominant_cover(<int>start[i], <int>in_transit[i], <int>destination[i])


def scatter_array(const int64_t[:] clock, const int64_t[:] distance, const int64_t[:] spotting,
                  int positions, double increment, double zero_rad, bint clockwise, double[:] dx,
                  double[:] dy):
    """Impact displacement (cm) for each clock / scatter distance / spotting score."""
    cdef Py_ssize_t i, n = clock.shape[0]
    with nogil:
        for i in range(n):
            scatter(<int>clock[i], <int>distance[i], <int>spotting[i], positions, increment, zero_rad,
                    clockwise, &dx[i], &dy[i])


def resolve_fire_scalar(int attack, int band, int defense, int armor, int cover, int ap,
                        bint vehicle, FireRules rules):
    """Scalar twin of resolve_fire: (markers before the turn cap, wounds)."""
    cdef int w
    cdef int m = resolve_fire(attack, band, defense, armor, cover, ap, vehicle, &rules, &w)
    return m, w


def predominant_cover_scalar(int start, int in_transit, int destination):
    """Scalar twin of predominant_cover."""
    return predominant_cover(start, in_transit, destination)


def scatter_scalar(int clock, int distance, int spotting, int positions, double increment,
                   double zero_rad, bint clockwise):
    """Scalar twin of scatter: (dx, dy) in cm."""
    cdef double dx, dy
    scatter(clock, distance, spotting, positions, increment, zero_rad, clockwise, &dx, &dy)
    return dx, dy
