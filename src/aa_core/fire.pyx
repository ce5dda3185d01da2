# cython: language_level=3
"""Fire kernels over arrays: single attacks, volleys with the per-turn cap, cover, scatter (the C
core's csrc/aa_fire.h)."""
cimport numpy as cnp
from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t

from aa_core.fire cimport FireRules, cap_markers, predominant_cover, resolve_fire, scatter

cnp.import_array()


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


cdef extern from *:
    """
    #define AA_MAX_VALUE_ (1 << 30)   /* atomic_africa._limits.MAX_VALUE */
    """
    int AA_MAX_VALUE_


cdef inline bint _plain(object x, long long lo, long long hi):
    """x is a plain int (not bool) in lo..hi (compared as Python ints: no overflow)."""
    return type(x) is int and lo <= x <= hi


cdef class FireKernel:
    """The fire rules as a C struct, converted once: cheap scalar and small-list calls.

    Every method returns None, without computing, when an argument is not a plain int (bool for
    flags) in its domain or a list of them of the right length; the caller then takes its general
    path, which reports the error.
    """
    cdef FireRules rules
    cdef int n_bands

    def __cinit__(self, FireRules rules, int n_bands):
        self.rules = rules
        self.n_bands = n_bands

    def resolve(self, attack, band, defense, armor, cover, ap, vehicle):
        """(markers before the cap, wounds) of one attack, or None (see the class)."""
        cdef int w, m
        if not (_plain(attack, 0, AA_MAX_VALUE_) and _plain(band, 1, self.n_bands)
                and _plain(defense, 0, AA_MAX_VALUE_) and _plain(armor, 1, AA_MAX_VALUE_)
                and _plain(cover, 0, 2) and _plain(ap, -AA_MAX_VALUE_, 0) and type(vehicle) is bool):
            return None
        m = resolve_fire(attack, band, defense, armor, cover, ap, vehicle, &self.rules, &w)
        return m, w

    def volley(self, list target, attack, band, ap, defense, armor, cover, vehicle, already, n_targets):
        """(markers, wounds) int64 arrays of length n_targets for a small volley, or None.

        target: list of target indices; attack, band, ap: a plain int or a list as long as target;
        defense, armor, cover, vehicle, already: a plain int (bool for vehicle) or a list of
        n_targets; n_targets None (inferred as the batch API does) or a plain int.
        """
        cdef Py_ssize_t m = len(target), i, t, nt
        cdef int w, mk
        cdef list per_target = [defense, armor, cover, vehicle, already]
        cdef set sizes = set()
        for x in per_target:
            if type(x) is list:
                sizes.add(len(<list>x))
            elif type(x) is not int and type(x) is not bool:
                return None
        if n_targets is None:
            if len(sizes) == 1:
                nt = sizes.pop()
            else:
                nt = 0
                for x in target:
                    if type(x) is not int:
                        return None
                    if x + 1 > nt:
                        nt = x + 1
        elif type(n_targets) is int and 0 <= n_targets <= 4096:
            nt = n_targets
        else:
            return None
        for x in per_target:
            if type(x) is list and len(<list>x) != nt:
                return None
        for x in (attack, band, ap):
            if type(x) is list and len(<list>x) != m:
                return None
        cdef cnp.npy_intp dim = nt
        cdef cnp.ndarray markers = cnp.PyArray_ZEROS(1, &dim, cnp.NPY_INT64, 0)
        cdef cnp.ndarray wounds = cnp.PyArray_ZEROS(1, &dim, cnp.NPY_INT64, 0)
        cdef int64_t* om = <int64_t*>cnp.PyArray_DATA(markers)
        cdef int64_t* ow = <int64_t*>cnp.PyArray_DATA(wounds)
        for t in range(nt):   # per-target values checked first, as the general path does
            if not (_plain(defense[t] if type(defense) is list else defense, 0, AA_MAX_VALUE_)
                    and _plain(armor[t] if type(armor) is list else armor, 1, AA_MAX_VALUE_)
                    and _plain(cover[t] if type(cover) is list else cover, 0, 2)
                    and type(vehicle[t] if type(vehicle) is list else vehicle) is bool
                    and _plain(already[t] if type(already) is list else already, 0, AA_MAX_VALUE_)):
                return None
        for i in range(m):
            tg = target[i]
            a = attack[i] if type(attack) is list else attack
            b = band[i] if type(band) is list else band
            p = ap[i] if type(ap) is list else ap
            if not (_plain(tg, 0, nt - 1) and _plain(a, 0, AA_MAX_VALUE_) and _plain(b, 1, self.n_bands)
                    and _plain(p, -AA_MAX_VALUE_, 0)):
                return None
            t = tg
            mk = resolve_fire(a, b, defense[t] if type(defense) is list else defense,
                              armor[t] if type(armor) is list else armor,
                              cover[t] if type(cover) is list else cover, p,
                              vehicle[t] if type(vehicle) is list else vehicle, &self.rules, &w)
            om[t] += mk
            ow[t] += w
        for t in range(nt):
            om[t] = cap_markers(<int>om[t], already[t] if type(already) is list else already,
                                vehicle[t] if type(vehicle) is list else vehicle, &self.rules)
        return markers, wounds
