/* atomic-africa's public C API: the Atomic Africa engine for C and C++ hosts, on opaque handles.
 *
 * Link the static library libatomic_africa.a (no Python needed at run time). Every function that
 * can fail returns an aa_status; on failure aa_last_error() holds a one-line message for this
 * thread naming the argument and what is allowed. Nothing here aborts or crashes on bad input.
 *
 * Ownership and threading: a spec (rules + scenario) is immutable once made and may be shared
 * read-only by any number of threads and games; it must outlive the games made from it. A game
 * handle is single-threaded: use one handle from one thread at a time (copies are independent).
 *
 * Version policy: AA_ABI_VERSION changes whenever a declaration here or a layout a compiled host
 * can see changes; aa_abi_version() is the value the library was built with. Within one ABI
 * version, functions are only ever added. */
#ifndef ATOMIC_AFRICA_H
#define ATOMIC_AFRICA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AA_ABI_VERSION 1

typedef enum aa_status {
    AA_OK = 0,
    AA_ERR_ARGUMENT = 1,   /* an argument out of its allowed values (NULL, range, buffer too small) */
    AA_ERR_SPEC = 2,       /* a spec file truncated, corrupted, of another version or out of bounds */
    AA_ERR_ILLEGAL = 3,    /* an action that is not legal now (the game is unchanged) */
    AA_ERR_MEMORY = 4,     /* an allocation failed (nothing was changed) */
    AA_ERR_OVER = 5        /* the game is over */
} aa_status;

typedef struct aa_spec aa_spec;   /* rules + scenario, immutable */
typedef struct aa_game aa_game;   /* one game in play */

/* The ABI version the library was built with (compare with AA_ABI_VERSION). */
int aa_abi_version(void);

/* The message of this thread's last failure ("" if none); valid until its next failing call. */
const char *aa_last_error(void);

/* ------------------------------------------------------------------------------------- specs */

/* The default battle with the packaged rules (atomic-africa's built-in scenario). */
aa_status aa_spec_default(aa_spec **out);

/* A spec from the bytes of a file written by `atomic-africa compile` (validated field by field). */
aa_status aa_spec_load(const void *data, size_t len, aa_spec **out);

/* Free a spec (NULL is allowed). */
void aa_spec_free(aa_spec *spec);

#ifdef __cplusplus
}
#endif

#endif
