# cython: language_level=3
"""Exact odds kernels: score counts of one side's three dice, engagement outcome counts, the grid.

Everything is counted in int64 (number of equally likely face combinations), so the Python layer
can turn counts into floats or exact Fractions. Histograms index a score s at s + 1, so index 0
holds "no such score" (-1 in aa_core.scores.Scores).
"""
from libc.stdint cimport int64_t

from aa_core.fire cimport FireRules
from aa_core.odds cimport volley
from aa_core.scores cimport Scores, action_scores


def side_counts(int s0, int s1, int s2, const signed char[::1] row, bint sprint,
                int64_t[:, ::1] attacks, int64_t[::1] defense, int64_t[::1] rally,
                int64_t[::1] spotting, int64_t[::1] bonus):
    """Count every face triple of dice (s0, s1, s2) by its Table 5 scores for one row.

    attacks[a0 + 1, a1 + 1] is the joint count of the two attack slots (a0 <= a1 when two; -1 =
    none); the others are 1-D histograms. Outputs are zeroed first; sizes must exceed 2 * max face.
    """
    cdef int f0, f1, f2
    cdef Scores s
    attacks[:, :] = 0
    defense[:] = 0
    rally[:] = 0
    spotting[:] = 0
    bonus[:] = 0
    with nogil:
        for f0 in range(1, s0 + 1):
            for f1 in range(1, s1 + 1):
                for f2 in range(1, s2 + 1):
                    action_scores(f0, f1, f2, &row[0], sprint, &s)
                    attacks[s.attack[0] + 1, s.attack[1] + 1] += 1
                    defense[s.defense + 1] += 1
                    rally[s.rally + 1] += 1
                    spotting[s.spotting + 1] += 1
                    bonus[s.sprint_bonus + 1] += 1


def engagement_counts(const int64_t[::1] a0, const int64_t[::1] a1, const int64_t[::1] a_count,
                      const int64_t[::1] d, const int64_t[::1] d_count, bint split_high, int band,
                      int armor, int cover, int ap, bint vehicle, FireRules rules,
                      int64_t[:, ::1] out):
    """out[markers, wounds] = number of (shooter, target) face combinations giving that outcome.

    (a0, a1, a_count): the shooter's joint attack support; (d, d_count): the target's Defense
    support. out is zeroed first and must be large enough (markers <= cap, wounds <= 2 * 24).
    """
    cdef Py_ssize_t i, j, na = a0.shape[0], nd = d.shape[0]
    cdef int m, w
    out[:, :] = 0
    with nogil:
        for i in range(na):
            for j in range(nd):
                m = volley(<int>a0[i], <int>a1[i], <int>d[j], split_high, band, armor, cover, ap,
                           vehicle, &rules, &w)
                out[m, w] += a_count[i] * d_count[j]


def split_counts(const int64_t[::1] a0, const int64_t[::1] a1, const int64_t[::1] a_count,
                 const int64_t[::1] dh, const int64_t[::1] dh_count, int band_h, int armor_h,
                 int cover_h, int ap_h, bint vehicle_h,
                 const int64_t[::1] dl, const int64_t[::1] dl_count, int band_l, int armor_l,
                 int cover_l, int ap_l, bint vehicle_l,
                 FireRules rules, int64_t[:, :, :, ::1] out):
    """Split Fire joint counts out[mh, wh, ml, wl]: the declared target faces a1, the other a0.

    One shooter roll feeds both targets, so the two outcomes are correlated through (a0, a1); the
    targets' Defense rolls are independent. out is zeroed first.
    """
    cdef Py_ssize_t i, j, k, na = a0.shape[0], nh = dh.shape[0], nl = dl.shape[0]
    cdef int mh, wh, ml, wl
    cdef int64_t c
    out[:, :, :, :] = 0
    with nogil:
        for i in range(na):
            for j in range(nh):
                mh = volley(-1, <int>a1[i], <int>dh[j], 0, band_h, armor_h, cover_h, ap_h,
                            vehicle_h, &rules, &wh)
                c = a_count[i] * dh_count[j]
                for k in range(nl):
                    ml = volley(-1, <int>a0[i], <int>dl[k], 0, band_l, armor_l, cover_l, ap_l,
                                vehicle_l, &rules, &wl)
                    out[mh, wh, ml, wl] += c * dl_count[k]


def grid_counts(const int64_t[::1] a0, const int64_t[::1] a1, const int64_t[::1] a_count,
                const int64_t[::1] d, const int64_t[::1] d_count, bint split_high,
                const int64_t[::1] bands, const int64_t[::1] covers, const int64_t[::1] armors,
                int ap, bint vehicle, FireRules rules, int64_t[:, :, :, ::1] out):
    """Per (band, cover, armor) cell: out[..., :] = counts of (>= 1 marker, >= 1 wound),
    sums of markers x count and wounds x count over all face combinations."""
    cdef Py_ssize_t b, c, a, i, j
    cdef Py_ssize_t na = a0.shape[0], nd = d.shape[0]
    cdef int m, w
    cdef int64_t n, n_m, n_w, s_m, s_w
    with nogil:
        for b in range(bands.shape[0]):
            for c in range(covers.shape[0]):
                for a in range(armors.shape[0]):
                    n_m = 0
                    n_w = 0
                    s_m = 0
                    s_w = 0
                    for i in range(na):
                        for j in range(nd):
                            m = volley(<int>a0[i], <int>a1[i], <int>d[j], split_high,
                                       <int>bands[b], <int>armors[a], <int>covers[c], ap, vehicle,
                                       &rules, &w)
                            n = a_count[i] * d_count[j]
                            if m > 0:
                                n_m += n
                            if w > 0:
                                n_w += n
                            s_m += m * n
                            s_w += w * n
                    out[b, c, a, 0] = n_m
                    out[b, c, a, 1] = n_w
                    out[b, c, a, 2] = s_m
                    out[b, c, a, 3] = s_w


def volley_scalar(int a0, int a1, int defense, bint split_high, int band, int armor, int cover,
                  int ap, bint vehicle, FireRules rules):
    """Scalar twin of volley: (capped markers, wounds)."""
    cdef int w
    cdef int m = volley(a0, a1, defense, split_high, band, armor, cover, ap, vehicle, &rules, &w)
    return m, w
