# cython: language_level=3
"""Range banding kernel over arrays of distances."""
from libc.stdint cimport int8_t

from aa_core.banding cimport range_band


def range_band_array(const double[:] distance, const double[::1] edges, int8_t[:] out):
    """Band of every distance; returns the first index of a NaN/negative/inf distance, or -1."""
    cdef Py_ssize_t i, n = distance.shape[0]
    cdef Py_ssize_t bad = -1
    cdef int ne = <int>edges.shape[0]
    cdef double d
    cdef const double* e = &edges[0]
    with nogil:
        if ne == 8:
            # The standard stick: a fixed trip count lets the compiler vectorize.
            for i in range(n):
                d = distance[i]
                out[i] = <int8_t>(1 + (d > e[0]) + (d > e[1]) + (d > e[2]) + (d > e[3])
                                  + (d > e[4]) + (d > e[5]) + (d > e[6]) + (d > e[7]))
        else:
            for i in range(n):
                out[i] = <int8_t>range_band(distance[i], e, ne)
        for i in range(n):
            d = distance[i]
            if not (d >= 0.0 and d < 1e300):
                bad = i
                break
    return bad


def range_band_scalar(double distance, const double[::1] edges):
    """Scalar twin of range_band (valid distance assumed)."""
    return range_band(distance, &edges[0], <int>edges.shape[0])
