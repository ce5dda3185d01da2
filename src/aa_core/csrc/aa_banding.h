/* Range stick: distance in cm -> band 1..n_edges+1 (the first band whose edge is >= d). */
#ifndef AA_BANDING_H
#define AA_BANDING_H

#include "aa_common.h"

/* Band of distance d >= 0; beyond the last edge: n_edges + 1. */
AA_INLINE int aa_range_band(double d, const double *edges, int n_edges) {
    int i, band = 1;
    for (i = 0; i < n_edges; i++)
        band += d > edges[i];
    return band;
}

/* aa_range_band on the standard stick of 8 edges: without a loop-carried count, a loop over many
 * distances vectorizes. */
AA_INLINE int aa_range_band8(double d, const double *e) {
    return 1 + (d > e[0]) + (d > e[1]) + (d > e[2]) + (d > e[3]) + (d > e[4]) + (d > e[5]) + (d > e[6])
        + (d > e[7]);
}

#endif
