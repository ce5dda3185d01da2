# Exact odds primitives: the C core's csrc/aa_odds.h. The outcome of one engagement for given scores,
# exactly as simulate_fire resolves it, so enumerating scores with their counts is exact; and the
# counting kernels over contiguous arrays (in the C library).
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int64_t

from aa_core.fire cimport FireRules

cdef extern from "csrc/aa_odds.h" nogil:
    # Capped markers (wounds summed into *wounds) of attacks a0 <= a1 (-1 = none) on one target.
    # Split Fire's declared target faces only a1, the higher attack; otherwise every attack present
    # is one volley: markers summed then capped per turn, wounds summed.
    int volley "aa_volley"(int a0, int a1, int defense, bint split_high, int band, int armor, int cover,
                           int ap, bint vehicle, const FireRules* r, int* wounds) noexcept

    ctypedef struct aa_split_target:
        const int64_t* d
        const int64_t* d_count
        ptrdiff_t nd
        int band, armor, cover, ap, vehicle

    void aa_side_counts(int s0, int s1, int s2, const signed char* row, bint sprint, int64_t* attacks,
                        ptrdiff_t att_rows, ptrdiff_t att_cols, int64_t* defense, int64_t* rally,
                        int64_t* spotting, int64_t* bonus, ptrdiff_t n_hist) noexcept
    void aa_engagement_counts(const int64_t* a0, const int64_t* a1, const int64_t* a_count, ptrdiff_t na,
                              const int64_t* d, const int64_t* d_count, ptrdiff_t nd, bint split_high,
                              int band, int armor, int cover, int ap, bint vehicle, const FireRules* rules,
                              int64_t* out, ptrdiff_t n_markers, ptrdiff_t n_wounds) noexcept
    void aa_split_counts(const int64_t* a0, const int64_t* a1, const int64_t* a_count, ptrdiff_t na,
                         const aa_split_target* h, const aa_split_target* l, const FireRules* rules,
                         int64_t* out, const ptrdiff_t* dims) noexcept
    void aa_grid_counts(const int64_t* a0, const int64_t* a1, const int64_t* a_count, ptrdiff_t na,
                        const int64_t* d, const int64_t* d_count, ptrdiff_t nd, bint split_high,
                        const int64_t* bands, ptrdiff_t nb, const int64_t* covers, ptrdiff_t nc,
                        const int64_t* armors, ptrdiff_t narm, int ap, bint vehicle, const FireRules* rules,
                        int64_t* out) noexcept
