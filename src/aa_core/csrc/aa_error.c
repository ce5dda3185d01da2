/* The per-thread message behind aa_last_error(): the only mutable state of the library, one buffer
 * per thread so that hosts running games on many threads read their own failure. */
#include <stdarg.h>
#include <stdio.h>

#include "aa_error.h"

#if defined(_MSC_VER)
#define AA_THREAD_LOCAL __declspec(thread)
#else
#define AA_THREAD_LOCAL _Thread_local
#endif

static AA_THREAD_LOCAL char last_error[512];

int aa_abi_version(void) { return AA_ABI_VERSION; }

const char *aa_version(void) { return AA_VERSION_STRING; }

const char *aa_last_error(void) { return last_error; }

aa_status aa_fail(aa_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}
