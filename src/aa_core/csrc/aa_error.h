/* Failing with a message: aa_fail formats this thread's aa_last_error() and returns `status`, so a
 * check reads `if (bad) return aa_fail(AA_ERR_ARGUMENT, "seed: ...");`. */
#ifndef AA_ERROR_H
#define AA_ERROR_H

#include "../include/atomic_africa.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
aa_status aa_fail(aa_status status, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
