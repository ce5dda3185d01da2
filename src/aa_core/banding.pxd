# Range stick: distance in cm -> band 1..n_edges+1 (first band whose edge is >= d).
cdef inline int range_band(double d, const double* edges, int n_edges) noexcept nogil:
    """Band of distance d >= 0; beyond the last edge: n_edges + 1."""
    cdef int i, band = 1
    for i in range(n_edges):
        band += d > edges[i]
    return band
