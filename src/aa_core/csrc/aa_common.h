/* Shared by every file of the C core: inline linkage, C++ guards, pi, and Python's min/max.
 *
 * The core is plain C11: no Python or numpy header, no threads, no I/O, no exit/abort. Every
 * header works from C and C++; the static inline primitives are the hot ones the Cython drivers
 * and the engine call in their loops. */
#ifndef AA_COMMON_H
#define AA_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* MSVC's C compiler spells inline __inline before C11 mode; the rest take the standard keyword. */
#if defined(_MSC_VER) && !defined(__cplusplus)
#define AA_INLINE static __inline
#else
#define AA_INLINE static inline
#endif

#ifdef __cplusplus
#define AA_EXTERN_C_BEGIN extern "C" {
#define AA_EXTERN_C_END }
#else
#define AA_EXTERN_C_BEGIN
#define AA_EXTERN_C_END
#endif

/* math.h's M_PI is not ISO C; this literal is the same double. */
#define AA_PI 3.14159265358979323846

/* Python's min(a, b) and max(a, b) (the first of equals; Cython compiles them so): kept exact so
 * that -0.0 and equal keys come out as in the Python engine. */
AA_INLINE double aa_pmin(double a, double b) { return b < a ? b : a; }
AA_INLINE double aa_pmax(double a, double b) { return b > a ? b : a; }
AA_INLINE int aa_imin(int a, int b) { return b < a ? b : a; }
AA_INLINE int aa_imax(int a, int b) { return b > a ? b : a; }

#endif
