/* Feeds spec files to aa_spec_load (tests/test_spec_file.py compiles it, under sanitizers for the fuzz
 * run): stdin holds frames (u32 little-endian length, then that many bytes); for each, one line
 * "status<TAB>message" on stdout. With the argument "default", loads aa_spec_default instead and
 * prints its sizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_africa.h"
#include "aa_spec.h"

int main(int argc, char **argv) {
    unsigned char head[4];
    aa_spec *spec = NULL;
    aa_status st;
    if (argc > 1 && strcmp(argv[1], "default") == 0) {
        const aa_params *P;
        st = aa_spec_default(&spec);
        if (st != AA_OK) {
            printf("%d\t%s\n", (int)st, aa_last_error());
            return 1;
        }
        P = aa_spec_params(spec);
        printf("%d\tC=%d K=%d n_actions=%d obs_size=%d n_feat=%d\n", (int)st, P->C, P->K, P->n_actions,
               P->obs_size, P->terrain.n_feat);
        aa_spec_free(spec);
        return 0;
    }
    while (fread(head, 1, 4, stdin) == 4) {
        size_t n = (size_t)head[0] | (size_t)head[1] << 8 | (size_t)head[2] << 16 | (size_t)head[3] << 24;
        /* a separate allocation of exactly n bytes: AddressSanitizer sees any read past the end */
        unsigned char *buf = (unsigned char *)malloc(n ? n : 1);
        if (buf == NULL || fread(buf, 1, n, stdin) != n) {
            free(buf);
            return 2;
        }
        st = aa_spec_load(buf, n, &spec);
        printf("%d\t%s\n", (int)st, st == AA_OK ? "" : aa_last_error());
        if ((st == AA_OK) != (spec != NULL))
            return 3;
        aa_spec_free(spec);
        spec = NULL;
        free(buf);
    }
    return 0;
}
