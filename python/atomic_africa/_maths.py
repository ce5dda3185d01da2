"""The engines' own sine, cosine and logarithm: the same bits on every platform.

Rule outcomes and event values must not depend on the C library (glibc's, musl's, Apple's and MSVC's
``sin``, ``cos``, ``atan2`` and ``log`` differ in the last bits, and CPython's ``math`` calls them).
These functions use IEEE double ``+ - * /`` only, each correctly rounded everywhere, in the order of
the C core's ``src/aa_core/csrc/aa_maths.h`` operation for operation, so the Python engine, the C
core natively and the C core compiled to WebAssembly agree bit for bit (``tests/test_maths.py``).
Accuracy: within one ulp of the exact values. The algorithms are fdlibm's (Sun Microsystems, 1993;
"Permission to use, copy, modify, and distribute this software is freely granted, provided that this
notice is preserved"): a Cody-Waite reduction by pi/2 and the minimax polynomials of k_sin.c,
k_cos.c and e_log.c.
"""
from __future__ import annotations

import math
import struct

__all__ = ["sincos", "log", "exp", "SINCOS_MAX"]

#: ``|x|`` at most this for :func:`sincos` (larger or non-finite: NaN): the reduction's products stay exact.
SINCOS_MAX = 1048576.0

_S1, _S2, _S3 = -1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04
_S4, _S5, _S6 = 2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10
_C1, _C2, _C3 = 4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05
_C4, _C5, _C6 = -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11
_INVPIO2, _TOINT = 6.36619772367581382433e-01, 6755399441055744.0
_PIO2_1, _PIO2_2, _PIO2_2T = 1.57079632673412561417e+00, 6.07710050630396597660e-11, 2.02226624879595063154e-21
_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10
_LG1, _LG2, _LG3 = 6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01
_LG4, _LG5, _LG6 = 2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01
_LG7, _SQRT_HALF = 1.479819860511658591e-01, 0.70710678118654752440


def _ksin(x: float, y: float) -> float:
    z = x * x
    v = z * x
    r = _S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * _S6)))
    return x - ((z * (0.5 * y - v * r) - y) - v * _S1)


def _kcos(x: float, y: float) -> float:
    z = x * x
    w = z * z
    r = z * (_C1 + z * (_C2 + z * _C3)) + w * w * (_C4 + z * (_C5 + z * _C6))
    hz = 0.5 * z
    w = 1.0 - hz
    return w + (((1.0 - w) - hz) + (z * r - x * y))


def sincos(x: float) -> tuple:
    """``(sin(x), cos(x))`` as the C core's ``aa_sincos`` computes them (the same bits).

    Parameters
    ----------
    x : float
        Radians, ``|x| <= SINCOS_MAX``.

    Returns
    -------
    tuple of float
        Within one ulp of the exact values; ``(nan, nan)`` outside the domain.
    """
    x = float(x)
    if not -SINCOS_MAX <= x <= SINCOS_MAX:
        return math.nan, math.nan
    fn = x * _INVPIO2 + _TOINT
    fn = fn - _TOINT
    n = int(fn)
    r = x - fn * _PIO2_1
    t = r
    w = fn * _PIO2_2
    r = t - w
    w = fn * _PIO2_2T - ((t - r) - w)
    y0 = r - w
    y1 = (r - y0) - w
    ks, kc = _ksin(y0, y1), _kcos(y0, y1)
    q = n & 3
    if q == 0:
        return ks, kc
    if q == 1:
        return kc, -ks
    if q == 2:
        return -ks, -kc
    return -kc, ks


def log(x: float) -> float:
    """The natural logarithm as the C core's ``aa_log`` computes it (the same bits).

    Parameters
    ----------
    x : float
        A finite number ``> 0``.

    Returns
    -------
    float
        Within one ulp of the exact value; nan for ``x <= 0`` or not finite.
    """
    x = float(x)
    if not (x > 0.0 and math.isfinite(x)):
        return math.nan
    m, k = math.frexp(x)   # exact: x = m 2**k, m in [1/2, 1)
    if m < _SQRT_HALF:
        m = m * 2.0
        k = k - 1
    f = m - 1.0
    hfsq = 0.5 * f * f
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    big_r = t2 + t1
    dk = float(k)
    return dk * _LN2_HI - ((hfsq - (s * (hfsq + big_r) + dk * _LN2_LO)) - f)


_EXP_P = (1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05,
          -1.65339022054652515390e-06, 4.13813679705723846039e-08)
_LN2_HI, _LN2_LO, _INV_LN2 = 6.93147180369123816490e-01, 1.90821492927058770002e-10, 1.44269504088896338700e+00


def exp(x: float) -> float:
    """``e**x`` as the C core's ``aa_exp`` computes it (the same bits).

    Parameters
    ----------
    x : float
        Any number.

    Returns
    -------
    float
        Within one ulp of the exact value; 0 below -745.13, inf above 709.78, nan for nan.
    """
    x = float(x)
    hx = struct.unpack("<Q", struct.pack("<d", x))[0] >> 32
    xsb = hx >> 31
    hx &= 0x7fffffff
    hi = lo = 0.0
    k = 0
    if hx >= 0x40862E42:
        if x != x:
            return x
        if x > 7.09782712893383973096e+02:
            return math.inf
        if x < -7.45133219101941108420e+02:
            return 0.0
    if hx > 0x3fd62e42:
        sign = -1.0 if xsb else 1.0
        if hx < 0x3FF0A2B2:
            hi = x - sign * _LN2_HI
            lo = sign * _LN2_LO
            k = 1 - 2 * xsb
        else:
            k = int(_INV_LN2 * x + (-0.5 if xsb else 0.5))   # C's (int) truncates toward zero, as int() does
            t = float(k)
            hi = x - t * _LN2_HI
            lo = t * _LN2_LO
        x = hi - lo
    elif hx < 0x3e300000:
        return 1.0 + x
    t = x * x
    p1, p2, p3, p4, p5 = _EXP_P
    c = x - t * (p1 + t * (p2 + t * (p3 + t * (p4 + t * p5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi)
    return math.ldexp(y, k)
