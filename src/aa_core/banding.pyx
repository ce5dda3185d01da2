# cython: language_level=3
"""Range banding kernel over arrays of distances (the C core's csrc/aa_banding.h)."""
from libc.float cimport DBL_MAX
from libc.stdint cimport int8_t

from aa_core.banding cimport range_band, range_band8


def range_band_array(const double[:] distance, const double[::1] edges, int8_t[:] out):
    """Band of every distance; returns the first index of a NaN/negative/inf distance, or -1."""
    cdef Py_ssize_t i, n = distance.shape[0]
    cdef Py_ssize_t n_bad = 0
    cdef int ne = <int>edges.shape[0]
    cdef double d
    cdef const double* e = &edges[0]
    with nogil:
        if ne == 8:
            # The standard stick: a fixed trip count lets the compiler vectorize.
            for i in range(n):
                d = distance[i]
                out[i] = <int8_t>range_band8(d, e)
                n_bad += not (d >= 0.0 and d <= DBL_MAX)
        else:
            for i in range(n):
                d = distance[i]
                out[i] = <int8_t>range_band(d, e, ne)
                n_bad += not (d >= 0.0 and d <= DBL_MAX)
    if n_bad:
        for i in range(n):
            d = distance[i]
            if not (d >= 0.0 and d <= DBL_MAX):
                return i
    return -1


def range_band_scalar(double distance, const double[::1] edges):
    """Scalar twin of range_band (valid distance assumed)."""
    return range_band(distance, &edges[0], <int>edges.shape[0])
