# Range stick: the C core's csrc/aa_banding.h. Distance in cm -> band 1..n_edges+1 (the first band
# whose edge is >= d).
cdef extern from "csrc/aa_banding.h" nogil:
    # Band of distance d >= 0; beyond the last edge: n_edges + 1.
    int range_band "aa_range_band"(double d, const double* edges, int n_edges) noexcept
    # range_band on the standard stick of 8 edges (vectorizes in a loop over distances).
    int range_band8 "aa_range_band8"(double d, const double* edges) noexcept
