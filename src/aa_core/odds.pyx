# cython: language_level=3
"""Exact odds kernels: score counts of one side's three dice, engagement outcome counts, the grid.

Everything is counted in int64 (number of equally likely face combinations), so the Python layer
can turn counts into floats or exact Fractions. Histograms index a score s at s + 1, so index 0
holds "no such score" (-1 in aa_core.scores.Scores). The counting is the C core's (csrc/aa_odds.h).
"""
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int64_t

from aa_core.fire cimport FireRules
from aa_core.odds cimport (aa_engagement_counts, aa_grid_counts, aa_side_counts, aa_split_counts,
                           aa_split_target, volley)


def side_counts(int s0, int s1, int s2, const signed char[::1] row, bint sprint,
                int64_t[:, ::1] attacks, int64_t[::1] defense, int64_t[::1] rally,
                int64_t[::1] spotting, int64_t[::1] bonus):
    """Count every face triple of dice (s0, s1, s2) by its Table 5 scores for one row.

    attacks[a0 + 1, a1 + 1] is the joint count of the two attack slots (a0 <= a1 when two; -1 =
    none); the others are 1-D histograms. Outputs are zeroed first; sizes must exceed 2 * max face.
    """
    with nogil:
        aa_side_counts(s0, s1, s2, &row[0], sprint, &attacks[0, 0], attacks.shape[0], attacks.shape[1],
                       &defense[0], &rally[0], &spotting[0], &bonus[0], defense.shape[0])


def engagement_counts(const int64_t[::1] a0, const int64_t[::1] a1, const int64_t[::1] a_count,
                      const int64_t[::1] d, const int64_t[::1] d_count, bint split_high, int band,
                      int armor, int cover, int ap, bint vehicle, FireRules rules,
                      int64_t[:, ::1] out):
    """out[markers, wounds] = number of (shooter, target) face combinations giving that outcome.

    (a0, a1, a_count): the shooter's joint attack support; (d, d_count): the target's Defense
    support. out is zeroed first and must be large enough (markers <= cap, wounds <= 2 * 24).
    """
    with nogil:
        aa_engagement_counts(&a0[0], &a1[0], &a_count[0], a0.shape[0], &d[0], &d_count[0], d.shape[0],
                             split_high, band, armor, cover, ap, vehicle, &rules, &out[0, 0], out.shape[0],
                             out.shape[1])


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
    cdef aa_split_target h, l
    cdef ptrdiff_t dims[4]
    h.d, h.d_count, h.nd = &dh[0], &dh_count[0], dh.shape[0]
    h.band, h.armor, h.cover, h.ap, h.vehicle = band_h, armor_h, cover_h, ap_h, vehicle_h
    l.d, l.d_count, l.nd = &dl[0], &dl_count[0], dl.shape[0]
    l.band, l.armor, l.cover, l.ap, l.vehicle = band_l, armor_l, cover_l, ap_l, vehicle_l
    for k in range(4):
        dims[k] = out.shape[k]
    with nogil:
        aa_split_counts(&a0[0], &a1[0], &a_count[0], a0.shape[0], &h, &l, &rules, &out[0, 0, 0, 0], dims)


def grid_counts(const int64_t[::1] a0, const int64_t[::1] a1, const int64_t[::1] a_count,
                const int64_t[::1] d, const int64_t[::1] d_count, bint split_high,
                const int64_t[::1] bands, const int64_t[::1] covers, const int64_t[::1] armors,
                int ap, bint vehicle, FireRules rules, int64_t[:, :, :, ::1] out):
    """Per (band, cover, armor) cell: out[..., :] = counts of (>= 1 marker, >= 1 wound),
    sums of markers x count and wounds x count over all face combinations."""
    with nogil:
        aa_grid_counts(&a0[0], &a1[0], &a_count[0], a0.shape[0], &d[0], &d_count[0], d.shape[0], split_high,
                       &bands[0], bands.shape[0], &covers[0], covers.shape[0], &armors[0], armors.shape[0],
                       ap, vehicle, &rules, &out[0, 0, 0, 0])


def volley_scalar(int a0, int a1, int defense, bint split_high, int band, int armor, int cover,
                  int ap, bint vehicle, FireRules rules):
    """Scalar twin of volley: (capped markers, wounds)."""
    cdef int w
    cdef int m = volley(a0, a1, defense, split_high, band, armor, cover, ap, vehicle, &rules, &w)
    return m, w
