/* The core's own elementary functions: sine and cosine together (aa_sincos) and the natural logarithm
 * (aa_log). Rule outcomes and event values must not depend on the platform's C library (glibc's,
 * musl's, Apple's and MSVC's sin, cos, atan2 and log differ in the last bits), so these are written
 * with IEEE double additions, subtractions, multiplications and divisions only, each correctly
 * rounded everywhere: the same bits on every machine, WebAssembly included, as long as a*b+c is not
 * fused (every build of the core passes -ffp-contract=off). python/atomic_africa/_maths.py is the
 * Python twin, written operation for operation, so the Python engine gets the same bits
 * (tests/test_maths.py compares them, and with the exact values: within one ulp).
 *
 * The algorithms are fdlibm's (Sun Microsystems, 1993; "Permission to use, copy, modify, and
 * distribute this software is freely granted, provided that this notice is preserved"), as FreeBSD
 * and musl carry them: a Cody-Waite reduction by pi/2 in two rounds and the minimax polynomials of
 * k_sin.c, k_cos.c and e_log.c. */
#ifndef AA_MATHS_H
#define AA_MATHS_H

#include <math.h>   /* frexp, ldexp (exact by definition), isfinite */
#include <string.h> /* memcpy: aa_exp reads the high word */

#include "aa_common.h"

/* |x| at most this for aa_sincos (a larger or non-finite x gives NaN): the reduction's products
 * fn * pio2_1 stay exact (fdlibm's "medium" case). The engine's angles stay within a few turns. */
#define AA_SINCOS_MAX 1048576.0

/* sin and cos of y0 + y1 (|y0 + y1| <= pi/4, |y1| tiny): fdlibm's __kernel_sin and __kernel_cos. */
AA_INLINE double aa_ksin_(double x, double y) {
    const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                 S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                 S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
    double z = x * x, v = z * x;
    double r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}

AA_INLINE double aa_kcos_(double x, double y) {
    const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                 C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                 C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
    double z = x * x, w = z * z;
    double r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    double hz = 0.5 * z;
    w = 1.0 - hz;
    return w + (((1.0 - w) - hz) + (z * r - x * y));
}

/* sin(x) into *s and cos(x) into *c, within an ulp of the exact values for |x| <= AA_SINCOS_MAX. */
AA_INLINE void aa_sincos(double x, double *s, double *c) {
    const double invpio2 = 6.36619772367581382433e-01, toint = 6755399441055744.0,   /* 1.5 * 2^52 */
                 pio2_1 = 1.57079632673412561417e+00, pio2_2 = 6.07710050630396597660e-11,
                 pio2_2t = 2.02226624879595063154e-21;
    double fn, r, t, w, y0, y1, ks, kc;
    int n;
    if (!(x >= -AA_SINCOS_MAX && x <= AA_SINCOS_MAX)) {   /* NaN too */
        *s = *c = NAN;
        return;
    }
    /* x = n pi/2 + (y0 + y1), n the nearest integer to x / (pi/2) */
    fn = x * invpio2 + toint;
    fn = fn - toint;
    n = (int)fn;
    /* the second round of fdlibm's __ieee754_rem_pio2 (medium case) always: pi/2 to 118 bits as
     * pio2_1 + pio2_2 + pio2_2t, the first two products exact (33-bit constants, |fn| < 2^20) */
    r = x - fn * pio2_1;
    t = r;
    w = fn * pio2_2;
    r = t - w;
    w = fn * pio2_2t - ((t - r) - w);
    y0 = r - w;
    y1 = (r - y0) - w;
    ks = aa_ksin_(y0, y1);
    kc = aa_kcos_(y0, y1);
    switch (n & 3) {
    case 0: *s = ks; *c = kc; break;
    case 1: *s = kc; *c = -ks; break;
    case 2: *s = -ks; *c = -kc; break;
    default: *s = -kc; *c = ks; break;
    }
}

/* The natural logarithm of x > 0 (finite), within an ulp: fdlibm's e_log.c on frexp's exact split
 * x = m 2^k. NaN for x <= 0 or not finite. */
AA_INLINE double aa_log(double x) {
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10,
                 Lg1 = 6.666666666666735130e-01, Lg2 = 3.999999999940941908e-01,
                 Lg3 = 2.857142874366239149e-01, Lg4 = 2.222219843214978396e-01,
                 Lg5 = 1.818357216161805012e-01, Lg6 = 1.531383769920937332e-01,
                 Lg7 = 1.479819860511658591e-01, sqrt_half = 0.70710678118654752440;
    double m, f, hfsq, s, z, w, t1, t2, R, dk;
    int k;
    if (!(x > 0.0) || !isfinite(x))
        return NAN;
    m = frexp(x, &k);   /* x = m 2^k, m in [1/2, 1) */
    if (m < sqrt_half) {
        m = m * 2.0;
        k = k - 1;
    }
    f = m - 1.0;   /* exact: m in [sqrt(1/2), sqrt(2)) */
    hfsq = 0.5 * f * f;
    s = f / (2.0 + f);
    z = s * s;
    w = z * z;
    t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
    t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
    R = t2 + t1;
    dk = (double)k;
    return dk * ln2_hi - ((hfsq - (s * (hfsq + R) + dk * ln2_lo)) - f);
}

/* e^x, within an ulp: fdlibm's e_exp.c (argument reduction x = k ln2 + r, a Remez polynomial on r),
 * the scaling by 2^k done by ldexp (exact, correctly rounded below the normal range). 0 below
 * -745.13, +inf above 709.78, NaN for NaN. The search's Dirichlet noise and visit temperature use it. */
AA_INLINE double aa_exp(double x) {
    const double halF[2] = {0.5, -0.5}, ln2HI[2] = {6.93147180369123816490e-01, -6.93147180369123816490e-01},
                 ln2LO[2] = {1.90821492927058770002e-10, -1.90821492927058770002e-10},
                 invln2 = 1.44269504088896338700e+00, P1 = 1.66666666666666019037e-01,
                 P2 = -2.77777777770155933842e-03, P3 = 6.61375632143793436117e-05,
                 P4 = -1.65339022054652515390e-06, P5 = 4.13813679705723846039e-08,
                 o_threshold = 7.09782712893383973096e+02, u_threshold = -7.45133219101941108420e+02;
    double hi = 0.0, lo = 0.0, c, t, y;
    int k = 0, xsb;
    uint32_t hx;
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    hx = (uint32_t)(bits >> 32);
    xsb = (int)(hx >> 31);
    hx &= 0x7fffffffu;
    if (hx >= 0x40862E42u) {   /* |x| >= 709.78... */
        if (x != x)
            return x;
        if (x > o_threshold)
            return HUGE_VAL;
        if (x < u_threshold)
            return 0.0;
    }
    if (hx > 0x3fd62e42u) {   /* |x| > 0.5 ln2: reduce */
        if (hx < 0x3FF0A2B2u) {   /* and |x| < 1.5 ln2 */
            hi = x - ln2HI[xsb];
            lo = ln2LO[xsb];
            k = 1 - xsb - xsb;
        } else {
            k = (int)(invln2 * x + halF[xsb]);
            t = (double)k;
            hi = x - t * ln2HI[0];   /* exact: t * ln2HI has 32 significant bits */
            lo = t * ln2LO[0];
        }
        x = hi - lo;
    } else if (hx < 0x3e300000u) {   /* |x| < 2^-28 */
        return 1.0 + x;
    }
    t = x * x;
    c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if (k == 0)
        return 1.0 - ((x * c) / (c - 2.0) - x);
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    return ldexp(y, k);
}

#endif
